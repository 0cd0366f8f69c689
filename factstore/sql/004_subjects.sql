-- Subjects (issue 7): what a fact is about, so the density check compares a new fact with
-- facts about the same thing first and never calls two subjects a conflict.
-- subject_key is the folded subject (factstore/writepath/subjects.py); subject_source says
-- where it came from: the extractor's subject, the statement, or 'none' (no subject found:
-- the density check falls back to its kind-wide search). NULL source means not yet read
-- (rows written before this migration); the store fills those in when it opens.

ALTER TABLE facts
    ADD COLUMN subject_key    text CHECK (subject_key IS NULL OR length(subject_key) BETWEEN 1 AND 400),
    ADD COLUMN subject_source text CHECK (subject_source IN ('extractor', 'statement', 'none')),
    ADD CONSTRAINT facts_subject_key_source
        CHECK (subject_key IS NULL OR subject_source IN ('extractor', 'statement'));

-- Same-subject candidates of one kind among the live verdicts the density check compares.
CREATE INDEX facts_subject_live ON facts (kind, subject_key)
    WHERE subject_key IS NOT NULL AND verdict IN ('active', 'contested');
-- The rows still to be read (empty once the store has opened on this schema).
CREATE INDEX facts_subject_unread ON facts (id)
    WHERE subject_source IS NULL AND attribute IS NULL;

-- The newer fact that settled a conflict by superseding one or both of its sides. A conflict
-- whose two sides were both replaced by a third fact closes with no winner in the pair:
-- resolution 'both-superseded', winner NULL, settled_by that fact. (A both-stand close is
-- winner NULL with resolution 'both-stand'.)
ALTER TABLE conflicts ADD COLUMN settled_by bigint REFERENCES facts (id);
ALTER TABLE conflicts ADD CONSTRAINT conflicts_both_superseded_settled
    CHECK (resolution IS DISTINCT FROM 'both-superseded' OR (winner IS NULL AND settled_by IS NOT NULL));
