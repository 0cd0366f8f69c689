"""``factstore scopes``: list the scopes, seal one, rotate its key, forget it (owner only).

``forget`` deletes a scope's memory for good and destroys its key, so it asks for the scope
name twice: once as the argument and once as ``--confirm``.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from factstore.cli.shell import _emit, _store
from factstore.errors import InvalidInput
from factstore.store.scope_tools import ScopeInfo

__all__ = ["scopes_app"]

scopes_app = typer.Typer(no_args_is_help=True,
                         help="Scopes: list, seal (encrypt at rest), rotate a key, forget.")


def _render(console: Console, scopes: list[ScopeInfo]) -> None:
    if not scopes:
        console.print("no scopes hold anything yet")
        return
    table = Table("scope", "facts", "documents", "sealed")
    for s in scopes:
        table.add_row(s.scope, str(s.facts), str(s.documents),
                      f"key v{s.key_version}" if s.sealed else "no")
    console.print(table)


@scopes_app.command("list")
def scopes_list(ctx: typer.Context) -> None:
    """Every scope with its rows and whether it is sealed."""
    found = _store(ctx).scopes()
    _emit(ctx, found, lambda c: _render(c, found))


@scopes_app.command("seal")
def scopes_seal(ctx: typer.Context, scope: Annotated[str, typer.Argument(
        metavar="SCOPE", help="A stored scope, e.g. acme/user-nick.")]) -> None:
    """Seal SCOPE: its timeline values and documents are encrypted at rest from now on."""
    change = _store(ctx).seal_scope(scope)
    _emit(ctx, change, lambda c: c.print(
        f"{change.scope} sealed with key v{change.key_version}; {change.rows_sealed} rows "
        "sealed"))


@scopes_app.command("rotate")
def scopes_rotate(ctx: typer.Context, scope: Annotated[str, typer.Argument(
        metavar="SCOPE", help="A sealed scope.")]) -> None:
    """Re-seal SCOPE under a new key version and destroy the old ones."""
    change = _store(ctx).rotate_key(scope)
    _emit(ctx, change, lambda c: c.print(
        f"{change.scope}: key v{change.key_version}, {change.rows_sealed} rows re-sealed, "
        f"destroyed v{', v'.join(map(str, change.retired_versions))}"))


@scopes_app.command("forget")
def scopes_forget(
    ctx: typer.Context,
    scope: Annotated[str, typer.Argument(metavar="SCOPE", help="The scope to forget.")],
    confirm: Annotated[str, typer.Option(help="The scope's name again: it cannot be undone.")],
) -> None:
    """Delete every row of SCOPE and destroy its key. Cannot be undone."""
    if confirm != scope:
        raise InvalidInput(f"--confirm {confirm!r} does not repeat the scope {scope!r}; "
                           "nothing was forgotten")
    report = _store(ctx).forget_scope(scope)
    _emit(ctx, report, lambda c: c.print(
        f"forgot {report.scope}: {report.total} rows deleted "
        f"({', '.join(f'{t} {n}' for t, n in sorted(report.deleted.items())) or 'none'}), "
        f"{report.keys_destroyed} key version(s) destroyed"))
