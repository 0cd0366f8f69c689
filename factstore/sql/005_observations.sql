-- Timelines as a function of the set of observations (issue 8).
--
-- A corroborating observation (seed 002 rule 2: no new fact is stored) is kept as evidence
-- on the fact it corroborated, with its own value and unit as written, its own valid_from,
-- valid_to, observed_at, source and confidence. Whenever its key is re-resolved it is
-- checked again; if no live fact of its value holds at its start any more, it becomes a fact
-- of its own (role 'promoted' -> its evidence moves to the new fact as 'testimony').

ALTER TABLE evidence
    ADD COLUMN role          text NOT NULL DEFAULT 'testimony'
        CHECK (role IN ('testimony', 'corroboration')),
    ADD COLUMN value         text,
    ADD COLUMN unit          text,
    ADD COLUMN valid_from    text,
    ADD COLUMN valid_from_at timestamptz,
    ADD COLUMN valid_to      text,
    ADD COLUMN source        text,
    ADD COLUMN confidence    real CHECK (confidence IS NULL OR confidence BETWEEN 0 AND 1),
    ADD CONSTRAINT evidence_corroboration_frame
        CHECK (role <> 'corroboration' OR (value IS NOT NULL AND observed_at IS NOT NULL));

-- One row per observation: two corroborations in one request with one observed_at but other
-- starts are two observations.
ALTER TABLE evidence DROP CONSTRAINT evidence_once_per_document;
ALTER TABLE evidence ADD CONSTRAINT evidence_once_per_document
    UNIQUE NULLS NOT DISTINCT (fact_id, document_id, stance, observed_at, valid_from, valid_to,
                               role);
CREATE INDEX evidence_corroborations ON evidence (fact_id) WHERE role = 'corroboration';

-- The cardinality belongs to the attribute in its scope (seed 002 §3).
CREATE INDEX facts_timeline_scope_attribute ON facts (timeline_scope, attribute)
    WHERE attribute IS NOT NULL;
