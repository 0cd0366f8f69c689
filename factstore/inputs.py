"""Checking what callers pass in: every public Store method validates its arguments here
before anything is written, and a bad one raises :class:`InvalidInput` naming the field,
what was wrong and the limit (issue 9).

Text must be a ``str`` (bytes are refused with a hint to decode), hold no NUL character
(Postgres text cannot store one) and no lone surrogate (not encodable as UTF-8), and stay
within its length limit. Ids are positive integers within Postgres ``bigint``. Instants are
aware datetimes (or RFC 3339 text) between the years 2 and 9998, so every timezone's
reading of them stays representable on both sides of the database.

Pure functions, no database.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from factstore.errors import InvalidInput

__all__ = [
    "MAX_ID",
    "MAX_NOTE",
    "MAX_REF",
    "MAX_REF_BYTES",
    "check_choice",
    "check_count",
    "check_flag",
    "check_id",
    "check_instant",
    "check_json",
    "check_number",
    "check_text",
    "show",
    "unstorable",
]

#: Postgres bigint's largest value: ids beyond it cannot exist.
MAX_ID = 2**63 - 1
#: source_ref and captured_by: an identifier of a source, not a document. Bytes too: the
#: documents' lineage index keys on it, and a btree entry holds at most ~2,700 bytes.
MAX_REF = 2000
MAX_REF_BYTES = 2000
#: reasons, notes, titles and descriptions a person writes.
MAX_NOTE = 20_000
#: a query or question: a sentence or a paragraph, not a document.
MAX_QUERY = 10_000
#: a tag, alias or topic name.
MAX_TAG = 200
#: the instants the store reads and writes back without overflow in any timezone.
EARLIEST = datetime(2, 1, 1, tzinfo=UTC)
LATEST = datetime(9998, 12, 31, tzinfo=UTC)
#: how deep a JSON value may nest (deeper is a payload attack, not data).
MAX_DEPTH = 32


def show(value: object, limit: int = 60) -> str:
    """A bounded description of any value for an error message: never recursive (a deeply
    nested list would overflow repr) and never huge (a 5,000-digit integer)."""
    if isinstance(value, str):
        text = repr(value[:limit])
    elif isinstance(value, bytes | bytearray):
        text = f"{len(value)} bytes"
    elif isinstance(value, dict | list | tuple | set | frozenset):
        text = f"a {type(value).__name__} of {len(value)} item(s)"
    elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        text = f"an integer of {value.bit_length()} bits"
    elif isinstance(value, bool | int | float) or value is None:
        text = repr(value)
    else:
        text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_text(name: str, value: object, *, limit: int, required: bool = True,
               blank_ok: bool = False, max_bytes: int | None = None) -> str | None:
    """``value`` if it is storable text, else InvalidInput naming ``name``.

    ``required=False`` lets None through; ``blank_ok`` allows whitespace-only text;
    ``max_bytes`` bounds the UTF-8 size too (for a value an index keys on).
    """
    if value is None:
        if required:
            raise InvalidInput(f"{name} is required: pass text")
        return None
    if isinstance(value, bytes | bytearray | memoryview):
        raise InvalidInput(f"{name} must be text (str), got bytes: decode it first "
                           "(for example value.decode('utf-8'))")
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be text (str), got {type(value).__name__}")
    if (problem := unstorable(value)) is not None:
        raise InvalidInput(f"{name} {problem}")
    if len(value) > limit:
        raise InvalidInput(f"{name} is {len(value):,} characters; the limit is {limit:,}")
    if max_bytes is not None and (size := len(value.encode("utf-8"))) > max_bytes:
        raise InvalidInput(f"{name} is {size:,} bytes as UTF-8; the limit is {max_bytes:,}")
    if not blank_ok and not value.strip():
        raise InvalidInput(f"{name} must not be blank")
    return value


def unstorable(text: str) -> str | None:
    """What makes a text one Postgres cannot keep (a NUL, a lone surrogate), else None."""
    if "\x00" in text:
        return "contains a NUL character (\\x00), which the store cannot keep; remove it"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return (f"contains a lone surrogate at position {exc.start} (not valid Unicode); "
                "send valid UTF-8 text")
    return None


def check_choice(name: str, value: object, choices: tuple[str, ...], *,
                 required: bool = True) -> str | None:
    """One of ``choices`` (None too when not required), else InvalidInput listing them."""
    if value is None and not required:
        return None
    if not isinstance(value, str) or value not in choices:
        raise InvalidInput(f"{name} must be one of {', '.join(choices)}"
                           f"{'' if required else ' or None'}, got {show(value)}")
    return value


def check_flag(name: str, value: object) -> bool:
    """True or False (not 1, not 'yes'), else InvalidInput."""
    if not isinstance(value, bool):
        raise InvalidInput(f"{name} must be true or false, got {show(value)}")
    return value


def check_id(name: str, value: object) -> int:
    """A positive integer id within bigint, else InvalidInput."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name} must be an integer id, got {show(value)}")
    if not 1 <= value <= MAX_ID:
        raise InvalidInput(f"{name} must be an id from 1 to {MAX_ID}, got {show(value)}")
    return value


