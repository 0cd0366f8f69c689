"""The relation-extraction eval on an eleven-sentence fixture, every figure worked out by hand.

``tests/fixtures/evals/relations_small.jsonl`` (sentences written for this test, none in
the gold set) holds six dev rows (f01-f06) and five held-out rows (f07-f11): 12 gold
triples (6 + 6), 21 distinct gold names per sentence (a speaker counts as a name).

The parser extractor: every gold triple but one is read; f08's "Kwame, ..." is dropped by
the parser as a vocative, so its works_at is missed and "Kwame" is not a mention; f11's
"Grafana dashboards built by Noor" adds a wrong created(Noor, Grafana). So 12 predicted,
TP 11, FP 1, FN 1: precision = recall = F1 = 11/12; dev 6/6; held-out 5/6 each; mention
recall 20/21; nothing cleared.

The synthetic replay (evals/cassettes/make_relations.py run on the fixture, errors by row
number n): n=5 (f05) swaps works_at for member_of (FP 1, FN 1); n=7 (f07) drops its last
triple (FN 1, "Lyon" no mention); n=9 (f09) writes "PIETER", not verbatim, so prepare
clears that mention and the relation (FN 1, cleared 1); n=11 (f11) adds an employed_by
triple, cleared (1); f06 is a question, no fact. So TP 9, FP 1, FN 3: precision 9/10,
recall 9/12, F1 2*0.9*0.75/1.65 = 9/11; dev 5/6 and 5/6; held-out 4/4 and 4/6; mention
recall 19/21; cleared 2 of 12 emitted = 1/6.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from evals.harness import run_eval
from evals.registry import get
from evals.suites.relation_extraction import load_relations, triple_key
from factstore import Settings
from factstore.errors import InvalidInput
from factstore.extractors.parsed import ParserExtractor
from factstore.extractors.replay import ReplayExtractor, read_cassette

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "fixtures" / "evals" / "relations_small.jsonl"
CASSETTE_SCRIPT = REPO / "evals" / "cassettes" / "make_relations.py"


class NullEmbedder:
    """The relation eval never embeds; calling this is a test failure."""

    name = "test/null"
    dim = 3

    def embed(self, texts: Any) -> Any:
        raise AssertionError("the relation eval must not embed")


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("make_relations", CASSETTE_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_relations"] = module
    spec.loader.exec_module(module)
    return module


def run(extractor: Any, home: Path, dataset: Path = FIXTURE) -> tuple[Any, Any]:
    return run_eval("relation-extraction", extractor=extractor, embedder=NullEmbedder(),
                    settings=Settings(), dataset=dataset, home=home)


def test_the_eval_is_registered_with_f1_first() -> None:
    spec = get("relation-extraction")
    assert spec.primary.name == "f1" and spec.primary.direction == "higher"
    names = [m.name for m in spec.metrics]
    assert names[:4] == ["f1", "precision", "recall", "mention_recall"]
    assert spec.metric("cleared_share").direction == "lower"
    assert spec.default_dataset == REPO / "evals" / "data" / "relations.jsonl"


def test_the_parser_extractor_figures_match_the_hand_count(home: Path) -> None:
    record, outcome = run(ParserExtractor(), home)
    assert outcome.metrics == pytest.approx({
        "f1": 11 / 12, "precision": 11 / 12, "recall": 11 / 12, "mention_recall": 20 / 21,
        "f1_dev": 1.0, "precision_dev": 1.0, "recall_dev": 1.0,
        "f1_heldout": 5 / 6, "precision_heldout": 5 / 6, "recall_heldout": 5 / 6,
        "cleared_share": 0.0})
    rows = {r["id"]: r for r in outcome.items}
    assert rows["f08"]["missed"] == [["Kwame", "works_at", "Helix Robotics"]]
    assert rows["f11"]["spurious"] == [["Noor", "created", "Grafana"]]
    assert rows["f09"]["predicted"] == [["Pieter", "sibling_of", "Noor"]]  # symmetric: a match
    assert rows["f04"]["predicted"] == [] and rows["f06"]["facts"] == 0
    assert outcome.notes["by_category"]["simple"] == {
        "rows": 3, "tp": 3, "fp": 1, "fn": 0, "precision": 0.75, "recall": 1.0,
        "f1": pytest.approx(6 / 7)}
    assert outcome.notes["by_split"]["dev"]["tp"] == 6
    assert record.metrics == outcome.metrics


def test_replaying_the_synthetic_model_shows_prepare_clearing_bad_output(
        home: Path, tmp_path: Path) -> None:
    cassette = tmp_path / "fixture-relations.jsonl"
    cassette.write_text(generator().build(FIXTURE), encoding="utf-8")
    _, outcome = run(ReplayExtractor(cassette), home)
    assert outcome.metrics == pytest.approx({
        "f1": 9 / 11, "precision": 0.9, "recall": 0.75, "mention_recall": 19 / 21,
        "f1_dev": 5 / 6, "precision_dev": 5 / 6, "recall_dev": 5 / 6,
        "f1_heldout": 0.8, "precision_heldout": 1.0, "recall_heldout": 4 / 6,
        "cleared_share": 1 / 6})
    rows = {r["id"]: r for r in outcome.items}
    assert rows["f05"]["spurious"] == [["Tariq", "member_of", "Bluefin Labs"]]
    assert rows["f07"]["missed"] == [["Ivo", "moved_to", "Lyon"]]
    assert rows["f09"]["cleared_relations"] == 1 and rows["f09"]["predicted"] == []
    assert any("PIETER" in c for c in rows["f09"]["cleared"])
    assert any("employed_by" in c for c in rows["f11"]["cleared"])
    assert rows["f11"]["matched"] == [["Atlas team", "uses", "Grafana"]]
    assert outcome.notes["cleared_relations"] == 2


def test_the_committed_cassette_is_what_the_generator_writes_and_says_so() -> None:
    module = generator()
    assert module.main(["--check"]) == 0
    assert "NOT A MODEL RECORDING" in (module.__doc__ or "")
    entries = read_cassette(REPO / "evals" / "cassettes" / "relations.jsonl")
    assert {e["model"] for e in entries} == {"relations-synthetic-v1"}
    texts = [r["text"] for r in load_relations(REPO / "evals" / "data" / "relations.jsonl")]
    assert [e["text"] for e in entries] == texts
    for entry in entries:
        assert all(f["quote"] in entry["text"] for f in entry["facts"])


def test_symmetric_predicates_match_in_either_order_and_case_is_folded() -> None:
    assert triple_key("Ana", "sibling_of", "Ben") == triple_key("ben", "sibling_of", "ANA")
    assert triple_key("Ana", "manages", "Ben") != triple_key("Ben", "manages", "Ana")


def test_the_loader_refuses_a_predicate_outside_the_vocabulary(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "x1", "text": "Ana is Ben's cousin.", "category": "simple",
                               "triples": [{"subject": "Ana", "predicate": "cousin_of",
                                            "object": "Ben"}]}) + "\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match="cousin_of"):
        load_relations(bad)


def test_ids_give_the_split_unless_a_row_names_its_own() -> None:
    rows = load_relations(FIXTURE)
    assert [r["split"] for r in rows].count("dev") == 6
    gold = load_relations(REPO / "evals" / "data" / "relations.jsonl")
    assert {r["id"] for r in gold if r["split"] == "dev"} == {f"r{n:04d}" for n in range(1, 86)}
