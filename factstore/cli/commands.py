"""The core commands: describe, remember, recall, conflicts, resolve, both-stand, fact and
demo. Each calls exactly one Store method and renders the frozen result (or prints JSON)."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table

from factstore.cli.formatting import _kind_fields, _quote, _when, to_jsonable
from factstore.cli.render import (
    render_conflict,
    render_conflicts,
    render_recall,
    render_remember,
    render_remembered,
)
from factstore.cli.shell import _emit, _state, _store, app, progress_bar, read_input
from factstore.errors import InvalidInput
from factstore.results import Description, Fact, HistoryEntry

__all__ = ["DEMO_DATABASE"]


#: The demo's own database: dropped and recreated on every run so the output repeats.
DEMO_DATABASE = "factstore_demo"


def _render_describe(console: Console, d: Description) -> None:
    info = Table.grid(padding=(0, 2))
    info.add_column(style="bold")
    info.add_column()
    for key, value in (
        ("database", d.database), ("server", f"Postgres {d.server_version}, pgvector "
                                              f"{d.pgvector_version}"),
        ("schema", ", ".join(str(v) for v in d.schema_versions)),
        ("embedder", f"{d.embedder} ({d.embedding_dim}-d)"), ("extractor", d.extractor),
        ("documents", str(d.documents)),
        ("claims", f"{d.claims} ({d.current_claims} current; {d.removed_sources} source(s) "
                   "removed)"),
        ("open conflicts", str(d.open_conflicts)),
        ("tags", str(d.tags)), ("pending candidate roots", str(d.pending_candidate_roots)),
        ("open questions", ", ".join(f"{k} {v}" for k, v in sorted(d.open_questions.items()))
         or "none"),
        ("tools", ", ".join(d.tools)),
    ):
        info.add_row(key, escape(value))
    console.print(Panel(info, title="factstore", title_align="left"))
    verdicts = sorted({v for counts in d.facts_by_kind_verdict.values() for v in counts})
    facts = Table(title="facts by kind and verdict", title_justify="left")
    facts.add_column("kind")
    for v in verdicts:
        facts.add_column(v, justify="right")
    facts.add_column("total", justify="right")
    for kind, counts in d.facts_by_kind_verdict.items():
        facts.add_row(kind, *(str(counts.get(v, 0)) for v in verdicts),
                      str(sum(counts.values())))
    console.print(facts)
    settings = Table(title="settings", title_justify="left")
    settings.add_column("setting")
    settings.add_column("value", overflow="fold")
    for key, value in d.settings.items():
        settings.add_row(key, escape(", ".join(value) if isinstance(value, list) else str(value)))
    console.print(settings)


def _render_fact(console: Console, f: Fact, history: Sequence[HistoryEntry]) -> None:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column(overflow="fold")
    rows: list[tuple[str, str]] = [
        ("statement", f.statement), ("kind", f.kind.value), ("verdict", f.verdict.value),
        ("tags", ", ".join(f.tags) or "—"),
        ("quote", _quote(f.evidence_quote)),
        ("source", f"{f.evidence_source_type}"
                   f"{' ' + f.evidence_source_ref if f.evidence_source_ref else ''}"),
        ("captured by", f.evidence_captured_by or "—"),
        ("document", f"#{f.document_id}" if f.document_id is not None else "—"),
        ("said", _when(f.t_said)), ("captured", _when(f.t_captured)),
        ("last verified", _when(f.t_last_verified)), ("superseded", _when(f.t_superseded)),
        ("supersedes", f"#{f.supersedes}" if f.supersedes else "—"),
        ("superseded by", f"#{f.superseded_by}" if f.superseded_by else "—"),
        ("support", f"{f.support_count} document lineage(s)"),
    ]
    rows += list(_kind_fields(f).items())
    if f.meta:
        rows.append(("meta", json.dumps(to_jsonable(f.meta), ensure_ascii=False)))
    for key, value in rows:
        grid.add_row(key, escape(value))
    console.print(Panel(grid, title=f"fact #{f.id}", title_align="left"))
    table = Table(title="history", title_justify="left")
    for name in ("at", "from", "to", "reason", "conflict"):
        table.add_column(name, overflow="fold")
    for h in history:
        table.add_row(_when(h.at), h.from_verdict or "—", h.to_verdict, escape(h.reason),
                      f"#{h.conflict_id}" if h.conflict_id else "—")
    console.print(table)


# -- commands ------------------------------------------------------------------------------


@app.command()
def describe(ctx: typer.Context) -> None:
    """The store's shape: counts by kind and verdict, conflicts, registry, queue, settings."""
    result = _store(ctx).describe()
    _emit(ctx, result, lambda c: _render_describe(c, result))


