"""The difference detector: the second stage of the conflict-density check.

Cosine similarity alone ranks a changed value ("the limit is 40" / "the limit is 41") and a
negation above a reworded restatement, so no threshold separates them (issue 4, open
question 2). This module names, deterministically, what differs between two statements of
the same kind; an empty tuple means nothing material differs (a restatement).

Categories, in the order they are reported:

- **numbers** -- ``value 40 EU -> 41 EU``: quantities compared by value and unit, with unit
  aliases and conversions (``2 hours`` = ``120 min``, ``40%`` = ``40 percent``, ``two`` = ``2``,
  ``1,000`` = ``1000``); dotted versions as ``version 1.2.3 -> 1.2.4``;
- **dates and times** -- ``date 2025-06 -> 2025-07``: ISO dates, month names, weekdays,
  quarters, years, relative days; ``June 2025`` = ``2025-06``, ``2am`` = ``02:00``;
- **negation** -- ``negation: b negates a``: the polarity model of
  :mod:`factstore.writepath.polarity` (aligned clauses, parity, lexical negation);
- **antonyms** -- ``antonym green -> red``: a curated table, plus prefix negation
  (``available`` / ``unavailable``). An antonym under a negation cancels it: "not green" and
  "red" agree, so neither is reported;
- **named values** -- ``named value staging -> canary``: a capitalised name, path, URL,
  identifier (``sample-svc``, ``build.pipeline``), quoted string or a word from
  :data:`VALUE_WORDS`, reported only when the statements are otherwise aligned (the names
  sit in the same replaced position of a token alignment). When that position is the
  subject of an otherwise identical predicate ("sample-svc is green" / "other-svc is
  green"), it is reported as ``subject sample-svc -> other-svc``: two facts about two things.

A value present on one side only is reported as ``value 41 only in b``: added detail, not a
change. :func:`route_decision` turns the list into a yes/no for the conflict pipeline.

Limitations: common nouns outside the tables are not values ("prefers tea" / "prefers
coffee" reads as a restatement); "5m" is read as five minutes; US-style dates (06/07/2025)
are not parsed; numbers are paired by order of appearance when several change at once.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from factstore.writepath import polarity

__all__ = [
    "ANTONYM_PAIRS",
    "UNITS",
    "VALUE_WORDS",
    "differences",
    "route_decision",
]

# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------

#: Unit aliases -> (dimension, factor to the dimension's base unit). Time in seconds, data in
#: bytes; a currency or a percentage is its own dimension.
UNITS: dict[str, tuple[str, str]] = {
    **dict.fromkeys(("ms", "msec", "msecs", "millisecond", "milliseconds"), ("time", "0.001")),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), ("time", "1")),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), ("time", "60")),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours"), ("time", "3600")),
    **dict.fromkeys(("d", "day", "days"), ("time", "86400")),
    **dict.fromkeys(("w", "wk", "wks", "week", "weeks"), ("time", "604800")),
    **dict.fromkeys(("mo", "month", "months"), ("time", "2592000")),
    **dict.fromkeys(("y", "yr", "yrs", "year", "years"), ("time", "31536000")),
    **dict.fromkeys(("b", "byte", "bytes"), ("data", "1")),
    **dict.fromkeys(("kb", "kilobyte", "kilobytes"), ("data", "1000")),
    **dict.fromkeys(("mb", "megabyte", "megabytes"), ("data", "1000000")),
    **dict.fromkeys(("gb", "gigabyte", "gigabytes"), ("data", "1000000000")),
    **dict.fromkeys(("tb", "terabyte", "terabytes"), ("data", "1000000000000")),
    "kib": ("data", "1024"), "mib": ("data", "1048576"), "gib": ("data", "1073741824"),
    "tib": ("data", "1099511627776"),
    **dict.fromkeys(("%", "percent", "pct"), ("%", "1")),
    **dict.fromkeys(("usd", "dollar", "dollars", "$"), ("usd", "1")),
    **dict.fromkeys(("eur", "euro", "euros", "€"), ("eur", "1")),
    **dict.fromkeys(("gbp", "pound", "pounds", "£"), ("gbp", "1")),
    **dict.fromkeys(("x", "times"), ("x", "1")),
    "k": ("", "1000"),
    **dict.fromkeys(("st", "nd", "rd", "th"), ("ordinal", "1")),
}
#: Single-letter units are read only when glued to the number ("5m"), never spaced ("5 m").
_GLUED_ONLY_UNITS = frozenset(("s", "m", "h", "d", "w", "y", "b", "k", "x", "st", "nd", "rd",
                               "th"))

#: Number words -> value. Hyphenated compounds ("twenty-one") are summed.
NUMBER_WORDS: dict[str, int] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}
#: After these "one" is a pronoun, not a count ("no one", "the one on staging").
_ONE_AS_PRONOUN_AFTER = frozenset(("no", "the", "this", "that", "which", "each", "every",
                                   "any", "some", "another", "only"))

MONTHS: dict[str, int] = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}
#: Month spellings that are also ordinary words; alone they count only when capitalised, and
#: "May" only after a temporal preposition ("in May", not "May I").
_AMBIGUOUS_MONTHS = frozenset(("may", "march", "august", "mar", "jan", "dec", "sep", "oct",
                               "nov", "apr", "jun", "jul", "aug", "feb", "sept"))
_MAY_PREPOSITIONS = re.compile(
    r"(?:\b(?:in|by|until|till|since|from|before|after|during|early|late|mid|of|through)\s+)$"
)
WEEKDAYS: tuple[str, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday",
                             "saturday", "sunday")

#: Mutually exclusive predicate values. Each pair is read both ways.
ANTONYM_PAIRS: tuple[tuple[str, str], ...] = (
    ("green", "red"), ("up", "down"), ("enabled", "disabled"), ("enable", "disable"),
    ("on", "off"), ("pass", "fail"), ("passes", "fails"), ("passed", "failed"),
    ("passing", "failing"), ("open", "closed"), ("opened", "closed"), ("allow", "deny"),
    ("allows", "denies"), ("allowed", "denied"), ("always", "never"), ("locked", "unlocked"),
    ("online", "offline"), ("healthy", "unhealthy"), ("valid", "invalid"),
    ("public", "private"), ("read-only", "read-write"), ("true", "false"),
    ("success", "failure"), ("succeeded", "failed"), ("succeeds", "fails"),
    ("accept", "reject"), ("accepted", "rejected"), ("approved", "rejected"),
    ("include", "exclude"), ("included", "excluded"), ("required", "optional"),
    ("mandatory", "optional"), ("sync", "async"), ("synchronous", "asynchronous"),
    ("internal", "external"), ("manual", "automatic"), ("manually", "automatically"),
    ("local", "remote"), ("static", "dynamic"), ("ascending", "descending"),
    ("increase", "decrease"), ("increased", "decreased"), ("more", "less"),
    ("higher", "lower"), ("above", "below"), ("before", "after"), ("first", "last"),
    ("minimum", "maximum"), ("min", "max"), ("start", "stop"), ("started", "stopped"),
    ("running", "stopped"), ("light", "dark"), ("tabs", "spaces"), ("stable", "unstable"),
    ("stable", "flaky"), ("available", "unavailable"), ("supported", "unsupported"),
    ("connected", "disconnected"), ("active", "inactive"), ("present", "absent"),
    ("blocked", "unblocked"), ("broken", "fixed"), ("secure", "insecure"),
    ("encrypted", "unencrypted"), ("allowlist", "denylist"), ("whitelist", "blacklist"),
    ("inside", "outside"), ("up-to-date", "out-of-date"), ("up-to-date", "stale"),
    ("fresh", "stale"), ("merged", "unmerged"), ("signed", "unsigned"),
)
#: Antonyms that are also everyday function words; they count only in the aligned position.
ALIGNED_ONLY_ANTONYMS: frozenset[str] = frozenset((
    "on", "off", "up", "down", "open", "first", "last", "more", "less", "before", "after",
    "light", "dark", "start", "stop", "pass", "fail", "min", "max", "above", "below",
))

#: Lowercase words that name a value when they differ in the aligned position: deployment
#: targets, branches and cadences.
VALUE_WORDS: frozenset[str] = frozenset((
    "staging", "canary", "production", "prod", "dev", "development", "test", "testing", "qa",
    "preview", "sandbox", "main", "master", "trunk", "develop", "release", "beta", "alpha",
    "nightly", "hourly", "daily", "weekly", "biweekly", "fortnightly", "monthly", "quarterly",
    "yearly", "annually", "annual",
))

#: Copulas, auxiliaries and modals: where a subject ends and a predicate begins.
PREDICATE_MARKERS: frozenset[str] = frozenset((
    "is", "are", "was", "were", "be", "been", "being", "am", "has", "have", "had", "does",
    "do", "did", "will", "would", "can", "could", "should", "shall", "may", "might", "must",
    "stays", "stay", "remains", "remain", "runs", "run", "lives", "live", "goes", "go",
))
_DETERMINERS = frozenset(("the", "a", "an", "our", "their", "its", "this", "that", "my"))

# An aligned replacement longer than this (tokens a side) is a rewording, not a value swap.
_MAX_SWAP_TOKENS = 3
# Share of tokens that must align for a replaced name to count as "in the same position".
_MIN_ALIGNED = 0.5

# --------------------------------------------------------------------------------------------
# Patterns (matched against the folded text: lowercase, straight quotes, same indices)
# --------------------------------------------------------------------------------------------

_LOCATORS = (
    re.compile(r"\b(?:https?|ftp|ssh|git|file)://[^\s<>\"'`)\]]+"),
    re.compile(r"\bwww\.[^\s<>\"'`)\]]+"),
    re.compile(r"\b[a-z]:\\[^\s<>\"'`|]*"),
    re.compile(r"(?<![\w/.:~\\])(?:~|\.{1,2})?/[\w.@+-]+(?:/[\w.@+-]*)*"),
    # relative paths need an extension or two slashes, so "and/or" is not a path
    re.compile(r"\b[\w.-]+(?:/[\w.-]+)*/[\w-]+\.[a-z]\w*\b|\b[\w.-]+/[\w.-]+/[\w./-]+"),
)
_QUOTED = re.compile(r'"([^"\n]{1,200})"|`([^`\n]{1,200})`|(?<!\w)\'([^\'\n]{1,200})\'(?!\w)')
# Only an abbreviation takes a dot ("Dec."), so a sentence's final period stays outside.
_MONTH = (r"(?P<mon>january|february|march|april|may|june|july|august|september|october|"
          r"november|december|(?:jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?)")
_DATES = (
    ("iso", re.compile(r"\b(?P<y>\d{4})[-/](?P<m>\d{1,2})[-/](?P<d>\d{1,2})\b")),
    ("iso-month", re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})\b(?!-\d)")),
    ("month-day", re.compile(
        rf"\b{_MONTH}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(?P<y>\d{{4}})\b)?")),
    ("day-month", re.compile(
        rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}(?![a-z])"
        rf"(?:,?\s+(?P<y>\d{{4}})\b)?")),
    ("month-year", re.compile(rf"\b{_MONTH}(?![a-z]),?\s+(?P<y>\d{{4}})\b")),
    ("month", re.compile(rf"\b{_MONTH}(?![a-z])")),
    ("weekday", re.compile(r"\b(?P<w>" + "|".join(WEEKDAYS) + r")s?\b")),
    ("quarter", re.compile(r"\bq(?P<q>[1-4])(?:\s+(?P<y>\d{4}))?\b")),
    ("relative", re.compile(r"\b(?:today|tomorrow|yesterday|tonight)\b"
                            r"|\b(?:this|next|last)\s+(?:week|month|year|quarter|weekend|sprint|"
                            + "|".join(WEEKDAYS) + r")\b")),
    ("year", re.compile(r"(?<![\w.$€£-])(?P<y>(?:19|20)\d\d)\b(?![.,]\d)")),
)
_TIMES = (
    re.compile(r"\b(?P<h>\d{1,2}):(?P<m>\d{2})(?::\d{2})?(?:\s*(?P<ap>am|pm|a\.m\.|p\.m\.))?"),
    re.compile(r"\b(?P<h>\d{1,2})\s*(?P<ap>am|pm|a\.m\.|p\.m\.)(?![a-z])"),
    re.compile(r"\b(?P<word>noon|midnight)\b"),
)
_VERSION = re.compile(r"(?<![\w.-])(?:v\d+(?:\.\d+)*|\d+(?:\.\d+){2,})(?![\w-]|\.\d)")
_NUMBER = re.compile(
    r"(?<![\w.\-/\\:@#])(?P<cur>[$€£])?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<glued>%|[a-z]+)?(?![\w\-/\\@])(?!\.\d)"
)
_SPACED_UNIT = re.compile(r"[ \t]+(?P<unit>%|[a-z]+)\b")
_NUMBER_WORD = re.compile(
    r"(?<![\w-])(?:" + "|".join(sorted(NUMBER_WORDS, key=len, reverse=True)) + r")"
    r"(?:-(?:" + "|".join(w for w, v in NUMBER_WORDS.items() if 0 < v < 10) + r"))?(?![\w-])"
)
_WORD = re.compile(r"[\w@#][\w@#'.\-/+:]*\w|\w")
_SENTENCE_END = re.compile(r"[.!?;:]\s*$")

_CONTRACTIONS: dict[str, tuple[str, ...]] = {
    "can't": ("can", "not"), "cannot": ("can", "not"), "won't": ("will", "not"),
    "shan't": ("shall", "not"), "ain't": ("is", "not"),
}
_PRONOUN_IS = frozenset(("it's", "that's", "there's", "what's", "he's", "she's", "here's"))
_SUFFIXES: tuple[tuple[str, str], ...] = (
    ("'re", "are"), ("'ll", "will"), ("'ve", "have"), ("'m", "am"), ("'d", "would"),
)

_STRAIGHTEN = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})


def _fold(text: str) -> str:
    """Lowercase with straight quotes, character for character, so indices stay aligned."""
    straight = text.translate(_STRAIGHTEN)
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in straight)


# --------------------------------------------------------------------------------------------
# Analysis of one statement
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Item:
    """A span of the statement: a value (number, date, ...), a name or a plain word."""

    start: int
    end: int
    text: str  # as written
    kind: str  # word | name | value | version | date | time
    key: str  # what equality compares
    words: tuple[str, ...] = ()  # alignment tokens (contractions expanded)


@dataclass
class _Analysis:
    text: str
    folded: str
    items: list[_Item] = field(default_factory=list)
    claimed: list[tuple[int, int]] = field(default_factory=list)

    def free(self, start: int, end: int) -> bool:
        return all(end <= a or start >= b for a, b in self.claimed)

    def claim(self, item: _Item) -> None:
        self.items.append(item)
        self.claimed.append((item.start, item.end))

    def of_kind(self, *kinds: str) -> list[_Item]:
        return [i for i in self.items if i.kind in kinds]


def _analyse(text: str) -> _Analysis:
    analysis = _Analysis(text, _fold(text))
    for step in (_claim_locators, _claim_quoted, _claim_dates, _claim_times, _claim_versions,
                 _claim_numbers, _claim_words):
        step(analysis)
    analysis.items.sort(key=lambda i: i.start)
    return analysis


def _claim_locators(an: _Analysis) -> None:
    for pattern in _LOCATORS:
        for match in pattern.finditer(an.folded):
            start, end = match.span()
            while end > start and an.text[end - 1] in ".,;:!?":
                end -= 1
            if end - start > 1 and an.free(start, end):
                raw = an.text[start:end]
                key = re.sub(r"\\+", r"\\", raw).rstrip("/")
                an.claim(_Item(start, end, raw, "name", "path:" + key, ("path:" + key,)))


def _claim_quoted(an: _Analysis) -> None:
    for match in _QUOTED.finditer(an.folded):
        inner = next(g for g in match.groups() if g is not None)
        if an.free(*match.span()) and inner.strip():
            key = "quoted:" + " ".join(inner.split())
            an.claim(_Item(match.start(), match.end(), an.text[match.start():match.end()],
                           "name", key, (key,)))


def _date_key(kind: str, match: re.Match[str], an: _Analysis) -> str | None:
    """The canonical form of a date match, or None when it is not a date after all."""
    groups = match.groupdict()
    if kind == "relative":
        return " ".join(match.group().split())
    if kind == "weekday":
        return "weekday:" + groups["w"]
    if kind == "quarter":
        return f"{groups['y'] or '----'}-q{groups['q']}"
    if kind == "year":
        after = _SPACED_UNIT.match(an.folded, match.end())
        return None if after and after.group("unit") in UNITS else groups["y"]
    name = (groups.get("mon") or "").rstrip(".")
    month = int(groups["m"]) if groups.get("m") else MONTHS.get(name, 0)
    if not 1 <= month <= 12:
        return None
    if kind == "month" and not _plausible_bare_month(name, match, an):
        return None
    day = int(groups["d"]) if groups.get("d") else None
    if day is not None and not 1 <= day <= 31:
        return None
    year = groups.get("y") or "----"
    return f"{year}-{month:02d}" + (f"-{day:02d}" if day is not None else "")


def _plausible_bare_month(name: str, match: re.Match[str], an: _Analysis) -> bool:
    if name not in _AMBIGUOUS_MONTHS:
        return True
    if not an.text[match.start()].isupper():
        return False
    return name != "may" or bool(_MAY_PREPOSITIONS.search(an.folded[:match.start()]))


def _claim_dates(an: _Analysis) -> None:
    for kind, pattern in _DATES:
        for match in pattern.finditer(an.folded):
            if not an.free(*match.span()):
                continue
            key = _date_key(kind, match, an)
            if key is not None:
                an.claim(_Item(match.start(), match.end(), an.text[match.start():match.end()],
                               "date", key, ("#date",)))


def _claim_times(an: _Analysis) -> None:
    for pattern in _TIMES:
        for match in pattern.finditer(an.folded):
            if not an.free(*match.span()):
                continue
            groups = match.groupdict()
            if groups.get("word"):
                hour, minute = (12, 0) if groups["word"] == "noon" else (0, 0)
            else:
                hour, minute = int(groups["h"]), int(groups.get("m") or 0)
                meridiem = (groups.get("ap") or "").replace(".", "")
                if meridiem and not 1 <= hour <= 12:
                    continue
                hour = hour % 12 + (12 if meridiem == "pm" else 0) if meridiem else hour
            if hour < 24 and minute < 60:
                an.claim(_Item(match.start(), match.end(), an.text[match.start():match.end()],
                               "time", f"{hour:02d}:{minute:02d}", ("#time",)))


def _claim_versions(an: _Analysis) -> None:
    for match in _VERSION.finditer(an.folded):
        if an.free(*match.span()):
            an.claim(_Item(match.start(), match.end(), an.text[match.start():match.end()],
                           "version", match.group().lstrip("v"), ("#value",)))


def _quantity_key(value: Decimal, unit: str | None) -> str:
    dimension, factor = UNITS.get(unit, (unit, "1")) if unit else ("", "1")
    return f"{(value * Decimal(factor)).normalize()}|{dimension}"


def _unit_after(an: _Analysis, end: int) -> tuple[str | None, int]:
    """A spaced unit after a number ("40 EU", "2 hours"): its canonical alias and end."""
    match = _SPACED_UNIT.match(an.folded, end)
    if not match:
        return None, end
    unit = match.group("unit")
    raw = an.text[match.start("unit"):match.end("unit")]
    if unit in UNITS and unit not in _GLUED_ONLY_UNITS:
        return unit, match.end()
    if 2 <= len(raw) <= 4 and raw.isupper() and raw.isalpha():
        return unit, match.end()  # a currency or unit code such as EU, USD, GB
    return None, end


def _claim_numbers(an: _Analysis) -> None:
    for match in _NUMBER.finditer(an.folded):
        glued = match.group("glued")
        if glued and glued not in UNITS:
            continue  # "3am", "svc2": not a quantity (times are claimed already)
        if not an.free(*match.span()):
            continue
        try:
            value = Decimal(match.group("num").replace(",", ""))
        except InvalidOperation:
            continue
        unit, end = (glued, match.end()) if glued else _unit_after(an, match.end())
        unit = unit or match.group("cur")
        if not an.free(match.start(), end):
            end = match.end()
        an.claim(_Item(match.start(), end, an.text[match.start():end], "value",
                       _quantity_key(value, unit), ("#value",)))
    for match in _NUMBER_WORD.finditer(an.folded):
        if not an.free(*match.span()) or _one_as_pronoun(an, match):
            continue
        value = sum(NUMBER_WORDS[p] for p in match.group().split("-"))
        unit, end = _unit_after(an, match.end())
        if not an.free(match.start(), end):
            end, unit = match.end(), None
        an.claim(_Item(match.start(), end, an.text[match.start():end], "value",
                       _quantity_key(Decimal(value), unit), ("#value",)))


def _one_as_pronoun(an: _Analysis, match: re.Match[str]) -> bool:
    if match.group() != "one":
        return False
    before = an.folded[:match.start()].split()
    return bool(before) and before[-1] in _ONE_AS_PRONOUN_AFTER


def _alignment_words(word: str) -> tuple[str, ...]:
    """Contractions expanded so 'isn't' aligns with 'is not'; possessives dropped."""
    if word in _CONTRACTIONS:
        return _CONTRACTIONS[word]
    if word.endswith("n't"):
        return (word[:-3], "not")
    if word in _PRONOUN_IS:
        return (word[:-2], "is")
    for suffix, expansion in _SUFFIXES:
        if word.endswith(suffix):
            return (word[:-len(suffix)], expansion)
    return (word.removesuffix("'s"),)


