"""Format v1 of written facts (seed 002 §4): validate a facts request, name every problem.

An emitter (a compiler, an extractor, an agent) sends ``{"format": 1, "facts": [...],
"shared": false}``. This module checks that body against the published JSON Schema (shipped
as package data in ``factstore.timelines.schema``), adds the checks a schema cannot express
(a partial date must be a real date; a range must not end before it starts), and turns the
body into :class:`WrittenFact` values.

Validation is all-or-nothing and exhaustive: every problem in the request is collected and
reported at once, so an emitter can fix its whole batch in one round trip, and nothing is
written when anything is wrong.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from referencing import Registry, Resource

from factstore.errors import InvalidInput
from factstore.inputs import EARLIEST, LATEST, check_instant, unstorable
from factstore.timelines.dates import parse_partial
from factstore.timelines.schema_fast import request_certainly_valid

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator, ValidationError

SCHEMA_PACKAGE = "factstore.timelines.schema"
FACT_SCHEMA_FILE = "temporal-fact.v1.json"
REQUEST_SCHEMA_FILE = "facts-request.v1.json"

#: The largest batch one request may carry (the envelope's maxItems).
MAX_FACTS_PER_REQUEST = 50
#: How deep a request may nest before it is refused unread (real requests nest 3 deep).
MAX_DEPTH = 32

#: Fields the server owns. Emitters never send them (seed §4: "Do not resolve conflicts
#: yourself"), so naming them in the error is more useful than a bare "unknown field".
SERVER_OWNED_FIELDS = ("status", "supersedes", "superseded_by")

SUBJECT_REASON = (
    "subject must be 'me' or <kind>/<slug> with kind one of person, project, decision, "
    "customer, system, glossary, radar and a slug of a-z, 0-9, '-' (1-128)")
PARTIAL_DATE_REASON = (
    "must be a partial date: YYYY, YYYY-MM, YYYY-MM-DD or an RFC 3339 timestamp")
ATTRIBUTE_REASON = (
    "attribute must be a short stable snake_case key: a lowercase letter, then lowercase "
    "letters, digits and underscores, at most 64 (e.g. shoe_size, uses_tool)")
#: An attribute is a plaintext key: selected, compared and shown as is, so identifier-shaped.
ATTRIBUTE_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,63}", re.ASCII)
#: How far past the writer's clock an observed_at may lie (clocks disagree a little).
FUTURE_SKEW = timedelta(minutes=5)
DATE_TIME_REASON = (
    "must be an RFC 3339 timestamp with a timezone, like 2026-10-15T09:12:00Z")

# The schema's patterns are checked by jsonschema with Python's ``re``, where ``\d`` is any
# Unicode digit and ``$`` also matches before a trailing newline; ECMA-262 (what the schema
# means) allows neither. These ASCII full-match twins close that gap so 'person/nick\n' or
# Arabic-Indic digits cannot slip into a plaintext key.
_SUBJECT_STRICT = re.compile(
    r"(me|(person|project|decision|customer|system|glossary|radar)/[a-z0-9-]{1,128})",
    re.ASCII)
_PARTIAL_DATE_STRICT = re.compile(
    r"\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))?)?)?", re.ASCII)

_JSON_TYPE_NAMES: tuple[tuple[type, str], ...] = (
    # bool before int: bool is a subclass of int in Python but not a number in JSON.
    (bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
    (list, "array"), (tuple, "array"), (dict, "object"), (type(None), "null"),
)


@dataclass(frozen=True)
class FieldError:
    """One problem in a facts request.

    ``path`` names the field as an emitter writes it ("facts[2].valid_from", "format"; ""
    for the request itself), ``value`` is what was sent there (None for a missing field),
    and ``reason`` says what is wrong and what is expected.
    """

    path: str
    value: object
    reason: str

    def __str__(self) -> str:
        return f"{self.path or '(request)'}: {self.reason}"


class FactsValidationError(InvalidInput):
    """A facts request was refused; ``errors`` lists every problem found, in request order."""

    def __init__(self, errors: Sequence[FieldError]) -> None:
        self.errors: tuple[FieldError, ...] = tuple(errors)
        count = len(self.errors)
        noun = "problem" if count == 1 else "problems"
        listed = "; ".join(str(e) for e in self.errors)
        super().__init__(f"{count} {noun} in the facts request, nothing written: {listed}")


@dataclass(frozen=True)
class WrittenFact:
    """One fact as an emitter wrote it, after validation, before 'me' resolution or storage.

    ``subject`` may still be 'me' (see :func:`factstore.timelines.subjects.resolve_me`);
    ``valid_from``/``valid_to`` are partial dates kept as written; ``observed_at`` is the
    message's time as an aware datetime. Optional fields the emitter left out are None.
    """

    subject: str
    attribute: str
    value: str
    unit: str | None = None
    valid_from: str | None = None
    valid_to: str | None = None
    observed_at: datetime | None = None
    source: str | None = None
    quote: str | None = None
    confidence: float | None = None
    cardinality: str | None = None


# --- schemas -------------------------------------------------------------------------------


def load_schema(name: str) -> dict[str, Any]:
    """A fresh copy of one shipped schema (FACT_SCHEMA_FILE or REQUEST_SCHEMA_FILE)."""
    text = resources.files(SCHEMA_PACKAGE).joinpath(name).read_text(encoding="utf-8")
    return json.loads(text)


@cache
def _validator() -> Draft202012Validator:
    """The envelope validator, built once: the fact schema is reached through a Registry by
    its $id, exactly as a third-party validator would resolve the published $ref.

    jsonschema is imported here, on the first validation: its format checkers pull in a
    grammar compiler that costs seconds, which every CLI call would otherwise pay."""
    from jsonschema import Draft202012Validator

    fact_schema = load_schema(FACT_SCHEMA_FILE)
    request_schema = load_schema(REQUEST_SCHEMA_FILE)
    registry: Registry = Registry().with_resource(
        fact_schema["$id"], Resource.from_contents(fact_schema))
    # FORMAT_CHECKER checks date-time via rfc3339-validator (a declared dependency); without
    # a format checker 2020-12 treats "format" as an annotation and accepts anything.
    return Draft202012Validator(
        request_schema, registry=registry,
        format_checker=Draft202012Validator.FORMAT_CHECKER)


@cache
def _fact_properties() -> tuple[str, ...]:
    return tuple(load_schema(FACT_SCHEMA_FILE)["properties"])


# --- rendering jsonschema errors -----------------------------------------------------------


def render_path(parts: Iterable[str | int]) -> str:
    """('facts', 0, 'valid_from') -> 'facts[0].valid_from'; () -> ''."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _json_type(value: object) -> str:
    for py_type, name in _JSON_TYPE_NAMES:
        if isinstance(value, py_type):
            return name
    return type(value).__name__


