"""The MCP door: the catalogue's tools on an MCP server (the official SDK's MCPServer),
over stdio or streamable HTTP.

Over HTTP every call carries ``Authorization: Bearer <token>`` and runs as that token's
principal; over stdio the process runs as one principal, fixed when it starts. A
FactStoreError comes back as a tool error (``isError``) whose text is the error's type,
code and message, never a traceback.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from factstore.errors import FactStoreError
from factstore.service.catalogue import TOOLS, Tool
from factstore.service.errors import status_of
from factstore.store import Store

__all__ = ["build_mcp"]

INSTRUCTIONS = (
    "factstore is a fact store: memory that keeps what is known, with a verdict, verbatim "
    "provenance and a lifecycle for every fact. remember captures text; recall answers with "
    "labeled items (read the labels); write_facts/facts/brief keep dated timelines "
    "(seed format v1). Conflicts wait in open_conflicts for a decision. Your credential "
    "decides which memory you read and write; no tool takes a scope.")


def _tool_error(exc: FactStoreError) -> ToolError:
    _, code = status_of(exc)
    return ToolError(f"{type(exc).__name__} ({code}): {exc}")


def _wrapper(tool: Tool, store_for: Callable[[Context], Store]) -> Callable[..., str]:
    """The tool as MCP sees it: its own parameters plus the request context, answering a
    JSON text."""
    params = tool.params()

    def run(ctx: Context, **arguments: Any) -> str:
        try:
            return json.dumps(tool.call(store_for(ctx), arguments), ensure_ascii=False)
        except FactStoreError as exc:
            raise _tool_error(exc) from exc

    context = inspect.Parameter("ctx", inspect.Parameter.KEYWORD_ONLY, annotation=Context)
    run.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [*params, context], return_annotation=str)
    run.__annotations__ = {p.name: p.annotation for p in params} | {"ctx": Context,
                                                                    "return": str}
    run.__name__ = tool.name
    return run


def build_mcp(store: Store, *, stdio_principal_store: Store | None = None,
              authenticate: Callable[[str | None], Store] | None = None) -> MCPServer:
    """An MCP server over ``store``. Over stdio every call runs as
    ``stdio_principal_store``; over HTTP ``authenticate(authorization header)`` gives the
    caller's store view."""

    def store_for(ctx: Context) -> Store:
        headers = ctx.headers
        if headers is None:  # stdio: the process's own principal
            if stdio_principal_store is None:
                raise ToolError("this server takes calls over HTTP only")
            return stdio_principal_store
        if authenticate is None:
            raise ToolError("this server takes calls over stdio only")
        try:
            return authenticate(headers.get("authorization"))
        except FactStoreError as exc:
            raise _tool_error(exc) from exc

    server = MCPServer(name="factstore", instructions=INSTRUCTIONS)
    for tool in TOOLS.values():
        server.add_tool(_wrapper(tool, store_for), name=tool.name,
                        description=tool.description, structured_output=False)
    return server
