-- The compiler (seed 002 §9): plain statements become timeline facts on the write path.
--
-- attributes / attribute_aliases: the registry of attribute keys, like tags (governance,
-- unscoped): a key, its cardinality and where it came from; many spellings ("works at",
-- "joined", "employer") map to one key. A person merges near-synonyms.
-- fact_states: which timeline observation a kind-typed fact states, so that when the
-- timeline moves on the fact that states the old value moves with it (one truth, not two).
-- compile_log: every draft a capture compiled to, written or refused, with the reason.

CREATE TABLE attributes (
    key          text PRIMARY KEY CHECK (key ~ '^[a-z][a-z0-9_]{0,63}$'),
    cardinality  text NOT NULL CHECK (cardinality IN ('one', 'many')),
    description  text,
    origin       text NOT NULL CHECK (origin IN ('builtin', 'learned')),
    -- a merged key answers as the key it was merged into
    merged_into  text REFERENCES attributes (key),
    merged_at    timestamptz,
    created_at   timestamptz NOT NULL,
    CHECK (merged_into IS DISTINCT FROM key)
);

CREATE TABLE attribute_aliases (
    -- a folded phrase or key: 'works at', 'employer', 'moved to'
    alias       text PRIMARY KEY CHECK (length(alias) BETWEEN 1 AND 200),
    key         text NOT NULL REFERENCES attributes (key),
    origin      text NOT NULL CHECK (origin IN ('builtin', 'learned', 'person')),
    created_at  timestamptz NOT NULL
);
CREATE INDEX attribute_aliases_key ON attribute_aliases (key);

CREATE TABLE fact_states (
    fact_id         bigint NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    observation_id  bigint NOT NULL REFERENCES evidence (id) ON DELETE CASCADE,
    access_scope    text NOT NULL DEFAULT current_setting('factstore.write_scope', true)
        CHECK (access_scope ~ '^[a-z0-9][a-z0-9-]{0,63}/(user|channel|shared)-[a-z0-9]'),
    PRIMARY KEY (fact_id, observation_id)
);
CREATE INDEX fact_states_observation ON fact_states (observation_id);
CREATE INDEX fact_states_access_scope ON fact_states (access_scope);

CREATE TABLE compile_log (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id     bigint NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    compiler        text NOT NULL,
    -- written | corroborated | unchanged | ended | refused
    outcome         text NOT NULL CHECK (outcome IN ('written', 'corroborated', 'unchanged',
                                                     'ended', 'refused')),
    subject         text,
    attribute       text,
    value           text,
    fact_id         bigint REFERENCES facts (id) ON DELETE CASCADE,
    quote           text NOT NULL,
    reason          text,
    at              timestamptz NOT NULL,
    sealed_version  integer,
    access_scope    text NOT NULL DEFAULT current_setting('factstore.write_scope', true)
        CHECK (access_scope ~ '^[a-z0-9][a-z0-9-]{0,63}/(user|channel|shared)-[a-z0-9]')
);
CREATE INDEX compile_log_document ON compile_log (document_id);
CREATE INDEX compile_log_outcome ON compile_log (outcome, id);
CREATE INDEX compile_log_access_scope ON compile_log (access_scope);
-- a re-read of one document by one compiler logs each draft once
CREATE UNIQUE INDEX compile_log_once ON compile_log
    (document_id, compiler, outcome, md5(coalesce(subject, '') || E'\x1f' ||
     coalesce(attribute, '') || E'\x1f' || quote || E'\x1f' || coalesce(reason, '')));

ALTER TABLE fact_states ENABLE ROW LEVEL SECURITY;
CREATE POLICY scoped ON fact_states USING (access_scope = ANY (factstore_read_scopes()))
    WITH CHECK (access_scope = ANY (factstore_read_scopes()));
ALTER TABLE compile_log ENABLE ROW LEVEL SECURITY;
CREATE POLICY scoped ON compile_log USING (access_scope = ANY (factstore_read_scopes()))
    WITH CHECK (access_scope = ANY (factstore_read_scopes()));

DO $$
BEGIN
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON attributes, attribute_aliases, '
            'fact_states, compile_log TO factstore_member';
    EXECUTE 'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO factstore_member';
EXCEPTION
    WHEN undefined_object OR insufficient_privilege OR invalid_grant_operation THEN
        RAISE NOTICE 'factstore: could not grant factstore_member: %', SQLERRM;
END $$;