def _short(value: object, limit: int = 40) -> str:
    """A bounded repr for messages: values can be long (and, before redaction, secret),
    deeply nested (repr would recurse) or huge numbers (repr refuses past 4300 digits)."""
    if isinstance(value, str):
        text = repr(value[:limit])
    elif isinstance(value, dict | list | tuple):
        text = f"{_json_type(value)} of {len(value)} item(s)"
    elif isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        text = f"an integer of {value.bit_length()} bits"
    else:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _storable_errors(payload: object) -> list[FieldError]:
    """What no schema check can be run on: nesting deeper than MAX_DEPTH (a recursive
    validator would overflow the stack), integers past 64 bits (its messages would fail to
    print them) and strings Postgres cannot keep (a NUL character, a lone surrogate). Walked without recursion; each bad string reported at its path."""
    errors: list[FieldError] = []
    stack: list[tuple[object, tuple[str | int, ...]]] = [(payload, ())]
    while stack:
        node, path = stack.pop()
        if len(path) > MAX_DEPTH:
            return [FieldError(render_path(path[:MAX_DEPTH]), None,
                               f"the request nests deeper than {MAX_DEPTH} levels; format v1 "
                               "facts are flat objects")]
        if isinstance(node, dict):
            for key, item in node.items():
                if isinstance(key, str) and (problem := unstorable(key)):
                    errors.append(FieldError(render_path(path), None, f"a key {problem}"))
                stack.append((item, (*path, str(key))))
        elif isinstance(node, list | tuple):
            stack.extend((item, (*path, i)) for i, item in enumerate(node))
        elif isinstance(node, str) and (problem := unstorable(node)):
            errors.append(FieldError(render_path(path), None,
                                     f"{_field_name(path) or 'the value'} {problem}"))
        elif isinstance(node, int) and not isinstance(node, bool) and node.bit_length() > 63:
            # no field takes such a number, and printing one fails past 4,300 digits
            errors.append(FieldError(render_path(path), None,
                                     f"{_field_name(path) or 'the value'} is {_short(node)}; "
                                     "no field of a fact takes a number that large"))
    return sorted(errors, key=lambda e: e.path)


_TYPE_PHRASES = {"string": "a string", "number": "a number", "integer": "an integer",
                 "boolean": "true or false", "array": "an array", "object": "an object",
                 "null": "null"}


