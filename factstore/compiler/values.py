"""A compiled value as format v1 writes it: the value, its unit apart, and the attribute key.

Seed 002 §4: "Units go in unit, not in value", and an attribute is "a short stable
snake_case key". Pure.
"""

from __future__ import annotations

import re

from factstore.compiler.vocabulary import BY_KEY, EVENT_WORDS

__all__ = ["attribute_key", "refusal", "split_unit", "clean_value"]

#: Units a number may carry; anything longer than the schema's 32 characters stays in value.
_UNIT_WORDS = frozenset({
    "mb", "gb", "tb", "kb", "mib", "gib", "tib", "kib", "ms", "s", "sec", "secs", "second",
    "seconds", "min", "mins", "minute", "minutes", "hour", "hours", "h", "day", "days",
    "week", "weeks", "%", "percent", "eu", "us", "uk", "cm", "mm", "m", "km", "kg", "g",
    "lb", "lbs", "requests", "request", "rps", "qps", "calls", "cores", "core", "vcpu",
    "vcpus", "cpus", "cpu", "usd", "eur", "gbp", "dollars", "euros", "pounds", "k", "x",
    "gbps", "mbps", "connections", "users", "seats", "hz", "ghz", "mhz", "w", "kw",
})
_NUMBER = re.compile(r"^(?P<num>[-+]?\$?€?£?\d[\d,]*(?:\.\d+)?)(?P<rest>.*)$")
_NUMBER_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
                 "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11",
                 "twelve": "12", "twenty": "20", "a dozen": "12"}
_DETERMINERS = ("the ", "a ", "an ", "our ", "my ", "their ", "his ", "her ", "its ")
_SNAKE = re.compile(r"[^a-z0-9]+")
#: A number token in an attribute: one issue, one PR -- not a key every issue shares.
_NUMBER_TOKEN = re.compile(r"(?:^|_)\d+(?:_|$)|\d")


def clean_value(text: str) -> str:
    """A value as stored: one line, no leading determiner, no trailing punctuation."""
    value = " ".join(text.split()).strip(" ,;:.!?\"'()[]")
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


def attribute_key(phrase: str) -> str | None:
    """A phrase as a snake_case attribute key, or None when nothing is left ('shoe size' ->
    'shoe_size'; "on-call owner" -> 'on_call_owner'), at most 64 characters."""
    words = [w for w in _SNAKE.sub(" ", phrase.lower()).split() if w not in ("the", "a", "an")]
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
