"""The time a question names (seed 002 §5): "in 2025", "as of 2025-06", "in June 2025",
"last month" — asked as of the end of that time.

:func:`as_of_from_question` answers the partial date the question names (or None); the
caller turns it into an instant with ``dates.parse_partial(x).last_instant``, so "in 2025"
reads the timelines as they stood at the end of 2025.

Recognising a time is kept conservative: a bare four-digit number is a year only after a
time preposition ("in 2025", "as of 2025", "during 2025"), because questions also carry
ports, counts and issue numbers. A month name with a year ("June 2025") and an ISO date
("2025-06-15") name a time wherever they stand.
"""

from __future__ import annotations

import re
from datetime import datetime

from factstore.errors import InvalidInput
from factstore.timelines.dates import parse_partial

MONTHS: dict[str, int] = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}
#: Years outside this range after "in" are more likely counts ("in 4096 tokens").
MIN_YEAR, MAX_YEAR = 1900, 2199

# Longest names first so 'sept' is not read as 'sep' + 't'.
_MONTH = "(?P<month>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"(?P<year>\d{4})(?![\w-])"
_DAY = r"(?P<day>\d{1,2})(?:st|nd|rd|th)?"
_PREPOSITION = (r"\b(?:as\s+of|as\s+at|in|during|by|on|(?:at\s+)?(?:the\s+)?end\s+of)"
                r"\s+(?:the\s+year\s+)?")

_FORMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # ISO partial dates and RFC 3339 timestamps; the boundaries keep '2024-25-x' ids out.
    ("iso", re.compile(
        r"(?<![\w-])(?P<iso>\d{4}-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?"
        r"(?:Z|[+-]\d{2}:\d{2}))?)?)(?![\w-])", re.IGNORECASE)),
    ("day-month-year", re.compile(
        rf"\b{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}", re.IGNORECASE)),
    ("month-day-year", re.compile(
        rf"\b{_MONTH}\s+{_DAY},?\s+{_YEAR}", re.IGNORECASE)),
    ("month-year", re.compile(rf"\b{_MONTH},?\s+(?:of\s+)?{_YEAR}", re.IGNORECASE)),
    ("year", re.compile(_PREPOSITION + _YEAR, re.IGNORECASE)),
    ("last", re.compile(r"\blast\s+(?P<unit>month|year)\b", re.IGNORECASE)),
)


def _candidate(form: str, match: re.Match[str], now: datetime) -> str | None:
    """The partial date one match names, or None when it is not a real date."""
    if form == "last":
        if match["unit"].lower() == "year":
            return f"{now.year - 1:04d}"
        # January's last month is December of the year before.
        year, month = (now.year - 1, 12) if now.month == 1 else (now.year, now.month - 1)
        return f"{year:04d}-{month:02d}"
    if form == "iso":
        text = match["iso"]
        text = text[:10] + text[10:].upper()  # RFC 3339 allows 't'/'z'; store the usual form
    else:
        year = int(match["year"])
        if not MIN_YEAR <= year <= MAX_YEAR:
            return None
        if form == "year":
            text = f"{year:04d}"
        else:
            month = MONTHS[match["month"].lower()]
            text = f"{year:04d}-{month:02d}"
            if form != "month-year":
                text += f"-{int(match['day']):02d}"
    try:
        parse_partial(text)  # '2025-13', 'Feb 30 2025': named, but not a time
    except InvalidInput:
        return None
    return text


def as_of_from_question(question: str, now: datetime) -> str | None:
    """The partial date a question names, to be read as of the end of it; None if none.

    "in 2025" -> "2025"; "as of 2025-06" -> "2025-06"; "in June 2025" -> "2025-06";
    "last month" -> the month before ``now``'s (in ``now``'s own calendar, so pass the
    asker's local time if that is what "last month" should mean); "last year" -> the year
    before. When a question names several times, the first one named wins.
    """
    if not isinstance(question, str):
        return None
    found: list[tuple[int, int, str]] = []
    for form, pattern in _FORMS:
        for match in pattern.finditer(question):
            value = _candidate(form, match, now)
            if value is not None:
                # Earliest first; at the same start the longer (more precise) match wins.
                found.append((match.start(), -(match.end() - match.start()), value))
    return min(found)[2] if found else None
