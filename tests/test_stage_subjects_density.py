"""Pure stages of the subject-aware density check: subjects, hit readings, the revision lane."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factstore.differences import differences, status_classes
from factstore.kinds import Kind
from factstore.statements import normalise_statement
from factstore.writepath.density import NearHit, assess, read_hit, strong_contradiction
from factstore.writepath.prepare import fact_subject
from factstore.writepath.subjects import subject_key, subject_of
from factstore.writepath.triage import Candidate, triage

T0 = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(("statement", "subject"), [
    ("web-1 runs 3 replicas right now.", "web-1"),
    ("web-2 is now running 5 replicas.", "web-2"),
    ("Right now web-9 runs 3 replicas.", "web-9"),
    ("Currently, svc-2 is red.", "svc-2"),
    ("The team decided not to use Redis.", "The team"),
    ("The user no longer prefers dark mode; the user prefers light mode.", "The user"),
    ("The staging cluster runs in eu-west-1.", "The staging cluster"),
    ("The nightly integration job is currently green on the sample-svc box.",
     "The nightly integration job"),
    ("The build pipeline ships only through the staging gate.", "The build pipeline"),
    ("A doc migration moved all 214 pages.", "A doc migration"),
    ("The shared drive is full.", "The shared drive"),
    ("In production, the API rate limit is 40 requests per minute.",
     "the API rate limit (in production)"),
    ("Priya is the engineering manager.", "Priya"),
    ("Noor'll own the billing service.", "Noor"),
])
def test_subject_of_reads_the_noun_phrase_before_the_predicate(statement, subject):
    assert subject_of(statement) == subject


@pytest.mark.parametrize("statement", [
    "It is raining.", "Nobody is playing a guitar.", "Always write a failing test first.",
    "Is sample-svc green?", "This is fine.", "", "   ", "green",
    "A very long noun phrase with far too many words before any verb is here.",
    # a contraction carries its verb: the subject is the pronoun, which names no one
    "I'm not a fan of Kafka for the scheduler use case.", "We've moved to Kafka.",
    "They'd rather use Postgres.", "You're on call this week.",
])
def test_statements_without_a_keyable_subject_have_none(statement):
    assert subject_key(subject_of(statement)) is None


def test_subject_keys_fold_case_determiners_hyphens_and_possessives():
    assert subject_key("The payments API") == subject_key("payments-api") == "paymentsapi"
    assert subject_key("the user's") == subject_key("User") == "user"
    assert subject_key("web-1") != subject_key("web-11")
    # a qualifier is part of the key: staging and production limits are two subjects
    assert subject_key("the rate limit (in production)") != subject_key(
        "the rate limit (in staging)")
    assert subject_key(None) is None and subject_key("the") is None


def test_the_extractors_subject_wins_over_the_statements():
    assert fact_subject("sample-svc", "The nightly job is green.") == ("samplesvc", "extractor")
    assert fact_subject(None, "The nightly job is green.") == ("nightlyjob", "statement")
    assert fact_subject("  ", "It is green.") == (None, "none")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_subject_reading_never_raises_and_keys_are_stable(text):
    subject = subject_of(text)
    key = subject_key(subject)
    assert key is None or (key and key == subject_key(subject))


def _hit(statement, similarity, key=None, *, id=1, kind=Kind.STATE, said=None):
    return NearHit(id, kind, statement, statement, "active", similarity, T0, key, said)


def _read(new, new_key, hit, mode="route", kind=Kind.STATE):
    return read_hit(new, new_key, hit, kind=kind, mode=mode, threshold=0.80, floor=0.60,
                    subject_floor=0.50)


@pytest.mark.parametrize("mode", ["off", "annotate", "route"])
def test_a_near_hit_about_another_subject_is_never_a_candidate(mode):
    hit = _hit("svc-6 is red right now.", 0.97, "svc6")
    assert _read("svc-31 is red right now.", "svc31", hit, mode).relation == "other-subject"


@pytest.mark.parametrize("mode", ["annotate", "route"])
def test_the_detector_placing_a_change_in_the_subject_skips_an_unkeyed_hit(mode):
    hit = _hit("sample-svc is green right now.", 0.9, None)
    reading = _read("other-svc is green right now.", None, hit, mode)
    assert reading.relation == "other-subject" and reading.differences


@pytest.mark.parametrize("mode", ["off", "annotate", "route"])
def test_a_same_subject_status_change_below_the_threshold_is_a_candidate(mode):
    hit = _hit("svc-7 is healthy right now.", 0.578, "svc7")
    reading = _read("svc-7 is paused right now.", "svc7", hit, mode)
    assert reading.relation == "candidate" and reading.same_subject and reading.band == "floor"
    assert reading.differences == ("status healthy -> paused",)


def test_below_the_subject_floor_nothing_counts():
    hit = _hit("svc-7 is healthy right now.", 0.49, "svc7")
    assert _read("svc-7 is paused right now.", "svc7", hit).relation == "unrelated"


def test_the_unkeyed_floor_is_the_higher_one():
    # 0.55 is above the subject floor but below the contradiction floor: only a same-subject
    # hit reaches that deep.
    hit = _hit("The team decided to use Redis.", 0.55, None)
    assert _read("The team decided not to use Redis.", None, hit,
                 kind=Kind.DECISION).relation == "unrelated"
    hit = _hit("The team decided to use Redis.", 0.75, None)
    assert _read("The team decided not to use Redis.", None, hit,
                 kind=Kind.DECISION).relation == "candidate"


def test_below_the_threshold_no_difference_proves_nothing():
    hit = _hit("payments-api is healthy right now.", 0.61, "paymentsapi")
    assert differences(hit.statement, "payments-api is deployed in eu-west-1.") == ()
    assert _read("payments-api is deployed in eu-west-1.", "paymentsapi",
                 hit).relation == "unrelated"


def test_one_status_class_is_one_reading_even_below_the_threshold():
    hit = _hit("svc-1 is green right now.", 0.68, "svc1")
    assert _read("svc-1 is healthy right now.", "svc1", hit).relation == "restatement"
    assert status_classes("svc-1 is green right now.") == status_classes("svc-1 is healthy.")


def test_events_never_conflict_below_the_threshold():
    hit = _hit("svc-1 was deployed on Monday.", 0.7, "svc1", kind=Kind.EVENT)
    assert _read("svc-1 was deployed on Tuesday.", "svc1", hit,
                 kind=Kind.EVENT).relation == "unrelated"


@pytest.mark.parametrize(("mode", "relation"), [("route", "restatement"),
                                                ("annotate", "restatement"),
                                                ("off", "candidate")])
def test_a_reworded_near_hit_is_testimony_unless_the_detector_is_off(mode, relation):
    hit = _hit("web-9 runs 3 replicas right now.", 0.985, "web9")
    assert _read("web-9 currently runs three replicas.", "web9", hit, mode).relation == relation


def test_a_one_sided_detail_is_complementary_in_route_and_a_candidate_in_annotate():
    hit = _hit("The staging cluster has 40 nodes.", 0.9, "stagingcluster")
    new = "The staging cluster has 40 nodes and 2 spares."
    assert differences(hit.statement, new) == ("value 2 only in b",)
    assert _read(new, "stagingcluster", hit, "route").relation == "complementary"
    assert _read(new, "stagingcluster", hit, "annotate").relation == "candidate"


def test_strong_contradictions_exclude_one_sided_and_named_values():
    assert strong_contradiction(("negation: b negates a",))
    assert strong_contradiction(("value 3 -> 5",)) and strong_contradiction(("status a -> b",))
    assert not strong_contradiction(("value 5 only in b",))
    assert not strong_contradiction(("named value Redis -> Postgres",))
    assert not strong_contradiction(("subject svc-1 -> svc-2",))


def test_assess_orders_nearest_first_and_records_the_scope():
    hits = [_hit("svc-7 is red right now.", 0.7, "svc7", id=2),
            _hit("svc-7 is healthy right now.", 0.9, "svc7", id=3),
            _hit("svc-6 is paused right now.", 0.95, "svc6", id=4)]
    finding = assess("svc-7 is paused right now.", "svc7", hits, kind=Kind.STATE,
                     mode="route", threshold=0.8, floor=0.6, subject_floor=0.5)
    assert finding.scope == "subject"
    assert [r.hit.id for r in finding.candidates] == [3, 2]
    assert [r.hit.id for r in finding.skipped_other_subjects] == [4]
    fallback = assess("It is paused.", None, hits, kind=Kind.STATE, mode="route",
                      threshold=0.8, floor=0.6)
    assert fallback.scope == "kind"


# -- the revision lane -------------------------------------------------------------------------

def _triage(kind, *, same, new_at, old_at, explicit=False):
    return triage(Candidate(kind, "new", "new"), Candidate(kind, "old", "old"),
                  explicit_supersession=explicit, path_exists=lambda p: False,
                  same_subject=same, new_observed=new_at, existing_observed=old_at)


@pytest.mark.parametrize("kind", [Kind.STATE, Kind.PREFERENCE])
def test_a_newer_same_subject_reading_of_a_revisable_kind_wins(kind):
    decision = _triage(kind, same=True, new_at=T0 + timedelta(hours=1), old_at=T0)
    assert (decision.lane, decision.winner) == ("revision", "new")
    older = _triage(kind, same=True, new_at=T0, old_at=T0 + timedelta(hours=1))
    assert (older.lane, older.winner) == ("revision", "existing")


def test_an_older_reading_loses_even_when_it_says_now():
    decision = _triage(Kind.STATE, same=True, new_at=T0, old_at=T0 + timedelta(hours=1),
                       explicit=True)
    assert (decision.lane, decision.winner) == ("revision", "existing")


@pytest.mark.parametrize("kind", [Kind.DECISION, Kind.REFERENCE, Kind.RESIDUAL, Kind.EVENT])
def test_other_kinds_are_contested(kind):
    decision = _triage(kind, same=True, new_at=T0 + timedelta(hours=1), old_at=T0)
    assert (decision.lane, decision.winner) == ("lane-3", None)


def test_without_a_known_same_subject_there_is_no_revision():
    decision = _triage(Kind.STATE, same=False, new_at=T0 + timedelta(hours=1), old_at=T0)
    assert decision.lane == "lane-3"
    rule = _triage(Kind.RULE, same=True, new_at=T0 + timedelta(hours=1), old_at=T0)
    assert rule.lane == "rule-exception"


# -- values that normalisation and the detector used to lose ---------------------------------

def test_normalisation_keeps_signs_currency_and_units():
    assert normalise_statement("The freezer runs at −18 degrees.") != normalise_statement(
        "The freezer runs at 18 degrees.")
    assert normalise_statement("It costs 5 €.") != normalise_statement("It costs 5 $.")
    assert normalise_statement("The freezer runs at −18 degrees.") == normalise_statement(
        "the freezer runs at -18 degrees")


def test_the_detector_reads_signs_and_currencies():
    assert differences("The freezer runs at −18 degrees.", "The freezer runs at 18 degrees.") \
        == ("value −18 -> 18",)
    assert differences("The plan costs 5 € per month.", "The plan costs 5 $ per month.") == (
        "value 5 € -> 5 $",)
    assert differences("The plan costs €5 per month.", "The plan costs €6 per month.") == (
        "value €5 -> €6",)
    # a hyphen inside a name is no sign
    assert differences("svc-18 is up.", "svc-19 is up.") == ("subject svc-18 -> svc-19",)
