"""Eval ``locomo-brief`` on the project's tiny LoCoMo-format fixture: a store of chats
briefs (no question gets an empty brief), an event is dated from its relative time, and
answers are matched by their words or their dates."""

from __future__ import annotations

from pathlib import Path

from evals.harness import run_eval
from evals.suites.locomo_brief import DATASET, answer_in, gold_dates
from factstore import Settings
from factstore.extractors.parsed import ParserExtractor


def test_the_fixture_conversation_briefs_every_question(home: Path, embedder) -> None:
    record, outcome = run_eval("locomo-brief", extractor=ParserExtractor(), embedder=embedder,
                               home=home, settings=Settings(), dataset=DATASET)
    assert outcome.notes["questions"] == 3  # the adversarial one has no answer to find
    assert record.metrics["brief_empty"] == 0.0
    assert record.metrics["answer_in_brief_cat4"] == 1.0  # "Pixel", from Ada's own turn
    adopted = next(r for r in outcome.items if r["question"].startswith("When did Ada"))
    # "last week", said on 3 March 2023: the adoption is dated the week before
    assert "[event 2023-02-24]" in adopted["brief"]


def test_answers_are_found_by_words_or_dates() -> None:
    assert gold_dates("7 May 2023") == ["2023-05-07"]
    assert gold_dates("The week before 9 June 2023") == ["2023-06-09"]
    assert gold_dates("May 2023") == ["2023-05"] and gold_dates("in 2022") == ["2022"]
    assert answer_in("7 May 2023", "R1 [event 2023-05-07] Caroline went to a group.")
    assert answer_in("Pixel", "Ada adopted a grey cat called Pixel")
    assert not answer_in("a grey cat", "Ada adopted a dog")
