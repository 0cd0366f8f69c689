-- Which timelines a question is about (brief, recall's timeline lines) is decided by index
-- instead of a DISTINCT over every row of each attribute the question may name (0.44 s at a
-- million facts). A question names a subject by its slug's words (factstore/timelines/
-- about.py: subject_mentioned), so a named subject's first and last slug part are both
-- question words: the index keys each timeline row by (scope, attribute, last part, first
-- part, subject). The parts are about.slug_ends in SQL: the slug is what follows the first
-- '/', its leading and trailing '-' trimmed, '' when no part is left. The same ordering
-- answers "does more than one subject have this attribute?" in two index probes.
-- factstore/store/about.py spells these expressions exactly so the planner matches them.
CREATE INDEX facts_timeline_slug ON facts (
    timeline_scope, attribute,
    split_part(btrim(substr(subject, strpos(subject, '/') + 1), '-'), '-', -1),
    split_part(btrim(substr(subject, strpos(subject, '/') + 1), '-'), '-', 1),
    subject)
    WHERE attribute IS NOT NULL;