def _expected_types(validator_value: object) -> str:
    names = [validator_value] if isinstance(validator_value, str) else list(validator_value)
    return " or ".join(_TYPE_PHRASES.get(n, n) for n in names)


def _field_name(parts: Sequence[str | int]) -> str:
    """The last named part of a path: the field a rule is about ('' at the top)."""
    for part in reversed(parts):
        if isinstance(part, str):
            return part
    return ""


def _convert(error: ValidationError) -> list[FieldError]:
    """One jsonschema error as FieldErrors with a reason a person can act on."""
    parts = list(error.absolute_path)
    path = render_path(parts)
    kind = error.validator
    value = error.instance
    field = _field_name(parts)
    in_fact = len(parts) >= 2 and parts[0] == "facts" and isinstance(parts[1], int)

    if kind == "additionalProperties":
        # One jsonschema error covers every extra key; report each at its own path.
        known = tuple(error.schema.get("properties", {}))
        extras = [k for k in value if k not in known] if isinstance(value, dict) else []
        out = []
        for key in extras:
            if key in SERVER_OWNED_FIELDS:
                reason = (f"unknown field {key!r}: emitters never send status, supersedes or "
                          "superseded_by; the server orders, supersedes and disputes facts")
            else:
                where = "a fact" if in_fact else "a facts request"
                reason = f"unknown field {key!r}; {where} has only {', '.join(known)}"
            out.append(FieldError(render_path([*parts, key]), value[key], reason))
        return out

    if kind == "required":
        # jsonschema yields one error per missing field but names it only in its message;
        # recompute from the instance (duplicates are dropped by the caller).
        instance = value if isinstance(value, dict) else {}
        out = []
        for key in error.validator_value:
            if key not in instance:
                hint = " (write 1)" if key == "format" and not parts else ""
                out.append(FieldError(render_path([*parts, key]), None,
                                      f"{key} is required{hint}"))
        return out

    if kind == "type":
        if parts == ["facts"] or (in_fact and len(parts) == 2):
            thing = "facts" if parts == ["facts"] else "each fact"
        else:
            thing = field or "the request"
        reason = (f"{thing} must be {_expected_types(error.validator_value)}, "
                  f"got {_json_type(value)}")
    elif kind == "pattern" and field == "subject":
        reason = f"{SUBJECT_REASON}; got {_short(value)}"
    elif kind == "pattern" and field in ("valid_from", "valid_to"):
        reason = f"{field} {PARTIAL_DATE_REASON}; got {_short(value)}"
    elif kind == "pattern":
        reason = f"{field} must match {error.validator_value}; got {_short(value)}"
    elif kind == "format" and error.validator_value == "date-time":
        reason = f"{field} {DATE_TIME_REASON}; got {_short(value)}"
    elif kind == "format":
        reason = f"{field} must be a valid {error.validator_value}; got {_short(value)}"
    elif kind == "maxItems" and parts == ["facts"]:
        reason = (f"at most {error.validator_value} facts per request; split it "
                  f"(got {len(value)})")
    elif kind == "minItems" and parts == ["facts"]:
        reason = "facts must hold at least one fact; the list is empty"
    elif kind == "minLength":
        limit = error.validator_value
        reason = (f"{field} must not be empty" if limit == 1
                  else f"{field} must be at least {limit} characters, got {len(value)}")
    elif kind == "maxLength":
        # Only the length: the text itself may be long and, before redaction, secret.
        reason = (f"{field} must be at most {error.validator_value} characters, "
                  f"got {len(value)}")
    elif kind == "enum":
        allowed = " or ".join(repr(v) for v in error.validator_value)
        reason = f"{field} must be {allowed}; got {_short(value)}"
    elif kind == "const" and field == "format":
        reason = f"format must be {error.validator_value} (this is format v1); got {_short(value)}"
    elif kind == "const":
        reason = f"{field} must be {error.validator_value!r}; got {_short(value)}"
    elif kind in ("minimum", "maximum") and field == "confidence":
        reason = f"confidence must be between 0 and 1; got {_short(value)}"
    elif kind == "minimum":
        reason = f"{field} must be at least {error.validator_value}; got {_short(value)}"
    elif kind == "maximum":
        reason = f"{field} must be at most {error.validator_value}; got {_short(value)}"
    else:
        # A rule this module has no wording for (a later additive schema change): keep
        # jsonschema's own message rather than hide the problem.
        reason = error.message
    return [FieldError(path, value, reason)]


# --- checks beyond the schema --------------------------------------------------------------