def _claim_words(an: _Analysis) -> None:
    for match in _WORD.finditer(an.folded):
        start, end = match.span()
        if not an.free(start, end):
            continue
        raw = an.text[start:end]
        word = match.group()
        at_start = _SENTENCE_END.search(an.folded[:start]) is not None or not an.folded[
            :start].strip()
        if _is_name(raw, word, at_start):
            key = "name:" + re.sub(r"[-_]", "", word.removesuffix("'s"))
            an.claim(_Item(start, end, raw, "name", key, (key,)))
        else:
            an.claim(_Item(start, end, raw, "word", word, _alignment_words(word)))


def _is_name(raw: str, word: str, at_start: bool) -> bool:
    """Entity-shaped: an identifier, a mixed token, a capitalised name or a value word."""
    bare = word.removesuffix("'s")
    if bare in polarity.FUNCTION_WORDS or bare in polarity.SINGLE_OPERATORS or bare == "i":
        return False
    if bare in VALUE_WORDS:
        return True
    if re.search(r"[a-z0-9][-_./@#:+][a-z0-9]", bare):
        return True  # sample-svc, build.pipeline, UTF-16, dark-mode
    if re.search(r"[a-z]", bare) and re.search(r"\d", bare):
        return True
    letters = [c for c in raw if c.isalpha()]
    if len(letters) >= 2 and all(c.isupper() for c in letters):
        return True  # EU, API
    if any(c.isupper() for c in raw[1:]):
        return True  # MySQL, GitHub
    return raw[:1].isupper() and not at_start


