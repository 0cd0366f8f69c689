"""Timeline resolution (seed 002 §2, §3, §5) and cardinality: pure functions, no database."""

from __future__ import annotations

import pickle
import random
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factstore.errors import InvalidInput
from factstore.timelines.cardinality import (
    MANY_ATTRIBUTES,
    CardinalityMismatch,
    decide_cardinality,
    registry_cardinality,
)
from factstore.timelines.dates import parse_partial
from factstore.timelines.model import Resolution, TimelineFact
from factstore.timelines.resolution import (
    apply,
    corroborated_by,
    current_at,
    end_instant,
    history_order,
    resolve_timeline,
    rfc3339,
    sort_start,
    valid_at,
)

TODAY = datetime(2026, 11, 20, 8, 0, tzinfo=UTC)


def at(text: str) -> datetime:
    """The instant an as_of of that precision means: the last instant of the period."""
    return parse_partial(text).last_instant


def obs(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def fact(fact_id: int, value: str, valid_from: str | None, observed_at: datetime, *,
         valid_to: str | None = None, unit: str | None = "EU", attribute: str = "shoe_size",
         cardinality: str = "one", retracted: bool = False) -> TimelineFact:
    return TimelineFact(
        id=fact_id, subject="person/nick", attribute=attribute, value=value, unit=unit,
        cardinality=cardinality, valid_from=valid_from, valid_to=valid_to,
        observed_at=observed_at, last_confirmed_at=observed_at, recorded_at=observed_at,
        retracted=retracted)


def resolved(facts: list[TimelineFact], cardinality: str = "one") -> dict[int, TimelineFact]:
    """Resolve and apply; the facts by id, as the store would hold them afterwards."""
    return {f.id: f for f in apply(facts, resolve_timeline(facts, cardinality))}


def shoe_a() -> TimelineFact:
    return fact(1, "40", "2025", obs("2025-03-02T10:00:00Z"))


def shoe_b() -> TimelineFact:
    return fact(2, "41", "2026", obs("2026-10-15T09:12:00Z"))


# -- cardinality --------------------------------------------------------------------------------

def test_registry_many_and_one() -> None:
    for name in ("uses_tool", "speaks", "member_of", "aliases", "contributors", "depends_on"):
        assert registry_cardinality(name) == "many"
    assert len(MANY_ATTRIBUTES) == 19
    assert registry_cardinality("shoe_size") == "one"
    assert registry_cardinality("employer") == "one"


def test_decide_precedence() -> None:
    assert decide_cardinality(None, None, "uses_tool") == "many"
    assert decide_cardinality(None, None, "shoe_size") == "one"
    # the write beats the registry
    assert decide_cardinality(None, "one", "uses_tool") == "one"
    assert decide_cardinality(None, "many", "shoe_size") == "many"
    # stored beats both, and an agreeing write is fine
    assert decide_cardinality("one", None, "uses_tool") == "one"
    assert decide_cardinality("many", "many", "shoe_size") == "many"


def test_decide_mismatch_is_refused_with_422() -> None:
    with pytest.raises(CardinalityMismatch) as caught:
        decide_cardinality("one", "many", "shoe_size")
    err = caught.value
    assert isinstance(err, InvalidInput)
    assert err.code == "facts/cardinality-mismatch" and err.status == 422
    message = str(err)
    assert "shoe_size" in message and "'one'" in message and "'many'" in message
    assert "omit cardinality" in message
    copy = pickle.loads(pickle.dumps(err))
    assert (copy.attribute, copy.stored, copy.written) == ("shoe_size", "one", "many")


def test_decide_rejects_unknown_cardinality() -> None:
    with pytest.raises(InvalidInput, match="'one' or 'many'"):
        decide_cardinality(None, "several", "shoe_size")
    with pytest.raises(InvalidInput, match="'one' or 'many'"):
        resolve_timeline([], "several")


# -- the shoe-size example (§8) -----------------------------------------------------------------

def test_shoe_size_new_value_supersedes() -> None:
    facts = resolved([shoe_a(), shoe_b()])
    a, b = facts[1], facts[2]
    assert (a.status, a.effective_valid_to, a.superseded_by, a.supersedes) == (
        "superseded", "2026", 2, None)
    assert (b.status, b.effective_valid_to, b.superseded_by, b.supersedes) == (
        "current", None, None, 1)
    assert resolve_timeline([shoe_a(), shoe_b()], "one").disputes == ()
    assert current_at(list(facts.values()), at("2025"), "one") == (a,)
    assert current_at(list(facts.values()), TODAY, "one") == (b,)


def test_backfill_inserts_before_without_touching_current() -> None:
    before = resolved([shoe_a(), shoe_b()])
    old = fact(3, "39", "2024", TODAY)
    after = resolved([shoe_a(), shoe_b(), old])
    assert (after[3].status, after[3].effective_valid_to, after[3].superseded_by) == (
        "superseded", "2025", 1)
    assert after[1].supersedes == 3 and after[1].superseded_by == 2
    assert after[1].effective_valid_to == "2026"
    assert after[2] == before[2]  # the current 41 is untouched
    assert current_at(list(after.values()), at("2024-07"), "one") == (after[3],)


# -- disputes -----------------------------------------------------------------------------------

def test_rule4_same_start_different_values_are_disputed() -> None:
    facts = [fact(1, "40", "2025", obs("2025-03-02T00:00:00Z")),
             fact(2, "41", "2025-01", obs("2025-04-02T00:00:00Z"))]
    resolution = resolve_timeline(facts, "one")
    assert resolution.disputes == ((1, 2, "rule-4"),)
    assert {r.status for r in resolution.facts} == {"disputed"}
    after = apply(facts, resolution)
    assert current_at(after, at("2025-06"), "one") == tuple(after)


def test_rule6_stated_end_past_next_start_observed_after_is_disputed() -> None:
    b = fact(2, "41", "2026", obs("2026-02-01T00:00:00Z"))
    # observed after B, and says 40 held until 2027: it contradicts B
    a = fact(1, "40", "2025", obs("2026-05-01T00:00:00Z"), valid_to="2027")
    resolution = resolve_timeline([a, b], "one")
    assert resolution.disputes == ((1, 2, "rule-6"),)
    got = resolution.by_id()
    assert got[1].status == got[2].status == "disputed"
    # disputed over the overlap: the late observation's own end stands (issue 8 §2)
    assert (got[1].effective_valid_to, got[1].superseded_by) == ("2027", 2)
    decided = apply([a, b], resolution)
    both = current_at(decided, datetime(2026, 6, 1, tzinfo=UTC), "one")
    assert [f.value for f in both] == ["40", "41"]
    assert [f.value for f in current_at(decided, datetime(2025, 6, 1, tzinfo=UTC),
                                        "one")] == ["40"]
    assert [f.value for f in current_at(decided, datetime(2027, 6, 1, tzinfo=UTC),
                                        "one")] == ["41"]
    assert got[2].supersedes == 1


def test_rule6_mirror_observed_before_is_plain_supersession() -> None:
    a = fact(1, "40", "2025", obs("2025-03-01T00:00:00Z"), valid_to="2027")
    b = fact(2, "41", "2026", obs("2026-02-01T00:00:00Z"))
    resolution = resolve_timeline([a, b], "one")
    assert resolution.disputes == ()
    got = resolution.by_id()
    assert (got[1].status, got[1].effective_valid_to, got[1].superseded_by) == (
        "superseded", "2026", 2)
    assert got[2].status == "current"


def test_stated_end_before_next_start_is_kept() -> None:
    a = fact(1, "40", "2025", obs("2026-05-01T00:00:00Z"), valid_to="2025-06")
    b = fact(2, "41", "2026", obs("2026-02-01T00:00:00Z"))
    got = resolve_timeline([a, b], "one").by_id()
    assert (got[1].status, got[1].effective_valid_to) == ("superseded", "2025-06")
    after = resolved([a, b])
    assert current_at(list(after.values()), at("2025-09"), "one") == ()


def test_last_group_disputed_means_none_current() -> None:
    facts = [shoe_a(), fact(2, "41", "2026", obs("2026-01-01T00:00:00Z")),
             fact(3, "42", "2026", obs("2026-02-01T00:00:00Z"))]
    got = resolve_timeline(facts, "one").by_id()
    assert got[1].status == "superseded" and got[1].superseded_by == 2
    assert got[2].status == got[3].status == "disputed"
    assert got[2].supersedes == got[3].supersedes == 1


def test_same_start_same_value_chains_without_dispute() -> None:
    first = fact(1, "40", "2025", obs("2025-03-01T00:00:00Z"))
    again = fact(2, "40", "2025-01", obs("2025-05-01T00:00:00Z"))
    resolution = resolve_timeline([again, first], "one")
    assert resolution.disputes == ()
    got = resolution.by_id()
    assert (got[1].status, got[1].effective_valid_to, got[1].superseded_by) == (
        "superseded", "2025-01", 2)
    assert (got[2].status, got[2].supersedes) == ("current", 1)


# -- retraction ---------------------------------------------------------------------------------

def test_retracting_the_newer_value_makes_the_old_one_current_again() -> None:
    facts = list(resolved([shoe_a(), shoe_b()]).values())
    facts = [f if f.id != 2 else _retract(f) for f in facts]
    got = resolved(facts)
    assert (got[1].status, got[1].effective_valid_to, got[1].superseded_by) == (
        "current", None, None)
    assert (got[2].status, got[2].effective_valid_to, got[2].supersedes) == (
        "retracted", None, None)
    assert current_at(list(got.values()), TODAY, "one") == (got[1],)
    assert [f.id for f in history_order(got.values())] == [2, 1]


def _retract(f: TimelineFact) -> TimelineFact:
    return TimelineFact(**{**f.__dict__, "retracted": True})


# -- many ---------------------------------------------------------------------------------------

def tool(fact_id: int, value: str, valid_from: str, *, valid_to: str | None = None,
         observed: str = "2025-07-01T00:00:00Z", retracted: bool = False) -> TimelineFact:
    return fact(fact_id, value, valid_from, obs(observed), valid_to=valid_to, unit=None,
                attribute="uses_tool", cardinality="many", retracted=retracted)


def test_many_values_accumulate() -> None:
    got = resolved([tool(1, "ripgrep", "2024"), tool(2, "jj", "2025")], "many")
    assert got[1].status == got[2].status == "current"
    assert got[1].effective_valid_to is None and got[1].superseded_by is None
    assert current_at(list(got.values()), at("2025-06"), "many") == (got[1], got[2])
    assert current_at(list(got.values()), at("2024-06"), "many") == (got[1],)


def test_many_value_ends_only_by_its_own_valid_to() -> None:
    got = resolved([tool(1, "ripgrep", "2024", valid_to="2025"), tool(2, "jj", "2025")], "many")
    assert got[1].effective_valid_to == "2025" and got[1].status == "current"
    assert current_at(list(got.values()), at("2025-06"), "many") == (got[2],)


def test_many_never_disputes_between_values() -> None:
    facts = [tool(1, "ripgrep", "2025"), tool(2, "jj", "2025"),
             tool(3, "fd", "2024", valid_to="2027", observed="2026-01-01T00:00:00Z")]
    resolution = resolve_timeline(facts, "many")
    assert resolution.disputes == ()
    assert {r.status for r in resolution.facts} == {"current"}


def test_many_same_value_restated_later_is_one_value_timeline() -> None:
    facts = [tool(1, "ripgrep", "2024", valid_to="2025"), tool(2, "ripgrep", "2026"),
             tool(3, "jj", "2024")]
    got = resolved(facts, "many")
    assert (got[1].status, got[1].effective_valid_to, got[1].superseded_by) == (
        "superseded", "2025", 2)
    assert got[3].status == "current" and got[3].supersedes is None
    assert current_at(list(got.values()), at("2026-03"), "many") == (got[3], got[2])


# -- corroboration ------------------------------------------------------------------------------

def test_corroboration_inside_current_and_superseded_ranges() -> None:
    facts = list(resolved([shoe_a(), shoe_b()]).values())
    assert corroborated_by("41", "EU", "2027", TODAY, facts, "one").id == 2
    # inside the superseded fact's own range: 40 did hold in mid-2025
    assert corroborated_by("40", "EU", "2025-06", TODAY, facts, "one").id == 1
    # 40 from 2026-03 is news: A ended where B began
    assert corroborated_by("40", "EU", "2026-03", TODAY, facts, "one") is None
    # the unit is part of the value
    assert corroborated_by("41", "US", "2027", TODAY, facts, "one") is None
    # before anything started
    assert corroborated_by("40", "EU", "2024", TODAY, facts, "one") is None


def test_corroboration_without_valid_from_uses_observed_at() -> None:
    facts = list(resolved([shoe_a(), shoe_b()]).values())
    assert corroborated_by("40", "EU", None, obs("2025-08-01T00:00:00Z"), facts, "one").id == 1
    assert corroborated_by("40", "EU", None, TODAY, facts, "one") is None


def test_corroboration_never_by_a_retracted_fact() -> None:
    facts = list(resolved([shoe_a(), shoe_b()]).values())
    facts = [f if f.id != 2 else _retract(f) for f in facts]
    facts = list(resolved(facts).values())
    assert corroborated_by("41", "EU", "2027", TODAY, facts, "one") is None
    assert corroborated_by("40", "EU", "2027", TODAY, facts, "one").id == 1


def test_corroboration_picks_newest_observation() -> None:
    old = tool(1, "jj", "2024", observed="2024-02-01T00:00:00Z")
    new = tool(2, "jj", "2024-06", observed="2024-07-01T00:00:00Z")
    # stored ranges as given (unresolved): both open, so both contain 2025
    assert corroborated_by("jj", None, "2025", TODAY, [new, old], "many").id == 2
    assert corroborated_by("jj", None, "2025", TODAY, [old, new], "many").id == 2


# -- current_at at each precision ---------------------------------------------------------------

@pytest.mark.parametrize(("as_of", "expected"), [
    ("2025", 1), ("2026", 2),
    ("2025-12", 1), ("2026-01", 2),
    ("2025-12-31", 1), ("2026-01-01", 2),
    ("2025-12-31T23:59:59Z", 1), ("2026-01-01T00:00:00Z", 2), ("2026-01-01T01:00:00+02:00", 1),
])
def test_current_at_each_precision(as_of: str, expected: int) -> None:
    facts = list(resolved([shoe_a(), shoe_b()]).values())
    assert [f.id for f in current_at(facts, at(as_of), "one")] == [expected]


def test_current_at_before_everything_is_empty_and_needs_aware_instant() -> None:
    facts = list(resolved([shoe_a(), shoe_b()]).values())
    assert current_at(facts, at("2024"), "one") == ()
    with pytest.raises(InvalidInput, match="timezone"):
        current_at(facts, datetime(2025, 6, 1), "one")


def test_current_at_two_overlapping_newer_observation_wins() -> None:
    # Stored state as given, not resolved: two undisputed facts overlap.
    a = fact(1, "40", "2025", obs("2025-03-02T00:00:00Z"))
    b = fact(2, "41", "2025-06", obs("2025-01-01T00:00:00Z"))
    assert current_at([a, b], at("2025-09"), "one") == (a,)


# -- facts with no valid_from -------------------------------------------------------------------

def test_no_valid_from_orders_by_observed_at() -> None:
    undated = fact(3, "42", None, obs("2027-04-05T06:07:08.250000Z"))
    assert sort_start(undated) == obs("2027-04-05T06:07:08.250000Z")
    got = resolved([shoe_a(), shoe_b(), undated])
    assert got[2].effective_valid_to == "2027-04-05T06:07:08.250000Z"
    assert end_instant(got[2]) == sort_start(undated)
    assert (got[2].status, got[2].superseded_by) == ("superseded", 3)
    assert got[3].status == "current" and got[3].supersedes == 2
    assert current_at(list(got.values()), at("2027-04-05T06:07:08Z"), "one") == (got[2],)
    assert current_at(list(got.values()), at("2027-04-05T06:07:09Z"), "one") == (got[3],)


def test_rfc3339_is_utc_z() -> None:
    assert rfc3339(datetime(2026, 10, 15, 11, 12, tzinfo=UTC)) == (
        "2026-10-15T11:12:00Z")
    assert rfc3339(obs("2026-10-15T11:12:00+02:00")) == "2026-10-15T09:12:00Z"


def test_valid_at_is_half_open() -> None:
    a = resolved([shoe_a(), shoe_b()])[1]
    assert valid_at(a, parse_partial("2025").start)
    assert not valid_at(a, parse_partial("2026").start)
    assert not valid_at(a, at("2024"))


# -- determinism and input checks ---------------------------------------------------------------

def test_history_order_newest_start_then_observation() -> None:
    facts = [shoe_a(), shoe_b(), fact(3, "39", "2024", TODAY),
             fact(4, "41", "2026", obs("2026-11-01T00:00:00Z"), retracted=True)]
    assert [f.id for f in history_order(facts)] == [4, 2, 1, 3]


def test_resolution_is_sorted_and_stable() -> None:
    facts = [shoe_b(), fact(3, "39", "2024", TODAY), shoe_a()]
    resolution = resolve_timeline(facts, "one")
    assert [r.id for r in resolution.facts] == [1, 2, 3]
    assert resolution == resolve_timeline(list(reversed(facts)), "one")


def test_resolve_refuses_mixed_keys_and_duplicate_ids() -> None:
    with pytest.raises(InvalidInput, match="one subject"):
        resolve_timeline([shoe_a(), tool(2, "jj", "2024")], "one")
    with pytest.raises(InvalidInput, match="same fact id"):
        resolve_timeline([shoe_a(), shoe_a()], "one")


def test_apply_leaves_unmentioned_facts_alone() -> None:
    a, b = shoe_a(), shoe_b()
    only_b = resolve_timeline([b], "one")
    out = apply([a, b], only_b)
    assert out[0] is a and out[1].status == "current"


# -- properties ---------------------------------------------------------------------------------

VALUES = ("40", "41", "42")


@st.composite
def partial(draw: st.DrawFn, low: int = 2020, high: int = 2025) -> str:
    year = draw(st.integers(low, high))
    if draw(st.booleans()):
        return f"{year}"
    return f"{year}-{draw(st.integers(1, 12)):02d}"


@st.composite
def timeline(draw: st.DrawFn) -> list[TimelineFact]:
    """A key's facts: small random years/months, few values, retractions, stated ends."""
    count = draw(st.integers(0, 8))
    ids = draw(st.lists(st.integers(1, 1000), min_size=count, max_size=count, unique=True))
    facts = []
    for fact_id in ids:
        valid_from = draw(st.none() | partial())
        valid_to = None
        if draw(st.booleans()):
            low = int(valid_from[:4]) + 1 if valid_from else 2021
            valid_to = draw(partial(low, low + 3))
        observed = datetime(2020, 1, 1, tzinfo=UTC) + timedelta(
            days=draw(st.integers(0, 365 * 7)), hours=draw(st.sampled_from([0, 0, 12])))
        facts.append(TimelineFact(
            id=fact_id, subject="person/nick", attribute="shoe_size",
            value=draw(st.sampled_from(VALUES)), unit=draw(st.sampled_from(["EU", "EU", None])),
            cardinality="one", valid_from=valid_from, valid_to=valid_to, observed_at=observed,
            last_confirmed_at=observed, recorded_at=observed, retracted=draw(st.booleans())
            and draw(st.booleans())))
    return facts


def instants() -> st.SearchStrategy[datetime]:
    return st.builds(lambda d, h: datetime(2019, 6, 1, tzinfo=UTC) + timedelta(days=d, hours=h),
                     st.integers(0, 365 * 9), st.integers(0, 23))


@settings(max_examples=300, deadline=None)
@given(timeline(), st.randoms(use_true_random=False), st.sampled_from(["one", "many"]))
def test_property_order_independent(facts: list[TimelineFact], rnd: random.Random,
                                    cardinality: str) -> None:
    expected = resolve_timeline(facts, cardinality)
    shuffled = list(facts)
    rnd.shuffle(shuffled)
    assert resolve_timeline(shuffled, cardinality) == expected


@settings(max_examples=300, deadline=None)
@given(timeline(), st.lists(instants(), min_size=1, max_size=25))
def test_property_one_value_at_a_time_unless_disputed(facts: list[TimelineFact],
                                                      moments: list[datetime]) -> None:
    after = apply(facts, resolve_timeline(facts, "one"))
    for moment in moments:
        answer = current_at(after, moment, "one")
        assert len(answer) <= 1 or all(f.status == "disputed" for f in answer)
        # Stronger: the resolved ranges themselves never overlap unless all are disputed.
        valid = [f for f in after if not f.retracted and valid_at(f, moment)]
        assert len(valid) <= 1 or all(f.status == "disputed" for f in valid)


@settings(max_examples=300, deadline=None)
@given(timeline(), st.sampled_from(["one", "many"]))
def test_property_never_drops_a_fact(facts: list[TimelineFact], cardinality: str) -> None:
    resolution = resolve_timeline(facts, cardinality)
    assert isinstance(resolution, Resolution)
    assert sorted(r.id for r in resolution.facts) == sorted(f.id for f in facts)
    assert len(apply(facts, resolution)) == len(facts)
    assert len(history_order(facts)) == len(facts)
    statuses = {r.id: r.status for r in resolution.facts}
    for f in facts:
        assert (statuses[f.id] == "retracted") == f.retracted
    if cardinality == "many":
        assert resolution.disputes == ()


def test_a_restatement_ended_by_the_next_in_its_chain_outlives_nothing():
    """Found by the one-value property: eight facts of one start, one of them stating an end
    past the next value's start. It is ended by the restatement after it, so it disputes
    nothing, and one value holds at a time."""
    seen = datetime(2020, 1, 1, tzinfo=UTC)

    def fact(fact_id: int, value: str, valid_from: str | None = None,
             valid_to: str | None = None) -> TimelineFact:
        return TimelineFact(id=fact_id, subject="person/nick", attribute="shoe_size",
                            value=value, unit="EU", cardinality="one", valid_from=valid_from,
                            valid_to=valid_to, observed_at=seen, last_confirmed_at=seen,
                            recorded_at=seen)

    facts = [fact(1, "41", "2021"), fact(2, "40"), fact(3, "40"), fact(4, "40", None, "2021-02"),
             *(fact(n, "40") for n in range(5, 9))]
    after = {f.id: f for f in apply(facts, resolve_timeline(facts, "one"))}
    assert after[4].status == "superseded" and after[4].superseded_by == 5
    assert after[1].status == "current" and after[8].effective_valid_to == "2021"
    for moment in (datetime(2020, 6, 1, tzinfo=UTC), datetime(2021, 1, 15, tzinfo=UTC)):
        assert len([f for f in after.values() if valid_at(f, moment)]) == 1
