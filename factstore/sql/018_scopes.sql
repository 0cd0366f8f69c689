-- Scopes, credentials and sealed values (seed 002 §6).
--
-- Every row of memory carries the scope it lives in: '<workspace>/user-<id>', '.../channel-
-- <name>' or '.../shared-<name>'. The column defaults to the transaction's write scope (the
-- store sets factstore.write_scope in every transaction), so no write path has to name it,
-- and a transaction that forgot to set it fails on the CHECK instead of landing unscoped.
--
-- Row-level security enforces the read side in the database as well as in the store: a
-- narrowed principal's transactions run as the role factstore_member with
-- factstore.read_scopes set, and every policy reads only those scopes. A query that forgot
-- its scope filter still reads nothing else. The store's owner (the in-process store, the
-- database owner) is not narrowed and reads every scope.
--
-- The open-questions queue is the store's own triage of its gaps, not memory: unscoped.
--
-- Rows written before scopes existed: a personal timeline fact goes to its user's scope in
-- the 'local' workspace, with its evidence and history; everything else to 'local/shared-main'.

DO $$
BEGIN
    CREATE ROLE factstore_member NOLOGIN;
EXCEPTION
    WHEN duplicate_object OR unique_violation THEN NULL;  -- roles are per cluster
    WHEN insufficient_privilege THEN
        RAISE NOTICE 'factstore: no CREATEROLE; narrowed credentials need the role factstore_member';
END $$;

CREATE FUNCTION factstore_read_scopes() RETURNS text[] LANGUAGE sql STABLE AS $$
    SELECT string_to_array(nullif(current_setting('factstore.read_scopes', true), ''), ',')
$$;

DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY[
        'documents', 'facts', 'evidence', 'conflicts', 'fact_history',
        'document_extractions', 'lineages', 'lineage_events',
        'claims', 'entities', 'entity_names', 'entity_keys', 'mentions', 'document_bindings',
        'relations', 'relation_evidence', 'entity_merges', 'merge_proposals']
    LOOP
        EXECUTE format('ALTER TABLE %I ADD COLUMN access_scope text NOT NULL DEFAULT %L', t,
                       'local/shared-main');
        EXECUTE format('ALTER TABLE %I ALTER COLUMN access_scope SET DEFAULT '
                       'current_setting(''factstore.write_scope'', true)', t);
        EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (access_scope ~ %L)', t,
                       t || '_access_scope_named', '^[a-z0-9][a-z0-9-]{0,63}/(user|channel|shared)-[a-z0-9]');
        EXECUTE format('CREATE INDEX %I ON %I (access_scope)', t || '_access_scope', t);
        EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
        EXECUTE format('CREATE POLICY scoped ON %I USING (access_scope = ANY (factstore_read_scopes())) '
                       'WITH CHECK (access_scope = ANY (factstore_read_scopes()))', t);
    END LOOP;
END $$;

-- Personal timelines move to their user's scope; a timeline's scope is its row's scope.
UPDATE facts SET access_scope = 'local/user-' || substr(timeline_scope, 6)
WHERE timeline_scope LIKE 'user:%';
UPDATE facts SET timeline_scope = access_scope WHERE timeline_scope IS NOT NULL;
UPDATE evidence e SET access_scope = f.access_scope FROM facts f
WHERE f.id = e.fact_id AND f.access_scope <> e.access_scope;
UPDATE fact_history h SET access_scope = f.access_scope FROM facts f
WHERE f.id = h.fact_id AND f.access_scope <> h.access_scope;
ALTER TABLE facts ADD CONSTRAINT facts_timeline_scope_is_scope
    CHECK (timeline_scope IS NULL OR timeline_scope = access_scope);

-- A timeline row lives in its timeline's scope whoever writes it (a conflict resolved by
-- another tool, say), and an observation in its fact's scope, so sealing finds it there.
CREATE FUNCTION facts_scope_of_timeline() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.access_scope := NEW.timeline_scope;
    RETURN NEW;
END $$;
CREATE TRIGGER facts_scope_of_timeline BEFORE INSERT ON facts FOR EACH ROW
    WHEN (NEW.timeline_scope IS NOT NULL) EXECUTE FUNCTION facts_scope_of_timeline();
