"""Recall serving labels (seed 000 §5): pure functions over Fact records, no database."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factstore.kinds import Kind, Verdict
from factstore.labels import DOCUMENT_LABEL, answering_layer, is_stale, label_fact, state_lifetime
from factstore.results import Fact

NOW = datetime(2025, 3, 20, 12, 0, tzinfo=UTC)
WEEK = timedelta(days=7)


def make_fact(kind: Kind = Kind.STATE, verdict: Verdict = Verdict.ACTIVE, *,
              verified: datetime = NOW, tags: tuple[str, ...] = (),
              expected_lifetime: timedelta | None = None, fact_id: int = 1) -> Fact:
    return Fact(
        id=fact_id, statement="sample-svc is green.", kind=kind, tags=tags, verdict=verdict,
        evidence_quote="sample-svc is green right now", evidence_source_type="utterance",
        evidence_source_ref=None, evidence_captured_by="gpt-4o", document_id=None,
        t_said=None, t_captured=verified, t_last_verified=verified, t_superseded=None,
        supersedes=None, superseded_by=None, expected_lifetime=expected_lifetime,
    )


def label(fact: Fact, **kw):
    kw.setdefault("now", NOW)
    kw.setdefault("tag_lifetimes", {})
    kw.setdefault("default_lifetime", WEEK)
    return label_fact(fact, **kw)


# --------------------------------------------------------------------------- label_fact


def test_fresh_active_state_is_present_tense():
    lab = label(make_fact(verified=NOW - timedelta(days=1)))
    assert lab.code == "active"
    assert lab.present_tense is True


@pytest.mark.parametrize("kind", [Kind.DECISION, Kind.RULE, Kind.PREFERENCE, Kind.REFERENCE,
                                  Kind.RESIDUAL])
def test_non_state_kinds_never_go_stale(kind):
    lab = label(make_fact(kind, verified=NOW - timedelta(days=3650)))
    assert lab.code == "active"
    assert lab.present_tense is True


def test_expired_state_is_last_known_with_its_date():
    verified = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)
    lab = label(make_fact(verified=verified))
    assert lab.code == "stale-state"
    assert lab.present_tense is False
    assert "last known as of 2025-03-01" in lab.text
    assert "do not serve as live" in lab.text
    assert "7d from default" in lab.text


def test_staleness_uses_the_fact_hint():
    fact = make_fact(verified=NOW - timedelta(days=3), expected_lifetime=timedelta(days=2))
    lab = label(fact)
    assert lab.code == "stale-state"
    assert "2d from fact" in lab.text


def test_staleness_boundary_is_exclusive():
    assert label(make_fact(verified=NOW - WEEK)).code == "active"
    assert label(make_fact(verified=NOW - WEEK - timedelta(seconds=1))).code == "stale-state"


def test_staleness_reports_hours_for_sub_day_lifetimes():
    fact = make_fact(verified=NOW - timedelta(hours=13), expected_lifetime=timedelta(hours=12))
    assert "12h from fact" in label(fact).text


@pytest.mark.parametrize("age", [timedelta(0), timedelta(days=400)])
def test_event_is_never_present_tense(age):
    lab = label(make_fact(Kind.EVENT, verified=NOW - age))
    assert lab.code == "event"
    assert lab.present_tense is False
    assert "makes no claim about the present" in lab.text


def test_contested_names_its_partners_and_is_not_present_tense():
    lab = label(make_fact(verdict=Verdict.CONTESTED), partner_ids=[7, 12])
    assert lab.code == "contested"
    assert lab.present_tense is False
    assert "#7, #12" in lab.text
    assert "does not choose" in lab.text


def test_contested_without_known_partner_still_says_so():
    lab = label(make_fact(verdict=Verdict.CONTESTED))
    assert "its partner" in lab.text


def test_contested_wins_over_staleness_and_event():
    stale = make_fact(verdict=Verdict.CONTESTED, verified=NOW - timedelta(days=60))
    assert label(stale, partner_ids=[3]).code == "contested"
    assert label(make_fact(Kind.EVENT, Verdict.CONTESTED), partner_ids=[3]).code == "contested"


def test_parked_is_flagged():
    lab = label(make_fact(Kind.DECISION, Verdict.PARKED))
    assert lab.code == "parked"
    assert lab.present_tense is False
    assert "set aside" in lab.text and "not an active claim" in lab.text


@pytest.mark.parametrize("verdict", [Verdict.SUPERSEDED, Verdict.WITHDRAWN])
def test_never_served_verdicts_raise(verdict):
    with pytest.raises(ValueError, match="never served"):
        label(make_fact(verdict=verdict, fact_id=42))


def test_document_label_is_not_present_tense():
    assert DOCUMENT_LABEL.code == "document"
    assert DOCUMENT_LABEL.present_tense is False
    assert "unverified document content" in DOCUMENT_LABEL.text


@given(st.sampled_from(list(Kind)), st.sampled_from([Verdict.ACTIVE, Verdict.CONTESTED,
                                                     Verdict.PARKED]),
       st.integers(0, 10_000))
def test_only_active_fresh_non_events_are_present_tense(kind, verdict, age_hours):
    fact = make_fact(kind, verdict, verified=NOW - timedelta(hours=age_hours))
    lab = label(fact, partner_ids=[9])
    expect = (verdict is Verdict.ACTIVE and kind is not Kind.EVENT
              and not (kind is Kind.STATE and timedelta(hours=age_hours) > WEEK))
    assert lab.present_tense is expect


# --------------------------------------------------------------------------- state_lifetime


def test_fact_hint_beats_tag_defaults():
    fact = make_fact(tags=("infra.ci",), expected_lifetime=timedelta(days=30))
    assert state_lifetime(fact, {"infra.ci": timedelta(hours=1)}, WEEK) == (
        timedelta(days=30), "fact")


def test_shortest_tag_default_wins():
    fact = make_fact(tags=("infra.ci", "infra.runner", "untimed"))
    lifetimes = {"infra.ci": timedelta(days=3), "infra.runner": timedelta(hours=6),
                 "other": timedelta(minutes=1)}
    assert state_lifetime(fact, lifetimes, WEEK) == (timedelta(hours=6), "tag")


def test_global_default_when_nothing_else_applies():
    fact = make_fact(tags=("untimed",))
    assert state_lifetime(fact, {"other": timedelta(hours=1)}, WEEK) == (WEEK, "default")


def test_tag_default_drives_staleness_and_label():
    fact = make_fact(tags=("infra.ci",), verified=NOW - timedelta(hours=7))
    lifetimes = {"infra.ci": timedelta(hours=6)}
    assert is_stale(fact, NOW, lifetimes, WEEK) is True
    assert is_stale(fact, NOW, {}, WEEK) is False
    lab = label(fact, tag_lifetimes=lifetimes)
    assert lab.code == "stale-state"
    assert "6h from tag" in lab.text


def test_is_stale_is_false_for_non_state():
    old = dataclasses.replace(make_fact(Kind.EVENT), t_last_verified=NOW - timedelta(days=999))
    assert is_stale(old, NOW, {}, WEEK) is False


# --------------------------------------------------------------------------- answering_layer


@pytest.mark.parametrize(("best", "docs", "layer"), [
    (0.90, True, "fact+document"),  # both layers answer: said so
    (0.90, False, "fact"),
    (0.55, False, "fact"),        # strong gate is inclusive
    (0.55, True, "fact+document"),
    (0.54, True, "document"),     # thin fact layer falls through to documents
    (0.40, False, "fact-weak"),
    (0.30, False, "fact-weak"),   # floor is inclusive
    (0.29, False, "none"),
    (0.10, True, "document"),
    (None, True, "document"),
    (None, False, "none"),
])
def test_answering_layer(best, docs, layer):
    assert answering_layer(best, floor=0.30, strong=0.55, documents_found=docs) == layer
