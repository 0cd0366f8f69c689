"""A fast acceptance check for format v1 requests: True only for a request the published
JSON Schemas certainly accept.

jsonschema walks every keyword of every fact (about 0.2 ms a fact: a 5,000-fact backfill
spent a third of its time there). This check reads the same schema files and tests the same
keywords directly; whenever it is not certain (anything unusual: a bool for a number, a NaN,
an unknown key) it answers False and the full validator runs, so errors are always the full
validator's. tests/test_timeline_format.py checks "True implies the schema accepts" over
generated requests.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any


@cache
def _fact_rules() -> tuple[frozenset[str], frozenset[str], dict[str, dict[str, Any]]]:
    from factstore.timelines.format_v1 import FACT_SCHEMA_FILE, load_schema

    schema = load_schema(FACT_SCHEMA_FILE)
    return (frozenset(schema["properties"]), frozenset(schema["required"]),
            schema["properties"])


@cache
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text)  # jsonschema's own semantics: re.search with this pattern


def _string_ok(value: object, rule: dict[str, Any]) -> bool:
    if type(value) is not str:
        return False
    if len(value) > rule.get("maxLength", len(value)) or len(value) < rule.get("minLength", 0):
        return False
    if "pattern" in rule and _pattern(rule["pattern"]).search(value) is None:
        return False
    fmt = rule.get("format")
    if fmt is None:
        return True
    from jsonschema import Draft202012Validator  # lazily: see format_v1._validator

    return Draft202012Validator.FORMAT_CHECKER.conforms(value, fmt)


def _value_ok(value: object, rule: dict[str, Any]) -> bool:
    if "enum" in rule:
        return type(value) is str and value in rule["enum"]
    kind = rule.get("type")
    if kind == "string":
        return _string_ok(value, rule)
    if kind == "number":
        return (type(value) in (int, float)
                and rule.get("minimum", value) <= value <= rule.get("maximum", value))  # type: ignore[operator]
    return False  # a keyword this check does not know: let the full validator decide


def fact_certainly_valid(fact: object) -> bool:
    """The fact schema accepts ``fact`` (False: not certain, run the validator)."""
    if type(fact) is not dict:
        return False
    known, required, rules = _fact_rules()
    if not required <= fact.keys() or not fact.keys() <= known:
        return False
    return all(_value_ok(value, rules[name]) for name, value in fact.items())


def request_certainly_valid(payload: dict[str, Any], *, batch: bool = False) -> bool:
    """The request schema accepts ``payload`` (the 50-fact cap skipped for a backfill)."""
    if not payload.keys() <= {"format", "facts", "shared"} or "facts" not in payload:
        return False
    if type(payload.get("format")) is not int or payload["format"] != 1:
        return False
    if "shared" in payload and type(payload["shared"]) is not bool:
        return False
    facts = payload["facts"]
    if type(facts) is not list or not facts or (len(facts) > 50 and not batch):
        return False
    return all(fact_certainly_valid(fact) for fact in facts)
