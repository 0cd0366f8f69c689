"""Timeline keys read into :class:`~factstore.timelines.batch.KeyBatch` and written back
set-based: one statement per table for many keys, every row written once.

``load`` reads many keys in three queries (their facts, their corroborations, their open
disputes); ``write`` writes what the batches decided: new facts, observations and disputes
with the ids drawn while deciding, the stored rows that changed, and every history row.
Rows are written in the order of the foreign keys (facts, evidence, conflicts, history).
"""

from __future__ import annotations

import uuid
from collections import deque
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

from factstore.store.copy_rows import copy_rows, reserve_ids
from factstore.store.sealed import open_row
from factstore.store.timeline_rows import statement_of, timeline_fact
from factstore.timelines.batch import ConflictRow, EvidenceRow, FactRow, KeyBatch
from factstore.timelines.dates import start_of
from factstore.timelines.model import STATUS_TO_VERDICT

Key = tuple[str, str, str]
_BLOCK = 256  # ids reserved per round trip; the unused rest of a block is a gap, as always

_FACT_COLUMNS = (
    "id, subject, attribute, value, unit, cardinality, valid_from, valid_to, observed_at, "
    "last_confirmed_at, t_captured, evidence_source_ref, evidence_quote, confidence, verdict, "
    "effective_valid_to, superseded_by, supersedes, timeline_scope, t_superseded, "
    "t_last_verified, access_scope, sealed_version"
)


class IdPool:
    """Ids drawn from each table's identity sequence, a block at a time, in order."""

    def __init__(self, cur: Any) -> None:
        self._cur = cur
        self._free: dict[str, deque[int]] = {}

    def __call__(self, table: str) -> int:
        free = self._free.setdefault(table, deque())
        if not free:
            free.extend(reserve_ids(self._cur, table, _BLOCK))
        return free.popleft()


def load(cur: Any, keys: Sequence[Key], cardinality_of: dict[str, str], at: datetime,
         ids: IdPool, document_id: int | None = None) -> dict[Key, KeyBatch]:
    """Each key's batch: its facts, its corroborations (and, given ``document_id``, every
    observation from that document, for re-run checks) and its open disputes."""
    facts: dict[Key, list[FactRow]] = {key: [] for key in keys}
    scope_of: dict[int, Key] = {}
    if keys:
        # LATERAL: one probe of the key index per key, whatever the planner thinks of the
        # table (a hash join would scan every timeline row of a fresh, unanalysed store).
        cur.execute(
            f"SELECT f.* FROM unnest(%s::text[], %s::text[], %s::text[]) AS k(k_scope, "
            f"k_subject, k_attribute) CROSS JOIN LATERAL (SELECT {_FACT_COLUMNS} FROM facts "
            "WHERE timeline_scope = k_scope AND subject = k_subject AND attribute = "
            "k_attribute) f ORDER BY f.id",
            ([k[0] for k in keys], [k[1] for k in keys], [k[2] for k in keys]))
        for row in cur.fetchall():
            key = (row["timeline_scope"], row["subject"], row["attribute"])
            facts[key].append(FactRow(timeline_fact(row), row["t_superseded"],
                                      row["t_last_verified"]))
            scope_of[row["id"]] = key
    evidence: dict[Key, list[EvidenceRow]] = {key: [] for key in keys}
    conflicts: dict[Key, list[ConflictRow]] = {key: [] for key in keys}
    if scope_of:
        fact_ids = list(scope_of)
        cur.execute("SELECT id, fact_id, role, document_id, value, unit, valid_from, valid_to, "
                    "observed_at, source, quote, confidence, access_scope, sealed_version "
                    "FROM evidence WHERE fact_id = ANY(%s) "
                    "AND (role = 'corroboration' OR document_id = %s) ORDER BY id",
                    (fact_ids, document_id))
        for r in [open_row("evidence", row) for row in cur.fetchall()]:
            evidence[scope_of[r["fact_id"]]].append(EvidenceRow(
                r["id"], r["fact_id"], r["role"], r["document_id"], r["value"], r["unit"],
                r["valid_from"], r["valid_to"], r["observed_at"], r["source"], r["quote"],
                r["confidence"]))
        cur.execute("SELECT id, fact_a, fact_b, differences FROM conflicts WHERE lane = "
                    "'timeline' AND status = 'open' AND fact_a = ANY(%s) ORDER BY id",
                    (fact_ids,))
        for r in cur.fetchall():
            conflicts[scope_of[r["fact_a"]]].append(ConflictRow(
                r["id"], r["fact_a"], r["fact_b"], (r["differences"] or [""])[0]))
    return {key: KeyBatch.load(key, cardinality_of[key[2]], at, ids, facts[key],
                               evidence[key], conflicts[key]) for key in keys}


