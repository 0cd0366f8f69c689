"""import_facts, set-based: one call writes what one call per record writes, row for row;
a chunk that rebuilds its HNSW indexes leaves every one of them whole (even if it fails or
is killed half way); a refused import writes nothing; a re-run writes nothing new; and the
crossover rule (store/index_plan.py) is a pure function.

The tables are compared through ``Store.table_rows``: ids differ between two stores, so
each row's references are replaced by what they point at (a fact by its import key, a
document by its lineage and version), and the clock columns a run stamps itself are left out.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from factstore import Settings, Store
from factstore.backfill import FactRecord
from factstore.errors import InvalidInput
from factstore.kinds import Kind
from factstore.store import imports, index_plan, locks, server, templates
from tests.helpers import HashEmbedder

ROOT = Path(__file__).resolve().parents[1]
KINDS = tuple(kind.value for kind in Kind)
ALL_INDEXES = {f"facts_hnsw_{kind.lower()}" for kind in KINDS} | {"documents_embedding_hnsw"}
#: rebuild whatever the load and the table: the rebuild path on a tiny table
REBUILD = Settings(import_rebuild_fraction=0.0, import_rebuild_min_rows=1)
#: never rebuild: the incremental path, whatever the load
KEEP = Settings(import_rebuild_min_rows=10**9)


def export(n: int = 240, tag: str = "") -> list[FactRecord]:
    """Mixed kinds (each with the per-kind fields it owns), tags, verdicts and provenance;
    four records in a row share one quote and one source (one document), sources repeat
    (versions of one lineage), some records carry the exporter's key."""
    records = []
    for i in range(n):
        kind = KINDS[i % 7]
        owned: dict[str, Any] = {}
        if kind == "DECISION":
            owned = {"scope": f"team-{i % 3}", "status_detail": "locked" if i % 2 else None}
        elif kind == "RULE":
            owned = {"earned_by": f"incident {i}"}
        elif kind == "STATE":
            owned = {"subject": f"svc-{i % 5}", "expected_lifetime": timedelta(days=1 + i % 3)}
        elif kind == "RESIDUAL":
            owned = {"risk_weight": "low", "trigger_predicate": "if it pages twice"}
        group = i // 4
        records.append(FactRecord(
            statement=f"Service svc-{i % 11} fact {tag}{i} listens on port {8000 + i}.",
            kind=kind, quote=f"shared quote {tag}{group}" if i % 5 else f"own quote {tag}{i}",
            source_ref=None if i % 9 == 0 else f"wiki/page-{group % 6}",
            source_type="capture" if group % 5 else "file",
            captured_by="exporter" if i % 2 else None,
            said_at=datetime(2025, 1, 1 + i % 28, tzinfo=UTC) if i % 3 else None,
            captured_at=datetime(2025, 2, 1, tzinfo=UTC) + timedelta(minutes=i),
            tags=tuple(t for t in (f"svc.s{i % 4}" if i % 2 else "", "ops" if i % 3 else "")
                       if t),
            verdict=("active", "parked", "withdrawn")[i % 3],
            meta={"n": i, "from": "old-store"}, key=f"old:{tag}{i}" if i % 4 == 0 else None,
            **owned))
    return records


def vectors(records: list[FactRecord]) -> np.ndarray:
    return HashEmbedder().embed([r.statement for r in records])


@pytest.fixture()
def stores(admin_dsn: str, database: str) -> Iterator[Any]:
    """open(settings) -> a HashEmbedder store on a database of its own, all closed and
    dropped afterwards."""
    opened: list[Store] = []
    extra: list[str] = []

    def _open(settings: Settings | None = None) -> Store:
        # The test's own database is a copy of the local embedder's template; these stores
        # hold hash vectors, so each comes from the hash embedder's template instead.
        name = f"{database}_{len(opened)}"[:63]
        server.drop_database(admin_dsn, name)
        templates.fresh_database(admin_dsn, name, HashEmbedder())
        extra.append(name)
        store = Store.open(server.with_database(admin_dsn, name), embedder=HashEmbedder(),
                           settings=settings or Settings())
        opened.append(store)
        return store

    yield _open
    for store in opened:
        store.close()
    for name in extra:
        server.drop_database(admin_dsn, name)


