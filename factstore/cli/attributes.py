"""``factstore attributes``: the compiler's attribute registry and its log -- list, merge
near-synonyms, add aliases, read what each capture compiled to."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from factstore.cli.shell import _emit, _store
from factstore.store.attributes import AttributeInfo

__all__ = ["attributes_app"]

attributes_app = typer.Typer(
    no_args_is_help=True,
    help="The attribute registry the compiler keys timelines by, and the compile log.")


def _render(console: Console, rows: Sequence[AttributeInfo]) -> None:
    if not rows:
        console.print("no attributes")
        return
    table = Table()
    for name in ("key", "cardinality", "origin", "merged into", "aliases"):
        table.add_column(name, overflow="fold")
    for a in rows:
        table.add_row(escape(a.key), a.cardinality, a.origin, escape(a.merged_into or "—"),
                      escape(", ".join(a.aliases)) or "—")
    console.print(table)


@attributes_app.command("list")
def attributes_list(
    ctx: typer.Context,
    origin: Annotated[str | None, typer.Option(
        help="builtin | learned (learned: met by the compiler, for review).")] = None,
) -> None:
    """Every key with its cardinality, origin and aliases."""
    rows = _store(ctx).attributes(origin=origin)
    _emit(ctx, rows, lambda c: _render(c, rows))


@attributes_app.command("merge")
def attributes_merge(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(metavar="KEY", help="The near-synonym.")],
    into: Annotated[str, typer.Argument(metavar="INTO", help="The key it answers as.")],
) -> None:
    """Merge a near-synonym key into another (stored facts keep their key)."""
    result = _store(ctx).merge_attribute(key, into)
    _emit(ctx, result, lambda c: c.print(escape(f"{result.key} now answers as "
                                                f"{result.merged_into}")))


@attributes_app.command("alias")
def attributes_alias(
    ctx: typer.Context,
    alias: Annotated[str, typer.Argument(metavar="ALIAS", help="Words that name the key.")],
    key: Annotated[str, typer.Argument(metavar="KEY")],
) -> None:
    """Add a spelling for a key ("employer" for works_at)."""
    result = _store(ctx).add_attribute_alias(alias, key)
    _emit(ctx, result, lambda c: _render(c, [result]))


@attributes_app.command("log")
def attributes_log(
    ctx: typer.Context,
    document: Annotated[int | None, typer.Option(help="One capture's document id.")] = None,
    outcome: Annotated[str | None, typer.Option(
        help="written | corroborated | unchanged | ended | refused")] = None,
    limit: Annotated[int, typer.Option(min=1)] = 50,
) -> None:
    """What the compiler made of each capture, newest first (refusals with their reason)."""
    rows = _store(ctx).compile_log(document_id=document, outcome=outcome, limit=limit)

    def render(console: Console) -> None:
        if not rows:
            console.print("nothing compiled")
            return
        table = Table()
        for name in ("doc", "outcome", "subject", "attribute", "value", "quote / reason"):
            table.add_column(name, overflow="fold")
        for e in rows:
            table.add_row(str(e.document_id), e.outcome, escape(e.subject or ""),
                          escape(e.attribute or ""), escape(e.value or ""),
                          escape(e.reason or e.quote))
        console.print(table)

    _emit(ctx, rows, render)


