"""The compiler's pure decisions without a parser or a database: reconciling drafts with
what is stored (compiler/reconcile.py), one truth for kind-typed facts (compiler/stated.py),
values, keys and refusals (compiler/values.py), subjects (compiler/subjects.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from factstore.compiler.drafts import Draft
from factstore.compiler.reconcile import Current, reconcile
from factstore.compiler.stated import MOVED_ON, Link, stated_verdicts
from factstore.compiler.subjects import SubjectRef, slug, timeline_subject
from factstore.compiler.values import attribute_key, refusal, split_unit
from factstore.compiler.when import StatedTime

SAID = datetime(2026, 6, 10, 9, tzinfo=UTC)
OWNER = "person/nick"
ME, WE = SubjectRef("speaker"), SubjectRef("group")


def _subject_of(ref: SubjectRef, attribute: str | None) -> str | None:
    member = attribute in ("lives_in", "employer")
    if ref.kind == "named":
        return f"{ref.namespace}/{slug(ref.name or '')}"
    filed = timeline_subject(ref, member_holds=member, owner=OWNER)
    return OWNER if filed == "me" else filed  # as the store resolves 'me'


def _draft(ref=ME, attribute="shoe_size", value="41", **kw) -> Draft:
    return Draft(ref, attribute, value, kw.pop("unit", None), kw.pop("quote", "q"), (0, 1),
                 **kw)


def _reconcile(drafts, existing=(), registry=None):
    return reconcile(drafts, observed=SAID, subject_of=_subject_of, existing=list(existing),
                     registry=registry or {"works at": "employer", "home": "lives_in"})


@pytest.mark.parametrize(("text", "value", "unit"), [
    ("512 MB", "512", "MB"), ("100 requests per minute", "100", "requests per minute"),
    ("Postgres 14", "Postgres 14", None), ("the head of design", "head of design", None),
    ("1,050 euros", "1050", "euros"), ("seven replicas", "7", "replicas"), ("41", "41", None)])
def test_values_keep_units_apart(text: str, value: str, unit: str | None) -> None:
    assert split_unit(text) == (value, unit)


@pytest.mark.parametrize(("attribute", "refused"), [
    ("issue_335_status", True), ("pr_12_state", True), ("outage_count", True),
    ("incident", True), ("monthly_cost", True), ("shoe_size", False),
    ("rate_limit", False),  # a registered key: the seed's event word names an event
    ("memory_limit", False), ("employer", False)])
def test_seed_002_refusals(attribute: str, refused: bool) -> None:
    assert (refusal(attribute) is not None) is refused


def test_we_is_the_speakers_group_except_what_members_hold() -> None:
    assert timeline_subject(WE, member_holds=False, owner=OWNER) == "person/nick-group"
    assert timeline_subject(WE, member_holds=True, owner=OWNER) == "me"
    assert timeline_subject(SubjectRef("group", "Ben"), member_holds=False,
                            owner=OWNER) == "person/ben-group"
    assert timeline_subject(SubjectRef("speaker", "Ben"), member_holds=False,
                            owner=OWNER) == "person/ben"
    assert timeline_subject(ME, member_holds=False, owner=OWNER) == "me"
    assert attribute_key("On-call owner") == "on_call_owner"


def test_a_draft_is_dated_as_the_text_dates_it_and_observed_when_said() -> None:
    moved = _draft(WE, "moved to", "Lisbon", time=StatedTime("at", "2026-03", "in March"),
                   change=True, alias="moved to")
    planned, _, refused = _reconcile([moved], registry={"moved to": "lives_in"})
    assert not refused
    fact = planned[0].fact
    assert (fact["subject"], fact["attribute"], fact["value"], fact["valid_from"]) == \
        (OWNER, "lives_in", "Lisbon", "2026-03")
    assert fact["observed_at"] == "2026-06-10T09:00:00Z"
    undated = _reconcile([_draft()])[0][0].fact
    assert "valid_from" not in undated  # no time said: it starts when it was said


def test_an_end_finds_the_stored_value_and_its_key() -> None:
    stored = [Current(7, OWNER, "employer", "Globex", None, "one", None,
                      datetime(2025, 2, 1, tzinfo=UTC))]
    left = _draft(ME, None, None, ends=("Globex",), change=True,
                  time=StatedTime("at", "2026-05", "last month"))
    planned, endings, refused = _reconcile([left], stored)
    assert planned == [] and not refused
    assert [(e.current.id, e.valid_to) for e in endings] == [(7, "2026-05")]


def test_a_switch_in_a_many_attribute_ends_the_values_it_replaces() -> None:
    stored = [Current(3, "person/nick-group", "editor", "Vim", None, "many", None,
                      datetime(2025, 1, 1, tzinfo=UTC)),
              Current(4, "person/nick-group", "editor", "Emacs", None, "many", None,
                      datetime(2025, 1, 1, tzinfo=UTC))]
    switch = _draft(WE, None, "Helix", ends=("Vim",), change=True)
    planned, endings, _ = _reconcile([switch], stored)
    assert planned[0].fact["attribute"] == "editor"
    assert [e.current.id for e in endings] == [3]  # Emacs was not switched away from
    addition = _draft(WE, None, "Zed", change=True, addition=True)
    assert _reconcile([addition], stored)[1] == []  # "also": ends nothing


def test_an_addition_to_a_one_valued_key_is_refused_not_a_supersession() -> None:
    planned, _, refused = _reconcile([_draft(ME, "employer", "Hooli", addition=True)])
    assert planned == [] and "one value at a time" in refused[0].reason


def test_an_existing_near_synonym_key_is_preferred() -> None:
    stored = [Current(5, "system/refunds", "feature_flag", "100", "%", "one", None, SAID)]
    draft = _draft(SubjectRef("named", "refunds", "system"), "flag", "25", unit="%")
    planned, _, _ = _reconcile([draft], stored)
    assert planned[0].fact["attribute"] == "feature_flag"


def _link(fact, verdict, holds, value="Porto", instead=None, code=None, kind="PREFERENCE"):
    return Link(fact, kind, verdict, code, "lives_in(person/nick)", value, holds,
                9 if instead else None, instead, timeline_id=7)


def test_a_fact_whose_value_was_replaced_is_superseded_by_the_same_transition() -> None:
    changes = stated_verdicts([_link(1, "active", False, instead="Lisbon")])
    assert [(c.fact_id, c.to, c.by) for c in changes] == [(1, "superseded", 9)]
    assert "Porto was replaced by Lisbon" in changes[0].reason


def test_a_value_that_ended_with_nothing_after_it_supersedes_its_fact_too() -> None:
    # "I no longer live in Utrecht": the value stopped, nothing holds instead
    changes = stated_verdicts([_link(1, "active", False, "Utrecht")])
    # superseded by the timeline fact whose end says so (a superseded fact always names
    # what superseded it: the facts table's CHECK)
    assert [(c.to, c.by) for c in changes] == [("superseded", 7)]
    assert "Utrecht no longer holds" in changes[0].reason


def test_a_value_that_still_holds_keeps_its_fact_current() -> None:
    assert stated_verdicts([_link(1, "active", True)]) == []


def test_only_its_own_supersession_is_undone_when_the_value_holds_again() -> None:
    back = stated_verdicts([_link(1, "superseded", True, code=MOVED_ON)])
    assert [(c.fact_id, c.to) for c in back] == [(1, "active")]
    # superseded by the kind layer's own triage: the timeline does not overrule it
    assert stated_verdicts([_link(1, "superseded", True, code=None)]) == []
    assert stated_verdicts([_link(1, "parked", False, instead="Lisbon")]) == []


def test_an_event_is_never_moved_and_one_replaced_value_moves_the_fact() -> None:
    assert stated_verdicts([_link(1, "active", False, instead="x", kind="EVENT")]) == []
    # "I work at Globex as a data analyst", then a data engineer at Globex: the fact says
    # something no longer true, and the timelines keep what still is (employer Globex)
    both = [_link(1, "active", True, "Globex"), _link(1, "active", False, "analyst",
                                                       instead="engineer")]
    assert [c.to for c in stated_verdicts(both)] == ["superseded"]
