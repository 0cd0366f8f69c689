"""remember_many decides exactly what remember called on each capture in turn decides: a
generated stream of 220 captures (many services; restatements inside one batch, changed
states and numbers, negated decisions, index pages, re-runs) is written both ways into two
fresh databases, and the outcome lists and the final tables are compared whole."""

from __future__ import annotations

import random

import pytest

from factstore.errors import InvalidInput
from factstore.extractors.rules import RuleExtractor
from factstore.store import server


def stream(n: int = 220, seed: int = 11) -> list[dict]:
    rng = random.Random(seed)
    services = [f"svc-{i}" for i in range(20)]
    made: list[dict] = []
    for i in range(n):
        s = rng.choice(services)
        roll = rng.random()
        if made and roll < 0.12:
            again = dict(rng.choice(made[-10:]))  # a restatement, often in one batch
            again["captured_at"] = f"2026-03-{1 + i // 24:02d}T{i % 24:02d}:00:00Z"
            made.append(again)
            continue
        if roll < 0.3:
            text = f"{s} is {rng.choice(['green', 'red', 'degraded'])} right now."
        elif roll < 0.45:
            text = f"{s} now runs {rng.randrange(2, 6)} replicas."
        elif roll < 0.6:
            text = (f"We decided {'not ' if rng.random() < 0.5 else ''}to move {s} to the "
                    "new cluster.")
        elif roll < 0.7:
            text = f"Always page the on-call before restarting {s}."
        elif roll < 0.78:
            text = " ".join(f"[[{rng.choice(services)}-page-{k}]]" for k in range(8))  # index
        elif roll < 0.88:
            text = f"The {s} runner token lives at /etc/{s}/runner.env."
        else:
            text = f"I prefer to review {s} changes in the morning."
        # an archive keeps its own times, so a resumed run is the same observations again
        capture = {"text": text, "captured_at": f"2026-03-{1 + i // 24:02d}T{i % 24:02d}:00:00Z"}
        if rng.random() < 0.4:
            capture["source_ref"] = f"chat:{rng.randrange(30)}"
        made.append(capture)
    return made


def _outcomes(results) -> list[tuple]:
    return [(r.document.id, r.document.reused if hasattr(r.document, "reused") else None,
             r.gated, tuple((o.outcome, o.lane, o.fact.id, o.fact.kind, o.fact.statement,
                             o.fact.verdict) for o in r.outcomes),
             tuple(i.lane for i in r.interrupts)) for r in results]


def _tables(store) -> tuple:
    facts = sorted((f.id, f.statement, f.kind, f.verdict, f.document_id, f.superseded_by)
                   for f in store.facts_by_verdict(limit=100_000))
    conflicts = sorted((c.id, c.fact_a.id, c.fact_b.id, c.status, c.lane, c.resolution)
                       for c in store.conflicts())
    history = [(h.fact_id, h.from_verdict, h.to_verdict, h.reason)
               for f in facts for h in store.history(f[0])]
    return store.row_counts(), facts, conflicts, history


@pytest.fixture()
def two_stores(admin_dsn, embedder):
    from factstore import Store

    names = ("t_many_seq", "t_many_bulk")
    stores = []
    for name in names:
        server.drop_database(admin_dsn, name)
        server.ensure_database(admin_dsn, name)
        stores.append(Store.open(server.with_database(admin_dsn, name), embedder=embedder,
                                 extractor=RuleExtractor()))
    yield stores
    for store, name in zip(stores, names, strict=True):
        store.close()
        server.drop_database(admin_dsn, name)


def test_remember_many_decides_what_remember_one_by_one_decides(two_stores) -> None:
    sequential, bulk = two_stores
    captures = stream()
    one_by_one = [sequential.remember(**c) for c in captures]
    seen: list[tuple[int, int]] = []
    many = bulk.remember_many(captures, batch_size=16,
                              progress=lambda done, total: seen.append((done, total)))
    assert len(many) == len(captures)
    assert _outcomes(many) == _outcomes(one_by_one)
    assert _tables(bulk) == _tables(sequential)
    assert seen[-1] == (220, 220) and len(seen) == 220
    # the stream exercises what it is meant to
    outcomes = {o.outcome for r in one_by_one for o in r.outcomes}
    assert {"written", "recaptured", "unchanged"} <= outcomes
    assert any(r.gated for r in one_by_one) and sequential.conflicts()
    # and a re-run of the whole stream (a resume after a crash) writes nothing new
    counts = bulk.row_counts()
    again = bulk.remember_many(captures, batch_size=64)
    assert bulk.row_counts() == counts
    assert {o.outcome for r in again for o in r.outcomes} <= {"unchanged"}


@pytest.mark.parametrize("captures, says", [
    ("one text", "takes a list of captures"),
    ([{"txt": "x"}], "captures[0] must be a text or a mapping with 'text'"),
    (["fine", {"text": "x", "when": 1}], "captures[1] has unknown field(s) when"),
    (["fine", "a\x00b"], "captures[1]: the capture text contains a NUL"),
    (["fine", {"text": "x", "said_at": "yesterday"}], "captures[1]: said_at"),
])
def test_a_bad_capture_refuses_the_whole_call(store, captures, says) -> None:
    before = store.row_counts()
    with pytest.raises(InvalidInput) as raised:
        store.remember_many(captures)
    assert says in str(raised.value)
    assert store.row_counts() == before
