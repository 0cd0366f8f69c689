"""``factstore serve``: one long-lived process owns one Store (the model warm, the pool
shared) and serves it through two doors, MCP (stdio or streamable HTTP) and HTTP routes,
each call as the principal of its token.

The names below are imported on first use: the CLI's remote client reads only the tool
catalogue, and importing FastAPI, pydantic and the MCP SDK with it added over a second to every
CLI call made through a server (docs/performance.md, "Warm recall through the server").
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["build_mcp", "create_app", "serve_http", "serve_stdio", "store_for_token"]

_HOME = {"build_mcp": "factstore.service.mcp_tools", "create_app": "factstore.service.http",
         "store_for_token": "factstore.service.http", "serve_http": "factstore.service.run",
         "serve_stdio": "factstore.service.run"}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(_HOME[name]), name)
