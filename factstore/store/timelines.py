"""Timelines' SQL: write format v1 facts, re-resolve a key, retract, read on both axes."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from psycopg.types.json import Jsonb

from factstore.errors import AlreadyRetracted, FactNotFound, InvalidInput, SchemaError
from factstore.kinds import Verdict
from factstore.store import compiling, locks, timeline_batches, transitions
from factstore.store import entities as entity_sql
from factstore.store.remember import content_hash, lineage_of
from factstore.store.sealed import open_row
from factstore.store.timeline_rows import TIMELINE_COLUMNS, statement_of, timeline_fact
from factstore.timelines.cardinality import decide_cardinality
from factstore.timelines.dates import start_of
from factstore.timelines.format_v1 import WrittenFact
from factstore.timelines.model import (
    STATUS_TO_VERDICT,
    BackfillResult,
    FactWrite,
    Seen,
    TimelineFact,
    WriteFactsResult,
)
from factstore.timelines.observations import Observation, holder, settle
from factstore.timelines.resolution import apply, resolve_timeline, sort_start
from factstore.timelines.tail import plan_append
from factstore.timelines.values import value_key

Key = tuple[str, str, str]  # (scope, subject, attribute)
#: A key settles in one pass per promoted observation; far more means a resolution loop.
_MAX_SETTLE_PASSES = 10_000


def lock_keys(cur: Any, keys: Sequence[Key]) -> None:
    # One writer per key at a time, taken before any other lock (store/locks.py).
    locks.lock_timeline_keys(cur, keys)


def load_key(cur: Any, key: Key) -> list[TimelineFact]:
    cur.execute(f"SELECT {TIMELINE_COLUMNS} FROM facts WHERE timeline_scope = %s AND "
                "subject = %s AND attribute = %s ORDER BY id", key)
    return with_observations(cur, [timeline_fact(r) for r in cur.fetchall()])


def with_observations(cur: Any, facts: list[TimelineFact],
                      known_at: datetime | None = None) -> list[TimelineFact]:
    """The facts with the corroborations they keep (recorded by ``known_at``, if given):
    when each was observed, by which source, and when the fact's own claim was last
    repeated (resolution's "newer observation" reads that)."""
    if not facts:
        return facts
    cur.execute("SELECT id, fact_id, observed_at, source, quote, value, unit, valid_from, "
                "valid_from_at, valid_to, confidence, access_scope, sealed_version FROM evidence "
                "WHERE role = 'corroboration' "
                "AND fact_id = ANY(%s) "
                "AND (%s::timestamptz IS NULL OR recorded_at <= %s) "
                "ORDER BY fact_id, observed_at, source, quote",
                ([f.id for f in facts], known_at, known_at))
    kept: dict[int, list[dict[str, Any]]] = {}
    for row in cur.fetchall():
        kept.setdefault(row["fact_id"], []).append(open_row("evidence", row))
    out = []
    for fact in facts:
        rows = kept.get(fact.id)
        if not rows:
            out.append(fact)
            continue
        claim = (fact.value_key, start_of(fact.valid_from), start_of(fact.valid_to))
        repeats = [r["observed_at"] for r in rows
                   if (value_key(r["value"], r["unit"]), r["valid_from_at"],
                       start_of(r["valid_to"])) == claim]
        out.append(dataclasses.replace(
            fact, corroborations=tuple(Seen(r["observed_at"], r["source"], r["quote"] or None,
                                            r["value"], r["unit"], r["id"], r["valid_from"],
                                            r["valid_to"], r["confidence"]) for r in rows),
            restated_at=max(repeats) if repeats else None))
    return out


def write(cur: Any, facts: Sequence[WrittenFact], redactions: Sequence[tuple[dict, ...]],
          scope: str, document_text: str | None, doc_vector: Any,
          at: datetime | None, *, document: tuple[int, bool] | None = None,
          new_entities: bool = True) -> WriteFactsResult:
    """Store each fact (or corroborate it) and re-resolve its key, in request order.

    ``at`` None means now, read after the keys' locks are held: a write that waited for
    another is stamped after it, so its history never sorts before the facts it saw.
    ``document`` (id, already stored) is the testimony the facts were compiled from (the
    compiler's capture); without it the request itself is landed as a document.
    ``new_entities`` False links the facts to their subjects' entities only where the
    registry has one (the compiler's subjects come from text the entity stage has read)."""
    lock_keys(cur, [(scope, f.subject, f.attribute) for f in facts])
    at = at or datetime.now(UTC)
    if document is not None:
        document_id, seen_before = document
    else:
        assert document_text is not None
        document_id, seen_before = _land_request(cur, document_text, doc_vector, at)
    out = []
    cardinalities = _Cardinalities(cur, scope)
    for fact in facts:  # every fact is checked before anything is written
        cardinalities.decide(fact.attribute, fact.cardinality)
    for fact, redacted in zip(facts, redactions, strict=True):
        key = (scope, fact.subject, fact.attribute)
        cardinality = cardinalities.decide(fact.attribute, None)
        observed = fact.observed_at or at
        recorded = _recorded(cur, key, document_id, fact, observed) if seen_before else None
        if recorded is not None:  # this very observation is already kept: a re-run
            out.append(FactWrite(recorded, "unchanged", _reload(cur, recorded), redacted))
            continue
        appended = _append(cur, key, fact, scope, cardinality, observed, document_id, redacted,
                           at)
        if appended is not None:
            out.append(appended)
            continue
        existing = load_key(cur, key)
        same = holder(fact.value, fact.unit, fact.valid_from, fact.valid_to, observed,
                      existing, cardinality)
        if same is not None:
            _corroborate(cur, same.id, document_id, fact, observed, at)
            # A repeat of a claim makes it newer, which can change which claim wins.
            resolve_key(cur, key, cardinality, at, f"fact #{same.id} corroborated")
            out.append(FactWrite(same.id, "corroborated", _reload(cur, same.id), redacted))
            continue
        new_id = _insert(cur, fact, scope, cardinality, observed, document_id, redacted, at)
        resolve_key(cur, key, cardinality, at, f"fact #{new_id} written",
                    loaded=[*existing, _reload(cur, new_id)])
        out.append(FactWrite(new_id, "created", _reload(cur, new_id), redacted))
    _link_subjects(cur, scope, facts, at, create=new_entities)
    compiling.sync_stated(cur, sorted({(scope, f.subject, f.attribute) for f in facts}), at)
    return WriteFactsResult(document_id, tuple(out))


def _link_subjects(cur: Any, scope: str, facts: Sequence[WrittenFact], at: datetime, *,
                   create: bool = True) -> None:
    """Timeline subjects are entities of the registry ('person/ana' is the Person Ana): the
    rows this request added (any path: written, promoted) point at theirs (made when it is
    missing, unless ``create`` is False)."""
    subjects = {f.subject for f in facts}
    if create:
        entities = entity_sql.for_timeline_subjects(cur, subjects, at)
    else:
        cur.execute("SELECT timeline_subject, id::text AS id FROM entities WHERE "
                    "timeline_subject = ANY(%s)", (sorted(subjects),))
        entities = {r["timeline_subject"]: r["id"] for r in cur.fetchall()}
    for subject, entity_id in entities.items():
        attributes = sorted({f.attribute for f in facts if f.subject == subject})
        cur.execute("UPDATE facts SET subject_entity = %s WHERE timeline_scope = %s AND "
                    "subject = %s AND attribute = ANY(%s) AND subject_entity IS NULL",
                    (entity_id, scope, subject, attributes))


def _append(cur: Any, key: Key, fact: WrittenFact, scope: str, cardinality: str,
            observed: datetime, document_id: int, redacted: tuple[dict, ...],
            at: datetime) -> FactWrite | None:
    """The write as an append at the key's tail (timelines/tail.py), decided and written from
    the tail alone; None when the whole key must be resolved."""
    cur.execute(f"SELECT {TIMELINE_COLUMNS} FROM facts WHERE timeline_scope = %s AND "
                "subject = %s AND attribute = %s AND verdict <> 'withdrawn' "
                "ORDER BY COALESCE(valid_from_at, observed_at) DESC, id DESC LIMIT 2", key)
    tail = [timeline_fact(r) for r in cur.fetchall()]
    stated_end_after, corroborated_until = False, None
    if tail:
        latest = sort_start(tail[0])
        cur.execute("SELECT EXISTS (SELECT 1 FROM facts WHERE timeline_scope = %s AND "
                    "subject = %s AND attribute = %s AND valid_to_at > %s AND verdict <> "
                    "'withdrawn') AS found", (*key, latest))
        stated_end_after = cur.fetchone()["found"]
        cur.execute("SELECT max(COALESCE(valid_from_at, observed_at)) AS until FROM evidence "
                    "WHERE fact_id = %s AND role = 'corroboration'", (tail[0].id,))
        corroborated_until = cur.fetchone()["until"]
    plan = plan_append(tail, fact.value, fact.unit, fact.valid_from, fact.valid_to, observed,
                       cardinality, stated_end_after=stated_end_after,
                       last_corroboration_start=corroborated_until)
    if plan is None:
        return None
    if plan.corroborates:
        assert plan.previous is not None
        _corroborate(cur, plan.previous, document_id, fact, observed, at)
        return FactWrite(plan.previous, "corroborated", _reload(cur, plan.previous), redacted)
    new_id = _insert(cur, fact, scope, cardinality, observed, document_id, redacted, at,
                     supersedes=plan.previous)
    if plan.previous is not None:
        cur.execute("UPDATE facts SET verdict = 'superseded', effective_valid_to = %s, "
                    "effective_valid_to_at = %s, superseded_by = %s, t_superseded = "
                    "COALESCE(t_superseded, %s) WHERE id = %s",
                    (plan.previous_end, start_of(plan.previous_end), new_id, at,
                     plan.previous))
        transitions.record(cur, plan.previous, "active", "superseded",
                           f"timeline re-resolved: fact #{new_id} written", at)
    return FactWrite(new_id, "created", _reload(cur, new_id), redacted)


def backfill(cur: Any, facts: Sequence[WrittenFact], redactions: Sequence[tuple[dict, ...]],
             scope: str, document_text: str, doc_vector: Any,
             at: datetime | None) -> BackfillResult:
    """Bulk write: corroborate or insert every fact, then resolve each key once.

    The keys are read in three queries and worked out in memory (timelines/batch.py), then
    written set-based (store/timeline_batches.py): each row once, with its final status and
    its history rows, never inserted and then updated."""
    by_key: dict[Key, list[tuple[WrittenFact, tuple[dict, ...]]]] = {}
    for fact, redacted in zip(facts, redactions, strict=True):
        by_key.setdefault((scope, fact.subject, fact.attribute), []).append((fact, redacted))
    lock_keys(cur, list(by_key))
    at = at or datetime.now(UTC)
    document_id, seen_before = _land_request(cur, document_text, doc_vector, at)
    cardinalities = _Cardinalities(cur, scope)
    for fact in facts:  # every fact is checked before anything is written
        cardinalities.decide(fact.attribute, fact.cardinality)
    decided = {key[2]: cardinalities.decide(key[2], None) for key in by_key}
    batches = timeline_batches.load(cur, list(by_key), decided, at,
                                    timeline_batches.IdPool(cur),
                                    document_id if seen_before else None)
    created = corroborated = unchanged = 0
    for key, items in by_key.items():
        batch = batches[key]
        index = batch.index()
        for fact, redacted in items:
            observed = fact.observed_at or at
            if seen_before and batch.recorded(document_id, fact, observed) is not None:
                unchanged += 1
                continue
            same = index.find(fact.value, fact.unit, fact.valid_from, observed, fact.valid_to)
            if same is not None:
                batch.corroborate(same.id, fact, observed, document_id)
                corroborated += 1
                continue
            new_id = batch.insert(fact, observed, document_id, redacted)
            index.add(batch.facts[new_id].fact)
            created += 1
        batch.resolve("backfill")
    timeline_batches.write(cur, list(batches.values()), at,
                           entity_sql.for_timeline_subjects(cur, {k[1] for k in by_key}, at))
    compiling.sync_stated(cur, sorted(by_key), at)
    return BackfillResult(document_id, created, corroborated, len(by_key),
                          sum(1 for r in redactions if r), unchanged)


class _Cardinalities:
    """Each attribute's cardinality in one scope (seed 002 §3), decided once per request.

    The stored cardinality of the attribute's facts in the scope (any subject) comes first;
    then the first write in the request that names one; then the registry. A write that
    disagrees with what is decided raises CardinalityMismatch, so the request writes nothing.
    """

    def __init__(self, cur: Any, scope: str) -> None:
        self._cur = cur
        self._scope = scope
        self._decided: dict[str, tuple[str, bool]] = {}  # attribute -> (cardinality, fixed)

    def decide(self, attribute: str, written: str | None) -> str:
        if attribute not in self._decided:
            self._cur.execute("SELECT cardinality FROM facts WHERE timeline_scope = %s AND "
                              "attribute = %s LIMIT 1", (self._scope, attribute))
            row = self._cur.fetchone()
            stored = row["cardinality"] if row else None
            self._decided[attribute] = (decide_cardinality(stored, written, attribute),
                                        stored is not None or written is not None)
            return self._decided[attribute][0]
        cardinality, fixed = self._decided[attribute]
        if written is not None and fixed:
            return decide_cardinality(cardinality, written, attribute)
        if written is not None:  # the registry's guess yields to the first write that says
            self._decided[attribute] = (decide_cardinality(None, written, attribute), True)
        return self._decided[attribute][0]


def _land_request(cur: Any, text: str, vector: Any, at: datetime) -> tuple[int, bool]:
    """The request as one document, once: the same request sent again finds it (and writes
    nothing). Returns its id and whether it was already there (only then can any of its
    observations be kept already)."""
    digest = content_hash(text)
    lineage = lineage_of("capture", None, digest)
    locks.lock_lineages(cur, [lineage])  # after the keys' locks, as store/locks.py orders
    cur.execute("SELECT id FROM documents WHERE lineage = %s AND content_hash = %s AND "
                "access_scope = current_setting('factstore.write_scope')", (lineage, digest))
    row = cur.fetchone()
    if row is not None:
        return row["id"], True
    cur.execute(
        "INSERT INTO documents (content, content_hash, source_type, lineage, version, "
        "captured_by, captured_at, routed, embedding, meta) VALUES (%s, %s, 'capture', %s, 1, "
        "'format-v1', %s, 'facts', %s, '{\"format\": 1}') RETURNING id",
        (text, digest, lineage, at, vector))
    return cur.fetchone()["id"], False


def _recorded(cur: Any, key: Key, document_id: int, fact: WrittenFact,
              observed: datetime) -> int | None:
    """The fact that already keeps this very observation (same request document, value,
    unit, start, end and observation time), as its own testimony or as a corroboration."""
    # value and unit compared here, not in SQL: in a sealed scope they are envelopes
    cur.execute(
        "SELECT e.id, e.fact_id, e.value, e.unit, e.access_scope, e.sealed_version "
        "FROM evidence e JOIN facts f ON f.id = e.fact_id "
        "WHERE e.document_id = %s AND f.timeline_scope = %s AND f.subject = %s AND "
        "f.attribute = %s AND e.valid_from IS NOT DISTINCT FROM %s AND "
        "e.valid_to IS NOT DISTINCT FROM %s AND e.observed_at = %s ORDER BY e.id",
        (document_id, *key, fact.valid_from, fact.valid_to, observed))
    for row in cur.fetchall():
        row = open_row("evidence", row)
        if (row["value"], row["unit"]) == (fact.value, fact.unit):
            return row["fact_id"]
    return None


def _corroborate(cur: Any, fact_id: int, document_id: int, fact: WrittenFact,
                 observed: datetime, at: datetime) -> None:
    """Keep the repeat as an observation on the fact it repeats (rule 2 stores no fact)."""
    # Confirmation moves forward, never back: a backfilled older repeat changes nothing.
    cur.execute("UPDATE facts SET last_confirmed_at = GREATEST(last_confirmed_at, %s), "
                "t_last_verified = GREATEST(t_last_verified, %s) WHERE id = %s",
                (observed, at, fact_id))
    _observation(cur, fact_id, document_id, fact, observed, at, "corroboration")


def _observation(cur: Any, fact_id: int, document_id: int, fact: WrittenFact,
                 observed: datetime, at: datetime, role: str) -> None:
    cur.execute(
        "INSERT INTO evidence (fact_id, document_id, quote, stance, recorded_at, observed_at, "
        "role, value, unit, valid_from, valid_from_at, valid_to, source, confidence) VALUES "
        "(%s, %s, %s, 'supports', %s, %s, %s, %s, %s, %s, %s, %s, %s, %s) "
        "ON CONFLICT DO NOTHING",
        (fact_id, document_id, fact.quote or "", at, observed, role, fact.value, fact.unit,
         fact.valid_from, start_of(fact.valid_from), fact.valid_to, fact.source,
         fact.confidence))


def _insert(cur: Any, fact: WrittenFact, scope: str, cardinality: str, observed: datetime,
            document_id: int, redacted: tuple[dict, ...], at: datetime,
            supersedes: int | None = None) -> int:
    new_id = _insert_row(cur, fact, scope, cardinality, observed, document_id, redacted, at,
                         "written: format v1", supersedes)
    _observation(cur, new_id, document_id, fact, observed, at, "testimony")
    return new_id


def _insert_row(cur: Any, fact: WrittenFact, scope: str, cardinality: str,
                observed: datetime, document_id: int, redacted: tuple[dict, ...],
                at: datetime, reason: str, supersedes: int | None = None) -> int:
    meta: dict[str, object] = {"format": 1}
    if redacted:
        meta["redactions"] = list(redacted)
    cur.execute(
        "INSERT INTO facts (statement, statement_norm, kind, verdict, evidence_quote, "
        "evidence_source_type, evidence_source_ref, document_id, t_captured, t_last_verified, "
        "subject, timeline_scope, attribute, value, unit, cardinality, valid_from, valid_from_at, "
        "valid_to, valid_to_at, observed_at, last_confirmed_at, confidence, meta, supersedes) "
        "VALUES "
        "(%(statement)s, %(norm)s, 'STATE', 'active', %(quote)s, 'capture', "
        "%(source)s, %(doc)s, %(at)s, %(at)s, %(subject)s, %(scope)s, %(attribute)s, %(value)s, "
        "%(unit)s, %(cardinality)s, %(vf)s, %(vf_at)s, %(vt)s, %(vt_at)s, %(observed)s, "
        "%(observed)s, %(confidence)s, %(meta)s, %(supersedes)s) RETURNING id",
        {"statement": statement_of(fact), "norm": statement_of(fact).lower(), "quote": fact.quote or None, "source": fact.source,
         "doc": document_id, "at": at, "subject": fact.subject, "scope": scope,
         "attribute": fact.attribute, "value": fact.value, "unit": fact.unit,
         "cardinality": cardinality, "vf": fact.valid_from, "vf_at": start_of(fact.valid_from),
         "vt": fact.valid_to, "vt_at": start_of(fact.valid_to), "observed": observed,
         "confidence": fact.confidence, "meta": Jsonb(meta), "supersedes": supersedes})
    new_id = cur.fetchone()["id"]
    transitions.record(cur, new_id, None, "active", reason, at)
    return new_id


def resolve_key(cur: Any, key: Key, cardinality: str, at: datetime, reason: str,
                loaded: list[TimelineFact] | None = None) -> None:
    """Re-resolve one key, then settle its corroborations until every one is held.

    A corroboration no live fact of its value holds any more (a later write ended that
    fact, or it was retracted) becomes a fact of its own, the earliest first, and the key is
    resolved again (timelines/observations.py). Each pass promotes one observation, so the
    loop ends; afterwards the timeline is what the whole set of observations says.

    ``loaded`` is the key as the caller already holds it (under the key's lock, with its
    corroborations), to save reading it twice."""
    facts = load_key(cur, key) if loaded is None else loaded
    for _ in range(_MAX_SETTLE_PASSES):
        resolved = _resolve_once(cur, facts, cardinality, at, reason)
        observations = [_observation_of(fact, seen) for fact in resolved
                        for seen in fact.corroborations]
        if not observations:
            return
        moves, orphan = settle(resolved, observations, cardinality)
        if not moves and orphan is None:
            return
        for obs_id, fact_id in moves.items():
            cur.execute("UPDATE evidence SET fact_id = %s WHERE id = %s", (fact_id, obs_id))
        if moves:
            _recount_confirmations(cur, [f.id for f in resolved])
        if orphan is not None:
            new_id = _promote(cur, key, cardinality, orphan, at)
            reason = (f"observation #{orphan.id} kept as fact #{new_id}: fact "
                      f"#{orphan.fact_id} no longer holds it")
        else:
            reason = "corroborations moved to the facts that hold them"
        # A moved repeat changes when its claim was last observed; a new fact changes the
        # ranges: read the key again and resolve it again.
        facts = load_key(cur, key)
    raise SchemaError(f"timeline {key} did not settle after {_MAX_SETTLE_PASSES} passes; "
                      "report it with the key's facts")


def _observation_of(fact: TimelineFact, seen: Seen) -> Observation:
    assert seen.id is not None  # reads fill the evidence id in
    return Observation(seen.id, fact.id, seen.value, seen.unit, seen.valid_from,
                       seen.valid_to, seen.observed_at, seen.source, seen.quote,
                       seen.confidence)


def _promote(cur: Any, key: Key, cardinality: str, obs: Observation, at: datetime) -> int:
    """Store an orphaned observation as the fact it reports; its evidence row becomes the new
    fact's own testimony (nothing is copied away from the record, nothing deleted)."""
    scope, subject, attribute = key
    written = WrittenFact(subject=subject, attribute=attribute, value=obs.value, unit=obs.unit,
                          valid_from=obs.valid_from, valid_to=obs.valid_to,
                          observed_at=obs.observed_at, source=obs.source, quote=obs.quote,
                          confidence=obs.confidence, cardinality=cardinality)
    cur.execute("SELECT document_id FROM evidence WHERE id = %s", (obs.id,))
    document_id = cur.fetchone()["document_id"]
    new_id = _insert_row(cur, written, scope, cardinality, obs.observed_at, document_id, (), at,
                         f"promoted: observation #{obs.id} no longer corroborates fact "
                         f"#{obs.fact_id}")
    cur.execute("UPDATE evidence SET fact_id = %s, role = 'testimony' WHERE id = %s",
                (new_id, obs.id))
    _recount_confirmations(cur, [obs.fact_id])
    return new_id


def _recount_confirmations(cur: Any, fact_ids: Sequence[int]) -> None:
    """last_confirmed_at is the fact's own observation or its latest corroboration's."""
    cur.execute(
        "UPDATE facts f SET last_confirmed_at = GREATEST(f.observed_at, COALESCE((SELECT "
        "max(e.observed_at) FROM evidence e WHERE e.fact_id = f.id AND e.role = "
        "'corroboration'), f.observed_at)) WHERE f.id = ANY(%s)", (list(fact_ids),))


def _resolve_once(cur: Any, facts: list[TimelineFact], cardinality: str, at: datetime,
                  reason: str) -> list[TimelineFact]:
    """Resolve one key's facts with rules 1-7 and write only what changed, with its
    history; returns the facts as resolved."""
    resolution = resolve_timeline(facts, cardinality)
    conflict_of = _sync_disputes(cur, facts, resolution.disputes, at, reason)
    resolved = apply(facts, resolution)
    for old, new in zip(facts, resolved, strict=True):
        if (old.status, old.effective_valid_to, old.superseded_by, old.supersedes) == (
                new.status, new.effective_valid_to, new.superseded_by, new.supersedes):
            continue
        verdict = STATUS_TO_VERDICT[new.status]
        cur.execute(
            "UPDATE facts SET verdict = %(v)s, effective_valid_to = %(e)s, "
            "effective_valid_to_at = %(e_at)s, superseded_by = %(by)s, supersedes = %(sup)s, "
            "t_superseded = CASE WHEN %(v)s = 'superseded' THEN COALESCE(t_superseded, %(at)s) "
            "END WHERE id = %(id)s",
            {"v": verdict, "e": new.effective_valid_to, "e_at": start_of(new.effective_valid_to),
             "by": new.superseded_by, "sup": new.supersedes, "at": at, "id": new.id})
        if old.status != new.status:
            transitions.record(cur, new.id, STATUS_TO_VERDICT[old.status], verdict,
                               f"timeline re-resolved: {reason}", at, conflict_of.get(new.id))
    return resolved


def _sync_disputes(cur: Any, facts: list[TimelineFact],
                   disputes: Sequence[tuple[int, int, str]], at: datetime,
                   reason: str) -> dict[int, int]:
    """Open a conflict per new disputed pair; close the ones the timeline has settled."""
    ids = [f.id for f in facts]
    cur.execute("SELECT id, fact_a, fact_b FROM conflicts WHERE lane = 'timeline' AND "
                "status = 'open' AND fact_a = ANY(%s)", (ids,))
    open_pairs = {(r["fact_a"], r["fact_b"]): r["id"] for r in cur.fetchall()}
    wanted = {(a, b): rule for a, b, rule in disputes}
    conflict_of: dict[int, int] = {}
    for pair, rule in wanted.items():
        if pair not in open_pairs:
            cur.execute("INSERT INTO conflicts (fact_a, fact_b, lane, differences, created_at) "
                        "VALUES (%s, %s, 'timeline', %s, %s) RETURNING id",
                        (pair[0], pair[1], [rule], at))
            open_pairs[pair] = cur.fetchone()["id"]
        conflict_of.setdefault(pair[0], open_pairs[pair])
        conflict_of.setdefault(pair[1], open_pairs[pair])
    for pair, conflict_id in open_pairs.items():
        if pair not in wanted:
            cur.execute("UPDATE conflicts SET status = 'resolved', resolution = 'timeline', "
                        "reasoning = %s, resolved_at = %s WHERE id = %s",
                        (f"settled by the timeline: {reason}", at, conflict_id))
    return conflict_of


def retract(cur: Any, fact_id: int, reason: str, at: datetime) -> TimelineFact | None:
    """Withdraw a fact; a timeline fact's key is re-resolved. Returns the timeline fact."""
    # The key's (or the plain kind's) advisory lock before the row's (store/locks.py): a
    # writer of the key holds the key lock while it updates this row.
    locked = locks.lock_facts_domain(cur, [fact_id])
    cur.execute("SELECT verdict, kind, attribute, subject, timeline_scope, cardinality FROM "
                "facts WHERE id = %s FOR NO KEY UPDATE", (fact_id,))
    row = cur.fetchone()
    if row is None:
        raise FactNotFound(f"no fact #{fact_id} to retract")
    locks.check_domain(fact_id, locked, row)
    if row["verdict"] == Verdict.WITHDRAWN.value:
        # said, not silently repeated: a second retraction writes nothing
        raise AlreadyRetracted(f"fact #{fact_id} was already retracted (its verdict is withdrawn); "
                           "nothing changed. history(fact_id) shows when and why")
    if row["attribute"] is None:
        transitions.set_verdict(cur, fact_id, Verdict.WITHDRAWN, f"retracted: {reason}", at)
        transitions.close_conflicts_of(cur, fact_id, at, "withdrawn", except_conflict=None)
        return None
    key = (row["timeline_scope"], row["subject"], row["attribute"])
    transitions.set_verdict(cur, fact_id, Verdict.WITHDRAWN, f"retracted: {reason}", at)
    resolve_key(cur, key, row["cardinality"], at, f"fact #{fact_id} retracted")
    compiling.sync_stated(cur, [key], at)
    return _reload(cur, fact_id)


def fact_for_end(cur: Any, fact_id: int) -> TimelineFact:
    """The live timeline fact ``end_fact`` may end, or a typed refusal saying why not."""
    cur.execute(f"SELECT {TIMELINE_COLUMNS}, attribute IS NULL AS plain FROM facts "
                "WHERE id = %s", (fact_id,))
    row = cur.fetchone()
    if row is None:
        raise FactNotFound(f"no fact #{fact_id} to end")
    if row["plain"]:
        raise InvalidInput(f"fact #{fact_id} is not a timeline fact; only facts written with "
                           "write_facts have a valid time to end")
    fact = timeline_fact(row)
    if fact.retracted:
        raise InvalidInput(f"fact #{fact_id} is retracted; there is nothing to end")
    return fact


def _reload(cur: Any, fact_id: int) -> TimelineFact:
    cur.execute(f"SELECT {TIMELINE_COLUMNS} FROM facts WHERE id = %s", (fact_id,))
    return timeline_fact(cur.fetchone())


def read_keys(cur: Any, scopes: Sequence[str], subject: str | None, attribute: str | None,
              limit: int) -> list[list[TimelineFact]]:
    """Whole keys, newest-written first, until about ``limit`` facts are gathered."""
    rows = (_keys_by_subject(cur, scopes, subject, attribute) if subject is not None
            else _newest_keys(cur, scopes, attribute, limit))
    chosen, total = [], 0
    for row in rows:
        if chosen and total + row["n"] > limit:
            break
        chosen.append((row["timeline_scope"], row["subject"], row["attribute"]))
        total += row["n"]
        if total >= limit:
            break
    if not chosen:
        return []
    cur.execute(
        f"SELECT f.* FROM unnest(%s::text[], %s::text[], %s::text[]) AS k(k_scope, k_subject, "
        f"k_attribute) CROSS JOIN LATERAL (SELECT {TIMELINE_COLUMNS} FROM facts WHERE "
        "attribute IS NOT NULL AND timeline_scope = k_scope AND subject = k_subject AND "
        "attribute = k_attribute) f ORDER BY f.id",
        ([c[0] for c in chosen], [c[1] for c in chosen], [c[2] for c in chosen]))
    # A scope is a timeline of its own: personal and shared facts never mask each other.
    grouped: dict[tuple[str, str, str], list[TimelineFact]] = {c: [] for c in chosen}
    for fact in with_observations(cur, [timeline_fact(row) for row in cur.fetchall()]):
        grouped[(fact.scope or "", fact.subject, fact.attribute)].append(fact)
    return [facts for facts in grouped.values() if facts]


def _keys_by_subject(cur: Any, scopes: Sequence[str], subject: str,
                     attribute: str | None) -> list[dict[str, Any]]:
    """A subject's keys, newest-written first (its rows come from the key index)."""
    cur.execute(
        "SELECT timeline_scope, subject, attribute, max(t_captured) AS newest, count(*) AS n "
        "FROM facts WHERE attribute IS NOT NULL AND timeline_scope = ANY(%(s)s) "
        "AND subject = %(subj)s AND (%(attr)s::text IS NULL OR attribute = %(attr)s) "
        "GROUP BY timeline_scope, subject, attribute "
        "ORDER BY newest DESC, subject, attribute, timeline_scope",
        {"s": list(scopes), "subj": subject, "attr": attribute})
    return cur.fetchall()


#: Rows read per step of the newest-first walk over facts_timeline_recent.
_WALK_PAGE = 2000
#: Keys counted per round trip while the walk gathers a read's facts.
_COUNT_BATCH = 32


def _newest_keys(cur: Any, scopes: Sequence[str], attribute: str | None,
                 limit: int) -> list[dict[str, Any]]:
    """Keys newest-written first, without grouping every row of a big store: walk the
    recent-facts index newest first, a page at a time, taking each key at its newest row,
    until the keys found hold ``limit`` facts (each key counted on the key index).

    Keys written at one instant (one backfill) keep the grouped query's order: subject,
    attribute, scope. So the walk reads a whole instant before it orders that instant's keys.
    """
    found: list[dict[str, Any]] = []
    seen: set[tuple[str, str, str]] = set()
    total, after = 0, None
    pending: list[tuple[str, str, str]] = []
    pending_at = None

    def flush() -> None:
        nonlocal total
        ordered = sorted(pending, key=lambda k: (k[1], k[2], k[0]))
        pending.clear()
        # Counted a few keys per round trip, in order, only until the read has its facts.
        for start in range(0, len(ordered), _COUNT_BATCH):
            if total >= limit:
                return
            for key, n in zip(ordered[start:start + _COUNT_BATCH],
                              _key_sizes(cur, ordered[start:start + _COUNT_BATCH]),
                              strict=True):
                found.append({"timeline_scope": key[0], "subject": key[1],
                              "attribute": key[2], "n": n})
                total += n

    while total < limit:
        cur.execute(
            "SELECT id, t_captured, timeline_scope, subject, attribute FROM facts "
            "WHERE attribute IS NOT NULL AND timeline_scope = ANY(%(s)s) "
            "AND (%(attr)s::text IS NULL OR attribute = %(attr)s) "
            "AND (%(at)s::timestamptz IS NULL OR (t_captured, id) < (%(at)s, %(id)s)) "
            "ORDER BY t_captured DESC, id DESC LIMIT %(page)s",
            {"s": list(scopes), "attr": attribute, "page": _WALK_PAGE,
             "at": after[0] if after else None, "id": after[1] if after else None})
        page = cur.fetchall()
        for row in page:
            if row["t_captured"] != pending_at:
                flush()
                if total >= limit:
                    return found
                pending_at = row["t_captured"]
            key = (row["timeline_scope"], row["subject"], row["attribute"])
            if key not in seen:
                seen.add(key)
                pending.append(key)
        if len(page) < _WALK_PAGE:
            break
        after = (page[-1]["t_captured"], page[-1]["id"])
    flush()
    return found


def _key_sizes(cur: Any, keys: Sequence[Key]) -> list[int]:
    """How many facts each key holds, in the keys' order (one probe of the key index each)."""
    cur.execute("SELECT n FROM unnest(%s::text[], %s::text[], %s::text[]) WITH ORDINALITY AS "
                "k(k_scope, k_subject, k_attribute, i) CROSS JOIN LATERAL (SELECT count(*) AS n "
                "FROM facts WHERE attribute IS NOT NULL AND timeline_scope = k_scope AND "
                "subject = k_subject AND attribute = k_attribute) c ORDER BY i",
                ([k[0] for k in keys], [k[1] for k in keys], [k[2] for k in keys]))
    return [row["n"] for row in cur.fetchall()]


def as_known_at(cur: Any, facts: list[TimelineFact], known_at: datetime) -> list[TimelineFact]:
    """The key as the store believed it then: facts learned by then, retractions by then,
    confirmations by then, re-resolved (resolution is deterministic, so this is exact)."""
    learned = [f for f in facts if f.recorded_at <= known_at]
    if not learned:
        return []
    ids = [f.id for f in learned]
    cur.execute("SELECT DISTINCT fact_id FROM fact_history WHERE fact_id = ANY(%s) AND "
                "to_verdict = 'withdrawn' AND at <= %s", (ids, known_at))
    retracted = {r["fact_id"] for r in cur.fetchall()}
    then = [dataclasses.replace(f, retracted=f.id in retracted,
                                status="retracted" if f.id in retracted else "current",
                                corroborations=(), restated_at=None)
            for f in learned]
    then = [dataclasses.replace(f, last_confirmed_at=max((f.observed_at, *f.corroborated_at)))
            for f in with_observations(cur, then, known_at)]
    cardinality = then[0].cardinality
    return apply(then, resolve_timeline(then, cardinality))


def request_text(payload: dict[str, Any]) -> str:
    """The canonical (redacted) request, as the document that testifies for its facts."""
    return json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)

