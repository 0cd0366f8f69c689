"""The extraction-yield eval on a ten-sentence fixture, with every figure worked out by hand.

The fixture (written inline below) has five one-fact sentences (o1-o5), three two-fact
sentences (t1-t3) and two no-fact sentences (n1, n2). The scripted extractor answers:

- o1 one STATE (gold STATE): ok; o2 one PREFERENCE (gold RULE): ok, wrong kind; o3 nothing
  (gold EVENT): no-fact; o4 a DECISION and a REFERENCE (different kinds, so the fold keeps
  both): shred; o5 (no gold kinds) one fact plus one whose quote is not in the text, which
  the write path drops and never counts: ok;
- t1 two facts: ok; t2 one fact for both assertions: over-merge; t3 three facts: shred;
- n1 nothing: ok; n2 one fact: false-fact.

So no_fact_rate 1/5, shred_rate 1/5, over_merge_rate 1/3, two_fact_exact 1/3,
false_fact_rate 1/2, and kind_accuracy 1/2 (of o1 and o2, the sentences with gold kinds that
yielded one fact, only o1 has the gold kind). No test here needs a database.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from evals.harness import run_eval
from evals.registry import get
from evals.suites.extraction_yield import load_sentences
from factstore import Settings, cli
from factstore.cli import evals as cli_evals
from factstore.errors import InvalidInput
from factstore.kinds import Kind
from tests.helpers import ScriptedExtractor, fact

REPO = Path(__file__).resolve().parents[1]
DATASET = REPO / "evals" / "data" / "sentences.jsonl"

ROWS = [
    {"id": "o1", "group": "one-fact", "gold_facts": 1, "kinds": ["STATE"],
     "text": "My sister lives in Porto now."},
    {"id": "o2", "group": "one-fact", "gold_facts": 1, "kinds": ["RULE"],
     "text": "never merge on a friday"},
    {"id": "o3", "group": "one-fact", "gold_facts": 1, "kinds": ["EVENT"],
     "text": "I went to a pottery class yesterday and it was lovely."},
    {"id": "o4", "group": "one-fact", "gold_facts": 1, "kinds": ["DECISION"],
     "text": "We're moving the wiki to docs.example.test next week."},
    {"id": "o5", "group": "one-fact", "gold_facts": 1, "note": "no gold kinds",
     "text": "I prefer tea over coffee in the mornings."},
    {"id": "t1", "group": "two-fact", "gold_facts": 2, "kinds": ["EVENT", "STATE"],
     "text": "I moved to Denver last year and my brother still lives in Ohio."},
    {"id": "t2", "group": "two-fact", "gold_facts": 2, "kinds": ["STATE", "STATE"],
     "text": "The api is on postgres 15, but the worker is on mysql."},
    {"id": "t3", "group": "two-fact", "gold_facts": 2, "kinds": ["PREFERENCE", "STATE"],
     "text": "I love sushi but my wife is allergic to fish."},
    {"id": "n1", "group": "no-fact", "gold_facts": 0, "text": "Hey Mel! Good to see you!"},
    {"id": "n2", "group": "no-fact", "gold_facts": 0, "text": "Thanks, that helps!"},
]
TEXT = {row["id"]: row["text"] for row in ROWS}

METRICS = {"no_fact_rate": 1 / 5, "shred_rate": 1 / 5, "over_merge_rate": 1 / 3,
           "two_fact_exact": 1 / 3, "false_fact_rate": 1 / 2, "kind_accuracy": 1 / 2}


class NullEmbedder:
    """The extraction-yield eval never embeds; calling this is a test failure."""

    name = "test/null"
    dim = 3

    def embed(self, texts: Any) -> Any:
        raise AssertionError("the extraction-yield eval must not embed")


def scripted() -> ScriptedExtractor:
    extractor = ScriptedExtractor()
    extractor.add(TEXT["o1"], fact("The user's sister lives in Porto.",
                                   quote="My sister lives in Porto now"))
    extractor.add(TEXT["o2"], fact("The team never merges on a Friday.", "PREFERENCE",
                                   quote="never merge on a friday"))
    # o3: nothing.
    extractor.add(TEXT["o4"], fact("The team is moving the wiki next week.", "DECISION",
                                   quote="We're moving the wiki"),
                  fact("The wiki will be at docs.example.test.", "REFERENCE",
                       quote="docs.example.test"))
    extractor.add(TEXT["o5"], fact("The user prefers tea over coffee.", "PREFERENCE",
                                   quote="I prefer tea over coffee"),
                  fact("The user prefers coffee.", "PREFERENCE", quote="I prefer coffee"))
    extractor.add(TEXT["t1"], fact("The user moved to Denver last year.", "EVENT",
                                   quote="I moved to Denver last year"),
                  fact("The user's brother lives in Ohio.",
                       quote="my brother still lives in Ohio"))
    extractor.add(TEXT["t2"], fact("The api and the worker use different databases.",
                                   quote=TEXT["t2"]))
    extractor.add(TEXT["t3"], fact("The user loves sushi.", "PREFERENCE",
                                   quote="I love sushi"),
                  fact("The user's wife is allergic to fish.",
                       quote="my wife is allergic to fish"),
                  fact("The user has a wife.", "EVENT", quote="my wife"))
    # n1: nothing.
    extractor.add(TEXT["n2"], fact("The advice helped.", "EVENT", quote="that helps"))
    return extractor


def write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


@pytest.fixture()
def fixture(tmp_path: Path) -> Path:
    return write(tmp_path / "sentences.jsonl", ROWS)


def run(extractor: Any, home: Path, dataset: Path) -> tuple[Any, Any]:
    return run_eval("extraction-yield", extractor=extractor, embedder=NullEmbedder(),
                    settings=Settings(), dataset=dataset, home=home)


def test_the_eval_is_registered_with_its_metrics_and_dataset() -> None:
    spec = get("extraction-yield")
    assert spec.primary.name == "no_fact_rate" and spec.primary.direction == "lower"
    assert [(m.name, m.direction) for m in spec.metrics] == [
        ("no_fact_rate", "lower"), ("shred_rate", "lower"), ("over_merge_rate", "lower"),
        ("two_fact_exact", "higher"), ("false_fact_rate", "lower"),
        ("kind_accuracy", "higher")]
    assert {m.tolerance for m in spec.metrics} == {0.01}
    assert spec.default_dataset == DATASET


def test_scripted_figures_match_the_hand_count(home: Path, fixture: Path) -> None:
    extractor = scripted()
    record, outcome = run(extractor, home, fixture)
    assert outcome.metrics == pytest.approx(METRICS)
    assert len(extractor.calls) == len(ROWS)  # one extraction per sentence
    rows = {r["id"]: r for r in outcome.items}
    assert [r["id"] for r in outcome.items] == list(TEXT)
    assert [r["facts"] for r in outcome.items] == [1, 1, 0, 2, 1, 2, 1, 3, 0, 1]
    assert [r["outcome"] for r in outcome.items] == [
        "ok", "ok", "no-fact", "shred", "ok", "ok", "over-merge", "shred", "ok", "false-fact"]
    assert rows["o2"]["kinds"] == ["PREFERENCE"] and rows["o2"]["gold_kinds"] == ["RULE"]
    assert rows["o4"]["kinds"] == ["DECISION", "REFERENCE"]
    assert rows["o4"]["statements"] == ["The team is moving the wiki next week.",
                                        "The wiki will be at docs.example.test."]
    assert rows["o5"]["dropped"] == 1 and rows["o5"]["gold_kinds"] == []
    assert rows["n1"]["text"] == TEXT["n1"] and rows["n1"]["gold_facts"] == 0

    notes = outcome.notes
    assert notes["no_fact_rate_by_kind"] == {"DECISION": 0.0, "EVENT": 1.0, "RULE": 0.0,
                                             "STATE": 0.0}
    assert notes["sentences_by_group"] == {"one-fact": 5, "two-fact": 3, "no-fact": 2}
    assert notes["outcomes_by_group"] == {
        "one-fact": {"no-fact": 1, "ok": 3, "shred": 1},
        "two-fact": {"ok": 1, "over-merge": 1, "shred": 1},
        "no-fact": {"false-fact": 1, "ok": 1}}
    assert (notes["facts_kept"], notes["facts_dropped"]) == (12, 1)
    # Timing is a note, never a metric.
    assert isinstance(notes["ms_per_sentence_p50"], float) and notes["ms_per_sentence_p50"] >= 0
    assert "ms_per_sentence_p50" not in outcome.metrics

    (summary,) = pq.read_table(record.path / "summary.parquet").to_pylist()
    for name, value in METRICS.items():
        assert summary[f"metric_{name}"] == pytest.approx(value)
    assert summary["primary_metric"] == "no_fact_rate" and summary["item_count"] == 10
    items = pq.read_table(record.path / "items.parquet")
    assert items.column("outcome").to_pylist()[:4] == ["ok", "ok", "no-fact", "shred"]
    assert str(items.schema.field("facts").type) == "int64"


def test_empty_groups_leave_their_rates_undefined(home: Path, tmp_path: Path) -> None:
    only_chat = write(tmp_path / "chat.jsonl", [r for r in ROWS if r["group"] == "no-fact"])
    _, outcome = run(scripted(), home, only_chat)
    assert outcome.metrics == {"no_fact_rate": None, "shred_rate": None,
                               "over_merge_rate": None, "two_fact_exact": None,
                               "false_fact_rate": 0.5, "kind_accuracy": None}


def test_the_cli_lists_and_runs_the_eval(home: Path, fixture: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    listed = CliRunner().invoke(cli.app, ["--json", "eval", "list"], env={"COLUMNS": "200"})
    assert listed.exit_code == 0, (listed.stdout, listed.stderr)
    (entry,) = [e for e in json.loads(listed.stdout) if e["name"] == "extraction-yield"]
    assert entry["primary"] == "no_fact_rate" and entry["direction"] == "lower"

    monkeypatch.setattr(cli_evals, "embedder_from_name", lambda name: NullEmbedder())
    result = CliRunner().invoke(cli.app, ["--json", "eval", "run", "extraction-yield",
                                          "--extractor", "rules", "--dataset", str(fixture)],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    summary = json.loads(result.stdout)
    assert summary["extractor"] == "rules/v1" and summary["item_count"] == 10
    assert set(summary["metrics"]) == set(METRICS)


# -- the dataset loader ----------------------------------------------------------------------


GOOD = {"id": "g1", "group": "one-fact", "gold_facts": 1, "kinds": ["STATE"],
        "text": "search is down in eu-west"}


@pytest.mark.parametrize(("bad", "message"), [
    ("{not json", "not JSON"),
    (json.dumps([1, 2]), "expected a JSON object"),
    (json.dumps({**GOOD, "id": ""}), "missing 'id'"),
    (json.dumps({**GOOD, "id": "b1", "text": None}), "b1: missing 'text'"),
    (json.dumps({**GOOD, "id": "b1", "text": "  "}), "b1: missing 'text'"),
    (json.dumps({**GOOD, "id": "b1", "gold_facts": "1"}),
     "b1: 'gold_facts' must be an integer \\(1 for group one-fact\\), found '1'"),
    (json.dumps({**GOOD, "id": "b1", "gold_facts": True}), "b1: 'gold_facts' must be an int"),
    (json.dumps({**GOOD, "id": "b1", "group": "three-fact"}),
     "b1: 'group' 'three-fact' is not one of one-fact, two-fact, no-fact"),
    (json.dumps({**GOOD, "id": "b1", "gold_facts": 2}),
     "b1: a one-fact row has gold_facts 1, found 2; move it to the right group"),
    (json.dumps({**GOOD, "id": "b1", "kinds": ["STATE", "EVENT"]}),
     "b1: 'kinds' lists one kind per fact \\(1 here\\)"),
    (json.dumps({**GOOD, "id": "b1", "kinds": ["state"]}), "b1: kinds item 'state'"),
    (json.dumps({**GOOD, "id": "b1", "note": 3}), "b1: 'note' must be a string"),
    (json.dumps(GOOD), "id 'g1' repeats line 1; give it a new id"),
])
def test_a_bad_row_is_refused_naming_its_line(tmp_path: Path, bad: str, message: str) -> None:
    path = tmp_path / "sentences.jsonl"
    path.write_text(json.dumps(GOOD) + "\n\n" + bad + "\n", encoding="utf-8")
    with pytest.raises(InvalidInput, match=rf"sentences dataset .* line 3: {message}"):
        load_sentences(path)


def test_the_loader_normalises_rows_and_refuses_empty_or_missing_files(tmp_path: Path) -> None:
    path = write(tmp_path / "sentences.jsonl", [GOOD, ROWS[8]])
    one, chat = load_sentences(path)
    assert one == {**GOOD, "note": None}
    assert (chat["kinds"], chat["gold_facts"], chat["note"]) == ([], 0, None)
    path.write_text("\n")
    with pytest.raises(InvalidInput, match="has no rows"):
        load_sentences(path)
    with pytest.raises(InvalidInput, match="is not a file; pass a .jsonl file"):
        load_sentences(tmp_path)


def test_the_project_dataset_loads_and_is_big_enough() -> None:
    rows = load_sentences(DATASET)
    groups = Counter(r["group"] for r in rows)
    assert groups["one-fact"] >= 150 and groups["two-fact"] >= 60 and groups["no-fact"] >= 40
    assert len({r["id"] for r in rows}) == len(rows)
    assert len({r["text"] for r in rows}) == len(rows)
    ones = [r for r in rows if r["group"] == "one-fact"]
    assert all(len(r["kinds"]) == 1 for r in ones)
    assert {r["kinds"][0] for r in ones} == {k.value for k in Kind}
    assert all(len(r["kinds"]) == 2 for r in rows if r["group"] == "two-fact")
