"""The open-questions queue: seeded entries, computed recommendations, appended evidence."""

from __future__ import annotations

import pytest

from factstore.errors import InvalidInput, QuestionNotFound


def test_the_queue_is_seeded_with_the_three_entries_and_their_discipline(store):
    questions = {q.id: q for q in store.open_questions()}
    assert set(questions) == {1, 2, 3}
    extractor, density, staleness = questions[1], questions[2], questions[3]
    assert "negation-inversion" in extractor.title and "fact 74" in extractor.body
    assert (extractor.risk, extractor.cost, extractor.recommendation) == ("high", "high",
                                                                         "blocker")
    assert extractor.status == "blocker"
    assert (density.risk, density.cost, density.recommendation) == ("high", "low", "resolve")
    assert density.status == "open"
    assert (staleness.risk, staleness.recommendation) == ("low", "park")


def test_per_tag_staleness_entry_records_that_it_was_built(store):
    staleness = {q.id: q for q in store.open_questions()}[3]
    assert staleness.status == "resolved"
    assert any("registry_set_lifetime" in e.note for e in staleness.evidence)


def test_updates_append_evidence_and_recompute_the_recommendation(store):
    before = {q.id: q for q in store.open_questions()}[2]
    after = store.update_open_question(2, note="eval run 7: precision 0.4 at 0.8",
                                       recorded_by="eval:paraphrase", cost="high")
    assert after.recommendation == "blocker" and after.cost == "high"
    assert len(after.evidence) == len(before.evidence) + 1
    assert after.evidence[-1].recorded_by == "eval:paraphrase"
    assert after.updated_at >= before.updated_at
    assert after.status == "open"  # only a person changes the status


def test_status_filter_and_new_entries(store):
    added = store.add_open_question("Recall latency at 10M facts", "unmeasured", risk="low",
                                    cost="high")
    assert (added.id, added.status, added.recommendation) == (4, "parked", "park")
    assert [q.id for q in store.open_questions("parked")] == [4]


@pytest.mark.parametrize("kwargs, error", [
    ({}, InvalidInput), ({"status": "done"}, InvalidInput), ({"risk": "huge"}, InvalidInput),
    ({"note": " "}, InvalidInput),
])
def test_bad_updates_are_refused_and_write_nothing(store, kwargs, error):
    before = store.open_questions()
    with pytest.raises(error):
        store.update_open_question(2, **kwargs)
    assert store.open_questions() == before


def test_unknown_question_is_not_found(store):
    with pytest.raises(QuestionNotFound):
        store.update_open_question(99, note="x")
