"""A compiled value as format v1 writes it: the value, its unit apart, and the attribute key.

Seed 002 §4: "Units go in unit, not in value", and an attribute is "a short stable
snake_case key". Pure.
"""

from __future__ import annotations

import re

from factstore.compiler.vocabulary import ALIAS_KEYS, BY_KEY, EVENT_WORDS, class_of

__all__ = ["attribute_key", "refusal", "split_unit", "clean_value", "unit_attribute",
           "value_problem"]

#: Units a number may carry; anything longer than the schema's 32 characters stays in value.
_UNIT_WORDS = frozenset({
    "mb", "gb", "tb", "kb", "mib", "gib", "tib", "kib", "ms", "s", "sec", "secs", "second",
    "seconds", "min", "mins", "minute", "minutes", "hour", "hours", "h", "day", "days",
    "week", "weeks", "%", "percent", "eu", "us", "uk", "cm", "mm", "m", "km", "kg", "g",
    "lb", "lbs", "requests", "request", "rps", "qps", "calls", "cores", "core", "vcpu",
    "vcpus", "cpus", "cpu", "usd", "eur", "gbp", "dollars", "euros", "pounds", "k", "x",
    "gbps", "mbps", "connections", "users", "seats", "hz", "ghz", "mhz", "w", "kw",
    "people", "persons", "staff", "employees", "members", "engineers", "heads", "fte",
})
#: Units that count people: "6 people", "40 employees" -- a team's headcount.
_HEAD_UNITS = frozenset(("people", "persons", "staff", "employees", "members", "engineers",
                         "heads", "fte", "ftes", "folks", "developers"))
_NUMBER = re.compile(r"^(?P<num>[-+]?\$?€?£?\d[\d,]*(?:\.\d+)?)(?P<rest>.*)$")
_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                 "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11",
                 "twelve": "12", "twenty": "20", "a dozen": "12"}
_DETERMINERS = ("the ", "a ", "an ", "our ", "my ", "their ", "his ", "her ", "its ",
                "your ")
_SNAKE = re.compile(r"[^a-z0-9]+")
#: A number token in an attribute: one issue, one PR -- not a key every issue shares.
_NUMBER_TOKEN = re.compile(r"(?:^|_)\d+(?:_|$)|\d")


def clean_value(text: str) -> str:
    """A value as stored: one line, no leading determiner, no trailing punctuation."""
    value = " ".join(text.split()).strip(" ,;:.!?\"'()[]—–")
    low = value.lower()
    for det in _DETERMINERS:
        if low.startswith(det) and len(value) > len(det):
            value = value[len(det):]
            break
    return value.strip()


def split_unit(value: str) -> tuple[str, str | None]:
    """'512 MB' -> ('512', 'MB'); '100 requests per minute' -> ('100', 'requests per
    minute'); 'Postgres 14' -> ('Postgres 14', None): a unit only after a leading number."""
    text = clean_value(value)
    low = text.lower()
    for word, digits in _NUMBER_WORDS.items():
        if low.startswith(word + " "):
            text = digits + text[len(word):]
            break
    match = _NUMBER.match(text)
    if not match:
        return text, None
    number, rest = match["num"].replace(",", ""), match["rest"].strip()
    if not rest:
        return number, None
    first = rest.split()[0].lower().rstrip(".,")
    if (first in _UNIT_WORDS or rest.lower() in _UNIT_WORDS or first.endswith("s")) \
            and len(rest) <= 32 and not any(c.isdigit() for c in rest):
        return number, rest
    return text, None


#: Words that say a property's value is the one now, not another property.
_NOW_WORDS = frozenset(("new", "current", "latest", "present"))


def unit_attribute(unit: str, *, first_word: bool = False) -> str | None:
    """The attribute a value's unit names: "9 replicas" -> replicas, "6 people" ->
    headcount; ``first_word`` keys "requests per minute" as requests."""
    words = unit.lower().split()
    if not words:
        return None
    if words[0] in _HEAD_UNITS:
        return "headcount"
    return attribute_key(words[0] if first_word else unit)


def attribute_key(phrase: str) -> str | None:
    """A phrase as a snake_case attribute key, or None when nothing is left ('shoe size' ->
    'shoe_size'; "on-call owner" -> 'on_call_owner'), at most 64 characters."""
    words = [w for w in _SNAKE.sub(" ", phrase.lower()).split() if w not in ("the", "a", "an")]
    while len(words) > 1 and words[0] in _NOW_WORDS:
        words = words[1:]  # "her new mentor" is her mentor, whoever held it before
    key = "_".join(words)[:64].strip("_")
    if not key or not key[0].isalpha():
        return None
    return key


def refusal(attribute: str) -> str | None:
    """Why seed 002 §9 refuses this attribute, or None: a number token (issue_335_status: one
    issue, not a shared key) or an event word (cost, outage, incident, ...). A key the
    built-in registry holds is never refused."""
    if attribute in BY_KEY:
        return None
    if _NUMBER_TOKEN.search(attribute):
        return f"attribute {attribute!r} has a number token: one thing, not a shared key"
    words = set(attribute.split("_"))
    event = sorted(words & EVENT_WORDS) or ([attribute] if attribute in EVENT_WORDS else [])
    if event:
        return (f"attribute {attribute!r} names an event ({event[0]}): an event is never a "
                "timeline fact")
    return None


