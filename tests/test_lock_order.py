"""The lock order (store/locks.py): advisory locks first, row locks after, in every path.

Each test holds one advisory lock in a transaction of its own, starts the call that needs it
in a thread, waits until that call is queued behind the lock, and then checks the call holds
no row lock yet: a call that row-locked first would deadlock against a writer that holds the
advisory lock and updates the row (which is how ``retract`` and timeline ``resolve_conflict``
used to deadlock against ``write_facts``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np

from factstore import Store
from factstore.backfill import FactRecord
from factstore.store import locks
from tests.helpers import say

KEY = ("local/shared-main", "project/alpha", "headcount")


def _write(store: Store, value: str, observed: str) -> int:
    body = {"subject": KEY[1], "attribute": KEY[2], "value": value, "valid_from": "2025",
            "observed_at": observed}
    return store.write_facts({"format": 1, "shared": True, "facts": [body]}).facts[0].id


@contextmanager
def _held(store: Store, take: Callable[[Any], None]) -> Iterator[None]:
    """Hold an advisory lock (``take(cur)``) in another transaction until the block ends."""
    taken, release = threading.Event(), threading.Event()

    def hold() -> None:
        with store._tx() as cur:
            take(cur)
            taken.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    assert taken.wait(10)
    try:
        yield
    finally:
        release.set()
        holder.join(10)


def _in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(call())
        except Exception as exc:  # noqa: BLE001 - handed to the test
            out.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def _wait_for_advisory_waiter(store: Store) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        with store._tx() as cur:
            cur.execute("SELECT count(*) AS n FROM pg_locks l JOIN pg_database d ON "
                        "d.oid = l.database WHERE d.datname = current_database() AND "
                        "l.locktype = 'advisory' AND NOT l.granted")
            if cur.fetchone()["n"]:
                return
        time.sleep(0.02)
    raise AssertionError("the call never queued behind the advisory lock")


def _row_free(store: Store, table: str, row_id: int) -> bool:
    """Whether no other transaction holds a lock on the row (SKIP LOCKED skips it if one
    does)."""
    with store._tx() as cur:
        cur.execute(f"SELECT id FROM {table} WHERE id = %s FOR UPDATE SKIP LOCKED", (row_id,))
        return cur.fetchone() is not None


def test_retract_takes_the_key_lock_before_the_fact_row(store):
    fact_id = _write(store, "5", "2025-03-01T00:00:00Z")
    with _held(store, lambda cur: locks.lock_timeline_keys(cur, [KEY])):
        thread, out = _in_thread(lambda: store.retract(fact_id, reason="typo"))
        _wait_for_advisory_waiter(store)
        assert _row_free(store, "facts", fact_id)
    thread.join(10)
    assert out[0].status == "retracted"


def test_a_timeline_resolve_takes_the_key_lock_before_the_conflict_and_fact_rows(store):
    first = _write(store, "5", "2025-03-01T00:00:00Z")
    second = _write(store, "6", "2025-04-01T00:00:00Z")  # equal starts: a dispute
    (conflict,) = store.open_conflicts()
    with _held(store, lambda cur: locks.lock_timeline_keys(cur, [KEY])):
        thread, out = _in_thread(lambda: store.resolve_conflict(conflict.id, first, "receipt"))
        _wait_for_advisory_waiter(store)
        assert _row_free(store, "conflicts", conflict.id)
        assert _row_free(store, "facts", first) and _row_free(store, "facts", second)
    thread.join(10)
    assert out[0].winner == first and store.fact(second).verdict == "withdrawn"


def test_plain_retract_and_resolve_take_the_kind_lock_before_rows(store):
    say(store, "The release is scheduled for Monday.", "DECISION")
    say(store, "The release is scheduled for Friday.", "DECISION")
    (conflict,) = store.open_conflicts()
    loser = conflict.fact_b.id
    with _held(store, lambda cur: locks.lock_kinds(cur, ["DECISION"])):
        thread, out = _in_thread(lambda: store.resolve_conflict(conflict.id, conflict.fact_a.id,
                                                                "the plan says Monday"))
        _wait_for_advisory_waiter(store)
        assert _row_free(store, "conflicts", conflict.id) and _row_free(store, "facts", loser)
    thread.join(10)
    assert out[0].winner == conflict.fact_a.id
    with _held(store, lambda cur: locks.lock_kinds(cur, ["DECISION"])):
        thread, out = _in_thread(lambda: store.retract(conflict.fact_a.id, reason="moved"))
        _wait_for_advisory_waiter(store)
        assert _row_free(store, "facts", conflict.fact_a.id)
    thread.join(10)
    assert store.fact(conflict.fact_a.id).verdict == "withdrawn"


def _records(tag: str, n: int = 2) -> list[FactRecord]:
    return [FactRecord(statement=f"Imported note {tag}-{i}", kind="REFERENCE",
                       quote=f"imported note {tag}-{i}", source_ref="shared-export")
            for i in range(n)]


def test_import_waits_for_its_lineage_lock(store):
    dim = store.embedder.dim
    with _held(store, lambda cur: locks.lock_lineages(cur, ["capture:shared-export"])):
        thread, out = _in_thread(lambda: store.import_facts(
            _records("held"), embeddings=np.ones((2, dim), dtype=np.float32)))
        _wait_for_advisory_waiter(store)
        thread.join(0.3)
        assert thread.is_alive()  # queued behind the lineage, not numbering a version
    thread.join(10)
    assert len(out[0]) == 2


def test_concurrent_imports_of_one_source_number_its_versions_once_each(open_store):
    store = open_store(pool_size=8)
    dim = store.embedder.dim
    barrier = threading.Barrier(8)

    def one(i: int) -> list[int]:
        barrier.wait(10)
        return store.import_facts(_records(f"t{i}", 3),
                                  embeddings=np.ones((3, dim), dtype=np.float32))

    threads = [_in_thread(lambda i=i: one(i)) for i in range(8)]
    for thread, _ in threads:
        thread.join(30)
    results = [out[0] for _, out in threads]
    assert [r for r in results if isinstance(r, Exception)] == []
    with store._tx() as cur:
        cur.execute("SELECT version FROM documents WHERE lineage = 'capture:shared-export' "
                    "ORDER BY version")
        assert [r["version"] for r in cur.fetchall()] == list(range(1, 25))