CREATE FUNCTION evidence_scope_of_fact() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.access_scope := coalesce((SELECT access_scope FROM facts WHERE id = NEW.fact_id),
                                 NEW.access_scope);
    RETURN NEW;
END $$;
CREATE TRIGGER evidence_scope_of_fact BEFORE INSERT ON evidence FOR EACH ROW
    WHEN (NEW.value IS NOT NULL) EXECUTE FUNCTION evidence_scope_of_fact();
-- A fact's evidence and history are read wherever the fact is (another scope's member may
-- have written them: a retraction, a corroboration).
DROP POLICY scoped ON evidence;
CREATE POLICY scoped ON evidence USING (access_scope = ANY (factstore_read_scopes())
    OR EXISTS (SELECT 1 FROM facts f WHERE f.id = evidence.fact_id))
    WITH CHECK (access_scope = ANY (factstore_read_scopes()));
DROP POLICY scoped ON fact_history;
CREATE POLICY scoped ON fact_history USING (access_scope = ANY (factstore_read_scopes())
    OR EXISTS (SELECT 1 FROM facts f WHERE f.id = fact_history.fact_id))
    WITH CHECK (access_scope = ANY (factstore_read_scopes()));

-- A source, its lineage, an import key and a timeline subject's entity are each per scope:
-- two scopes capturing the same session never collide, nor see each other's.
ALTER TABLE documents DROP CONSTRAINT documents_lineage_content_hash_key,
    DROP CONSTRAINT documents_lineage_version_key,
    ADD CONSTRAINT documents_lineage_content_hash_key UNIQUE (access_scope, lineage, content_hash),
    ADD CONSTRAINT documents_lineage_version_key UNIQUE (access_scope, lineage, version);
ALTER TABLE lineages DROP CONSTRAINT lineages_pkey, ADD PRIMARY KEY (access_scope, lineage);
DROP INDEX facts_import_key;
CREATE UNIQUE INDEX facts_import_key ON facts (access_scope, import_key) WHERE import_key IS NOT NULL;
ALTER TABLE entities DROP CONSTRAINT entities_timeline_subject_key,
    ADD CONSTRAINT entities_timeline_subject_key UNIQUE (access_scope, timeline_subject);

-- A lineage's removal is the removal of that scope's lineage.
CREATE OR REPLACE FUNCTION fact_support(fact bigint) RETURNS integer LANGUAGE sql STABLE AS $$
    SELECT count(DISTINCT d.lineage)::integer
    FROM evidence e JOIN documents d ON d.id = e.document_id
    LEFT JOIN claims c ON c.id = e.claim_id
    LEFT JOIN lineages l ON l.access_scope = d.access_scope AND l.lineage = d.lineage
    WHERE e.fact_id = fact AND e.stance = 'supports' AND c.superseded_at IS NULL
      AND l.removed_at IS NULL
$$;
CREATE OR REPLACE FUNCTION relation_support(relation bigint) RETURNS integer LANGUAGE sql
STABLE AS $$
    SELECT count(DISTINCT c.lineage)::integer
    FROM relation_evidence r JOIN claims c ON c.id = r.claim_id
    LEFT JOIN lineages l ON l.access_scope = c.access_scope AND l.lineage = c.lineage
    WHERE r.relation_id = relation AND c.superseded_at IS NULL AND l.removed_at IS NULL
$$;

