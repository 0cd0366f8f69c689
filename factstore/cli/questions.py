"""``factstore questions``: the store's own triage queue of gaps (open questions)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from factstore.cli.formatting import _when
from factstore.cli.shell import _emit, _store
from factstore.results import OpenQuestion

__all__ = ["questions_app", "render_questions"]


questions_app = typer.Typer(no_args_is_help=True,
                            help="The store's own triage queue of gaps (open questions).")


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
