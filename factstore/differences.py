"""The difference detector: the second stage of the conflict-density check.

Cosine similarity alone ranks a changed value ("the limit is 40" / "the limit is 41") and a
negation above a reworded restatement, so no threshold separates them (issue 4, open
question 2). This module names, deterministically, what differs between two statements of
the same kind; an empty tuple means nothing material differs (a restatement).

Categories, in the order they are reported:

- **numbers** -- ``value 40 EU -> 41 EU``: quantities compared by value and unit, with unit
  aliases and conversions (``2 hours`` = ``120 min``, ``40%`` = ``40 percent``, ``two`` = ``2``,
  ``1,000`` = ``1000``, ``a minute`` = ``per minute``, ``monthly`` = ``per month``); dotted
  versions as ``version 1.2.3 -> 1.2.4``. Two values pair as a change only when they measure
  the same thing: same aligned position, or same dimension, or (bare numbers) the same words
  either side, up to inflection ("runs 5 replicas" / "is running 7 replicas") -- "runs
  Postgres 16" / "has 3 worker nodes" is two one-sided values;
- **dates and times** -- ``date 2025-06 -> 2025-07``: ISO dates, month names, weekdays,
  quarters, years, relative days, paired by grain; ``June 2025`` = ``2025-06``, ``2am`` =
  ``02:00``;
- **negation** -- ``negation: b negates a``: the polarity model of
  :mod:`factstore.writepath.polarity` over the whole statements (clauses, nesting, lexical
  negation as a fallback that only excuses), reported only when it is aligned: the negated
  stretch of one side denies what a positive stretch of the other asserts
  (:func:`factstore.writepath.polarity.aligned_negation`; the subjects' words count on
  neither side). "Audrey will let you know" / "... even when they're not with Audrey" is
  no negation of one another: an unaligned negation is a detail of one side, ``negation
  only in b``, which keeps the two apart and contradicts nothing;
- **antonyms** -- ``antonym green -> red``: a curated table, plus prefix negation
  (``available`` / ``unavailable``), plus WordNet's direct antonyms
  (:mod:`factstore.antonyms`: "sitting" / "standing") for two words in the same aligned
  position, opposite nouns ("man" / "woman": two subjects) aside. An antonym under a
  negation cancels it: "not green" and "red" agree, so neither is reported; "never skips"
  agrees with "always runs";
- **action** -- ``action sitting -> wading``: the verb after an auxiliary replaced in the
  aligned position by one of another kind ("is sitting near" / "is wading through", "is
  being played" / "is being put away"); synonyms and a kind and its kind ("slicing" /
  "cutting") are rewordings, and light verbs ("making a speech") name no action. Kinds come
  from the WordNet taxonomy, see :mod:`factstore.roles`;
- **subject** and **named values** -- ``named value staging -> canary``: a capitalised name,
  path, URL, identifier (``sample-svc``, ``build.pipeline``), quoted string or a word from
  :data:`VALUE_WORDS`, reported only when the statements are otherwise aligned (the names
  sit in the same replaced position of a token alignment); plain words count too when they
  are the only change and sit right after a preposition or determiner ("by digest" / "by
  tag"). When the replaced position is the subject ("sample-svc | is green" / "other-svc |
  is red", "the runner token | is stored at X" / "the runner config | is stored at Y"), it is
  reported as ``subject sample-svc -> other-svc``: two facts about two things. Plain words
  that name one thing at two grains ("the lady" / "the woman", "a car" / "a vehicle",
  "someone" / "the man") are neither a subject nor a value: a rewording. A negative
  quantifier in the subject ("Nobody is ...") is the negation, not another subject;
- **swapped** -- ``swapped tabs over spaces -> spaces over tabs``: the same two values with
  the choice reversed ("X over Y", "X rather than Y", "X instead of Y", "X, not Y");
- **roles** -- ``roles dog chases cat -> cat chases dog``: the same fillers in exchanged
  roles (subject and object, source and destination: "from Boston to Denver" / "from Denver
  to Boston"), a passive read as its active, symmetric relations ("between A and B", "A and
  B", "A is talking to B") exempt; see :func:`factstore.roles.role_swaps`. A role swap is
  about the same things, so it replaces the subject reading of the same words.

A value present on one side only is reported as ``value 41 only in b``: added detail, not a
change. :func:`route_decision` turns the list into a yes/no for the conflict pipeline.

Cost: about 2 ms a pair. The WordNet files are read lazily (their indexes, about 0.2 s,
and the antonym table, about 0.7 s, once a process, on the first pair that needs them);
nothing heavy is imported with this module, and no parser is used.

Limitations: common nouns outside the tables are values only as the single change after a
preposition ("prefers tea" / "prefers coffee" reads as a restatement); two words WordNet
does not relate read as a change even when they are synonyms in context ("strumming" /
"playing" a guitar, "seashore" / "beach"), and senses are not disambiguated, so any sense
relating two words makes them one kind; a complementary pair
that differs by a value under a different condition ("3 minutes warm" / "14 minutes cold")
reads as a change; "5m" is read as five minutes; US-style dates (06/07/2025) are not parsed;
subjects and predicates come from word tables, not a parser.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation

from factstore import roles
from factstore.writepath import polarity
from factstore.writepath.subjects import subject_of

__all__ = [
    "ANTONYM_PAIRS",
    "NUMBER_WORDS",
    "UNITS",
    "STATUS_CLASSES",
    "VALUE_WORDS",
    "differences",
    "route_decision",
    "status_classes",
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
    ("paused", "running"), ("paused", "active"), ("paused", "resumed"), ("frozen", "open"),
    ("frozen", "unfrozen"), ("suspended", "active"), ("start", "end"), ("beginning", "end"),
    ("idle", "busy"), ("empty", "full"),
    # everyday opposites of place, size, age and motion
    ("near", "far"), ("indoors", "outdoors"), ("indoors", "outside"), ("inside", "outdoors"),
    ("large", "small"), ("big", "small"), ("huge", "tiny"), ("huge", "small"), ("tall", "short"),
    ("long", "short"), ("young", "old"), ("new", "old"), ("wet", "dry"), ("hot", "cold"),
    ("warm", "cold"), ("fast", "slow"), ("quickly", "slowly"), ("loud", "quiet"),
    ("happy", "sad"), ("asleep", "awake"), ("sitting", "standing"), ("top", "bottom"),
    ("left", "right"), ("north", "south"), ("east", "west"), ("win", "lose"), ("won", "lost"),
    ("wins", "loses"), ("winning", "losing"), ("buy", "sell"), ("bought", "sold"),
    ("buys", "sells"), ("arrive", "depart"), ("arriving", "leaving"), ("entering", "leaving"),
    ("early", "late"), ("cheap", "expensive"), ("heavy", "light"), ("thick", "thin"),
    ("wide", "narrow"), ("clean", "dirty"), ("alive", "dead"), ("present", "missing"),
    ("include", "omit"), ("add", "remove"), ("added", "removed"), ("upstairs", "downstairs"),
    ("ascending", "descending"), ("upstream", "downstream"), ("inbound", "outbound"),
    ("ingress", "egress"), ("read", "write"), ("reads", "writes"), ("primary", "replica"),
    ("leader", "follower"), ("master", "replica"),
    # directions of motion (WordNet has no prepositions): "jumping into" / "jumping out of"
    ("into", "out"), ("onto", "off"), ("toward", "away"), ("towards", "away"),
)
#: Antonyms that are also everyday function words; they count only in the aligned position.
ALIGNED_ONLY_ANTONYMS: frozenset[str] = frozenset((
    "on", "off", "up", "down", "open", "first", "last", "more", "less", "before", "after",
    "light", "dark", "start", "stop", "pass", "fail", "min", "max", "above", "below", "end",
    "beginning", "full", "empty", "active", "near", "left", "right", "top", "new", "old",
    "long", "short", "light", "present", "read", "write", "reads", "writes", "early", "late",
    "add", "win", "lost", "won", "primary", "master", "leader", "follower", "replica",
    "into", "out", "onto", "toward", "towards", "away",
))

#: Status readings of a thing's condition, in classes of synonyms. Two words of different
#: classes are two different readings ("healthy" / "degraded", "paused" / "running"); two of
#: one class say the same ("green" / "healthy"). Pairs the antonym table knows are reported
#: there instead.
STATUS_CLASSES: tuple[frozenset[str], ...] = (
    frozenset(("green", "healthy", "ok", "operational", "nominal", "online", "passing",
               "available", "up")),
    frozenset(("yellow", "amber", "degraded", "flaky", "unstable", "slow", "warning",
               "lagging", "throttled")),
    frozenset(("red", "unhealthy", "down", "offline", "failing", "broken", "unavailable",
               "erroring", "crashing", "crashed", "failed")),
    frozenset(("paused", "suspended", "halted", "stopped", "disabled", "idle", "frozen")),
    frozenset(("running", "resumed", "started", "enabled", "serving")),
    frozenset(("deploying", "restarting", "draining", "starting", "provisioning",
               "rebuilding", "migrating", "maintenance", "pending", "queued", "blocked")),
)
_STATUS_CLASS: dict[str, int] = {w: i for i, c in enumerate(STATUS_CLASSES) for w in c}
#: Status words that are everyday words too; they count only in the aligned position.
_ALIGNED_ONLY_STATUS = frozenset(("up", "down", "ok", "slow", "started", "pending", "blocked",
                                  "serving", "idle", "frozen", "failed", "enabled",
                                  "disabled", "available", "queued"))

#: Lowercase words that name a value when they differ in the aligned position: deployment
#: targets, branches and cadences.
VALUE_WORDS: frozenset[str] = frozenset((
    "staging", "canary", "production", "prod", "dev", "development", "test", "testing", "qa",
    "preview", "sandbox", "main", "master", "trunk", "develop", "release", "beta", "alpha",
    "morning", "afternoon", "evening", "night", "overnight", "squash", "rebase",
))

#: Copulas, auxiliaries and modals: where a subject ends and a predicate begins.
PREDICATE_MARKERS: frozenset[str] = frozenset((
    "is", "are", "was", "were", "be", "been", "being", "am", "has", "have", "had", "does",
    "do", "did", "will", "would", "can", "could", "should", "shall", "may", "might", "must",
    "stays", "stay", "remains", "remain", "runs", "run", "lives", "live", "goes", "go",
))
#: Irregular past forms that open a predicate as well ("the job ran on ...").
PAST_FORMS: frozenset[str] = frozenset((
    "ran", "went", "took", "made", "got", "found", "built", "wrote", "broke", "chose", "held",
    "kept", "left", "lost", "met", "paid", "sent", "set", "shut", "spent", "stood", "won",
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
    # a sign counts only when it is not a hyphen inside a name ("svc-18" is no -18)
    r"(?<![\w.\-/\\:@#])(?P<sign>[-+](?=[$€£]?\d))?(?P<cur>[$€£])?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<glued>%|[$€£]|[a-z]+)?(?![\w\-/\\@])(?!\.\d)"
)
_SPACED_UNIT = re.compile(r"[ \t]+(?P<unit>%|[$€£](?!\w)|[a-z]+\b)")
_ONE_UNIT = re.compile(r"\b(?:a|an|per)\s+(?P<unit>second|minute|hour|day|week|month|year)\b")
#: Cadence words are rates: "monthly" is "per month", "nightly" is "per day".
CADENCES: dict[str, tuple[int, str]] = {
    "hourly": (1, "hour"), "daily": (1, "day"), "nightly": (1, "day"), "weekly": (1, "week"),
    "biweekly": (2, "weeks"), "fortnightly": (2, "weeks"), "monthly": (1, "month"),
    "quarterly": (3, "months"), "yearly": (1, "year"), "annually": (1, "year"),
    "annual": (1, "year"),
}
_CADENCE = re.compile(r"\b(?:" + "|".join(CADENCES) + r")\b")
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

# Straight quotes, and the Unicode minus as the ASCII one (so "−18" reads as minus 18).
_STRAIGHTEN = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"',
                             "\u2212": "-"})


def _fold(text: str) -> str:
    """Lowercase with straight quotes, character for character, so indices stay aligned."""
    straight = text.translate(_STRAIGHTEN)
    if straight.isascii():
        return straight.lower()  # the common case, and one character stays one
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
    """Claim spans kind by kind, most specific first, so each character is read once."""
    analysis = _Analysis(text, _fold(text))
    for step in (_claim_locators, _claim_quoted, _claim_dates, _claim_times, _claim_versions,
                 _claim_numbers, _claim_unit_phrases, _claim_words):
        step(analysis)
    analysis.items.sort(key=lambda i: i.start)
    return analysis


def _claim_locators(an: _Analysis) -> None:
    """URLs and paths first: their dots, digits and slashes are not numbers or dates."""
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
    """A quoted string is one name, whatever it contains."""
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
        return "relative:" + " ".join(match.group().split())
    if kind == "weekday":
        return "weekday:" + groups["w"]
    if kind == "quarter":
        return f"quarter:{groups['y'] or '----'}-q{groups['q']}"
    if kind == "year":
        after = _SPACED_UNIT.match(an.folded, match.end())
        return None if after and after.group("unit") in UNITS else "year:" + groups["y"]
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
    if day is None:
        return f"month:{year}-{month:02d}"
    return f"day:{year}-{month:02d}-{day:02d}"


def _plausible_bare_month(name: str, match: re.Match[str], an: _Analysis) -> bool:
    if name not in _AMBIGUOUS_MONTHS:
        return True
    if not an.text[match.start()].isupper():
        return False
    return name != "may" or bool(_MAY_PREPOSITIONS.search(an.folded[:match.start()]))


def _claim_dates(an: _Analysis) -> None:
    """Dates, most specific pattern first, keyed canonically ("June 2025" = "2025-06")."""
    for kind, pattern in _DATES:
        for match in pattern.finditer(an.folded):
            if not an.free(*match.span()):
                continue
            key = _date_key(kind, match, an)
            if key is not None:
                an.claim(_Item(match.start(), match.end(), an.text[match.start():match.end()],
                               "date", key, ("#date",)))


def _claim_times(an: _Analysis) -> None:
    """Clock times, keyed as 24-hour HH:MM so "2 p.m." equals "14:00"."""
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
                if meridiem:  # 12am is midnight, 12pm noon
                    hour = hour % 12 + (12 if meridiem == "pm" else 0)
            if hour < 24 and minute < 60:
                an.claim(_Item(match.start(), match.end(), an.text[match.start():match.end()],
                               "time", f"time:{hour:02d}:{minute:02d}", ("#time",)))


def _claim_versions(an: _Analysis) -> None:
    """Dotted versions (1.2.3) and v-numbers (v2); a plain decimal (3.6) stays a number."""
    for match in _VERSION.finditer(an.folded):
        if an.free(*match.span()):
            an.claim(_Item(match.start(), match.end(), an.text[match.start():match.end()],
                           "version", match.group().lstrip("v"), ("#value",)))


def _quantity_key(value: Decimal, unit: str | None) -> str:
    dimension, factor = UNITS.get(unit, (unit, "1")) if unit else ("", "1")
    return f"{(value * Decimal(factor)).normalize()}|{dimension}"


def _unit_after(an: _Analysis, end: int) -> tuple[str | None, int]:
    """A spaced unit after a number ("40 EU", "2 hours", "23 extra hours"): its alias and end."""
    match = _SPACED_UNIT.match(an.folded, end)
    if not match:
        return None, end
    unit = match.group("unit")
    if unit not in UNITS and unit not in ("per", "a", "an", "each", "every"):
        # one word may sit between a number and its unit: "23 extra hours", "5 more minutes"
        # (but "5 per month" is a rate of 5, not five months)
        second = _SPACED_UNIT.match(an.folded, match.end())
        if second and second.group("unit") in UNITS and second.group(
                "unit") not in _GLUED_ONLY_UNITS:
            return second.group("unit"), second.end()
    raw = an.text[match.start("unit"):match.end("unit")]
    if unit in UNITS and unit not in _GLUED_ONLY_UNITS:
        return unit, match.end()
    if 2 <= len(raw) <= 4 and raw.isupper() and raw.isalpha():
        return unit, match.end()  # a currency or unit code such as EU, USD, GB
    return None, end


def _claim_numbers(an: _Analysis) -> None:
    """Digits and number words, each with the unit glued to it or following it."""
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
        if match.group("sign") == "-":
            value = -value
        if match.group("cur"):  # "€5": the currency is the unit, whatever follows
            unit, end = match.group("cur"), match.end()
        else:
            unit, end = (glued, match.end()) if glued else _unit_after(an, match.end())
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


def _claim_unit_phrases(an: _Analysis) -> None:
    """'a week', 'an hour', 'per second', 'monthly': one (or a few) of a time unit, so 'older
    than a week' and 'older than a month' differ, and 'a minute' equals 'per minute'."""
    for match in _ONE_UNIT.finditer(an.folded):
        if an.free(*match.span()):
            an.claim(_Item(match.start(), match.end(), an.text[match.start():match.end()],
                           "value", _quantity_key(Decimal(1), match.group("unit")), ("#value",)))
    for match in _CADENCE.finditer(an.folded):
        if an.free(*match.span()):
            count, unit = CADENCES[match.group()]
            an.claim(_Item(match.start(), match.end(), an.text[match.start():match.end()],
                           "value", _quantity_key(Decimal(count), unit), ("#value",)))


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


