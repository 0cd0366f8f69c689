"""Format v1 facts requests (seed 002 §4): the shipped schemas, every violation class, the
checks beyond the schema, and conversion to WrittenFact."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from jsonschema import Draft202012Validator

from factstore.errors import InvalidInput
from factstore.timelines import dates
from factstore.timelines.format_v1 import (
    FACT_SCHEMA_FILE,
    MAX_FACTS_PER_REQUEST,
    REQUEST_SCHEMA_FILE,
    FactsValidationError,
    FieldError,
    WrittenFact,
    load_schema,
    render_path,
    validate_request,
)

PARTIAL = r"^\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2}))?)?)?$"

#: The seed's JSON Schema for one fact, transcribed from §4.
SEED_FACT_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://livingbrain.wiki/schemas/temporal-fact.v1.json",
    "type": "object",
    "required": ["subject", "attribute", "value"],
    "additionalProperties": False,
    "properties": {
        "subject": {"type": "string", "pattern": "^(me|(person|project|decision|customer|"
                    "system|glossary|radar)/[a-z0-9-]{1,128})$"},
        "attribute": {"type": "string", "maxLength": 64},
        "value": {"type": "string", "minLength": 1, "maxLength": 2000},
        "unit": {"type": "string", "maxLength": 32},
        "valid_from": {"type": "string", "pattern": PARTIAL},
        "valid_to": {"type": "string", "pattern": PARTIAL},
        "observed_at": {"type": "string", "format": "date-time"},
        "source": {"type": "string", "maxLength": 512},
        "quote": {"type": "string", "maxLength": 2000},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1},
        "cardinality": {"enum": ["one", "many"]},
    },
}

#: The seed's example request.
EXAMPLE = {
    "format": 1,
    "facts": [{
        "subject": "person/nick",
        "attribute": "shoe_size",
        "value": "41",
        "unit": "EU",
        "valid_from": "2026",
        "observed_at": "2026-10-15T09:12:00Z",
        "source": "conversation:c-123#m-9",
        "quote": "my shoe size is now 41",
        "confidence": 0.9,
    }],
    "shared": False,
}


def request_with(**fields: object) -> dict:
    """The example request with its one fact's fields replaced (None deletes a field)."""
    body = copy.deepcopy(EXAMPLE)
    for name, value in fields.items():
        if value is None:
            body["facts"][0].pop(name, None)
        else:
            body["facts"][0][name] = value
    return body


def errors_of(payload: object) -> tuple[FieldError, ...]:
    with pytest.raises(FactsValidationError) as caught:
        validate_request(payload)
    return caught.value.errors


def only_error(payload: object) -> FieldError:
    errors = errors_of(payload)
    assert len(errors) == 1, errors
    return errors[0]


# --- the shipped schemas -------------------------------------------------------------------


def test_fact_schema_is_the_seeds() -> None:
    assert load_schema(FACT_SCHEMA_FILE) == SEED_FACT_SCHEMA


