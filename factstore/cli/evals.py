"""``factstore eval``: list the evals, run one, list recorded runs, compare two runs.

``eval compare`` exits 1 when run B regressed past a tolerance (or dropped a metric run A
measured) and 0 otherwise, so it can gate CI; errors exit 2 like every other command.
The eval-level ``--extractor``/``--embedder`` override the global ones for the parts under
test; ``--record`` opens your own store with the global options to append evidence to it.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from factstore.cli.formatting import to_jsonable
from factstore.cli.shell import GlobalOptions, _emit, _state
from factstore.embedders import EMBEDDER_CHOICES, embedder_from_name
from factstore.errors import InvalidInput
from factstore.extractors import EXTRACTOR_CHOICES, extractor_from_name
from factstore.extractors.base import Extractor
from factstore.settings import Settings

__all__ = ["evals_app"]

evals_app = typer.Typer(no_args_is_help=True,
                        help="Eval suites: run one, record it as Parquet, compare two runs.")


def _num(value: float | None) -> str:
    """A metric for people: a count as an integer, a rate or score to four places."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, int) or (float(value).is_integer() and abs(value) > 1):
        return str(int(value))
    return f"{value:.4f}"


def _better(metric: Any) -> str:
    """Which way a metric is better ('—' for one reported, not judged)."""
    direction = getattr(metric, "direction", None)
    return direction if direction in ("higher", "lower") else "—"


def _signed(value: float) -> str:
    return f"{value:+.4f}"


@evals_app.command("list")
def eval_list(ctx: typer.Context) -> None:
    """Every registered eval: its primary metric and the dataset it runs on by default."""
    from evals.registry import load_all

    specs = sorted(load_all().values(), key=lambda s: s.name)
    rows = [{"name": s.name, "description": s.description, "primary": s.primary.name,
             "direction": s.primary.direction, "default_dataset": str(s.default_dataset),
             "metrics": [{"name": m.name, "direction": m.direction, "tolerance": m.tolerance}
                         for m in s.metrics]} for s in specs]

    def render(console: Console) -> None:
        if not rows:
            console.print("no evals are registered")
            return
        table = Table()
        for column in ("eval", "description", "primary metric", "default dataset"):
            table.add_column(column, overflow="fold")
        for row in rows:
            table.add_row(escape(row["name"]), escape(row["description"]),
                          f"{escape(row['primary'])} ({row['direction']} is better)",
                          escape(row["default_dataset"]))
        console.print(table)

    _emit(ctx, rows, render)


def _extractor(options: GlobalOptions, spec: str | None, replay: Path | None,
               replay_model: str | None, record_cassette: Path | None) -> Extractor:
    """The extractor under test: the eval's --extractor, else the global one; or a cassette."""
    from factstore.extractors.replay import RecordingExtractor, ReplayExtractor

    if replay_model is not None and replay is None:
        raise InvalidInput("--replay-model picks a model inside a --replay cassette; "
                           "pass --replay CASSETTE.jsonl too")
    if replay is not None:
        if spec is not None:
            raise InvalidInput("--replay answers from the cassette, so --extractor has nothing "
                               "to do; pass one or the other")
        if record_cassette is not None:
            raise InvalidInput("--replay with --record-cassette would only copy the cassette; "
                               "record from a live extractor (--extractor SPEC)")
        return ReplayExtractor(replay, model=replay_model)
    extractor = extractor_from_name(spec or options.extractor)
    if record_cassette is not None:
        return RecordingExtractor(extractor, record_cassette)
    return extractor


def settings_with(overrides: list[str]) -> Settings:
    """The environment's settings with ``SETTING=VALUE`` overrides, each read as its
    ``FACTSTORE_<SETTING>`` variable would be (so "0.9", "off" and "7d" all work)."""
    changes: dict[str, str] = {}
    for item in overrides:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InvalidInput(f"--set {item!r} is not SETTING=VALUE; e.g. --set "
                               "recall_mmr_lambda=1.0")
        changes[f"FACTSTORE_{key.strip().upper()}"] = value.strip()
    known = {f"FACTSTORE_{f.name.upper()}" for f in dataclasses.fields(Settings)}
    unknown = sorted(k.removeprefix("FACTSTORE_").lower() for k in changes if k not in known)
    if unknown:
        raise InvalidInput(f"unknown setting(s) {unknown} in --set; `factstore describe` "
                           "lists the settings")
    return Settings.from_env({**os.environ, **changes})


