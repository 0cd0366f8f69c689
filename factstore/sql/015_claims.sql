-- Two truth layers (seed 001): claims are immutable testimony ("what was asserted, by whom,
-- when"), facts the adjudicated worldview. The evidence table becomes the bridge between
-- them: each row names the claim that supports or contradicts a fact.
--
-- Nothing existing loses its meaning: every testimony row of a plain fact gets the claim it
-- stood for (the fact's statement as its document asserted it), and every refused fact of
-- dropped_facts becomes a claim triaged 'dropped' (dropped_facts stays, as a view).

-- How a source's versions count. A lineage with no row here is in its source type's
-- default mode (file and url: living; utterance, capture, commit: snapshot) and not removed.
CREATE TABLE lineages (
    lineage        text PRIMARY KEY CHECK (length(lineage) BETWEEN 1 AND 2100),
    -- snapshot: every version is testimony; living: a new version supersedes the old one's
    mode           text CHECK (mode IN ('snapshot', 'living')),
    removed_at     timestamptz,
    removed_reason text,
    CHECK ((removed_at IS NULL) = (removed_reason IS NULL))
);

-- Every removal, restoration and mode change of a lineage, append-only.
CREATE TABLE lineage_events (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    lineage    text NOT NULL,
    event      text NOT NULL CHECK (event IN ('removed', 'restored', 'mode')),
    reason     text NOT NULL CHECK (length(btrim(reason)) > 0),
    mode       text CHECK (mode IN ('snapshot', 'living')),
    at         timestamptz NOT NULL,
    -- the facts the event closed (removal) or reopened (restoration)
    fact_ids   bigint[] NOT NULL DEFAULT '{}'
);
CREATE INDEX lineage_events_lineage ON lineage_events (lineage, id);

CREATE TABLE claims (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id      bigint NOT NULL REFERENCES documents (id),
    lineage          text NOT NULL,
    document_version integer NOT NULL CHECK (document_version >= 1),
    -- what was asserted: the extractor's statement and the source's own span
    statement        text NOT NULL,
    quote            text NOT NULL,
    -- as the extractor typed it (a dropped claim may carry a kind the store refused)
    kind             text NOT NULL CHECK (length(kind) BETWEEN 1 AND 64),
    -- who asserted it: the chat turn's speaker, else the source; NULL when unknown
    asserter         text CHECK (asserter IS NULL OR length(asserter) BETWEEN 1 AND 2100),
    asserter_is      text CHECK (asserter_is IN ('speaker', 'source')),
    asserted_at      timestamptz NOT NULL,
    -- the extraction generation: the extractor's name with its version; NULL for claims
    -- recovered from facts written before extractors were recorded
    extractor        text CHECK (extractor IS NULL OR length(extractor) BETWEEN 1 AND 200),
    -- the validity the text asserts (testimony, never a verdict), as partial dates
    valid_from       text,
    valid_from_at    timestamptz,
    valid_to         text,
    valid_to_at      timestamptz,
    -- what triage decided, and the fact it tied the claim to (none when dropped)
    triage           text NOT NULL CHECK (triage IN ('written', 'restatement', 'contested',
                         'superseded', 'parked', 'dropped', 'absorbed')),
    triage_reason    text,
    fact_id          bigint REFERENCES facts (id),
    recorded_at      timestamptz NOT NULL,
    -- lifecycle marks: the only columns ever updated
    superseded_at    timestamptz,
    superseded_why   text CHECK (superseded_why IN ('living-version', 're-extraction')),
    superseded_by_document bigint REFERENCES documents (id),
    CHECK ((superseded_at IS NULL) = (superseded_why IS NULL)),
    CHECK ((asserter IS NULL) = (asserter_is IS NULL)),
    CHECK ((valid_from IS NULL) = (valid_from_at IS NULL)),
    CHECK ((valid_to IS NULL) = (valid_to_at IS NULL)),
    CHECK (triage = 'dropped' OR (fact_id IS NOT NULL AND length(btrim(statement)) > 0))
);
-- One claim per assertion of a document per generation: re-running a capture, or the same
-- sentence said twice in one document, is the same testimony.
CREATE UNIQUE INDEX claims_once ON claims
    (document_id, coalesce(extractor, ''), kind, md5(statement || E'\x1f' || quote));
CREATE INDEX claims_lineage ON claims (lineage, id);
CREATE INDEX claims_fact ON claims (fact_id) WHERE fact_id IS NOT NULL;
CREATE INDEX claims_asserter ON claims (asserter, id) WHERE asserter IS NOT NULL;
CREATE INDEX claims_asserted_at ON claims (asserted_at, id);
CREATE INDEX claims_dropped ON claims (split_part(triage_reason, ':', 1), id)
    WHERE triage = 'dropped';

-- Testimony is immutable: only the lifecycle marks may change, and no claim is deleted.
CREATE FUNCTION claims_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'claim #% is testimony and is never deleted', OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF (NEW.id, NEW.document_id, NEW.lineage, NEW.document_version, NEW.statement, NEW.quote,
        NEW.kind, NEW.asserter, NEW.asserter_is, NEW.asserted_at, NEW.extractor,
        NEW.valid_from, NEW.valid_from_at, NEW.valid_to, NEW.valid_to_at, NEW.triage,
        NEW.triage_reason, NEW.fact_id, NEW.recorded_at)
       IS DISTINCT FROM
       (OLD.id, OLD.document_id, OLD.lineage, OLD.document_version, OLD.statement, OLD.quote,
        OLD.kind, OLD.asserter, OLD.asserter_is, OLD.asserted_at, OLD.extractor,
        OLD.valid_from, OLD.valid_from_at, OLD.valid_to, OLD.valid_to_at, OLD.triage,
        OLD.triage_reason, OLD.fact_id, OLD.recorded_at) THEN
        RAISE EXCEPTION 'claim #% is immutable testimony: only its lifecycle marks change', OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER claims_immutable BEFORE UPDATE OR DELETE ON claims
    FOR EACH ROW EXECUTE FUNCTION claims_immutable();

-- The bridge: which claim each evidence row stands for. Timeline observations and imported
-- facts carry no claim (their evidence row is their testimony) and count as current.
ALTER TABLE evidence ADD COLUMN claim_id bigint REFERENCES claims (id);
ALTER TABLE evidence DROP CONSTRAINT evidence_once_per_document;
ALTER TABLE evidence ADD CONSTRAINT evidence_once_per_document
    UNIQUE NULLS NOT DISTINCT (fact_id, document_id, stance, observed_at, valid_from, valid_to,
                               role, claim_id);
CREATE INDEX evidence_claim ON evidence (claim_id) WHERE claim_id IS NOT NULL;

-- Verdict transitions get a machine-readable reason beside the prose one
-- ('retracted_source_removal', 'restored_source', 'support_withdrawn'), and the lineage
-- event that caused them.
ALTER TABLE fact_history
    ADD COLUMN reason_code text CHECK (reason_code IS NULL OR reason_code ~ '^[a-z_]{1,64}$'),
    ADD COLUMN lineage_event bigint REFERENCES lineage_events (id);
CREATE INDEX fact_history_reason_code ON fact_history (reason_code, fact_id)
    WHERE reason_code IS NOT NULL;

-- Contradiction groups: when more than two facts disagree they are one group, not a chain of
-- pairs. Every conflict belongs to one; the open conflicts of a group are connected.
CREATE SEQUENCE contradiction_groups;
ALTER TABLE conflicts ADD COLUMN group_id bigint NOT NULL DEFAULT nextval('contradiction_groups');
CREATE INDEX conflicts_group ON conflicts (group_id) WHERE status = 'open';
-- Existing open conflicts that share a fact are one group (the smallest id of the component).
DO $$
DECLARE changed integer;
BEGIN
    LOOP
        UPDATE conflicts c SET group_id = m.g FROM (
            SELECT c2.id, min(o.group_id) AS g
            FROM conflicts c2 JOIN conflicts o ON o.status = 'open'
                AND (o.fact_a IN (c2.fact_a, c2.fact_b) OR o.fact_b IN (c2.fact_a, c2.fact_b))
            WHERE c2.status = 'open' GROUP BY c2.id) m
        WHERE c.id = m.id AND m.g < c.group_id;
        GET DIAGNOSTICS changed = ROW_COUNT;
        EXIT WHEN changed = 0;
    END LOOP;
END $$;

-- The testimony already stored, as claims: each testimony row of a plain fact is the fact's
-- statement as that document asserted it (the first row written with the fact, a restatement
-- otherwise).
INSERT INTO claims (document_id, lineage, document_version, statement, quote, kind, asserter,
                    asserter_is, asserted_at, extractor, triage, triage_reason, fact_id,
                    recorded_at)
SELECT DISTINCT ON (e.document_id, coalesce(f.extracted_by, ''), f.kind,
                    md5(f.statement || E'\x1f' || e.quote))
       e.document_id, d.lineage, d.version, f.statement, e.quote, f.kind,
       coalesce(f.asserter, d.source_ref),
       CASE WHEN f.asserter IS NOT NULL THEN 'speaker'
            WHEN d.source_ref IS NOT NULL THEN 'source' END,
       coalesce(e.observed_at, d.said_at, d.captured_at), f.extracted_by,
       CASE WHEN e.document_id IS NOT DISTINCT FROM f.document_id THEN
            CASE f.verdict WHEN 'contested' THEN 'contested' WHEN 'parked' THEN 'parked'
                 ELSE 'written' END
            ELSE 'restatement' END,
       'recorded before claims were kept', f.id, e.recorded_at
FROM evidence e JOIN facts f ON f.id = e.fact_id JOIN documents d ON d.id = e.document_id
WHERE e.stance = 'supports' AND e.role = 'testimony' AND f.attribute IS NULL
  AND f.import_key IS NULL AND length(btrim(e.quote)) > 0
ORDER BY e.document_id, coalesce(f.extracted_by, ''), f.kind,
         md5(f.statement || E'\x1f' || e.quote), e.id;
UPDATE evidence e SET claim_id = c.id FROM facts f, claims c
WHERE f.id = e.fact_id AND c.fact_id = f.id AND c.document_id = e.document_id
  AND c.quote = e.quote AND e.stance = 'supports' AND e.role = 'testimony'
  AND f.attribute IS NULL AND f.import_key IS NULL;

-- Refused facts are claims too (triage 'dropped', with the stage and reason).
INSERT INTO claims (document_id, lineage, document_version, statement, quote, kind,
                    asserted_at, extractor, triage, triage_reason, recorded_at)
SELECT x.document_id, d.lineage, d.version, x.statement, x.quote, left(x.kind, 64),
       coalesce(d.said_at, d.captured_at), x.extracted_by, 'dropped', x.reason, x.dropped_at
FROM dropped_facts x JOIN documents d ON d.id = x.document_id
WHERE length(x.kind) > 0
ON CONFLICT DO NOTHING;
DROP TABLE dropped_facts;
CREATE VIEW dropped_facts AS
SELECT id, document_id, extractor AS extracted_by, statement, kind, quote,
       split_part(triage_reason, ':', 1) AS stage, triage_reason AS reason,
       recorded_at AS dropped_at
FROM claims WHERE triage = 'dropped';

-- A fact's support: the distinct document lineages with current supporting testimony. A
-- claim superseded (by a living version, by re-extraction) and a removed lineage no longer
-- count; an evidence row with no claim (a timeline observation, an import) counts while its
-- lineage stands.
CREATE FUNCTION fact_support(fact bigint) RETURNS integer LANGUAGE sql STABLE AS $$
    SELECT count(DISTINCT d.lineage)::integer
    FROM evidence e JOIN documents d ON d.id = e.document_id
    LEFT JOIN claims c ON c.id = e.claim_id
    LEFT JOIN lineages l ON l.lineage = d.lineage
    WHERE e.fact_id = fact AND e.stance = 'supports' AND c.superseded_at IS NULL
      AND l.removed_at IS NULL
$$;