def _semantic_errors(index: int, fact: dict[str, Any], now: datetime | None) -> list[FieldError]:
    """What the schema cannot say about one fact: real dates, a forward range, strict
    ASCII patterns, a finite confidence, a key that can be stored and selected (no blank
    value, an identifier-shaped attribute), an observation not made in the future. Fields
    the schema already refused are skipped so one mistake is reported once."""
    out: list[FieldError] = []
    base = f"facts[{index}]"

    attribute = fact.get("attribute")
    if isinstance(attribute, str) and len(attribute) <= 64:
        if not attribute.strip():
            out.append(FieldError(f"{base}.attribute", attribute,
                                  "attribute must not be blank; name the property, e.g. "
                                  "shoe_size"))
        elif not ATTRIBUTE_PATTERN.fullmatch(attribute):
            out.append(FieldError(f"{base}.attribute", attribute,
                                  f"{ATTRIBUTE_REASON}; got {_short(attribute)}"))
    value = fact.get("value")
    if isinstance(value, str) and value and not value.strip():
        out.append(FieldError(f"{base}.value", value,
                              "value must not be blank (only whitespace); a fact says what "
                              "the value is"))

    subject = fact.get("subject")
    if isinstance(subject, str) and _schema_accepts("subject", subject) \
            and not _SUBJECT_STRICT.fullmatch(subject):
        out.append(FieldError(f"{base}.subject", subject,
                              f"{SUBJECT_REASON}; got {_short(subject)}"))

    starts: dict[str, datetime] = {}
    for name in ("valid_from", "valid_to"):
        text = fact.get(name)
        if not isinstance(text, str) or not _schema_accepts(name, text):
            continue  # absent, or already reported by the schema
        if not _PARTIAL_DATE_STRICT.fullmatch(text):
            out.append(FieldError(f"{base}.{name}", text,
                                  f"{name} {PARTIAL_DATE_REASON}; got {_short(text)}"))
            continue
        try:
            starts[name] = parse_partial(text).start
        except InvalidInput as exc:
            out.append(FieldError(
                f"{base}.{name}", text,
                f"{name} {exc}" if "outside the years" in str(exc) else
                f"{name} {text!r} is not a real date (month 01-12, a day that month has, "
                "a time of day that exists)"))
    if len(starts) == 2 and starts["valid_to"] <= starts["valid_from"]:
        # [valid_from, valid_to) compares start instants: 2025..2025 is empty, 2025-06..2025
        # runs backwards. Either way the writer mixed the fields up or meant a later end.
        out.append(FieldError(
            f"{base}.valid_to", fact["valid_to"],
            f"valid_to must be after valid_from (ranges run from the start of valid_from to "
            f"the start of valid_to); got {fact['valid_from']!r}..{fact['valid_to']!r}"))

    confidence = fact.get("confidence")
    if isinstance(confidence, float) and math.isnan(confidence):
        # NaN compares false with both bounds, so minimum/maximum let it through.
        out.append(FieldError(f"{base}.confidence", confidence,
                              "confidence must be a number between 0 and 1; got NaN"))

    observed = fact.get("observed_at")
    if isinstance(observed, str) and type(_validator()).FORMAT_CHECKER.conforms(
            observed, "date-time"):
        instant = _to_datetime(observed)
        if instant is None:
            out.append(FieldError(f"{base}.observed_at", observed,
                                  f"observed_at {DATE_TIME_REASON}; got {_short(observed)}"))
        elif now is not None and _observed_too_late(instant, now):
            out.append(FieldError(
                f"{base}.observed_at", observed,
                f"observed_at is in the future (after {now:%Y-%m-%dT%H:%M:%SZ}, allowing "
                f"{FUTURE_SKEW.seconds // 60} minutes of clock skew): an observation is made "
                "before it is written; send the time the source said it"))
        elif (outside := _outside_years(instant)) is not None:
            out.append(FieldError(f"{base}.observed_at", observed, f"observed_at {outside}"))
    return out


def _outside_years(instant: datetime) -> str | None:
    try:
        check_instant("observed_at", instant)
    except InvalidInput:
        return f"is outside the years the store keeps ({EARLIEST.year:04d} to {LATEST.year})"
    return None


def _observed_too_late(instant: datetime, now: datetime) -> bool:
    try:
        return instant - now > FUTURE_SKEW
    except OverflowError:
        return instant > now


def _schema_accepts(field: str, text: str) -> bool:
    """Whether jsonschema (Python ``re``, search semantics) let the field's pattern pass,
    i.e. whether the schema pass stayed silent and a strict check must speak instead."""
    return re.search(_schema_pattern(field), text) is not None


@cache
def _schema_pattern(field: str) -> str:
    return load_schema(FACT_SCHEMA_FILE)["properties"][field]["pattern"]


