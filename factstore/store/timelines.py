"""Timelines' SQL: write format v1 facts, re-resolve a key, retract, read on both axes."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from factstore.errors import FactNotFound
from factstore.kinds import Verdict
from factstore.store import transitions
from factstore.store.remember import content_hash, lineage_of
from factstore.timelines.bulk import CorroborationIndex
from factstore.timelines.cardinality import decide_cardinality
from factstore.timelines.dates import start_of
from factstore.timelines.format_v1 import WrittenFact
from factstore.timelines.model import (
    STATUS_TO_VERDICT,
    VERDICT_TO_STATUS,
    BackfillResult,
    FactWrite,
    TimelineFact,
    WriteFactsResult,
)
from factstore.timelines.resolution import apply, corroborated_by, resolve_timeline

TIMELINE_COLUMNS = (
    "id, subject, attribute, value, unit, cardinality, valid_from, valid_to, observed_at, "
    "last_confirmed_at, t_captured, evidence_source_ref, evidence_quote, confidence, verdict, "
    "effective_valid_to, superseded_by, supersedes, timeline_scope"
)

Key = tuple[str, str, str]  # (scope, subject, attribute)


def timeline_fact(row: dict[str, Any]) -> TimelineFact:
    status = VERDICT_TO_STATUS[row["verdict"]]
    return TimelineFact(
        id=row["id"], subject=row["subject"], attribute=row["attribute"], value=row["value"],
        unit=row["unit"], cardinality=row["cardinality"], valid_from=row["valid_from"],
        valid_to=row["valid_to"], observed_at=row["observed_at"],
        last_confirmed_at=row["last_confirmed_at"], recorded_at=row["t_captured"],
        source=row["evidence_source_ref"], quote=row["evidence_quote"],
        confidence=row["confidence"], retracted=status == "retracted", status=status,
        effective_valid_to=row["effective_valid_to"], superseded_by=row["superseded_by"],
        supersedes=row["supersedes"])


def statement_of(fact: WrittenFact | TimelineFact) -> str:
    """A plain statement for the common frame: 'shoe_size(person/nick) = 41 EU from 2026'."""
    text = f"{fact.attribute}({fact.subject}) = {fact.value}"
    text += f" {fact.unit}" if fact.unit else ""
    text += f" from {fact.valid_from}" if fact.valid_from else ""
    return text + (f" until {fact.valid_to}" if fact.valid_to else "")


def lock_keys(cur: Any, keys: Sequence[Key]) -> None:
    # One writer per key at a time; sorted so two requests never deadlock.
    for key in sorted(set(keys)):
        cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 2))",
                    ("timeline:" + "|".join(key),))


def load_key(cur: Any, key: Key) -> list[TimelineFact]:
    cur.execute(f"SELECT {TIMELINE_COLUMNS} FROM facts WHERE timeline_scope = %s AND "
                "subject = %s AND attribute = %s ORDER BY id", key)
    return [timeline_fact(r) for r in cur.fetchall()]


def write(cur: Any, facts: Sequence[WrittenFact], redactions: Sequence[tuple[dict, ...]],
          scope: str, document_text: str, doc_vector: Any, at: datetime) -> WriteFactsResult:
    """Store each fact (or corroborate it) and re-resolve its key, in request order."""
    document_id = _land_request(cur, document_text, doc_vector, at)
    lock_keys(cur, [(scope, f.subject, f.attribute) for f in facts])
    out = []
    for fact, redacted in zip(facts, redactions, strict=True):
        key = (scope, fact.subject, fact.attribute)
        existing = load_key(cur, key)
        stored = existing[0].cardinality if existing else None
        cardinality = decide_cardinality(stored, fact.cardinality, fact.attribute)
        observed = fact.observed_at or at
        same = corroborated_by(fact.value, fact.unit, fact.valid_from, observed, existing,
                               cardinality)
        if same is not None:
            _corroborate(cur, same.id, document_id, fact, observed, at)
            out.append(FactWrite(same.id, "corroborated", _reload(cur, same.id), redacted))
            continue
        new_id = _insert(cur, fact, scope, cardinality, observed, document_id, redacted, at)
        resolve_key(cur, key, cardinality, at, f"fact #{new_id} written",
                    loaded=[*existing, _reload(cur, new_id)])
        out.append(FactWrite(new_id, "created", _reload(cur, new_id), redacted))
    return WriteFactsResult(document_id, tuple(out))


def backfill(cur: Any, facts: Sequence[WrittenFact], redactions: Sequence[tuple[dict, ...]],
             scope: str, document_text: str, doc_vector: Any, at: datetime) -> BackfillResult:
    """Bulk write: corroborate or insert every fact, then resolve each key once."""
    document_id = _land_request(cur, document_text, doc_vector, at)
    by_key: dict[Key, list[tuple[WrittenFact, tuple[dict, ...]]]] = {}
    for fact, redacted in zip(facts, redactions, strict=True):
        by_key.setdefault((scope, fact.subject, fact.attribute), []).append((fact, redacted))
    lock_keys(cur, list(by_key))
    created = corroborated = 0
    for key, items in by_key.items():
        existing = load_key(cur, key)
        cardinality = existing[0].cardinality if existing else None
        for fact, _ in items:
            cardinality = decide_cardinality(cardinality, fact.cardinality, fact.attribute)
        index = CorroborationIndex(existing, cardinality)
        for fact, redacted in items:
            observed = fact.observed_at or at
            same = index.find(fact.value, fact.unit, fact.valid_from, observed)
            if same is not None:
                _corroborate(cur, same.id, document_id, fact, observed, at)
                corroborated += 1
                continue
            new_id = _insert(cur, fact, scope, cardinality, observed, document_id, redacted, at)
            index.add(TimelineFact(new_id, fact.subject, fact.attribute, fact.value, fact.unit,
                                   cardinality, fact.valid_from, fact.valid_to, observed,
                                   observed, at))
            created += 1
        resolve_key(cur, key, cardinality, at, "backfill")
    return BackfillResult(document_id, created, corroborated, len(by_key),
                          sum(1 for r in redactions if r))


def _land_request(cur: Any, text: str, vector: Any, at: datetime) -> int:
    digest = content_hash(text)
    lineage = lineage_of("capture", None, digest)
    cur.execute(
        "INSERT INTO documents (content, content_hash, source_type, lineage, version, "
        "captured_by, captured_at, routed, embedding, meta) VALUES (%s, %s, 'capture', %s, 1, "
        "'format-v1', %s, 'facts', %s, '{\"format\": 1}') ON CONFLICT (lineage, content_hash) "
        "DO UPDATE SET content = EXCLUDED.content RETURNING id",
        (text, digest, lineage, at, vector))
    return cur.fetchone()["id"]


def _corroborate(cur: Any, fact_id: int, document_id: int, fact: WrittenFact,
                 observed: datetime, at: datetime) -> None:
    # Confirmation moves forward, never back: a backfilled older repeat changes nothing.
    cur.execute("UPDATE facts SET last_confirmed_at = GREATEST(last_confirmed_at, %s), "
                "t_last_verified = GREATEST(t_last_verified, %s) WHERE id = %s",
                (observed, at, fact_id))
    cur.execute("INSERT INTO evidence (fact_id, document_id, quote, stance, recorded_at, "
                "observed_at) VALUES (%s, %s, %s, 'supports', %s, %s) ON CONFLICT DO NOTHING",
                (fact_id, document_id, fact.quote or "", at, observed))


def _insert(cur: Any, fact: WrittenFact, scope: str, cardinality: str, observed: datetime,
            document_id: int, redacted: tuple[dict, ...], at: datetime) -> int:
    meta: dict[str, object] = {"format": 1}
    if redacted:
        meta["redactions"] = list(redacted)
    cur.execute(
        "INSERT INTO facts (statement, statement_norm, kind, verdict, evidence_quote, "
        "evidence_source_type, evidence_source_ref, document_id, t_captured, t_last_verified, "
        "subject, timeline_scope, attribute, value, unit, cardinality, valid_from, valid_from_at, "
        "valid_to, valid_to_at, observed_at, last_confirmed_at, confidence, meta) VALUES "
        "(%(statement)s, lower(%(statement)s), 'STATE', 'active', %(quote)s, 'capture', "
        "%(source)s, %(doc)s, %(at)s, %(at)s, %(subject)s, %(scope)s, %(attribute)s, %(value)s, "
        "%(unit)s, %(cardinality)s, %(vf)s, %(vf_at)s, %(vt)s, %(vt_at)s, %(observed)s, "
        "%(observed)s, %(confidence)s, %(meta)s) RETURNING id",
        {"statement": statement_of(fact), "quote": fact.quote or None, "source": fact.source,
         "doc": document_id, "at": at, "subject": fact.subject, "scope": scope,
         "attribute": fact.attribute, "value": fact.value, "unit": fact.unit,
         "cardinality": cardinality, "vf": fact.valid_from, "vf_at": start_of(fact.valid_from),
         "vt": fact.valid_to, "vt_at": start_of(fact.valid_to), "observed": observed,
         "confidence": fact.confidence, "meta": Jsonb(meta)})
    new_id = cur.fetchone()["id"]
    cur.execute("INSERT INTO evidence (fact_id, document_id, quote, stance, recorded_at, "
                "observed_at) VALUES (%s, %s, %s, 'supports', %s, %s)",
                (new_id, document_id, fact.quote or "", at, observed))
    transitions.record(cur, new_id, None, "active", "written: format v1", at)
    return new_id


def resolve_key(cur: Any, key: Key, cardinality: str, at: datetime, reason: str,
                loaded: list[TimelineFact] | None = None) -> None:
    """Re-resolve one key with rules 1-7 and write only what changed, with its history.

    ``loaded`` is the key as the caller already holds it (under the key's lock), to save
    reading it twice."""
    facts = load_key(cur, key) if loaded is None else loaded
    resolution = resolve_timeline(facts, cardinality)
    conflict_of = _sync_disputes(cur, facts, resolution.disputes, at, reason)
    for old, new in zip(facts, apply(facts, resolution), strict=True):
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
    cur.execute("SELECT verdict, attribute, subject, timeline_scope, cardinality FROM facts "
                "WHERE id = %s FOR UPDATE", (fact_id,))
    row = cur.fetchone()
    if row is None:
        raise FactNotFound(f"no fact #{fact_id} to retract")
    if row["attribute"] is None:
        transitions.set_verdict(cur, fact_id, Verdict.WITHDRAWN, f"retracted: {reason}", at)
        transitions.close_conflicts_of(cur, fact_id, at, "withdrawn", except_conflict=None)
        return None
    key = (row["timeline_scope"], row["subject"], row["attribute"])
    lock_keys(cur, [key])
    transitions.set_verdict(cur, fact_id, Verdict.WITHDRAWN, f"retracted: {reason}", at)
    resolve_key(cur, key, row["cardinality"], at, f"fact #{fact_id} retracted")
    return _reload(cur, fact_id)


def _reload(cur: Any, fact_id: int) -> TimelineFact:
    cur.execute(f"SELECT {TIMELINE_COLUMNS} FROM facts WHERE id = %s", (fact_id,))
    return timeline_fact(cur.fetchone())


def read_keys(cur: Any, scopes: Sequence[str], subject: str | None, attribute: str | None,
              limit: int) -> list[list[TimelineFact]]:
    """Whole keys, newest-written first, until about ``limit`` facts are gathered."""
    cur.execute(
        "SELECT subject, attribute, max(t_captured) AS newest, count(*) AS n FROM facts "
        "WHERE attribute IS NOT NULL AND timeline_scope = ANY(%(s)s) "
        "AND (%(subj)s::text IS NULL OR subject = %(subj)s) "
        "AND (%(attr)s::text IS NULL OR attribute = %(attr)s) "
        "GROUP BY subject, attribute ORDER BY newest DESC, subject, attribute",
        {"s": list(scopes), "subj": subject, "attr": attribute})
    chosen, total = [], 0
    for row in cur.fetchall():
        if chosen and total + row["n"] > limit:
            break
        chosen.append((row["subject"], row["attribute"]))
        total += row["n"]
    if not chosen:
        return []
    cur.execute(
        f"SELECT {TIMELINE_COLUMNS} FROM facts WHERE attribute IS NOT NULL AND "
        "timeline_scope = ANY(%s) AND (subject, attribute) IN (SELECT * FROM unnest(%s::text[], "
        "%s::text[])) ORDER BY id", (list(scopes), [c[0] for c in chosen], [c[1] for c in chosen]))
    grouped: dict[tuple[str, str], list[TimelineFact]] = {c: [] for c in chosen}
    for row in cur.fetchall():
        grouped[(row["subject"], row["attribute"])].append(timeline_fact(row))
    return [facts for facts in grouped.values() if facts]


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
    cur.execute("SELECT fact_id, max(observed_at) AS confirmed FROM evidence WHERE fact_id = "
                "ANY(%s) AND recorded_at <= %s GROUP BY fact_id", (ids, known_at))
    confirmed = {r["fact_id"]: r["confirmed"] for r in cur.fetchall()}
    then = [dataclasses.replace(f, retracted=f.id in retracted,
                                status="retracted" if f.id in retracted else "current",
                                last_confirmed_at=confirmed.get(f.id) or f.observed_at)
            for f in learned]
    cardinality = then[0].cardinality
    return apply(then, resolve_timeline(then, cardinality))


def request_text(payload: dict[str, Any]) -> str:
    """The canonical (redacted) request, as the document that testifies for its facts."""
    return json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)