# --------------------------------------------------------------------------------------------
# Values: numbers, versions, dates, times
# --------------------------------------------------------------------------------------------

_ZERO_KEYS = frozenset(("0|",))
_NO_WORDS = frozenset(("no", "none", "nothing", "nobody", "without"))


def _value_differences(a: _Analysis, b: _Analysis, kind: str) -> list[str]:
    """Unmatched values paired in order of appearance; leftovers are reported as one-sided."""
    items_a, items_b = a.of_kind(kind), b.of_kind(kind)
    only_a = _unmatched(items_a, items_b)
    only_b = _unmatched(items_b, items_a)
    # "found zero broken links" says what "found no broken links" says.
    only_a = [i for i in only_a if not _zero_against_no(i, b)]
    only_b = [i for i in only_b if not _zero_against_no(i, a)]
    label = kind
    out = [f"{label} {x.text} -> {y.text}" for x, y in zip(only_a, only_b, strict=False)]
    out += [f"{label} {x.text} only in a" for x in only_a[len(only_b):]]
    out += [f"{label} {y.text} only in b" for y in only_b[len(only_a):]]
    return out


def _unmatched(items: Sequence[_Item], others: Sequence[_Item]) -> list[_Item]:
    remaining = Counter(o.key for o in others)
    out = []
    for item in items:
        if remaining[item.key] > 0:
            remaining[item.key] -= 1
        else:
            out.append(item)
    return out


