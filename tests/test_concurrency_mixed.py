"""Mixed concurrent writers: no deadlocks, no lost versions, invariants hold afterwards.

Eight processes share one fresh database and mix ``write_facts``, ``retract``,
``resolve_conflict``, ``import_facts`` and ``remember`` on a few shared timeline keys, two
shared plain subjects and one shared source lineage. Every call must either succeed or be
refused with the typed answer a sequential caller could also get (a conflict another worker
closed first is a ``ConflictStateError``); nothing may die of a deadlock, a serialization
failure or a duplicate document version, and Postgres must have detected no deadlock at all
(the lock order keeps writers apart; the retry is only a safety net). Afterwards:

- a one-valued timeline key has at most one current fact unless it is disputed, and its stored
  statuses are what resolving its recorded facts afresh gives;
- a plain STATE subject has at most one active reading unless one is contested;
- a fact is contested exactly when an open conflict holds it, and a head-to-head loser is
  superseded or withdrawn;
- every fact's history, in recorded order, is one unbroken chain ending at its verdict.

Before the lock order was fixed (store/locks.py), ``retract`` and timeline
``resolve_conflict`` locked the fact row before the key's advisory lock, which
``write_facts`` takes first, and ``import_facts`` took no lineage lock: 34 of 200 calls
failed, 15 of them deadlocks reported as "lost the database" and 19 violations of
``documents_lineage_version_key``.

The workers do not load the MiniLM model (about 10 s each on a small machine): the parent
embeds every plain statement they can write with the real model and hands them the table,
so the density check sees real similarities; capture texts, request documents and imports,
whose vectors decide nothing here, get a deterministic random vector.

A larger run: ``FACTSTORE_MIXED_PROCS`` (processes, default 8), ``FACTSTORE_MIXED_CALLS``
(calls per process, default 25) and ``FACTSTORE_MIXED_SEED`` (default 0).
"""

from __future__ import annotations

import hashlib
import multiprocessing as mp
import os
import random
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from factstore import Store
from factstore.backfill import FactRecord
from factstore.errors import AlreadyRetracted, ConflictStateError
from factstore.store import server
from tests.helpers import ScriptedExtractor, fact

