"""Subject-less timeline reads walk the newest facts instead of grouping every row; they must
pick the same keys in the same order the grouped query did (newest-written first; keys
written at one instant by subject, attribute, scope), whatever the page size."""

from __future__ import annotations

import random

import pytest

from factstore.store import timelines as timeline_sql


def _expected(answer_keys_all, limit: int) -> list[tuple[str, str]]:
    """The grouped query's choice, computed from every key's facts."""
    rows = sorted(answer_keys_all, key=lambda k: (-k[2].timestamp(), k[0], k[1]))
    chosen, total = [], 0
    for subject, attribute, _, n in rows:
        if chosen and total + n > limit:
            break
        chosen.append((subject, attribute))
        total += n
    return chosen


@pytest.mark.parametrize("page", [3, 7, 2000])
def test_the_walk_picks_the_grouped_querys_keys_in_its_order(store, monkeypatch, page) -> None:
    rng = random.Random(page)
    # a population: backfills (many keys at one instant), single writes, restatements
    for batch in range(4):
        store.backfill_facts([
            {"subject": f"person/p{rng.randrange(12)}", "attribute": rng.choice(
                ["city", "employer", "shoe_size"]), "value": str(rng.randrange(5)),
             "valid_from": f"{2000 + rng.randrange(20)}", "source": f"b{batch}:{i}",
             "observed_at": "2025-01-01T00:00:00Z"} for i in range(30)])
        for i in range(5):
            store.write_facts({"format": 1, "facts": [{
                "subject": f"person/p{rng.randrange(12)}", "attribute": "city",
                "value": rng.choice(["Oslo", "Rome"]), "valid_from": f"{2021 + i}",
                "source": f"w{batch}:{i}", "observed_at": "2025-06-01T00:00:00Z"}]})
    whole = store.facts(limit=500)
    keys = [(k.subject, k.attribute, max(f.recorded_at for f in k.history), len(k.history))
            for k in whole.keys]
    monkeypatch.setattr(timeline_sql, "_WALK_PAGE", page)
    for limit in (1, 5, 17, 60, 500):
        got = [(k.subject, k.attribute) for k in store.facts(limit=limit).keys]
        assert got == _expected(keys, limit), limit
    for attribute in ("city", "employer"):
        got = [(k.subject, k.attribute) for k in store.facts(attribute=attribute, limit=40).keys]
        assert got == _expected([k for k in keys if k[1] == attribute], 40)