def test_request_schema_envelope() -> None:
    envelope = load_schema(REQUEST_SCHEMA_FILE)
    assert envelope["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert envelope["required"] == ["format", "facts"]
    assert envelope["additionalProperties"] is False
    props = envelope["properties"]
    assert props["format"] == {"const": 1}
    assert props["shared"] == {"type": "boolean"}
    assert props["facts"]["minItems"] == 1 and props["facts"]["maxItems"] == 50
    assert MAX_FACTS_PER_REQUEST == 50
    assert props["facts"]["items"] == {"$ref": SEED_FACT_SCHEMA["$id"]}


@pytest.mark.parametrize("name", [FACT_SCHEMA_FILE, REQUEST_SCHEMA_FILE])
def test_schemas_are_valid_2020_12(name: str) -> None:
    Draft202012Validator.check_schema(load_schema(name))


def test_dates_module_uses_the_schema_pattern() -> None:
    # parse_partial and the schema must agree on what a partial date looks like.
    assert dates.PARTIAL_DATE.pattern == SEED_FACT_SCHEMA["properties"]["valid_from"]["pattern"]


def test_load_schema_returns_fresh_copies() -> None:
    load_schema(FACT_SCHEMA_FILE)["properties"].clear()
    assert load_schema(FACT_SCHEMA_FILE) == SEED_FACT_SCHEMA


# --- accepted requests and WrittenFact -----------------------------------------------------


def test_seed_example_converts_to_written_fact() -> None:
    facts, shared = validate_request(EXAMPLE)
    assert shared is False
    assert facts == [WrittenFact(
        subject="person/nick", attribute="shoe_size", value="41", unit="EU",
        valid_from="2026", valid_to=None,
        observed_at=datetime(2026, 10, 15, 9, 12, tzinfo=UTC),
        source="conversation:c-123#m-9", quote="my shoe size is now 41", confidence=0.9,
        cardinality=None)]


def test_minimal_fact_leaves_optional_fields_none_and_shared_false() -> None:
    facts, shared = validate_request(
        {"format": 1, "facts": [{"subject": "me", "attribute": "shoe_size", "value": "40"}]})
    assert shared is False
    assert facts == [WrittenFact("me", "shoe_size", "40")]
    assert facts[0].observed_at is None and facts[0].confidence is None


def test_all_fields_and_shared_true() -> None:
    body = {"format": 1, "shared": True, "facts": [
        {"subject": "project/apollo-2", "attribute": "uses_tool", "value": "ripgrep",
         "valid_from": "2025-06", "valid_to": "2025-06-15T12:30:00.5+02:00",
         "observed_at": "2025-06-20t08:00:00+02:00", "confidence": 1, "cardinality": "many",
         "unit": "", "source": "note:user-1/n-2", "quote": ""}]}
    facts, shared = validate_request(body)
    assert shared is True
    fact = facts[0]
    assert fact.valid_from == "2025-06" and fact.valid_to == "2025-06-15T12:30:00.5+02:00"
    assert fact.observed_at == datetime(2025, 6, 20, 8, tzinfo=timezone(timedelta(hours=2)))
    assert fact.observed_at.utcoffset() == timedelta(hours=2)
    assert isinstance(fact.confidence, float) and fact.confidence == 1.0
    assert fact.cardinality == "many" and fact.unit == "" and fact.quote == ""


def test_fifty_facts_are_allowed_and_order_kept() -> None:
    body = {"format": 1, "facts": [
        {"subject": "person/nick", "attribute": f"a{i}", "value": str(i)} for i in range(50)]}
    facts, _ = validate_request(body)
    assert [f.attribute for f in facts] == [f"a{i}" for i in range(50)]


def test_json_text_and_bytes_are_parsed() -> None:
    text = json.dumps(EXAMPLE)
    assert validate_request(text) == validate_request(EXAMPLE)
    assert validate_request(text.encode("utf-8")) == validate_request(EXAMPLE)


def test_subject_boundaries() -> None:
    for ok in ("me", "glossary/a", "radar/" + "x" * 128, "decision/adr-0001"):
        validate_request(request_with(subject=ok))
    for bad in ("Me", "person/", "person/" + "x" * 129, "team/nick", "person/Nick",
                "person/nick smith", "person/nick/x"):
        assert only_error(request_with(subject=bad)).path == "facts[0].subject"


# --- every schema violation class ----------------------------------------------------------


@pytest.mark.parametrize("field", ["subject", "attribute", "value"])
def test_missing_required_field(field: str) -> None:
    error = only_error(request_with(**{field: None}))
    assert error == FieldError(f"facts[0].{field}", None, f"{field} is required")


def test_missing_envelope_fields() -> None:
    errors = errors_of({})
    assert [e.path for e in errors] == ["facts", "format"]
    assert "format is required (write 1)" in [e.reason for e in errors]


@pytest.mark.parametrize("field", ["status", "supersedes", "superseded_by"])
def test_server_owned_fields_are_refused_by_name(field: str) -> None:
    error = only_error(request_with(**{field: "x"}))
    assert error.path == f"facts[0].{field}" and error.value == "x"
    assert f"unknown field {field!r}" in error.reason
    assert "emitters never send status, supersedes or superseded_by" in error.reason


def test_unknown_fact_field_and_unknown_envelope_field() -> None:
    body = request_with(colour="red", size=3)
    body["priority"] = "high"
    errors = errors_of(body)
    assert [(e.path, e.value) for e in errors] == [
        ("priority", "high"), ("facts[0].colour", "red"), ("facts[0].size", 3)]
    assert "a facts request has only format, facts, shared" in errors[0].reason
    assert "unknown field 'colour'; a fact has only subject, attribute" in errors[1].reason
    assert "never send" not in errors[1].reason


@pytest.mark.parametrize(("field", "value", "expected", "got"), [
    ("subject", 7, "a string", "integer"),
    ("attribute", ["a"], "a string", "array"),
    ("value", 41, "a string", "integer"),
    ("unit", None, "a string", "null"),
    ("valid_from", 2026, "a string", "integer"),
    ("valid_to", 2027.0, "a string", "number"),
    ("observed_at", {"t": 1}, "a string", "object"),
    ("source", False, "a string", "boolean"),
    ("quote", 1, "a string", "integer"),
    ("confidence", "0.9", "a number", "string"),
    ("confidence", True, "a number", "boolean"),
])
def test_wrong_type(field: str, value: object, expected: str, got: str) -> None:
    body = request_with()
    body["facts"][0][field] = value  # request_with treats None as "delete"
    error = only_error(body)
    assert error.path == f"facts[0].{field}" and error.value == value
    assert error.reason == f"{field} must be {expected}, got {got}"


def test_wrong_type_of_facts_and_of_a_fact() -> None:
    assert only_error({"format": 1, "facts": {"subject": "me"}}).reason == \
        "facts must be an array, got object"
    error = only_error({"format": 1, "facts": ["shoe size 41"]})
    assert error == FieldError("facts[0]", "shoe size 41", "each fact must be an object, "
                                                            "got string")


def test_subject_pattern_reason() -> None:
    error = only_error(request_with(subject="Person/Nick"))
    assert error.path == "facts[0].subject" and error.value == "Person/Nick"
    assert error.reason.startswith(
        "subject must be 'me' or <kind>/<slug> with kind one of person, project, decision, "
        "customer, system, glossary, radar and a slug of a-z, 0-9, '-' (1-128)")


@pytest.mark.parametrize(("field", "limit"), [
    ("attribute", 64), ("value", 2000), ("unit", 32), ("source", 512), ("quote", 2000)])
def test_max_length(field: str, limit: int) -> None:
    validate_request(request_with(**{field: "x" * limit}))
    error = only_error(request_with(**{field: "x" * (limit + 1)}))
    assert error.path == f"facts[0].{field}"
    assert error.reason == f"{field} must be at most {limit} characters, got {limit + 1}"


def test_value_min_length() -> None:
    error = only_error(request_with(value=""))
    assert error == FieldError("facts[0].value", "", "value must not be empty")


@pytest.mark.parametrize("field", ["valid_from", "valid_to"])
@pytest.mark.parametrize("bad", [
    "26", "2026-1", "2026/10", "October 2026", "2026-10-15T09:12", "2026-10-15T09:12:00",
    "2026-10-15 09:12:00Z", "now", ""])
def test_partial_date_pattern(field: str, bad: str) -> None:
    body = request_with(valid_from=None)
    body["facts"][0][field] = bad
    error = only_error(body)
    assert error.path == f"facts[0].{field}" and error.value == bad
    assert error.reason.startswith(
        f"{field} must be a partial date: YYYY, YYYY-MM, YYYY-MM-DD or an RFC 3339 timestamp")


@pytest.mark.parametrize("bad", [
    "2026-10-15", "2026-10-15T09:12:00", "2026-10-15 09:12:00Z", "2026-13-01T00:00:00Z",
    "2026-02-30T00:00:00Z", "2026-10-15T24:00:00Z", "2026-10-15T09:12:60Z", "yesterday"])
def test_observed_at_must_be_rfc3339_date_time(bad: str) -> None:
    # The date-time format is enforced (rfc3339-validator), not merely annotated.
    error = only_error(request_with(observed_at=bad))
    assert error.path == "facts[0].observed_at" and error.value == bad
    assert "RFC 3339 timestamp with a timezone" in error.reason


@pytest.mark.parametrize("bad", [-0.01, 1.01, -1, 2])
def test_confidence_bounds(bad: float) -> None:
    error = only_error(request_with(confidence=bad))
    assert error.path == "facts[0].confidence"
    assert error.reason == f"confidence must be between 0 and 1; got {bad!r}"


@pytest.mark.parametrize("ok", [0, 0.0, 1, 1.0, 0.5])
def test_confidence_bounds_are_inclusive(ok: float) -> None:
    assert validate_request(request_with(confidence=ok))[0][0].confidence == ok


def test_confidence_nan_is_refused() -> None:
    error = only_error(json.dumps(request_with(confidence=float("nan"))))
    assert error.path == "facts[0].confidence" and "got NaN" in error.reason


@pytest.mark.parametrize("bad", ["One", "several", "", 1])
def test_cardinality_enum(bad: object) -> None:
    error = only_error(request_with(cardinality=bad))
    assert error.path == "facts[0].cardinality"
    assert error.reason.startswith("cardinality must be 'one' or 'many'")


@pytest.mark.parametrize("bad", [2, 0, "1", True, 1.5])
def test_format_const(bad: object) -> None:
    body = request_with()
    body["format"] = bad
    error = only_error(body)
    assert error.path == "format" and error.value == bad
    assert error.reason.startswith("format must be 1")


def test_facts_max_items() -> None:
    body = {"format": 1, "facts": [
        {"subject": "me", "attribute": "a", "value": str(i)} for i in range(51)]}
    error = only_error(body)
    assert error.path == "facts"
    assert error.reason == "at most 50 facts per request; split it (got 51)"


def test_facts_min_items() -> None:
    error = only_error({"format": 1, "facts": []})
    assert error == FieldError("facts", [], "facts must hold at least one fact; the list is "
                                            "empty")


@pytest.mark.parametrize("bad", ["false", 0, None, []])
def test_shared_type(bad: object) -> None:
    body = request_with()
    body["shared"] = bad
    error = only_error(body)
    assert error.path == "shared" and error.reason.startswith("shared must be true or false")


# --- checks beyond the schema --------------------------------------------------------------


@pytest.mark.parametrize("field", ["valid_from", "valid_to"])
@pytest.mark.parametrize("unreal", [
    "2025-13", "2025-00", "2025-02-30", "2025-04-31", "2025-06-15T25:00:00Z"])
def test_partial_date_that_is_not_a_real_date(field: str, unreal: str) -> None:
    body = request_with(valid_from=None)
    body["facts"][0][field] = unreal
    error = only_error(body)
    assert error.path == f"facts[0].{field}" and error.value == unreal
    assert f"{unreal!r} is not a real date" in error.reason


@pytest.mark.parametrize("field", ["valid_from", "valid_to"])
@pytest.mark.parametrize("edge", ["0000", "0001", "0001-01-01T00:00:00+01:00", "9999",
                                  "9999-12-31", "9999-12-31T23:59:59-01:00"])
def test_partial_date_outside_the_kept_years_is_refused_by_name(field: str, edge: str) -> None:
    # Python's datetime ends at year 9999 and starts at 1: a timezone or a period's end
    # would push these past it (an OverflowError before they were refused).
    body = request_with(valid_from=None)
    body["facts"][0][field] = edge
    error = only_error(body)
    assert error.path == f"facts[0].{field}"
    assert "outside the years the store keeps (0002 to 9998)" in error.reason


@pytest.mark.parametrize("edge", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"])
def test_observed_at_outside_the_kept_years_is_refused(edge: str) -> None:
    error = only_error(request_with(observed_at=edge))
    assert error.path == "facts[0].observed_at" and "outside the years" in error.reason


def test_leap_day_is_real() -> None:
    validate_request(request_with(valid_from="2024-02-29"))


@pytest.mark.parametrize(("start", "end"), [
    ("2025", "2025"), ("2026", "2025"), ("2025-06", "2025"), ("2025-06-15", "2025-06"),
    ("2025-06-15T10:00:00Z", "2025-06-15T12:00:00+03:00")])
def test_valid_to_must_be_after_valid_from(start: str, end: str) -> None:
    error = only_error(request_with(valid_from=start, valid_to=end))
    assert error.path == "facts[0].valid_to" and error.value == end
    assert error.reason.startswith("valid_to must be after valid_from")


@pytest.mark.parametrize(("start", "end"), [
    ("2025", "2026"), ("2025", "2025-06"), ("2025-06", "2025-06-02"),
    ("2025-06-15T10:00:00Z", "2025-06-15T12:00:00+01:00")])
def test_forward_ranges_pass(start: str, end: str) -> None:
    validate_request(request_with(valid_from=start, valid_to=end))


def test_valid_to_alone_is_fine() -> None:
    validate_request(request_with(valid_from=None, valid_to="2020"))


@pytest.mark.parametrize(("field", "value"), [
    ("subject", "person/nick\n"), ("valid_from", "2025\n"), ("valid_from", "٢٠٢٥"),
    ("observed_at", "2026-10-15T09:12:00Z\n")])
def test_python_regex_loopholes_are_closed(field: str, value: str) -> None:
    # jsonschema runs patterns with Python's re, where $ matches before a final newline and
    # \d matches any Unicode digit; the schema (ECMA-262) allows neither.
    error = only_error(request_with(**{field: value}))
    assert error.path == f"facts[0].{field}" and error.value == value


# --- the whole report ----------------------------------------------------------------------


def test_several_errors_are_all_listed_in_request_order() -> None:
    body = {
        "format": 2,
        "shared": "yes",
        "facts": [
            {"subject": "Nick", "attribute": "shoe_size", "value": "41",
             "valid_from": "2025-13", "status": "current"},
            {"subject": "me", "attribute": "x" * 65, "value": "",
             "valid_from": "2026", "valid_to": "2025", "confidence": 3},
            {"attribute": "employer"},
        ],
    }
    errors = errors_of(body)
    assert [e.path for e in errors] == [
        "format", "shared",
        "facts[0].subject", "facts[0].valid_from", "facts[0].status",
        "facts[1].attribute", "facts[1].value", "facts[1].valid_to", "facts[1].confidence",
        "facts[2].subject", "facts[2].value",
    ]
    with pytest.raises(FactsValidationError) as caught:
        validate_request(body)
    message = str(caught.value)
    assert message.startswith("11 problems in the facts request, nothing written: format: ")
    for error in errors:
        assert f"{error.path}: {error.reason}" in message


def test_validation_error_is_invalid_input_and_singular_message() -> None:
    with pytest.raises(InvalidInput) as caught:
        validate_request(request_with(value=""))
    assert str(caught.value) == ("1 problem in the facts request, nothing written: "
                                 "facts[0].value: value must not be empty")


@pytest.mark.parametrize("payload", [[EXAMPLE], None, 1, "null", b"[]"])
def test_a_request_that_is_not_an_object(payload: object) -> None:
    error = only_error(payload)
    assert error.path == "" and error.reason.startswith("the request must be a JSON object")


def test_unparseable_json_names_line_and_column() -> None:
    error = only_error('{"format": 1,\n  "facts": [}')
    assert error.path == ""
    assert error.reason.startswith("the request is not valid JSON:")
    assert "line 2, column 13" in error.reason


def test_undecodable_bytes() -> None:
    error = only_error(b'{"format": 1, "facts": ["\xff"]}')
    assert error.path == "" and "not JSON text" in error.reason


def test_render_path() -> None:
    assert render_path(()) == ""
    assert render_path(["format"]) == "format"
    assert render_path(["facts", 2, "valid_from"]) == "facts[2].valid_from"
    assert render_path(["facts", 0]) == "facts[0]"


def test_written_fact_is_frozen() -> None:
    fact = validate_request(EXAMPLE)[0][0]
    with pytest.raises(AttributeError):
        fact.value = "42"  # type: ignore[misc]


# --- payloads no schema check can be run on ------------------------------------------------


def test_deeply_nested_request_is_refused_unread() -> None:
    nested: object = "x"
    for _ in range(5000):
        nested = [nested]
    text = json.dumps(request_with(value="@")).replace('"@"', "[" * 5000 + '"x"' + "]" * 5000)
    for payload in (request_with(value=nested), text):
        error = only_error(payload)
        assert "nests deeper than 32 levels" in error.reason


def test_five_thousand_digit_number_is_refused_by_name() -> None:
    text = json.dumps(request_with()).replace('"format": 1', '"format": ' + "1" * 5000)
    assert "number too long" in only_error(text).reason
    # decoded already: the message must not try to print it either
    error = only_error(request_with(confidence=10 ** 5000))
    assert "integer of" in error.reason and "confidence" in error.path


@pytest.mark.parametrize("field", ["value", "attribute", "unit", "source", "quote"])
@pytest.mark.parametrize("bad, says", [("a\x00b", "NUL character"), ("a\ud800b", "surrogate")])
def test_unstorable_text_is_refused_at_its_path(field: str, bad: str, says: str) -> None:
    error = only_error(request_with(**{field: bad}))
    assert error.path == f"facts[0].{field}" and says in error.reason
