-- Facts an extractor proposed and the write path refused (an unanchored or rewritten quote,
-- an unknown kind, an empty statement), each with the stage and reason that refused it, so
-- nothing is dropped without a record that outlives the call. A document read again by the
-- same extractor records the same refusal once.
CREATE TABLE dropped_facts (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id  bigint NOT NULL REFERENCES documents (id),
    extracted_by text,
    statement    text NOT NULL,
    kind         text NOT NULL,
    quote        text NOT NULL,
    stage        text NOT NULL,
    reason       text NOT NULL,
    dropped_at   timestamptz NOT NULL
);
CREATE UNIQUE INDEX dropped_facts_once ON dropped_facts
    (document_id, coalesce(extracted_by, ''), md5(statement || E'\x1f' || quote || E'\x1f' || reason));
CREATE INDEX dropped_facts_stage ON dropped_facts (stage, id);
