"""Lost lock races: reported as StoreBusy (not "lost the database"), retried a bounded time.

The deadlocks and serialization failures here are real ones, raised by the test server: two
transactions taking two advisory locks in opposite orders, and a server-side RAISE with the
serialization_failure SQLSTATE.
"""

from __future__ import annotations

import pickle
import threading

import pytest

from factstore import Store
from factstore.errors import DatabaseUnavailable, StoreBusy
from factstore.store import retry
from factstore.store.timeline_tools import TimelineTools

WRITES = ("remember", "resolve_conflict", "resolve_both_stand", "registry_add_leaf",
          "registry_propose_root", "update_open_question", "add_open_question",
          "registry_approve_root", "registry_reject_root", "registry_add_alias",
          "registry_set_lifetime", "import_facts", "write_facts", "backfill_facts", "end_fact",
          "retract")


def _opposite_orders(store: Store, attempts: list[str], *, retried: bool) -> list[object]:
    """Two transactions lock advisory 1 and 2 in opposite orders, meeting at a barrier in
    between; Postgres aborts one. Returns each side's result or error."""
    barrier = threading.Barrier(2)

    def side(name: str, first: int, second: int) -> str:
        attempts.append(name)
        with store._tx() as cur:
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (first,))
            if attempts.count(name) == 1:  # only the first attempt walks into the deadlock
                barrier.wait(10)
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (second,))
        return name

    if retried:
        side = retry.retry_transient(side)
    out: list[object] = [None, None]

    def run(i: int, *args: object) -> None:
        try:
            out[i] = side(*args)
        except Exception as exc:  # noqa: BLE001 - handed to the test
            out[i] = exc

    threads = [threading.Thread(target=run, args=(0, "a", 1, 2)),
               threading.Thread(target=run, args=(1, "b", 2, 1))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return out


def test_a_deadlock_is_reported_as_store_busy_not_a_lost_database(store):
    out = _opposite_orders(store, [], retried=False)
    (error,) = [o for o in out if isinstance(o, Exception)]
    assert isinstance(error, StoreBusy) and isinstance(error, DatabaseUnavailable)
    assert error.sqlstate == "40P01"
    assert "deadlock" in str(error) and "retry" in str(error)
    assert "lost the database" not in str(error)
    assert store.describe().documents == 0  # and the store is perfectly usable


def test_the_loser_of_a_deadlock_is_run_again_and_succeeds(store):
    attempts: list[str] = []
    out = _opposite_orders(store, attempts, retried=True)
    assert sorted(out) == ["a", "b"]
    assert len(attempts) == 3  # both sides once, the aborted one twice


def test_a_race_lost_every_time_stops_after_the_bounded_attempts(store, monkeypatch):
    monkeypatch.setattr(retry, "BASE_DELAY", 0.001)
    calls = []

    @retry.retry_transient
    def always_loses() -> None:
        calls.append(1)
        with store._tx() as cur:
            cur.execute("DO $$ BEGIN RAISE EXCEPTION 'could not serialize access' "
                        "USING ERRCODE = 'serialization_failure'; END $$")

    with pytest.raises(StoreBusy, match="after 5 attempts") as caught:
        always_loses()
    assert len(calls) == retry.ATTEMPTS == 5
    assert (caught.value.sqlstate, caught.value.attempts) == ("40001", 5)
    assert "serialization failure" in str(caught.value)
    again = pickle.loads(pickle.dumps(caught.value))  # crosses process boundaries intact
    assert (type(again), str(again), again.attempts) == (StoreBusy, str(caught.value), 5)


#: Writes whose transaction runs in a retried helper, so the work before it (remember's
#: extraction, perhaps a model call, and its embedding) runs once.
RETRIED_INSIDE = {"remember": "_write_capture", "import_facts": "_import_chunk",
                  "backfill_facts": "_backfill_chunk"}


def test_every_public_write_is_retried():
    for name in WRITES:
        name = RETRIED_INSIDE.get(name, name)
        method = getattr(Store, name, None) or getattr(TimelineTools, name)
        assert hasattr(method, "__wrapped__"), f"Store.{name} is not @retry_transient"
