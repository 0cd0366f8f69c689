-- factstore core schema (seed 000): documents, facts, evidence, conflicts, history, tags.
-- Plain SQL with one psql variable, the embedding dimension: psql -v dim=384 -f 001_core.sql
-- The store applies it the same way, substituting :dim, inside one transaction.

CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE store_meta (
    key   text PRIMARY KEY,
    value text NOT NULL
);
INSERT INTO store_meta (key, value) VALUES ('embedding_dim', ':dim');

-- The raw-capture / testimony layer. Every capture lands here exactly once per lineage.
CREATE TABLE documents (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    content      text NOT NULL,
    content_hash text NOT NULL,
    source_type  text NOT NULL
        CHECK (source_type IN ('utterance', 'capture', 'file', 'commit', 'url')),
    source_ref   text,
    -- the source identity that versions share (a path, a session, a url); re-runs match on it
    lineage      text NOT NULL,
    version      integer NOT NULL CHECK (version >= 1),
    said_at      timestamptz,
    captured_by  text,
    captured_at  timestamptz NOT NULL DEFAULT now(),
    -- facts | documents-only | index-page
    routed       text NOT NULL CHECK (routed IN ('facts', 'documents-only', 'index-page')),
    embedding    vector(:dim) NOT NULL,
    meta         jsonb NOT NULL DEFAULT '{}'::jsonb,
    UNIQUE (lineage, content_hash),
    UNIQUE (lineage, version)
);
CREATE INDEX documents_embedding_hnsw ON documents USING hnsw (embedding vector_cosine_ops);

CREATE TABLE tags (
    tag              text PRIMARY KEY CHECK (tag ~ '^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)*$'),
    parent           text REFERENCES tags (tag),
    description      text,
    -- open question 3: a default re-verify cadence inherited by this tag's STATE facts
    default_lifetime interval CHECK (default_lifetime IS NULL OR default_lifetime > interval '0'),
    created_at       timestamptz NOT NULL DEFAULT now(),
    -- the parent is exactly the dotted prefix: no back-door roots, no orphans
    CHECK ((parent IS NULL AND position('.' in tag) = 0)
           OR parent = regexp_replace(tag, '\.[^.]+$', ''))
);

