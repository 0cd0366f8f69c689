"""Value-level formatting for the CLI: results to JSON values, and the small text cells
(times, similarities, quotes, per-kind fields) the rich renderers are built from."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime, timedelta
from enum import Enum
from typing import Any

from factstore.kinds import KIND_COLUMNS, Kind
from factstore.lifetimes import format_lifetime
from factstore.results import Fact

__all__ = ["to_jsonable"]


# -- JSON ----------------------------------------------------------------------------------


def to_jsonable(value: object) -> Any:
    """Result dataclasses to plain JSON values: datetimes ISO-8601, timedeltas as '2d'."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
        # every answer says its grain (claim, fact, document); a claim says its status
        for extra in ("grain", "status"):
            if extra not in out and isinstance(getattr(type(value), extra, None),
                                               str | property):
                out[extra] = to_jsonable(getattr(value, extra))
        return out
    if isinstance(value, Enum):  # before str: Kind and Verdict are StrEnums
        return value.value
    if value is None or isinstance(value, bool | str | int):
        return value
    if isinstance(value, float):
        return float(value)  # numpy float64 subclasses float; make it plain
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, timedelta):
        return format_lifetime(value)
    if isinstance(value, Mapping):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "item"):  # numpy scalars (float32 similarities) are not floats
        return value.item()
    return str(value)


# -- small formatting helpers --------------------------------------------------------------


def _when(value: datetime | None) -> str:
    return "—" if value is None else value.strftime("%Y-%m-%d %H:%M:%S %Z").strip()


def _sim(value: float | None) -> str:
    return "—" if value is None else f"{value:.3f}"


def _kind_fields(fact: Fact) -> dict[str, str]:
    """The per-kind load-bearing columns this fact's kind owns, where set."""
    out: dict[str, str] = {}
    for name in KIND_COLUMNS[Kind(fact.kind)]:
        value = getattr(fact, name)
        if isinstance(value, timedelta):
            value = format_lifetime(value)
        if value is not None:
            out[name] = str(value)
    return out


def _quote(text: str) -> str:
    return f"“{text}”"