def write(cur: Any, batches: Sequence[KeyBatch], at: datetime,
          entities: dict[str, str] | None = None) -> None:
    """Write what the batches decided, one statement per table and kind of change.
    ``entities`` maps each timeline subject to its registry entity (subject_entity)."""
    new_facts = [row for b in batches for row in b.new_facts()]
    _insert_facts(cur, new_facts, at, entities or {})
    _update_facts(cur, [row for b in batches for row in b.changed_facts()])
    _insert_evidence(cur, [ev for b in batches for ev in b.new_evidence()])
    moved = [ev for b in batches for ev in b.moved_evidence()]
    if moved:
        cur.execute("UPDATE evidence e SET fact_id = u.fact_id, role = u.role FROM "
                    "unnest(%s::bigint[], %s::bigint[], %s::text[]) AS u(id, fact_id, role) "
                    "WHERE e.id = u.id", ([e.id for e in moved], [e.fact_id for e in moved],
                                          [e.role for e in moved]))
    _insert_conflicts(cur, [c for b in batches for c in b.new_conflicts()], at)
    closed = [c for b in batches for c in b.closed_conflicts()]
    if closed:
        cur.execute("UPDATE conflicts c SET status = 'resolved', resolution = 'timeline', "
                    "reasoning = u.reasoning, resolved_at = %s FROM unnest(%s::bigint[], "
                    "%s::text[]) AS u(id, reasoning) WHERE c.id = u.id",
                    (at, [c.id for c in closed], [c.reasoning for c in closed]))
    copy_rows(cur, "fact_history", _HISTORY, (
        (h.fact_id, h.from_verdict, h.to_verdict, h.reason, h.conflict_id, at)
        for b in batches for h in b.history))


_NEW_FACT = (
    ("id", "int8"), ("statement", "text"), ("statement_norm", "text"), ("kind", "text"),
    ("verdict", "text"), ("evidence_quote", "text"), ("evidence_source_type", "text"),
    ("evidence_source_ref", "text"), ("document_id", "int8"), ("t_captured", "timestamptz"),
    ("t_last_verified", "timestamptz"), ("subject", "text"), ("timeline_scope", "text"),
    ("attribute", "text"), ("value", "text"), ("unit", "text"), ("cardinality", "text"),
    ("valid_from", "text"), ("valid_from_at", "timestamptz"), ("valid_to", "text"),
    ("valid_to_at", "timestamptz"), ("observed_at", "timestamptz"),
    ("last_confirmed_at", "timestamptz"), ("confidence", "float8"), ("meta", "jsonb"),
    ("effective_valid_to", "text"), ("effective_valid_to_at", "timestamptz"),
    ("superseded_by", "int8"), ("supersedes", "int8"), ("t_superseded", "timestamptz"),
    ("subject_entity", "uuid"),
)
_NEW_EVIDENCE = (
    ("id", "int8"), ("fact_id", "int8"), ("document_id", "int8"), ("quote", "text"),
    ("stance", "text"), ("recorded_at", "timestamptz"), ("observed_at", "timestamptz"),
    ("role", "text"), ("value", "text"), ("unit", "text"), ("valid_from", "text"),
    ("valid_from_at", "timestamptz"), ("valid_to", "text"), ("source", "text"),
    ("confidence", "float8"),
)
_HISTORY = (("fact_id", "int8"), ("from_verdict", "text"), ("to_verdict", "text"),
            ("reason", "text"), ("conflict_id", "int8"), ("at", "timestamptz"))


