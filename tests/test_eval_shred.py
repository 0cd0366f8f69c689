"""The shred eval on a nine-capture fixture, with every figure worked out by hand.

``tests/fixtures/evals/shred_small.jsonl`` holds six single-assertion captures (s01-s06) and
three controls (c01-c03). The rule extractor's answers, sentence by sentence:

- s01-s05 yield one fact each (s03's outcome sentence is absorbed into its EVENT); s06 has
  no cue and yields none: shred 0/6 before and after the fix, untyped 1/6;
- c01 (two sentences) and c02 (", and" joining a STATE and a PREFERENCE: different kinds,
  so the rule extractor splits the clauses) yield two; c03 joins two STATE clauses that do
  not name two different subjects, so it stays one fact: over-merge 1/3 before and after.

The scripted extractor below answers with fragments instead, so the fix changes things.
No test here needs a database.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from evals.harness import run_eval
from evals.registry import get
from evals.suites.shred import load_shred
from factstore import Settings, cli
from factstore.cli import evals as cli_evals
from factstore.errors import InvalidInput
from factstore.extractors.base import ExtractedFact
from factstore.extractors.replay import ReplayExtractor, read_cassette
from factstore.extractors.rules import RuleExtractor
from tests.helpers import ScriptedExtractor, fact

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "tests" / "fixtures" / "evals" / "shred_small.jsonl"
CASSETTE_SCRIPT = REPO / "evals" / "cassettes" / "make_shredder.py"

RULES_METRICS = {"shred_rate": 0.0, "over_merge_rate": 1 / 3, "shred_rate_raw": 0.0,
                 "over_merge_rate_raw": 1 / 3, "untyped_rate": 1 / 6}


class NullEmbedder:
    """The shred eval never embeds; calling this is a test failure."""

    name = "test/null"
    dim = 3

    def embed(self, texts: Any) -> Any:
        raise AssertionError("the shred eval must not embed")


def texts() -> dict[str, str]:
    return {row["id"]: row["text"] for row in load_shred(FIXTURE)}


def scripted() -> ScriptedExtractor:
    """Fragments where the rule extractor gives whole sentences (counts in the comments)."""
    t = texts()
    extractor = ScriptedExtractor()
    # s01: an inventory shredded into three same-kind fragments with one head -> 3, fixed 1.
    extractor.add(t["s01"],
                  fact("The staging cluster currently runs Postgres 16.",
                       quote="The staging cluster currently runs Postgres 16"),
                  fact("The staging cluster currently runs Redis 7.", quote="Redis 7"),
                  fact("The staging cluster currently runs Kafka 3.6.", quote="Kafka 3.6"))
    extractor.add(t["s02"], fact("sample-svc is green right now."))                  # 1
    # s03: the outcome EVENT is absorbed before the fold runs -> 1, fixed 1.
    extractor.add(t["s03"], fact("Migrated all 40 pages.", "EVENT"),
                  fact("Checksum parity verified (40 == 40).", "EVENT"))
    # s04: two fragments of different kinds, which the fold never joins -> 2, fixed 2.
    extractor.add(t["s04"], fact("The mail relay is currently paused.", "STATE"),
                  fact("The mail relay is holding its queue on disk.", "EVENT",
                       quote="holding its queue on disk"))
    # s05: one fact, plus one whose quote is not in the text: dropped, never counted -> 1.
    extractor.add(t["s05"], fact("The user prefers tabs over spaces.", "PREFERENCE",
                                 quote="I prefer tabs over spaces"),
                  fact("The user prefers spaces.", "PREFERENCE", quote="I prefer spaces"))
    # s06: nothing -> 0 (untyped).
    # c01: one fact per sentence -> 2.
    extractor.add(t["c01"], fact("The nightly job is green right now."),
                  fact("The user prefers tabs over spaces.", "PREFERENCE",
                       quote="I prefer tabs over spaces"))
    # c02: both assertions merged into one fact -> 1 (over-merged before and after).
    extractor.add(t["c02"], fact("The nightly job is green and the user prefers tabs.",
                                 quote=t["c02"]))
    # c03: two STATEs with one head in one sentence: the fold joins them -> 2, fixed 1.
    extractor.add(t["c03"], fact("The build farm is green right now."),
                  fact("The build farm has 12 runners at present.",
                       quote="the build farm has 12 runners at present"))
    return extractor


def run(extractor: Any, home: Path, dataset: Path = FIXTURE) -> tuple[Any, Any]:
    return run_eval("shred", extractor=extractor, embedder=NullEmbedder(), settings=Settings(),
                    dataset=dataset, home=home)


def test_the_eval_is_registered_with_its_metrics_and_dataset() -> None:
    spec = get("shred")
    assert spec.primary.name == "shred_rate" and spec.primary.direction == "lower"
    assert [m.name for m in spec.metrics] == ["shred_rate", "over_merge_rate", "shred_rate_raw",
                                              "over_merge_rate_raw", "untyped_rate"]
    assert {m.direction for m in spec.metrics} == {"lower"}
    assert {m.tolerance for m in spec.metrics} == {0.01}
    assert spec.default_dataset == REPO / "evals" / "data" / "shred.jsonl"


def test_rule_extractor_figures_match_the_hand_count(home: Path) -> None:
    record, outcome = run(RuleExtractor(), home)
    assert outcome.metrics == pytest.approx(RULES_METRICS)
    rows = {r["id"]: r for r in outcome.items}
    assert [r["fixed_count"] for r in outcome.items] == [1, 1, 1, 1, 1, 0, 2, 2, 1]
    assert rows["c02"]["kinds"] == ["STATE", "PREFERENCE"]
    assert rows["c03"]["over_merged"] and not rows["c02"]["over_merged"]
    assert rows["s06"]["untyped"] and not rows["s06"]["shredded"]
    assert outcome.notes["over_merge_rate_by_shape"] == {
        "two-assertions-one-sentence": 0.0, "two-assertions-one-sentence-same-kind": 1.0,
        "two-sentences": 0.0}

    (summary,) = pq.read_table(record.path / "summary.parquet").to_pylist()
    for name, value in RULES_METRICS.items():
        assert summary[f"metric_{name}"] == pytest.approx(value)
    assert summary["primary_metric"] == "shred_rate" and summary["item_count"] == 9
    assert summary["extractor"] == "rules/v1"
    items = pq.read_table(record.path / "items.parquet").to_pylist()
    assert [r["id"] for r in items] == [r["id"] for r in outcome.items]
    assert str(pq.read_table(record.path / "items.parquet").schema.field("shredded").type) \
        == "bool"


def test_the_fix_is_measured_before_and_after_on_one_extraction(home: Path) -> None:
    extractor = scripted()
    _, outcome = run(extractor, home)
    assert outcome.metrics == pytest.approx({
        "shred_rate": 1 / 6,            # s04 (two kinds) is still two facts
        "shred_rate_raw": 2 / 6,        # s01 and s04
        "untyped_rate": 1 / 6,          # s06
        "over_merge_rate": 2 / 3,       # c02, and c03 which the fold joined
        "over_merge_rate_raw": 1 / 3,   # c02
    })
    rows = {r["id"]: r for r in outcome.items}
    assert (rows["s01"]["raw_count"], rows["s01"]["fixed_count"]) == (3, 1)
    assert (rows["c03"]["raw_count"], rows["c03"]["fixed_count"]) == (2, 1)
    assert rows["s05"]["dropped"] == 1 and rows["s05"]["fixed_count"] == 1
    assert outcome.notes["shred_rate_raw_by_shape"]["inventory"] == 1.0
    assert outcome.notes["shred_rate_by_shape"]["inventory"] == 0.0
    # Each capture was extracted once, and both passes used that one answer.
    assert len(extractor.calls) == 9


def test_the_cli_runs_the_eval_on_a_dataset(home: Path, embedder: Any,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_evals, "embedder_from_name", lambda name: embedder)
    result = CliRunner().invoke(cli.app, ["--json", "eval", "run", "shred", "--extractor",
                                          "rules", "--dataset", str(FIXTURE)],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    summary = json.loads(result.stdout)
    assert summary["metrics"] == pytest.approx(RULES_METRICS)
    assert summary["extractor"] == "rules/v1" and summary["item_count"] == 9


# -- the dataset loader ----------------------------------------------------------------------


GOOD_SINGLE = {"id": "s1", "text": "sample-svc is green right now.", "gold_count": 1,
               "kind": "STATE", "shape": "plain"}
GOOD_CONTROL = {"id": "c1", "text": "A is green right now. I prefer tabs.", "gold_count": 2,
                "kinds": ["STATE", "PREFERENCE"], "shape": "two-sentences"}


@pytest.mark.parametrize(("bad", "message"), [
    ("{not json", "not JSON"),
    (json.dumps([1, 2]), "expected a JSON object"),
    (json.dumps({**GOOD_SINGLE, "text": " "}), "missing 'text'"),
    (json.dumps({**GOOD_SINGLE, "gold_count": 2}), "has gold_count 1"),
    (json.dumps({**GOOD_SINGLE, "gold_count": True}), "positive integer"),
    (json.dumps({**GOOD_SINGLE, "kind": "FACT"}), "kind 'FACT' is not one of"),
    (json.dumps({**GOOD_CONTROL, "kinds": ["STATE"]}), "gold_count == len"),
    (json.dumps({**GOOD_CONTROL, "kinds": ["STATE", "state"]}), "kinds item 'state'"),
    (json.dumps({**GOOD_SINGLE, "id": "x1"}), "must start with 's'"),
    (json.dumps({**GOOD_SINGLE, "shape": None}), "missing 'shape'"),
    (json.dumps(GOOD_SINGLE), "repeats line 1"),
])
def test_a_bad_row_is_refused_naming_its_line(tmp_path: Path, bad: str, message: str) -> None:
    path = tmp_path / "shred.jsonl"
    path.write_text(json.dumps(GOOD_SINGLE) + "\n\n" + bad + "\n")
    with pytest.raises(InvalidInput, match=rf"line 3: .*{message}"):
        load_shred(path)


def test_the_loader_normalises_rows_and_refuses_empty_or_missing_files(tmp_path: Path) -> None:
    path = tmp_path / "shred.jsonl"
    path.write_text(json.dumps(GOOD_SINGLE) + "\n" + json.dumps(GOOD_CONTROL) + "\n")
    single, control = load_shred(path)
    assert (single["role"], single["kinds"]) == ("single", ["STATE"])
    assert (control["role"], control["kinds"]) == ("control", ["STATE", "PREFERENCE"])
    path.write_text("\n")
    with pytest.raises(InvalidInput, match="has no rows"):
        load_shred(path)
    with pytest.raises(InvalidInput, match="is not a file"):
        load_shred(tmp_path)


def test_the_project_dataset_loads() -> None:
    rows = load_shred(REPO / "evals" / "data" / "shred.jsonl")
    assert sum(r["role"] == "single" for r in rows) >= 150
    assert sum(r["role"] == "control" for r in rows) >= 50


# -- the synthetic shredder cassette ---------------------------------------------------------


def shredder() -> ModuleType:
    """The generator script, imported from its path (evals/cassettes is not a package)."""
    spec = importlib.util.spec_from_file_location("make_shredder", CASSETTE_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Registered first: its dataclasses look their module up while the class is built.
    sys.modules.setdefault("make_shredder", module)
    spec.loader.exec_module(module)
    return module


def test_the_committed_cassette_is_what_the_generator_writes() -> None:
    assert shredder().main(["--check"]) == 0


def test_the_cassette_shreds_singles_verbatim_and_keeps_control_assertions_apart() -> None:
    rows = {row["text"]: row for row in load_shred(REPO / "evals" / "data" / "shred.jsonl")}
    entries = read_cassette(REPO / "evals" / "cassettes" / "shredder.jsonl")
    assert len(entries) == len(rows) and {e["model"] for e in entries} == {"shredder-v1"}
    shredded = 0
    for entry in entries:
        row = rows[entry["text"]]
        facts = [ExtractedFact(**{**f, "topics": tuple(f["topics"])}) for f in entry["facts"]]
        assert all(f.quote and f.quote in entry["text"] for f in facts)
        if row["role"] == "single":
            assert {f.kind for f in facts} == set(row["kinds"])
            shredded += len(facts) >= 2
        else:
            assert [f.kind for f in facts] == row["kinds"]
    assert shredded > len(rows) / 2  # the defect is reproduced on most single captures


def test_replaying_a_shredder_cassette_measures_the_fix(home: Path, tmp_path: Path) -> None:
    # The generator run on the fixture: s01 -> 3 same-head fragments, s04 -> 2 (the verb
    # phrase gets the sentence's subject), s03's fragments are outcomes absorbed into the
    # EVENT; c03's two STATEs name the same subject and share a head, so the fold joins them.
    cassette = tmp_path / "fixture-shredder.jsonl"
    cassette.write_text(shredder().build(FIXTURE), encoding="utf-8")
    _, outcome = run(ReplayExtractor(cassette), home)
    assert outcome.metrics == pytest.approx({
        "shred_rate": 0.0, "shred_rate_raw": 2 / 6, "untyped_rate": 0.0,
        "over_merge_rate": 1 / 3, "over_merge_rate_raw": 0.0})
    rows = {r["id"]: r for r in outcome.items}
    assert [rows[i]["raw_count"] for i in ("s01", "s03", "s04", "c03")] == [3, 1, 2, 2]
