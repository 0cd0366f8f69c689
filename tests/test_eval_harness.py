"""The eval harness: runs recorded as Parquet, read back and compared with DuckDB, gated by the CLI.

A test-only eval ("count the facts") runs on a ten-capture fixture written here, with a
scripted extractor, so every metric is known by hand: exact = share of captures whose fact
count equals the gold count (higher is better, tolerance 0.1), over_rate = share with more
facts than gold (lower is better, tolerance 0). Only the last test needs a database.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner, Result

from evals.compare import compare, list_runs, run_summary
from evals.harness import run_eval
from evals.records import RunRecord, dataset_hash, write_run
from evals.registry import REGISTRY, EvalContext, EvalOutcome, EvalSpec, Metric, register
from factstore import Settings, Store, cli
from factstore.errors import DatabaseUnavailable, InvalidInput
from factstore.extractors.base import ExtractionContext
from factstore.extractors.replay import RecordingExtractor
from factstore.store import server
from tests.helpers import ScriptedExtractor, fact

_names = itertools.count()

#: (text, gold count) for the fixture; the gold counts are what a perfect extractor yields.
FIXTURE = [(f"capture number {i}", 1 + i % 3) for i in range(10)]


class NullEmbedder:
    """An embedder for evals that never embed: calling it is a test failure."""

    name = "test/null"
    dim = 3

    def embed(self, texts: Any) -> Any:
        raise AssertionError("this eval must not embed")


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def count_facts(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
    rows = []
    for item in items:
        facts = ctx.extractor.extract(item["text"], ExtractionContext())
        rows.append({"text": item["text"], "gold": item["gold"], "got": len(facts),
                     "correct": len(facts) == item["gold"],
                     "statements": [f.statement for f in facts]})
    n = len(rows)
    return EvalOutcome(
        items=rows,
        metrics={"exact": sum(r["correct"] for r in rows) / n,
                 "over_rate": sum(r["got"] > r["gold"] for r in rows) / n},
        notes={"fixture": "ten hand-made captures", "run_id": ctx.run_id})


def counting_extractor(under: int = 0, over: int = 0) -> ScriptedExtractor:
    """Right on every capture except the first ``under`` (one fact short) and the next
    ``over`` (one fact too many)."""
    extractor = ScriptedExtractor()
    for index, (text, gold) in enumerate(FIXTURE):
        count = gold - 1 if index < under else gold + 1 if index < under + over else gold
        extractor.add(text, *(fact(f"Fact {k} of {text}.") for k in range(count)))
    return extractor


@pytest.fixture()
def dataset(tmp_path: Path) -> Path:
    path = tmp_path / "counts.jsonl"
    path.write_text("".join(json.dumps({"text": t, "gold": g}) + "\n" for t, g in FIXTURE))
    return path


def _spec(name: str, dataset: Path, run: Callable[..., EvalOutcome] = count_facts,
          tolerance: float = 0.1) -> EvalSpec:
    return EvalSpec(name=name, description="count the facts (test only)",
                    metrics=(Metric("exact", "higher", tolerance),
                             Metric("over_rate", "lower", 0.0)),
                    default_dataset=dataset, load=load_jsonl, run=run)


@pytest.fixture()
def make_eval(dataset: Path) -> Iterator[Callable[..., EvalSpec]]:
    """Register test-only evals under unique names; unregistered afterwards."""
    made: list[str] = []

    def _make(run: Callable[..., EvalOutcome] = count_facts, tolerance: float = 0.1) -> EvalSpec:
        spec = register(_spec(f"test_counts_{next(_names)}", dataset, run, tolerance))
        made.append(spec.name)
        return spec

    yield _make
    for name in made:
        REGISTRY.pop(name, None)


@pytest.fixture()
def counts(make_eval: Callable[..., EvalSpec]) -> EvalSpec:
    return make_eval()


def run(spec: EvalSpec, home: Path, under: int = 0, over: int = 0, **kwargs: Any) -> RunRecord:
    kwargs.setdefault("settings", Settings())
    record, _ = run_eval(spec.name, extractor=counting_extractor(under, over),
                         embedder=NullEmbedder(), home=home, **kwargs)
    return record


def cli_run(*args: str, code: int = 0) -> Result:
    result = CliRunner().invoke(cli.app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == code, (
        f"exit {result.exit_code} != {code}\nstdout:\n{result.stdout}\n"
        f"stderr:\n{result.stderr}\nexception: {result.exception!r}")
    return result


# -- the record ------------------------------------------------------------------------------


def test_a_run_writes_one_item_row_per_item_and_one_summary_row(
        counts: EvalSpec, home: Path, dataset: Path) -> None:
    settings = Settings(density_threshold=0.9)
    record, outcome = run_eval(counts.name, extractor=counting_extractor(under=3),
                               embedder=NullEmbedder(), settings=settings, home=home)
    assert re.fullmatch(rf"{counts.name}-\d{{8}}T\d{{6}}-[0-9a-f]{{6}}", record.run_id)
    assert record.path == home.resolve() / "evals" / record.run_id
    assert record.metrics == {"exact": 0.7, "over_rate": 0.0}  # 3 of 10 short, none over
    assert outcome.notes["run_id"] == record.run_id  # the runner saw its own run id

    items = pq.read_table(record.path / "items.parquet")
    assert items.num_rows == 10
    assert items.column_names == ["run_id", "item_index", "text", "gold", "got", "correct",
                                  "statements"]
    assert str(items.schema.field("correct").type) == "bool"
    assert str(items.schema.field("got").type) == "int64"
    rows = items.to_pylist()
    assert {r["run_id"] for r in rows} == {record.run_id}
    assert [r["item_index"] for r in rows] == list(range(10))
    assert rows[0]["got"] == FIXTURE[0][1] - 1 and rows[0]["correct"] is False
    # Nested values are stored JSON-encoded.
    assert json.loads(rows[4]["statements"]) == [f"Fact {k} of {FIXTURE[4][0]}."
                                                 for k in range(FIXTURE[4][1])]

    summary = pq.read_table(record.path / "summary.parquet")
    assert summary.num_rows == 1
    (row,) = summary.to_pylist()
    assert set(summary.column_names) == {
        "run_id", "eval", "started_at", "finished_at", "git_commit", "git_dirty", "extractor",
        "embedder", "thresholds", "dataset", "dataset_sha256", "item_count", "primary_metric",
        "directions", "tolerances", "notes", "metric_exact", "metric_over_rate"}
    assert row["run_id"] == record.run_id and row["eval"] == counts.name
    assert row["started_at"] <= row["finished_at"]
    assert row["git_commit"] == "unknown" or re.fullmatch(r"[0-9a-f]{40}", row["git_commit"])
    assert row["extractor"] == "scripted/test" and row["embedder"] == "test/null"
    assert json.loads(row["thresholds"]) == json.loads(json.dumps(settings.as_dict()))
    assert json.loads(row["thresholds"])["density_threshold"] == 0.9
    assert row["dataset"] == str(dataset.resolve())
    assert row["dataset_sha256"] == hashlib.sha256(dataset.read_bytes()).hexdigest()
    assert row["item_count"] == 10 and row["primary_metric"] == "exact"
    assert row["metric_exact"] == 0.7 and row["metric_over_rate"] == 0.0
    assert json.loads(row["directions"]) == {"exact": "higher", "over_rate": "lower"}
    assert json.loads(row["tolerances"]) == {"exact": 0.1, "over_rate": 0.0}
    assert json.loads(row["notes"])["fixture"] == "ten hand-made captures"


def test_item_columns_of_mixed_types_are_json_and_reserved_names_are_refused(
        counts: EvalSpec, home: Path, dataset: Path) -> None:
    context = EvalContext(extractor=ScriptedExtractor(), embedder=NullEmbedder(),
                          settings=Settings(), open_store=lambda: None)
    outcome = EvalOutcome(items=[{"value": 1, "ratio": 1}, {"value": "1", "ratio": 0.5},
                                 {"value": None}],
                          metrics={"exact": 1})
    record = write_run(counts, outcome, dataset=dataset, context=context, home=home)
    rows = pq.read_table(record.path / "items.parquet").to_pylist()
    assert [r["value"] for r in rows] == ["1", '"1"', None]  # 1 and "1" stay distinguishable
    assert [r["ratio"] for r in rows] == [1.0, 0.5, None]  # ints and floats make a float column

    with pytest.raises(InvalidInput, match="reserved field 'run_id'"):
        write_run(counts, EvalOutcome(items=[{"run_id": 3}], metrics={}), dataset=dataset,
                  context=context, home=home)
    with pytest.raises(InvalidInput, match="metric 'exact' is 'high'"):
        write_run(counts, EvalOutcome(items=[], metrics={"exact": "high"}), dataset=dataset,
                  context=context, home=home)
    assert len(list_runs(home)) == 1  # the refused writes left nothing behind


def test_a_secret_in_an_item_is_redacted_in_the_run_record(
        counts: EvalSpec, home: Path, dataset: Path) -> None:
    from tests.secrets_corpus import SECRETS

    context = EvalContext(extractor=ScriptedExtractor(), embedder=NullEmbedder(),
                          settings=Settings(), open_store=lambda: None)
    items = [{"text": text, "facts": [f"it says {text}"]} for _, text, _ in SECRETS]
    record = write_run(counts, EvalOutcome(items=items, metrics={"exact": 1}),
                       dataset=dataset, context=context, home=home)
    stored = (record.path / "items.parquet").read_bytes().decode("latin-1")
    rows = pq.read_table(record.path / "items.parquet").to_pylist()
    for _, _, needle in SECRETS:
        assert needle not in stored and not any(needle in str(r) for r in rows)
    assert all("[REDACTED:" in r["text"] for r in rows)


def test_dataset_hash_of_a_directory_follows_names_and_contents(tmp_path: Path) -> None:
    folder = tmp_path / "set"
    folder.mkdir()
    (folder / "a.tsv").write_text("one\n")
    (folder / "b.tsv").write_text("two\n")
    first = dataset_hash(folder)
    assert first == dataset_hash(folder) and len(first) == 64
    (folder / "b.tsv").write_text("two!\n")
    edited = dataset_hash(folder)
    (folder / "b.tsv").rename(folder / "c.tsv")
    assert len({first, edited, dataset_hash(folder)}) == 3


def test_a_missing_dataset_or_a_failing_runner_records_nothing(
        make_eval: Callable[..., EvalSpec], home: Path, tmp_path: Path) -> None:
    counts = make_eval()
    with pytest.raises(InvalidInput, match="absent.jsonl does not exist"):
        run(counts, home, dataset=tmp_path / "absent.jsonl")

    def broken(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
        raise RuntimeError("the runner broke")

    with pytest.raises(RuntimeError, match="the runner broke"):
        run(make_eval(broken), home)
    with pytest.raises(InvalidInput, match="needs a store_factory"):
        run(counts, home, record=True)
    assert list_runs(home) == []


def test_record_hands_the_runner_the_evidence_store_and_closes_it(
        make_eval: Callable[..., EvalSpec], home: Path) -> None:
    class EvidenceStore:
        closed = False

        def close(self) -> None:
            self.closed = True

    evidence = EvidenceStore()
    seen: list[tuple[bool, Any]] = []

    def records(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
        seen.append((ctx.record, ctx.evidence_store, evidence.closed))
        return EvalOutcome(items=[], metrics={"exact": 1})

    spec = make_eval(records)
    run(spec, home, record=True, store_factory=lambda: evidence)
    assert evidence.closed  # closed by the harness after the run
    run(spec, home)  # without --record the runner gets no store of the user's
    # The store was open while the runner ran.
    assert seen == [(True, evidence, False), (False, None, True)]


# -- reading back and comparing --------------------------------------------------------------


def test_compare_reports_the_deltas_and_catches_an_injected_regression(
        counts: EvalSpec, home: Path) -> None:
    baseline = run(counts, home)
    within = run(counts, home, under=1)       # exact 1.0 -> 0.9: worse by exactly the tolerance
    regressed = run(counts, home, under=2)    # exact 1.0 -> 0.8: past it
    over = run(counts, home, over=1)          # over_rate 0 -> 0.1 with tolerance 0

    fine = compare(baseline.run_id, within.run_id)
    assert fine.ok and fine.regressions == () and fine.eval == counts.name
    exact = {d.name: d for d in fine.deltas}["exact"]
    assert (exact.before, exact.after, exact.direction, exact.tolerance) == (1.0, 0.9,
                                                                             "higher", 0.1)
    assert exact.delta == pytest.approx(-0.1) and not exact.regressed and not exact.improved

    caught = compare(baseline.run_id, regressed.run_id)
    assert not caught.ok
    assert [d.name for d in caught.regressions] == ["exact"]
    assert caught.regressions[0].delta == pytest.approx(-0.2)

    # Every metric is judged, not only the primary one.
    assert [d.name for d in compare(baseline.run_id, over.run_id).regressions] == ["over_rate"]
    # The other way round, the same change is an improvement.
    back = compare(regressed.run_id, baseline.run_id)
    assert back.ok and {d.name: d for d in back.deltas}["exact"].improved


def test_compare_judges_by_the_baselines_tolerances(
        counts: EvalSpec, home: Path) -> None:
    baseline = run(counts, home)
    # The code under test loosens its own tolerance; that must not excuse its regression.
    REGISTRY[counts.name] = dataclasses.replace(
        counts, metrics=(Metric("exact", "higher", 0.5), Metric("over_rate", "lower", 0.0)))
    loosened = run(counts, home, under=2)
    assert run_summary(loosened.run_id).tolerances["exact"] == 0.5
    assert not compare(baseline.run_id, loosened.run_id).ok
    assert compare(loosened.run_id, run(counts, home, under=6).run_id).ok  # B's baseline: 0.5


def test_a_metric_missing_from_the_new_run_fails_the_comparison(
        counts: EvalSpec, home: Path, dataset: Path) -> None:
    baseline = run(counts, home)
    context = EvalContext(extractor=ScriptedExtractor(), embedder=NullEmbedder(),
                          settings=Settings(), open_store=lambda: None)
    partial = write_run(counts, EvalOutcome(items=[], metrics={"exact": 1.0, "extra": 3}),
                        dataset=dataset, context=context, home=home)
    result = compare(baseline.run_id, partial.run_id)
    assert result.dropped == ("over_rate",) and result.added == ("extra",)
    assert result.regressions == () and not result.ok
    assert "extractor" not in result.changes and "dataset_sha256" not in result.changes


def test_runs_of_different_evals_do_not_compare(
        make_eval: Callable[..., EvalSpec], home: Path) -> None:
    one, other = run(make_eval(), home), run(make_eval(), home)
    with pytest.raises(InvalidInput, match="compare two runs of the same eval"):
        compare(one.run_id, other.run_id)


def test_list_runs_is_newest_first_and_filters_by_eval(
        make_eval: Callable[..., EvalSpec], home: Path) -> None:
    counts, other = make_eval(), make_eval()
    ids = [run(counts, home).run_id for _ in range(3)]
    stranger = run(other, home).run_id
    assert [r.run_id for r in list_runs(eval_name=counts.name)] == ids[::-1]
    everything = list_runs(home)
    assert [r.run_id for r in everything] == [stranger, *ids[::-1]]
    # union_by_name gives every row every eval's metric columns; each keeps only its own.
    assert set(everything[0].metrics) == {"exact", "over_rate"}
    assert everything[0].started_at.tzinfo is not None
    assert list_runs(home, eval_name="no_such_eval") == []


def test_an_unknown_run_id_names_the_runs_that_exist(counts: EvalSpec, home: Path) -> None:
    with pytest.raises(InvalidInput, match="no runs are recorded"):
        run_summary("nothing-yet")
    known = run(counts, home)
    with pytest.raises(InvalidInput, match=re.escape(known.run_id)):
        compare(known.run_id, f"{counts.name}-20000101T000000-abcdef")
    with pytest.raises(InvalidInput, match="is not a run id"):
        run_summary("../escape")


# -- the CLI --------------------------------------------------------------------------------


def test_cli_compare_exits_1_on_a_regression_and_0_within_tolerance(
        counts: EvalSpec, home: Path) -> None:
    baseline, within = run(counts, home), run(counts, home, under=1)
    regressed = run(counts, home, under=2)

    ok = cli_run("eval", "compare", baseline.run_id, within.run_id, code=0)
    assert "worse, within tolerance" in ok.stdout and "REGRESSED" not in ok.stdout
    assert "ok: no metric regressed" in ok.stdout

    bad = cli_run("eval", "compare", baseline.run_id, regressed.run_id, code=1)
    assert "REGRESSED" in bad.stdout and "-0.2000" in bad.stdout

    payload = json.loads(cli_run("--json", "eval", "compare", baseline.run_id,
                                 regressed.run_id, code=1).stdout)
    assert payload["ok"] is False and payload["regressions"] == ["exact"]

    missing = cli_run("eval", "compare", baseline.run_id, "nope-1", code=2)
    assert "error: no eval run 'nope-1'" in missing.stderr and baseline.run_id in missing.stderr


def test_cli_run_replays_a_cassette_and_lists_runs(
        counts: EvalSpec, home: Path, dataset: Path, tmp_path: Path) -> None:
    cassette = tmp_path / "cassette.jsonl"
    recorder = RecordingExtractor(counting_extractor(under=1), cassette)
    for text, _ in FIXTURE:
        recorder.extract(text, ExtractionContext())

    listed = cli_run("eval", "list")
    assert counts.name in listed.stdout and "exact (higher is better)" in listed.stdout

    shown = cli_run("eval", "run", counts.name, "--replay", str(cassette))
    run_id = re.search(rf"run ({re.escape(counts.name)}-\S+)", shown.stdout).group(1)
    assert "exact (primary)" in shown.stdout and "0.9000" in shown.stdout
    assert "replay/scripted/test" in shown.stdout

    summary = json.loads(cli_run("--json", "eval", "run", counts.name, "--replay",
                                 str(cassette), "--dataset", str(dataset)).stdout)
    assert summary["metrics"] == {"exact": 0.9, "over_rate": 0.0}
    assert summary["extractor"] == "replay/scripted/test"

    runs = cli_run("--json", "eval", "runs", counts.name)
    assert [r["run_id"] for r in json.loads(runs.stdout)] == [summary["run_id"], run_id]
    assert run_id in cli_run("eval", "runs").stdout

    # Recording the rule scribe through the CLI, then replaying it, reproduces its metrics.
    rules_cassette = tmp_path / "rules.jsonl"
    live = json.loads(cli_run("--json", "eval", "run", counts.name, "--extractor", "rules",
                              "--record-cassette", str(rules_cassette)).stdout)
    assert live["extractor"] == "rules/v1" and len(rules_cassette.read_text().splitlines()) == 10
    replayed = json.loads(cli_run("--json", "eval", "run", counts.name, "--replay",
                                  str(rules_cassette)).stdout)
    assert replayed["metrics"] == live["metrics"] and replayed["extractor"] == "replay/rules/v1"

    # Replaying a cassette leaves no choice of extractor; say so rather than guess.
    clash = cli_run("eval", "run", counts.name, "--replay", str(cassette), "--extractor",
                    "rules", code=2)
    assert "pass one or the other" in clash.stderr
    gone = cli_run("eval", "run", counts.name, "--dataset", str(tmp_path / "absent"), code=2)
    assert "does not exist" in gone.stderr


# -- throwaway stores (the one test that needs Postgres) -------------------------------------


def test_open_store_gives_fresh_empty_stores_that_are_dropped_after_the_run(
        make_eval: Callable[..., EvalSpec], home: Path, admin_dsn: str, embedder: Any) -> None:
    opened: list[str] = []
    fail = False

    def uses_stores(ctx: EvalContext, items: list[dict[str, Any]]) -> EvalOutcome:
        for _ in range(2):
            described = ctx.open_store().describe()
            opened.append(re.search(r"dbname=(\S+)", described.database).group(1))
            assert described.documents == 0
            assert all(not verdicts for verdicts in described.facts_by_kind_verdict.values())
        if fail:
            raise RuntimeError("failed after opening stores")
        return EvalOutcome(items=[{"database": name} for name in opened], metrics={"exact": 1})

    spec = make_eval(uses_stores)
    for fail in (False, True):  # the runner reads it through the closure
        opened.clear()
        try:
            run_eval(spec.name, extractor=ScriptedExtractor(), embedder=embedder, home=home,
                     admin_dsn=admin_dsn)
        except RuntimeError as exc:
            assert fail and "failed after opening" in str(exc)
        else:
            assert not fail
        assert len(set(opened)) == 2 and all(n.startswith("eval_") for n in opened)
        for name in opened:  # gone, whether the run succeeded or failed
            with pytest.raises(DatabaseUnavailable):
                Store.open(server.with_database(admin_dsn, name), embedder=embedder).close()
    assert [r.item_count for r in list_runs(home)] == [2]  # only the successful run recorded


def test_cli_compare_shows_only_the_settings_that_differ(counts: EvalSpec, home: Path) -> None:
    before = run(counts, home, settings=Settings())
    after = run(counts, home, settings=Settings(recall_mmr_lambda=1.0))
    out = cli_run("eval", "compare", before.run_id, after.run_id).stdout
    assert "thresholds.recall_mmr_lambda changed: 0.7 -> 1.0" in out
    # the settings that stayed as they were are not printed
    assert "density_threshold" not in out and "ef_search" not in out