def _zero_against_no(item: _Item, other: _Analysis) -> bool:
    return item.key in _ZERO_KEYS and any(w.key in _NO_WORDS for w in other.of_kind("word"))


# --------------------------------------------------------------------------------------------
# Alignment
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Alignment:
    words_a: list[str]
    words_b: list[str]
    owner_a: list[_Item]  # the item each alignment word came from
    owner_b: list[_Item]
    opcodes: list[tuple[str, int, int, int, int]]
    aligned: bool  # enough of the two statements matches for positions to mean anything


def _flatten(an: _Analysis) -> tuple[list[str], list[_Item]]:
    words: list[str] = []
    owners: list[_Item] = []
    for item in an.items:
        for word in item.words:
            words.append(word)
            owners.append(item)
    return words, owners


def _align(a: _Analysis, b: _Analysis) -> _Alignment:
    words_a, owner_a = _flatten(a)
    words_b, owner_b = _flatten(b)
    matcher = difflib.SequenceMatcher(None, words_a, words_b, autojunk=False)
    matched = sum(block.size for block in matcher.get_matching_blocks())
    shorter = min(len(words_a), len(words_b))
    aligned = shorter > 0 and matched >= _MIN_ALIGNED * shorter
    return _Alignment(words_a, words_b, owner_a, owner_b, matcher.get_opcodes(), aligned)


