-- What a fact says, by role, and who said it: the parser-based extractor (and a model that
-- answers in the same fields) fills them for every kind. The difference detector and the
-- notebooks read them, so they are columns, never inside meta.
--   predicate: the assertion's verb phrase ("moved", "must run", "is not")
--   object:    what it is about beyond the subject ("payments-api to Postgres 16")
--   asserter:  the chat turn's speaker ("I" is them); NULL for prose. captured_by stays the
--              extractor or scribe that wrote the capture down.
--   negated:   the quote is negated (not / no / never / without), read from the parse;
--              NULL when the extractor does not say.
ALTER TABLE facts
    ADD COLUMN predicate text CHECK (predicate IS NULL OR length(predicate) BETWEEN 1 AND 400),
    ADD COLUMN object    text CHECK (object IS NULL OR length(object) BETWEEN 1 AND 2000),
    ADD COLUMN asserter  text CHECK (asserter IS NULL OR length(asserter) BETWEEN 1 AND 200),
    ADD COLUMN negated   boolean;

-- "What did this speaker assert?" in the notebooks and recall filters.
CREATE INDEX facts_asserter ON facts (asserter, id) WHERE asserter IS NOT NULL;
