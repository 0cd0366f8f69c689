"""import_facts lands each record once, by its import key: a re-run writes nothing, a batch
that repeats a record stores it once, and an import killed with SIGKILL part way then run
again ends with exactly the tables an uninterrupted import leaves."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from factstore import Store
from factstore.backfill import FactRecord, record_key
from factstore.store import server
from tests.helpers import HashEmbedder

ROOT = Path(__file__).resolve().parents[1]
RECORDS = 3000
CHUNK = 100


def export(n: int = RECORDS) -> list[FactRecord]:
    """Another store's export: n records over a few sources, some with the exporter's ids."""
    return [FactRecord(statement=f"Service s{i} listens on port {8000 + i}.", kind="REFERENCE",
                       quote=f"s{i} listens on {8000 + i}", source_ref=f"wiki/page-{i % 7}",
                       said_at=datetime(2025, 1, 1 + i % 28, tzinfo=UTC),
                       key=f"old-store:{i}" if i % 3 == 0 else None)
            for i in range(n)]


def _vectors(records: list[FactRecord]) -> np.ndarray:
    return HashEmbedder().embed([r.statement for r in records])


def _tables(store: Store) -> tuple[object, ...]:
    counts = store.row_counts()
    facts = sorted((f.statement, f.verdict.value if hasattr(f.verdict, "value") else f.verdict)
                   for f in store.facts_by_verdict(limit=100_000))
    return counts, facts


def test_the_key_is_stable_and_tells_records_apart() -> None:
    a, b = export(2)
    assert record_key(a) == record_key(FactRecord(**{**a.__dict__}))
    assert record_key(a) == "key:old-store:0" and record_key(b).startswith("sha256:")
    assert record_key(b) != record_key(FactRecord(**{**b.__dict__, "quote": "other"}))


@pytest.mark.empty_database
def test_a_rerun_and_a_repeated_record_write_nothing_new(admin_dsn, database) -> None:
    records = export(300)
    with Store.open(server.with_database(admin_dsn, database), embedder=HashEmbedder()) as store:
        first = store.import_facts(records, embeddings=_vectors(records), chunk_size=70)
        counts = store.row_counts()
        again = store.import_facts(records, embeddings=_vectors(records))
        assert again == first and store.row_counts() == counts
        doubled = records[:10] + records[:10]
        ids = store.import_facts(doubled, embeddings=_vectors(doubled))
        assert ids == first[:10] + first[:10] and store.row_counts() == counts


WRITER = f"""
import sys
from factstore import Store
from tests.helpers import HashEmbedder
from tests.test_import_resume import export, _vectors
records = export()
store = Store.open(sys.argv[1], embedder=HashEmbedder())
print("open", flush=True)
store.import_facts(records, embeddings=_vectors(records), chunk_size={CHUNK})
print("done", flush=True)
"""


def test_an_import_killed_part_way_resumes_to_the_uninterrupted_tables(admin_dsn) -> None:
    records = export()
    clean_db, crash_db = "t_import_clean", "t_import_crash"
    for name in (clean_db, crash_db):
        server.drop_database(admin_dsn, name)
        server.ensure_database(admin_dsn, name)
    try:
        with Store.open(server.with_database(admin_dsn, clean_db),
                        embedder=HashEmbedder()) as clean:
            clean.import_facts(records, embeddings=_vectors(records), chunk_size=CHUNK)
            expected = _tables(clean)
        crash_dsn = server.with_database(admin_dsn, crash_db)
        Store.open(crash_dsn, embedder=HashEmbedder()).close()
        with Store.open(crash_dsn, embedder=HashEmbedder()) as store:
            writer = subprocess.Popen([sys.executable, "-c", WRITER, crash_dsn], cwd=ROOT,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                      env={**os.environ, "PYTHONPATH": str(ROOT)})
            assert writer.stdout.readline() == "open\n", writer.stderr.read()
            deadline = time.monotonic() + 120
            while store.row_counts()["facts"] < 5 * CHUNK and time.monotonic() < deadline:
                time.sleep(0.02)
            writer.send_signal(signal.SIGKILL)
            writer.wait(timeout=30)
            assert writer.returncode == -signal.SIGKILL
            partial = store.row_counts()
            assert partial["facts"] % CHUNK == 0, "a chunk landed in part"
            assert 0 < partial["facts"] < RECORDS, "the import was not cut part way"
            assert partial["facts"] == partial["evidence"] == partial["fact_history"]
            store.import_facts(records, embeddings=_vectors(records), chunk_size=CHUNK)
            assert _tables(store) == expected
    finally:
        for name in (clean_db, crash_db):
            server.drop_database(admin_dsn, name)
