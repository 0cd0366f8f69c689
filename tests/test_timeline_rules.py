"""Timelines exactly as seed 002 states them (issue 8 §2-§5), through the real Store."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import pytest

from factstore.errors import CardinalityMismatch, FactNotFound, InvalidInput
from factstore.timelines.format_v1 import FactsValidationError
from factstore.timelines.render import render_markdown
from factstore.timelines.values import value_key


def _w(store, *facts, shared: bool = False, user: str | None = None):
    return store.write_facts({"format": 1, "shared": shared, "facts": list(facts)},
                             user=user)


def _fact(attribute: str, value: str, subject: str = "person/nick", **extra) -> dict:
    return {"subject": subject, "attribute": attribute, "value": value, **extra}


# -- §2 rule 6 over its overlap ------------------------------------------------------------

def test_rule_6_is_disputed_over_the_overlap(store):
    _w(store, _fact("role", "manager", valid_from="2023", observed_at="2023-02-01T00:00:00Z",
                    source="hr:1"))
    _w(store, _fact("role", "staff engineer", valid_from="2021", valid_to="2024",
                    observed_at="2024-03-01T00:00:00Z", source="chat:9"))
    both = store.facts("person/nick", "role", as_of="2023").keys[0]
    assert sorted(f.value for f in both.current) == ["manager", "staff engineer"]
    assert both.line.startswith("role(person/nick) = {disputed: staff engineer | manager}")
    before = store.facts("person/nick", "role", as_of="2022").keys[0]
    assert [f.value for f in before.current] == ["staff engineer"]
    after = store.facts("person/nick", "role", as_of="2025").keys[0]
    assert [f.value for f in after.current] == ["manager"]
    assert "(disputed)" in after.line and "{disputed:" not in after.line
    assert len(store.open_conflicts()) == 1


# -- §3 cardinality per attribute in its scope ----------------------------------------------

def test_cardinality_is_the_attributes_in_its_scope(store):
    _w(store, _fact("hobby", "chess", cardinality="many"))
    # another subject, no cardinality said: the scope's stored many applies
    _w(store, _fact("hobby", "go", subject="person/dana"))
    _w(store, _fact("hobby", "climbing", subject="person/dana"))
    dana = store.facts("person/dana", "hobby").keys[0]
    assert dana.cardinality == "many" and len(dana.current) == 2
    with pytest.raises(CardinalityMismatch):
        _w(store, _fact("hobby", "cards", subject="person/ivo", cardinality="one"))
    with pytest.raises(CardinalityMismatch):
        store.backfill_facts([_fact("hobby", "cards", subject="person/ivo",
                                    cardinality="one")])
    assert store.facts("person/ivo", "hobby").keys == ()


def test_a_request_that_disagrees_with_itself_writes_nothing(store):
    with pytest.raises(CardinalityMismatch):
        _w(store, _fact("speaks_at", "a", cardinality="many"),
           _fact("speaks_at", "b", subject="person/dana", cardinality="one"))
    assert store.row_counts()["facts"] == 0


# -- §4 ranking, ending, scopes, freshness, known-at ----------------------------------------

def test_a_sourced_fact_ranks_above_an_unsourced_one(store):
    # a many attribute: two rows of one value answer together, the sourced one is shown
    _w(store, _fact("uses_tool", "ripgrep", valid_from="2024", valid_to="2027",
                    observed_at="2026-01-05T00:00:00Z"))
    _w(store, _fact("uses_tool", "ripgrep", valid_from="2025",
                    observed_at="2026-01-01T00:00:00Z", source="chat:1"))
    (answer,) = store.facts("person/nick", "uses_tool", as_of="2026").keys[0].current
    assert answer.source == "chat:1"


def test_end_fact_ends_a_value_with_history(store):
    written = _w(store, _fact("uses_tool", "jj", valid_from="2024", source="chat:2"),
                 _fact("uses_tool", "git", valid_from="2020", source="chat:3")).facts[0]
    ended = store.end_fact(written.id, "2026-06", source="chat:4")
    assert ended.outcome == "created" and ended.fact.valid_to == "2026-06"
    tools = lambda as_of: sorted(f.value for f in store.facts(  # noqa: E731
        "person/nick", "uses_tool", as_of=as_of).keys[0].current)
    assert tools("2026-05") == ["git", "jj"] and tools("2026-07") == ["git"]
    history = store.facts("person/nick", "uses_tool").keys[0].history
    assert [f.status for f in history if f.id == written.id] == ["superseded"]
    with pytest.raises(InvalidInput, match="after"):
        store.end_fact(ended.id, "2023")
    with pytest.raises(FactNotFound):
        store.end_fact(10**9, "2027")


def test_personal_and_shared_facts_never_mask_each_other(store):
    _w(store, _fact("editor", "helix", valid_from="2026"))
    _w(store, _fact("editor", "zed", valid_from="2026"), shared=True)
    keys = store.facts("person/nick", "editor").keys
    assert sorted((k.scope == "local/shared-main", [f.value for f in k.current][0]) for k in keys) == [
        (False, "helix"), (True, "zed")]
    lines = sorted(k.line for k in keys)
    assert lines == [
        "editor(person/nick) = helix [valid 2026..now, observed "
        f"{datetime.now(UTC):%Y-%m-%d}] [personal] (shared: zed)",
        "editor(person/nick) = zed [valid 2026..now, observed "
        f"{datetime.now(UTC):%Y-%m-%d}] [shared] (personal: helix)"]
    frame = store.facts("person/nick", "editor").to_pandas()
    assert sorted(frame["scope"].str.startswith("local/user-")) == [False, True]


def test_a_confirmation_after_the_viewed_date_does_not_make_it_fresh(store):
    t0 = datetime(2025, 1, 10, tzinfo=UTC)
    first = _w(store, _fact("city", "Berlin", valid_from="2025",
                            observed_at="2025-01-10T00:00:00Z")).facts[0]
    again = _w(store, _fact("city", "Berlin", valid_from="2025-06",
                            observed_at="2025-11-20T00:00:00Z")).facts[0]
    assert (again.outcome, again.id) == ("corroborated", first.id)
    facts = store.facts("person/nick", "city").keys[0].history
    viewed_july = t0 + timedelta(days=190)  # 180 days after the only confirmation by then
    assert "1 stale fact hidden" in render_markdown(list(facts), viewed_july)
    viewed_december = datetime(2025, 12, 1, tzinfo=UTC)
    assert "stale" not in render_markdown(list(facts), viewed_december)


def test_known_at_is_what_the_store_had_recorded_not_when_it_was_observed(store):
    _w(store, _fact("city", "Paris", valid_from="2020", observed_at="2020-01-01T00:00:00Z"))
    before = datetime.now(UTC)
    assert store.facts("person/nick", "city", known_at=before - timedelta(days=1)).keys == ()
    assert [f.value for f in store.facts("person/nick", "city",
                                         known_at=before).keys[0].current] == ["Paris"]


def test_identical_concurrent_requests_store_one_fact(open_store):
    store = open_store(pool_size=8)
    for round_no in range(5):
        body = {"format": 1, "facts": [_fact("mood", "calm", subject=f"person/c{round_no}")]}
        with ThreadPoolExecutor(8) as pool:
            list(pool.map(store.write_facts, [body] * 8))
    assert store.row_counts()["facts"] == 5
    for round_no in range(5):
        history = store.facts(f"person/c{round_no}", "mood").keys[0].history
        assert len(history) == 1 and history[0].status == "current"


# -- §5 values and refusals ---------------------------------------------------------------

@pytest.mark.parametrize(("a", "b"), [
    (("41", "EU"), ("41 EU", None)), (("Blue", None), ("blue", None)),
    (("3", None), ("three", None)), (("41.0", "eu"), ("41", "EU")),
    (("New  York", None), ("new york", None)),
])
def test_values_that_are_the_same_value_compare_equal(a, b):
    assert value_key(*a) == value_key(*b)


@pytest.mark.parametrize(("a", "b"), [(("41", "EU"), ("42", "EU")),
                                      (("Berlin", None), ("Berlin, Germany", None)),
                                      (("41", "EU"), ("41", "US"))])
def test_values_that_differ_compare_apart(a, b):
    assert value_key(*a) != value_key(*b)


def test_a_restatement_written_differently_corroborates_instead_of_disputing(store):
    first = _w(store, _fact("shoe_size", "41", unit="EU", valid_from="2026")).facts[0]
    for value, unit in (("41 EU", None), ("41", "eu")):
        fact = {k: v for k, v in _fact("shoe_size", value, valid_from="2026",
                                       unit=unit).items() if v is not None}
        again = _w(store, fact).facts[0]
        assert (again.outcome, again.id) == ("corroborated", first.id)
    assert store.open_conflicts() == []
    assert store.facts("person/nick", "shoe_size").keys[0].history[0].value == "41"


@pytest.mark.parametrize(("field", "value", "match"), [
    ("value", "   ", "must not be blank"),
    ("attribute", "shoe size", "snake_case"),
    ("attribute", "%s", "snake_case"),
    ("observed_at", "9999-12-31T00:00:00Z", "in the future"),
])
def test_what_would_corrupt_a_key_is_refused_by_field(store, field, value, match):
    fact = {**_fact("shoe_size", "41"), field: value}
    with pytest.raises(FactsValidationError, match=match) as raised:
        _w(store, fact)
    assert raised.value.errors[0].path == f"facts[0].{field}"
    assert store.row_counts()["facts"] == 0