def _insert_facts(cur: Any, rows: list[FactRow], at: datetime,
                  entities: dict[str, str]) -> None:
    def values(row: FactRow) -> tuple[Any, ...]:
        f, written = row.fact, row.written
        assert written is not None  # a new row knows what it was written from
        meta: dict[str, object] = {"format": 1}
        if row.redactions:
            meta["redactions"] = list(row.redactions)
        statement = statement_of(written)
        return (f.id, statement, statement.lower(), "STATE", STATUS_TO_VERDICT[f.status],
                f.quote, "capture", f.source, row.document_id, at, row.t_last_verified,
                f.subject, f.scope, f.attribute, f.value, f.unit, f.cardinality,
                f.valid_from, start_of(f.valid_from), f.valid_to, start_of(f.valid_to),
                f.observed_at, f.last_confirmed_at, f.confidence, Jsonb(meta),
                f.effective_valid_to, start_of(f.effective_valid_to), f.superseded_by,
                f.supersedes, row.t_superseded, _uuid(entities.get(f.subject)))

    copy_rows(cur, "facts", _NEW_FACT, (values(row) for row in rows))


def _uuid(value: str | None) -> uuid.UUID | None:
    return None if value is None else uuid.UUID(value)


def _update_facts(cur: Any, rows: list[FactRow]) -> None:
    if not rows:
        return
    f = [row.fact for row in rows]
    cur.execute(
        "UPDATE facts t SET verdict = u.verdict, effective_valid_to = u.evt, "
        "effective_valid_to_at = u.evt_at, superseded_by = u.by, supersedes = u.sup, "
        "t_superseded = u.t_sup, last_confirmed_at = u.confirmed, t_last_verified = u.verified "
        "FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::timestamptz[], %s::bigint[], "
        "%s::bigint[], %s::timestamptz[], %s::timestamptz[], %s::timestamptz[]) AS "
        "u(id, verdict, evt, evt_at, by, sup, t_sup, confirmed, verified) WHERE t.id = u.id",
        ([x.id for x in f], [STATUS_TO_VERDICT[x.status] for x in f],
         [x.effective_valid_to for x in f], [start_of(x.effective_valid_to) for x in f],
         [x.superseded_by for x in f], [x.supersedes for x in f],
         [row.t_superseded for row in rows], [x.last_confirmed_at for x in f],
         [row.t_last_verified for row in rows]))


def _insert_evidence(cur: Any, rows: list[EvidenceRow]) -> None:
    copy_rows(cur, "evidence", _NEW_EVIDENCE, (
        (e.id, e.fact_id, e.document_id, e.quote, "supports", e.recorded_at, e.observed_at,
         e.role, e.value, e.unit, e.valid_from, start_of(e.valid_from), e.valid_to, e.source,
         e.confidence) for e in rows))


def _insert_conflicts(cur: Any, rows: list[ConflictRow], at: datetime) -> None:
    if not rows:
        return
    closed = [c.closed_now for c in rows]
    cur.execute(
        "INSERT INTO conflicts (id, fact_a, fact_b, lane, differences, created_at, status, "
        "resolution, reasoning, resolved_at) OVERRIDING SYSTEM VALUE SELECT u.id, u.a, u.b, "
        "'timeline', ARRAY[u.rule], %s, CASE WHEN u.closed THEN 'resolved' ELSE 'open' END, "
        "CASE WHEN u.closed THEN 'timeline' END, u.reasoning, CASE WHEN u.closed THEN %s::"
        "timestamptz END FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[], %s::text[], "
        "%s::bool[], %s::text[]) AS u(id, a, b, rule, closed, reasoning)",
        (at, at, [c.id for c in rows], [c.fact_a for c in rows], [c.fact_b for c in rows],
         [c.rule for c in rows], closed, [c.reasoning for c in rows]))
