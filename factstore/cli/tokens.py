"""``factstore tokens``: make, list and revoke the credentials a server accepts.

Owner only: the CLI in-process is the store's owner. A new token is printed once; the
store keeps only its digest. ``tokens admin`` prints (making it if needed) the local admin
token kept in ``$FACTSTORE_HOME/admin-token`` (mode 0600).
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from factstore.cli.shell import _emit, _state, _store
from factstore.store.credentials import TokenInfo

__all__ = ["tokens_app"]

tokens_app = typer.Typer(no_args_is_help=True,
                         help="Credentials for `factstore serve`: create, list, revoke.")


def _render_tokens(console: Console, tokens: list[TokenInfo]) -> None:
    if not tokens:
        console.print("no tokens yet: `factstore tokens create USER`")
        return
    table = Table("id", "user", "workspace", "scopes", "created", "revoked", "label")
    for t in tokens:
        table.add_row(t.id, escape(t.user), t.workspace,
                      "owner (every scope)" if t.owner else ", ".join(t.scopes),
                      f"{t.created_at:%Y-%m-%d %H:%M}",
                      f"{t.revoked_at:%Y-%m-%d %H:%M}" if t.revoked_at else "",
                      escape(t.label or ""))
    console.print(table)


@tokens_app.command("create")
def tokens_create(
    ctx: typer.Context,
    user: Annotated[str, typer.Argument(metavar="USER", help="Whose token: their 'me'.")],
    workspace: Annotated[str, typer.Option(help="The workspace the token reads.")] = "local",
    scope: Annotated[list[str] | None, typer.Option(
        "--scope", help="A granted scope (repeat): user-<id>, channel-<name>, shared-<name>. "
                        "Default: the user's personal scope and shared-main.")] = None,
    label: Annotated[str | None, typer.Option(help="What the token is for.")] = None,
) -> None:
    """Make a token for USER; it is printed once and kept nowhere."""
    made = _store(ctx).create_token(user, workspace=workspace, scopes=scope or None,
                                    label=label)
    _emit(ctx, {"id": made.token_id, "token": made.token, "user": made.principal.user,
                "workspace": made.principal.workspace, "scopes": made.principal.scopes},
          lambda c: c.print(f"{made.token_id} for {escape(user)} in {workspace}, scopes "
                            f"{', '.join(made.principal.scopes)}\n{made.token}\n"
                            "(shown once: keep it; `factstore tokens revoke "
                            f"{made.token_id}` withdraws it)"))


@tokens_app.command("list")
def tokens_list(ctx: typer.Context) -> None:
    """Every token, revoked ones too; never the secrets."""
    tokens = _store(ctx).list_tokens()
    _emit(ctx, tokens, lambda c: _render_tokens(c, tokens))


@tokens_app.command("revoke")
def tokens_revoke(
    ctx: typer.Context,
    token_id: Annotated[str, typer.Argument(metavar="ID", help="tok-... from `tokens list`.")],
) -> None:
    """Revoke a token: its next call is refused. It stays listed."""
    info = _store(ctx).revoke_token(token_id)
    _emit(ctx, info, lambda c: c.print(f"{info.id} revoked at {info.revoked_at:%Y-%m-%d %H:%M}"))


@tokens_app.command("admin")
def tokens_admin(ctx: typer.Context) -> None:
    """The local admin (owner) token under the home, made when missing."""
    token = _store(ctx).local_admin_token(_state(ctx).options.home)
    _emit(ctx, {"token": token}, lambda c: c.print(token))