def _to_datetime(text: str) -> datetime | None:
    """An RFC 3339 timestamp as an aware datetime (RFC 3339 allows lowercase 't'/'z').

    None for text rfc3339-validator passed but is not one: its ``$`` lets a trailing
    newline through."""
    if text != text.strip():
        return None
    try:
        return datetime.fromisoformat(text.upper().replace("Z", "+00:00"))
    except ValueError:
        return None


# --- the entry point -----------------------------------------------------------------------


def _parse_json(payload: str | bytes | bytearray) -> object:
    try:
        return json.loads(payload)
    except json.JSONDecodeError as exc:
        raise FactsValidationError([FieldError(
            "", payload if isinstance(payload, str) else None,
            f"the request is not valid JSON: {exc.msg} at line {exc.lineno}, "
            f"column {exc.colno}")]) from None
    except UnicodeDecodeError as exc:
        raise FactsValidationError([FieldError(
            "", None, f"the request is not JSON text (send UTF-8): {exc.reason} at byte "
            f"{exc.start}")]) from None
    except RecursionError:
        raise FactsValidationError([FieldError(
            "", None, f"the request nests deeper than {MAX_DEPTH} levels; format v1 facts "
            "are flat objects")]) from None
    except ValueError as exc:
        # json refuses integers past 4300 digits (CPython's int conversion limit)
        raise FactsValidationError([FieldError(
            "", None, f"the request holds a number too long to read: {exc}"[:200])]) from None


def _sort_key(error: FieldError, order: dict[str, int]) -> tuple[object, ...]:
    """Request order: top-level fields, then facts by index, then fields in schema order."""
    match = re.match(r"facts\[(\d+)\](?:\.(\w+))?", error.path)
    if match:
        name = match.group(2)
        rank = -1 if name is None else order.get(name, len(order))
        return (1, int(match.group(1)), rank, error.path)
    return (0, 0, 0, error.path)


def validate_request(payload: object, *, now: datetime | None = None,
                     batch: bool = False) -> tuple[list[WrittenFact], bool]:
    """Validate a format v1 facts request; answer its facts and its ``shared`` flag.

    ``payload`` is the decoded body (a dict) or the raw JSON text (str or bytes). Raises
    :class:`FactsValidationError` listing every problem when anything is wrong, so a
    request is accepted whole or not at all. Subjects are returned as written ('me' stays
    'me'); resolution and redaction are the caller's next steps. With ``now``, an
    ``observed_at`` later than it (beyond a few minutes of clock skew) is refused.
    """
    if isinstance(payload, (str, bytes, bytearray)):
        payload = _parse_json(payload)
    if not isinstance(payload, dict):
        raise FactsValidationError([FieldError(
            "", payload, f"the request must be a JSON object, got {_json_type(payload)}")])

    unstorable = _storable_errors(payload)
    if unstorable:
        raise FactsValidationError(unstorable)
    errors: list[FieldError] = []
    seen: set[tuple[str, str]] = set()

    def add(found: Iterable[FieldError]) -> None:
        for item in found:
            if (item.path, item.reason) not in seen:
                seen.add((item.path, item.reason))
                errors.append(item)

    fast = request_certainly_valid(payload, batch=batch)
    for error in () if fast else _validator().iter_errors(payload):
        if batch and error.validator == "maxItems" and list(error.absolute_path) == ["facts"]:
            continue  # a backfill is validated whole; the 50-fact cap is write_facts' own
        add(_convert(error))
    facts = payload.get("facts")
    if isinstance(facts, list):
        for index, fact in enumerate(facts):
            if isinstance(fact, dict):
                add(_semantic_errors(index, fact, now))

    if errors:
        order = {name: i for i, name in enumerate(_fact_properties())}
        raise FactsValidationError(sorted(errors, key=lambda e: _sort_key(e, order)))

    assert isinstance(facts, list)  # the schema made it a list of objects
    return [_written(fact) for fact in facts], bool(payload.get("shared", False))


def _written(fact: dict[str, Any]) -> WrittenFact:
    observed = fact.get("observed_at")
    confidence = fact.get("confidence")
    return WrittenFact(
        subject=fact["subject"],
        attribute=fact["attribute"],
        value=fact["value"],
        unit=fact.get("unit"),
        valid_from=fact.get("valid_from"),
        valid_to=fact.get("valid_to"),
        observed_at=None if observed is None else _to_datetime(observed),
        source=fact.get("source"),
        quote=fact.get("quote"),
        confidence=None if confidence is None else float(confidence),
        cardinality=fact.get("cardinality"),
    )
