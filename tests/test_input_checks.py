"""Every Store method checks its arguments at the boundary: a bad one is an InvalidInput that
names the field and the limit, raised before anything is written (the shapes that once
escaped as psycopg or Python errors, one test each)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from factstore.backfill import FactRecord
from factstore.errors import InvalidInput
from factstore.inputs import check_id, check_instant, check_json, check_text, show
from factstore.lifetimes import parse_lifetime
from factstore.timelines.dates import as_of_instant, parse_partial

# --- the pure checks -------------------------------------------------------------------------


@pytest.mark.parametrize("value, says", [
    (b"x", "got bytes: decode it first"), (3, "must be text (str), got int"),
    ("a\x00", "NUL character"), ("\udcff", "lone surrogate at position 0"),
    ("x" * 11, "is 11 characters; the limit is 10"), ("  ", "must not be blank"),
])
def test_check_text_names_what_is_wrong(value: object, says: str) -> None:
    with pytest.raises(InvalidInput, match="^field ") as raised:
        check_text("field", value, limit=10)
    assert says in str(raised.value)


@pytest.mark.parametrize("value", [0, -1, 2**63, "1x", 1.0, True, None])
def test_check_id_refuses_what_is_not_a_bigint_id(value: object) -> None:
    with pytest.raises(InvalidInput, match="conflict_id must be"):
        check_id("conflict_id", value)


@pytest.mark.parametrize("value", [
    datetime(9999, 12, 31, 23, tzinfo=UTC), "9999-12-31T23:59:59-01:00",
    datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=1))), "0001-06-01T00:00:00Z",
])
def test_instants_at_the_calendar_edges_are_refused(value: object) -> None:
    with pytest.raises(InvalidInput, match="outside the years the store keeps"):
        check_instant("said_at", value)


def test_partial_dates_and_as_of_at_the_edges_are_refused() -> None:
    for text in ("9999", "9999-12", "9999-12-31", "0001-01-01T00:00:00+01:00"):
        with pytest.raises(InvalidInput, match="outside the years"):
            parse_partial(text)
    with pytest.raises(InvalidInput, match="outside the years"):
        as_of_instant("9999-12-31", datetime.now(UTC))
    with pytest.raises(InvalidInput, match="as_of must be"):
        as_of_instant(["2025"], datetime.now(UTC))  # type: ignore[arg-type]


def test_show_never_recurses_or_prints_huge_numbers() -> None:
    deep: object = 1
    for _ in range(10_000):
        deep = [deep]
    assert show(deep) == "a list of 1 item(s)"
    assert show(10 ** 5000).startswith("an integer of")


def test_check_json_bounds_depth_numbers_and_strings() -> None:
    deep: object = {}
    for _ in range(40):
        deep = {"k": deep}
    for value, says in ((deep, "deeper than 32"), ({"n": 2**70}, "too large"),
                        ({"s": "a\x00"}, "NUL"), ({"f": float("nan")}, "non-finite")):
        with pytest.raises(InvalidInput, match=says):
            check_json("meta", value)


@pytest.mark.parametrize("text", ["99999999999d", "1" + "0" * 400 + "d", "200000w"])
def test_an_overflowing_lifetime_is_refused(text: str) -> None:
    with pytest.raises(InvalidInput, match="longer than 36525 days"):
        parse_lifetime(text)


# --- through the Store -------------------------------------------------------------------------


@pytest.mark.parametrize("call, says", [
    (lambda s: s.conflict("1x"), "conflict_id must be an integer id"),
    (lambda s: s.conflict(2**64), "conflict_id must be an id from 1 to"),
    (lambda s: s.update_open_question("1x", note="n"), "question_id must be an integer id"),
    (lambda s: s.facts_by_verdict("bogus"), "verdict must be one of"),
    (lambda s: s.facts_by_verdict(limit=-1), "limit must be an integer from 1"),
    (lambda s: s.facts_by_verdict(limit="5x"), "limit must be an integer from 1"),
    (lambda s: s.facts_by_verdict(kind=3), "kind must be text"),
    (lambda s: s.registry_query("ops\x00"), "topic contains a NUL"),
    (lambda s: s.registry_propose_root("sk-proj-" + "Zx8Yw7Vu6Ts5Rq4Po3Nm2Lk1Ji0Hg9Fe"),
     "looks like a secret"),
    (lambda s: s.resolve_both_stand(1, "why\x00"), "reasoning contains a NUL"),
    (lambda s: s.add_open_question("t\udcff", "b", risk="low", cost="low"), "lone surrogate"),
    (lambda s: s.add_open_question("t", "b", risk=["low"], cost="low"), "risk must be one of"),
    (lambda s: s.retract(1, reason="r" * 20_001), "reason is 20,001 characters"),
    (lambda s: s.facts(as_of="9999-12-31"), "outside the years"),
    (lambda s: s.brief("where do I live?", as_of="9999"), "outside the years"),
    (lambda s: s.facts("me", limit=0), "limit must be an integer from 1 to 500"),
    (lambda s: s.backfill_facts("x" * 100), "takes a list of format v1 fact objects"),
    (lambda s: s.backfill_facts([{}], shared="yes"), "shared must be true or false"),
    (lambda s: s.write_facts({"format": 1, "facts": []}, user="u\x00"), "user contains a NUL"),
    (lambda s: s.recall("q", now="9999-12-31T23:59:59-01:00"), "outside the years"),
    (lambda s: s.import_facts("records"), "takes a list of FactRecord"),
    (lambda s: s.import_facts([FactRecord("s", "REFERENCE", "q", source_ref="é" * 1500)]),
     "records[0].source_ref: source_ref is 3,000 bytes"),
    (lambda s: s.import_facts([FactRecord("s", "REFERENCE", "q", meta={"x": [[[[]]]] * 2,
                                                                       "n": 2**80})]),
     "records[0].meta"),
    (lambda s: s.import_facts(["not a record"]), "records[0]: must be a FactRecord"),
    (lambda s: s.scan_for("needle"), "needles must be a list"),
    (lambda s: s.density_probe("STATE", [1.0, 2.0]), "a probe vector must be 384"),
])
def test_bad_arguments_are_named_and_nothing_is_written(store, call, says: str) -> None:
    before = store.row_counts()
    with pytest.raises(InvalidInput) as raised:
        call(store)
    assert says in str(raised.value)
    assert store.row_counts() == before


def test_a_tiny_confidence_is_stored_not_underflowed(store) -> None:
    # confidence was a float4 column: 1e-50 underflowed in Postgres
    written = store.write_facts({"format": 1, "facts": [
        {"subject": "me", "attribute": "city", "value": "Paris", "source": "chat:1",
         "confidence": 1e-50, "observed_at": "2026-01-01T00:00:00Z"}]})
    assert written.facts[0].fact.confidence == pytest.approx(1e-50)