def _replacements(al: _Alignment) -> list[tuple[list[_Item], list[_Item], int, int]]:
    """Short aligned replacements: (items of a, items of b, end index in a, end index in b)."""
    out = []
    for tag, i1, i2, j1, j2 in al.opcodes:
        if tag == "replace" and i2 - i1 <= _MAX_SWAP_TOKENS and j2 - j1 <= _MAX_SWAP_TOKENS:
            out.append((_unique(al.owner_a[i1:i2]), _unique(al.owner_b[j1:j2]), i2, j2))
    return out


def _unique(items: Iterable[_Item]) -> list[_Item]:
    return list(dict.fromkeys(items))


# --------------------------------------------------------------------------------------------
# Antonyms and negation
# --------------------------------------------------------------------------------------------

_ANTONYMS: dict[str, frozenset[str]] = {}
for _x, _y in ANTONYM_PAIRS:
    _ANTONYMS[_x] = _ANTONYMS.get(_x, frozenset()) | {_y}
    _ANTONYMS[_y] = _ANTONYMS.get(_y, frozenset()) | {_x}


@dataclass(frozen=True)
class _Swap:
    a: _Item
    b: _Item
    word_a: str
    word_b: str


def _antonym_words(an: _Analysis) -> list[tuple[str, _Item]]:
    """Antonym-table words of a statement, with two- and three-word hyphen joins ("read only")."""
    words = [i for i in an.items if i.kind in ("word", "name")]
    found: list[tuple[str, _Item]] = []
    for index, item in enumerate(words):
        word = _fold(item.text).removesuffix("'s")
        for n in (3, 2):
            joined = "-".join(_fold(w.text) for w in words[index:index + n])
            if index + n <= len(words) and joined in _ANTONYMS:
                found.append((joined, item))
        if word in _ANTONYMS:
            found.append((word, item))
    return found


