"""``factstore server``: the embedded Postgres — is it running, who uses it, stop it.

Neither command opens a store or starts the server. ``status`` reads the data folder (or,
with a DSN configured, only checks that the server answers) and always exits 0. ``stop``
stops the embedded server cleanly and exits 0 (also when it was not running); with a DSN
server configured (``--dsn`` / ``FACTSTORE_DSN``) it refuses: ``error: ...`` and exit code 2,
since factstore only manages the server it started.
"""

from __future__ import annotations

import typer
from rich.console import Console
from rich.markup import escape

from factstore.cli.shell import _emit, _state
from factstore.store import server
from factstore.store.server import ServerStatus, StopResult

__all__ = ["server_app"]

server_app = typer.Typer(no_args_is_help=True,
                         help="The embedded Postgres: status (pid, data dir, clients), stop.")


def _render_status(console: Console, s: ServerStatus) -> None:
    if not s.embedded:
        answer = "reachable" if s.reachable else "NOT reachable"
        console.print(escape(f"DSN server {s.dsn}: {answer} (not managed by factstore; the "
                             "embedded server is not used)"))
        return
    if s.running:
        console.print(escape(f"embedded Postgres: running, pid {s.pid} ({s.state or '?'})"))
    elif s.initialized:
        console.print("embedded Postgres: not running (it starts on the next open)")
    else:
        console.print("embedded Postgres: not created yet (the first open creates it)")
    console.print(escape(f"data dir: {s.data_dir}"))
    if s.socket_dir:
        console.print(escape(f"socket dir: {s.socket_dir}"))
    if s.log:
        console.print(escape(f"log: {s.log}"))
    if not s.clients:
        console.print("clients: none")
        return
    console.print("clients: " + ", ".join(
        f"{c.pid} ({'alive' if c.alive else 'dead'})" for c in s.clients))
    dead = [c.pid for c in s.clients if not c.alive]
    if dead:
        # Why it matters: a dead pid in the list keeps the last live client from stopping it.
        console.print(f"{len(dead)} dead client pid(s): pruned at the next open or "
                      "`factstore server stop`")


def _render_stop(console: Console, r: StopResult) -> None:
    if r.was_running:
        console.print(escape(f"stopped the embedded Postgres (pid {r.pid}) in {r.data_dir}"))
    else:
        console.print(escape(f"the embedded Postgres in {r.data_dir} was not running"))
    if r.pruned:
        console.print(f"pruned dead client pids: {', '.join(map(str, r.pruned))}")
    if r.clients:
        console.print(f"live clients lost their connections: {', '.join(map(str, r.clients))} "
                      "(their next open starts the server again)")


@server_app.command("status")
def server_status(ctx: typer.Context) -> None:
    """Is the embedded server running: its pid, data dir, and client pids (alive/dead)."""
    options = _state(ctx).options
    result = server.server_status(options.dsn, options.home)
    _emit(ctx, result, lambda c: _render_status(c, result))


@server_app.command("stop")
def server_stop(ctx: typer.Context) -> None:
    """Stop the embedded server cleanly; exit 2 if a DSN server is configured instead."""
    options = _state(ctx).options
    result = server.stop_server(options.dsn, options.home)
    _emit(ctx, result, lambda c: _render_stop(c, result))
