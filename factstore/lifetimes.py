"""Parsing expected lifetimes ("2d", "36h", "1w", "90m") into timedeltas."""

from __future__ import annotations

import re
from datetime import timedelta

from factstore.errors import InvalidInput

_UNITS = {"s": "seconds", "sec": "seconds", "seconds": "seconds", "m": "minutes", "min": "minutes", "h": "hours", "hr": "hours", "d": "days",
          "day": "days", "days": "days", "w": "weeks", "wk": "weeks", "week": "weeks",
          "weeks": "weeks", "hours": "hours", "hour": "hours", "minutes": "minutes"}
_LIFETIME = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-z]+)\s*$")


def parse_lifetime(value: str | timedelta) -> timedelta:
    """'2d' -> timedelta(days=2). Raises InvalidInput with the accepted forms."""
    if isinstance(value, timedelta):
        if value <= timedelta(0):
            raise InvalidInput(f"lifetime {value!r} must be positive")
        return value
    match = _LIFETIME.match(str(value).lower()) if isinstance(value, str) else None
    if not match or match.group(2) not in _UNITS:
        raise InvalidInput(
            f"lifetime {value!r} is not understood; write a number and a unit, e.g. '90m', "
            "'36h', '2d', '1w' (or seconds, '45s')"
        )
    amount = float(match.group(1))
    if amount <= 0:
        raise InvalidInput(f"lifetime {value!r} must be positive")
    return timedelta(**{_UNITS[match.group(2)]: amount})


def format_lifetime(value: timedelta | None) -> str | None:
    """timedelta -> the shortest exact '2d' / '36h' / '90m' / '61s' form."""
    if value is None:
        return None
    if value.microseconds:
        return f"{value.total_seconds():.6f}".rstrip("0") + "s"
    seconds = int(value.total_seconds())
    for unit, size in (("w", 604800), ("d", 86400), ("h", 3600), ("m", 60)):
        if seconds % size == 0:
            return f"{seconds // size}{unit}"
    return f"{seconds}s"