PROCS = int(os.environ.get("FACTSTORE_MIXED_PROCS", "8"))
CALLS = int(os.environ.get("FACTSTORE_MIXED_CALLS", "25"))
SEED = int(os.environ.get("FACTSTORE_MIXED_SEED", "0"))
DIM = 384
LINEAGE = "shared-notes"  # remember and import_facts both version this source
#: plain subjects: DECISION readings contradict (conflicts), STATE readings revise each other
PLAIN = {
    "release": ("DECISION", "The release is scheduled for {}",
                ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")),
    "limit": ("STATE", "The api rate limit is {} requests per second",
              ("100", "150", "200", "250", "300", "350")),
}
KEYS = (("project/alpha", "headcount"), ("project/alpha", "office"),
        ("project/beta", "headcount"))
VALUES = {"headcount": ("4", "5", "6", "7"), "office": ("Berlin", "Lisbon", "Oslo")}
STARTS = ("2024", "2025", "2026")
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _random_vector(text: str) -> np.ndarray:
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    vector = np.random.default_rng(seed).standard_normal(DIM)
    return (vector / np.linalg.norm(vector)).astype(np.float32)


class TableEmbedder:
    """The real model's vectors for the statements in the table; a fixed random one else."""

    name = "test/minilm-table"
    dim = DIM

    def __init__(self, table: dict[str, list[float]]) -> None:
        self.table = {text: np.asarray(v, dtype=np.float32) for text, v in table.items()}

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        return np.array([self.table[t] if t in self.table else _random_vector(t) for t in texts])


def _statements() -> list[str]:
    return [template.format(v) for _, template, values in PLAIN.values() for v in values]


def _write(store: Store, rng: random.Random, tag: str) -> str:
    subject, attribute = rng.choice(KEYS)
    body = {"subject": subject, "attribute": attribute,
            "value": rng.choice(VALUES[attribute]), "valid_from": rng.choice(STARTS),
            # distinct observations, so equal starts with different values dispute
            "observed_at": (T0 + timedelta(minutes=rng.randrange(100_000))).isoformat(),
            "source": f"note:{tag}"}
    store.write_facts({"format": 1, "shared": True, "facts": [body]})
    return "written"


def _remember(store: Store, rng: random.Random, tag: str) -> str:
    kind, template, values = PLAIN[rng.choice(sorted(PLAIN))]
    statement = template.format(rng.choice(values))
    text = f"Note {tag}: {statement}."
    store.extractor.add(text, fact(statement, kind, quote=statement))
    store.remember(text, source_type="capture", source_ref=LINEAGE)
    return "remembered"


def _import(store: Store, rng: random.Random, tag: str) -> str:
    records = [FactRecord(statement=f"Imported reading {tag}-{i}", kind="REFERENCE",
                          quote=f"imported reading {tag}-{i}", source_ref=LINEAGE)
               for i in range(2)]
    store.import_facts(records, embeddings=np.array([_random_vector(r.statement)
                                                     for r in records]))
    return "imported"


def _retract(store: Store, rng: random.Random, tag: str) -> str:
    live = store.facts_by_verdict("active", "contested", limit=200)
    live = [f for f in live if not f.statement.startswith("Imported")]
    if not live:
        return "nothing-to-retract"
    try:
        store.retract(rng.choice(live).id, reason=f"retracted by {tag}")
    except AlreadyRetracted:  # another process retracted it first: said, nothing written
        return "already-retracted"
    return "retracted"


def _resolve(store: Store, rng: random.Random, tag: str) -> str:
    open_ = store.open_conflicts()
    if not open_:
        return "nothing-to-resolve"
    conflict = rng.choice(open_)
    winner = rng.choice((conflict.fact_a.id, conflict.fact_b.id))
    try:
        store.resolve_conflict(conflict.id, winner, f"settled by {tag}")
    except ConflictStateError:  # another worker (or the timeline) closed it first
        return "already-closed"
    return "resolved"


OPS = ((_write, 30), (_remember, 20), (_retract, 20), (_resolve, 15), (_import, 15))


def _worker(dsn: str, index: int, table: dict[str, list[float]], barrier, results,
            errors) -> None:
    rng = random.Random(SEED * 1000 + index)
    with Store.open(dsn, embedder=TableEmbedder(table), extractor=ScriptedExtractor()) as store:
        barrier.wait(timeout=120)
        for call in range(CALLS):
            op = rng.choices([o for o, _ in OPS], weights=[w for _, w in OPS])[0]
            try:
                results.append(op(store, rng, f"w{index}c{call}"))
            except Exception as exc:  # noqa: BLE001 - every escape is a finding
                errors.append(f"{op.__name__}: {type(exc).__name__}: {exc}")


def run_mixed(dsn: str, table: dict[str, list[float]],
              procs: int = PROCS) -> tuple[list[str], list[str]]:
    """Run the workers; returns (outcomes, errors)."""
    ctx = mp.get_context("spawn")
    with ctx.Manager() as manager:
        barrier = manager.Barrier(procs)
        results, errors = manager.list(), manager.list()
        workers = [ctx.Process(target=_worker, args=(dsn, i, table, barrier, results, errors))
                   for i in range(procs)]
        for p in workers:
            p.start()
        for p in workers:
            p.join(timeout=600)
        assert [p.exitcode for p in workers] == [0] * procs
        return list(results), list(errors)


def check_invariants(store: Store) -> None:
    """What must hold after any interleaving (see the module docstring)."""
    everything = store.facts_by_verdict(limit=100_000)
    verdicts = {f.id: f.verdict.value for f in everything}
    # timeline keys: one current unless disputed; stored statuses are the re-resolution's
    for subject, attribute in KEYS:
        stored = store.facts(subject, attribute).keys
        if not stored:
            continue
        (key,) = stored
        disputed = any(f.status == "disputed" for f in key.history)
        assert disputed or len(key.current) <= 1, (subject, attribute, key.current)
        (fresh,) = store.facts(subject, attribute, known_at=datetime.now(UTC)).keys
        assert {f.id: f.status for f in fresh.history} == {f.id: f.status for f in key.history}
    # a plain STATE subject: each reading revises the last, so one active unless contested.
    # (Not DECISION: withdrawing a fact releases every partner of its conflicts, which may
    # contradict each other without a conflict of their own; that holds run sequentially too.)
    _, template, _ = PLAIN["limit"]
    group = [f.verdict.value for f in everything if f.statement.startswith(template[:20])]
    assert "contested" in group or group.count("active") <= 1, (template, group)
    # contested exactly when an open conflict holds the fact
    held = {i for c in store.open_conflicts() for i in (c.fact_a.id, c.fact_b.id)}
    assert {i for i, v in verdicts.items() if v == "contested"} == held
    for conflict in store.conflicts("resolved"):
        if conflict.resolution == "head-to-head":
            loser = ({conflict.fact_a.id, conflict.fact_b.id} - {conflict.winner}).pop()
            assert verdicts[loser] in ("superseded", "withdrawn"), conflict
    # every history, in the order it was recorded, is one chain ending at the fact's verdict.
    # Recorded order is the row id: each row is written under the lock that covers its fact,
    # so ids follow the order the changes committed. (``at`` does not: a capture's rows carry
    # its capture time, and resolve and retract read the clock before waiting for locks.)
    with store._tx() as cur:
        cur.execute("SELECT fact_id, from_verdict, to_verdict FROM fact_history ORDER BY id")
        chains: dict[int, list[tuple[str | None, str]]] = {}
        for row in cur.fetchall():
            chains.setdefault(row["fact_id"], []).append((row["from_verdict"],
                                                          row["to_verdict"]))
    assert chains.keys() == verdicts.keys()
    for fact_id, verdict in verdicts.items():
        steps = chains[fact_id]
        assert steps[0][0] is None, (fact_id, steps)
        for (_, before), (after, _) in zip(steps, steps[1:], strict=False):
            assert after == before, (fact_id, steps)
        assert steps[-1][1] == verdict, (fact_id, steps)


def deadlocks(store: Store) -> int:
    """Deadlocks Postgres detected in this store's database (its own statistics)."""
    with store._tx() as cur:
        cur.execute("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        return cur.fetchone()["deadlocks"]


@pytest.mark.empty_database
def test_mixed_writers_never_deadlock_and_leave_consistent_state(admin_dsn, database,
                                                                  embedder):
    dsn = server.with_database(admin_dsn, database)
    statements = _statements()
    table = dict(zip(statements, embedder.embed(statements).tolist(), strict=True))
    # The schema first, so the workers race on facts, not on migrations.
    Store.open(dsn, embedder=TableEmbedder(table), extractor=ScriptedExtractor()).close()
    outcomes, errors = run_mixed(dsn, table)
    kinds = Counter(e.split(":")[1].strip() + ":" + e.split(":")[2][:60] for e in errors)
    assert errors == [], f"{len(errors)} of {PROCS * CALLS} calls failed: {dict(kinds)}\n" + \
        "\n".join(errors[:10])
    assert len(outcomes) == PROCS * CALLS
    # the mix really mixed: every operation ran and found work to do
    assert {"written", "remembered", "imported", "retracted", "resolved"} <= set(outcomes)
    with Store.open(dsn, embedder=TableEmbedder(table), extractor=ScriptedExtractor()) as store:
        # The lock order, not the retry, keeps the writers apart: none ever deadlocked.
        assert deadlocks(store) == 0
        check_invariants(store)
        described = store.describe()
        assert described.documents >= outcomes.count("remembered") + outcomes.count("imported")