def _are_antonyms(x: str, y: str) -> bool:
    if y in _ANTONYMS.get(x, frozenset()):
        return True
    return polarity.prefix_negated_base(y) == x or polarity.prefix_negated_base(x) == y


def _antonym_swaps(a: _Analysis, b: _Analysis, al: _Alignment) -> list[_Swap]:
    """Pairs of opposite words, one on each side, neither of which the other side also says."""
    in_a = {w for w, _ in _antonym_words(a)} | _plain_words(a)
    in_b = {w for w, _ in _antonym_words(b)} | _plain_words(b)
    aligned_pairs = {(x.start, y.start) for xs, ys, _, _ in _replacements(al)
                     for x in xs for y in ys}
    candidates_a = [(w, i) for w, i in _antonym_words(a) + _words_with_items(a) if w not in in_b]
    candidates_b = [(w, i) for w, i in _antonym_words(b) + _words_with_items(b) if w not in in_a]
    swaps: list[_Swap] = []
    used_a: set[int] = set()
    used_b: set[int] = set()
    for word_a, item_a in candidates_a:
        for word_b, item_b in candidates_b:
            if item_a.start in used_a or item_b.start in used_b or not _are_antonyms(word_a,
                                                                                    word_b):
                continue
            if ((word_a in ALIGNED_ONLY_ANTONYMS or word_b in ALIGNED_ONLY_ANTONYMS)
                    and (item_a.start, item_b.start) not in aligned_pairs):
                continue
            swaps.append(_Swap(item_a, item_b, word_a, word_b))
            used_a.add(item_a.start)
            used_b.add(item_b.start)
    return swaps


