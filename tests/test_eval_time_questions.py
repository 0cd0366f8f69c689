"""Eval ``time-questions`` on small fixtures: the project shape, SituatedQA and TimeQA.

The project fixture has five questions that name a time (an explicit as-of beside a relative
time, a range, a describing date beside the asked one, a year before 1900, a relative month)
and three that name none (no time; "since 2010"; a count that looks like a year). The reader
gets all eight right; a reader that never finds a time misses all five and invents none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evals.harness import run_eval
from evals.suites import time_questions
from evals.suites.time_questions import load
from factstore import Settings
from tests.helpers import ScriptedExtractor

FIXTURES = Path(__file__).parent / "fixtures"
QUESTIONS = FIXTURES / "evals" / "time_questions_small.jsonl"


class _NoEmbedder:
    name, dim = "none", 3

    def embed(self, texts):
        raise AssertionError("time-questions must not embed")


def _run(home: Path, dataset: Path = QUESTIONS):
    return run_eval("time-questions", extractor=ScriptedExtractor(), embedder=_NoEmbedder(),
                    home=home, settings=Settings(), dataset=dataset)


def test_every_fixture_question_is_read_right(home: Path) -> None:
    record, outcome = _run(home)
    assert record.metrics == {"right_instant_share": 1.0, "invented_share": 0.0,
                              "missed_share": 0.0}
    assert outcome.notes["right_by_rule"] == {"explicit": 1.0, "named": 1.0, "range": 1.0,
                                              "relative": 1.0}


def test_a_reader_that_finds_nothing_misses_every_time(home: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(time_questions, "read_question_time", lambda question, now: None)
    record, outcome = _run(home)
    assert record.metrics == {"right_instant_share": 0.0, "invented_share": 0.0,
                              "missed_share": 1.0}
    assert outcome.notes["wrong_count"] == 5


def test_situatedqa_rows_become_gold_and_no_time_questions() -> None:
    rows = load(FIXTURES / "datasets" / "situatedqa")
    assert sorted((r["question"], r["gold"]) for r in rows) == [
        ("who played in the final last year as of 2019", "2019"),
        ("who won the league title", None),  # the original, which names no time
        ("who won the league title as of 2015", "2015"),
        ("who won the league title as of March 01, 2015", "2015-03-01")]


def test_timeqa_ranges_read_as_their_first_period_and_describing_dates_skipped() -> None:
    rows = load(FIXTURES / "datasets" / "timeqa")
    assert [(r["gold"], r["rule"]) for r in rows] == [
        ("1811", "range"), ("1896-09", "range"), ("1837-05", "named"), ("1774", "range")]
