"""``factstore serve``: one process owns the store and serves it (HTTP + MCP, or MCP on
stdio). The CLI itself talks to a running server when ``FACTSTORE_SERVER`` is set."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from factstore.cli.shell import _state, app, open_local_store

__all__ = ["serve"]


@app.command("serve")
def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8765,
    pool_size: Annotated[int, typer.Option(
        "--pool-size", min=1, max=64,
        help="Database connections the server's requests share.")] = 12,
    stdio: Annotated[bool, typer.Option(
        "--stdio", help="Serve MCP on stdin/stdout instead (as FACTSTORE_TOKEN, default the "
                        "local admin token).")] = False,
) -> None:
    """Serve the store: HTTP routes and MCP at /mcp, or MCP over stdio."""
    from factstore.service import serve_http, serve_stdio

    options = _state(ctx).options
    # in-process, whatever FACTSTORE_SERVER says
    store = open_local_store(options, pool_size=pool_size)
    ctx.find_root().call_on_close(store.close)
    home = options.home
    if stdio:
        serve_stdio(store, token=os.environ.get("FACTSTORE_TOKEN") or None, home=home)
    else:
        serve_http(store, host=host, port=port, home=home)