def tables(store: Store) -> dict[str, list[Any]]:
    """The four tables an import writes, ids replaced by what they point at."""
    documents = store.table_rows("documents")
    facts = store.table_rows("facts")
    document_of = {d["id"]: (d["lineage"], d["version"]) for d in documents}
    fact_of = {f["id"]: f["import_key"] for f in facts}

    def without(row: dict[str, Any], *names: str) -> dict[str, Any]:
        return {k: v for k, v in row.items() if k not in names}

    return {
        "facts": [(without(f, "id", "document_id"), document_of[f["document_id"]])
                  for f in facts],
        "documents": [without(d, "id") for d in documents],
        # recorded_at and at are the import's own clock: each call stamps its own
        "evidence": [(fact_of[e["fact_id"]], document_of[e["document_id"]],
                      without(e, "id", "fact_id", "document_id", "recorded_at"))
                     for e in store.table_rows("evidence")],
        "fact_history": [(fact_of[h["fact_id"]], without(h, "id", "fact_id", "at"))
                         for h in store.table_rows("fact_history")],
    }


# -- the crossover rule, without a database -----------------------------------------------------

def test_the_rule_rebuilds_only_a_load_large_next_to_its_index() -> None:
    rule = index_plan.rebuild_indexes
    assert rule(5000, 0, fraction=0.5, min_rows=2000)          # an empty index: build it once
    assert rule(5000, 10_000, fraction=0.5, min_rows=2000)     # exactly at the fraction
    assert not rule(4999, 10_000, fraction=0.5, min_rows=2000)
    assert not rule(1999, 0, fraction=0.5, min_rows=2000)      # too small to lock the table
    # the minimum is the chunk's: a small index in a big chunk is rebuilt by its own ratio
    assert rule(300, 0, chunk_rows=2500, fraction=0.5, min_rows=2000)
    assert rule(300, 600, chunk_rows=2500, fraction=0.5, min_rows=2000)
    assert not rule(300, 601, chunk_rows=2500, fraction=0.5, min_rows=2000)
    assert not rule(300, 0, chunk_rows=1999, fraction=0.5, min_rows=2000)
    assert not rule(0, 0, fraction=0.0, min_rows=1)            # nothing lands in the index
    assert rule(1, 10**9, fraction=0.0, min_rows=1)            # fraction 0: always
    assert rule(index_plan.REBUILD_MIN_ROWS, 0)                # the defaults
    assert (index_plan.REBUILD_FRACTION, index_plan.REBUILD_MIN_ROWS) == (
        Settings().import_rebuild_fraction, Settings().import_rebuild_min_rows)


@pytest.mark.parametrize("fraction", [0.0, 0.3, 0.5, 1.0, 2.5])
def test_counting_up_to_the_cap_decides_as_the_full_count_would(fraction: float) -> None:
    options = {"fraction": fraction, "min_rows": 100}
    for load in (0, 1, 7, 100, 1999, 2000, 3333, 10_000):
        for chunk in (None, 50, 100, 20_000):
            cap = index_plan.count_cap(load, chunk_rows=chunk, **options)
            for table in (0, 1, 50, 99, 100, 101, 1000, 3999, 4000, 4001, 10**6):
                full = index_plan.rebuild_indexes(load, table, chunk_rows=chunk, **options)
                if cap == 0:
                    assert not full
                elif cap is None:
                    assert full
                else:  # a count stopped at the cap reads min(table, cap) rows
                    assert index_plan.rebuild_indexes(load, min(table, cap), chunk_rows=chunk,
                                                      **options) == full


def test_settings_refuse_a_rule_that_makes_no_sense() -> None:
    for bad in ({"import_rebuild_fraction": -0.1}, {"import_rebuild_fraction": float("nan")},
                {"import_rebuild_fraction": float("inf")}, {"import_rebuild_min_rows": 0}):
        with pytest.raises(InvalidInput):
            Settings(**bad)