-- Testimony is never deleted, except when its whole scope is forgotten: forget_scope sets
-- factstore.forgetting to that scope in its own transaction, as the owner, and may then
-- also unlink other scopes' claims from the forgotten facts.
CREATE OR REPLACE FUNCTION claims_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        IF current_setting('factstore.forgetting', true) = OLD.access_scope THEN
            RETURN OLD;
        END IF;
        RAISE EXCEPTION 'claim #% is testimony and is never deleted', OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF (NEW.id, NEW.document_id, NEW.lineage, NEW.document_version, NEW.statement, NEW.quote,
        NEW.kind, NEW.asserter, NEW.asserter_is, NEW.asserted_at, NEW.extractor,
        NEW.valid_from, NEW.valid_from_at, NEW.valid_to, NEW.valid_to_at, NEW.triage,
        NEW.triage_reason, NEW.fact_id, NEW.recorded_at, NEW.access_scope)
       IS DISTINCT FROM
       (OLD.id, OLD.document_id, OLD.lineage, OLD.document_version, OLD.statement, OLD.quote,
        OLD.kind, OLD.asserter, OLD.asserter_is, OLD.asserted_at, OLD.extractor,
        OLD.valid_from, OLD.valid_from_at, OLD.valid_to, OLD.valid_to_at, OLD.triage,
        OLD.triage_reason, OLD.fact_id, OLD.recorded_at, OLD.access_scope)
       AND coalesce(current_setting('factstore.forgetting', true), '') = '' THEN
        RAISE EXCEPTION 'claim #% is immutable testimony: only its lifecycle marks change', OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END $$;

-- The view reads claims as its caller, so the caller's scopes apply.
ALTER VIEW dropped_facts SET (security_invoker = true);

-- Credentials: a token's secret is kept only as its SHA-256; the token itself is shown once.
CREATE TABLE credentials (
    id          text PRIMARY KEY CHECK (id ~ '^tok-[0-9a-f]{12}$'),
    secret_hash text NOT NULL,
    user_id     text NOT NULL CHECK (length(user_id) BETWEEN 1 AND 64),
    workspace   text NOT NULL CHECK (workspace ~ '^[a-z0-9][a-z0-9-]{0,63}$'),
    scopes      text[] NOT NULL,
    owner       boolean NOT NULL DEFAULT false,
    label       text,
    created_at  timestamptz NOT NULL,
    revoked_at  timestamptz
);

-- Sealed scopes: each key version's data key, wrapped by the master key. Forgetting a scope
-- deletes its rows here, which destroys the key.
CREATE TABLE scope_keys (
    access_scope text NOT NULL,
    version     integer NOT NULL CHECK (version >= 1),
    wrapped     text NOT NULL,
    created_at  timestamptz NOT NULL,
    retired_at  timestamptz,
    PRIMARY KEY (access_scope, version)
);
ALTER TABLE scope_keys ENABLE ROW LEVEL SECURITY;
CREATE POLICY scoped ON scope_keys USING (access_scope = ANY (factstore_read_scopes()));
-- Which key version sealed a row (NULL: plaintext; the scope was not sealed then).
ALTER TABLE facts ADD COLUMN sealed_version integer;
ALTER TABLE evidence ADD COLUMN sealed_version integer;
ALTER TABLE documents ADD COLUMN sealed_version integer;
-- A write in a sealed scope is sealed before it commits: these find its fresh rows.
CREATE INDEX facts_unsealed ON facts (access_scope) WHERE sealed_version IS NULL;
CREATE INDEX evidence_unsealed ON evidence (access_scope) WHERE sealed_version IS NULL;
CREATE INDEX documents_unsealed ON documents (access_scope) WHERE sealed_version IS NULL;
-- An envelope is longer than the value it seals.
ALTER TABLE facts DROP CONSTRAINT facts_value_check, DROP CONSTRAINT facts_unit_check,
    ADD CONSTRAINT facts_value_check CHECK (value IS NULL OR sealed_version IS NOT NULL
                                            OR length(value) BETWEEN 1 AND 2000),
    ADD CONSTRAINT facts_unit_check CHECK (unit IS NULL OR sealed_version IS NOT NULL
                                           OR length(unit) <= 32);

DO $$
BEGIN
    EXECUTE 'GRANT USAGE ON SCHEMA public TO factstore_member';
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO factstore_member';
    EXECUTE 'REVOKE ALL ON credentials FROM factstore_member';
    EXECUTE 'REVOKE INSERT, UPDATE, DELETE ON scope_keys, store_meta FROM factstore_member';
    EXECUTE 'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO factstore_member';
    EXECUTE 'GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO factstore_member';
    EXECUTE 'GRANT factstore_member TO ' || quote_ident(current_user);
EXCEPTION
    WHEN undefined_object OR insufficient_privilege OR invalid_grant_operation THEN
        RAISE NOTICE 'factstore: could not grant factstore_member: %', SQLERRM;
END $$;