def _at_sentence_start(folded: str, position: int) -> bool:
    """A capital here is the sentence's, not a name's."""
    before = folded[:position]
    return not before.strip() or _SENTENCE_END.search(before) is not None


def _claim_words(an: _Analysis) -> None:
    """Everything left is a word; entity-shaped words are names, compared by identity."""
    for match in _WORD.finditer(an.folded):
        start, end = match.span()
        if not an.free(start, end):
            continue
        raw = an.text[start:end]
        word = match.group()
        if _is_name(raw, word, _at_sentence_start(an.folded, start)):
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
# Differences
# --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Difference:
    """One difference: its category and what each side says (None: that side says nothing)."""

    label: str
    a: str | None
    b: str | None

    def flipped(self) -> _Difference:
        return _Difference(self.label, self.b, self.a)

    def render(self) -> str:
        if self.label == "negation":
            return "negation: b negates a" if self.b else "negation: a negates b"
        if self.label == _NEGATION_DETAIL:
            return "negation only in b" if self.b else "negation only in a"
        if self.a is None:
            return f"{self.label} {self.b} only in b"
        if self.b is None:
            return f"{self.label} {self.a} only in a"
        return f"{self.label} {self.a} -> {self.b}"


# --------------------------------------------------------------------------------------------
# Values: numbers, versions, dates, times
# --------------------------------------------------------------------------------------------