CREATE TABLE tag_aliases (
    alias      text PRIMARY KEY CHECK (alias = lower(alias) AND length(alias) > 0),
    tag        text NOT NULL REFERENCES tags (tag),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- Entity-shaped topics no tag covers, and proposed roots: they wait for a person.
CREATE TABLE candidate_roots (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    proposed_tag text NOT NULL UNIQUE,
    topic        text NOT NULL,
    description  text,
    origin       text NOT NULL CHECK (origin IN ('write-path', 'proposal')),
    status       text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    seen_count   integer NOT NULL DEFAULT 1,
    fact_ids     bigint[] NOT NULL DEFAULT '{}',
    first_seen   timestamptz NOT NULL DEFAULT now(),
    last_seen    timestamptz NOT NULL DEFAULT now(),
    decided_at   timestamptz,
    decided_reason text
);

CREATE TABLE facts (
    id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- common frame
    statement            text NOT NULL CHECK (length(btrim(statement)) > 0),
    statement_norm       text NOT NULL,
    kind                 text NOT NULL CHECK (kind IN
        ('DECISION', 'RULE', 'STATE', 'PREFERENCE', 'REFERENCE', 'RESIDUAL', 'EVENT')),
    tags                 text[] NOT NULL DEFAULT '{}',
    verdict              text NOT NULL CHECK (verdict IN
        ('active', 'superseded', 'withdrawn', 'parked', 'contested')),
    -- evidence pointer
    evidence_quote       text NOT NULL CHECK (length(btrim(evidence_quote)) > 0),
    evidence_source_type text NOT NULL
        CHECK (evidence_source_type IN ('utterance', 'capture', 'file', 'commit', 'url')),
    evidence_source_ref  text,
    evidence_captured_by text,
    document_id          bigint REFERENCES documents (id),
    -- temporal frame (belief time: when it was said, captured, last verified, closed)
    t_said               timestamptz,
    t_captured           timestamptz NOT NULL DEFAULT now(),
    t_last_verified      timestamptz NOT NULL DEFAULT now(),
    t_superseded         timestamptz,
    -- supersession links
    supersedes           bigint REFERENCES facts (id),
    superseded_by        bigint REFERENCES facts (id),
    -- per-kind load-bearing columns, populated only by the kind that owns them
    scope                text,
    status_detail        text CHECK (status_detail IN ('locked', 'parked-with-trigger')),
    trigger_predicate    text,
    risk_weight          text,
    earned_by            text,
    subject              text,
    expected_lifetime    interval CHECK (expected_lifetime IS NULL OR expected_lifetime > interval '0'),
    embedding            vector(:dim) NOT NULL,
    meta                 jsonb NOT NULL DEFAULT '{}'::jsonb,
    CHECK (scope IS NULL OR kind = 'DECISION'),
    CHECK (status_detail IS NULL OR kind = 'DECISION'),
    CHECK (trigger_predicate IS NULL OR kind IN ('DECISION', 'RESIDUAL')),
    CHECK (risk_weight IS NULL OR kind = 'RESIDUAL'),
    CHECK (earned_by IS NULL OR kind = 'RULE'),
    CHECK (subject IS NULL OR kind = 'STATE'),
    CHECK (expected_lifetime IS NULL OR kind = 'STATE'),
    -- supersession is structural: a superseded fact carries its link and its time
    CHECK (verdict <> 'superseded' OR (superseded_by IS NOT NULL AND t_superseded IS NOT NULL)),
    CHECK (supersedes IS NULL OR supersedes <> id),
    CHECK (superseded_by IS NULL OR superseded_by <> id)
);
CREATE INDEX facts_kind ON facts (kind);
CREATE INDEX facts_verdict ON facts (verdict);
CREATE INDEX facts_tags_gin ON facts USING gin (tags);
CREATE INDEX facts_restatement ON facts (kind, statement_norm)
    WHERE verdict IN ('active', 'contested');
CREATE INDEX facts_document ON facts (document_id);

-- One partial HNSW index per kind over the retrievable verdicts. A kNN filtered by kind and
-- verdict through one shared index returns too few rows (measured recall@10 about 0.5 at 100k);
-- a partial index holds only the rows the query may return, so nothing is filtered away.
-- The density check (same kind, active/contested) uses its kind's index; recall unions the
-- seven. Each fact costs one HNSW insert, not two. See docs/architecture.md.
CREATE INDEX facts_hnsw_decision ON facts USING hnsw (embedding vector_cosine_ops)
    WHERE kind = 'DECISION' AND verdict IN ('active', 'contested', 'parked');
CREATE INDEX facts_hnsw_rule ON facts USING hnsw (embedding vector_cosine_ops)
    WHERE kind = 'RULE' AND verdict IN ('active', 'contested', 'parked');
CREATE INDEX facts_hnsw_state ON facts USING hnsw (embedding vector_cosine_ops)
    WHERE kind = 'STATE' AND verdict IN ('active', 'contested', 'parked');
CREATE INDEX facts_hnsw_preference ON facts USING hnsw (embedding vector_cosine_ops)
    WHERE kind = 'PREFERENCE' AND verdict IN ('active', 'contested', 'parked');
CREATE INDEX facts_hnsw_reference ON facts USING hnsw (embedding vector_cosine_ops)
    WHERE kind = 'REFERENCE' AND verdict IN ('active', 'contested', 'parked');
CREATE INDEX facts_hnsw_residual ON facts USING hnsw (embedding vector_cosine_ops)
    WHERE kind = 'RESIDUAL' AND verdict IN ('active', 'contested', 'parked');
CREATE INDEX facts_hnsw_event ON facts USING hnsw (embedding vector_cosine_ops)
    WHERE kind = 'EVENT' AND verdict IN ('active', 'contested', 'parked');

-- The bridge between testimony and facts (seed 001): which capture supports or contradicts
-- which fact, with its verbatim quote. Re-captures land here instead of being lost.
CREATE TABLE evidence (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    fact_id     bigint NOT NULL REFERENCES facts (id),
    document_id bigint NOT NULL REFERENCES documents (id),
    quote       text NOT NULL,
    stance      text NOT NULL CHECK (stance IN ('supports', 'contradicts')),
    recorded_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (fact_id, document_id, stance)
);
CREATE INDEX evidence_document ON evidence (document_id);

CREATE TABLE conflicts (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    fact_a      bigint NOT NULL REFERENCES facts (id),
    fact_b      bigint NOT NULL REFERENCES facts (id),
    status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
    -- set on resolution; NULL on a resolved row marks a both-stand close
    winner      bigint REFERENCES facts (id),
    reasoning   text,
    -- rule-exception | lane-1 | lane-2 | lane-3 | timeline
    lane        text NOT NULL,
    -- head-to-head | both-stand | explicit-supersession | ground-truth | partner-superseded | timeline
    resolution  text,
    similarity  real,
    differences text[] NOT NULL DEFAULT '{}',
    created_at  timestamptz NOT NULL DEFAULT now(),
    resolved_at timestamptz,
    CHECK (fact_a <> fact_b),
    CHECK (winner IS NULL OR winner IN (fact_a, fact_b)),
    CHECK ((status = 'open') = (resolved_at IS NULL)),
    CHECK (status = 'resolved' OR (winner IS NULL AND resolution IS NULL)),
    CHECK (resolution <> 'both-stand' OR winner IS NULL)
);
CREATE UNIQUE INDEX conflicts_one_open_per_pair
    ON conflicts (least(fact_a, fact_b), greatest(fact_a, fact_b)) WHERE status = 'open';
CREATE INDEX conflicts_fact_a ON conflicts (fact_a);
CREATE INDEX conflicts_fact_b ON conflicts (fact_b);

-- Every verdict transition, so nothing is silently erased and "what did the store believe on
-- day X" is answerable.
CREATE TABLE fact_history (
    id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    fact_id      bigint NOT NULL REFERENCES facts (id),
    from_verdict text,
    to_verdict   text NOT NULL,
    reason       text NOT NULL,
    conflict_id  bigint REFERENCES conflicts (id),
    at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX fact_history_fact ON fact_history (fact_id, at);
