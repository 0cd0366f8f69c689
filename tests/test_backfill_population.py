"""The set-based backfill on a generated population (issue 10 §2), through the Store.

Many keys (one and many attributes), restatements, changed values, same-start disputes,
stated ends, undated facts, keys that already hold facts (one of them retracted) before the
backfill runs. The same observations written one by one, backfilled in one call, in
reverse, and in small chunks must read the same at every instant; every stored fact carries
its whole history (created active, each later change) ending at its verdict, and its
testimony.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

T0 = datetime(2026, 1, 1, tzinfo=UTC)
ATTRIBUTES = (("team_size", ("3", "4", "6", "three")), ("city", ("Oslo", "Lima", "oslo")),
              ("uses_tool", ("git", "make", "vim")))
STARTS = ("2019", "2019-06", "2020", "2020-06", "2021", "2021-03-04", None)
INSTANTS = ("2018", "2019", "2019-03", "2019-06", "2019-09", "2020", "2020-06", "2021",
            "2021-06", "2022", "2025")
SUBJECTS = 6


def _stream(seed: int = 7) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for i in range(SUBJECTS * len(ATTRIBUTES) * 7):
        attribute, values = ATTRIBUTES[i % len(ATTRIBUTES)]
        start = rng.choice(STARTS)
        fact = {"subject": f"s{rng.randrange(SUBJECTS)}", "attribute": attribute,
                "value": rng.choice(values), "source": f"archive:{i}",
                "observed_at": (T0 + timedelta(days=rng.randrange(60))).isoformat()
                .replace("+00:00", "Z")}
        if start is not None:
            fact["valid_from"] = start
            if rng.random() < 0.15 and len(start) == 4:
                fact["valid_to"] = str(int(start) + 2)
        if rng.random() < 0.2 and out:  # a restatement of an earlier observation
            earlier = dict(rng.choice(out))
            earlier["source"] = f"archive:{i}:again"
            earlier["observed_at"] = fact["observed_at"]
            fact = earlier
        out.append(fact)
    return out


def _as(arm: str, facts: list[dict]) -> list[dict]:
    return [{**f, "subject": f"person/{arm}-{f['subject']}"} for f in facts]


def _signature(store, arm: str) -> list[tuple]:
    out = []
    for n in range(SUBJECTS):
        subject = f"person/{arm}-s{n}"
        for attribute, _ in ATTRIBUTES:
            for label in INSTANTS:
                answer = store.facts(subject, attribute, as_of=label)
                if not answer.keys:
                    out.append((n, attribute, label, None))
                    continue
                key = answer.keys[0]
                values = sorted((f.value_key, f.status == "disputed") for f in key.current)
                out.append((n, attribute, label, tuple(values),
                            key.line.replace(subject, "S")))
    return out


def _prestate(store, arm: str, facts: list[dict]) -> None:
    """Each arm's keys hold the same facts before the backfill; one of them retracted."""
    written = [store.write_facts({"format": 1, "facts": [f]}).facts[0] for f in _as(arm, facts)]
    store.retract(written[1].id, reason="population test")


def test_backfill_reads_as_writing_one_by_one_in_every_arrival_order(store):
    stream = _stream()
    before, rest = stream[:20], stream[20:]
    arms = {"one": None, "bulk": rest, "reversed": list(reversed(rest)), "chunks": rest}
    for arm in arms:
        _prestate(store, arm, before)
    for fact in _as("one", rest):
        store.write_facts({"format": 1, "facts": [fact]})
    store.backfill_facts(_as("bulk", rest))
    store.backfill_facts(_as("reversed", list(reversed(rest))))
    for i in range(0, len(rest), 7):
        store.backfill_facts(_as("chunks", rest[i:i + 7]))
    reference = _signature(store, "one")
    assert any(v and len(v) > 1 for *_, v, _line in (s for s in reference if len(s) == 5))
    for arm in ("bulk", "reversed", "chunks"):
        assert _signature(store, arm) == reference, arm
    _every_fact_has_its_history_and_testimony(store)


def _every_fact_has_its_history_and_testimony(store) -> None:
    facts = store.facts_by_verdict(limit=100_000)
    assert len(facts) > 80
    statuses = set()
    for fact in facts:
        history = store.history(fact.id)
        assert history and history[0].from_verdict is None, fact
        assert history[0].to_verdict == "active"
        for a, b in zip(history, history[1:], strict=False):
            assert b.from_verdict == a.to_verdict, (fact, history)
        assert history[-1].to_verdict == fact.verdict, (fact, history)
        assert fact.document_id is not None
        statuses.add(fact.verdict)
    # the population reaches every lifecycle state
    assert {"active", "superseded", "contested", "withdrawn"} <= statuses


def test_a_rerun_of_a_backfill_on_stored_keys_writes_nothing(store):
    stream = _as("rerun", _stream(11))
    store.backfill_facts(stream[:40])
    store.backfill_facts(stream)
    counts = store.row_counts()
    again = store.backfill_facts(stream)
    assert (again.created, again.corroborated, again.unchanged) == (0, 0, len(stream))
    assert store.row_counts() == counts
