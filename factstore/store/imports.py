"""Bulk import of already-adjudicated facts, set-based: each record once (by its import key)
however often the import runs, one document per distinct testimony, one evidence row and one
history row per fact.

A chunk costs a fixed number of round trips whatever its size: the locks (a statement or
two per lock class, store/locks.py), the already-landed lookup, id reservation, and one
binary COPY per table. Fact
and document ids are reserved from their identity sequences first and written explicitly,
so evidence and history rows can name their fact without a round trip per row.

When the chunk is large next to a per-kind HNSW index it lands in (``index_plan``), that
index is dropped before the COPY and built again after it, in the same transaction: DDL is
transactional, so a chunk that fails or a process that dies part way leaves the index as it
was. The drop holds ACCESS EXCLUSIVE on the table until the chunk commits, which only a big
load is worth (docs/performance.md, "Bulk import (set-based)"); a chunk that cannot have
that lock within half a second keeps its indexes instead (``_drop``).
"""

from __future__ import annotations

import struct
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
from psycopg import errors, sql

from factstore.backfill import FactRecord, record_key, record_kind
from factstore.kinds import Kind
from factstore.settings import Settings
from factstore.statements import normalise_statement
from factstore.store import index_plan, locks
from factstore.store.copy_rows import copy_rows, reserve_ids
from factstore.store.remember import content_hash, lineage_of
from factstore.writepath.prepare import fact_subject

#: the verdicts each per-kind partial HNSW index holds (001_core.sql)
INDEXED_VERDICTS = ("active", "contested", "parked")
#: raised for the index builds only (SET LOCAL: this transaction), so a rebuilt graph fits
#: in memory instead of spilling to the slower on-disk build
BUILD_MEMORY = "1GB"
DOCUMENT_INDEX = "documents_embedding_hnsw"
#: how long a rebuilding chunk waits for its tables' ACCESS EXCLUSIVE lock before it keeps
#: its indexes instead; under deadlock_timeout (1 s by default), so a lock cycle with another
#: writer ends with this chunk giving way, not with a deadlock error for either
LOCK_WAIT = "500ms"
HISTORY_REASON = "imported: adjudicated by the source store"

_FACT_COLUMNS = (
    ("id", "int8"), ("statement", "text"), ("statement_norm", "text"), ("kind", "text"),
    ("tags", "text[]"), ("verdict", "text"), ("evidence_quote", "text"),
    ("evidence_source_type", "text"), ("evidence_source_ref", "text"),
    ("evidence_captured_by", "text"), ("document_id", "int8"), ("t_said", "timestamptz"),
    ("t_captured", "timestamptz"), ("t_last_verified", "timestamptz"), ("scope", "text"),
    ("status_detail", "text"), ("trigger_predicate", "text"), ("risk_weight", "text"),
    ("earned_by", "text"), ("subject", "text"), ("expected_lifetime", "interval"),
    ("embedding", "bytea"), ("meta", "jsonb"), ("subject_key", "text"),
    ("subject_source", "text"), ("import_key", "text"),
)
_DOCUMENT_COLUMNS = (
    ("id", "int8"), ("content", "text"), ("content_hash", "text"), ("source_type", "text"),
    ("source_ref", "text"), ("lineage", "text"), ("version", "int4"), ("said_at", "timestamptz"),
    ("captured_by", "text"), ("captured_at", "timestamptz"), ("routed", "text"),
    ("embedding", "bytea"), ("meta", "jsonb"),
)
_EVIDENCE_COLUMNS = (("fact_id", "int8"), ("document_id", "int8"), ("quote", "text"),
                     ("stance", "text"), ("recorded_at", "timestamptz"))
_HISTORY_COLUMNS = (("fact_id", "int8"), ("to_verdict", "text"), ("reason", "text"),
                    ("at", "timestamptz"))


@dataclass(frozen=True, slots=True)
class Prepared:
    """What the rows of one record need that takes Python time to work out: its import key,
    its testimony (lineage and quote digest), its subject key. Worked out once per record,
    before any transaction (:func:`prepare`), so a chunk's transaction spends its time on
    the database and a retried chunk does not work it out again."""

    record: FactRecord
    key: str
    lineage: str
    digest: str
    kind: Kind
    statement_norm: str
    subject_key: str | None
    subject_source: str

    @property
    def testimony(self) -> tuple[str, str]:
        return self.lineage, self.digest

    @property
    def indexed(self) -> bool:
        """Whether the fact lands in its kind's partial HNSW index."""
        return self.record.verdict in INDEXED_VERDICTS


