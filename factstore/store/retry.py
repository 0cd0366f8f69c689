"""Retrying a Store call whose transaction lost a lock race to another writer.

Postgres aborts one transaction of a deadlock (40P01) and, under stricter isolation, a
transaction that cannot be serialised (40001). Both are transient: the transaction rolled
back whole, so running the call again is safe. ``Store._tx`` turns them into
:class:`~factstore.errors.StoreBusy`; :func:`retry_transient` on a public write method runs
the whole method again, a bounded number of times with a small jittered backoff, and lets the
last ``StoreBusy`` out, saying how often it tried. The lock order (store/locks.py) keeps the
store's own writers from deadlocking; this is the safety net for anything outside it.

The whole method runs again, including the work before its transaction (validation,
extraction, embedding): that work is pure over the arguments, so a retry only costs time.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import psycopg

from factstore.errors import StoreBusy

#: How many times a call runs before its StoreBusy is let out.
ATTEMPTS = 5
#: Backoff before retry n is uniform in [0, min(MAX_DELAY, BASE_DELAY * 2**n)) seconds.
BASE_DELAY = 0.025
MAX_DELAY = 0.4
#: The errors that mean "lost a race, try again", not "the database is gone".
TRANSIENT = (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure)

P = ParamSpec("P")
R = TypeVar("R")


def busy(exc: psycopg.Error) -> StoreBusy:
    """The StoreBusy for one lost race (a deadlock or serialization failure)."""
    what = ("a deadlock with another writer" if isinstance(exc, psycopg.errors.DeadlockDetected)
            else "a serialization failure against another writer")
    return StoreBusy(f"the store is busy: this call's transaction was aborted by {what} "
                     f"(SQLSTATE {exc.sqlstate}); nothing was written, retry it later",
                     sqlstate=exc.sqlstate)


def retry_transient(method: Callable[P, R]) -> Callable[P, R]:
    """Run ``method`` again (up to ATTEMPTS in all) while it raises StoreBusy."""

    @functools.wraps(method)
    def retrying(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                return method(*args, **kwargs)
            except StoreBusy as exc:
                if attempt == ATTEMPTS:
                    raise StoreBusy(f"{exc} (still colliding after {ATTEMPTS} attempts)",
                                    sqlstate=exc.sqlstate, attempts=ATTEMPTS) from exc
                # Jitter, so the writers that collided do not collide again in step.
                time.sleep(random.uniform(0, min(MAX_DELAY, BASE_DELAY * 2 ** attempt)))
        raise AssertionError("unreachable")  # the loop returns or raises

    return retrying
