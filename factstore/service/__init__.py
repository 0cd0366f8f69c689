"""``factstore serve``: one long-lived process owns one Store (the model warm, the pool
shared) and serves it through two doors, MCP (stdio or streamable HTTP) and HTTP routes,
each call as the principal of its token."""

from factstore.service.http import create_app, store_for_token
from factstore.service.mcp_tools import build_mcp
from factstore.service.run import serve_http, serve_stdio

__all__ = ["build_mcp", "create_app", "serve_http", "serve_stdio", "store_for_token"]