def prepare(records: list[FactRecord]) -> list[Prepared]:
    """Each (validated, redacted) record with its derived columns."""
    out = []
    for record in records:
        digest = content_hash(record.quote.strip())
        subject_key, subject_source = fact_subject(record.subject, record.statement)
        out.append(Prepared(record, record_key(record),
                            lineage_of(record.source_type, record.source_ref, digest), digest,
                            record_kind(record), normalise_statement(record.statement),
                            subject_key, subject_source))
    return out


@dataclass
class ChunkReport:
    """What one chunk did: its ids in record order, and where its time went."""

    ids: list[int]
    #: facts newly written (the rest had landed already, by their import keys)
    written: int = 0
    #: documents newly written (the rest were reused: same lineage, same quote)
    documents: int = 0
    #: the HNSW indexes dropped before the COPY and built again after it
    rebuilt: tuple[str, ...] = ()
    #: the indexes the rule chose to rebuild but kept: their tables were busy (``_drop``)
    busy: tuple[str, ...] = ()
    #: the chunk's transaction apart from the index builds (locks, lookups, drops, the
    #: COPYs with their rows' encoding, the commit), seconds
    load_seconds: float = 0.0
    #: the index builds, seconds
    build_seconds: float = 0.0


@dataclass
class ImportReport:
    """One ``Store.import_facts`` call, summed over its chunks (``Store.last_import``)."""

    records: int = 0
    written: int = 0
    documents: int = 0
    chunks: int = 0
    #: every index some chunk rebuilt, and how many chunks rebuilt it
    rebuilt: dict[str, int] = field(default_factory=dict)
    #: chunks that kept indexes the rule would have rebuilt, because their tables were busy
    busy_chunks: int = 0
    #: validation, redaction, embedding (when no vectors were supplied) and :func:`prepare`,
    #: before the first chunk, seconds
    prepare_seconds: float = 0.0
    load_seconds: float = 0.0
    build_seconds: float = 0.0
    #: the whole call, seconds
    seconds: float = 0.0

    def add(self, chunk: ChunkReport) -> None:
        self.records += len(chunk.ids)
        self.written += chunk.written
        self.documents += chunk.documents
        self.chunks += 1
        for name in chunk.rebuilt:
            self.rebuilt[name] = self.rebuilt.get(name, 0) + 1
        self.busy_chunks += bool(chunk.busy)
        self.load_seconds += chunk.load_seconds
        self.build_seconds += chunk.build_seconds


def import_facts(cur: Any, rows: list[Prepared], vectors: np.ndarray, doc_vectors: np.ndarray,
                 at: datetime, settings: Settings) -> ChunkReport:
    """Insert prepared records (validated by the caller); report each one's fact id in order.

    A record whose import key (:func:`record_key`) already landed, in an earlier run or
    earlier in this batch, is not inserted again: its id is the fact it already is. So a
    re-run of an export, or one resumed after a crash, writes only what is missing.
    """
    started = time.perf_counter()
    keys = [row.key for row in rows]
    locks.lock_lineages(cur, [row.lineage for row in rows])  # the lock order: lineages,
    locks.lock_import_keys(cur, keys)                         # then import keys
    cur.execute("SELECT import_key, id FROM facts WHERE import_key = ANY(%s)",
                (sorted(set(keys)),))
    landed: dict[str, int] = {r["import_key"]: r["id"] for r in cur.fetchall()}
    fresh, seen = [], set(landed)
    for i, key in enumerate(keys):  # the first occurrence of each key new to the store
        if key not in seen:
            seen.add(key)
            fresh.append(i)
    report = ChunkReport([])
    if fresh:
        chosen = [rows[i] for i in fresh]
        planned = _plan_rebuilds(cur, chosen, settings)
        definitions = _drop(cur, planned)
        if definitions is None:  # the tables were busy: insert into the indexes instead
            report.busy = tuple(planned)
            definitions = {}
        new_ids, report.documents = _insert(cur, chosen, vectors[fresh], doc_vectors[fresh],
                                            at)
        landed.update(zip((keys[i] for i in fresh), new_ids, strict=True))
        report.written = len(new_ids)
        built = time.perf_counter()
        _build(cur, definitions)
        report.rebuilt = tuple(definitions)
        report.build_seconds = time.perf_counter() - built
    # Store._import_chunk sets it again around the whole transaction, the commit included
    report.load_seconds = time.perf_counter() - started - report.build_seconds
    report.ids = [landed[key] for key in keys]
    return report


# -- the rows ---------------------------------------------------------------------------------

