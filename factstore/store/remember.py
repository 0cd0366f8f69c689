"""The write path's database stage: documents floor, tags, density check, triage, write.

Runs inside one transaction. The density check and the write are serialised per kind with a
transaction-scoped advisory lock, so two writers can never both miss each other's
near-duplicate.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from psycopg import sql
from psycopg.types.json import Jsonb

from factstore.differences import differences, route_decision
from factstore.kinds import LIVE_VERDICTS, RETRIEVABLE_VERDICTS, Kind, Verdict
from factstore.results import (
    CandidateRoot,
    DocumentRecord,
    FactOutcome,
    Interrupt,
    RememberResult,
    Side,
)
from factstore.settings import Settings
from factstore.store import tags as tag_sql
from factstore.store import transitions
from factstore.store.rows import fetch_fact
from factstore.writepath.prepare import PreparedCapture, PreparedFact
from factstore.writepath.triage import Candidate, triage


@dataclass(frozen=True)
class Capture:
    text: str
    source_type: str
    source_ref: str | None
    said_at: datetime | None
    captured_by: str | None
    captured_at: datetime


@dataclass(frozen=True)
class NearHit:
    id: int
    kind: Kind
    statement: str
    quote: str
    verdict: str
    similarity: float
    t_captured: datetime


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def lineage_of(source_type: str, source_ref: str | None, digest: str) -> str:
    """Versions of one source share a lineage; an unnamed capture is its own lineage."""
    return f"{source_type}:{source_ref}" if source_ref else f"{source_type}:sha256:{digest[:16]}"


def write_capture(cur: Any, capture: Capture, prepared: PreparedCapture,
                  doc_vector: np.ndarray, fact_vectors: np.ndarray, settings: Settings,
                  path_exists: Callable[[str], bool]) -> RememberResult:
    at = capture.captured_at
    routed = ("index-page" if prepared.gate.is_index_page
              else "facts" if prepared.facts else "documents-only")
    document = _land_document(cur, capture, routed, doc_vector, prepared)
    outcomes: list[FactOutcome] = []
    interrupts: list[Interrupt] = []
    roots: dict[str, CandidateRoot] = {}
    if prepared.facts:
        _lock_kinds(cur, {f.kind for f in prepared.facts})
        _tune_knn(cur, settings)
        registry = tag_sql.snapshot(cur)
    for fact, vector in zip(prepared.facts, fact_vectors, strict=True):
        resolutions = tag_sql.translate(cur, fact.topics, registry, at)
        registry = tag_sql.snapshot(cur) if any(r.via == "minted" for r in resolutions) else registry
        tags = list(dict.fromkeys(r.tag for r in resolutions if r.tag))
        meta = dict(fact.meta)
        unresolved = [r.topic for r in resolutions if r.tag is None]
        if unresolved:
            meta["unresolved_topics"] = unresolved
        outcome, interrupt = _write_one(cur, fact, vector, tags, meta, capture, document,
                                        settings, path_exists)
        outcomes.append(outcome)
        if interrupt:
            interrupts.append(interrupt)
        for r in resolutions:
            if r.candidate_root:
                root = tag_sql.note_candidate_root(cur, r.topic, outcome.fact.id, at)
                roots[root.proposed_tag] = root
    return RememberResult(document, tuple(outcomes), tuple(interrupts), tuple(roots.values()),
                          prepared.dropped, gated=prepared.gate.reason)


def _land_document(cur: Any, capture: Capture, routed: str, vector: np.ndarray,
                   prepared: PreparedCapture) -> DocumentRecord:
    digest = content_hash(capture.text)
    lineage = lineage_of(capture.source_type, capture.source_ref, digest)
    # Serialise versioning of one lineage across writers.
    cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 1))", ("doc:" + lineage,))
    cur.execute("SELECT id, version, routed FROM documents WHERE lineage = %s AND "
                "content_hash = %s", (lineage, digest))
    row = cur.fetchone()
    if row is not None:
        return DocumentRecord(row["id"], lineage, row["version"], digest, True, row["routed"])
    meta: dict[str, object] = {}
    if prepared.gate.is_index_page:
        meta["gate"] = {"links": prepared.gate.links, "link_share": prepared.gate.link_share}
    if prepared.dropped:
        meta["dropped_facts"] = len(prepared.dropped)
    cur.execute(
        "INSERT INTO documents (content, content_hash, source_type, source_ref, lineage, version, "
        "said_at, captured_by, captured_at, routed, embedding, meta) VALUES (%s, %s, %s, %s, %s, "
        "(SELECT COALESCE(max(version), 0) + 1 FROM documents WHERE lineage = %s), %s, %s, %s, "
        "%s, %s, %s) RETURNING id, version",
        (capture.text, digest, capture.source_type, capture.source_ref, lineage, lineage,
         capture.said_at, capture.captured_by, capture.captured_at, routed, vector, Jsonb(meta)))
    row = cur.fetchone()
    return DocumentRecord(row["id"], lineage, row["version"], digest, False, routed)


def _lock_kinds(cur: Any, kinds: set[Kind]) -> None:
    # Sorted, so two writers needing the same kinds always lock in the same order.
    for kind in sorted(kinds):
        cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                    ("density:" + kind.value,))


def _tune_knn(cur: Any, settings: Settings) -> None:
    cur.execute(sql.SQL("SET LOCAL hnsw.ef_search = {}").format(sql.Literal(settings.ef_search)))
    # Keep scanning past filtered rows (shared-tag restriction) instead of returning too few.
    cur.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")


def density_check(cur: Any, kind: Kind, vector: np.ndarray, tags: list[str],
                  settings: Settings) -> list[NearHit]:
    """Same-kind live facts at or above the threshold, nearest first, over the kind's index."""
    # Kind and verdicts are literals so the planner can match the partial HNSW index.
    live = sql.SQL(", ").join(sql.Literal(v.value) for v in LIVE_VERDICTS)
    retrievable = sql.SQL(", ").join(sql.Literal(v.value) for v in RETRIEVABLE_VERDICTS)
    tag_filter = sql.SQL("AND tags && %(tags)s") if settings.density_shared_tag and tags \
        else sql.SQL("")
    query = sql.SQL(
        "SELECT id, kind, statement, evidence_quote, verdict, t_captured, "
        "1 - (embedding <=> %(v)s) AS similarity FROM facts "
        "WHERE kind = {kind} AND verdict IN ({retrievable}) AND verdict IN ({live}) {tags} "
        "AND embedding IS NOT NULL "
        "ORDER BY embedding <=> %(v)s LIMIT %(k)s"
    ).format(kind=sql.Literal(kind.value), live=live, retrievable=retrievable, tags=tag_filter)
    cur.execute(query, {"v": vector, "tags": tags, "k": settings.density_k})
    hits = [NearHit(r["id"], Kind(r["kind"]), r["statement"], r["evidence_quote"], r["verdict"],
                    float(r["similarity"]), r["t_captured"]) for r in cur.fetchall()]
    hits = [h for h in hits if h.similarity >= settings.density_threshold]
    return sorted(hits, key=lambda h: -h.similarity)


