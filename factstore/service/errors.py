"""A FactStoreError as the two doors say it: an HTTP status and body, or an MCP tool error.

One mapping for both, so an agent reads the same code and message whichever door it used.
"""

from __future__ import annotations

from typing import Any

from factstore.errors import (
    AccessDenied,
    DatabaseUnavailable,
    FactStoreError,
    InvalidInput,
    InvalidToken,
    NotFound,
    SealError,
)
from factstore.timelines.format_v1 import FactsValidationError

__all__ = ["error_body", "status_of"]

#: (error class, HTTP status, default code), the first match wins
_MAP: tuple[tuple[type[FactStoreError], int, str], ...] = (
    (InvalidToken, 401, "auth/invalid-token"),
    (AccessDenied, 403, "auth/denied"),
    (FactsValidationError, 422, "facts/invalid"),
    (InvalidInput, 422, "input/invalid"),
    (NotFound, 404, "not-found"),
    (DatabaseUnavailable, 503, "store/unavailable"),
    (SealError, 500, "store/sealed"),
)


def status_of(exc: FactStoreError) -> tuple[int, str]:
    """The HTTP status and the error code (the error's own ``code`` when it has one, e.g.
    ``facts/cardinality-mismatch``)."""
    for cls, status, code in _MAP:
        if isinstance(exc, cls):
            return status, getattr(exc, "code", None) or code
    return 400, "store/refused"


def error_body(exc: FactStoreError) -> dict[str, Any]:
    """``{"error": {code, type, message[, violations]}}``; a facts request lists every
    violation (path and reason) the validator found."""
    _, code = status_of(exc)
    body: dict[str, Any] = {"code": code, "type": type(exc).__name__, "message": str(exc)}
    if isinstance(exc, FactsValidationError):
        body["violations"] = [{"path": e.path, "reason": e.reason} for e in exc.errors]
    return {"error": body}