def _insert(cur: Any, rows: list[Prepared], vectors: np.ndarray, doc_vectors: np.ndarray,
            at: datetime) -> tuple[list[int], int]:
    """COPY the fresh records' facts, then their evidence and history rows; returns the new
    fact ids in record order and how many documents were new."""
    doc_ids, new_documents = _documents(cur, rows, doc_vectors, at)
    ids = reserve_ids(cur, "facts", len(rows))
    facts = []
    for fid, row, vector, doc_id in zip(ids, rows, _vector_fields(vectors), doc_ids,
                                        strict=True):
        record = row.record
        captured = record.captured_at or at
        facts.append((
            fid, record.statement.strip(), row.statement_norm, row.kind.value,
            list(record.tags), record.verdict, record.quote.strip(), record.source_type,
            record.source_ref, record.captured_by, doc_id, record.said_at, captured, captured,
            record.scope, record.status_detail, record.trigger_predicate, record.risk_weight,
            record.earned_by, record.subject, record.expected_lifetime, vector,
            {**record.meta, "imported": True}, row.subject_key, row.subject_source, row.key,
        ))
    copy_rows(cur, "facts", _FACT_COLUMNS, facts)
    copy_rows(cur, "evidence", _EVIDENCE_COLUMNS,
          [(fid, did, row.record.quote.strip(), "supports", at)
           for fid, did, row in zip(ids, doc_ids, rows, strict=True)])
    copy_rows(cur, "fact_history", _HISTORY_COLUMNS,
          [(fid, row.record.verdict, HISTORY_REASON, at) for fid, row in zip(ids, rows,
                                                                              strict=True)])
    return ids, new_documents


def _documents(cur: Any, rows: list[Prepared], vectors: np.ndarray,
               at: datetime) -> tuple[list[int], int]:
    """One document per distinct (lineage, quote): the imported testimony, reused when that
    lineage already holds that quote (what ``ON CONFLICT (lineage, content_hash)`` did).

    The lineages' locks are held already (taken first, in the lock order), so no other writer
    numbers a version of these lineages until this transaction ends: the max version read
    here stays the max, and new versions follow it in the order the records first name them.
    Returns each record's document id, and how many documents were new.
    """
    testimonies = [row.testimony for row in rows]
    distinct = list(dict.fromkeys(testimonies))  # first occurrence order
    cur.execute(
        "SELECT d.lineage, d.content_hash, d.id FROM documents d JOIN unnest(%s::text[], "
        "%s::text[]) AS t(lineage, content_hash) USING (lineage, content_hash)",
        ([lineage for lineage, _ in distinct], [digest for _, digest in distinct]))
    known = {(r["lineage"], r["content_hash"]): r["id"] for r in cur.fetchall()}
    first_rows: dict[tuple[str, str], int] = {}
    for i, key in enumerate(testimonies):
        if key not in known:
            first_rows.setdefault(key, i)
    if first_rows:
        cur.execute("SELECT lineage, max(version) AS v FROM documents WHERE lineage = ANY(%s) "
                    "GROUP BY lineage", (sorted({lineage for lineage, _ in first_rows}),))
        versions = {r["lineage"]: r["v"] for r in cur.fetchall()}
        ids = reserve_ids(cur, "documents", len(first_rows))
        fields = _vector_fields(vectors[list(first_rows.values())])
        documents = []
        for doc_id, field_bytes, (key, i) in zip(ids, fields, first_rows.items(), strict=True):
            lineage, digest = key
            record = rows[i].record
            versions[lineage] = version = (versions.get(lineage) or 0) + 1
            documents.append((doc_id, record.quote.strip(), digest, record.source_type,
                              record.source_ref, lineage, version, record.said_at,
                              record.captured_by, record.captured_at or at, "facts",
                              field_bytes, {"imported": True}))
            known[key] = doc_id
        copy_rows(cur, "documents", _DOCUMENT_COLUMNS, documents)
    return [known[key] for key in testimonies], len(first_rows)


def _vector_fields(vectors: np.ndarray) -> list[bytes]:
    """Each row of vectors in pgvector's binary wire form (uint16 dim, uint16 unused, then
    big-endian float32s), converted in one numpy pass. COPY sends a field's bytes as they
    are and the server reads them with the column's own type (vector_recv), so they go out
    as bytea: pgvector's own dumper builds a Vector object per row, a third of the COPY's
    client time."""
    matrix = np.ascontiguousarray(vectors, dtype=">f4")
    header = struct.pack(">HH", matrix.shape[1], 0)
    return [header + row.tobytes() for row in matrix]


