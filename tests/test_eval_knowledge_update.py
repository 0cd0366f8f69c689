"""Eval ``knowledge-update`` on small fixtures: the project shape (probe updates, a
non-update), SituatedQA's answer timelines, and a compiler that reads nothing (which the
eval must catch)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.harness import run_eval
from evals.suites.knowledge_update import holds, load
from factstore import Settings
from factstore.compiler.drafts import Compilation
from factstore.compiler.offline import ParserCompiler
from factstore.extractors.parsed import ParserExtractor

FIXTURES = Path(__file__).parent / "fixtures"
SMALL = FIXTURES / "evals" / "knowledge_updates_small.jsonl"
SITUATED = FIXTURES / "datasets" / "situatedqa"


def _subset(tmp_path: Path, ids: set[str]) -> Path:
    rows = [line for line in SMALL.read_text().splitlines() if json.loads(line)["id"] in ids]
    path = tmp_path / "ku.jsonl"
    path.write_text("\n".join(rows) + "\n")
    return path


def _run(home: Path, embedder, dataset: Path):
    return run_eval("knowledge-update", extractor=ParserExtractor(), embedder=embedder,
                    home=home, settings=Settings(), dataset=dataset)


def test_probe_updates_are_noticed_and_a_non_update_is_left_alone(home, embedder,
                                                                   tmp_path) -> None:
    record, outcome = _run(home, embedder, _subset(tmp_path, {"ku-0001", "ku-0009",
                                                               "ku-0193"}))
    assert record.metrics["new_first"] == 1.0
    assert record.metrics["stale_served"] == 0.0
    assert record.metrics["as_of_accuracy"] == 1.0
    assert record.metrics["order_agreement"] == 1.0
    assert record.metrics["event_at_resolved"] == 1.0  # "in March" said in June: March
    assert outcome.notes["by"]["case"]["update"]["scenarios"] == 2


def test_a_compiler_that_reads_nothing_is_caught(home, embedder, tmp_path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ParserCompiler, "compile",
                        lambda self, text, said, existing=(): Compilation(self.name))
    record, _ = _run(home, embedder, _subset(tmp_path, {"ku-0001", "ku-0009"}))
    assert record.metrics["as_of_accuracy"] == 0.0
    assert record.metrics["new_first"] < 1.0


def test_situatedqa_timelines_in_shuffled_order_read_right_as_of(home, embedder) -> None:
    rows = load(SITUATED)
    assert [r["id"] for r in rows] == ["situatedqa-1", "situatedqa-2"]  # no timeline: out
    assert rows[0]["facts"][0]["subject"] == "glossary/coaches-the-harbor-city-rowing-club"
    record, outcome = _run(home, embedder, SITUATED)
    assert record.metrics["as_of_accuracy"] == 1.0
    assert record.metrics["new_first"] == 1.0 and record.metrics["stale_served"] == 0.0


def test_values_are_matched_by_their_words() -> None:
    assert holds("head of design", "head of design")
    assert holds("7", "7") and not holds("7", "17")
    assert holds("100 requests per minute", "100 requests per minute")
    assert not holds("Porto", "Lisbon")
