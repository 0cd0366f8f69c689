"""Hybrid recall through the Store: facts and documents by vector and by words, a fact served
with the document it was read from, the question's people and time preferred, removed
sources never served, and a generated population of services in two arrival orders."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from factstore import Settings
from tests.helpers import fact

CAT = "Ada: I adopted a grey cat called Pixel last week."
DOCS_ONLY = {"recall_lexical": False}


def _hits(result):
    return [i for i in result.items if i.served_as == "hit"]


def test_a_fact_is_served_with_the_document_it_was_read_from(store):
    store.extractor.add(CAT, fact("Ada has a grey cat called Pixel.", "REFERENCE",
                                  quote="I adopted a grey cat called Pixel"))
    store.remember(CAT, source_ref="chat:1")
    store.remember("Ben: My sister moved to Lisbon in March.", source_ref="chat:2")
    result = store.recall("What is the name of Ada's cat?", k=5)
    top = result.items[0]
    assert top.fact is not None and top.fact.statement == "Ada has a grey cat called Pixel."
    assert top.document is not None and top.document.content == CAT
    assert top.document.source_ref == "chat:1"
    # one slot: the capture is never served again as a document competing with its fact
    assert [i.document.id for i in result.items if i.fact is None].count(top.document.id) == 0
    assert {"fact-vector", "document-vector"} <= set(top.matched_by)
    assert top.score is not None and top.score > 0


def test_words_find_a_turn_that_no_fact_stands_for(store):
    store.remember("Ops: the flaky QX-4471 job was rerun after the cache fix.", source_ref="a")
    for n in range(6):
        store.remember(f"Ops: the nightly build {n} passed on the first try.", source_ref=f"b{n}")
    result = store.recall("what happened to QX-4471?", k=3)
    first = _hits(result)[0]
    assert first.fact is None and "QX-4471" in first.document.content
    assert "document-text" in first.matched_by
    assert result.layer == "document" and first.label.code == "document"


def test_the_speaker_the_question_names_is_preferred(open_store):
    store = open_store(settings=Settings(**DOCS_ONLY))
    store.remember("Ada: I love hiking in the Alps every summer.", source_ref="t1")
    store.remember("Ben: I love hiking in the Alps every summer too.", source_ref="t2")
    for name in ("Ada", "Ben"):
        hits = _hits(store.recall(f"Where does {name} like hiking?", k=2))
        assert hits[0].document.content.startswith(f"{name}:")
        assert "named" in hits[0].matched_by and "named" not in hits[1].matched_by
        assert len(hits) == 2  # lifted, never filtered


def test_the_time_the_question_names_is_preferred(open_store):
    store = open_store(settings=Settings(**DOCS_ONLY))
    store.remember("Ada: I baked sourdough bread this weekend.", source_ref="may",
                   said_at=datetime(2023, 5, 20, tzinfo=UTC))
    store.remember("Ada: I baked sourdough bread again this weekend.", source_ref="aug",
                   said_at=datetime(2023, 8, 12, tzinfo=UTC))
    for month, ref in (("May 2023", "may"), ("August 2023", "aug")):
        hits = _hits(store.recall(f"What did Ada bake in {month}?", k=2))
        assert hits[0].document.source_ref == ref and "timed" in hits[0].matched_by
    untimed = _hits(store.recall("What did Ada bake?", k=2))
    assert not any("timed" in h.matched_by for h in untimed)


def test_a_question_about_a_past_time_reaches_what_held_then(store):
    readings = (("green", datetime(2024, 3, 10, tzinfo=UTC)),
                ("red", datetime(2024, 6, 2, tzinfo=UTC)))
    for colour, said in readings:
        text = f"pay-api is {colour} right now"
        store.extractor.add(text, fact(f"pay-api is {colour} right now.", subject="pay-api"))
        store.remember(text, source_ref=colour, said_at=said)
    now = _hits(store.recall("what is the status of pay-api?", k=2))
    assert now[0].fact is not None and now[0].fact.statement == "pay-api is red right now."
    then = _hits(store.recall("what was the status of pay-api in March 2024?", k=2))
    # the March reading, superseded since: served first, as history, never as current
    assert then[0].fact is None and then[0].document.source_ref == "green"
    assert then[0].label.code == "superseded-source" and not then[0].label.present_tense
    assert "timed" in then[0].matched_by
    assert then[1].fact is not None and then[1].fact.statement == "pay-api is red right now."


def test_a_removed_source_is_never_served(store):
    store.remember("The vault passphrase hint is the blue heron.", source_type="file",
                   source_ref="notes/hint.md")
    assert _hits(store.recall("vault passphrase hint", k=3))
    store.remove_source("file:notes/hint.md", "shared by mistake")
    assert store.recall("vault passphrase hint", k=3).items == ()


def test_preferences_and_words_can_be_switched_off(open_store):
    store = open_store(settings=Settings(recall_lexical=False, recall_preference_weight=0.0))
    store.remember("Ada: the QX-4471 job failed twice.", source_ref="t1")
    (hit,) = _hits(store.recall("What did Ada say about QX-4471?", k=1))
    assert set(hit.matched_by) == {"document-vector"}


SERVICES = [f"svc-{n:02d}" for n in range(24)]
STATUSES = ("healthy", "degraded", "paused", "draining")


def _stream(seed: int) -> tuple[list[tuple[str, str, str]], dict[str, str]]:
    """Per service: a first reading, a restatement of it, then a change; interleaved in a
    seeded order that keeps each service's own order. Returns captures and final states."""
    rng = random.Random(7)
    per_service = {}
    for svc in SERVICES:
        first, last = rng.sample(STATUSES, 2)
        per_service[svc] = [first, first, last]
    order = [svc for svc in SERVICES for _ in range(3)]
    random.Random(seed).shuffle(order)
    seen: dict[str, int] = {}
    stream = []
    for svc in order:
        n = seen.get(svc, 0)
        seen[svc] = n + 1
        stream.append((svc, per_service[svc][n], f"{svc}:{n}"))
    return stream, {svc: readings[-1] for svc, readings in per_service.items()}


def _populate(store, seed: int) -> dict[str, str]:
    stream, final = _stream(seed)
    for svc, status, ref in stream:
        text = f"{svc} is {status} right now"
        store.extractor.add(text, fact(f"{svc} is {status} right now.", "STATE", subject=svc))
        store.remember(text, source_ref=ref)
    return final


def test_a_population_of_services_in_two_arrival_orders(open_store):
    answers = []
    for seed in (1, 2):
        store = open_store()
        final = _populate(store, seed)
        served = {}
        for svc in SERVICES:
            result = store.recall(f"what is the status of {svc}?", k=3)
            top = _hits(result)[0]
            # the service asked about, its current reading, with the turn it was read from
            assert top.fact is not None and top.fact.subject == svc, (svc, top.text)
            assert top.fact.statement == f"{svc} is {final[svc]} right now."
            assert top.label.code == "active" and top.document is not None
            # a superseded reading is never served as a fact; its turn only as history
            for item in result.items:
                if item.fact is not None:
                    assert item.fact.verdict.value in ("active", "contested", "parked")
                elif item.document.content.startswith(f"{svc} is"):
                    assert item.label.code == "superseded-source"
            served[svc] = top.fact.statement
        answers.append(served)
        store.close()
    assert answers[0] == answers[1]
