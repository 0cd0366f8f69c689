"""Recall: ranked in SQL, served only from retrievable verdicts, every item labeled."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from factstore import Settings
from factstore.backfill import FactRecord
from factstore.errors import InvalidInput
from tests.helpers import say

GREEN = "sample-svc is green right now."
RED = "sample-svc is red right now."
# Two decisions about one subject that contradict: contested (a STATE would be revised).
MANDATORY = "The staging gate is mandatory for every release."
OPTIONAL = "The staging gate is optional for every release."
NOW = datetime.now(UTC)


def _labels(result):
    return [(item.text, item.label.code) for item in result.items]


def _documents(result):
    """(text, label) of the documents served on their own."""
    return {(i.document.content, i.label.code) for i in result.items if i.fact is None}


def test_an_active_fact_serves_as_present_tense_truth(store):
    say(store, "The user prefers dark-mode editors and dislikes light themes.", "PREFERENCE")
    result = store.recall("which editor theme does the user like?")
    assert result.layer == "fact"
    top = result.items[0]
    assert top.label.code == "active" and top.label.present_tense
    assert top.fact.kind == "PREFERENCE" and top.similarity >= store.settings.recall_strong


def test_an_expired_state_is_last_known_not_live(store):
    captured = NOW - timedelta(days=10)
    say(store, GREEN, subject="sample-svc", captured_at=captured)
    item = store.recall("is sample-svc green?").items[0]
    assert item.label.code == "stale-state" and not item.label.present_tense
    assert f"last known as of {captured:%Y-%m-%d}" in item.label.text
    assert "do not serve as live" in item.label.text


def test_a_state_within_its_own_lifetime_hint_is_live(store):
    say(store, GREEN, subject="sample-svc", expected_lifetime="30d",
        captured_at=NOW - timedelta(days=10))
    assert store.recall("is sample-svc green?").items[0].label.code == "active"


def test_a_tag_default_lifetime_ages_its_state_facts(store):
    store.registry_propose_root("ci")
    store.registry_approve_root("ci")
    store.registry_set_lifetime("ci", "1d")
    say(store, GREEN, subject="sample-svc", topics=("ci",),
        captured_at=NOW - timedelta(days=2))
    item = store.recall("is sample-svc green?").items[0]
    assert item.label.code == "stale-state" and "from tag" in item.label.text
    # the same age under the 7-day global default would still be live
    assert store.recall("is sample-svc green?", now=NOW - timedelta(days=1, hours=12)
                        ).items[0].label.code == "active"


def test_an_event_is_never_present_tense(store):
    say(store, "A doc migration moved all 214 pages and verified checksum parity.", "EVENT")
    item = store.recall("did the doc migration move all pages?").items[0]
    assert item.label.code == "event" and not item.label.present_tense
    assert "makes no claim about the present" in item.label.text


def test_contested_facts_are_served_with_their_partner(store):
    say(store, MANDATORY, "DECISION")
    say(store, OPTIONAL, "DECISION")
    result = store.recall("is the staging gate mandatory?", k=1)
    assert [i.fact.statement for i in result.items] == [MANDATORY, OPTIONAL]
    first, partner = result.items
    assert first.label.code == partner.label.code == "contested"
    assert first.partner_ids == (partner.fact.id,) and partner.served_as == "contested-partner"
    assert f"#{partner.fact.id}" in first.label.text


def test_parked_is_served_but_flagged_and_superseded_withdrawn_never(store):
    store.import_facts([
        FactRecord("The importer skips UTF-16 validation for now.", "RESIDUAL",
                   "skip UTF-16 validation", verdict="parked"),
        FactRecord("The importer validates UTF-16 input strictly.", "RESIDUAL",
                   "validate UTF-16 strictly", verdict="withdrawn"),
    ])
    result = store.recall("does the importer validate UTF-16?")
    facts = [(i.text, i.label.code) for i in result.items if i.fact is not None]
    assert facts == [("The importer skips UTF-16 validation for now.", "parked")]
    assert "not an active claim" in result.items[0].label.text
    # the withdrawn fact's own capture may still be found by its words: as history only
    assert _documents(result) <= {("validate UTF-16 strictly", "superseded-source")}


def test_a_superseded_loser_is_never_served(store):
    old = say(store, MANDATORY, "DECISION").outcomes[0].fact
    result = say(store, OPTIONAL, "DECISION")
    store.resolve_conflict(result.interrupts[0].conflict_id, result.outcomes[0].fact.id,
                           "the gate was relaxed")
    recalled = store.recall("is the staging gate mandatory?")
    served = [i.fact.id for i in recalled.items if i.fact is not None]
    assert old.id not in served and served == [result.outcomes[0].fact.id]
    # what was said before is history, served after the live answer and labeled so
    assert recalled.items[0].fact is not None
    assert _documents(recalled) == {(MANDATORY.rstrip("."), "superseded-source")}


def test_a_revised_state_reading_is_never_served(store):
    old = say(store, GREEN, subject="sample-svc").outcomes[0].fact
    new = say(store, RED, subject="sample-svc").outcomes[0].fact
    recalled = store.recall("is sample-svc green?")
    served = [i.fact.id for i in recalled.items if i.fact is not None]
    assert old.id not in served and served == [new.id]
    assert recalled.items[0].fact is not None and recalled.items[0].document.content == RED.rstrip(".")
    assert _documents(recalled) == {(GREEN.rstrip("."), "superseded-source")}
    assert not any(i.label.present_tense for i in recalled.items if i.fact is None)


def test_a_thin_fact_layer_falls_through_to_labeled_documents(store):
    store.remember("Notes from Tuesday: the office espresso machine descaling is overdue.")
    result = store.recall("espresso machine descaling")
    assert result.layer == "document"
    (item,) = result.items
    assert item.document is not None and item.label.code == "document"
    assert "unverified document content" in item.label.text and not item.label.present_tense


def test_weak_facts_without_documents_answer_as_fact_weak(open_store):
    store = open_store(settings=Settings(recall_floor=0.05, recall_strong=0.99,
                                         document_floor=0.99))
    say(store, "The user prefers dark-mode editors.", "PREFERENCE")
    result = store.recall("what colour scheme does the user want in the IDE?")
    assert result.layer == "fact-weak"
    # below the strong gate an active fact is a weak match, never "believed current"
    label = result.items[0].label
    assert label.code == "weak-match" and not label.present_tense
    assert "below the strong gate 0.99" in label.text


def test_weak_facts_served_after_documents_are_labeled_weak(open_store):
    store = open_store(settings=Settings(recall_floor=0.05, recall_strong=0.99,
                                         document_floor=0.05))
    say(store, "The user prefers dark-mode editors.", "PREFERENCE")
    store.remember("Notes: the IDE colour scheme came up in the retro.")
    result = store.recall("what colour scheme does the user want in the IDE?")
    assert result.layer == "document"
    codes = [i.label.code for i in result.items]
    assert "document" in codes and "weak-match" in codes and "active" not in codes


def test_a_parked_with_trigger_decision_is_labeled_with_its_trigger(store):
    say(store, "The team parked the Kafka migration until the audit ends.", "DECISION",
        status_detail="parked-with-trigger", trigger_predicate="the audit ends")
    item = store.recall("is the Kafka migration happening?").items[0]
    assert item.label.code == "parked-decision" and not item.label.present_tense
    assert "reopens when: the audit ends" in item.label.text


def test_an_empty_store_answers_none(store):
    result = store.recall("anything at all?")
    assert (result.layer, result.items, result.best_fact_similarity) == ("none", (), None)


def test_facts_below_the_floor_are_not_served(open_store):
    store = open_store(settings=Settings(recall_floor=0.95, recall_strong=0.96,
                                         document_floor=0.99))
    say(store, "The user prefers dark-mode editors.", "PREFERENCE")
    result = store.recall("quarterly revenue forecast for the sales team")
    assert result.layer == "none" and result.items == ()
    assert result.best_fact_similarity is not None and result.best_fact_similarity < 0.95


def test_ranking_is_by_cosine_across_kinds(store):
    say(store, "The user prefers dark-mode editors.", "PREFERENCE")
    say(store, "Always write a failing test before fixing a bug.", "RULE")
    say(store, "The runner token is stored at /srv/ops/runner.env.", "REFERENCE")
    result = store.recall("where is the runner token stored?")
    assert result.items[0].fact.kind == "REFERENCE"
    sims = [i.similarity for i in result.items]
    assert sims == sorted(sims, reverse=True)


@pytest.mark.parametrize("kwargs", [{"query": ""}, {"query": "x", "k": 0},
                                    {"query": "x", "k": True}, {"query": "x", "now": "soon"}])
def test_bad_recall_input_is_a_typed_error(store, kwargs):
    with pytest.raises(InvalidInput):
        store.recall(**kwargs)
