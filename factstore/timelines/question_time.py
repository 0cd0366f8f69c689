"""The time a question names (seed 002 §5): "in 2025", "as of 2025-06", "in June 2025",
"last month" — asked as of the end of that time.

:func:`as_of_from_question` answers the partial date the question names (or None); the
caller turns it into an instant with ``dates.parse_partial(x).last_instant``, so "in 2025"
reads the timelines as they stood at the end of 2025. :func:`read_question_time` says which
phrase it read and why, for evals and for people.

What counts, strongest first (the first match of the strongest kind wins):

1. **An explicit as-of**: "as of X", "as at X", "at/by the end of X". It outranks every other
   time in the question: "what was my shoe size last year, as of 2021?" is asked as of 2021.
2. **A range**: "from A to B", "between A and B", "beginning in A and to B", "A-B" between
   two years. Asked as of the end of A, the first period named, every time: a range holds
   at the end of its first period, while B is where the store's [from, to) ranges stop (the
   value "from 1811 to 1827" is usually replaced during 1827).
3. **A named time**: an ISO date or timestamp, a day or month with its year, a year after a
   time preposition ("in", "during", "on", "at", "by", "in the year"), a decade ("in the
   1990s", asked as of its last year), "before X" (the period before X).
4. **A relative time**: "last year", "last month", "this year", "this month", "yesterday",
   "N years ago", against ``now``.
A date that describes something ("born 12 January 2000", "founded in 1998", "released
on ...") is never the time asked about: "Where did Ada, born 12 January 2000, live in
2014?" is asked as of 2014, and "Where does Ada, born in 2000, live?" as of now.

Conservative by design: a bare four-digit number is a year only after a time preposition
(questions also carry ports, counts and issue numbers), and not when a count noun follows it
("in 4096 tokens"); a month with no year, "since X" and "after X" name no single instant
(None: read as of now). Years from 1000 to 2199 are read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from factstore.errors import InvalidInput
from factstore.timelines.dates import parse_partial

__all__ = ["DATE_PHRASE", "DESCRIBED", "NOT_COUNT", "QuestionTime", "as_of_from_question",
           "date_text", "read_question_time"]

MONTHS: dict[str, int] = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}
MIN_YEAR, MAX_YEAR = 1000, 2199
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                "eight": 8, "nine": 9, "ten": 10}

# Longest names first so 'sept' is not read as 'sep' + 't'.
_MONTH = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?"
_YEAR = r"\d{4}(?![\w-])"
_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_ISO = (r"\d{4}-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))?)?"
        r"(?![\w-])")
#: A date, most precise form first (named groups are filled in by _date_text).
_DATE = (rf"(?:(?<![\w-]){_ISO}|{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}"
         rf"|{_MONTH}\s+{_DAY},?\s+{_YEAR}|{_MONTH},?\s+(?:of\s+)?{_YEAR}|{_YEAR})")
_COUNT_NOUNS = ("tokens", "bytes", "items", "rows", "words", "characters", "lines", "users",
                "people", "records", "files", "steps", "ms", "seconds", "points", "units",
                "dollars", "euros", "votes", "copies", "pages", "km", "miles", "meters")
_NOT_COUNT = r"(?!\s+(?:" + "|".join(_COUNT_NOUNS) + r")\b)"
_DESCRIBING = (r"(?:born|died|founded|established|built|created|released|launched|formed|"
               r"opened|married|published|elected|appointed|incorporated|completed|"
               r"introduced|discovered|invented|premiered|signed|enacted)")
_TIME_PREPOSITION = r"(?:in|during|on|at|by|in\s+the\s+year)"

_EXPLICIT = re.compile(
    rf"\b(?:as\s+of|as\s+at|(?:at|by)\s+the\s+end\s+of)\s+(?:the\s+year\s+)?(?P<date>{_DATE})",
    re.IGNORECASE)
_RANGE = re.compile(
    rf"\b(?:from|between|beginning\s+in|starting\s+in)\s+(?P<date>{_DATE})\s*"
    rf"(?:,?\s*(?:and\s+)?(?:to|until|till|through|and)|-|–)\s*(?:{_DATE})"
    rf"|(?<![\w-])(?P<year>\d{{4}})\s*[-–]\s*\d{{4}}(?![\w-])",
    re.IGNORECASE)
_DESCRIBED = re.compile(
    rf"\b{_DESCRIBING}\s+(?:(?:on|in|at)\s+)?(?:the\s+year\s+)?(?P<date>{_DATE})",
    re.IGNORECASE)
_DESCRIBED_RANGE = re.compile(rf"\b{_DESCRIBING}\s+$", re.IGNORECASE)
_BEFORE = re.compile(rf"\bbefore\s+(?P<date>{_DATE})", re.IGNORECASE)
_DECADE = re.compile(r"\b(?:in|during)\s+the\s+(?P<decade>\d{3}0)'?s\b", re.IGNORECASE)
_ANCHORED = re.compile(
    rf"(?<![\w-])(?P<iso>{_ISO})"
    rf"|\b(?P<full>{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}|{_MONTH}\s+{_DAY},?\s+{_YEAR}"
    rf"|{_MONTH},?\s+(?:of\s+)?{_YEAR})"
    rf"|\b{_TIME_PREPOSITION}\s+(?P<year>\d{{4}})(?![\w-]){_NOT_COUNT}",
    re.IGNORECASE)
_NOT_ASKED = re.compile(rf"\b(?:since|after)\s+(?:{_DATE})", re.IGNORECASE)
_RELATIVE = re.compile(
    r"\b(?:(?P<lastthis>last|this|previous|past)\s+(?P<unit>year|month)"
    r"|(?P<n>\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten)\s+years?\s+ago"
    r"|(?P<yesterday>yesterday))\b",
    re.IGNORECASE)

_DAY_MONTH_YEAR = re.compile(rf"(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?"
                             rf"(?P<month>{_MONTH}),?\s+(?P<year>\d{{4}})", re.IGNORECASE)
_MONTH_DAY_YEAR = re.compile(rf"(?P<month>{_MONTH})\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+"
                             rf"(?P<year>\d{{4}})", re.IGNORECASE)
_MONTH_YEAR = re.compile(rf"(?P<month>{_MONTH}),?\s+(?:of\s+)?(?P<year>\d{{4}})",
                         re.IGNORECASE)


@dataclass(frozen=True)
class QuestionTime:
    """What a question's time was read as: the partial date, the rule, the phrase."""

    as_of: str
    #: explicit | range | named | relative
    rule: str
    phrase: str