#: Words that never name a value: pronouns, and heads of vague or partitive phrases ("a
#: number of buildings", "a big role", "in terms of", "for a while", "at the top").
_PRONOUNS = frozenset(("i", "me", "you", "he", "him", "she", "her", "we", "us", "they",
                       "them", "it", "one", "myself", "yourself", "ourselves", "themselves"))
_VAGUE_HEADS = frozenset(("number", "lot", "lots", "bunch", "couple", "few", "bit", "kind",
                          "sort", "type", "variety", "range", "series", "part", "while",
                          "top", "bottom", "way", "ways", "thing", "things", "stuff", "role",
                          "terms", "charge", "end", "rest", "side", "moment", "time",
                          "idea", "point", "case", "fact", "matter", "deal", "sense"))
#: Praise and blame: "an inspiring writer", "an excellent representative" describe, they do
#: not name a title or a property.
_EVALUATIVE = frozenset(("inspiring", "excellent", "great", "awesome", "amazing", "wonderful",
                         "good", "best", "better", "terrible", "nice", "lovely", "fantastic",
                         "incredible", "brilliant", "perfect", "beautiful", "true", "real",
                         "huge", "big", "cool", "sweet", "fine", "such", "very",
                         "important", "significant", "major", "fabulous", "proud"))
#: A kind alone names no one thing: "joined a group", "playing a game".
_GENERIC_ALONE = frozenset(("group", "groups", "team", "club", "game", "games", "company",
                            "organization", "organisation", "community", "project",
                            "program", "programme", "job", "place", "band", "class"))
_DEMONSTRATIVES = ("this ", "that ", "these ", "those ", "such ", "some ", "any ", "no ",
                   "different ", "other ", "another ", "same ", "various ", "several ",
                   "many ", "more ")
#: A duration is how long, never what (a key "seconds" from "we have 30 seconds").
_TIME_KEYS = frozenset(("second", "seconds", "minute", "minutes", "hour", "hours", "day",
                        "days", "week", "weeks", "month", "months", "year", "years", "time"))
_HONORIFIC = re.compile(r"^(?:mr|mrs|ms|miss|dr|prof|sir|madam)\b\.?", re.IGNORECASE)
_PLACE_KEYS = frozenset(("lives_in", "region", "headquarters", "office"))
#: Keys whose values are names ("Porto", "Globex", "the Search team"): "we live in a
#: federation", "our team is now fruits" name none.
_NAMED_KEYS = frozenset(("lives_in", "region", "headquarters", "team", "employer"))


def value_problem(attribute: str | None, value: str, *, specific: bool) -> str | None:
    """Why ``value`` is no value of ``attribute``, or None. ``specific``: the value holds a
    name, a number or an identifier (from the parse). Pure.

    A free attribute (one the built-in vocabulary does not know, read from "my X is Y")
    takes only a specific value: "my shoe size is 40", "our laptop vendor is Soylent", not
    "my store has been a roller coaster" or "our primary consideration is the interest"."""
    low = " ".join(value.lower().split())
    words = low.split()
    if not words or "{" in low or "}" in low:
        return "no value (transcript markup)"
    if not any(c.isalnum() for c in low):
        return f"value {value!r} has no letter or digit (markup)"
    if low in _PRONOUNS or all(w in _PRONOUNS for w in words):
        return f"value {value!r} is a pronoun"
    if words[-1] in _VAGUE_HEADS or (len(words) == 1 and words[0] in _VAGUE_HEADS):
        return f"value {value!r} is a vague phrase, not a value"
    if len(words) == 1 and words[0] in _GENERIC_ALONE and not specific:
        return f"value {value!r} is a kind, it names no one thing"
    if (low + " ").startswith(_DEMONSTRATIVES):
        return f"value {value!r} points at something unnamed"
    if {w for w in value.split() if w.islower()} & _EVALUATIVE:
        # lowercase only: "Best Buy" is a name
        return f"value {value!r} describes (praise or blame), it names nothing"
    if attribute is None:
        return None
    if attribute in _TIME_KEYS or attribute.split("_")[-1] in _TIME_KEYS:
        return f"attribute {attribute!r} is a duration, not a property"
    if set(attribute.split("_")) & _EVALUATIVE:
        return f"attribute {attribute!r} describes, it names no property"
    if attribute in _PLACE_KEYS and _HONORIFIC.match(value):
        return f"value {value!r} is a person, not a place"
    if attribute in _NAMED_KEYS and not specific and class_of(value) is None:
        return f"value {value!r} is a kind, not a named {attribute.replace('_', ' ')}"
    known = attribute in BY_KEY or attribute.replace("_", " ") in ALIAS_KEYS
    if not known and not specific and class_of(value) is None:
        return (f"value {value!r} of the unregistered attribute {attribute!r} names no "
                "name, number or identifier")
    return None
