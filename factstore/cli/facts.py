"""``factstore facts``: bi-temporal timelines (format v1 writes, as-of reads, retraction)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from factstore.cli.shell import _emit, _state, _store, progress_bar, read_input
from factstore.errors import InvalidInput
from factstore.timelines.model import TimelineAnswer, WriteFactsResult

__all__ = ["facts_app"]

facts_app = typer.Typer(no_args_is_help=True,
                        help="Bi-temporal timelines: write format v1 facts, read as of a time.")


def render_written(console: Console, result: WriteFactsResult) -> None:
    table = Table(title=f"request stored as document #{result.document_id}")
    for name in ("fact", "outcome", "key", "value", "valid", "status", "redacted"):
        table.add_column(name, overflow="fold")
    for w in result.facts:
        f = w.fact
        redacted = ", ".join(f"{r['field']}: {'/'.join(r['kinds'])}" for r in w.redactions)
        table.add_row(f"#{w.id}", w.outcome, escape(f"{f.attribute}({f.subject})"),
                      escape(f"{f.value} {f.unit or ''}".strip()),
                      f"{f.valid_from or '?'}..{f.effective_valid_to or 'now'}", f.status,
                      escape(redacted))
    console.print(table)


def render_answer(console: Console, answer: TimelineAnswer) -> None:
    when = f"as of {answer.as_of}"
    if answer.known_at is not None:
        when += f", as the store believed at {answer.known_at:%Y-%m-%d %H:%M:%S} UTC"
    if not answer.keys:
        console.print(f"no timelines ({when})")
        return
    console.print(f"[bold]{escape(when)}[/bold]")
    for key in answer.keys:
        console.print(escape(key.line))
        table = Table(show_header=True, box=None, padding=(0, 2))
        for name in ("id", "value", "valid", "observed", "confirmed", "status"):
            table.add_column(name)
        for f in key.history:
            table.add_row(f"#{f.id}", escape(f"{f.value} {f.unit or ''}".strip()),
                          f"{f.valid_from or '?'}..{f.effective_valid_to or 'now'}",
                          f"{f.observed_at:%Y-%m-%d}", f"{f.last_confirmed_at:%Y-%m-%d}",
                          f.status)
        console.print(table)
        if key.omitted:
            console.print(f"({key.omitted} older version(s) not shown: the read is capped)")


@facts_app.command("write")
def facts_write(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(metavar="FILE.json",
                                         help="A format v1 request ('-' reads stdin).")],
) -> None:
    """Write a format v1 request: each fact stored or corroborated, its timeline re-resolved."""
    text = read_input(file)
    result = _store(ctx).write_facts(text)
    _emit(ctx, result, lambda c: render_written(c, result))


@facts_app.command("backfill")
def facts_backfill(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(
        metavar="FILE", help="JSON Lines (one format v1 fact per line) or a JSON array.")],
    shared: Annotated[bool, typer.Option(help="Write to shared memory.")] = False,
) -> None:
    """Bulk-write an archive's facts: all validated first, each key resolved once."""
    facts = _facts_in(read_input(file), file)
    with progress_bar(ctx, len(facts), "backfilling") as advance:
        result = _store(ctx).backfill_facts(facts, shared=shared, progress=advance)
    _emit(ctx, result, lambda c: c.print(
        f"backfilled {result.created} new and {result.corroborated} corroborating fact(s) "
        f"over {result.keys} timeline(s); {result.redacted} redacted; "
        f"{len(result.documents)} chunk(s) from document #{result.document_id}"))