# -- equivalence ---------------------------------------------------------------------------------

def test_one_call_leaves_the_tables_one_record_per_call_leaves(stores) -> None:
    records = export()
    records.insert(120, records[7])  # a record exported twice: one fact
    vecs = vectors(records)
    one_by_one, whole, rebuilt = stores(KEEP), stores(), stores(REBUILD)
    ids = [one_by_one.import_facts([r], embeddings=vecs[i:i + 1])[0]
           for i, r in enumerate(records)]
    assert ids[120] == ids[7]
    whole_ids = whole.import_facts(records, embeddings=vecs)
    assert whole.last_import.chunks == 1 and whole.last_import.rebuilt == {}
    rebuilt.import_facts(records, embeddings=vecs)
    assert rebuilt.last_import.rebuilt == {name: 1 for name in ALL_INDEXES}
    expected = tables(one_by_one)
    counts = one_by_one.row_counts()
    assert counts["facts"] == counts["evidence"] == counts["fact_history"] == 240
    assert 1 < counts["documents"] < 240, "no records shared a document"
    assert max(d["version"] for d in one_by_one.table_rows("documents")) > 1
    for store in (whole, rebuilt):
        assert tables(store) == expected
        assert store.row_counts() == counts
        assert store.hnsw_indexes() == {name: True for name in ALL_INDEXES}
    # the ids keep the records' order, and the duplicate is the first one's fact
    assert whole_ids[120] == whole_ids[7]
    assert whole_ids[:120] + whole_ids[121:] == sorted(whole_ids[:120] + whole_ids[121:])


