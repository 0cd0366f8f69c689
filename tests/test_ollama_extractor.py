"""OllamaExtractor against the loopback stand-in, and parse_extraction on its own."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from factstore.errors import ExtractorError
from factstore.extractors.base import ExtractedFact, ExtractionContext, Extractor
from factstore.extractors.ollama import (
    EXTRACTION_SCHEMA,
    OllamaExtractor,
    load_prompt_template,
    parse_extraction,
)
from factstore.kinds import KIND_COLUMNS, PER_KIND_COLUMNS, Kind
from tests.ollama_standin import OllamaStandIn, closed_port_host

CAPTURE = (
    "We parked the Redis upgrade until the 7.2 client ships. "
    "The nightly run passed 98 of 100 checks."
)
CONTEXT = ExtractionContext(source_type="capture", said_at=datetime(2024, 5, 1, 9, 30, tzinfo=UTC))
PRECISION_RULE = (
    "Extract only what the text explicitly asserts, never an inferred scope, owner, risk, or value."
)


def answer(*facts: dict[str, Any]) -> str:
    return json.dumps({"facts": list(facts)})


DECISION = {
    "statement": "The Redis upgrade is parked until the 7.2 client ships.",
    "kind": "DECISION",
    "quote": "We parked the Redis upgrade until the 7.2 client ships",
    "topics": ["Redis upgrade", "Redis 7.2 client"],
    "scope": None,
    "status_detail": "parked-with-trigger",
    "trigger_predicate": "the 7.2 client ships",
    "supersedes": False,
}
EVENT = {
    "statement": "The nightly run passed 98 of 100 checks.",
    "kind": "event",  # lower-case kinds are accepted
    "quote": "The nightly run passed 98 of 100 checks",
    "topics": ["nightly run"],
}


@pytest.fixture
def standin() -> Iterator[OllamaStandIn]:
    with OllamaStandIn(models={"llama3.1:8b", "qwen2.5:7b"}) as server:
        yield server


@pytest.fixture
def extractor(standin: OllamaStandIn) -> OllamaExtractor:
    return OllamaExtractor(host=standin.host)


# -- the call ----------------------------------------------------------------------------------


def test_extracts_scripted_facts(standin: OllamaStandIn, extractor: OllamaExtractor) -> None:
    standin.script(answer(DECISION, EVENT))
    facts = extractor.extract(CAPTURE, CONTEXT)
    assert [f.kind for f in facts] == ["DECISION", "EVENT"]
    decision, event = facts
    assert isinstance(decision, ExtractedFact)
    assert decision.statement == DECISION["statement"]
    assert decision.quote == DECISION["quote"]
    assert decision.topics == ("Redis upgrade", "Redis 7.2 client")
    assert decision.status_detail == "parked-with-trigger"
    assert decision.trigger_predicate == "the 7.2 client ships"
    assert decision.scope is None
    assert decision.supersedes is False
    assert event.topics == ("nightly run",)
    assert extractor.last_rejected == []


def test_request_carries_schema_temperature_and_prompt(
    standin: OllamaStandIn, extractor: OllamaExtractor
) -> None:
    extractor.extract(CAPTURE, CONTEXT)
    (body,) = standin.chat_requests
    assert body["model"] == "llama3.1:8b"
    assert body["format"] == EXTRACTION_SCHEMA
    assert body["options"]["temperature"] == 0
    assert body["stream"] is False
    (message,) = body["messages"]
    assert message["role"] == "user"
    assert message["content"] == extractor.prompt_for(CAPTURE, CONTEXT)
    assert CAPTURE in message["content"]


def test_caller_options_are_merged(standin: OllamaStandIn) -> None:
    extractor = OllamaExtractor(model="qwen2.5:7b", host=standin.host, options={"num_ctx": 8192})
    assert extractor.name == "ollama/qwen2.5:7b"
    extractor.extract(CAPTURE, CONTEXT)
    options = standin.chat_requests[0]["options"]
    assert options["num_ctx"] == 8192
    assert options["temperature"] == 0


def test_raw_call_returns_content_unparsed(
    standin: OllamaStandIn, extractor: OllamaExtractor
) -> None:
    standin.script("not json at all")
    assert extractor.raw_call(CAPTURE, CONTEXT) == "not json at all"


def test_blank_text_makes_no_call(standin: OllamaStandIn, extractor: OllamaExtractor) -> None:
    assert extractor.extract("   \n", CONTEXT) == []
    assert standin.chat_requests == []


def test_is_an_extractor(extractor: OllamaExtractor) -> None:
    assert isinstance(extractor, Extractor)
    assert extractor.name == "ollama/llama3.1:8b"


# -- the prompt --------------------------------------------------------------------------------


def test_prompt_has_one_worked_example_and_the_rules(extractor: OllamaExtractor) -> None:
    prompt = extractor.prompt_for(CAPTURE, CONTEXT)
    assert prompt.count("WORKED EXAMPLE") == 1
    assert prompt.count("Example text:") == 1
    assert prompt.count("Example output") == 1
    assert PRECISION_RULE in prompt
    assert "untypeable, vague or purely narrative content yields nothing" in prompt.lower()
    assert "quote must be copied verbatim from the text" in prompt
    assert "never split one assertion (an inventory sentence, a compound statement)" in prompt
    assert (
        "set supersedes true only when the text explicitly says it replaces a prior belief"
        in prompt
    )
    assert "An EVENT's outcomes (counts, checks, scores) belong inside that EVENT" in prompt
    assert "never the scribe or model name" in prompt
    assert prompt.rstrip().endswith(CAPTURE)
    assert "2024-05-01T09:30:00+00:00" in prompt
    assert "capture" in prompt
    for placeholder in ("{text}", "{said_at}", "{source_type}"):
        assert placeholder not in prompt


def test_prompt_example_output_is_valid_and_parses() -> None:
    # The worked example must itself satisfy the parser, or it teaches the model bad output.
    template = load_prompt_template()
    start = template.index('{"facts": [', template.index("Example output"))
    end = template.index("\n]}", start) + len("\n]}")
    facts, rejected = parse_extraction(template[start:end])
    assert rejected == []
    assert {f.kind for f in facts} == {k.value for k in Kind}
    example_text = template.split("Example text:\n", 1)[1].split("\n", 1)[0]
    for fact in facts:
        assert fact.quote in example_text
        assert not fact.meta.get("dropped_fields"), fact


def test_prompt_names_every_kind_and_its_columns() -> None:
    template = load_prompt_template()
    for kind, columns in KIND_COLUMNS.items():
        assert f"- {kind.value}:" in template
        for column in columns:
            assert f"{column}:" in template


def test_placeholders_inside_the_capture_are_not_substituted(extractor: OllamaExtractor) -> None:
    text = "Literal {said_at} and {text} stay as written."
    prompt = extractor.prompt_for(text, ExtractionContext())
    assert prompt.rstrip().endswith(text)
    assert "Said at: unknown" in prompt


# -- parsing -----------------------------------------------------------------------------------


def test_bad_json_raises_with_a_preview(standin: OllamaStandIn, extractor: OllamaExtractor) -> None:
    garbage = "Sure! Here are the facts: " + "x" * 300 + "TAIL"
    standin.script(garbage)
    with pytest.raises(ExtractorError) as info:
        extractor.extract(CAPTURE, CONTEXT)
    message = str(info.value)
    assert garbage[:200] in message
    assert "TAIL" not in message


@pytest.mark.parametrize("content", ['{"items": []}', "[]", '{"facts": {"a": 1}}', '"facts"', ""])
def test_wrong_top_level_shape_raises(content: str) -> None:
    with pytest.raises(ExtractorError):
        parse_extraction(content)


def test_bad_items_are_skipped_and_recorded(
    standin: OllamaStandIn, extractor: OllamaExtractor
) -> None:
    bogus_kind = {"statement": "Something.", "kind": "OPINION", "quote": "Something"}
    no_quote = {"statement": "Another thing.", "kind": "STATE"}
    standin.script(answer(bogus_kind, DECISION, no_quote, "loose string"))
    facts = extractor.extract(CAPTURE, CONTEXT)
    assert [f.kind for f in facts] == ["DECISION"]
    reasons = [reason for _, reason in extractor.last_rejected]
    assert len(reasons) == 3
    assert extractor.last_rejected[0][0] == bogus_kind
    assert "unknown kind 'OPINION'" in reasons[0]
    assert extractor.last_rejected[1][0] == no_quote
    assert "'quote'" in reasons[1]
    assert "not an object" in reasons[2]
    # A following clean call resets the record.
    standin.script(answer(EVENT))
    extractor.extract(CAPTURE, CONTEXT)
    assert extractor.last_rejected == []


def test_columns_a_kind_does_not_own_are_dropped() -> None:
    rule = {
        "statement": "Never deploy on Fridays.",
        "kind": "RULE",
        "quote": "Never deploy on Fridays",
        "earned_by": "the March outage",
        "scope": "all services",  # RULE does not own scope
        "risk_weight": "high",  # nor risk_weight
    }
    state = {
        "statement": "Staging is down.",
        "kind": "STATE",
        "quote": "Staging is down",
        "subject": "staging",
        "expected_lifetime": "2d",
    }
    decision = {**DECISION, "status_detail": "maybe"}  # not a valid status_detail
    (rule_fact, state_fact, decision_fact), rejected = parse_extraction(
        answer(rule, state, decision)
    )
    assert rejected == []
    assert rule_fact.earned_by == "the March outage"
    assert rule_fact.scope is None and rule_fact.risk_weight is None
    assert rule_fact.meta["dropped_fields"] == ["scope", "risk_weight"]
    assert (state_fact.subject, state_fact.expected_lifetime) == ("staging", "2d")
    assert state_fact.meta == {}
    assert decision_fact.status_detail is None
    assert decision_fact.meta["dropped_fields"] == ["status_detail"]


def test_loose_values_are_coerced() -> None:
    residual = {
        "statement": "Retries may drop messages.",
        "kind": "RESIDUAL",
        "quote": "  Retries may drop messages  ",
        "topics": "retries",  # a bare string, not a list
        "risk_weight": "  ",  # blank means not stated
        "trigger_predicate": "the broker restarts",
        "supersedes": "true",
    }
    event = {**EVENT, "topics": ["nightly run", "", "nightly run", 7], "supersedes": None}
    (fact, event_fact), rejected = parse_extraction(answer(residual, event))
    assert rejected == []
    assert fact.quote == "Retries may drop messages"
    assert fact.topics == ("retries",)
    assert fact.risk_weight is None
    assert fact.trigger_predicate == "the broker restarts"
    assert fact.supersedes is True
    assert fact.meta == {}
    assert event_fact.topics == ("nightly run",)
    assert event_fact.supersedes is False


def test_fenced_json_is_accepted() -> None:
    facts, _ = parse_extraction("```json\n" + answer(EVENT) + "\n```")
    assert [f.kind for f in facts] == ["EVENT"]


def test_empty_fact_list_is_fine() -> None:
    assert parse_extraction('{"facts": []}') == ([], [])


# -- the schema --------------------------------------------------------------------------------


def test_schema_shape() -> None:
    assert EXTRACTION_SCHEMA["required"] == ["facts"]
    items = EXTRACTION_SCHEMA["properties"]["facts"]["items"]
    assert items["required"] == ["statement", "kind", "quote"]
    properties = items["properties"]
    assert properties["kind"]["enum"] == [k.value for k in Kind]
    assert properties["topics"] == {"type": "array", "items": {"type": "string"}}
    assert properties["supersedes"] == {"type": "boolean"}
    for column in PER_KIND_COLUMNS:
        assert properties[column] == {"type": ["string", "null"]}
    json.dumps(EXTRACTION_SCHEMA)  # must be plain JSON to travel as `format`


# -- failures ----------------------------------------------------------------------------------


def test_connection_refused_names_the_host() -> None:
    host = closed_port_host()
    extractor = OllamaExtractor(host=host, timeout=5)
    with pytest.raises(ExtractorError) as info:
        extractor.extract(CAPTURE, CONTEXT)
    assert host in str(info.value)
    assert "ollama serve" in str(info.value)


def test_missing_model_says_pull_it(standin: OllamaStandIn) -> None:
    extractor = OllamaExtractor(model="mistral:7b", host=standin.host)
    with pytest.raises(ExtractorError) as info:
        extractor.extract(CAPTURE, CONTEXT)
    assert "model 'mistral:7b' not found" in str(info.value)
    assert "ollama pull mistral:7b" in str(info.value)


def test_slow_server_times_out(standin: OllamaStandIn) -> None:
    def slow(body: dict[str, Any]) -> str:
        time.sleep(1.0)
        return '{"facts": []}'

    standin.reply_with(slow)
    extractor = OllamaExtractor(host=standin.host, timeout=0.2)
    with pytest.raises(ExtractorError, match="did not answer within"):
        extractor.extract(CAPTURE, CONTEXT)
