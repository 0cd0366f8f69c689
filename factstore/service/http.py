"""The HTTP door (FastAPI): the seed 002 routes, the seed 000 tools as routes, and the MCP
streamable-HTTP endpoint at ``/mcp``, in one app over one Store.

Every route but ``/v1/health`` needs ``Authorization: Bearer <token>``; the request runs on
the store as that token's principal. No route takes a scope. Errors are
``{"error": {code, type, message[, violations]}}`` with the status the error class maps to
(service/errors.py); a failed call wrote nothing.
"""

import contextlib
import inspect
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import Body, Depends, FastAPI, Header, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, create_model

from factstore import __version__
from factstore.errors import FactStoreError, InvalidToken
from factstore.service.catalogue import TOOLS, Tool, as_json
from factstore.service.errors import error_body, status_of
from factstore.service.mcp_tools import build_mcp
from factstore.store import Store

__all__ = ["create_app", "store_for_token"]

logger = logging.getLogger("factstore.service")


def store_for_token(store: Store, authorization: str | None) -> Store:
    """The store as the bearer of ``authorization`` sees it."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise InvalidToken("send 'Authorization: Bearer fst_...' (the local admin token is in "
                           "$FACTSTORE_HOME/admin-token; `factstore tokens create` makes more)")
    principal = store.authenticate(token.strip())
    return store.as_principal(principal)


class FactsRequest(BaseModel):
    """A format v1 request (seed 002 §4): at most 50 facts; ``shared`` writes to the
    workspace's shared memory."""

    model_config = ConfigDict(extra="allow")
    format: int = 1
    facts: list[dict[str, Any]]
    shared: bool = False


class NoteRequest(BaseModel):
    body: str
    facts: list[dict[str, Any]] | None = None
    shared: bool = False


class AskRequest(BaseModel):
    question: str
    as_of: str | None = None


class RetractRequest(BaseModel):
    reason: str = "retracted by request"


def _body_model(tool: Tool) -> type[BaseModel]:
    """A request body model from the tool's signature, so OpenAPI documents each tool."""
    fields: dict[str, Any] = {}
    for param in tool.params():
        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[param.name] = (param.annotation, default)
    return create_model(f"{tool.name.title().replace('_', '')}Args", **fields,
                        __config__=ConfigDict(extra="forbid"))


def create_app(store: Store) -> FastAPI:
    """The app over ``store`` (the server's owner store; requests narrow it per token)."""
    mcp = build_mcp(store, authenticate=lambda header: store_for_token(store, header))
    mcp_app = mcp.streamable_http_app(streamable_http_path="/mcp", stateless_http=True,
                                      json_response=True)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        async with mcp.session_manager.run():
            yield

    app = FastAPI(title="factstore", version=__version__, lifespan=lifespan,
                  description="A fact store for agent memory: the seed 002 routes and the "
                              "store's tools. MCP (streamable HTTP) is served at /mcp.")

    def caller(authorization: Annotated[str | None, Header()] = None) -> Store:
        return store_for_token(store, authorization)

    View = Annotated[Store, Depends(caller)]  # noqa: N806 - a type, named as one

    @app.exception_handler(FactStoreError)
    async def refused(_: Request, exc: FactStoreError) -> JSONResponse:
        status, _ = status_of(exc)
        return JSONResponse(error_body(exc), status_code=status)

    @app.middleware("http")
    async def crashed(request: Request, call_next: Any) -> Any:
        # A fault in factstore itself: still the error shape, and the connection kept (an
        # exception handler for Exception answers but then re-raises, and the server drops
        # the client's kept-alive connection); the traceback goes to the server's log.
        try:
            return await call_next(request)
        except Exception as exc:  # noqa: BLE001 - the last line of defence, logged
            logger.exception("internal error in %s %s", request.method, request.url.path)
            return JSONResponse({"error": {"code": "internal", "type": type(exc).__name__,
                                           "message": f"internal error: {exc}"}},
                                status_code=500)

    @app.exception_handler(RequestValidationError)
    async def malformed(_: Request, exc: RequestValidationError) -> JSONResponse:
        violations = [{"path": ".".join(str(p) for p in e["loc"][1:]) or "body",
                       "reason": e["msg"]} for e in exc.errors()]
        return JSONResponse({"error": {
            "code": "input/invalid", "type": "InvalidInput",
            "message": f"{len(violations)} problem(s) in the request; nothing written",
            "violations": violations}}, status_code=422)

    @app.get("/v1/health", tags=["server"])
    def health() -> dict[str, Any]:
        """Whether the server is up (no token needed)."""
        return {"status": "ok", "version": __version__}

    @app.get("/v1/facts", tags=["facts"])
    def get_facts(view: View, subject: str | None = None, attribute: str | None = None,
                  as_of: str | None = None, known_at: str | None = None) -> Any:
        """Timelines as of ``as_of`` (seed 002 §5): per key the current facts, the history
        and the line."""
        return TOOLS["facts"].call(view, {"subject": subject, "attribute": attribute,
                                          "as_of": as_of, "known_at": known_at})

    @app.post("/v1/facts", status_code=201, tags=["facts"])
    def post_facts(request: FactsRequest, view: View) -> Any:
        """Write format v1 facts; 422 with every violation when any fact is invalid
        (``facts/invalid``, ``facts/cardinality-mismatch``), nothing written."""
        # {"document_id", "facts": [{id, outcome, fact, redactions}]}
        return as_json(view.write_facts(request.model_dump()))

    @app.post("/v1/facts/{fact_id}/retract", tags=["facts"])
    def post_retract(fact_id: int, view: View,
                     request: Annotated[RetractRequest | None, Body()] = None) -> Any:
        """Retract one fact; its timeline is resolved again."""
        reason = (request or RetractRequest()).reason
        return TOOLS["retract"].call(view, {"fact_id": fact_id, "reason": reason})

    @app.post("/v1/notes", status_code=201, tags=["facts"])
    def post_note(request: NoteRequest, view: View) -> Any:
        """Keep a note with optional facts; each fact's source defaults to the note."""
        return TOOLS["note"].call(view, request.model_dump())

    @app.post("/v1/ask", tags=["facts"])
    def post_ask(request: AskRequest, view: View) -> Any:
        """The brief for a question (its fact lines, citations), as of ``as_of`` or the time
        the question names."""
        return TOOLS["brief"].call(view, request.model_dump())

    for tool in TOOLS.values():
        _tool_route(app, tool, View)
    app.mount("/", mcp_app)  # last: /mcp, after every route above
    return app


def _tool_route(app: FastAPI, tool: Tool, view_type: Any) -> None:
    model = _body_model(tool)
    if any(f.is_required() for f in model.model_fields.values()):
        def route(view: view_type, arguments: Annotated[model, Body()]) -> Any:
            return tool.call(view, arguments.model_dump())
    else:
        def route(view: view_type,  # type: ignore[misc]
                  arguments: Annotated[model | None, Body()] = None) -> Any:
            return tool.call(view, arguments.model_dump() if arguments is not None else {})

    app.add_api_route(f"/v1/tools/{tool.name}", route, methods=["POST"], tags=["tools"],
                      summary=tool.name, description=tool.description,
                      name=f"tool_{tool.name}")
