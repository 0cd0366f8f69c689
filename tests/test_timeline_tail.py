"""plan_append (timelines/tail.py) equals the full resolution wherever it answers."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from factstore.timelines.model import TimelineFact
from factstore.timelines.observations import holder
from factstore.timelines.resolution import apply, resolve_timeline, sort_start
from factstore.timelines.tail import plan_append

BASE = datetime(2020, 1, 1, tzinfo=UTC)
_STARTS = st.sampled_from(["2019", "2019-06", "2020", "2020-06-15", "2021", "2022", None])


@st.composite
def keys(draw):
    facts = []
    for i in range(draw(st.integers(0, 8))):
        start = draw(_STARTS)
        to = draw(st.sampled_from([None, None, "2020-03", "2023"])) if start else None
        facts.append(TimelineFact(
            id=i + 1, subject="person/x", attribute="a", value=draw(st.sampled_from("ABC")),
            unit=None, cardinality="one", valid_from=start, valid_to=to,
            observed_at=BASE + timedelta(days=draw(st.integers(0, 900))),
            last_confirmed_at=BASE, recorded_at=BASE, retracted=draw(st.booleans()) and i > 0))
    stored = apply(facts, resolve_timeline(facts, "one"))
    write = (draw(st.sampled_from("ABC")), draw(st.sampled_from(
        ["2021", "2022-06", "2024", "2025-01-02T03:04:05Z", None])),
        BASE + timedelta(days=draw(st.integers(0, 2500))))
    return stored, write


def _inputs(stored):
    live = sorted((f for f in stored if not f.retracted), key=lambda f: (sort_start(f), f.id),
                  reverse=True)
    latest = sort_start(live[0]) if live else None
    from factstore.timelines.dates import start_of
    ends_after = any(start_of(f.valid_to) is not None and start_of(f.valid_to) > latest
                     for f in live) if live else False
    return live[:2], ends_after


@settings(max_examples=1500, deadline=None)
@given(keys())
def test_an_append_decides_what_resolving_the_whole_key_decides(case):
    stored, (value, valid_from, observed) = case
    tail, ends_after = _inputs(stored)
    plan = plan_append(tail, value, None, valid_from, None, observed, "one",
                       stated_end_after=ends_after, last_corroboration_start=None)
    if plan is None:
        return
    if plan.corroborates:
        found = holder(value, None, valid_from, None, observed, stored, "one")
        assert found is not None and found.id == plan.previous
        return
    assert holder(value, None, valid_from, None, observed, stored, "one") is None
    new = TimelineFact(len(stored) + 1, "person/x", "a", value, None, "one", valid_from, None,
                       observed, observed, BASE)
    before = {r.id: r for r in resolve_timeline(stored, "one").facts}
    after = {r.id: r for r in resolve_timeline([*stored, new], "one").facts}
    assert resolve_timeline([*stored, new], "one").disputes == resolve_timeline(
        stored, "one").disputes
    assert (after[new.id].status, after[new.id].supersedes) == ("current", plan.previous)
    for fact_id, decided in before.items():
        if fact_id == plan.previous:
            assert dataclasses.astuple(after[fact_id]) == (
                fact_id, "superseded", plan.previous_end, new.id, decided.supersedes)
        else:
            assert after[fact_id] == decided


def test_appends_are_recognised_and_the_doubtful_cases_fall_back():
    def fact(i, value, start, to=None):
        return TimelineFact(i, "person/x", "a", value, None, "one", start, to, BASE, BASE, BASE)
    now = BASE + timedelta(days=2000)
    stored = apply(f := [fact(1, "40", "2020"), fact(2, "41", "2021")], resolve_timeline(f, "one"))
    tail = sorted(stored, key=lambda x: x.id, reverse=True)
    plan = plan_append(tail, "42", None, "2024", None, now, "one", stated_end_after=False,
                       last_corroboration_start=None)
    assert (plan.previous, plan.corroborates, plan.previous_end) == (2, False, "2024")
    assert plan_append(tail, "41", None, "2024", None, now, "one", stated_end_after=False,
                       last_corroboration_start=None).corroborates
    assert plan_append([], "1", None, None, None, now, "one", stated_end_after=False,
                       last_corroboration_start=None).previous is None
    for doubtful in (dict(valid_from="2020-06"), dict(valid_to="2030"),  # not after / an end
                     dict(cardinality="many")):
        args = {"valid_from": "2024", "valid_to": None, "cardinality": "one", **doubtful}
        assert plan_append(tail, "42", None, args["valid_from"], args["valid_to"], now,
                           args["cardinality"], stated_end_after=False,
                           last_corroboration_start=None) is None
    assert plan_append(tail, "42", None, "2024", None, now, "one", stated_end_after=True,
                       last_corroboration_start=None) is None
    assert plan_append(tail, "42", None, "2024", None, now, "one", stated_end_after=False,
                       last_corroboration_start=start_of_2025()) is None


def start_of_2025():
    return datetime(2025, 1, 1, tzinfo=UTC)
