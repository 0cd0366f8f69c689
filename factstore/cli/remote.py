"""The CLI through a running server: with ``FACTSTORE_SERVER`` set, the commands that map
to the server's tools call it over HTTP instead of opening the store in-process (no model
load, no pool: a warm call).

``RemoteStore`` stands where the CLI expects a Store: each tool method posts its arguments
to ``/v1/tools/<name>`` (timeline writes to ``/v1/facts``) and rebuilds the result the
in-process Store would have returned, so every renderer prints the same thing. A refusal
comes back as the same FactStoreError class, so exit codes are the same too.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import os
import types
import typing
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from factstore import errors as error_classes
from factstore.errors import DatabaseUnavailable, FactStoreError, InvalidInput, InvalidToken
from factstore.lifetimes import parse_lifetime
from factstore.timelines import format_v1

__all__ = ["RemoteStore", "from_jsonable", "server_url"]

#: how long a call may take (a cold recall on a loaded server is well under this)
TIMEOUT = 120.0


def server_url() -> str | None:
    """The server the CLI should use (``FACTSTORE_SERVER``), if any."""
    return os.environ.get("FACTSTORE_SERVER") or None


def from_jsonable(kind: Any, value: Any) -> Any:
    """``value`` (JSON) as the type ``kind`` names: dataclasses field by field, tuples and
    lists item by item, enums by value, datetimes from ISO 8601. The inverse of the CLI's
    ``to_jsonable`` for the store's result types."""
    origin = typing.get_origin(kind)
    if value is None:
        # JSON has no NaN: the server sends a float the store left NaN (recall's similarity
        # of an item no vector found) as null; a field that is never None gets it back
        return float("nan") if kind is float else None
    if kind is Any or kind is object:
        return value
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(kind) if a is not type(None)]
        for option in options:
            try:
                return from_jsonable(option, value)
            except (TypeError, ValueError, KeyError):
                continue
        return value
    if origin is typing.Annotated:
        return from_jsonable(typing.get_args(kind)[0], value)
    if origin in (tuple, list, set, frozenset):
        args = typing.get_args(kind)
        item = args[0] if args else Any
        return origin(from_jsonable(item, v) for v in value)
    if origin is dict:
        return dict(value)
    if inspect.isclass(kind):
        if dataclasses.is_dataclass(kind):
            if not isinstance(value, dict):
                raise TypeError(f"{kind.__name__} needs an object")
            hints = typing.get_type_hints(kind) | _loose_fields().get(kind, {})
            return kind(**{f.name: from_jsonable(hints[f.name], value[f.name])
                           for f in dataclasses.fields(kind) if f.init and f.name in value})
        if issubclass(kind, enum.Enum):
            return kind(value)
        if issubclass(kind, datetime):
            return datetime.fromisoformat(value)
        if issubclass(kind, timedelta):
            return parse_lifetime(value)
        if issubclass(kind, list) and kind is not list:  # ConflictList, QuestionQueue
            item = typing.get_args(kind.__orig_bases__[0])[0]  # type: ignore[attr-defined]
            return kind(from_jsonable(item, v) for v in value)
        if kind in (int, float, str, bool):
            if kind is float and isinstance(value, int):
                return float(value)
            if not isinstance(value, kind):
                raise TypeError(f"expected {kind.__name__}, got {type(value).__name__}")
            return value
    return value


def _loose_fields() -> dict[type, dict[str, Any]]:
    """Result fields annotated ``Any`` (to keep an import cycle out of results.py) and the
    type each really holds, so they rebuild as that type and not as a dict."""
    from factstore.groups import GroupContinuation
    from factstore.results import RecallResult
    from factstore.timelines.model import TimelineKey

    return {RecallResult: {"continuations": tuple[GroupContinuation, ...],
                           "answers": tuple[TimelineKey, ...]}}


def _error(body: Any, status: int) -> FactStoreError:
    """The server's error as the class it was raised as (its message verbatim)."""
    detail = body.get("error", {}) if isinstance(body, dict) else {}
    name, message = detail.get("type", ""), detail.get("message") or f"HTTP {status}"
    cls = getattr(error_classes, name, None) or getattr(format_v1, name, None)
    if not (inspect.isclass(cls) and issubclass(cls, FactStoreError)):
        cls = InvalidInput if status == 422 else FactStoreError
    error = cls.__new__(cls)
    Exception.__init__(error, message)  # the message as sent; no constructor re-words it
    return error


class RemoteStore:
    """The tool methods of a Store, served by a running ``factstore serve``."""

    def __init__(self, url: str, token: str, *, client: httpx.Client | None = None) -> None:
        self.url = url.rstrip("/")
        self._client = client or httpx.Client(timeout=TIMEOUT)
        self._headers = {"Authorization": f"Bearer {token}"}

    def close(self) -> None:
        self._client.close()

    def _post(self, path: str, body: Any, *, content: str | bytes | None = None) -> Any:
        try:
            if content is not None:  # a request as its text: the server parses and judges it
                response = self._client.post(self.url + path, content=content, headers={
                    **self._headers, "Content-Type": "application/json"})
            else:
                response = self._client.post(self.url + path, json=body,
                                             headers=self._headers)
        except httpx.HTTPError as exc:
            raise DatabaseUnavailable(f"no factstore server answers at {self.url} "
                                      f"({type(exc).__name__}); start one with `factstore "
                                      "serve`, or unset FACTSTORE_SERVER") from exc
        try:
            body = response.json()
        except ValueError:
            body = None
        if response.status_code >= 400:
            raise _error(body, response.status_code)
        return body

    def write_facts(self, payload: Any, **kwargs: Any) -> Any:
        from factstore.timelines.model import WriteFactsResult

        if kwargs:
            raise InvalidInput("through a server, write_facts takes only the request: "
                               f"{', '.join(kwargs)} is the server's to decide")
        answer = (self._post("/v1/facts", None, content=payload)
                  if isinstance(payload, str | bytes) else self._post("/v1/facts", payload))
        return from_jsonable(WriteFactsResult, answer)

    def __getattr__(self, name: str) -> Any:
        from factstore.service.catalogue import TOOLS
        from factstore.store import Store

        tool = TOOLS.get(name)
        if tool is None or name.startswith("_"):
            raise InvalidInput(f"`{name}` is not served over HTTP; unset FACTSTORE_SERVER to "
                               "run this command in-process")
        names = [p.name for p in tool.params()]
        returns = typing.get_type_hints(getattr(Store, name)).get("return", Any)

        def call(*args: Any, **kwargs: Any) -> Any:
            arguments = dict(zip(names, args, strict=False)) | kwargs
            unknown = set(arguments) - set(names)
            if unknown:
                raise InvalidInput(f"through a server, {name} does not take "
                                   f"{', '.join(sorted(unknown))}")
            result = self._post(f"/v1/tools/{name}", arguments)
            if name == "retract":
                result = result["fact"]
            return from_jsonable(returns, result)

        return call


def token_for(home: str | os.PathLike[str] | None) -> str:
    """``FACTSTORE_TOKEN``, else the local admin token under the home."""
    token = os.environ.get("FACTSTORE_TOKEN")
    if token:
        return token
    from factstore.store.server import factstore_home

    path = Path(factstore_home(home)) / "admin-token"
    try:
        return path.read_text().strip()
    except FileNotFoundError as exc:
        raise InvalidToken(f"FACTSTORE_SERVER is set but there is no token: set "
                           f"FACTSTORE_TOKEN, or run the server with this FACTSTORE_HOME "
                           f"({path} is missing)") from exc