def _year_ok(year: int) -> bool:
    return MIN_YEAR <= year <= MAX_YEAR


def _checked(text: str) -> str | None:
    try:
        parse_partial(text)  # '2025-13', 'Feb 30 2025': named, but not a time
    except InvalidInput:
        return None
    return text


def _date_text(phrase: str) -> str | None:
    """The partial date a date phrase names: '2025', '2025-06', '2025-06-15' or an ISO."""
    phrase = phrase.strip()
    if re.fullmatch(_ISO, phrase, re.IGNORECASE):
        text = phrase[:10] + phrase[10:].upper()  # RFC 3339 allows 't'/'z'
        return _checked(text) if _year_ok(int(text[:4])) else None
    for pattern, has_day in ((_DAY_MONTH_YEAR, True), (_MONTH_DAY_YEAR, True),
                             (_MONTH_YEAR, False)):
        match = pattern.fullmatch(phrase)
        if match:
            year = int(match["year"])
            month = MONTHS[match["month"].lower().rstrip(".")]
            if not _year_ok(year):
                return None
            text = f"{year:04d}-{month:02d}"
            if has_day:
                # '30 February 2025' names no day, but still names its month
                return _checked(f"{text}-{int(match['day']):02d}") or _checked(text)
            return _checked(text)
    if re.fullmatch(r"\d{4}", phrase):
        return f"{int(phrase):04d}" if _year_ok(int(phrase)) else None
    return None


def _before(text: str) -> str | None:
    """The period just before a partial date, at the same precision."""
    period = parse_partial(text)
    previous = period.start - timedelta(microseconds=1)
    if len(text) == 4:
        return f"{previous.year:04d}" if _year_ok(previous.year) else None
    if len(text) == 7:
        return f"{previous.year:04d}-{previous.month:02d}"
    return previous.strftime("%Y-%m-%d")


