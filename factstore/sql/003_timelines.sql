-- Bi-temporal timelines (seed 002) in the same facts table as every other fact.
-- A timeline fact is a STATE fact with a subject, an attribute and a value; valid time
-- (valid_from / valid_to as written, plus their start instants) is kept apart from belief
-- time (observed_at, recorded as t_captured, last_confirmed_at). Resolution (rules 1-7)
-- writes the effective end and the supersession links; disputes are conflicts (lane
-- 'timeline'); retraction is the 'withdrawn' verdict.

ALTER TABLE facts
    ADD COLUMN timeline_scope        text,
    ADD COLUMN attribute             text CHECK (attribute IS NULL OR length(attribute) BETWEEN 1 AND 64),
    ADD COLUMN value                 text CHECK (value IS NULL OR length(value) BETWEEN 1 AND 2000),
    ADD COLUMN unit                  text CHECK (unit IS NULL OR length(unit) <= 32),
    ADD COLUMN cardinality           text CHECK (cardinality IN ('one', 'many')),
    ADD COLUMN valid_from            text,
    ADD COLUMN valid_from_at         timestamptz,
    ADD COLUMN valid_to              text,
    ADD COLUMN valid_to_at           timestamptz,
    ADD COLUMN effective_valid_to    text,
    ADD COLUMN effective_valid_to_at timestamptz,
    ADD COLUMN observed_at           timestamptz,
    ADD COLUMN last_confirmed_at     timestamptz,
    ADD COLUMN confidence            real CHECK (confidence IS NULL OR confidence BETWEEN 0 AND 1);

-- A timeline fact carries its whole frame; nothing else carries any of it.
ALTER TABLE facts ADD CONSTRAINT facts_timeline_frame CHECK (
    (attribute IS NULL AND value IS NULL AND cardinality IS NULL AND timeline_scope IS NULL
     AND observed_at IS NULL AND last_confirmed_at IS NULL AND valid_from IS NULL
     AND valid_to IS NULL AND effective_valid_to IS NULL)
    OR (attribute IS NOT NULL AND value IS NOT NULL AND cardinality IS NOT NULL
        AND timeline_scope IS NOT NULL AND subject IS NOT NULL AND kind = 'STATE'
        AND observed_at IS NOT NULL AND last_confirmed_at IS NOT NULL
        AND last_confirmed_at >= observed_at
        AND (valid_from IS NULL) = (valid_from_at IS NULL)
        AND (valid_to IS NULL) = (valid_to_at IS NULL)
        AND (effective_valid_to IS NULL) = (effective_valid_to_at IS NULL)
        AND (valid_to_at IS NULL OR valid_from_at IS NULL OR valid_to_at > valid_from_at)));

-- Timelines are selected on the plaintext key (as the seed does), not by vector: their rows
-- carry no embedding and stay out of the HNSW indexes. Every other fact still needs one.
ALTER TABLE facts ALTER COLUMN embedding DROP NOT NULL;
ALTER TABLE facts ADD CONSTRAINT facts_embedding_unless_timeline
    CHECK (embedding IS NOT NULL OR attribute IS NOT NULL);

CREATE INDEX facts_timeline_key ON facts (timeline_scope, subject, attribute, valid_from_at)
    WHERE attribute IS NOT NULL;
CREATE INDEX facts_timeline_attribute ON facts (attribute) WHERE attribute IS NOT NULL;
CREATE INDEX facts_timeline_recent ON facts (t_captured DESC) WHERE attribute IS NOT NULL;

-- A corroboration is testimony too: when its source observed the value.
ALTER TABLE evidence ADD COLUMN observed_at timestamptz;
ALTER TABLE evidence DROP CONSTRAINT evidence_fact_id_document_id_stance_key;
ALTER TABLE evidence ADD CONSTRAINT evidence_once_per_document
    UNIQUE NULLS NOT DISTINCT (fact_id, document_id, stance, observed_at);

-- Seed 002 allows a fact with no quote ("its quote to nothing"); every other fact still
-- carries a verbatim one.
ALTER TABLE facts ALTER COLUMN evidence_quote DROP NOT NULL;
ALTER TABLE facts DROP CONSTRAINT facts_evidence_quote_check;
ALTER TABLE facts ADD CONSTRAINT facts_quote_unless_timeline CHECK (
    (evidence_quote IS NOT NULL AND length(btrim(evidence_quote)) > 0) OR attribute IS NOT NULL);