# -- the HNSW crossover -----------------------------------------------------------------------

def kind_index(kind: Kind) -> str:
    """The per-kind partial HNSW index's name (001_core.sql)."""
    return f"facts_hnsw_{kind.value.lower()}"


def _plan_rebuilds(cur: Any, rows: list[Prepared], settings: Settings) -> list[str]:
    """The HNSW indexes this load should rebuild: per kind in the load (its rows entering
    that kind's partial index against the rows it holds), and the documents' index; none
    for a chunk under ``import_rebuild_min_rows`` records.

    Each index is counted only up to the cap past which the answer is no, so deciding costs
    at most a few thousand index entries however big the table is."""
    options = {"chunk_rows": len(rows), "fraction": settings.import_rebuild_fraction,
               "min_rows": settings.import_rebuild_min_rows}
    loads: dict[Kind, int] = {}
    for row in rows:
        if row.indexed:
            loads[row.kind] = loads.get(row.kind, 0) + 1
    chosen = []
    for kind in sorted(loads, key=lambda k: k.value):
        cap = index_plan.count_cap(loads[kind], **options)
        if cap == 0:
            continue
        held = 0 if cap is None else _count(
            cur, "SELECT 1 FROM facts WHERE kind = %s AND verdict = ANY(%s) AND embedding "
            "IS NOT NULL LIMIT %s", (kind.value, list(INDEXED_VERDICTS), cap))
        if index_plan.rebuild_indexes(loads[kind], held, **options):
            chosen.append(kind_index(kind))
    new_documents = len({row.testimony for row in rows})  # at most: some may exist already
    cap = index_plan.count_cap(new_documents, **options)
    if cap != 0:
        held = 0 if cap is None else _count(cur, "SELECT 1 FROM documents LIMIT %s", (cap,))
        if index_plan.rebuild_indexes(new_documents, held, **options):
            chosen.append(DOCUMENT_INDEX)
    return chosen


def _count(cur: Any, query: str, params: tuple[Any, ...]) -> int:
    cur.execute(f"SELECT count(*) AS n FROM ({query}) AS capped", params)
    return int(cur.fetchone()["n"])


def _drop(cur: Any, names: list[str]) -> dict[str, str] | None:
    """Drop the named indexes that exist; returns each one's definition, to build it again
    exactly as it was (its predicate, operator class and parameters, whatever a later
    migration made them). None when their tables are busy: nothing is dropped.

    The drops need ACCESS EXCLUSIVE on their tables, which this transaction asks for only
    now, holding its advisory locks. A writer that read facts and then waits for a lineage
    this import holds (a timeline write landing its request document) would deadlock with
    it, and any open reader makes it wait; so it waits at most LOCK_WAIT, inside a
    savepoint, and when the lock does not come the chunk keeps its indexes instead (slower,
    never wrong, and no one else waits on it).
    """
    if not names:
        return {}
    cur.execute("SELECT c.relname AS name, pg_get_indexdef(c.oid) AS definition "
                "FROM pg_class c WHERE c.relkind = 'i' AND c.relname = ANY(%s) "
                "AND c.relnamespace = current_schema()::regnamespace", (names,))
    definitions = {r["name"]: r["definition"] for r in cur.fetchall()}
    if not definitions:
        return {}
    tables = sorted({"documents" if name == DOCUMENT_INDEX else "facts" for name in definitions})
    cur.execute("SELECT current_setting('lock_timeout') AS wait")
    usual = cur.fetchone()["wait"]
    try:
        with cur.connection.transaction():  # a savepoint: a lock not granted undoes only it
            cur.execute("SELECT set_config('lock_timeout', %s, true)", (LOCK_WAIT,))
            cur.execute(sql.SQL("LOCK TABLE {} IN ACCESS EXCLUSIVE MODE").format(
                sql.SQL(", ").join(sql.Identifier(t) for t in tables)))
    except (errors.LockNotAvailable, errors.DeadlockDetected):
        return None
    finally:
        cur.execute("SELECT set_config('lock_timeout', %s, true)", (usual,))
    for name in sorted(definitions):
        cur.execute(sql.SQL("DROP INDEX {}").format(sql.Identifier(name)))
    return definitions


def _build(cur: Any, definitions: dict[str, str]) -> None:
    """Build the dropped indexes again over every row, the load's included."""
    if not definitions:
        return
    cur.execute(sql.SQL("SET LOCAL maintenance_work_mem = {}").format(
        sql.Literal(BUILD_MEMORY)))
    for name in sorted(definitions):
        cur.execute(definitions[name])