def _plain_words(an: _Analysis) -> set[str]:
    return {w for w, _ in _words_with_items(an)}


def _words_with_items(an: _Analysis) -> list[tuple[str, _Item]]:
    return [(_fold(i.text).removesuffix("'s"), i) for i in an.items if i.kind in ("word", "name")]


def _clause_index(clauses: Sequence[polarity.Clause], position: int) -> int | None:
    for index, clause in enumerate(clauses):
        if clause.start <= position < clause.end:
            return index
    return None


def _is_operator(clause: polarity.Clause, item: _Item) -> bool:
    return any(cue.start == item.start for cue in clause.cues)


def _antonyms_and_negation(a: _Analysis, b: _Analysis, al: _Alignment
                           ) -> tuple[list[str], list[str], set[_Item]]:
    """Antonym and negation differences, with "not green" / "red" cancelling each other."""
    clauses_a, clauses_b = polarity.split_clauses(a.text), polarity.split_clauses(b.text)
    parity_a = [c.parity for c in clauses_a]
    parity_b = [c.parity for c in clauses_b]
    antonyms: list[str] = []
    consumed: set[_Item] = set()
    for swap in _antonym_swaps(a, b, al):
        ia, ib = _clause_index(clauses_a, swap.a.start), _clause_index(clauses_b, swap.b.start)
        if ia is None or ib is None:
            continue
        consumed.update((swap.a, swap.b))
        # "always" / "never": the operator is the antonym, so it stops counting as a negation.
        if _is_operator(clauses_a[ia], swap.a) or _is_operator(clauses_b[ib], swap.b):
            parity_a[ia] ^= int(_is_operator(clauses_a[ia], swap.a))
            parity_b[ib] ^= int(_is_operator(clauses_b[ib], swap.b))
            antonyms.append(f"antonym {swap.word_a} -> {swap.word_b}")
        elif parity_a[ia] != parity_b[ib]:
            # "not green" against "red": the negation and the antonym cancel out.
            if parity_a[ia]:
                parity_a[ia] = 0
            else:
                parity_b[ib] = 0
        else:
            antonyms.append(f"antonym {swap.word_a} -> {swap.word_b}")
    kept_a = set(polarity.aligned_clauses(clauses_a, b.text))
    kept_b = set(polarity.aligned_clauses(clauses_b, a.text))
    negated_a = any(p for c, p in zip(clauses_a, parity_a, strict=True) if c in kept_a)
    negated_b = any(p for c, p in zip(clauses_b, parity_b, strict=True) if c in kept_b)
    negation: list[str] = []
    if negated_a != negated_b and not polarity.explained_by_lexical_negation(a.text, b.text):
        negation.append("negation: b negates a" if negated_b else "negation: a negates b")
    return negation, antonyms, consumed


