"""When a statement says something happened or held, read against when it was said.

Seed 002 §4: "Date it as precisely as the text does, and no more: 'this year' in a 2026
message is 2026, 'since October' is 2026-10, 'on the 15th' is 2026-10-15. Do not invent a
day. Omit valid_from when the text gives no time." So "in March" said on 2026-06-10 is
2026-03, "last month" 2026-05, "yesterday" a day. A named month later than the saying month
is last year's ("in November", said in February). "last week" and "N weeks ago" name a day
(the same weekday that many weeks before): the phrase's own precision is a week, which the
store's partial dates cannot write, and a month would start weeks too early and reorder the
timeline; the day is the nearest honest grain.

Pure: text and an aware instant in, a :class:`StatedTime` (or None) out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from factstore.timelines.question_time import MONTHS, NUMBER_WORDS, date_text

__all__ = ["StatedTime", "stated_time"]

_MONTH = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_NUM = r"(?:\d{1,2}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a\s+couple\s+of|a\s+few)"
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY = r"(?:" + "|".join(_WEEKDAYS) + r")"
#: "last Tues", "last Thurs": chat shortens the day; only after "last" (a bare "sat" or
#: "sun" is another word)
_SHORT_DAY = r"(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\.?"
_ISO_DAY = r"\d{4}-\d{2}-\d{2}"
#: A day of the month named alone: "on the 1st", "as of the 15th".
_NTH = r"the\s+(?:[12]?\d|3[01])(?:st|nd|rd|th)"
_FULL = (rf"(?:{_ISO_DAY}|\d{{4}}-\d{{2}}|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+\d{{4}}"
         rf"|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|{_MONTH},?\s+(?:of\s+)?\d{{4}}"
         rf"|(?<![\w.-])(?:19|20|21)\d{{2}}(?![\w.-]))")
_DAY_MONTH = rf"(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}|{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?)(?![\w,]*\s*\d{{4}})"

#: Each rule: a pattern and what it means. Checked in order; the first match in the text
#: (by position) wins, so "since October ... in 2025" reads "since October".
_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("since", re.compile(rf"\b(?:since|starting|effective|as\s+of)\s+(?:in\s+|on\s+)?"
                         rf"(?P<when>{_FULL}|{_DAY_MONTH}|{_MONTH}|last\s+(?:week|month|year)"
                         rf"|this\s+(?:month|year)|{_WEEKDAY}|yesterday|{_NTH})\b", re.I)),
    ("until", re.compile(rf"\b(?:until|till|through)\s+(?:in\s+|on\s+)?"
                         rf"(?P<when>{_FULL}|{_DAY_MONTH}|{_MONTH}|last\s+(?:week|month|year)"
                         rf"|yesterday)\b", re.I)),
    ("at", re.compile(rf"\b(?:in|on|during|by)\s+(?:early\s+|late\s+|mid-?\s*)?"
                      rf"(?P<when>{_FULL}|{_DAY_MONTH}|{_MONTH})\b", re.I)),
    ("at", re.compile(rf"(?P<when>(?<![\w-]){_ISO_DAY}(?![\w-])|{_MONTH}\s+\d{{1,2}}"
                      rf"(?:st|nd|rd|th)?,?\s+\d{{4}})", re.I)),
    ("at", re.compile(r"\b(?P<when>yesterday|today|this\s+morning|this\s+afternoon|tonight"
                      r"|this\s+week|last\s+night|the\s+day\s+before\s+yesterday)\b", re.I)),
    ("at", re.compile(rf"\b(?P<when>(?:last|this|earlier\s+this|at\s+the\s+(?:start|beginning)"
                      rf"\s+of\s+(?:the|this)|at\s+the\s+end\s+of\s+last)\s+(?:week|month|year)"
                      rf"|{_NUM}\s+(?:days?|weeks?|months?|years?)\s+ago"
                      rf"|(?:last|on)\s+{_WEEKDAY}|last\s+{_SHORT_DAY}(?!\w)|just"
                      rf"|a\s+moment\s+ago|(?:an|a\s+few|{_NUM})\s+(?:hours?|minutes?)\s+ago"
                      rf"|(?:last|this|over\s+the)\s+weekend|on\s+{_NTH})\b", re.I)),
)

#: Words that put the change in the future: a plan, not a change that happened.
_FUTURE = re.compile(r"\b(?:next\s+(?:week|month|year|monday|tuesday|wednesday|thursday|"
                     r"friday|saturday|sunday)|tomorrow|in\s+(?:a|two|three|\d+)\s+"
                     r"(?:days?|weeks?|months?|years?)|soon|someday|some\s+day)\b", re.I)


@dataclass(frozen=True)
class StatedTime:
    """A time a statement names: as a partial date, and how it bounds the value."""

    #: 'at' (the change happened then / the state held then), 'since' (from then on),
    #: 'until' (it stopped then)
    role: str
    #: the partial date: YYYY, YYYY-MM or YYYY-MM-DD
    date: str
    #: the words it was read from
    phrase: str


def future_time(text: str) -> bool:
    """Whether the text puts what it says in the future ("next month", "tomorrow")."""
    return _FUTURE.search(text) is not None


def stated_time(text: str, said: datetime) -> StatedTime | None:
    """The first time ``text`` names, resolved against ``said`` (when it was said), or None.

    A named time later than the saying is read as the last one before it ("in November",
    said in February, is last November; "on Friday" the last Friday); a date written with
    its year is taken as written.
    """
    if not isinstance(text, str) or not text.strip():
        return None
    said = said.astimezone(UTC) if said.tzinfo else said.replace(tzinfo=UTC)
    found: list[tuple[int, StatedTime]] = []
    for role, pattern in _RULES:
        for match in pattern.finditer(text):
            date = _resolve(match["when"], said)
            if date is not None:
                found.append((match.start(), StatedTime(role, date, match.group(0).strip())))
                if match["when"].lower() != "just":
                    break
    if not found:
        return None
    # "just joined ... last Tues": "just" says recent, the named day says when
    named = [item for item in found if item[1].phrase.lower() != "just"]
    return min(named or found, key=lambda item: item[0])[1]


def _count(word: str) -> int:
    word = " ".join(word.lower().split())
    if word.isdigit():
        return int(word)
    if word in ("a", "an"):
        return 1
    if word in ("a couple of",):
        return 2
    if word in ("a few",):
        return 3
    return NUMBER_WORDS.get(word, 1)


def _day(instant: datetime) -> str:
    return instant.strftime("%Y-%m-%d")


def _month_back(said: datetime, months: int) -> str:
    index = said.year * 12 + (said.month - 1) - months
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def _resolve(phrase: str, said: datetime) -> str | None:
    """The partial date one time phrase names, said at ``said``."""
    low = " ".join(phrase.lower().split())
    if low in ("yesterday", "last night"):
        return _day(said - timedelta(days=1))
    if low == "the day before yesterday":
        return _day(said - timedelta(days=2))
    if low in ("today", "this morning", "this afternoon", "tonight", "just",
               "a moment ago"):
        return _day(said)
    if low == "this week":
        return _day(said)
    if re.fullmatch(rf"(?:an|a few|{_NUM})\s+(?:hours?|minutes?)\s+ago", low):
        return _day(said)
    if low in ("last weekend", "this weekend", "over the weekend"):
        # the weekend before the saying (said on a Sunday: that weekend's Saturday)
        back = (said.weekday() - 5) % 7 if said.weekday() >= 5 else said.weekday() + 2
        if low == "last weekend" and said.weekday() >= 5:
            back += 7  # said on a weekend, "last weekend" is the one before
        return _day(said - timedelta(days=back))
    nth = re.fullmatch(r"(?:on\s+)?the\s+(?P<d>\d{1,2})(?:st|nd|rd|th)", low)
    if nth:
        # the last such day of a month at or before the saying
        day, year, month = int(nth["d"]), said.year, said.month
        for _ in range(3):
            if day <= said.day or (year, month) != (said.year, said.month):
                try:
                    return _day(datetime(year, month, day, tzinfo=UTC))
                except ValueError:
                    pass
            year, month = (year - 1, 12) if month == 1 else (year, month - 1)
        return None
    if low == "last week":
        return _day(said - timedelta(days=7))
    if low in ("last month", "at the end of last month"):
        return _month_back(said, 1)
    if low == "this month":
        return _month_back(said, 0)
    if low in ("last year", "at the end of last year"):
        return f"{said.year - 1:04d}"
    if low in ("this year", "earlier this year"):
        return f"{said.year:04d}"
    if low in ("at the start of the year", "at the beginning of the year",
               "at the start of this year", "at the beginning of this year"):
        return f"{said.year:04d}-01"
    ago = re.fullmatch(rf"(?P<n>{_NUM})\s+(?P<unit>day|week|month|year)s?\s+ago", low)
    if ago:
        n, unit = _count(ago["n"]), ago["unit"]
        if unit == "day":
            return _day(said - timedelta(days=n))
        if unit == "week":
            return _day(said - timedelta(weeks=n))
        if unit == "month":
            return _month_back(said, n)
        return f"{said.year - n:04d}"
    weekday = re.fullmatch(rf"(?:last\s+|on\s+)?(?P<d>{_WEEKDAY}|{_SHORT_DAY})", low)
    if weekday:
        index = next(i for i, day in enumerate(_WEEKDAYS) if day.startswith(weekday["d"][:3]))
        back = (said.weekday() - index) % 7 or 7
        return _day(said - timedelta(days=back))
    month_only = re.fullmatch(rf"(?:early\s+|late\s+|mid-?\s*)?(?P<m>{_MONTH})", low)
    if month_only:
        month = MONTHS[month_only["m"].rstrip(".")]
        year = said.year if month <= said.month else said.year - 1
        return f"{year:04d}-{month:02d}"
    day_month = re.fullmatch(rf"(?:(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m1>{_MONTH})"
                             rf"|(?P<m2>{_MONTH})\s+(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?)", low)
    if day_month:
        month = MONTHS[(day_month["m1"] or day_month["m2"]).rstrip(".")]
        day = int(day_month["d1"] or day_month["d2"])
        year = said.year if (month, day) <= (said.month, said.day) else said.year - 1
        try:
            return _day(datetime(year, month, day, tzinfo=UTC))
        except ValueError:
            return None
    text = date_text(phrase)
    if text is not None and len(text) > 10:
        text = text[:10]  # a timestamp in prose: its day is what the text dates
    return text