@facts_app.command("show")
def facts_show(
    ctx: typer.Context,
    subject: Annotated[str | None, typer.Option(help="e.g. person/nick, or me")] = None,
    attribute: Annotated[str | None, typer.Option(help="e.g. shoe_size")] = None,
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="valid time: a partial date (2025, 2025-06, ...) means its end")] = None,
    known_at: Annotated[str | None, typer.Option(
        "--known-at", help="belief time: what the store believed then")] = None,
    markdown: Annotated[bool, typer.Option("--markdown", help="The Markdown Facts section.")
                        ] = False,
    show_stale: Annotated[bool, typer.Option(
        "--show-stale", help="With --markdown: include facts unconfirmed for 90+ days.")] = False,
) -> None:
    """Timelines as of a time, on both axes, as lines and history (or Markdown)."""
    answer = _store(ctx).facts(subject, attribute, as_of=as_of, known_at=known_at)
    if markdown:
        text = answer.markdown(show_stale=show_stale)
        typer.echo(json.dumps({"markdown": text}) if _state(ctx).options.json else text, nl=False)
        return
    _emit(ctx, answer, lambda c: render_answer(c, answer))


@facts_app.command("brief")
def facts_brief(
    ctx: typer.Context,
    question: Annotated[str, typer.Argument(help="e.g. \"what was my shoe size in 2025?\"")],
    as_of: Annotated[str | None, typer.Option(
        "--as-of", help="read as of this time (default: the time the question names, or now)")
    ] = None,
) -> None:
    """The facts part of an answer brief: convention, lines with F1.. citations."""
    brief = _store(ctx).brief(question, as_of=as_of)
    _emit(ctx, brief, lambda c: c.print(escape(brief.text) if brief.text
                                        else "no timeline is about that question"))


@facts_app.command("retract")
def facts_retract(
    ctx: typer.Context,
    fact_id: Annotated[int, typer.Argument(metavar="ID", help="The fact to retract.")],
    reason: Annotated[str, typer.Option(help="Why; kept in the history.")] = "retracted by "
                                                                              "request",
) -> None:
    """Retract a fact (never deleted); its timeline is re-resolved."""
    result = _store(ctx).retract(fact_id, reason=reason)
    _emit(ctx, {"retracted": fact_id, "fact": result},
          lambda c: c.print(f"fact #{fact_id} retracted"
                            + (f"; {result.attribute}({result.subject}) re-resolved"
                               if result else "")))


@facts_app.command("end")
def facts_end(
    ctx: typer.Context,
    fact_id: Annotated[int, typer.Argument(metavar="ID", help="The timeline fact to end.")],
    valid_to: Annotated[str, typer.Argument(metavar="VALID_TO",
                                            help="When it stopped holding: 2026, 2026-10, ...")],
    observed_at: Annotated[str | None, typer.Option(
        "--observed-at", help="when the source said it ended (RFC 3339; default now)")] = None,
    source: Annotated[str | None, typer.Option(help="where the end was said")] = None,
) -> None:
    """End a timeline fact at VALID_TO: its claim observed again with the end stated."""
    result = _store(ctx).end_fact(fact_id, valid_to, observed_at=observed_at, source=source)
    _emit(ctx, result, lambda c: c.print(
        f"fact #{fact_id} ended at {valid_to}: {result.fact.attribute}({result.fact.subject}) "
        f"= {result.fact.value} now runs {result.fact.valid_from or '?'}..{valid_to} "
        f"(fact #{result.id}, {result.outcome})"))


def _facts_in(text: str, path: Path) -> list[object]:
    """A JSON array of facts, a format v1 request, or JSON Lines of facts."""
    stripped = text.strip()
    try:
        if stripped.startswith("["):
            return json.loads(stripped)
        if stripped.startswith("{") and "\n" not in stripped:
            body = json.loads(stripped)
            return body.get("facts", [body]) if isinstance(body, dict) else [body]
        return [json.loads(line) for line in stripped.splitlines() if line.strip()]
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{path} line {exc.lineno}: not JSON ({exc.msg}); write one fact "
                           "object per line, or a JSON array") from None
    except RecursionError:
        raise InvalidInput(f"{path}: the JSON nests too deeply to read; format v1 facts are "
                           "flat objects") from None
    except ValueError as exc:  # a number past CPython's 4,300-digit limit
        raise InvalidInput(f"{path}: {exc}"[:300]) from None