# --------------------------------------------------------------------------------------------
# Named values
# --------------------------------------------------------------------------------------------

def _trim(items: Sequence[_Item]) -> list[_Item]:
    """A replaced span without the function words at its edges ('the canary' -> 'canary')."""
    kept = list(items)
    while kept and kept[0].kind == "word" and kept[0].key in polarity.FUNCTION_WORDS:
        kept.pop(0)
    while kept and kept[-1].kind == "word" and kept[-1].key in polarity.FUNCTION_WORDS:
        kept.pop()
    return kept


def _span_text(an: _Analysis, items: Sequence[_Item]) -> str:
    return " ".join(an.text[items[0].start:items[-1].end].split())


def _is_subject_position(al: _Alignment, end_a: int, end_b: int) -> bool:
    """The swap precedes an identical predicate: 'sample-svc | is green' / 'other-svc | is green'.

    An identity predicate ('X | is the database') does not count: there the swapped name is
    the value.
    """
    rest_a, rest_b = al.words_a[end_a:], al.words_b[end_b:]
    if not rest_a or rest_a != rest_b or rest_a[0] not in PREDICATE_MARKERS:
        return False
    return not (len(rest_a) > 1 and rest_a[1] in _DETERMINERS)


def _named_differences(a: _Analysis, b: _Analysis, al: _Alignment,
                       consumed: set[_Item]) -> list[str]:
    names_a = Counter(i.key for i in a.of_kind("name"))
    names_b = Counter(i.key for i in b.of_kind("name"))
    if names_a == names_b or not al.aligned:
        return []
    only_a, only_b = names_a - names_b, names_b - names_a
    out: list[str] = []
    for items_a, items_b, end_a, end_b in _replacements(al):
        span_a = _trim([i for i in items_a if i not in consumed])
        span_b = _trim([i for i in items_b if i not in consumed])
        new_a = [i for i in span_a if i.kind == "name" and only_a[i.key] > 0]
        new_b = [i for i in span_b if i.kind == "name" and only_b[i.key] > 0]
        if not span_a or not span_b or not (new_a or new_b):
            continue
        for item in new_a:
            only_a[item.key] -= 1
        for item in new_b:
            only_b[item.key] -= 1
        label = "subject" if _is_subject_position(al, end_a, end_b) else "named value"
        out.append(f"{label} {_span_text(a, span_a)} -> {_span_text(b, span_b)}")
    return out


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------

def differences(a: str, b: str) -> tuple[str, ...]:
    """What differs between two statements of the same kind; () for a restatement.

    Each entry names its category and the change from ``a`` to ``b``: ``value 40 -> 41``,
    ``date June -> July``, ``negation: b negates a``, ``antonym green -> red``,
    ``named value staging -> canary``, ``subject sample-svc -> other-svc``, or a one-sided
    ``value 41 only in b``.
    """
    if " ".join(a.split()) == " ".join(b.split()):
        return ()
    an_a, an_b = _analyse(a), _analyse(b)
    alignment = _align(an_a, an_b)
    out: list[str] = []
    for kind in ("value", "version", "date", "time"):
        out += _value_differences(an_a, an_b, kind)
    negation, antonyms, consumed = _antonyms_and_negation(an_a, an_b, alignment)
    out += negation + antonyms
    out += _named_differences(an_a, an_b, alignment, consumed)
    return tuple(out)


_ONE_SIDED = (" only in a", " only in b")
_SUBJECT = "subject "


def route_decision(found: Sequence[str]) -> bool:
    """True when the differences make the pair a real conflict candidate.

    A changed value, date, negation, antonym or named value is a conflict. Nothing differing
    (a restatement) is not; neither is detail present on one side only (complementary), nor
    a different subject: two facts about two things both stand.
    """
    if any(d.startswith(_SUBJECT) for d in found):
        return False
    return any(not d.endswith(_ONE_SIDED) for d in found)