def check_count(name: str, value: object, low: int, high: int) -> int:
    """An integer in [low, high], else InvalidInput naming the range."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{name} must be an integer from {low} to {high}, got {show(value)}")
    return value


def check_number(name: str, value: object, low: float, high: float) -> float:
    """A finite number in [low, high], else InvalidInput."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidInput(f"{name} must be a number, got {type(value).__name__}")
    number = float(value) if not isinstance(value, int) or abs(value) < 2**63 else math.inf
    if not math.isfinite(number) or not low <= number <= high:
        raise InvalidInput(f"{name} must be a number from {low:g} to {high:g}, got "
                           f"{show(value)}")
    return number


def check_instant(name: str, value: datetime | str | None) -> datetime | None:
    """An aware instant between the years 2 and 9998 (RFC 3339 text is parsed), or None."""
    if value is None:
        return None
    if isinstance(value, str):
        check_text(name, value, limit=64)
        try:
            value = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise InvalidInput(f"{name}={show(value)} is not an ISO-8601 timestamp; use e.g. "
                               "2026-10-15T09:12:00Z") from None
    if not isinstance(value, datetime):
        raise InvalidInput(f"{name} must be a datetime or ISO-8601 text, got "
                           f"{type(value).__name__}")
    if value.tzinfo is None or value.utcoffset() is None:
        raise InvalidInput(f"{name} must be timezone-aware (add an offset such as +00:00)")
    try:
        instant = value.astimezone(UTC)
        instant + timedelta(days=1), instant - timedelta(days=1)  # noqa: B018 - range probe
    except OverflowError:
        raise InvalidInput(f"{name} {value.isoformat()} is outside the years the store keeps "
                           "(2 to 9998)") from None
    if not EARLIEST <= instant <= LATEST:
        raise InvalidInput(f"{name} {value.isoformat()} is outside the years the store keeps "
                           "(2 to 9998)")
    return instant


def check_json(name: str, value: object, *, limit: int = 100_000) -> object:
    """A JSON-able value no deeper than MAX_DEPTH and no longer than ``limit`` characters as
    JSON, with every string storable (no NUL, no lone surrogate)."""
    import json

    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise InvalidInput(f"{name} nests deeper than {MAX_DEPTH} levels")
        if isinstance(node, dict):
            for key, item in node.items():
                if not isinstance(key, str):
                    raise InvalidInput(f"{name} has a non-text key {show(key)}")
                check_text(f"{name} key", key, limit=limit, blank_ok=True)
                stack.append((item, depth + 1))
        elif isinstance(node, list | tuple):
            stack.extend((item, depth + 1) for item in node)
        elif isinstance(node, str):
            check_text(f"{name} value", node, limit=limit, blank_ok=True)
        elif isinstance(node, float) and not math.isfinite(node):
            raise InvalidInput(f"{name} holds a non-finite number ({node})")
        elif isinstance(node, int) and not isinstance(node, bool) and abs(node) >= 2**63:
            raise InvalidInput(f"{name} holds an integer too large to keep")
        elif node is not None and not isinstance(node, bool | int | float):
            raise InvalidInput(f"{name} holds a {type(node).__name__}, which is not JSON")
    try:
        size = len(json.dumps(value))
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"{name} is not JSON: {exc}") from None
    if size > limit:
        raise InvalidInput(f"{name} is {size:,} characters as JSON; the limit is {limit:,}")
    return value
