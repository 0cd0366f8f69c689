"""Hybrid recall's planner (factstore/hybrid.py): slots, fusion, gates, preferences, history
and diversity, on plain data. No database."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from factstore.hybrid import HISTORY_WEIGHT, Candidates, plan, slot_of

FLOORS = {"recall_floor": 0.30, "document_floor": 0.30}


def _plan(found: Candidates, k: int = 10, lam: float = 1.0):
    return plan(found, k=k, lam=lam, **FLOORS)


def test_a_fact_and_its_document_are_one_slot():
    found = Candidates(fact_vector=[(7, 0.8)], document_vector=[(3, 0.7), (4, 0.6)],
                       fact_document={7: 3}, fact_cosine={7: 0.8},
                       document_cosine={3: 0.7, 4: 0.6})
    first, second = _plan(found)
    assert (first.key, first.facts, first.document) == (("document", 3), (7,), 3)
    assert first.matched_by == ("fact-vector", "document-vector")
    assert (second.key, second.facts) == (("document", 4), ())
    # found by both its fact and itself, the slot outranks one found once
    assert first.score > second.score


def test_a_fact_without_a_document_is_a_slot_of_its_own():
    assert slot_of(5, {5: None}) == ("fact", 5) and slot_of(5, {5: 9}) == ("document", 9)
    found = Candidates(fact_vector=[(5, 0.9)], fact_document={5: None}, fact_cosine={5: 0.9})
    (only,) = _plan(found)
    assert only.key == ("fact", 5) and only.document is None and only.facts == (5,)


def test_the_gates_cosine_floors_or_matching_words():
    found = Candidates(
        fact_vector=[(1, 0.20)], document_vector=[(10, 0.25), (11, 0.35)],
        fact_text=[(2, 0.1)], document_text=[(12, 0.1)],
        fact_document={1: 10, 2: 13}, fact_cosine={1: 0.20, 2: 0.05},
        document_cosine={10: 0.25, 11: 0.35, 12: 0.02, 13: 0.04})
    slots = {s.key: s for s in _plan(found)}
    # under both floors and no words matched: nothing to serve from slot 10
    assert ("document", 10) not in slots
    # a document over its floor is served on its own
    assert slots[("document", 11)].facts == ()
    # words matched: served whatever the cosine (a rare name shared with the question)
    assert slots[("document", 12)].facts == () and slots[("document", 13)].facts == (2,)


def test_a_fact_under_the_floor_does_not_ride_along_in_a_passing_slot():
    found = Candidates(fact_vector=[(1, 0.1)], document_vector=[(10, 0.6)],
                       fact_document={1: 10}, fact_cosine={1: 0.1}, document_cosine={10: 0.6})
    (slot,) = _plan(found)
    assert slot.key == ("document", 10) and slot.facts == ()


def test_facts_in_a_slot_keep_their_fused_order():
    found = Candidates(fact_vector=[(1, 0.9), (2, 0.8), (3, 0.7)], fact_text=[(3, 0.5)],
                       fact_document={1: 10, 2: 20, 3: 10},
                       fact_cosine={1: 0.9, 2: 0.8, 3: 0.7}, document_cosine={10: 0.5})
    first = _plan(found)[0]
    # fact 3 is in both fact lists: it leads its slot, ahead of fact 1 (one list, rank 1)
    assert first.key == ("document", 10) and first.facts == (3, 1)


def _twins(**extra) -> Candidates:
    """Two documents found at the same ranks by different retrievers (a tie)."""
    base = {"document_vector": [(1, 0.6), (2, 0.5)], "document_text": [(2, 0.2), (1, 0.1)],
            "document_cosine": {1: 0.6, 2: 0.5}}
    return Candidates(**{**base, **extra})


def test_a_named_person_lifts_a_slot_and_never_filters():
    assert [s.key[1] for s in _plan(_twins())] == [1, 2]
    lifted = _plan(_twins(named={("document", 2)}))
    assert [s.key[1] for s in lifted] == [2, 1]
    assert "named" in lifted[0].matched_by and "named" not in lifted[1].matched_by
    timed = _plan(_twins(timed={("document", 2)}))
    assert [s.key[1] for s in timed] == [2, 1] and "timed" in timed[0].matched_by


def test_history_is_served_after_live_slots_of_like_relevance():
    slots = _plan(_twins(history={("document", 1)}))
    assert [(s.key[1], s.history) for s in slots] == [(2, False), (1, True)]
    assert slots[1].score < slots[0].score
    assert abs(slots[1].score / HISTORY_WEIGHT - slots[0].score) < 1e-3  # same rank, weighed


def test_history_from_the_time_asked_about_is_not_put_back():
    slots = _plan(_twins(history={("document", 1)}, timed={("document", 1)}))
    assert [(s.key[1], s.history) for s in slots] == [(1, True), (2, False)]


def test_what_was_said_after_the_time_asked_about_is_weighed_as_history():
    slots = _plan(_twins(later={("document", 1)}))
    assert [s.key[1] for s in slots] == [2, 1]
    assert not any(s.history for s in slots)  # weighed so, but not labeled history
    # from the time asked about too (said then, re-read later): not put back
    assert [s.key[1] for s in _plan(_twins(later={("document", 1)},
                                           timed={("document", 1)}))] == [1, 2]


def test_mmr_spreads_near_copies_of_one_turn():
    same, other = np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
    found = Candidates(document_vector=[(1, 0.9), (2, 0.89), (3, 0.8)],
                       document_cosine={1: 0.9, 2: 0.89, 3: 0.8},
                       vectors={("document", 1): same, ("document", 2): same * 2,
                                ("document", 3): other})
    assert [s.key[1] for s in _plan(found, lam=1.0)] == [1, 2, 3]
    assert [s.key[1] for s in _plan(found, lam=0.5)] == [1, 3, 2]
    assert [s.key[1] for s in _plan(found, k=2, lam=0.5)] == [1, 3]


_ids = st.integers(1, 30)


@st.composite
def candidates(draw) -> Candidates:
    facts = draw(st.lists(_ids, unique=True, max_size=12))
    documents = draw(st.lists(_ids, unique=True, max_size=12))
    cosine = st.floats(-1, 1)
    fact_document = {f: draw(st.none() | _ids) for f in facts}
    every_document = set(documents) | {d for d in fact_document.values() if d is not None}
    fact_text = draw(st.lists(st.sampled_from(facts), unique=True)) if facts else []
    document_text = (draw(st.lists(st.sampled_from(sorted(every_document)), unique=True))
                     if every_document else [])
    keys = [slot_of(f, fact_document) for f in facts] + [("document", d) for d in documents]
    subset = st.sets(st.sampled_from(keys)) if keys else st.just(set())
    return Candidates(
        fact_vector=[(f, draw(cosine)) for f in facts],
        fact_text=[(f, 0.1) for f in fact_text],
        document_vector=[(d, draw(cosine)) for d in documents],
        document_text=[(d, 0.1) for d in document_text],
        fact_document=fact_document,
        fact_cosine={f: draw(cosine) for f in facts},
        document_cosine={d: draw(cosine) for d in every_document},
        named=draw(subset), timed=draw(subset), history=draw(subset),
        vectors={key: np.array(draw(st.lists(st.floats(-1, 1), min_size=3, max_size=3)))
                 for key in keys if draw(st.booleans())})


@settings(max_examples=150, deadline=None)
@given(candidates(), st.integers(1, 12), st.sampled_from([0.0, 0.5, 0.7, 1.0]))
def test_a_plan_is_at_most_k_distinct_slots_that_pass_their_gate(found, k, lam):
    slots = plan(found, k=k, lam=lam, **FLOORS)
    keys = [s.key for s in slots]
    assert len(keys) == len(set(keys)) <= k
    worded = {f for f, _ in found.fact_text}
    for slot in slots:
        for f in slot.facts:
            assert slot_of(f, found.fact_document) == slot.key
            assert f in worded or found.fact_cosine[f] >= FLOORS["recall_floor"]
        assert (slot.facts or "document-text" in slot.matched_by
                or found.document_cosine.get(slot.document, -1) >= FLOORS["document_floor"])
        assert slot.history == (slot.key in found.history)
    if lam == 1.0:  # relevance alone: the served order is the score order
        assert [s.score for s in slots] == sorted((s.score for s in slots), reverse=True)