@app.command()
def remember(
    ctx: typer.Context,
    text: Annotated[str | None, typer.Argument(
        metavar="TEXT|-", help="The capture, or '-' to read it from stdin.")] = None,
    file: Annotated[Path | None, typer.Option(
        "--file", help="Many captures, JSON Lines: a JSON string or an object with 'text' "
        "(and source_type, source_ref, said_at, captured_by, captured_at) per line; written "
        "in order with batched embedding ('-' reads stdin).")] = None,
    source_type: Annotated[str, typer.Option(
        help="utterance | capture | file | commit | url")] = "utterance",
    source_ref: Annotated[str | None, typer.Option(
        help="Where the original lives: session+time, capture id, path:line, sha, url.")] = None,
    said_at: Annotated[str | None, typer.Option(
        help="When it was said, ISO-8601 with a timezone (e.g. 2026-03-02T09:00:00Z).")] = None,
    captured_by: Annotated[str | None, typer.Option(
        help="The scribe that wrote it (provenance of the writer, never a topic).")] = None,
) -> None:
    """Run one capture (or a file of them) through the write path and show what happened."""
    if (text is None) == (file is None):
        raise InvalidInput("give one capture (TEXT, or '-' for stdin) or --file CAPTURES.jsonl")
    if file is not None:
        captures = captures_in(read_input(file), str(file))
        with progress_bar(ctx, len(captures), "remembering") as advance:
            results = _store(ctx).remember_many(captures, progress=advance)
        _emit(ctx, results, lambda c: render_remembered(c, results))
        return
    if text == "-":
        text = read_input("-")
    result = _store(ctx).remember(text, source_type=source_type, source_ref=source_ref,
                                  said_at=said_at, captured_by=captured_by)
    _emit(ctx, result, lambda c: render_remember(c, result))


@app.command()
def recall(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="A question or phrase.")],
    k: Annotated[int | None, typer.Option("-k", "--k", help="How many items at most.")] = None,
) -> None:
    """Labeled recall: which layer answered, and what each item may be taken to mean."""
    result = _store(ctx).recall(query, k=k)
    _emit(ctx, result, lambda c: render_recall(c, result))


@app.command()
def conflicts(
    ctx: typer.Context,
    all_: Annotated[bool, typer.Option("--all", help="Include resolved conflicts.")] = False,
) -> None:
    """Open head-to-heads (or every conflict with --all)."""
    store = _store(ctx)
    result = store.conflicts(None) if all_ else store.open_conflicts()
    _emit(ctx, result, lambda c: render_conflicts(c, result, everything=all_))


@app.command()
def resolve(
    ctx: typer.Context,
    conflict_id: Annotated[int, typer.Argument(metavar="CONFLICT_ID",
                                               help="The conflict to close.")],
    winner_id: Annotated[int, typer.Argument(metavar="WINNER_ID",
                                             help="The fact that wins (one side of the pair).")],
    reasoning: Annotated[str, typer.Option(help="Why; kept on the loser's supersession.")],
) -> None:
    """Close a genuine either/or: the winner returns to active, the loser is superseded."""
    result = _store(ctx).resolve_conflict(conflict_id, winner_id, reasoning)
    _emit(ctx, result, lambda c: render_conflict(c, result))


@app.command("both-stand")
def both_stand(
    ctx: typer.Context,
    conflict_id: Annotated[int, typer.Argument(metavar="CONFLICT_ID",
                                               help="The conflict to close.")],
    reasoning: Annotated[str, typer.Option(help="Why both are true.")],
) -> None:
    """Close a false-fired pair: both facts are true, both return to active."""
    result = _store(ctx).resolve_both_stand(conflict_id, reasoning)
    _emit(ctx, result, lambda c: render_conflict(c, result))


@app.command()
def fact(
    ctx: typer.Context,
    fact_id: Annotated[int, typer.Argument(metavar="ID", help="The fact's id.")],
) -> None:
    """One fact, whatever its verdict, with its verdict history."""
    store = _store(ctx)
    found = store.fact(fact_id)
    history = store.history(fact_id)
    _emit(ctx, {"fact": found, "history": history},
          lambda c: _render_fact(c, found, history))


@app.command()
def chain(
    ctx: typer.Context,
    fact_id: Annotated[int, typer.Argument(metavar="ID", help="Any fact of the chain.")],
) -> None:
    """A fact's supersession chain, oldest first: what it replaced and what replaced it."""
    result = _store(ctx).chain(fact_id)

    def render(c: Any) -> None:
        for f in result.facts:
            mark = " ← current" if f.id == result.current else ""
            c.print(f"#{f.id} {f.verdict.value:<10} {escape(f.statement)}{mark}")

    _emit(ctx, result, render)


@app.command()
def demo(ctx: typer.Context) -> None:
    """Walk through the seed's seven kinds, a conflict and its resolution, labeled recall.

    Uses its own database, 'factstore_demo', dropped and recreated first so every run
    prints the same story; exits non-zero if any expected step does not happen.
    """
    from factstore.demo import DemoFailed, reset_demo_database, run_demo

    state = _state(ctx)
    # The demo's expectations are tuned to the rule scribe and the local model, whatever
    # --embedder/--extractor say; and it never touches the database --database names.
    options = dataclasses.replace(state.options, database=DEMO_DATABASE, embedder="local",
                                  extractor="rules")
    reset_demo_database(options.dsn, options.home, DEMO_DATABASE)
    store = _store(ctx, options)
    console = Console(quiet=True) if state.options.json else state.console
    try:
        report = run_demo(store, console)
    except DemoFailed as exc:
        typer.echo(f"demo failed: {exc}", err=True)
        raise typer.Exit(1) from None
    if state.options.json:
        typer.echo(json.dumps(to_jsonable(report), indent=2, ensure_ascii=False))


def captures_in(text: str, name: str) -> list[object]:
    """The captures of a JSON Lines file: one JSON string or object per non-blank line."""
    captures = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            captures.append(json.loads(line))
        except (json.JSONDecodeError, RecursionError, ValueError) as exc:
            raise InvalidInput(f"{name} line {number}: not JSON ({str(exc)[:120]}); write one "
                               "capture per line, a JSON string or an object with 'text'"
                               ) from None
    if not captures:
        raise InvalidInput(f"{name} holds no captures")
    return captures
