"""The backfill's corroboration index agrees with rule 2 over a resolved timeline."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from factstore.timelines.bulk import CorroborationIndex
from factstore.timelines.model import TimelineFact
from factstore.timelines.observations import holder
from factstore.timelines.resolution import apply, resolve_timeline

BASE = datetime(2020, 1, 1, tzinfo=UTC)


@st.composite
def timelines(draw):
    n = draw(st.integers(1, 12))
    cardinality = draw(st.sampled_from(["one", "many"]))
    facts = []
    for i in range(n):
        year = draw(st.integers(2020, 2026))
        to = draw(st.one_of(st.none(), st.integers(year + 1, 2028)))
        facts.append(TimelineFact(
            id=i + 1, subject="person/x", attribute="a", value=draw(st.sampled_from("ABC")),
            unit=None, cardinality=cardinality,
            valid_from=draw(st.sampled_from([str(year), None, f"{year}-06"])),
            valid_to=None if to is None else str(to),
            observed_at=BASE + timedelta(days=draw(st.integers(0, 3000))),
            last_confirmed_at=BASE, recorded_at=BASE,
            retracted=draw(st.booleans()) and i > 0))
    probe_year = draw(st.integers(2019, 2029))
    return facts, cardinality, draw(st.sampled_from("ABC")), probe_year


@settings(max_examples=400, deadline=None)
@given(timelines())
def test_the_index_finds_what_the_holder_finds_on_the_resolved_timeline(case):
    facts, cardinality, value, year = case
    resolution = resolve_timeline(facts, cardinality)
    # The index cannot see rule-6 disputes (they need a resolution); settling catches them.
    assume(all(rule != "rule-6" for _, _, rule in resolution.disputes))
    resolved = apply(facts, resolution)
    probe = str(year)
    expected = holder(value, None, probe, None, BASE, resolved, cardinality)
    found = CorroborationIndex(facts, cardinality).find(value, None, probe, BASE)
    assert (found.id if found else None) == (expected.id if expected else None)


def test_a_new_value_ends_the_old_one_for_later_repeats():
    def fact(i, value, year):
        return TimelineFact(i, "person/x", "a", value, None, "one", str(year), None, BASE, BASE,
                            BASE)
    index = CorroborationIndex([fact(1, "40", 2025)], "one")
    assert index.find("40", None, "2025-06", BASE).id == 1
    index.add(fact(2, "41", 2026))
    assert index.find("40", None, "2026-06", BASE) is None
    assert index.find("40", None, "2025-11", BASE).id == 1

