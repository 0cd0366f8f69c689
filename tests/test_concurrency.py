"""Parallel writers: the density check and the write are serialised per kind.

Two processes share one embedded server (each opens the store by home, not by DSN) and
remember near-duplicate STATE readings of one subject at the same moment, over several
rounds. In each round exactly one fact may be written without a near-hit; every other must
see a live reading of the same subject and revise it (or be the older reading), so each
round ends with one current reading. Without the per-kind advisory lock, overlapping
transactions each miss the other's uncommitted row and both write "written" (seen in about
one round in three), leaving two current readings.
"""

from __future__ import annotations

import multiprocessing as mp
import os

from factstore import Store
from factstore.extractors.rules import RuleExtractor

WRITERS = 2
EACH = 12
# Near-duplicates within a round (cosine > 0.88), unrelated across rounds (< 0.45).
ROUNDS = (
    "The staging cluster has {} nodes right now.",
    "The support queue holds {} open tickets right now.",
    "The build-7 disk is {} percent full right now.",
    "The office has {} people in it right now.",
)


def _writer(home: str, index: int, barrier, results) -> None:
    os.environ["HF_HUB_OFFLINE"] = "1"
    import torch

    from factstore.embedders.local import LocalEmbedder

    torch.set_num_threads(1)  # one core per writer, so both reach the database together
    embedder = LocalEmbedder()
    embedder.embed(["warm up"])  # load the model before the race starts
    # The race is the kind layer's density check; the compiler stays out of it (a capture
    # stating twelve values of one property at once is a dispute its timeline keeps open).
    with Store.open(home=home, database="shared", embedder=embedder,
                    extractor=RuleExtractor(), compiler=None) as store:
        for round_no, template in enumerate(ROUNDS):
            # One capture of several facts: its transaction is long enough that unserialised
            # writers would overlap between their density checks and their commits.
            text = " ".join(template.format(40 + index * EACH + j) for j in range(EACH))
            barrier.wait(timeout=120)
            result = store.remember(text, source_ref=f"writer-{index}")
            results.append((round_no, [o.outcome for o in result.outcomes]))


def test_parallel_writers_never_both_miss_a_near_duplicate(home, embedder):
    home = str(home)
    # Create the schema once up front so the writers race on facts, not on migrations.
    Store.open(home=home, database="shared", embedder=embedder,
               extractor=RuleExtractor()).close()
    ctx = mp.get_context("spawn")
    with ctx.Manager() as manager:
        barrier = manager.Barrier(WRITERS)
        results = manager.list()
        procs = [ctx.Process(target=_writer, args=(home, i, barrier, results))
                 for i in range(WRITERS)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(timeout=300)
        assert [p.exitcode for p in procs] == [0] * WRITERS
        collected = list(results)
    for round_no in range(len(ROUNDS)):
        outcomes = [o for r, os_ in collected if r == round_no for o in os_]
        assert len(outcomes) == WRITERS * EACH
        assert outcomes.count("written") == 1, f"round {round_no}: {outcomes}"
        assert set(outcomes) - {"written"} <= {"superseded-prior", "older-reading"}
    with Store.open(home=home, database="shared", embedder=embedder,
                    extractor=RuleExtractor()) as store:
        counts = store.describe().facts_by_kind_verdict["STATE"]
        total = len(ROUNDS) * WRITERS * EACH
        assert counts == {"active": len(ROUNDS), "superseded": total - len(ROUNDS)}
        assert store.open_conflicts() == []
