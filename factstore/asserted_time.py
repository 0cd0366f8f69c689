"""The validity a claim's text asserts: "from 2019 to 2021", "since March 2024", "until
2026-06", "in 2019".

Testimony, never a verdict (seed 001): the interval is stored on the claim as what the
source said, and no read of current facts ever consults it. Pure and conservative, like the
question reader it borrows its date grammar from (:mod:`factstore.timelines.question_time`):
a bare four-digit number is a year only after a time word, and a date that describes
something ("born in 2000", "founded in 1998") asserts no interval.

Intervals use the store's partial dates and its [from, to) convention: "from 2019 to 2021"
is ``2019 .. 2021``; "through 2021" and "in 2019" end where the period after them starts
(``.. 2022``, ``2019 .. 2020``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from factstore.timelines.dates import parse_partial
from factstore.timelines.question_time import DATE_PHRASE, DESCRIBED, NOT_COUNT, date_text

__all__ = ["AssertedInterval", "asserted_interval"]



def _D(name: str) -> str:  # noqa: N802 - reads as the grammar's name for a date
    return f"(?P<{name}>{DATE_PHRASE})"

_RANGE = re.compile(
    r"\b(?:from|between|starting|beginning)\s+(?:in\s+)?" + _D("a")
    + r"\s*(?:,?\s*(?:and\s+)?(?P<how>to|until|till|through|thru|and)|-|–)\s*(?:the\s+end\s+of\s+)?"
    + _D("b"), re.IGNORECASE)
_SINCE = re.compile(r"\b(?:since|from|starting(?:\s+in)?|as\s+of|effective)\s+"
                    + _D("a"), re.IGNORECASE)
_UNTIL = re.compile(r"\b(?P<how>until|till|through|thru|up\s+to)\s+(?:the\s+end\s+of\s+)?"
                    + _D("b"), re.IGNORECASE)
_IN = re.compile(r"\b(?:in|during|throughout|on)\s+(?:the\s+year\s+)?" + _D("a")
                 + NOT_COUNT, re.IGNORECASE)


@dataclass(frozen=True)
class AssertedInterval:
    """The interval as partial dates ([valid_from, valid_to)); either end may be open."""

    valid_from: str | None
    valid_to: str | None
    #: the words it was read from
    phrase: str


def _after(text: str) -> str:
    """The partial date that starts where ``text``'s period ends."""
    period = parse_partial(text)
    if period.precision == "year":
        return f"{period.end.year:04d}"
    if period.precision == "month":
        return f"{period.end.year:04d}-{period.end.month:02d}"
    if period.precision == "day":
        return period.end.strftime("%Y-%m-%d")
    return (period.start + timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _ordered(valid_from: str | None, valid_to: str | None) -> bool:
    if valid_from is None or valid_to is None:
        return True
    return parse_partial(valid_to).start > parse_partial(valid_from).start


def asserted_interval(text: str) -> AssertedInterval | None:
    """The first interval ``text`` asserts, or None when it names none (or only dates that
    describe something)."""
    if not isinstance(text, str) or not text.strip():
        return None
    described = [m.span() for m in DESCRIBED.finditer(text)]

    def free(match: re.Match[str]) -> bool:
        """The date is not one that describes something ("born in 2000")."""
        return not any(a <= match.end() and match.start() < b for a, b in described)

    for match in _RANGE.finditer(text):
        start, end = date_text(match["a"]), date_text(match["b"])
        if start and end and free(match):
            if match["how"] and match["how"].lower() in ("through", "thru"):
                end = _after(end)
            if _ordered(start, end):
                return AssertedInterval(start, end, match.group(0))
    found: list[tuple[int, AssertedInterval]] = []
    for match in _SINCE.finditer(text):
        start = date_text(match["a"])
        if start and free(match):
            found.append((match.start(), AssertedInterval(start, None, match.group(0))))
    for match in _UNTIL.finditer(text):
        end = date_text(match["b"])
        if end and free(match):
            end = _after(end) if match["how"].lower() in ("through", "thru") else end
            found.append((match.start(), AssertedInterval(None, end, match.group(0))))
    if found:
        starts = [i for _, i in found if i.valid_from]
        ends = [i for _, i in found if i.valid_to]
        if starts and ends and _ordered(starts[0].valid_from, ends[0].valid_to):
            return AssertedInterval(starts[0].valid_from, ends[0].valid_to,
                                    f"{starts[0].phrase} … {ends[0].phrase}")
        return min(found, key=lambda item: item[0])[1]
    for match in _IN.finditer(text):
        start = date_text(match["a"])
        if start and free(match) and len(start) <= 10:
            return AssertedInterval(start, _after(start), match.group(0))
    return None