def _write_one(cur: Any, fact: PreparedFact, vector: np.ndarray, tags: list[str],
               meta: dict[str, object], capture: Capture, document: DocumentRecord,
               settings: Settings, path_exists: Callable[[str], bool]
               ) -> tuple[FactOutcome, Interrupt | None]:
    at = capture.captured_at
    if fact.parked_reason is not None:
        new_id = _insert(cur, fact, vector, tags, {**meta, "polarity_guard": fact.parked_reason},
                         capture, document, Verdict.PARKED)
        transitions.record(cur, new_id, None, "parked", fact.parked_reason, at)
        return FactOutcome("parked", fetch_fact(cur, new_id), note=fact.parked_reason), None
    restated = _restatement(cur, fact)
    if restated is not None:
        return _recapture(cur, restated, fact, tags, document, at), None
    hits = density_check(cur, fact.kind, vector, tags, settings)
    if not hits:
        new_id = _insert(cur, fact, vector, tags, meta, capture, document, Verdict.ACTIVE)
        transitions.record(cur, new_id, None, "active", "written: no conflict candidate", at)
        return FactOutcome("written", fetch_fact(cur, new_id)), None
    top = hits[0]
    found = () if settings.difference_detector == "off" else differences(top.statement,
                                                                         fact.statement)
    if settings.difference_detector == "route" and not route_decision(found):
        if not found:
            # Nothing differs but the wording: a reworded restatement, so new testimony for
            # the existing fact rather than an interrupt.
            return _recapture(cur, top.id, fact, tags, document, at,
                              note=f"route: near-hit #{top.id} ({top.similarity:.3f}) with no "
                                   "detected difference"), None
        # What differs does not contradict (another subject, a detail on one side only).
        new_id = _insert(cur, fact, vector, tags, meta, capture, document, Verdict.ACTIVE)
        transitions.record(cur, new_id, None, "active",
                           f"route: near-hit #{top.id} differs only in {', '.join(found)}", at)
        return FactOutcome("written", fetch_fact(cur, new_id), related_fact_id=top.id,
                           similarity=top.similarity,
                           note=f"route: not a conflict ({'; '.join(found)})"), None
    decision = triage(Candidate(fact.kind, fact.statement, fact.quote),
                      Candidate(top.kind, top.statement, top.quote),
                      explicit_supersession=fact.supersedes, path_exists=path_exists)
    if decision.winner is None:  # RULE exception or lane 3: both contested, interrupt
        new_id = _insert(cur, fact, vector, tags, meta, capture, document, Verdict.CONTESTED)
        conflict_id = _open_conflict(cur, top.id, new_id, decision.lane, top.similarity, found,
                                     at)
        transitions.record(cur, new_id, None, "contested", f"{decision.lane}: {decision.reason}",
                           at, conflict_id)
        transitions.set_verdict(cur, top.id, Verdict.CONTESTED,
                                f"{decision.lane}: conflict with new fact #{new_id}", at,
                                conflict_id)
        interrupt = _interrupt(conflict_id, decision.lane, top, fact, new_id, found, at)
        return FactOutcome("contested", fetch_fact(cur, new_id), decision.lane, top.id,
                           conflict_id, top.similarity, decision.reason), interrupt
    resolution = "explicit-supersession" if decision.lane == "lane-1" else "ground-truth"
    if decision.winner == "new":
        new_id = _insert(cur, fact, vector, tags, meta, capture, document, Verdict.ACTIVE)
        transitions.record(cur, new_id, None, "active", f"{decision.lane}: {decision.reason}", at)
        conflict_id = _closed_conflict(cur, top.id, new_id, new_id, decision, resolution,
                                       top.similarity, at)
        transitions.supersede(cur, top.id, new_id, f"{decision.lane}: {decision.reason}", at,
                              conflict_id)
        outcome = "superseded-prior" if decision.lane == "lane-1" else "ground-truth-won"
    else:
        new_id = _insert(cur, fact, vector, tags, meta, capture, document, Verdict.SUPERSEDED,
                         superseded_by=top.id)
        conflict_id = _closed_conflict(cur, top.id, new_id, top.id, decision, resolution,
                                       top.similarity, at)
        transitions.record(cur, new_id, None, "superseded",
                           f"{decision.lane}: {decision.reason}", at, conflict_id)
        outcome = "ground-truth-lost"
    return FactOutcome(outcome, fetch_fact(cur, new_id), decision.lane, top.id, conflict_id,
                       top.similarity, decision.reason), None