_VALUE_KINDS = frozenset(("value", "version", "date", "time"))
_CURRENCIES = frozenset(("usd", "eur", "gbp"))
_ZERO_KEYS = frozenset(("0|",))
_NO_WORDS = frozenset(("no", "none", "nothing", "nobody", "without"))


def _value_differences(a: _Analysis, b: _Analysis, kind: str) -> list[_Difference]:
    """Values that differ, paired when they measure the same thing; the rest one-sided.

    A value replaced in the same aligned position pairs first ("19 of 19" / "17 of 19");
    the others pair in order when they measure the same thing.
    """
    aligned = _aligned_value_pairs(a, b, kind)
    out = [_Difference(kind, x.text, y.text) for x, y in aligned]
    rest_a = [i for i in a.of_kind(kind) if all(i is not x for x, _ in aligned)]
    rest_b = [i for i in b.of_kind(kind) if all(i is not y for _, y in aligned)]
    # "found zero broken links" says what "found no broken links" says.
    only_a = [i for i in _unmatched(rest_a, rest_b) if not _zero_against_no(i, b)]
    only_b = [i for i in _unmatched(rest_b, rest_a) if not _zero_against_no(i, a)]
    for x in list(only_a):
        y = next((y for y in only_b if _comparable(x, a, y, b)), None)
        if y is None:
            out.append(_Difference(kind, x.text, None))
        else:
            only_b.remove(y)
            out.append(_Difference(kind, x.text, y.text))
    out += [_Difference(kind, None, y.text) for y in only_b]
    return out


def _value_sequence(an: _Analysis) -> tuple[list[str], list[_Item]]:
    """Alignment words in which each value stands as itself, so equal values align."""
    words: list[str] = []
    owners: list[_Item] = []
    for item in an.items:
        for word in (item.key,) if item.kind in _VALUE_KINDS else item.words:
            words.append(word)
            owners.append(item)
    return words, owners


