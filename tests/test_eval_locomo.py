"""The LoCoMo extraction-recall eval on a five-turn fixture, with every figure by hand.

``tests/fixtures/evals/locomo_small.json`` is one conversation in LoCoMo's format: five turns
in two sessions and seven gold observations (one of them cites a turn that does not exist,
D9:9). A keyword embedder makes the similarities exact: a text's vector has a 1 for each
keyword it contains, normalised, so cos = shared / sqrt(|a| * |b|).

The rule extractor keeps five facts, one per turn except the small talk (D1:2) and two for
D2:2, whose clauses are a PREFERENCE and a STATE:

========================================  ==========================  ============  =======
observation (evidence)                    best fact from evidence     cos           matched
========================================  ==========================  ============  =======
Ada prefers pottery to painting (D1:1)    prefers pottery over ...    2/2 = 1       yes
The kiln at the studio is broken (D1:3)   The kiln is broken ...      2/sqrt(6)     yes
Ben likes the weather (D1:2)              (no fact)                   --            no
Ben finished his first pottery bowl       finished ... first bowl     4/4 = 1       yes
Ada's favourite colour is green (D2:2)    favourite colour is green   2/2 = 1       yes
Ada's green dog comes from Leeds (D2:2)   favourite colour is green   1/sqrt(6)     no
Ada is moving to Leeds (D9:9)             (no such turn)              --            no
========================================  ==========================  ============  =======

So extraction_recall = 4/7, facts_per_turn = 5/5, dropped_share = 0/5.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from evals.harness import run_eval
from evals.registry import get
from evals.suites.locomo import DATASET, MATCH_THRESHOLD, load_conversations
from factstore import Settings, cli
from factstore.cli import evals as cli_evals
from factstore.extractors.rules import RuleExtractor
from tests.helpers import ScriptedExtractor, fact

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "fixtures" / "evals" / "locomo_small.json"
KEYWORDS = ("pottery", "painting", "kiln", "broken", "bowl", "finished", "first", "colour",
            "green", "studio", "closed", "dog", "weather", "leeds")


class KeywordEmbedder:
    """One dimension per keyword: 1 when the text contains it as a word, then normalised."""

    name = "test/keywords"
    dim = len(KEYWORDS)

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        matrix = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = set(re.findall(r"[a-z]+", text.lower()))
            for column, keyword in enumerate(KEYWORDS):
                matrix[row, column] = keyword in words
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return matrix / norms


def run(extractor: Any, embedder: Any, home: Path, dataset: Path = FIXTURE) -> tuple[Any, Any]:
    return run_eval("locomo-recall", extractor=extractor, embedder=embedder,
                    settings=Settings(), dataset=dataset, home=home)


def test_the_eval_is_registered_with_its_metrics_and_default_fixture() -> None:
    spec = get("locomo-recall")
    assert [(m.name, m.direction) for m in spec.metrics] == [
        ("extraction_recall", "higher"), ("facts_per_turn", "higher"),
        ("dropped_share", "lower")]
    assert spec.default_dataset == DATASET and DATASET.is_file()
    assert MATCH_THRESHOLD == 0.5


def test_rule_extractor_recall_matches_the_hand_count(home: Path) -> None:
    embedder = KeywordEmbedder()
    record, outcome = run(RuleExtractor(), embedder, home)
    assert outcome.metrics == pytest.approx({"extraction_recall": 4 / 7,
                                             "facts_per_turn": 1.0, "dropped_share": 0.0})
    rows = outcome.items
    assert [r["observation_id"] for r in rows[:3]] == [
        "conv-t1/session_1/0", "conv-t1/session_1/1", "conv-t1/session_1/2"]
    assert [r["matched"] for r in rows] == [True, True, False, True, True, False, False]
    kiln, weather = rows[1], rows[2]
    assert kiln["best_similarity"] == pytest.approx(2 / math.sqrt(6), abs=1e-6)
    assert kiln["best_statement"] == "The kiln is broken right now."
    assert (weather["candidate_facts"], weather["best_similarity"]) == (0, None)
    dog, leeds = rows[5], rows[6]
    assert dog["candidate_facts"] == 2  # both of D2:2's clauses were candidates
    assert dog["best_similarity"] == pytest.approx(1 / math.sqrt(6), abs=1e-6)
    assert dog["best_statement"] == "Ada's favourite colour is green."  # "I" is the speaker
    assert leeds["evidence"] == ["D9:9"] and leeds["best_statement"] is None
    assert outcome.notes["observations_without_evidence_turns"] == 1
    assert outcome.notes["match_threshold"] == MATCH_THRESHOLD
    assert outcome.notes["extraction_recall_by_conversation"] == {"conv-t1": 4 / 7}
    # Two batched calls: every kept statement, then every observation.
    assert [len(batch) for batch in embedder.calls] == [5, 7]

    (summary,) = pq.read_table(record.path / "summary.parquet").to_pylist()
    assert summary["metric_extraction_recall"] == pytest.approx(4 / 7)
    assert summary["metric_facts_per_turn"] == 1.0 and summary["metric_dropped_share"] == 0.0
    assert summary["primary_metric"] == "extraction_recall" and summary["item_count"] == 7
    assert json.loads(summary["notes"])["turns"] == 5


def test_dropped_facts_and_missing_turn_facts_count(home: Path) -> None:
    # Three kept facts and one whose quote is not in its turn (dropped by anchor hygiene).
    extractor = ScriptedExtractor()
    # each turn is captured as its chat line, so the speaker comes with it
    extractor.add("Ada: I prefer pottery over painting.",
                  fact("Ada prefers pottery over painting.", "PREFERENCE",
                       quote="I prefer pottery over painting"),
                  fact("Ada paints watercolours.", "EVENT", quote="I paint watercolours"))
    extractor.add("Ada: The kiln is broken right now.", fact("The kiln is broken.",
                                                        quote="The kiln is broken right now"))
    extractor.add("Ada: My favourite colour is green, and the studio is closed right now.",
                  fact("Ada's favourite colour is green.", "PREFERENCE",
                       quote="My favourite colour is green"))
    _, outcome = run(extractor, KeywordEmbedder(), home)
    # pottery, kiln and colour match; the bowl turn now yields nothing.
    assert outcome.metrics == pytest.approx({"extraction_recall": 3 / 7,
                                             "facts_per_turn": 3 / 5, "dropped_share": 1 / 4})
    assert [r["matched"] for r in outcome.items] == [True, True, False, False, True, False,
                                                     False]
    assert outcome.notes["facts_proposed"] == 4 and outcome.notes["facts_dropped"] == 1
    # Every turn was extracted with its own source and its session's time.
    contexts = {text: context for text, context in extractor.calls}
    assert len(contexts) == 5
    first = contexts["Ada: I prefer pottery over painting."]
    assert first.source_ref == "conv-t1:D1:1" and first.said_at is not None
    assert first.said_at.isoformat() == "2023-03-03T14:05:00"


def test_the_loader_returns_plain_conversations() -> None:
    (conversation,) = load_conversations(FIXTURE)
    assert conversation["sample_id"] == "conv-t1"
    assert [len(s["turns"]) for s in conversation["sessions"]] == [3, 2]
    assert json.dumps(conversation)  # plain JSON values only


def test_the_cli_runs_on_the_default_fixture_with_the_real_embedder(
        home: Path, embedder: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_evals, "embedder_from_name", lambda name: embedder)
    result = CliRunner().invoke(cli.app, ["--json", "eval", "run", "locomo-recall"],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    summary = json.loads(result.stdout)
    assert set(summary["metrics"]) == {"extraction_recall", "facts_per_turn", "dropped_share"}
    assert summary["item_count"] == sum(
        len(s["observations"]) for c in load_conversations(DATASET) for s in c["sessions"])
    assert 0.0 <= summary["metrics"]["extraction_recall"] <= 1.0


def test_a_paraphrase_matches_under_the_real_embedder(home: Path, embedder: Any) -> None:
    # The threshold is meant for MiniLM: the rule statement "The user prefers pottery over
    # painting." and the gold "Ada prefers pottery to painting." must clear it.
    _, outcome = run(RuleExtractor(), embedder, home)
    pottery = outcome.items[0]
    assert pottery["matched"] and pottery["best_similarity"] >= MATCH_THRESHOLD
