"""Running the server: HTTP (with MCP at /mcp) under uvicorn, or MCP over stdio."""

from __future__ import annotations

import os
import sys

from factstore.service.http import create_app, store_for_token
from factstore.service.mcp_tools import build_mcp
from factstore.store import Store

__all__ = ["serve_http", "serve_stdio", "warm"]


def warm(store: Store) -> None:
    """Load the model now, so the first call does not pay for it."""
    store.embedder.embed(["warm up"])


def serve_http(store: Store, *, host: str, port: int,
               home: str | os.PathLike[str] | None) -> None:
    """Serve HTTP and MCP until interrupted; says where, and where the admin token is."""
    import uvicorn

    store.local_admin_token(home)
    warm(store)
    print(f"factstore serving on http://{host}:{port} (MCP at /mcp, OpenAPI at "
          f"/openapi.json); the admin token is in {store.admin_token_path(home)}",
          file=sys.stderr, flush=True)
    uvicorn.run(create_app(store), host=host, port=port, log_level="warning")


def serve_stdio(store: Store, *, token: str | None,
                home: str | os.PathLike[str] | None) -> None:
    """Serve MCP on stdin/stdout as the principal of ``token`` (default: the local admin
    token). Nothing but the protocol is written to stdout."""
    view = store_for_token(store, "Bearer " + (token or store.local_admin_token(home)))
    warm(store)
    build_mcp(store, stdio_principal_store=view).run("stdio")