def _aligned_value_pairs(a: _Analysis, b: _Analysis, kind: str) -> list[tuple[_Item, _Item]]:
    """Values replaced in the same aligned position ("19 of 19" / "17 of 19")."""
    words_a, owner_a = _value_sequence(a)
    words_b, owner_b = _value_sequence(b)
    pairs = []
    matcher = difflib.SequenceMatcher(None, words_a, words_b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        # the value and at most one word beside it: a longer replacement is a rewording
        if tag != "replace" or i2 - i1 > 2 or j2 - j1 > 2:
            continue
        xs = [i for i in _unique(owner_a[i1:i2]) if i.kind == kind]
        ys = [i for i in _unique(owner_b[j1:j2]) if i.kind == kind]
        if len(xs) == len(ys):
            pairs += [(x, y) for x, y in zip(xs, ys, strict=True) if _same_measure(x, y)]
    return pairs


def _same_measure(x: _Item, y: _Item) -> bool:
    """Same grain of date or time, or same dimension of quantity."""
    if x.kind in ("date", "time"):
        return x.key.split(":", 1)[0] == y.key.split(":", 1)[0]
    # a price in another currency is a changed price ("5 €" / "5 $")
    return _dimension(x) == _dimension(y) or {_dimension(x), _dimension(y)} <= _CURRENCIES


def _unmatched(items: Sequence[_Item], others: Sequence[_Item]) -> list[_Item]:
    remaining = Counter(o.key for o in others)
    out = []
    for item in items:
        if remaining[item.key] > 0:
            remaining[item.key] -= 1
        else:
            out.append(item)
    return out


# Words skipped when looking at what a number counts or follows ("is now 41", "about 40").
_VALUE_FILLERS = frozenset(("now", "currently", "about", "around", "roughly", "approximately",
                            "nearly", "almost", "just", "only", "still", "all", "the", "a", "an",
                            "some", "over", "under", "least", "most", "up"))


def _neighbour(an: _Analysis, item: _Item, step: int) -> str | None:
    """The first word before (step -1) or after (step 1) an item, fillers skipped."""
    index = an.items.index(item) + step
    while 0 <= index < len(an.items):
        other = an.items[index]
        if other.key not in _VALUE_FILLERS:
            return other.key if other.kind in ("word", "name") else "#" + other.kind
        index += step
    return None


def _dimension(item: _Item) -> str:
    return item.key.rsplit("|", 1)[-1] if item.kind == "value" else ""


def _comparable(x: _Item, a: _Analysis, y: _Item, b: _Analysis) -> bool:
    """Whether two values measure the same thing, so one is a change of the other.

    Dates and times of the same grain, quantities of the same dimension (minutes and hours,
    GB and MB), and bare numbers that follow and precede the same words ("the limit is 40"
    / "the limit is 41", but not "runs Postgres 16" / "has 3 worker nodes").
    """
    if x.kind in ("date", "time") or _dimension(x) or _dimension(y):
        return _same_measure(x, y)
    before_same = _same_neighbour(_neighbour(a, x, -1), _neighbour(b, y, -1))
    if x.kind == "version":
        return before_same
    return before_same and _same_neighbour(_neighbour(a, x, 1), _neighbour(b, y, 1))


def _same_neighbour(x: str | None, y: str | None) -> bool:
    """One word up to inflection: "runs 5 replicas" / "is running 7 replicas" count the same
    thing."""
    if x == y:
        return True
    if x is None or y is None or x.startswith("#") or y.startswith("#"):
        return False
    return x.isalpha() and y.isalpha() and polarity.same_word(x, y)


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


@dataclass(frozen=True)
class _Replacement:
    """A short aligned replacement: the items of each side and where it sits."""

    items_a: list[_Item]
    items_b: list[_Item]
    opcode: int  # index in the alignment's opcodes


def _replacements(al: _Alignment) -> list[_Replacement]:
    out = []
    for index, (tag, i1, i2, j1, j2) in enumerate(al.opcodes):
        if tag == "replace" and i2 - i1 <= _MAX_SWAP_TOKENS and j2 - j1 <= _MAX_SWAP_TOKENS:
            out.append(_Replacement(_unique(al.owner_a[i1:i2]), _unique(al.owner_b[j1:j2]),
                                    index))
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
    """An opposite pair: ``word_a`` (item ``a``) on side a, ``word_b`` (item ``b``) on side b."""

    a: _Item
    b: _Item
    word_a: str
    word_b: str


def _words_with_items(an: _Analysis) -> list[tuple[str, _Item]]:
    return [(_fold(i.text).removesuffix("'s"), i) for i in an.items if i.kind in ("word", "name")]


def _joined_words(an: _Analysis) -> list[tuple[str, _Item]]:
    """Two- and three-word runs joined by hyphens when the table knows them ("read only")."""
    words = _words_with_items(an)
    found = []
    for index, (_, item) in enumerate(words):
        for n in (3, 2):
            if index + n <= len(words):
                joined = "-".join(w for w, _ in words[index:index + n])
                if joined in _ANTONYMS:
                    found.append((joined, item))
    return found


def _are_antonyms(x: str, y: str) -> bool:
    """In the table, or one is the other prefix-negated ("available" / "unavailable")."""
    if y in _ANTONYMS.get(x, frozenset()):
        return True
    base_x, base_y = polarity.prefix_negated_base(x), polarity.prefix_negated_base(y)
    # inflection may differ between the sides: "does not like" / "dislikes"
    return ((base_y is not None and polarity.same_stem(base_y, x))
            or (base_x is not None and polarity.same_stem(base_x, y)))


def _wordnet_opposites(x: str, y: str) -> bool:
    """WordNet's direct antonyms ("sitting" / "standing", "cleaning" / "dirtying").

    Asked only of two plain words in the same aligned position: WordNet opposes everyday
    function words too ("in" / "out", "give" / "take"), which elsewhere in a sentence say
    nothing about each other. The table loads on first use (about a second, once a process).
    """
    if not (x.isalpha() and y.isalpha()) or x in polarity.FUNCTION_WORDS \
            or y in polarity.FUNCTION_WORDS:
        return False
    from factstore.antonyms import are_opposites  # lazy: the table costs a second to build
    return are_opposites(x, y) and not (_only_noun(x) or _only_noun(y))


def _only_noun(word: str) -> bool:
    """A word WordNet knows only as a noun. Opposite nouns ("man" / "woman", "winner" /
    "loser") name two things, each its own subject, not two readings of one."""
    return not (roles.is_word(word, "a") or roles.is_word(word, "v"))


def _antonym_swaps(a: _Analysis, b: _Analysis, al: _Alignment) -> list[_Swap]:
    """Pairs of opposite words, one on each side, neither of which the other side also says.

    Each word occurrence takes part in at most one swap; a word that is also a function word
    ('on', 'up', 'first') must sit in the aligned position of its opposite.
    """
    words_a = _joined_words(a) + _words_with_items(a)
    words_b = _joined_words(b) + _words_with_items(b)
    said_a, said_b = {w for w, _ in words_a}, {w for w, _ in words_b}
    aligned_pairs = {(x.start, y.start) for r in _replacements(al)
                     for x in r.items_a for y in r.items_b}
    swaps: list[_Swap] = []
    used_a: set[int] = set()
    used_b: set[int] = set()
    for word_a, item_a in words_a:
        for word_b, item_b in words_b:
            if (word_a in said_b or word_b in said_a or item_a.start in used_a
                    or item_b.start in used_b):
                continue
            aligned = (item_a.start, item_b.start) in aligned_pairs
            if _are_antonyms(word_a, word_b):
                if ((word_a in ALIGNED_ONLY_ANTONYMS or word_b in ALIGNED_ONLY_ANTONYMS)
                        and not aligned):
                    continue
            elif not (aligned and _wordnet_opposites(word_a, word_b)):
                continue
            swaps.append(_Swap(item_a, item_b, word_a, word_b))
            used_a.add(item_a.start)
            used_b.add(item_b.start)
    return swaps


def _clause_index(clauses: Sequence[polarity.Clause], position: int) -> int | None:
    for index, clause in enumerate(clauses):
        if clause.start <= position < clause.end:
            return index
    return None


def _is_operator(clause: polarity.Clause, item: _Item) -> bool:
    return any(cue.start == item.start for cue in clause.cues)


@dataclass
class _Polarities:
    """Each side's clauses, and the operator positions antonym swaps add or take away."""

    clauses_a: tuple[polarity.Clause, ...]
    clauses_b: tuple[polarity.Clause, ...]
    extra_a: list[int] = field(default_factory=list)
    extra_b: list[int] = field(default_factory=list)
    removed_a: set[int] = field(default_factory=set)
    removed_b: set[int] = field(default_factory=set)

    @classmethod
    def of(cls, a: str, b: str) -> _Polarities:
        return cls(polarity.split_clauses(a), polarity.split_clauses(b))

    def negated_at(self, side: str, clause: polarity.Clause, position: int) -> bool:
        if side == "a":
            return clause.negated_at(position, self.extra_a, self.removed_a)
        return clause.negated_at(position, self.extra_b, self.removed_b)

    def negated(self, side: str) -> bool:
        if side == "a":
            return any(c.negated(self.extra_a, self.removed_a) for c in self.clauses_a)
        return any(c.negated(self.extra_b, self.removed_b) for c in self.clauses_b)


def _antonyms(swaps: Sequence[_Swap], pol: _Polarities, a: str, b: str
              ) -> tuple[list[_Difference], set[_Item]]:
    """Antonym differences; "not green" against "red" cancels instead (and uses up the "not")."""
    antonyms: list[_Difference] = []
    consumed: set[_Item] = set()
    for swap in swaps:
        ia = _clause_index(pol.clauses_a, swap.a.start)
        ib = _clause_index(pol.clauses_b, swap.b.start)
        if ia is None or ib is None:
            continue
        clause_a, clause_b = pol.clauses_a[ia], pol.clauses_b[ib]
        consumed.update((swap.a, swap.b))
        op_a, op_b = _is_operator(clause_a, swap.a), _is_operator(clause_b, swap.b)
        if op_a or op_b:
            # "always" / "never": the operator is the antonym, so it stops counting as negation.
            (pol.removed_a if op_a else pol.removed_b).add(swap.a.start if op_a else swap.b.start)
            # "never skips" is "always runs": a litotes agrees with the opposite word.
            clause, other = (clause_a, b) if op_a else (clause_b, a)
            if not polarity.lexical_negatives(clause, other):
                antonyms.append(_Difference("antonym", swap.word_a, swap.word_b))
        elif pol.negated_at("a", clause_a, swap.a.start) != pol.negated_at("b", clause_b,
                                                                          swap.b.start):
            # "not green" against "red": read "red" as "not green", so the two agree.
            if pol.negated_at("a", clause_a, swap.a.start):
                pol.extra_b.append(swap.b.start)
            else:
                pol.extra_a.append(swap.a.start)
        else:
            antonyms.append(_Difference("antonym", swap.word_a, swap.word_b))
    return antonyms, consumed


def _negation(pol: _Polarities, a: str, b: str) -> list[_Difference]:
    """A negation difference between the two statements (after antonym swaps), counted only
    when it is aligned: the negated stretch of one side denies what a positive stretch of
    the other asserts (the same predicate, overlapping arguments;
    :func:`factstore.writepath.polarity.aligned_negation`). "Audrey will let you know" is
    not negated by "... even when they're not with Audrey": the negation is elsewhere."""
    negated_a, negated_b = pol.negated("a"), pol.negated("b")
    if negated_a == negated_b or polarity.explained_by_lexical_negation(a, b):
        return []
    ignore = _subject_words(a) | _subject_words(b)
    if negated_a:
        aligned = polarity.aligned_negation(a, b, extra=pol.extra_a, removed=pol.removed_a,
                                            other_extra=pol.extra_b,
                                            other_removed=pol.removed_b, ignore=ignore)
    else:
        aligned = polarity.aligned_negation(b, a, extra=pol.extra_b, removed=pol.removed_b,
                                            other_extra=pol.extra_a,
                                            other_removed=pol.removed_a, ignore=ignore)
    # Unaligned, the negation is a detail of one side ("negation only in b"): it keeps two
    # statements that differ by it apart, and contradicts nothing.
    return [_Difference("negation" if aligned else _NEGATION_DETAIL,
                        "negated" if negated_a else None, "negated" if negated_b else None)]


#: A negation one side holds about something the other does not say: a one-sided detail.
_NEGATION_DETAIL = "negation-detail"


def _subject_words(statement: str) -> frozenset[str]:
    """The words of the statement's subject ("Sam", "the backup job"), lower case; a
    negation's focus among them names what the statement is about, not what it denies."""
    subject = (subject_of(statement) or "").split(" (", 1)[0]
    words = [w.removesuffix("'s") for w in re.findall(r"[\w'-]+", _fold(subject))
             if w not in _DETERMINERS]
    # A subject is a short noun phrase; a longer reading ("Run the drill against a copy",
    # an imperative read to its first marker) holds the predicate itself, so it is no subject.
    if not words or len(words) > _SUBJECT_WORDS or any(w in _OBJECT_SLOT for w in words):
        return frozenset()
    return frozenset(words)


#: Longest subject (in words, determiners aside) whose words a negation's focus skips.
_SUBJECT_WORDS = 3


# --------------------------------------------------------------------------------------------
# Status readings
# --------------------------------------------------------------------------------------------

def status_classes(statement: str) -> frozenset[int]:
    """The status classes a statement reads ("svc-7 is green" -> the healthy class), by
    index into :data:`STATUS_CLASSES`; everyday-word statuses ("up", "ok") are left out."""
    return frozenset(_STATUS_CLASS[w] for w, _ in _words_with_items(_analyse(statement))
                     if w in _STATUS_CLASS and w not in _ALIGNED_ONLY_STATUS)


def _status_changes(a: _Analysis, b: _Analysis, al: _Alignment,
                    consumed: set[_Item]) -> list[_Difference]:
    """'svc-7 is healthy' / 'svc-7 is paused': one status reading replaced by another class.

    Each side's status words the other side does not say (nor a synonym of); a change is
    reported when each side has exactly one such class. Words the antonym table already
    paired are left to it (they are ``consumed``). Uses up the items it reports, so the
    named-value pass does not report them again.
    """
    aligned_pairs = {(x.start, y.start) for r in _replacements(al)
                     for x in r.items_a for y in r.items_b}

    def readings(an: _Analysis) -> list[tuple[str, _Item]]:
        return [(w, i) for w, i in _words_with_items(an)
                if w in _STATUS_CLASS and i not in consumed]

    ours, theirs = readings(a), readings(b)
    classes_a = {_STATUS_CLASS[w] for w, _ in ours}
    classes_b = {_STATUS_CLASS[w] for w, _ in theirs}
    only_a = [(w, i) for w, i in ours if _STATUS_CLASS[w] not in classes_b]
    only_b = [(w, i) for w, i in theirs if _STATUS_CLASS[w] not in classes_a]
    if len({_STATUS_CLASS[w] for w, _ in only_a}) != 1 or \
            len({_STATUS_CLASS[w] for w, _ in only_b}) != 1:
        return []
    (word_a, item_a), (word_b, item_b) = only_a[0], only_b[0]
    if ((word_a in _ALIGNED_ONLY_STATUS or word_b in _ALIGNED_ONLY_STATUS)
            and (item_a.start, item_b.start) not in aligned_pairs):
        return []
    consumed.update((item_a, item_b))
    return [_Difference("status", item_a.text, item_b.text)]


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


def _bare(item: _Item) -> str:
    """A name or word without case, hyphens or its category prefix: 'name:samplesvc' ->
    'samplesvc', 'Vim' -> 'vim'."""
    key = item.key.removeprefix("name:") if item.kind == "name" else item.key
    return re.sub(r"[-_]", "", key)


def _new_names(an: _Analysis, other: _Analysis) -> Counter[str]:
    """Names of one side the other side does not say, as a name or as a plain word (a name
    that opens a sentence is spelled like a word: "Vim is ..." against "... prefers Vim")."""
    names = Counter(i.key for i in an.of_kind("name"))
    names.subtract(i.key for i in other.of_kind("name"))
    words = {_bare(i) for i in other.of_kind("word")}
    by_key = {i.key: i for i in an.of_kind("name")}
    return Counter({key: n for key, n in names.items()
                    if n > 0 and _bare(by_key[key]) not in words})


# Adverbs that may sit between a copula and an identity predicate ("is currently the ...").
_PREDICATE_ADVERBS = frozenset(("currently", "now", "still", "also", "right", "always",
                                "usually", "again", "just", "really", "actually", "presently"))


def _is_subject_position(al: _Alignment, replacement: _Replacement) -> bool:
    """The swap is in the subject: 'sample-svc | is green' / 'other-svc | is red', 'the runner
    token | is stored at ...' / 'the runner config | is stored at ...'.

    No predicate word comes before it on either side, and the aligned words after it reach
    one. An identity predicate ('X | is the database') does not count: there the swapped
    name is the value.
    """
    _, i1, _, j1, _ = al.opcodes[replacement.opcode]
    if any(_opens_predicate(w) for w in al.words_a[:i1] + al.words_b[:j1]):
        return False
    following = al.opcodes[replacement.opcode + 1:replacement.opcode + 2]
    if not following or following[0][0] != "equal":
        return False
    _, k1, k2, l1, _ = following[0]
    marker = next((n for n, w in enumerate(al.words_a[k1:k2]) if _opens_predicate(w)), None)
    if marker is None:
        return False
    return not (_identity_after(al.words_a, k1 + marker + 1)
                or _identity_after(al.words_b, l1 + marker + 1))


def _opens_predicate(word: str) -> bool:
    """A copula, auxiliary, modal, common verb or past form ("-ed", "ran")."""
    return (word in PREDICATE_MARKERS or word in PAST_FORMS
            or (len(word) > 4 and word.endswith("ed") and word.isalpha()))


def _identity_after(words: Sequence[str], index: int) -> bool:
    while index < len(words) and words[index] in _PREDICATE_ADVERBS:
        index += 1
    return index < len(words) and words[index] in _DETERMINERS


# Words after which a noun phrase -- a value -- follows ("by digest", "from the vault").
_OBJECT_SLOT = frozenset(("by", "from", "in", "on", "at", "to", "into", "per", "via",
                          "through", "with", "for", "of", "under", "against", "the", "a", "an",
                          "our", "their", "its", "this", "that", "my", "every", "each"))


def _object_swap(al: _Alignment, replacement: _Replacement, span_a: Sequence[_Item],
                 span_b: Sequence[_Item]) -> bool:
    """Plain words replaced in an object slot of otherwise identical statements.

    'by digest' / 'by tag', 'from the vault' / 'from environment files': the only change in
    the alignment, at most two words a side, right after a preposition or determiner (so a
    verb swap such as 'prefers' / 'likes' is a rewording, not a value).
    """
    changed = [op for op in al.opcodes if op[0] != "equal" and not _only_determiners(al, op)]
    _, i1, _, j1, _ = al.opcodes[replacement.opcode]
    if len(changed) != 1 or i1 == 0 or j1 == 0:
        return False
    if al.words_a[i1 - 1] not in _OBJECT_SLOT or al.words_b[j1 - 1] not in _OBJECT_SLOT:
        return False
    if not (1 <= len(span_a) <= 2 and 1 <= len(span_b) <= 2):
        return False
    return not any(polarity.same_stem(_bare(x), _bare(y)) for x in span_a for y in span_b)


def _only_determiners(al: _Alignment, op: tuple[str, int, int, int, int]) -> bool:
    """'a' against 'the': a change of article, not of content."""
    _, i1, i2, j1, j2 = op
    return all(w in _ARTICLES for w in al.words_a[i1:i2] + al.words_b[j1:j2])


#: Articles (and "some"): "a man" / "the man" / "some man" change no content.
_ARTICLES = frozenset(("a", "an", "the", "some"))


def _named_differences(a: _Analysis, b: _Analysis, al: _Alignment,
                       consumed: set[_Item]) -> list[_Difference]:
    """Names swapped in the same aligned position (or in the subject position)."""
    only_a, only_b = _new_names(a, b), _new_names(b, a)
    out: list[_Difference] = []
    for replacement in _replacements(al):
        span_a = _trim([i for i in replacement.items_a if i not in consumed])
        span_b = _trim([i for i in replacement.items_b if i not in consumed])
        if not span_a or not span_b or _negative(span_a) or _negative(span_b):
            continue  # "Nobody | is ..." / "A man | is ...": the negation says it
        if _same_referent(a, b, span_a, span_b):
            continue  # "the lady" / "the woman", "a car" / "a vehicle": one thing, reworded
        new_a = [i for i in span_a if i.kind == "name" and only_a[i.key] > 0]
        new_b = [i for i in span_b if i.kind == "name" and only_b[i.key] > 0]
        # A name against a name, or a name against a short phrase ("staging" / "the canary");
        # a name against a whole rewording ("handles" / "pinned to release") is no swap.
        named = (new_a and new_b) or ((new_a or new_b) and len(span_a) <= 2 and len(span_b) <= 2)
        if _is_subject_position(al, replacement) and (named or out or _other_changes(al)):
            label = "subject"
        elif named and al.aligned:
            label = "named value"
        elif _object_swap(al, replacement, span_a, span_b):
            label = "named value"
        else:
            continue
        for item in new_a:
            only_a[item.key] -= 1
        for item in new_b:
            only_b[item.key] -= 1
        out.append(_Difference(label, _span_text(a, span_a), _span_text(b, span_b)))
    return out


def _negative(span: Sequence[_Item]) -> bool:
    """A span that holds a negative quantifier ("Nobody", "No snake", "no one")."""
    return any(i.key in polarity.QUANTIFIER_OPERATORS for i in span)


def _same_referent(a: _Analysis, b: _Analysis, span_a: Sequence[_Item],
                   span_b: Sequence[_Item]) -> bool:
    """Two plain-word phrases that name one thing at two grains ("lady" / "woman", "black
    dog" / "dog", "someone" / "the man"): a rewording, not two subjects nor a new value.
    Names never are: "sample-svc" and "other-svc" are two things."""
    if not (all(_word_like(a, i) for i in span_a) and all(_word_like(b, i) for i in span_b)):
        return False
    return roles.same_referent(_plain_words(span_a), _plain_words(span_b))


def _word_like(an: _Analysis, item: _Item) -> bool:
    """A plain word, or a capitalised one read as a name only because it opens the statement
    ("Women are ..." against "Several women are ..."); never a value word ("staging")."""
    if item.kind == "word":
        return True
    return (item.kind == "name" and item.text.isalpha() and item.text[1:].islower()
            and _bare(item) not in VALUE_WORDS and _at_sentence_start(an.folded, item.start))


def _plain_words(span: Sequence[_Item]) -> list[str]:
    return [_bare(i).removesuffix("'s") for i in span if _bare(i) not in _DETERMINERS]


def _other_changes(al: _Alignment) -> bool:
    """Whether the alignment changes more than one place (a plain-word subject swap matters
    only next to another change: 'the runner token / config is stored at X / Y')."""
    return sum(op[0] != "equal" for op in al.opcodes) > 1


# --------------------------------------------------------------------------------------------
# Changed actions
# --------------------------------------------------------------------------------------------

_BE_FORMS = frozenset(("is", "are", "was", "were", "be", "been", "being", "am"))
_MODALS = frozenset(("do", "does", "did", "will", "would", "can", "could", "should", "shall",
                     "may", "might", "must"))
# A changed predicate longer than this (tokens a side) is a rewording of the whole clause.
_MAX_ACTION_TOKENS = 4
#: Adverbial particles that make a phrasal verb ("put away", "pick up"); a preposition
#: ("sitting on", "looking at") introduces an object instead.
_PARTICLES = frozenset(("away", "down", "up", "out", "off", "back"))
#: Light verbs: their object carries the action ("making a speech" is "speaking", "doing a
#: dance" is "dancing", "using a machine for sewing" is "sewing"), so they name none.
LIGHT_VERBS: frozenset[str] = frozenset((
    "do", "make", "have", "take", "get", "give", "use", "put", "go", "keep", "let", "set",
    "come", "try", "start", "begin", "continue", "seem", "become",
))


def _action_changes(a: _Analysis, b: _Analysis, al: _Alignment,
                    consumed: set[_Item]) -> list[_Difference]:
    """'the boy is sitting near the ocean' / 'the boy is wading through the ocean': one
    action replaced by another of a different kind.

    The verbs open the same aligned slot after an auxiliary ("is sitting", "must run",
    "is being played"), WordNet knows both as verbs, and neither is a kind of the other nor
    a synonym ("slicing" / "cutting", "talking" / "speaking" are rewordings). Verbs the
    antonym or status passes already paired are left to them.
    """
    if not al.aligned:
        return []
    out = []
    for tag, i1, i2, j1, j2 in al.opcodes:
        if (tag != "replace" or i1 == 0 or j1 == 0 or i2 - i1 > _MAX_ACTION_TOKENS
                or j2 - j1 > _MAX_ACTION_TOKENS):
            continue
        verb_a = _action(al.words_a, al.owner_a, i1, consumed)
        verb_b = _action(al.words_b, al.owner_b, j1, consumed)
        if verb_a is None or verb_b is None:
            continue
        (item_a, lemma_a), (item_b, lemma_b) = verb_a, verb_b
        if not polarity.same_stem(item_a.key, item_b.key) and not roles.same_kind(
                lemma_a, lemma_b, "v"):
            consumed.update((item_a, item_b))
            out.append(_Difference("action", item_a.text, item_b.text))
    return out


def _action(words: Sequence[str], owners: Sequence[_Item], index: int,
            consumed: set[_Item]) -> tuple[_Item, str] | None:
    """The verb at ``index`` and the lemma to compare it by, when it stands in a verb's
    place after an auxiliary: '(is) sitting', '(is being) played', '(must) run'. A bare
    form after a copula is an adjective or a noun ('is open'). A particle joins its verb
    when WordNet knows the pair ('putting away' is 'put_away', no light verb)."""
    item, auxiliary = owners[index], words[index - 1]
    if (item in consumed or item.kind != "word" or item.key in polarity.FUNCTION_WORDS
            or (auxiliary not in _BE_FORMS and auxiliary not in _MODALS)):
        return None
    forms = roles.base_forms(item.key, "v")
    bare = item.key in forms and not item.key.endswith(("ing", "ed"))
    # after "being" / "been" a bare form is a participle ("is being put away")
    if not forms or (bare and auxiliary in _BE_FORMS and auxiliary not in ("being", "been")):
        return None
    following = words[index + 1] if index + 1 < len(words) else ""
    phrasal = [f"{f}_{following}" for f in forms
               if following in _PARTICLES and roles.is_word(f"{f}_{following}", "v")]
    if phrasal:
        return item, phrasal[0]
    if not LIGHT_VERBS.isdisjoint(forms):
        return None
    return item, item.key


# --------------------------------------------------------------------------------------------
# Swapped values
# --------------------------------------------------------------------------------------------

# "X over Y", "X rather than Y", "X instead of Y", "X, not Y": X is chosen over Y.
_PREFERENCE_WORDS = frozenset(("over", "than", "instead", "not"))


def _preferences(an: _Analysis) -> list[tuple[_Item, list[_Item]]]:
    """(chosen, rejected) pairs: the content word before a preference word, and the content
    words after it."""
    words = [i for i in an.items if i.kind in ("word", "name")]
    found = []
    for index, item in enumerate(words):
        if item.key not in _PREFERENCE_WORDS or index == 0:
            continue
        if item.key == "than" and words[index - 1].key != "rather":
            continue  # "more than 40" is a quantity
        if item.key == "not" and "," not in an.text[words[index - 1].end:item.start]:
            continue  # only the contrastive ", not"
        before = index - 2 if item.key == "than" else index - 1
        rest = words[index + 1:]
        if item.key == "instead" and rest and rest[0].key == "of":
            rest = rest[1:]
        while rest and rest[0].key in polarity.FUNCTION_WORDS:
            rest = rest[1:]
        rejected = []
        for other in rest[:3]:
            if other.key in polarity.FUNCTION_WORDS:
                break
            rejected.append(other)
        if before >= 0 and rejected and words[before].key not in polarity.FUNCTION_WORDS:
            found.append((words[before], rejected))
    return found


def _swapped(a: _Analysis, b: _Analysis) -> list[_Difference]:
    """'tabs over spaces' / 'spaces over tabs': the same two values, the choice reversed."""
    out = []
    for chosen_a, rejected_a in _preferences(a):
        for chosen_b, rejected_b in _preferences(b):
            if (_bare(chosen_a) != _bare(chosen_b)
                    and _bare(chosen_a) in {_bare(i) for i in rejected_b}
                    and _bare(chosen_b) in {_bare(i) for i in rejected_a}):
                out.append(_Difference(
                    "swapped", f"{chosen_a.text} over {_span_text(a, rejected_a)}",
                    f"{chosen_b.text} over {_span_text(b, rejected_b)}"))
    return out


# Sentence openers that are never names: quantifiers, conjunctions, prepositions, adverbs.
_NOT_NAME_OPENERS = (polarity.FUNCTION_WORDS | polarity.SINGLE_OPERATORS | _OBJECT_SLOT
                     | frozenset(("no", "each", "every", "most", "many", "both", "either",
                                  "always", "after", "before", "once", "when", "while", "since",
                                  "until", "during", "please", "never", "right", "as")))


def _promote_initials(a: _Analysis, b: _Analysis) -> None:
    """Two statements opening with different capitalised words open with names ("Dana is
    on call" / "Ivo is on call"), though a sentence's first capital is not a name alone."""
    first_a = next((i for i in a.items if i.kind in ("word", "name")), None)
    first_b = next((i for i in b.items if i.kind in ("word", "name")), None)
    if first_a is None or first_b is None or first_a.key == first_b.key:
        return
    candidates = [(an, item) for an, item in ((a, first_a), (b, first_b))
                  if item.kind == "name" or (item.text[:1].isupper()
                                             and item.key not in _NOT_NAME_OPENERS)]
    if len(candidates) < 2:
        return
    for an, item in candidates:
        if item.kind == "word":
            key = "name:" + re.sub(r"[-_]", "", item.key.removesuffix("'s"))
            an.items[an.items.index(item)] = dataclasses.replace(item, kind="name", key=key,
                                                                  words=(key,))


# --------------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------------

def differences(a: str, b: str) -> tuple[str, ...]:
    """What differs between two statements of the same kind; () for a restatement.

    Each entry names its category and the change from ``a`` to ``b``: ``value 40 -> 41``,
    ``date June -> July``, ``negation: b negates a``, ``antonym green -> red``,
    ``action sitting -> wading``, ``named value staging -> canary``, ``subject sample-svc ->
    other-svc``, ``roles dog chases cat -> cat chases dog``, or a one-sided ``value 41 only
    in b``.
    """
    if " ".join(a.split()) == " ".join(b.split()):
        return ()
    # Token alignment is not symmetric in its tie-breaking; computing in one canonical order
    # and flipping makes differences(b, a) the mirror image of differences(a, b).
    found = [d.flipped() for d in _differences(b, a)] if b < a else _differences(a, b)
    return tuple(d.render() for d in sorted(found, key=_report_order))


_CATEGORY_ORDER = ("value", "version", "date", "time", "negation", "negation-detail",
                   "antonym", "status", "action", "subject", "named value", "swapped", "roles")


def _report_order(d: _Difference) -> tuple[int, int]:
    """Categories in a fixed order; within one, changes before one-sided values (a, then b)."""
    sided = 0 if d.label == "negation" or (d.a is not None and d.b is not None) else (
        1 if d.b is None else 2)
    return _CATEGORY_ORDER.index(d.label), sided


def _differences(a: str, b: str) -> list[_Difference]:
    an_a, an_b = _analyse(a), _analyse(b)
    _promote_initials(an_a, an_b)
    alignment = _align(an_a, an_b)
    out: list[_Difference] = []
    for kind in ("value", "version", "date", "time"):
        out += _value_differences(an_a, an_b, kind)
    polarities = _Polarities.of(a, b)
    antonyms, consumed = _antonyms(_antonym_swaps(an_a, an_b, alignment), polarities, a, b)
    out += _negation(polarities, a, b) + antonyms
    out += _status_changes(an_a, an_b, alignment, consumed)
    out += _action_changes(an_a, an_b, alignment, consumed)
    out += _named_differences(an_a, an_b, alignment, consumed)
    swapped = _swapped(an_a, an_b)
    return _with_roles(out + swapped, a, b) if not swapped else out + swapped


def _with_roles(found: list[_Difference], a: str, b: str) -> list[_Difference]:
    """Add a role swap ("the dog chases the cat" / "the cat chases the dog"), which replaces
    the subject readings and the named-value readings of the same words: position by
    position they look like a new subject, but the same fillers only traded places, so
    the statements are about the same things."""
    swaps = roles.role_swaps(a, b)
    if not swaps:
        # "Boston to Denver flights" / "flights to Denver from Boston": a route reordered
        # moves what opens the statement, not what it is about
        if any(d.label == "subject" for d in found) and roles.same_route(a, b):
            return [d for d in found if d.label != "subject"]
        return found
    words = {w for s in swaps for w in (*s.a.split(), *s.b.split())}

    def explained(d: _Difference) -> bool:
        if d.label == "subject":
            return True
        said = f"{d.a or ''} {d.b or ''}".lower().split()
        return d.label == "named value" and all(
            any(polarity.same_stem(w.strip(".,'"), x) for x in words) for w in said
            if w not in _DETERMINERS)

    return [d for d in found if not explained(d)] + [
        _Difference("roles", s.a, s.b) for s in swaps]


_ONE_SIDED = (" only in a", " only in b")
_SUBJECT = "subject "


def route_decision(found: Sequence[str]) -> bool:
    """True when the differences make the pair a real conflict candidate.

    A changed value, date, negation, antonym, action, named value or swapped role is a
    conflict. Nothing differing (a restatement) is not; neither is detail present on one
    side only (complementary), nor a different subject: two facts about two things both
    stand.
    """
    if any(d.startswith(_SUBJECT) for d in found):
        return False
    return any(not d.endswith(_ONE_SIDED) for d in found)