def _restatement(cur: Any, fact: PreparedFact) -> int | None:
    live = [v.value for v in LIVE_VERDICTS]
    # Timeline facts are adjudicated by their own rules, never by restatement.
    cur.execute("SELECT id FROM facts WHERE kind = %s AND statement_norm = %s AND verdict = "
                "ANY(%s) AND attribute IS NULL ORDER BY id LIMIT 1",
                (fact.kind.value, fact.statement_norm, live))
    row = cur.fetchone()
    return row["id"] if row else None


def _recapture(cur: Any, fact_id: int, fact: PreparedFact, tags: list[str],
               document: DocumentRecord, at: datetime,
               note: str = "exact normalised restatement: evidence added, verified again"
               ) -> FactOutcome:
    """A pure re-capture: new testimony for the same fact, verified again, no conflict."""
    cur.execute("INSERT INTO evidence (fact_id, document_id, quote, stance, recorded_at) "
                "VALUES (%s, %s, %s, 'supports', %s) ON CONFLICT DO NOTHING",
                (fact_id, document.id, fact.quote, at))
    if cur.rowcount == 0:  # this very capture already testified: a re-run changes nothing
        return FactOutcome("unchanged", fetch_fact(cur, fact_id), related_fact_id=fact_id,
                           note="this capture already supports the fact")
    # Verified moves forward, never back (a backfilled older capture does not rewind it).
    cur.execute("UPDATE facts SET t_last_verified = GREATEST(t_last_verified, %s), "
                "tags = ARRAY(SELECT DISTINCT unnest(tags || %s::text[])) WHERE id = %s",
                (at, tags, fact_id))
    return FactOutcome("recaptured", fetch_fact(cur, fact_id), related_fact_id=fact_id,
                       note=note)


