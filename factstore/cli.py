"""The ``factstore`` command line: every Store tool as a command, readable or ``--json``.

The CLI is a thin shell over ``factstore.Store``: it parses arguments, opens the store lazily
(only commands that need it pay for it), calls exactly one Store method per command and
renders the frozen result. Every ``FactStoreError`` becomes ``error: <message>`` on stderr
with exit code 2; bad usage is typer's own exit code 2.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import click
import typer
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from typer.core import TyperGroup

from factstore.embedders import EMBEDDER_CHOICES, embedder_from_name
from factstore.embedders.base import Embedder
from factstore.errors import FactStoreError
from factstore.extractors import EXTRACTOR_CHOICES, extractor_from_name
from factstore.extractors.base import Extractor
from factstore.kinds import KIND_COLUMNS, Kind
from factstore.lifetimes import format_lifetime
from factstore.results import (
    CandidateRoot,
    Conflict,
    Description,
    DroppedFact,
    Fact,
    HistoryEntry,
    Interrupt,
    LeafResult,
    OpenQuestion,
    RecallResult,
    RegistryQueryResult,
    RememberResult,
    TagInfo,
)
from factstore.store import Store

__all__ = [
    "DEMO_DATABASE",
    "CliState",
    "GlobalOptions",
    "app",
    "main",
    "open_store",
    "render_conflict",
    "render_interrupt",
    "render_questions",
    "render_recall",
    "render_remember",
    "to_jsonable",
]

#: The demo's own database: dropped and recreated on every run so the output repeats.
DEMO_DATABASE = "factstore_demo"

_LAYER_MEANING = {
    "fact": "a typed fact answered strongly",
    "fact-weak": "only weak fact matches — nothing strong enough to lean on",
    "document": "the fact layer was thin; this fell through to raw captured documents",
    "none": "nothing in the store was relevant enough to serve",
}
_LABEL_STYLE = {
    "active": "green",
    "contested": "bold red",
    "stale-state": "yellow",
    "event": "cyan",
    "parked": "magenta",
    "document": "blue",
}


# -- options, state and the store hook ---------------------------------------------------


@dataclass(frozen=True)
class GlobalOptions:
    """The app-wide options, as given on the command line (or their environment variables)."""

    home: Path | None = None
    dsn: str | None = None
    database: str | None = None
    embedder: str = "local"
    extractor: str = "rules"
    json: bool = False


@dataclass
class CliState:
    """Per-invocation state: the options, the console, and the store once something opens it."""

    options: GlobalOptions
    console: Console
    store: Store | None = field(default=None, repr=False)


def open_store(options: GlobalOptions, *, embedder: Embedder | None = None,
               extractor: Extractor | None = None) -> Store:
    """Open the store the options name; ``embedder``/``extractor`` override the named specs.

    This is the default ``_store_factory``. Tests swap the factory for one that passes an
    already-loaded embedder, so each command does not reload the model.
    """
    return Store.open(
        options.dsn, home=options.home, database=options.database,
        embedder=embedder or embedder_from_name(options.embedder),
        extractor=extractor or extractor_from_name(options.extractor))


#: How every command gets its Store. A module-level hook so tests (and embedding programs)
#: can supply a store built their own way; called at most once per invocation.
_store_factory: Callable[[GlobalOptions], Store] = open_store


def _state(ctx: typer.Context) -> CliState:
    state = ctx.find_object(CliState)
    if state is None:  # only when a command is invoked without the app callback
        state = CliState(GlobalOptions(), Console(highlight=False))
        ctx.obj = state
    return state


def _store(ctx: typer.Context, options: GlobalOptions | None = None) -> Store:
    """Open the store on first use in this invocation; it closes when the command ends."""
    state = _state(ctx)
    if state.store is None:
        state.store = _store_factory(options or state.options)
        ctx.find_root().call_on_close(state.store.close)
    return state.store


class _ErrorsAsMessages(TyperGroup):
    """Turns every FactStoreError into ``error: <message>`` on stderr and exit code 2.

    Done at the group's ``invoke`` rather than in ``main()`` so that every way of running
    the app (the console script, ``python -m``, CliRunner in tests) behaves the same.
    """

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except FactStoreError as exc:
            # typer.echo, not rich: the message is printed verbatim (no markup, no wrapping).
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None


app = typer.Typer(
    cls=_ErrorsAsMessages, no_args_is_help=True, add_completion=False,
    # Locals in a traceback could include a DSN with a password; never print them.
    pretty_exceptions_show_locals=False,
    help="A fact store for agent memory: typed facts with verdicts, verbatim provenance and a "
         "lifecycle, on Postgres + pgvector (embedded Postgres by default).")
tags_app = typer.Typer(no_args_is_help=True,
                       help="The machine-owned tag registry: query, leaves, roots, aliases.")
questions_app = typer.Typer(no_args_is_help=True,
                            help="The store's own triage queue of gaps (open questions).")
app.add_typer(tags_app, name="tags")
app.add_typer(questions_app, name="questions")


@app.callback()
def _global_options(
    ctx: typer.Context,
    home: Annotated[Path | None, typer.Option(
        envvar="FACTSTORE_HOME", help="Where the embedded Postgres keeps its data "
        "(default ./.factstore).")] = None,
    dsn: Annotated[str | None, typer.Option(
        envvar="FACTSTORE_DSN", help="Use this Postgres server instead of the embedded one.",
        show_envvar=True)] = None,
    database: Annotated[str | None, typer.Option(
        envvar="FACTSTORE_DATABASE", help="Database on that server (created if missing; "
        "default 'factstore').")] = None,
    embedder: Annotated[str, typer.Option(
        help=f"Embedder: {' | '.join(EMBEDDER_CHOICES)}.")] = "local",
    extractor: Annotated[str, typer.Option(
        help=f"Extractor: {' | '.join(EXTRACTOR_CHOICES)}.")] = "rules",
    json_output: Annotated[bool, typer.Option(
        "--json", help="Machine-readable JSON output for every command.")] = False,
) -> None:
    """Global options shared by every command."""
    ctx.obj = CliState(GlobalOptions(home, dsn, database, embedder, extractor, json_output),
                       Console(highlight=False))


def _emit(ctx: typer.Context, result: object, render: Callable[[Console], None]) -> None:
    """Print the result as JSON under --json, else render it for people."""
    state = _state(ctx)
    if state.options.json:
        typer.echo(json.dumps(to_jsonable(result), indent=2, ensure_ascii=False))
    else:
        render(state.console)


# -- JSON ----------------------------------------------------------------------------------


def to_jsonable(value: object) -> Any:
    """Result dataclasses to plain JSON values: datetimes ISO-8601, timedeltas as '2d'."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):  # before str: Kind and Verdict are StrEnums
        return value.value
    if value is None or isinstance(value, bool | str | int):
        return value
    if isinstance(value, float):
        return float(value)  # numpy float64 subclasses float; make it plain
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, timedelta):
        return format_lifetime(value)
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "item"):  # numpy scalars (float32 similarities) are not floats
        return value.item()
    return str(value)


