-- An append at a timeline's tail is decided from the tail alone (timelines/tail.py): the
-- key's live facts with the latest starts (a fact's start is its valid_from, else when it
-- was observed), and whether any live fact states an end after them. Both are index
-- probes, so an append costs the same at any length of the key.
CREATE INDEX facts_timeline_tail ON facts
    (timeline_scope, subject, attribute, (COALESCE(valid_from_at, observed_at)) DESC, id DESC)
    WHERE attribute IS NOT NULL AND verdict <> 'withdrawn';
CREATE INDEX facts_timeline_ends ON facts (timeline_scope, subject, attribute, valid_to_at)
    WHERE attribute IS NOT NULL AND valid_to_at IS NOT NULL AND verdict <> 'withdrawn';