def test_chunks_of_any_size_leave_the_same_tables(stores) -> None:
    records = export(150)
    vecs = vectors(records)
    expected = None
    for chunk in (1000, 37, 1):
        store = stores()
        store.import_facts(records, embeddings=vecs, chunk_size=chunk)
        assert store.last_import.chunks == -(-150 // chunk)
        expected = expected or tables(store)
        assert tables(store) == expected


# -- the rebuild path ----------------------------------------------------------------------------

def test_a_rebuild_touches_only_the_loads_kinds_and_leaves_every_index_findable(stores) -> None:
    store = stores(REBUILD)
    first = [r for r in export(140) if r.kind in ("RULE", "REFERENCE")]
    store.import_facts(first, embeddings=vectors(first))
    assert set(store.last_import.rebuilt) == {"facts_hnsw_rule", "facts_hnsw_reference",
                                              "documents_embedding_hnsw"}
    # active ones: the density check reads the live verdicts (parked are recall-only)
    more = [r for r in export(140, tag="b") if r.kind == "STATE" and r.verdict == "active"]
    ids = store.import_facts(more, embeddings=vectors(more))
    assert set(store.last_import.rebuilt) == {"facts_hnsw_state", "documents_embedding_hnsw"}
    assert store.hnsw_indexes() == {name: True for name in ALL_INDEXES}
    for fact_id, vector in zip(ids, vectors(more), strict=True):
        # the rebuilt partial index holds the new rows (HashEmbedder: the statement's own
        # vector is its nearest neighbour at cosine 1) ...
        found = store.density_probe("STATE", vector, k=1)
        assert found.ids == (fact_id,) and found.similarities[0] == pytest.approx(1.0, abs=1e-5)
    # ... and recall, through all seven indexes, serves them
    assert any(item.fact and item.fact.id == ids[0]
               for item in store.recall(more[0].statement).items)


def test_small_chunks_keep_their_indexes(stores) -> None:
    store = stores(Settings(import_rebuild_fraction=0.0, import_rebuild_min_rows=101))
    records = export(300)
    store.import_facts(records, embeddings=vectors(records), chunk_size=100)
    # a chunk of 100 adds at most 100 rows to any index: under the minimum, all kept
    assert store.last_import.rebuilt == {} and store.last_import.chunks == 3
    big = export(1200, tag="c")  # about 114 indexed rows per kind, and more documents
    store.import_facts(big, embeddings=vectors(big), chunk_size=1200)
    assert set(store.last_import.rebuilt) == {"documents_embedding_hnsw"} | {
        f"facts_hnsw_{k.lower()}" for k in KINDS}
    assert store.hnsw_indexes() == {name: True for name in ALL_INDEXES}


def test_a_chunk_that_fails_after_dropping_its_indexes_writes_nothing_and_keeps_them(
        stores, monkeypatch) -> None:
    store = stores(REBUILD)
    seen: list[str] = []

    def fail(cur: Any, definitions: dict[str, str]) -> None:
        # the indexes are gone and the rows are in, inside the chunk's transaction
        seen.extend(definitions)
        raise RuntimeError("the server went away mid-build")

    monkeypatch.setattr(imports, "_build", fail)
    records = export(100)
    with pytest.raises(RuntimeError, match="mid-build"):
        store.import_facts(records, embeddings=vectors(records))
    assert set(seen) == ALL_INDEXES
    assert all(n == 0 for n in store.row_counts().values())
    assert store.hnsw_indexes() == {name: True for name in ALL_INDEXES}
    monkeypatch.undo()
    store.import_facts(records, embeddings=vectors(records))
    assert store.row_counts()["facts"] == 100


def test_a_busy_table_keeps_its_indexes_instead_of_waiting(stores) -> None:
    """An open reader of facts holds a lock DROP INDEX must wait for: the chunk waits half a
    second (imports.LOCK_WAIT), then writes through the indexes it has, rebuilding none."""
    store = stores(REBUILD)
    reading, release = threading.Event(), threading.Event()

    def read() -> None:
        with store._tx() as cur:
            cur.execute("SELECT count(*) AS n FROM facts")  # AccessShare until the end
            reading.set()
            release.wait(30)

    reader = threading.Thread(target=read)
    reader.start()
    assert reading.wait(10)
    try:
        records = export(100)
        started = time.monotonic()
        ids = store.import_facts(records, embeddings=vectors(records))
        assert time.monotonic() - started < 20
    finally:
        release.set()
        reader.join(10)
    assert store.last_import.rebuilt == {} and store.last_import.busy_chunks == 1
    assert len(set(ids)) == 100 and store.row_counts()["facts"] == 100
    assert store.hnsw_indexes() == {name: True for name in ALL_INDEXES}
    found = store.density_probe(records[0].kind, vectors(records)[0], k=1)
    assert found.ids == (ids[0],)


# -- refusals and re-runs -------------------------------------------------------------------------

def test_a_bad_record_in_the_middle_writes_nothing(stores) -> None:
    store = stores(REBUILD)
    records = export(200)
    vecs = vectors(records)
    bad = records[:130] + [FactRecord("A statement.", "NOT-A-KIND", "a quote")] + records[130:]
    with pytest.raises(InvalidInput, match=r"records\[130\]\.kind"):
        store.import_facts(bad, embeddings=vectors(bad), chunk_size=50)
    poisoned = vecs.copy()
    poisoned[150, 3] = np.nan
    with pytest.raises(InvalidInput, match="finite"):
        store.import_facts(records, embeddings=poisoned, chunk_size=50)
    assert all(n == 0 for n in store.row_counts().values())
    assert store.hnsw_indexes() == {name: True for name in ALL_INDEXES}


def test_a_rerun_writes_nothing_new(stores) -> None:
    store = stores(REBUILD)
    records = export(200)
    first = store.import_facts(records, embeddings=vectors(records), chunk_size=64)
    counts, before = store.row_counts(), tables(store)
    again = store.import_facts(records, embeddings=vectors(records), chunk_size=1000)
    assert again == first and store.row_counts() == counts and tables(store) == before
    assert store.last_import.written == 0 and store.last_import.rebuilt == {}
    # a superset lands only what is new
    grown = records + export(20, tag="new")
    ids = store.import_facts(grown, embeddings=vectors(grown))
    assert ids[:200] == first and store.last_import.written == 20
    assert store.row_counts()["facts"] == 220


# -- big chunks: locks ---------------------------------------------------------------------------

def test_a_chunk_of_thousands_of_keys_fits_the_lock_table(stores) -> None:
    """8,000 records with their own lineages in one chunk: 16,000 advisory locks one by one
    overflow Postgres's lock table (about 6,400 slots by default: "out of shared memory",
    measured); the import takes each class's own lock instead (locks.ESCALATE_AT)."""
    store = stores()
    records = [FactRecord(f"Host h{i} runs build agent {i}.", "REFERENCE", f"h{i} runs agent",
                          source_ref=f"inventory/{i}") for i in range(8000)]
    ids = store.import_facts(records, embeddings=vectors(records), chunk_size=8000)
    assert len(set(ids)) == 8000 and store.row_counts()["documents"] == 8000


def test_an_escalated_import_waits_for_a_writer_of_one_lineage(stores) -> None:
    store = stores(KEEP)
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        with store._tx() as cur:
            locks.lock_lineages(cur, ["capture:one-source"])  # a capture landing a document
            taken.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    assert taken.wait(10)
    records = [FactRecord(f"Note {i}.", "EVENT", f"note {i}", source_ref=f"s/{i}")
               for i in range(locks.ESCALATE_AT + 10)]
    out: list[Any] = []
    importer = threading.Thread(
        target=lambda: out.append(store.import_facts(records, embeddings=vectors(records),
                                                     chunk_size=len(records))))
    importer.start()
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not _advisory_waiters(store):
            time.sleep(0.02)
        assert _advisory_waiters(store), "the import did not queue behind the capture"
        assert store.row_counts()["facts"] == 0
    finally:
        release.set()
        holder.join(10)
    importer.join(60)
    assert len(out[0]) == len(records)


def _advisory_waiters(store: Store) -> int:
    with store._tx() as cur:
        cur.execute("SELECT count(*) AS n FROM pg_locks l JOIN pg_database d ON "
                    "d.oid = l.database WHERE d.datname = current_database() AND "
                    "l.locktype = 'advisory' AND NOT l.granted")
        return cur.fetchone()["n"]


# -- a crash between the drop and the build ------------------------------------------------------

CHUNK = 200
WRITER = f"""
import sys, time
from factstore import Settings, Store
from factstore.store import imports
from tests.test_import_bulk import export, vectors
real, calls = imports._build, []
def build(cur, definitions):
    calls.append(1)
    if len(calls) == 3:  # the third chunk: its indexes dropped, its rows in, not yet built
        print("dropped", flush=True)
        time.sleep(120)
    real(cur, definitions)
imports._build = build
records = export(1000)
store = Store.open(sys.argv[1], embedder=__import__("tests.helpers").helpers.HashEmbedder(),
                   settings=Settings(import_rebuild_fraction=0.0, import_rebuild_min_rows=1))
store.import_facts(records, embeddings=vectors(records), chunk_size={CHUNK})
print("done", flush=True)
"""


def test_an_import_killed_after_dropping_its_indexes_leaves_them_and_resumes(stores) -> None:
    store = stores(REBUILD)
    clean = stores(REBUILD)
    records = export(1000)
    clean.import_facts(records, embeddings=vectors(records), chunk_size=CHUNK)
    dsn = store._dsn
    writer = subprocess.Popen([sys.executable, "-c", WRITER, dsn], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        line = writer.stdout.readline()
        assert line == "dropped\n", writer.stderr.read()
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
    finally:
        if writer.poll() is None:
            writer.kill()
    assert writer.returncode == -signal.SIGKILL
    # the server rolls the dying chunk back: its rows and its DROP INDEX alike
    deadline = time.monotonic() + 30
    while store.hnsw_indexes() != {n: True for n in ALL_INDEXES} and time.monotonic() < deadline:
        time.sleep(0.1)
    assert store.hnsw_indexes() == {name: True for name in ALL_INDEXES}
    partial = store.row_counts()
    assert partial["facts"] == partial["evidence"] == partial["fact_history"] == 2 * CHUNK
    store.import_facts(records, embeddings=vectors(records), chunk_size=CHUNK)
    assert tables(store) == tables(clean)