# -- small formatting helpers --------------------------------------------------------------


def _when(value: datetime | None) -> str:
    return "—" if value is None else value.strftime("%Y-%m-%d %H:%M:%S %Z").strip()


def _sim(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _kind_fields(fact: Fact) -> dict[str, str]:
    """The per-kind load-bearing columns this fact's kind owns, where set."""
    out: dict[str, str] = {}
    for name in KIND_COLUMNS[Kind(fact.kind)]:
        value = getattr(fact, name)
        if isinstance(value, timedelta):
            value = format_lifetime(value)
        if value is not None:
            out[name] = str(value)
    return out


def _quote(text: str) -> str:
    return f"“{text}”"


def _cli_calls(interrupt: Interrupt) -> list[str]:
    """The CLI spellings of the interrupt's closing calls (existing wins, new wins, both)."""
    cid = interrupt.conflict_id
    return [f'factstore resolve {cid} {interrupt.existing.fact_id} --reasoning "<why>"',
            f'factstore resolve {cid} {interrupt.new.fact_id} --reasoning "<why>"',
            f'factstore both-stand {cid} --reasoning "<why both are true>"']


# -- renderers (shared with factstore.demo) -----------------------------------------------


def render_interrupt(console: Console, interrupt: Interrupt) -> None:
    """The head-to-head: both statements, kinds, quotes, capture times, the closing calls."""
    sides = Table(show_header=True, header_style="bold", expand=True, box=None, padding=(0, 1))
    sides.add_column("")
    sides.add_column(f"existing #{interrupt.existing.fact_id}", ratio=1)
    sides.add_column(f"new #{interrupt.new.fact_id}", ratio=1)
    old, new = interrupt.existing, interrupt.new
    sides.add_row("statement", escape(old.statement), escape(new.statement))
    sides.add_row("kind", old.kind.value, new.kind.value)
    sides.add_row("quote", escape(_quote(old.quote)), escape(_quote(new.quote)))
    sides.add_row("captured", _when(old.captured_at), _when(new.captured_at))
    parts: list[Any] = [sides]
    if interrupt.differences:
        parts.append(Text("differences: " + "; ".join(interrupt.differences)))
    calls = Text("\nclose it with one of:\n", style="bold")
    for call in (*interrupt.resolve_calls, interrupt.both_stand_call):
        calls.append(f"  store.{call}\n", style="")
    for call in _cli_calls(interrupt):
        calls.append(f"  {call}\n", style="")
    parts.append(calls)
    title = (f"conflict #{interrupt.conflict_id} · {interrupt.lane} · similarity "
             f"{_sim(interrupt.similarity)} · both sides are contested until you decide")
    console.print(Panel(Group(*parts), title=escape(title), border_style="red"))


def render_remember(console: Console, result: RememberResult) -> None:
    """Each fact's outcome, then interrupts, candidate roots and dropped facts."""
    doc = result.document
    line = (f"capture stored as document #{doc.id} (lineage {doc.lineage} v{doc.version}, "
            f"routed: {doc.routed}{', already stored — a re-run' if doc.duplicate else ''})")
    console.print(escape(line))
    if result.gated:
        console.print(f"[yellow]gated: {escape(result.gated)} — kept as a document only, no "
                      "facts minted[/yellow]")
    if result.outcomes:
        # Three columns, not eight: the statement needs the width at a default 80 columns.
        table = Table(title="facts", title_justify="left", show_lines=True, expand=True)
        table.add_column("outcome", no_wrap=True)
        table.add_column("fact", no_wrap=True)
        table.add_column("statement and per-kind fields", ratio=1, overflow="fold")
        for o in result.outcomes:
            outcome = o.outcome
            if o.lane:
                outcome += f"\n{o.lane}\nsim {_sim(o.similarity)}"
            detail = f"[bold]{escape(o.fact.statement)}[/bold]"
            fields = _kind_fields(o.fact)
            if fields:
                detail += "\n" + escape(", ".join(f"{k}: {v}" for k, v in fields.items()))
            if o.fact.tags:
                detail += "\n" + escape("tags: " + ", ".join(o.fact.tags))
            if o.note:
                detail += f"\n[dim]{escape(o.note)}[/dim]"
            if o.related_fact_id is not None:
                detail += f"\n[dim]related: fact #{o.related_fact_id}[/dim]"
            table.add_row(outcome, f"#{o.fact.id} {o.fact.kind.value}\n{o.fact.verdict.value}",
                          detail)
        console.print(table)
    elif not result.gated:
        console.print("no typed facts: the capture lives in the documents layer only")
    for interrupt in result.interrupts:
        render_interrupt(console, interrupt)
    if result.candidate_roots:
        table = Table(title="candidate roots (a person decides; the write path never mints a "
                      "root)", title_justify="left")
        for name in ("proposed tag", "topic", "status", "seen", "approve with"):
            table.add_column(name)
        for c in result.candidate_roots:
            table.add_row(escape(c.proposed_tag), escape(c.topic), c.status, str(c.seen_count),
                          escape(f"factstore tags approve {c.proposed_tag}"))
        console.print(table)
    if result.dropped:
        render_dropped(console, result.dropped)


def render_dropped(console: Console, dropped: Sequence[DroppedFact]) -> None:
    """Extracted facts the write path refused, and why."""
    table = Table(title="dropped (not written)", title_justify="left", show_lines=True)
    for name in ("stage", "kind", "statement", "quote", "reason"):
        table.add_column(name, overflow="fold")
    for d in dropped:
        table.add_row(d.stage, d.kind, escape(d.statement), escape(_quote(d.quote)),
                      escape(d.reason))
    console.print(table)


def render_recall(console: Console, result: RecallResult) -> None:
    """The answering layer, then each item with its label, kind, verdict, similarity, quote."""
    meaning = _LAYER_MEANING.get(result.layer, "")
    console.print(f"recall [bold]{escape(_quote(result.query))}[/bold] → answered by the "
                  f"[bold]{result.layer}[/bold] layer ({escape(meaning)}; best fact similarity "
                  f"{_sim(result.best_fact_similarity)})")
    if not result.items:
        console.print("[dim]no items served[/dim]")
        return
    table = Table(show_lines=True, expand=True)
    table.add_column("#", justify="right")
    table.add_column("label", no_wrap=True)
    table.add_column("served item", ratio=1, overflow="fold")
    table.add_column("sim", justify="right")
    for n, item in enumerate(result.items, 1):
        style = _LABEL_STYLE.get(item.label.code, "")
        label = f"[{style}]{item.label.code}[/{style}]" if style else item.label.code
        if item.fact is not None:
            f = item.fact
            body = (f"[bold]{escape(f.statement)}[/bold]\n"
                    f"fact #{f.id} · kind {f.kind.value} · verdict {f.verdict.value}"
                    f"{' · served as contested partner' if item.served_as != 'hit' else ''}\n"
                    f"quote: {escape(_quote(f.evidence_quote))}\n")
        else:
            assert item.document is not None
            d = item.document
            content = d.content if len(d.content) <= 400 else d.content[:400] + "…"
            ref = f" {d.source_ref}" if d.source_ref else ""
            body = (f"[bold]{escape(content)}[/bold]\n"
                    f"document #{d.id} · {d.source_type}{escape(ref)} · captured "
                    f"{_when(d.captured_at)}\n")
        body += f"[dim]{escape(item.label.text)}[/dim]"
        table.add_row(str(n), label, body, _sim(item.similarity))
    console.print(table)


def _conflict_sides(c: Conflict) -> tuple[str, str]:
    def side(f: Fact) -> str:
        return escape(f"#{f.id} [{f.verdict.value}] {f.kind.value}: {f.statement}")
    return side(c.fact_a), side(c.fact_b)


def render_conflicts(console: Console, conflicts: Sequence[Conflict], *, everything: bool) -> None:
    """A table of conflicts; open ones come with the commands that close them."""
    if not conflicts:
        console.print("no conflicts" if everything else "no open conflicts")
        return
    table = Table(show_lines=True, expand=True)
    table.add_column("id", justify="right")
    table.add_column("state", no_wrap=True)
    table.add_column("the pair", ratio=2, overflow="fold")
    table.add_column("closed as", ratio=1, overflow="fold")
    for c in conflicts:
        a, b = _conflict_sides(c)
        if c.status == "open":
            closed = "—"
        else:
            closed = c.resolution or "resolved"
            if c.winner is not None:
                closed += f", winner #{c.winner}"
            if c.reasoning:
                closed += f"\n[dim]{escape(c.reasoning)}[/dim]"
        table.add_row(str(c.id), f"{c.status}\n{c.lane}\nsim {_sim(c.similarity)}",
                      f"a: {a}\nb: {b}", closed)
    console.print(table)
    for c in conflicts:
        if c.status == "open":
            # Both winners spelled out: the person picks one id, the command is ready to run.
            console.print(escape(
                f"close #{c.id}: factstore resolve {c.id} <{c.fact_a.id}|{c.fact_b.id}> "
                f'--reasoning "<why>"  |  factstore both-stand {c.id} --reasoning '
                '"<why both are true>"'))


def render_conflict(console: Console, c: Conflict) -> None:
    """One conflict after a close: who won, who was superseded, and the reasoning."""
    if c.status == "open":
        head = f"conflict #{c.id} is open ({c.lane}, similarity {_sim(c.similarity)})"
    elif c.winner is not None:
        loser = c.fact_b if c.winner == c.fact_a.id else c.fact_a
        head = (f"conflict #{c.id} resolved {c.resolution or 'head-to-head'}: fact #{c.winner} "
                f"won; fact #{loser.id} is now {loser.verdict.value}")
    else:
        head = (f"conflict #{c.id} closed {c.resolution or 'both-stand'}: both facts stand, "
                "neither superseded")
    a, b = _conflict_sides(c)
    lines = [escape(head), f"  a: {a}", f"  b: {b}"]
    if c.reasoning:
        lines.append(f"  reasoning: {escape(c.reasoning)}")
    if c.resolved_at:
        lines.append(f"  closed at {_when(c.resolved_at)}")
    console.print("\n".join(lines))


def render_questions(console: Console, questions: Sequence[OpenQuestion]) -> None:
    """The triage queue with each entry's recommendation and evidence."""
    if not questions:
        console.print("no open-questions entries")
        return
    table = Table(show_lines=True, expand=True)
    for name in ("id", "question", "risk", "cost", "status", "recommendation"):
        table.add_column(name, overflow="fold", ratio=1 if name == "question" else None)
    for q in questions:
        body = f"[bold]{escape(q.title)}[/bold]\n[dim]{escape(q.body)}[/dim]"
        for e in q.evidence:
            by = f" ({e.recorded_by})" if e.recorded_by else ""
            body += f"\n• {_when(e.recorded_at)}{escape(by)}: {escape(e.note)}"
        table.add_row(str(q.id), body, q.risk, q.cost, q.status, q.recommendation)
    console.print(table)


def _render_tags(console: Console, tags: Sequence[TagInfo], title: str | None = None) -> None:
    if not tags:
        console.print("no tags" if title is None else f"{title}: none")
        return
    table = Table(title=title, title_justify="left")
    for name in ("tag", "parent", "description", "lifetime", "aliases"):
        table.add_column(name, overflow="fold")
    for t in tags:
        table.add_row(escape(t.tag), escape(t.parent or "(root)"), escape(t.description or ""),
                      format_lifetime(t.default_lifetime) or "—",
                      escape(", ".join(t.aliases)) or "—")
    console.print(table)


def _render_candidates(console: Console, candidates: Sequence[CandidateRoot]) -> None:
    if not candidates:
        console.print("no candidate roots")
        return
    table = Table()
    for name in ("id", "proposed tag", "topic", "status", "seen", "origin", "description"):
        table.add_column(name, overflow="fold")
    for c in candidates:
        table.add_row(str(c.id), escape(c.proposed_tag), escape(c.topic), c.status,
                      str(c.seen_count), c.origin, escape(c.description or ""))
    console.print(table)


def _render_candidate(console: Console, c: CandidateRoot, verb: str) -> None:
    console.print(escape(f"candidate root '{c.proposed_tag}' {verb} (status {c.status}, seen "
                         f"{c.seen_count}x, origin {c.origin})"))


def _render_describe(console: Console, d: Description) -> None:
    info = Table.grid(padding=(0, 2))
    info.add_column(style="bold")
    info.add_column()
    for key, value in (
        ("database", d.database), ("server", f"Postgres {d.server_version}, pgvector "
                                              f"{d.pgvector_version}"),
        ("schema", ", ".join(str(v) for v in d.schema_versions)),
        ("embedder", f"{d.embedder} ({d.embedding_dim}-d)"), ("extractor", d.extractor),
        ("documents", str(d.documents)), ("open conflicts", str(d.open_conflicts)),
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
    text: Annotated[str, typer.Argument(metavar="TEXT|-",
                                        help="The capture, or '-' to read it from stdin.")],
    source_type: Annotated[str, typer.Option(
        help="utterance | capture | file | commit | url")] = "utterance",
    source_ref: Annotated[str | None, typer.Option(
        help="Where the original lives: session+time, capture id, path:line, sha, url.")] = None,
    said_at: Annotated[str | None, typer.Option(
        help="When it was said, ISO-8601 with a timezone (e.g. 2026-03-02T09:00:00Z).")] = None,
    captured_by: Annotated[str | None, typer.Option(
        help="The scribe that wrote it (provenance of the writer, never a topic).")] = None,
) -> None:
    """Run one capture through the write path and show what happened to every fact."""
    if text == "-":
        text = sys.stdin.read()
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


# -- tags ------------------------------------------------------------------------------------


@tags_app.command("list")
def tags_list(ctx: typer.Context) -> None:
    """The whole registry, sorted by tag."""
    result = _store(ctx).registry_tags()
    _emit(ctx, result, lambda c: _render_tags(c, result))


@tags_app.command("query")
def tags_query(
    ctx: typer.Context,
    topic: Annotated[str, typer.Argument(metavar="TOPIC", help="A free-text topic.")],
) -> None:
    """How a free-text topic resolves, and the tags that mention it."""
    result: RegistryQueryResult = _store(ctx).registry_query(topic)

    def render(console: Console) -> None:
        r = result.resolution
        if r.tag is not None:
            console.print(escape(f"'{r.topic}' resolves to {r.tag} (via {r.via})"))
        else:
            extra = "; entity-shaped, so it would surface as a candidate root" \
                if r.candidate_root else ""
            console.print(escape(f"'{r.topic}' is unresolved{extra}"))
        _render_tags(console, result.matches, title="matching tags")

    _emit(ctx, result, render)


@tags_app.command("add-leaf")
def tags_add_leaf(
    ctx: typer.Context,
    tag: Annotated[str, typer.Argument(metavar="TAG",
                                       help="A dotted tag whose parent exists, e.g. ci.nightly.")],
    description: Annotated[str | None, typer.Option(help="What the tag covers.")] = None,
) -> None:
    """Mint a dotted leaf under an existing parent (refuses roots and orphans)."""
    result: LeafResult = _store(ctx).registry_add_leaf(tag, description)
    verb = "minted" if result.created else "already existed:"
    _emit(ctx, result, lambda c: c.print(escape(
        f"{verb} {result.tag.tag} (parent {result.tag.parent})")))


@tags_app.command("propose-root")
def tags_propose_root(
    ctx: typer.Context,
    tag: Annotated[str, typer.Argument(metavar="TAG", help="A bare (undotted) tag.")],
    description: Annotated[str | None, typer.Option(help="What the root covers.")] = None,
) -> None:
    """Queue a new root for a person's approval; roots are never created directly."""
    result = _store(ctx).registry_propose_root(tag, description)

    def render(console: Console) -> None:
        _render_candidate(console, result, "queued")
        console.print(escape(f"approve with: factstore tags approve {result.proposed_tag}"))

    _emit(ctx, result, render)


@tags_app.command("candidates")
def tags_candidates(
    ctx: typer.Context,
    status: Annotated[str, typer.Option(help="pending | approved | rejected | all")] = "pending",
) -> None:
    """Candidate roots awaiting (or past) a person's decision."""
    result = _store(ctx).registry_candidates(None if status == "all" else status)
    _emit(ctx, result, lambda c: _render_candidates(c, result))


@tags_app.command("approve")
def tags_approve(
    ctx: typer.Context,
    tag: Annotated[str, typer.Argument(metavar="TAG", help="The candidate root's proposed tag.")],
    reason: Annotated[str | None, typer.Option(help="Why (kept with the decision).")] = None,
) -> None:
    """Approve a candidate root: it becomes a root tag and its facts carry it."""
    result = _store(ctx).registry_approve_root(tag, reason)
    _emit(ctx, result, lambda c: _render_candidate(c, result, "approved"))


@tags_app.command("reject")
def tags_reject(
    ctx: typer.Context,
    tag: Annotated[str, typer.Argument(metavar="TAG", help="The candidate root's proposed tag.")],
    reason: Annotated[str | None, typer.Option(help="Why (kept with the decision).")] = None,
) -> None:
    """Reject a candidate root; it stays in the queue as rejected."""
    result = _store(ctx).registry_reject_root(tag, reason)
    _emit(ctx, result, lambda c: _render_candidate(c, result, "rejected"))


@tags_app.command("alias")
def tags_alias(
    ctx: typer.Context,
    alias: Annotated[str, typer.Argument(metavar="ALIAS", help="A free-text spelling.")],
    tag: Annotated[str, typer.Argument(metavar="TAG", help="The canonical tag it means.")],
) -> None:
    """Map a free-text spelling to a canonical tag."""
    result = _store(ctx).registry_add_alias(alias, tag)
    _emit(ctx, result, lambda c: _render_tags(c, [result], title=f"alias '{alias}' added"))


@tags_app.command("lifetime")
def tags_lifetime(
    ctx: typer.Context,
    tag: Annotated[str, typer.Argument(metavar="TAG", help="A canonical tag.")],
    lifetime: Annotated[str, typer.Argument(metavar="LIFETIME|none",
                                            help="A default STATE lifetime ('2d', '36h') or "
                                                 "'none' to clear it.")],
) -> None:
    """Give a tag a default STATE lifetime, or clear it with 'none'."""
    value = None if lifetime.strip().lower() == "none" else lifetime
    result = _store(ctx).registry_set_lifetime(tag, value)
    shown = format_lifetime(result.default_lifetime)
    _emit(ctx, result, lambda c: c.print(escape(
        f"{result.tag}: default STATE lifetime {shown}" if shown
        else f"{result.tag}: default STATE lifetime cleared")))


# -- questions ----------------------------------------------------------------------------


@questions_app.command("list")
def questions_list(
    ctx: typer.Context,
    status: Annotated[str | None, typer.Option(
        help="open | parked | blocker | resolved (default: all)")] = None,
) -> None:
    """The store's triage queue of its own gaps, with recommendations."""
    result = _store(ctx).open_questions(status)
    _emit(ctx, result, lambda c: render_questions(c, result))


@questions_app.command("update")
def questions_update(
    ctx: typer.Context,
    question_id: Annotated[int, typer.Argument(metavar="ID", help="The entry's id.")],
    status: Annotated[str | None, typer.Option(help="open | parked | blocker | resolved")] = None,
    risk: Annotated[str | None, typer.Option(help="low | medium | high")] = None,
    cost: Annotated[str | None, typer.Option(help="low | medium | high")] = None,
    note: Annotated[str | None, typer.Option(help="Evidence to append (never rewritten).")] = None,
    by: Annotated[str | None, typer.Option(help="Who records the evidence.")] = None,
) -> None:
    """Re-weigh an entry and/or append evidence to it."""
    result = _store(ctx).update_open_question(question_id, status=status, risk=risk, cost=cost,
                                              note=note, recorded_by=by)
    _emit(ctx, result, lambda c: render_questions(c, [result]))


@questions_app.command("add")
def questions_add(
    ctx: typer.Context,
    title: Annotated[str, typer.Argument(metavar="TITLE", help="A short name for the gap.")],
    body: Annotated[str, typer.Option(help="What is not known, and why it matters.")],
    risk: Annotated[str, typer.Option(help="low | medium | high")],
    cost: Annotated[str, typer.Option(help="low | medium | high")],
) -> None:
    """File a new gap; it starts in the status its risk and cost recommend."""
    result = _store(ctx).add_open_question(title, body, risk=risk, cost=cost)
    _emit(ctx, result, lambda c: render_questions(c, [result]))


def main(argv: Sequence[str] | None = None) -> None:
    """Console entry point (``factstore``)."""
    # The model load's tqdm bar on stderr is noise between a command and its answer; a
    # caller who wants it can still set the variable to 0.
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    app(args=list(argv) if argv is not None else sys.argv[1:], prog_name="factstore")


if __name__ == "__main__":
    main()
