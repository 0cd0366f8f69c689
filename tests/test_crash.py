"""A process killed with SIGKILL in the middle of a backfill leaves whole chunks only: every
call that committed is complete, the one in flight left nothing, and re-running the archive
finishes it with no duplicate. A real kill -9 of a real writer, against the real server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from factstore import Store
from factstore.store import server
from tests.helpers import HashEmbedder

ROOT = Path(__file__).resolve().parents[1]
CHUNK = 50
CHUNKS = 400

WRITER = f"""
import sys
from factstore import Store
from tests.helpers import HashEmbedder
from tests.test_crash import chunk
store = Store.open(sys.argv[1], embedder=HashEmbedder())
for i in range({CHUNKS}):
    store.backfill_facts(chunk(i))
    print(i, flush=True)
"""


def chunk(i: int) -> list[dict]:
    """The archive's chunk i: CHUNK facts on keys of their own."""
    return [{"subject": f"person/c{i}-{j}", "attribute": "weight_kg", "value": str(60 + j),
             "valid_from": "2024", "observed_at": "2025-01-01T00:00:00Z",
             "source": f"archive:{i}:{j}", "quote": f"weighs {60 + j} kg"}
            for j in range(CHUNK)]


@pytest.mark.empty_database
def test_a_killed_backfill_leaves_only_whole_chunks(admin_dsn: str, database: str) -> None:
    dsn = server.with_database(admin_dsn, database)
    Store.open(dsn, embedder=HashEmbedder()).close()  # migrate before the writer races
    writer = subprocess.Popen([sys.executable, "-c", WRITER, dsn], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    committed = -1
    deadline = time.monotonic() + 120
    while committed < 3 and time.monotonic() < deadline:
        line = writer.stdout.readline()
        assert line, writer.stderr.read()
        committed = int(line)
    time.sleep(0.05)  # into the next call's transaction
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL

    with Store.open(dsn, embedder=HashEmbedder()) as store:
        counts = store.row_counts()
        # each backfill call is one document and CHUNK facts, committed together or not at all
        assert counts["facts"] == CHUNK * counts["documents"]
        assert counts["documents"] >= committed + 1
        landed = counts["documents"]
        assert landed < CHUNKS, "the writer finished before it was killed"
        # the recovery re-runs the archive from the start: what landed is corroborated, the
        # rest is written; nothing twice
        for i in range(landed + 3):
            store.backfill_facts(chunk(i))
        after = store.row_counts()
        assert after["facts"] == CHUNK * (landed + 3)
        key = store.facts("person/c0-0", "weight_kg").keys[0]
        assert len(key.history) == 1 and key.current[0].value == "60"