@evals_app.command("run")
def eval_run(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The eval (see `factstore eval list`).")],
    extractor: Annotated[str | None, typer.Option(
        help=f"Extractor under test: {' | '.join(EXTRACTOR_CHOICES)} (default: the global "
             "--extractor).")] = None,
    embedder: Annotated[str | None, typer.Option(
        help=f"Embedder under test: {' | '.join(EMBEDDER_CHOICES)} (default: the global "
             "--embedder).")] = None,
    dataset: Annotated[Path | None, typer.Option(
        help="Run on this file or directory instead of the eval's default dataset.")] = None,
    record: Annotated[bool, typer.Option(
        "--record", help="Append this run's evidence to your store's open-questions queue.")
    ] = False,
    replay: Annotated[Path | None, typer.Option(
        metavar="CASSETTE.jsonl", help="Replay a recorded extractor instead of running one.")
    ] = None,
    replay_model: Annotated[str | None, typer.Option(
        help="With --replay: whose recordings to replay, when the cassette holds several.")
    ] = None,
    record_cassette: Annotated[Path | None, typer.Option(
        metavar="CASSETTE.jsonl", help="Record the extractor's output to this cassette.")
    ] = None,
    overrides: Annotated[list[str] | None, typer.Option(
        "--set", metavar="SETTING=VALUE",
        help="Override one setting for this run (repeatable), e.g. --set "
             "recall_mmr_lambda=1.0: for sweeps. Values as FACTSTORE_<SETTING> takes them.")
    ] = None,
) -> None:
    """Run an eval, write its Parquet record, print its metrics and run id."""
    from evals.compare import run_summary
    from evals.harness import run_eval
    from evals.registry import get

    state = _state(ctx)
    options = state.options
    spec = get(name)  # an unknown eval fails before any model is built
    chosen_extractor = _extractor(options, extractor, replay, replay_model, record_cassette)
    chosen_embedder = embedder_from_name(embedder or options.embedder)

    def evidence_store() -> Any:
        # The user's own store, opened the way every other command opens it; the harness
        # closes it after the run.
        from factstore import cli

        return cli._store_factory(options)

    written, outcome = run_eval(
        spec.name, extractor=chosen_extractor, embedder=chosen_embedder,
        settings=settings_with(overrides or []), dataset=dataset, record=record,
        home=options.home,
        store_factory=evidence_store if record else None, admin_dsn=options.dsn)
    summary = run_summary(written.run_id, options.home)

    def render(console: Console) -> None:
        table = Table(title=f"{spec.name}: {summary.item_count} item(s)")
        for column in ("metric", "value", "better"):
            table.add_column(column)
        for metric, value in written.metrics.items():
            declared = spec.metric(metric)
            label = f"{metric} (primary)" if metric == spec.primary.name else metric
            table.add_row(escape(label), _num(value), _better(declared))
        console.print(table)
        for key, value in outcome.notes.items():
            shown = value if isinstance(value, str) else json.dumps(to_jsonable(value))
            console.print(f"{escape(str(key))}: {escape(shown)}")
        console.print(f"extractor {escape(summary.extractor)}, embedder "
                      f"{escape(summary.embedder)}, commit {summary.git_commit[:12]}"
                      + (" (dirty)" if summary.git_dirty else ""))
        console.print(f"run {written.run_id}")
        console.print(f"written to {escape(str(written.path))}")

    _emit(ctx, summary, render)


@evals_app.command("compare")
def eval_compare(
    ctx: typer.Context,
    run_a: Annotated[str, typer.Argument(metavar="RUN_A", help="The baseline run.")],
    run_b: Annotated[str, typer.Argument(metavar="RUN_B", help="The run judged against it.")],
) -> None:
    """Metric deltas of RUN_B against RUN_A; exit code 1 when any regressed past tolerance."""
    from evals.compare import compare

    result = compare(run_a, run_b, home=_state(ctx).options.home)

    def render(console: Console) -> None:
        table = Table(title=f"{result.eval}: {result.run_a} -> {result.run_b}")
        for column in ("metric", "before", "after", "delta", "better", "tolerance", ""):
            table.add_column(column)
        for d in result.deltas:
            if d.regressed:
                status = "[bold red]REGRESSED[/bold red]"
            elif d.improved:
                status = "[green]improved[/green]"
            elif d.direction is not None and d.delta != 0:
                status = "worse, within tolerance"
            else:
                status = ""
            table.add_row(escape(d.name), _num(d.before), _num(d.after), _signed(d.delta),
                          _better(d), "—" if d.tolerance is None else f"{d.tolerance:g}",
                          status)
        console.print(table)
        for name in result.dropped:
            console.print(f"[bold red]DROPPED[/bold red] {escape(name)}: measured in "
                          f"{result.run_a}, missing from {result.run_b}")
        for name in result.added:
            console.print(f"new metric {escape(name)} (only in {result.run_b})")
        for name, (before, after) in result.changes.items():
            if isinstance(before, dict) and isinstance(after, dict):
                for key in sorted(set(before) | set(after)):
                    if before.get(key) != after.get(key):
                        console.print(f"{escape(name)}.{escape(str(key))} changed: "
                                      f"{escape(_short(before.get(key)))} -> "
                                      f"{escape(_short(after.get(key)))}")
                continue
            console.print(f"{name} changed: {escape(_short(before))} -> {escape(_short(after))}")
        if result.ok:
            console.print("ok: no metric regressed past its tolerance")
        else:
            failed = [d.name for d in result.regressions] + list(result.dropped)
            console.print(f"[bold red]regression[/bold red]: {escape(', '.join(failed))}")

    payload = {**to_jsonable(result), "ok": result.ok,
               "regressions": [d.name for d in result.regressions]}
    _emit(ctx, payload, render)
    if not result.ok:
        raise typer.Exit(1)


def _short(value: object) -> str:
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return str(value)


@evals_app.command("runs")
def eval_runs(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(help="Only this eval's runs.")] = None,
    limit: Annotated[int, typer.Option(min=1, help="Show at most this many.")] = 20,
) -> None:
    """Recorded runs, newest first, with each one's primary metric."""
    from evals.compare import list_runs

    runs = list_runs(_state(ctx).options.home, eval_name=name)[:limit]

    def render(console: Console) -> None:
        if not runs:
            console.print("no eval runs recorded" + (f" for {escape(name)}" if name else ""))
            return
        table = Table()
        for column in ("run", "started (UTC)", "extractor", "embedder", "items", "primary"):
            table.add_column(column, overflow="fold")
        for r in runs:
            primary = (f"{r.primary_metric} = {_num(r.metrics.get(r.primary_metric))}"
                       if r.primary_metric else "—")
            table.add_row(escape(r.run_id), f"{r.started_at:%Y-%m-%d %H:%M:%S}",
                          escape(r.extractor), escape(r.embedder), str(r.item_count),
                          escape(primary))
        console.print(table)

    _emit(ctx, runs, render)
