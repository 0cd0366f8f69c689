"""Timelines are a function of the set of observations (issue 8 §1), tested through the Store.

Every arrival order of the same observations (writes, repeats, retractions) must read the
same at every instant: the values, whether they are disputed, and the line. Each order is
written to its own subject of one store, so the orders are compared side by side.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

T0 = datetime(2026, 1, 1, tzinfo=UTC)
ATTRIBUTE = "team_size"


def _obs(value: str, valid_from: str | None, day: int, **extra) -> dict:
    return {"attribute": ATTRIBUTE, "value": value, "valid_from": valid_from,
            "observed_at": (T0 + timedelta(days=day)).isoformat().replace("+00:00", "Z"),
            **extra}


def _write(store, subject: str, obs: dict):
    fact = {k: v for k, v in {**obs, "subject": subject}.items() if v is not None}
    return store.write_facts({"format": 1, "facts": [fact]}).facts[0]


INSTANTS = ("2018", "2019", "2019-03", "2019-06", "2019-09", "2020", "2020-06", "2021",
            "2022", "2023-06", "2025")


def _signature(store, subject: str) -> list[tuple]:
    """What a reader sees at each instant: the values, disputed or not, and the line."""
    out = []
    for label in INSTANTS:
        answer = store.facts(subject, ATTRIBUTE, as_of=label)
        if not answer.keys:
            out.append((label, None))
            continue
        key = answer.keys[0]
        values = sorted((f.value_key, f.status == "disputed") for f in key.current)
        out.append((label, tuple(values), key.line.replace(subject, "S")))
    return out


def test_the_issue_repro_in_every_order(store):
    """6 from 2019; 6 from 2020 (a corroboration); 3 from 2019-06: as of 2021 the answer is 6,
    whatever order the three arrive in."""
    observations = [_obs("6", "2019", 1), _obs("6", "2020", 2), _obs("3", "2019-06", 3)]
    signatures = []
    for n, order in enumerate(itertools.permutations(range(3))):
        subject = f"person/repro-{n}"
        for i in order:
            _write(store, subject, observations[i])
        answer = store.facts(subject, ATTRIBUTE, as_of="2021")
        assert [f.value for f in answer.keys[0].current] == ["6"], order
        signatures.append(_signature(store, subject))
    assert all(s == signatures[0] for s in signatures)


def test_a_corroboration_is_kept_and_becomes_a_fact_when_its_fact_stops_holding_it(store):
    first = _write(store, "person/kept", _obs("6", "2019", 1))
    repeat = _write(store, "person/kept", _obs("6", "2020", 2))
    assert (repeat.outcome, repeat.id) == ("corroborated", first.id)
    assert store.row_counts()["facts"] == 1
    _write(store, "person/kept", _obs("3", "2019-06", 3))
    answer = store.facts("person/kept", ATTRIBUTE, as_of="2021")
    (current,) = answer.keys[0].current
    assert (current.value, current.valid_from) == ("6", "2020") and current.id != first.id
    history = store.history(current.id)
    assert history[0].reason.startswith("promoted: observation")


def test_retracting_a_fact_leaves_what_others_observed(store):
    first = _write(store, "person/r", _obs("6", "2019", 1))
    _write(store, "person/r", _obs("6", "2020", 2))  # kept on the first as a corroboration
    store.retract(first.id, reason="2019 was wrong")
    answer = store.facts("person/r", ATTRIBUTE, as_of="2021")
    assert [(f.value, f.valid_from) for f in answer.keys[0].current] == [("6", "2020")]
    assert store.facts("person/r", ATTRIBUTE, as_of="2019-06").keys[0].current == ()


def test_a_repeat_with_an_end_is_news_not_a_corroboration(store):
    _write(store, "person/end", _obs("6", "2019", 1))
    ended = _write(store, "person/end", _obs("6", "2019", 2, valid_to="2021"))
    assert ended.outcome == "created"
    assert [f.value for f in store.facts("person/end", ATTRIBUTE,
                                         as_of="2020").keys[0].current] == ["6"]
    assert store.facts("person/end", ATTRIBUTE, as_of="2022").keys[0].current == ()


def test_one_value_observed_twice_reads_as_one_stretch_in_either_order(store):
    a, b = _obs("6", "2019", 5), _obs("6", "2020", 2)
    _write(store, "person/ab", a)
    _write(store, "person/ab", b)
    _write(store, "person/ba", b)
    _write(store, "person/ba", a)
    lines = [store.facts(s, ATTRIBUTE, as_of="2021").keys[0].line.replace(s, "S")
             for s in ("person/ab", "person/ba")]
    assert lines[0] == lines[1] == "team_size(S) = 6 [valid 2019..now, observed 2026-01-03]"


def test_rerunning_a_backfill_writes_nothing(store):
    facts = []
    for n in range(40):
        for j, (value, start) in enumerate((("3", "2019"), ("4", "2019-06"), ("3", "2020"),
                                             ("4", "2020"), ("5", "2021"), ("5", "2021-06"))):
            facts.append({"subject": f"person/b{n % 7}", "attribute": ATTRIBUTE,
                          "value": value, "valid_from": start,
                          "observed_at": f"2026-01-{1 + (n + j) % 27:02d}T00:00:00Z",
                          "source": f"archive:{n}:{j}"})
    store.backfill_facts(facts)
    first = store.row_counts()
    again = store.backfill_facts(facts)
    assert (again.created, again.corroborated) == (0, 0) and again.unchanged == len(facts)
    assert store.row_counts() == first
    # and a backfill in another order ends on the same timelines as the first
    store.backfill_facts([{**f, "subject": f["subject"].replace("/b", "/c")}
                          for f in reversed(facts)])
    for n in range(7):
        assert _signature(store, f"person/b{n}") == _signature(store, f"person/c{n}")


def test_resending_a_write_is_unchanged(store):
    obs = {"subject": "person/twice", **_obs("6", "2019", 1)}
    payload = {"format": 1, "facts": [{k: v for k, v in obs.items() if v is not None}]}
    store.write_facts(payload)
    counts = store.row_counts()
    assert store.write_facts(payload).facts[0].outcome == "unchanged"
    assert store.row_counts() == counts


# -- the property: any order of writes and retractions, one timeline ------------------------

_VALUES = st.sampled_from(["3", "4", "6", "three"])  # "three" is "3" (values compare)
_STARTS = st.sampled_from(["2019", "2019-06", "2020", "2020-06", "2021", None])
_EXAMPLES = itertools.count()
_OBSERVATIONS = st.lists(st.tuples(_VALUES, _STARTS, st.booleans()), min_size=2, max_size=6)


@hsettings(max_examples=20, deadline=None,
           suppress_health_check=[HealthCheck.function_scoped_fixture,
                                  HealthCheck.too_slow])
@given(observations=_OBSERVATIONS, data=st.data())
def test_any_arrival_order_reads_the_same(store, observations, data):
    """Writes in four orders, with retractions of values only one observation says (so the
    retracted fact exists in every order), read the same at every instant."""
    obs = [_obs(v, start, day=i + 1, **({"valid_to": "2022"} if ended and start else {}))
           for i, (v, start, ended) in enumerate(observations)]
    by_value: dict[str, list[int]] = {}
    for i, o in enumerate(obs):
        by_value.setdefault(o["value"].replace("three", "3"), []).append(i)
    retractable = [ix[0] for ix in by_value.values() if len(ix) == 1]
    retract = set(data.draw(st.lists(st.sampled_from(retractable), unique=True, max_size=1))
                  if retractable else [])
    orders = [list(range(len(obs))), list(reversed(range(len(obs))))]
    orders += [data.draw(st.permutations(range(len(obs)))) for _ in range(2)]
    token = next(_EXAMPLES)  # examples share the store: each gets subjects of its own
    signatures = []
    for n, order in enumerate(orders):
        subject = f"person/o{token}-{n}"
        ids: dict[int, int] = {}
        pending = list(order)
        for step, i in enumerate(pending):
            ids[i] = _write(store, subject, obs[i]).id
            # retract right after its write in one order, at the end in the others
            if i in retract and n % 2 == 0:
                store.retract(ids[i], reason="property test")
            if step == len(pending) - 1 and n % 2 == 1:
                for r in retract:
                    store.retract(ids[r], reason="property test")
        signatures.append(_signature(store, subject))
    assert all(s == signatures[0] for s in signatures), (observations, retract, orders)


@pytest.mark.parametrize("attribute", ["'); DROP TABLE facts;--", "%s", "Shoe Size", "  ", ""])
def test_an_attribute_that_is_not_an_identifier_is_refused(store, attribute):
    from factstore.timelines.format_v1 import FactsValidationError

    with pytest.raises(FactsValidationError, match=r"facts\[0\]\.attribute"):
        store.write_facts({"format": 1, "facts": [{"subject": "person/x", "attribute": attribute,
                                                   "value": "1"}]})
    assert store.row_counts()["facts"] == 0


def test_a_backfill_recovered_after_a_crash_ends_where_a_clean_one_does(store):
    def chunks(prefix: str) -> list[list[dict]]:
        facts = []
        for n in range(12):
            for j, (value, start) in enumerate((("3", "2019"), ("4", "2019-06"), ("3", "2020"),
                                                 ("5", "2021"))):
                facts.append({"subject": f"person/{prefix}{n % 4}", "attribute": ATTRIBUTE,
                              "value": value, "valid_from": start,
                              "observed_at": f"2026-01-{1 + (n * 3 + j) % 27:02d}T00:00:00Z",
                              "source": f"archive:{n}:{j}"})
        return [facts[i:i + 8] for i in range(0, len(facts), 8)]

    for chunk in chunks("clean"):
        store.backfill_facts(chunk)
    recovered = chunks("crash")
    for chunk in recovered[:3]:  # the run that crashed after three chunks had committed
        store.backfill_facts(chunk)
    for chunk in recovered:  # the recovery re-runs the whole archive
        store.backfill_facts(chunk)
    for n in range(4):
        clean = store.facts(f"person/clean{n}", ATTRIBUTE).keys[0]
        crash = store.facts(f"person/crash{n}", ATTRIBUTE).keys[0]
        assert len(clean.history) == len(crash.history)
        assert _signature(store, f"person/clean{n}") == _signature(store, f"person/crash{n}")
