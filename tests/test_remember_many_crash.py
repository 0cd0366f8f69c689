"""remember_many killed with SIGKILL part way, then run again, ends with exactly the tables an
uninterrupted run leaves: each capture's transaction is whole or absent, and a re-run of what
landed is 'unchanged' (no duplicate document, no fact without its evidence and history)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from factstore import Store
from factstore.extractors.rules import RuleExtractor
from factstore.store import server
from tests.helpers import HashEmbedder

ROOT = Path(__file__).resolve().parents[1]
CAPTURES = 400

WRITER = """
import sys
from factstore import Store
from factstore.extractors.rules import RuleExtractor
from tests.helpers import HashEmbedder
from tests.test_remember_many_crash import captures
store = Store.open(sys.argv[1], embedder=HashEmbedder(), extractor=RuleExtractor())
print("open", flush=True)
store.remember_many(captures(), batch_size=16)
print("done", flush=True)
"""


def captures() -> list[dict]:
    """An archive: chat lines about a few services, each with its own time."""
    states = ("green", "red", "degraded")
    return [{"text": f"svc-{i % 13} is {states[i % 3]} right now. The svc-{i % 7} runner "
                     f"token lives at /etc/svc-{i % 7}/runner-{i}.env.",
             "source_ref": f"chat:{i // 10}",
             "captured_at": f"2026-03-{1 + i // 24 % 28:02d}T{i % 24:02d}:00:00Z"}
            for i in range(CAPTURES)]


def _tables(store: Store) -> tuple:
    facts = sorted((f.statement, f.verdict.value, f.document_id is not None)
                   for f in store.facts_by_verdict(limit=100_000))
    conflicts = sorted((c.fact_a.statement, c.fact_b.statement, c.status, c.lane)
                       for c in store.conflicts())
    return store.row_counts(), facts, conflicts


def test_remember_many_killed_part_way_resumes_to_the_uninterrupted_tables(admin_dsn):
    names = ("t_many_clean", "t_many_crash")
    for name in names:
        server.drop_database(admin_dsn, name)
        server.ensure_database(admin_dsn, name)
    open_store = lambda name: Store.open(server.with_database(admin_dsn, name),  # noqa: E731
                                         embedder=HashEmbedder(), extractor=RuleExtractor())
    try:
        with open_store(names[0]) as clean:
            clean.remember_many(captures(), batch_size=16)
            expected = _tables(clean)
        crash_dsn = server.with_database(admin_dsn, names[1])
        open_store(names[1]).close()
        with open_store(names[1]) as store:
            writer = subprocess.Popen([sys.executable, "-c", WRITER, crash_dsn], cwd=ROOT,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                      env={**os.environ, "PYTHONPATH": str(ROOT)})
            assert writer.stdout.readline() == "open\n", writer.stderr.read()
            deadline = time.monotonic() + 120
            while store.row_counts()["documents"] < 60 and time.monotonic() < deadline:
                time.sleep(0.02)
            writer.send_signal(signal.SIGKILL)
            writer.wait(timeout=30)
            assert writer.returncode == -signal.SIGKILL
            partial = store.row_counts()
            assert 0 < partial["documents"] < CAPTURES, "the run was not cut part way"
            assert partial["evidence"] >= partial["facts"] <= partial["fact_history"]
            store.remember_many(captures(), batch_size=16)
            assert _tables(store) == expected
    finally:
        for name in names:
            server.drop_database(admin_dsn, name)