def _insert(cur: Any, fact: PreparedFact, vector: np.ndarray, tags: list[str],
            meta: dict[str, object], capture: Capture, document: DocumentRecord,
            verdict: Verdict, superseded_by: int | None = None) -> int:
    at = capture.captured_at
    columns = {
        "statement": fact.statement, "statement_norm": fact.statement_norm,
        "kind": fact.kind.value, "tags": tags, "verdict": verdict.value,
        "evidence_quote": fact.quote, "evidence_source_type": capture.source_type,
        "evidence_source_ref": capture.source_ref, "evidence_captured_by": capture.captured_by,
        "document_id": document.id, "t_said": capture.said_at, "t_captured": at,
        "t_last_verified": at, "embedding": vector, "meta": Jsonb(meta),
        "superseded_by": superseded_by,
        "t_superseded": at if superseded_by is not None else None,
        **fact.fields,
    }
    query = sql.SQL("INSERT INTO facts ({}) VALUES ({}) RETURNING id").format(
        sql.SQL(", ").join(map(sql.Identifier, columns)),
        sql.SQL(", ").join(sql.Placeholder(c) for c in columns))
    cur.execute(query, columns)
    new_id = cur.fetchone()["id"]
    cur.execute("INSERT INTO evidence (fact_id, document_id, quote, stance, recorded_at) "
                "VALUES (%s, %s, %s, 'supports', %s)", (new_id, document.id, fact.quote, at))
    return new_id


def _open_conflict(cur: Any, existing: int, new: int, lane: str, similarity: float,
                   found: tuple[str, ...], at: datetime) -> int:
    cur.execute("INSERT INTO conflicts (fact_a, fact_b, lane, similarity, differences, "
                "created_at) VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
                (existing, new, lane, similarity, list(found), at))
    return cur.fetchone()["id"]


def _closed_conflict(cur: Any, existing: int, new: int, winner: int, decision: Any,
                     resolution: str, similarity: float, at: datetime) -> int:
    """Auto-resolved lanes still leave an audit row, born resolved."""
    cur.execute(
        "INSERT INTO conflicts (fact_a, fact_b, status, winner, reasoning, lane, resolution, "
        "similarity, created_at, resolved_at) VALUES (%s, %s, 'resolved', %s, %s, %s, %s, %s, "
        "%s, %s) RETURNING id",
        (existing, new, winner, decision.reason, decision.lane, resolution, similarity, at, at))
    return cur.fetchone()["id"]


def _interrupt(conflict_id: int, lane: str, top: NearHit, fact: PreparedFact, new_id: int,
               found: tuple[str, ...], at: datetime) -> Interrupt:
    return Interrupt(
        conflict_id=conflict_id, lane=lane, similarity=top.similarity,
        new=Side(new_id, fact.statement, fact.kind, fact.quote, at),
        existing=Side(top.id, top.statement, top.kind, top.quote, top.t_captured),
        resolve_calls=tuple(f'resolve_conflict({conflict_id}, winner_id={w}, reasoning="<why>")'
                            for w in (top.id, new_id)),  # type: ignore[arg-type]
        both_stand_call=f'resolve_both_stand({conflict_id}, reasoning="<why both are true>")',
        differences=found,
    )
