-- Entities and relations (seeds 001 and 004): a canonical registry with aliases, tiered
-- resolution of the names claims mention, reversible merges, and relations between
-- entities. A fact's subject and a relation's two ends are entity ids.

CREATE TABLE entities (
    id               uuid PRIMARY KEY,               -- UUIDv7, made by the store
    canonical_name   text NOT NULL CHECK (length(btrim(canonical_name)) BETWEEN 1 AND 400),
    -- Person, Organization, Project, Place, Service, Concept, or another CamelCase type
    entity_type      text NOT NULL CHECK (entity_type ~ '^[A-Z][A-Za-z]{1,39}$'),
    attributes       jsonb NOT NULL DEFAULT '{}'::jsonb,
    -- the timeline subject this entity is ('person/ana', 'project/falcon'), if any
    timeline_subject text UNIQUE,
    created_at       timestamptz NOT NULL,
    -- a merge is a redirect: reads follow merged_into to the survivor and say so
    merged_into      uuid REFERENCES entities (id),
    merged_at        timestamptz,
    -- the profile: a disposable projection of current supported facts and relations
    profile          text,
    profile_vector   vector(:dim),
    profile_built_at timestamptz,
    profile_stale    boolean NOT NULL DEFAULT true,
    -- bumped by every change of evidence: a rebuild writes only if none came meanwhile
    profile_epoch    bigint NOT NULL DEFAULT 0,
    CHECK ((merged_into IS NULL) = (merged_at IS NULL)),
    CHECK (merged_into IS DISTINCT FROM id)
);
CREATE INDEX entities_stale ON entities (id) WHERE profile_stale AND merged_into IS NULL;
-- every read follows redirects both ways: what was merged into an entity is found by index
CREATE INDEX entities_merged_into ON entities (merged_into) WHERE merged_into IS NOT NULL;

-- Every name an entity is known by (its canonical name, aliases people added, names it was
-- mentioned by), and the keys the resolver's snapshot is found by (entities/names.py).
CREATE TABLE entity_names (
    entity_id  uuid NOT NULL REFERENCES entities (id),
    name       text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 400),
    name_norm  text NOT NULL,
    source     text NOT NULL CHECK (source IN ('canonical', 'alias', 'mention', 'timeline')),
    created_at timestamptz NOT NULL,
    PRIMARY KEY (entity_id, name_norm)
);
CREATE TABLE entity_keys (
    key       text NOT NULL,
    entity_id uuid NOT NULL REFERENCES entities (id),
    PRIMARY KEY (key, entity_id)
);

-- Each name a claim mentions, and what it resolved to, with the tier and the audit.
CREATE TABLE mentions (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    claim_id    bigint REFERENCES claims (id),
    document_id bigint NOT NULL REFERENCES documents (id),
    fact_id     bigint REFERENCES facts (id),
    name        text NOT NULL,
    name_norm   text NOT NULL,
    -- speaker (a chat turn's), subject (the fact's), or mention (any other name)
    role        text NOT NULL CHECK (role IN ('speaker', 'subject', 'mention')),
    entity_type text,
    entity_id   uuid NOT NULL REFERENCES entities (id),
    -- T0 (a replayed document binding), T3, T4, none (no candidate: a new entity), timeline
    tier        text NOT NULL,
    resolver    text,
    confidence  double precision,
    audit       jsonb NOT NULL DEFAULT '{}'::jsonb,
    created_at  timestamptz NOT NULL
);
CREATE INDEX mentions_entity ON mentions (entity_id, id);
CREATE INDEX mentions_claim ON mentions (claim_id);
CREATE INDEX mentions_document ON mentions (document_id, entity_id);
CREATE UNIQUE INDEX mentions_once ON mentions (claim_id, name_norm, role) WHERE claim_id IS NOT NULL;

-- T0's bounded exception: an exact name T4 bound in a document replays there.
CREATE TABLE document_bindings (
    document_id bigint NOT NULL REFERENCES documents (id),
    name_norm   text NOT NULL,
    generation  text NOT NULL,
    entity_id   uuid NOT NULL REFERENCES entities (id),
    PRIMARY KEY (document_id, name_norm, generation)
);

-- Relations: (subject entity, predicate, object entity), each with the claims behind it.
CREATE TABLE relations (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    subject_entity uuid NOT NULL REFERENCES entities (id),
    predicate      text NOT NULL CHECK (predicate ~ '^[a-z][a-z_]{1,39}$'),
    object_entity  uuid NOT NULL REFERENCES entities (id),
    created_at     timestamptz NOT NULL,
    UNIQUE (subject_entity, predicate, object_entity)
);
CREATE INDEX relations_object ON relations (object_entity);
CREATE TABLE relation_evidence (
    relation_id bigint NOT NULL REFERENCES relations (id),
    claim_id    bigint NOT NULL REFERENCES claims (id),
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (relation_id, claim_id)
);
CREATE INDEX relation_evidence_claim ON relation_evidence (claim_id);

-- Merges: every accepted merge (a redirect) and its undoing; proposals awaiting a person.
CREATE TABLE entity_merges (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    survivor    uuid NOT NULL REFERENCES entities (id),
    merged      uuid NOT NULL REFERENCES entities (id),
    reason      text NOT NULL,
    at          timestamptz NOT NULL,
    undone_at   timestamptz,
    undo_reason text
);
CREATE TABLE merge_proposals (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entity_a   uuid NOT NULL REFERENCES entities (id),
    entity_b   uuid NOT NULL REFERENCES entities (id),
    score      double precision,
    reason     text NOT NULL,
    status     text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted',
                                                                 'rejected')),
    created_at timestamptz NOT NULL,
    decided_at timestamptz,
    CHECK (entity_a <> entity_b)
);
-- Equivalent open proposals are one proposal.
CREATE UNIQUE INDEX merge_proposals_once ON merge_proposals
    (least(entity_a, entity_b), greatest(entity_a, entity_b)) WHERE status = 'pending';

-- A fact's subject as an entity; an EVENT's time (when it happened, not when it was
-- extracted) and where that time came from.
ALTER TABLE facts
    ADD COLUMN subject_entity uuid REFERENCES entities (id),
    ADD COLUMN event_at        timestamptz,
    ADD COLUMN event_at_source text CHECK (event_at_source IN ('text', 'said', 'captured')),
    ADD CONSTRAINT facts_event_at_events CHECK (event_at IS NULL OR kind = 'EVENT'),
    ADD CONSTRAINT facts_event_at_source CHECK ((event_at IS NULL) = (event_at_source IS NULL));
CREATE INDEX facts_subject_entity ON facts (subject_entity) WHERE subject_entity IS NOT NULL;

-- A relation's support, as a fact's: distinct lineages of its current claims.
CREATE FUNCTION relation_support(relation bigint) RETURNS integer LANGUAGE sql STABLE AS $$
    SELECT count(DISTINCT c.lineage)::integer
    FROM relation_evidence r JOIN claims c ON c.id = r.claim_id
    LEFT JOIN lineages l ON l.lineage = c.lineage
    WHERE r.relation_id = relation AND c.superseded_at IS NULL AND l.removed_at IS NULL
$$;
