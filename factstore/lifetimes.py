"""Parsing expected lifetimes ("2d", "36h", "1w", "90m") into timedeltas."""

from __future__ import annotations

import re
from datetime import timedelta

from factstore.errors import InvalidInput
from factstore.inputs import show

_UNITS = {"s": "seconds", "sec": "seconds", "seconds": "seconds", "m": "minutes", "min": "minutes", "h": "hours", "hr": "hours", "d": "days",
          "day": "days", "days": "days", "w": "weeks", "wk": "weeks", "week": "weeks",
          "weeks": "weeks", "hours": "hours", "hour": "hours", "minutes": "minutes"}
#: The longest expected lifetime: past it a state is not expected to go stale at all.
MAX_LIFETIME = timedelta(days=36525)
_LIFETIME = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([a-z]+)\s*$")


def parse_lifetime(value: str | timedelta) -> timedelta:
    """'2d' -> timedelta(days=2). Raises InvalidInput with the accepted forms."""
    if isinstance(value, timedelta):
        if value <= timedelta(0):
            raise InvalidInput(f"lifetime {show(value)} must be positive")
        return _capped(value, value)
    match = _LIFETIME.match(str(value).lower()) if isinstance(value, str) else None
    if not match or match.group(2) not in _UNITS:
        raise InvalidInput(
            f"lifetime {show(value)} is not understood; write a number and a unit, e.g. '90m', "
            "'36h', '2d', '1w' (or seconds, '45s')"
        )
    amount = float(match.group(1))
    if amount <= 0:
        raise InvalidInput(f"lifetime {show(value)} must be positive")
    try:
        lifetime = timedelta(**{_UNITS[match.group(2)]: amount})
    except (OverflowError, ValueError):  # past timedelta's range, or an infinite float
        lifetime = MAX_LIFETIME * 2
    return _capped(lifetime, value)


def _capped(lifetime: timedelta, value: object) -> timedelta:
    if lifetime > MAX_LIFETIME:
        raise InvalidInput(f"lifetime {show(value)} is longer than {MAX_LIFETIME.days} days "
                           "(100 years); a state that lasts longer is not expected to expire")
    return lifetime


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