def _relative(match: re.Match[str], now: datetime) -> str | None:
    if match["yesterday"]:
        return (now - timedelta(days=1)).strftime("%Y-%m-%d")
    if match["n"]:
        n = match["n"].lower()
        years = int(n) if n.isdigit() else NUMBER_WORDS[n]
        return f"{now.year - years:04d}"
    which, unit = match["lastthis"].lower(), match["unit"].lower()
    if unit == "year":
        return f"{now.year - (0 if which == 'this' else 1):04d}"
    if which == "this":
        return f"{now.year:04d}-{now.month:02d}"
    # January's last month is December of the year before.
    year, month = (now.year - 1, 12) if now.month == 1 else (now.year, now.month - 1)
    return f"{year:04d}-{month:02d}"


def _spans(pattern: re.Pattern[str], question: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(question)]


def _inside(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(a <= span[0] and span[1] <= b for a, b in spans)


def read_question_time(question: str, now: datetime) -> QuestionTime | None:
    """The time a question asks about, by the rules of the module docstring; None if none."""
    if not isinstance(question, str) or not question.strip():
        return None
    for match in _EXPLICIT.finditer(question):
        text = _date_text(match["date"])
        if text:
            return QuestionTime(text, "explicit", match.group(0))
    for match in _RANGE.finditer(question):
        if _DESCRIBED_RANGE.search(question[:match.start()]):
            continue  # "built between 1772 and 1774": describes, not asked
        text = _date_text(match["date"] or match["year"])
        if text:
            return QuestionTime(text, "range", match.group(0))
    described = _spans(_DESCRIBED, question)
    unasked = _spans(_NOT_ASKED, question)
    named: list[tuple[int, QuestionTime]] = []
    for match in _BEFORE.finditer(question):
        text = _date_text(match["date"])
        before = _before(text) if text else None
        if before and not _inside(match.span(), described):
            named.append((match.start(), QuestionTime(before, "named", match.group(0))))
    for match in _DECADE.finditer(question):
        last = int(match["decade"]) + 9
        if _year_ok(last):
            named.append((match.start(), QuestionTime(f"{last:04d}", "named", match.group(0))))
    taken = [span for _, t in named for span in _spans(re.compile(re.escape(t.phrase)),
                                                        question)]
    for match in _ANCHORED.finditer(question):
        span = match.span()
        if _inside(span, described) or _inside(span, unasked) or _inside(span, taken):
            continue
        text = _date_text(match["iso"] or match["full"] or match["year"])
        if text:
            named.append((match.start(), QuestionTime(text, "named", match.group(0))))
    if named:
        return min(named, key=lambda item: item[0])[1]
    for match in _RELATIVE.finditer(question):
        text = _relative(match, now)
        if text and _year_ok(int(text[:4])):
            return QuestionTime(text, "relative", match.group(0))
    return None


#: The date grammar, shared with the reader of a claim's asserted validity
#: (factstore/asserted_time.py): a date phrase, a date that describes something, the
#: count-noun guard after a bare year, and a date phrase's partial date.
DATE_PHRASE = _DATE
DESCRIBED = _DESCRIBED
NOT_COUNT = _NOT_COUNT


def date_text(phrase: str) -> str | None:
    """The partial date a date phrase names ('2025', '2025-06', '2025-06-15', an ISO
    timestamp), or None when it names no real date in the years read."""
    return _date_text(phrase)


def as_of_from_question(question: str, now: datetime) -> str | None:
    """The partial date a question names, to be read as of the end of it; None if none.

    "in 2025" -> "2025"; "as of 2025-06" -> "2025-06"; "in June 2025" -> "2025-06";
    "last month" -> the month before ``now``'s (in ``now``'s own calendar, so pass the
    asker's local time if that is what "last month" should mean); "from 1811 to 1827" ->
    "1811". The order of precedence is the module docstring's.
    """
    found = read_question_time(question, now)
    return found.as_of if found else None
