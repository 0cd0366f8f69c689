"""Partial dates: as precise as the writer knows, stored as written, compared by start.

'2025' is all of 2025, '2025-06' all of June, '2025-06-15' that day (UTC), and a timestamp is
its own instant. A range [valid_from, valid_to) runs from the start of valid_from to the start
of valid_to, so 2025..2026 is all of 2025.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from factstore.errors import InvalidInput
from factstore.inputs import EARLIEST, LATEST, check_instant

PARTIAL_DATE = re.compile(
    r"^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))?)?)?$")
PRECISIONS = ("year", "month", "day", "timestamp")


@dataclass(frozen=True)
class PartialDate:
    """A date as written, with the instant it starts and the instant its period ends."""

    text: str
    precision: str
    start: datetime
    #: exclusive end of the period (the start of the next year/month/day; for a timestamp,
    #: the instant itself)
    end: datetime

    @property
    def last_instant(self) -> datetime:
        """The last instant inside the period: what a partial as_of means."""
        if self.precision == "timestamp":
            return self.start
        return self.end - timedelta(microseconds=1)


@functools.lru_cache(maxsize=65536)
def parse_partial(text: str) -> PartialDate:
    """Parse '2025', '2025-06', '2025-06-15' or an RFC 3339 timestamp; InvalidInput otherwise."""
    if not isinstance(text, str) or not PARTIAL_DATE.match(text):
        raise InvalidInput(
            f"{text!r} is not a partial date; write YYYY, YYYY-MM, YYYY-MM-DD or "
            "YYYY-MM-DDThh:mm:ss with Z or an offset")
    if not EARLIEST.year <= int(text[:4]) <= LATEST.year:
        # Python's datetime ends at 9999 and a timezone can push either edge past it.
        raise InvalidInput(f"{text!r} is outside the years the store keeps "
                           f"({EARLIEST.year:04d} to {LATEST.year})")
    try:
        if len(text) == 4:
            start = datetime(int(text), 1, 1, tzinfo=UTC)
            return PartialDate(text, "year", start, start.replace(year=start.year + 1))
        if len(text) == 7:
            year, month = int(text[:4]), int(text[5:7])
            start = datetime(year, month, 1, tzinfo=UTC)
            end = datetime(year + month // 12, month % 12 + 1, 1, tzinfo=UTC)
            return PartialDate(text, "month", start, end)
        if len(text) == 10:
            start = datetime.fromisoformat(text).replace(tzinfo=UTC)
            return PartialDate(text, "day", start, start + timedelta(days=1))
        instant = datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)
        return PartialDate(text, "timestamp", instant, instant)
    except (ValueError, OverflowError) as exc:
        raise InvalidInput(f"{text!r} is not a real date: {exc}") from None


def start_of(text: str | None) -> datetime | None:
    return None if text is None else parse_partial(text).start


def as_of_instant(as_of: str | datetime | None, now: datetime) -> tuple[str, datetime]:
    """The as_of as written and the instant it means: a partial date's last instant."""
    if as_of is None:
        return "now", now
    if isinstance(as_of, datetime):
        return as_of.isoformat(), check_instant("as_of", as_of)
    if not isinstance(as_of, str):
        raise InvalidInput(f"as_of must be a partial date (YYYY, YYYY-MM, YYYY-MM-DD), an "
                           f"RFC 3339 timestamp or a datetime, got {type(as_of).__name__}")
    try:
        return as_of, parse_partial(as_of).last_instant
    except InvalidInput as exc:  # name the argument: the text alone does not say which one
        raise InvalidInput(f"as_of: {exc}") from None


def show_instant(instant: datetime) -> str:
    """'2025-12-31T23:59:59Z' (seconds precision, UTC), as the seed shows as_of_instant."""
    return instant.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
