"""OllamaExtractor against the loopback stand-in, and parse_extraction on its own."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from factstore.errors import ExtractorError
from factstore.extractors.base import ExtractedFact, ExtractionContext, Extractor
from factstore.extractors.ollama import (
    EXTRACTION_SCHEMA,
    TURN_SEPARATOR,
    OllamaExtractor,
    load_prompt_template,
    parse_extraction,
)
from factstore.extractors.turns import split_turns
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
    assert items["required"] == ["statement", "kind", "quote", "subject", "predicate", "object",
                                 "negated"]
    properties = items["properties"]
    assert properties["predicate"] == properties["object"] == {"type": ["string", "null"]}
    assert properties["negated"] == {"type": ["boolean", "null"]}
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


# -- the role fields ---------------------------------------------------------------------------


def test_role_fields_are_parsed_and_bad_ones_cleared() -> None:
    moved = {
        "statement": "payments-api moved to Postgres 16.",
        "kind": "EVENT",
        "quote": "We moved payments-api to Postgres 16",
        "subject": "payments-api",  # any kind names its subject; only STATE owns the column
        "predicate": " moved ",
        "object": "to Postgres 16",
        "negated": False,
    }
    rule = {
        "statement": "Never deploy on Fridays.",
        "kind": "RULE",
        "quote": "Never deploy on Fridays",
        "subject": "  ",  # blank is "not stated"
        "predicate": "",
        "object": None,
        "negated": True,
    }
    bad = {
        "statement": "Staging is not down.",
        "kind": "STATE",
        "quote": "Staging is not down",
        "subject": "staging",
        "predicate": ["is", "not"],  # unusable: cleared and recorded
        "object": {"state": "down"},
        "negated": "yes",  # not a bool: cleared to None, never guessed
    }
    bare = {"statement": "Priya prefers tabs.", "kind": "PREFERENCE", "quote": "Priya prefers tabs"}
    (moved_fact, rule_fact, bad_fact, bare_fact), rejected = parse_extraction(
        answer(moved, rule, bad, bare)
    )
    assert rejected == []
    assert (moved_fact.subject, moved_fact.predicate, moved_fact.object, moved_fact.negated) == (
        "payments-api", "moved", "to Postgres 16", False)
    assert moved_fact.meta == {}
    assert (rule_fact.subject, rule_fact.predicate, rule_fact.object, rule_fact.negated) == (
        None, None, None, True)
    assert rule_fact.meta == {}
    assert bad_fact.subject == "staging"
    assert (bad_fact.predicate, bad_fact.object, bad_fact.negated) == (None, None, None)
    assert bad_fact.meta["dropped_fields"] == ["predicate", "object", "negated"]
    assert (bare_fact.predicate, bare_fact.object, bare_fact.negated) == (None, None, None)
    assert bare_fact.asserter is None and bare_fact.meta == {}


def test_prompt_asks_for_the_role_fields_and_the_speaker_rules() -> None:
    template = load_prompt_template()
    for field in ("subject:", "predicate:", "object:", "negated:"):
        assert f"- {field}" in template
    assert '"not", "no", "never", "without"' in template
    assert "third person" in template
    assert "Never propose a speaker's name as a topic" in template
    assert 'never with a "name:" prefix' in template
    assert PRECISION_RULE in template
    assert "{speaker}" in template


# -- chats: one call per turn ------------------------------------------------------------------

CHAT = (
    "alice: I moved payments-api to Postgres 16 last night.\n"
    "bob: We never deploy on Fridays.\n"
    "  The March outage started with one.\n"
    "Carol Diaz: I prefer squash merges; Bob agrees.\n"
)
SPEAKERS = ("alice", "bob", "Carol Diaz")
_SPEAKER_PREFIX = re.compile(r"(?:alice|bob|carol diaz)\s*:", re.IGNORECASE)
_SPEAKER_LINE = re.compile(r'The speaker is (.+)\. Write statements in the third person: "I" is')


def turn_text(body: dict[str, Any]) -> str:
    """The text a request asked about (what follows the prompt's TEXT header)."""
    return body["messages"][0]["content"].rsplit("\nTEXT\n", 1)[1].removesuffix("\n")


def speaker_of(body: dict[str, Any]) -> str | None:
    match = _SPEAKER_LINE.search(body["messages"][0]["content"])
    return match.group(1) if match else None


def chat_reply(body: dict[str, Any]) -> str:
    """A model that makes every mistake a speaker prefix invites."""
    speaker, text = speaker_of(body), turn_text(body)
    if speaker == "alice":
        return answer({
            "statement": "alice: alice moved payments-api to Postgres 16.",
            "kind": "EVENT",
            "quote": "alice: I moved payments-api to Postgres 16 last night",
            "topics": ["alice", "payments-api", "alice: Postgres 16", "ALICE"],
            "subject": "alice: payments-api",
            "predicate": "moved",
            "object": "payments-api to Postgres 16",
            "negated": False,
        })
    if speaker == "bob":
        return answer({
            "statement": "bob never deploys on Fridays.",
            "kind": "RULE",
            "quote": "We never deploy on Fridays",
            "topics": ["deploys", "Bob"],
            "subject": "deploys",
            "predicate": "never deploy",
            "object": "on Fridays",
            "negated": "sometimes",
            "earned_by": "The March outage started with one",
        })
    assert speaker == "Carol Diaz", (speaker, text)
    return answer({
        "statement": "Carol Diaz prefers squash merges.",
        "kind": "PREFERENCE",
        "quote": "I prefer squash merges",
        "topics": ["carol  diaz", "squash merges", "bob"],
        "subject": "Carol Diaz",
        "predicate": "prefers",
        "object": "squash merges",
        "negated": False,
    })


def test_a_chat_is_asked_about_one_turn_at_a_time(
    standin: OllamaStandIn, extractor: OllamaExtractor
) -> None:
    standin.reply_with(chat_reply)
    facts = extractor.extract(CHAT, CONTEXT)
    turns = split_turns(CHAT)
    assert [t.speaker for t in turns] == list(SPEAKERS)
    requests = standin.chat_requests
    assert len(requests) == 3
    prompts = extractor.turn_prompts(CHAT, CONTEXT)
    for body, turn, (_, prompt) in zip(requests, turns, prompts, strict=True):
        content = body["messages"][0]["content"]
        assert content == prompt
        assert f'The speaker is {turn.speaker}. Write statements in the third person: "I" is ' \
               f"{turn.speaker}." in content
        assert turn_text(body) == turn.text
        assert not _SPEAKER_PREFIX.search(turn_text(body))
        for other in turns:
            if other is not turn:
                assert other.text not in content
    # The continuation line stays in bob's turn, never a turn of its own.
    assert "The March outage started with one." in turn_text(requests[1])
    assert extractor.prompt_for(CHAT, CONTEXT) == TURN_SEPARATOR.join(p for _, p in prompts)

    alice, bob, carol = facts
    for fact, turn in zip(facts, turns, strict=True):
        assert fact.asserter == turn.speaker
        assert fact.quote in turn.text
        assert fact.quote in CHAT[turn.start:turn.end]
        assert fact.meta["turn_span"] == [turn.start, turn.end]
        for value in (fact.statement, fact.quote, fact.subject or "", *fact.topics):
            assert not _SPEAKER_PREFIX.search(value), value
        assert not {t.casefold() for t in fact.topics} & {s.casefold() for s in SPEAKERS}
    assert alice.statement == "alice moved payments-api to Postgres 16."
    assert alice.quote == "I moved payments-api to Postgres 16 last night"
    assert alice.subject == "payments-api"
    assert alice.topics == ("payments-api", "Postgres 16")
    assert alice.meta["dropped_topics"] == [
        {"topic": "alice", "reason": "speaker name"},
        {"topic": "ALICE", "reason": "speaker name"},
    ]
    assert (alice.predicate, alice.object, alice.negated) == (
        "moved", "payments-api to Postgres 16", False)
    # A speaker named inside another speaker's turn is still a speaker, never a tag.
    assert bob.topics == ("deploys",)
    assert bob.meta["dropped_topics"] == [{"topic": "Bob", "reason": "speaker name"}]
    assert bob.negated is None and bob.meta["dropped_fields"] == ["negated"]
    assert bob.earned_by == "The March outage started with one"
    assert carol.topics == ("squash merges",)
    assert carol.meta["dropped_topics"] == [
        {"topic": "carol  diaz", "reason": "speaker name"},
        {"topic": "bob", "reason": "speaker name"},
    ]
    assert carol.subject == "Carol Diaz"  # the fact is about her: a subject, not a tag
    assert extractor.last_rejected == []


def test_a_quote_from_another_turn_is_rejected(
    standin: OllamaStandIn, extractor: OllamaExtractor
) -> None:
    stolen = {"statement": "bob moved payments-api.", "kind": "EVENT",
              "quote": "I moved payments-api to Postgres 16 last night"}
    standin.script(answer(), answer(stolen, {**stolen, "quote": "We never deploy on Fridays"}),
                   answer())
    (fact,) = extractor.extract(CHAT, CONTEXT)
    assert fact.asserter == "bob" and fact.quote == "We never deploy on Fridays"
    ((item, reason),) = extractor.last_rejected
    assert item["quote"] == stolen["quote"]
    assert reason.startswith("turn 2 (bob): ")
    assert "does not occur in the turn's own text" in reason


def test_a_chat_turn_that_fails_names_the_turn(
    standin: OllamaStandIn, extractor: OllamaExtractor
) -> None:
    standin.script(answer(), "not json")
    with pytest.raises(ExtractorError, match=r"^turn 2 \(bob\): the model's answer is not JSON"):
        extractor.extract(CHAT, CONTEXT)


def test_prose_is_one_call_with_no_speaker(
    standin: OllamaStandIn, extractor: OllamaExtractor
) -> None:
    standin.script(answer(DECISION, {**EVENT, "topics": ["nightly run", "alice"]}))
    facts = extractor.extract(CAPTURE, CONTEXT)
    (body,) = standin.chat_requests
    content = body["messages"][0]["content"]
    assert "The speaker is" not in content
    assert "Source type: capture\n\nTEXT\n" in content
    assert turn_text(body) == CAPTURE
    assert content == extractor.prompt_for(CAPTURE, CONTEXT)
    assert [f.asserter for f in facts] == [None, None]
    assert all("turn_span" not in f.meta for f in facts)
    assert facts[1].topics == ("nightly run", "alice")  # no speakers, so nothing is one


def test_a_labelled_line_is_prose_not_a_speaker(
    standin: OllamaStandIn, extractor: OllamaExtractor
) -> None:
    extractor.extract("Decision: we ship on Friday.", CONTEXT)
    (body,) = standin.chat_requests
    assert speaker_of(body) is None
    assert turn_text(body) == "Decision: we ship on Friday."


# -- a population of chats ---------------------------------------------------------------------

POPULATION_SPEAKERS = ("alice", "Bob", "Dr. Chen", "priya", "Eve Moreau")
POPULATION_LINES = (
    "I agree.",
    "I moved the payments-api to Postgres 16.",
    "We never deploy on Fridays.",
    "The staging cluster is read-only until Monday.",
    "I prefer squash merges.",
    "The runbook lives at docs/runbook.md.",
    "I agree.",  # repeated on purpose: the same words occur in many turns
)


def generated_chat(turns: int, seed: int) -> tuple[str, list[tuple[str, int, int]]]:
    """A chat and, for each turn, (speaker, start, end) of its text, computed while writing."""
    rng = random.Random(seed)
    parts: list[str] = []
    spans: list[tuple[str, int, int]] = []
    position = 0
    for index in range(turns):
        speaker = POPULATION_SPEAKERS[index % len(POPULATION_SPEAKERS)] if index < 5 else \
            rng.choice(POPULATION_SPEAKERS)
        body = f"{rng.choice(POPULATION_LINES)} Item {index} is on {speaker}'s list."
        if rng.random() < 0.3:
            body += "\n   " + rng.choice(POPULATION_LINES)  # a continuation line
        prefix = f"[10:{index:02d}] {speaker}: " if rng.random() < 0.2 else f"{speaker}: "
        start = position + len(prefix)
        spans.append((speaker, start, start + len(body)))
        line = prefix + body + "\n"
        parts.append(line)
        position += len(line)
    return "".join(parts), spans


def echo_reply(body: dict[str, Any]) -> str:
    """Echo one fact per turn: its first sentence, tagged (wrongly) with the speaker."""
    speaker, text = speaker_of(body), turn_text(body)
    assert speaker is not None
    quote = text.split(".", 1)[0]
    return answer({
        "statement": f"{speaker}: {speaker} says {quote}.",
        "kind": "EVENT",
        "quote": quote,
        "topics": [speaker, f"{speaker}: item", speaker.upper()],
        "subject": f"{speaker}: item",
        "predicate": "says",
        "object": quote,
        "negated": "never" in quote,
    })


def test_a_population_of_turns_each_yields_facts_only_from_itself(
    standin: OllamaStandIn, extractor: OllamaExtractor
) -> None:
    standin.reply_with(echo_reply)
    for seed in range(3):
        chat, spans = generated_chat(30, seed)
        turns = split_turns(chat)
        assert [(t.speaker, t.start, t.end) for t in turns] == spans
        before = len(standin.chat_requests)
        facts = extractor.extract(chat, CONTEXT)
        requests = standin.chat_requests[before:]
        assert len(requests) == len(facts) == 30
        voices = {s.casefold() for s in POPULATION_SPEAKERS}
        for fact, body, (speaker, start, end) in zip(facts, requests, spans, strict=True):
            assert speaker_of(body) == speaker
            assert turn_text(body) == chat[start:end]
            assert fact.asserter == speaker
            assert fact.meta["turn_span"] == [start, end]
            assert fact.quote in chat[start:end]
            assert fact.statement == f"{speaker} says {fact.quote}."
            assert fact.subject == "item" and fact.topics == ("item",)
            assert [d["topic"] for d in fact.meta["dropped_topics"]] == [speaker, speaker.upper()]
            assert not voices & {t.casefold() for t in fact.topics}
            assert fact.negated is ("never" in fact.quote)
        assert extractor.last_rejected == []


# -- mentions and relations --------------------------------------------------------------------

HIRED = {
    "statement": "Dana Reyes joined Initech as its payments lead.",
    "kind": "EVENT",
    "quote": "Dana Reyes joined Initech as its payments lead",
    "subject": "Dana Reyes",
    "predicate": "joined",
    "object": "Initech as its payments lead",
    "negated": False,
    "mentions": [{"name": "Dana Reyes", "type": "Person"},
                 {"name": " Initech ", "type": "organization"},  # trimmed, type case-folded
                 {"name": "Dana Reyes", "type": "Person"}],  # a repeat is kept once
    "relations": [{"subject": "Dana Reyes", "predicate": "joined", "object": "Initech"},
                  {"subject": "Dana Reyes", "predicate": "Works at", "object": "Initech"}],
}


def test_mentions_and_relations_are_parsed_into_tuples() -> None:
    (fact,), rejected = parse_extraction(answer(HIRED))
    assert rejected == []
    assert fact.mentions == (("Dana Reyes", "Person"), ("Initech", "Organization"))
    assert fact.relations == (("Dana Reyes", "joined", "Initech"),
                              ("Dana Reyes", "works_at", "Initech"))
    assert fact.meta == {}
    (bare,), _ = parse_extraction(answer(EVENT))  # none said: empty, nothing recorded
    assert (bare.mentions, bare.relations, bare.meta) == ((), (), {})


def test_bad_mentions_and_relations_are_dropped_and_recorded() -> None:
    loose = {
        **HIRED,
        "mentions": [
            "Dana Reyes",  # a bare name: kept, untyped
            {"name": "  ", "type": "Person"},  # no name: dropped
            {"name": "Initech", "type": "a company!"},  # unusable type: name kept, untyped
            {"type": "Place"},  # no name: dropped
            42,  # not an entry: dropped
            {"name": "Initech", "type": None},  # same as the kept one above: once
        ],
        "relations": [
            {"subject": "Dana Reyes", "predicate": "hired_by", "object": "Initech"},  # unknown
            {"subject": "Dana Reyes", "predicate": "joined"},  # no object
            ["Dana Reyes", "joined", "Initech"],  # a triple as a list is fine
            "Dana Reyes joined Initech",  # prose: dropped
        ],
    }
    (fact,), rejected = parse_extraction(answer(loose))
    assert rejected == []  # a bad mention never costs the fact
    assert fact.mentions == (("Dana Reyes", None), ("Initech", None))
    assert fact.relations == (("Dana Reyes", "joined", "Initech"),)
    assert fact.meta["dropped_fields"] == [
        "mentions[1]", "mentions[2].type", "mentions[3]", "mentions[4]",
        "relations[0]", "relations[1]", "relations[3]"]
    (shapeless,), _ = parse_extraction(answer({**HIRED, "mentions": "Dana Reyes, Initech",
                                               "relations": {"subject": "Dana Reyes"}}))
    assert (shapeless.mentions, shapeless.relations) == ((), ())
    assert shapeless.meta["dropped_fields"] == ["mentions", "relations"]


def test_parsed_mentions_pass_the_write_paths_check() -> None:
    from factstore.entities.drafts import entity_fields

    (fact,), _ = parse_extraction(answer({
        **HIRED, "mentions": [*HIRED["mentions"], {"name": "Globex", "type": "Organization"}]}))
    drafts, relations, cleared = entity_fields(fact.mentions, fact.relations, quote=fact.quote,
                                               speaker=None, subject=fact.subject)
    assert [(d.name, d.entity_type) for d in drafts] == [("Dana Reyes", "Person"),
                                                         ("Initech", "Organization")]
    assert relations == (("Dana Reyes", "joined", "Initech"),
                         ("Dana Reyes", "works_at", "Initech"))
    # Globex is not in the quote: the write path clears it, the parser leaves that to it.
    assert [c["field"] for c in cleared] == ["mentions"]


def test_schema_offers_mentions_and_relations_without_requiring_them() -> None:
    from factstore.entities.model import ENTITY_TYPES, PREDICATES

    items = EXTRACTION_SCHEMA["properties"]["facts"]["items"]
    mentions = items["properties"]["mentions"]
    relations = items["properties"]["relations"]
    assert mentions["items"]["properties"]["type"]["enum"] == [*ENTITY_TYPES, None]
    assert mentions["items"]["required"] == ["name", "type"]
    assert relations["items"]["properties"]["predicate"]["enum"] == list(PREDICATES)
    assert relations["items"]["required"] == ["subject", "predicate", "object"]
    assert "mentions" not in items["required"] and "relations" not in items["required"]


def test_prompt_asks_for_mentions_and_lists_every_predicate(extractor: OllamaExtractor) -> None:
    from factstore.entities.model import ENTITY_TYPES, PREDICATES

    prompt = extractor.prompt_for(CAPTURE, CONTEXT)
    assert "- mentions:" in prompt and "- relations:" in prompt
    assert "{predicates}" not in prompt
    assert "predicate is one of: " + ", ".join(PREDICATES) + "." in prompt
    for kind in ENTITY_TYPES:
        assert kind in prompt
    assert "never a pronoun" in prompt
    # the template keeps the placeholder, so the vocabulary has one definition
    assert "{predicates}" in load_prompt_template()


def test_prompt_example_mentions_are_verbatim_and_its_relation_is_valid() -> None:
    from factstore.entities.drafts import entity_fields

    template = load_prompt_template()
    start = template.index('{"facts": [', template.index("Example output"))
    end = template.index("\n]}", start) + len("\n]}")
    facts, rejected = parse_extraction(template[start:end])
    assert rejected == []
    with_mentions = [f for f in facts if f.mentions]
    assert len(with_mentions) >= 3
    assert any(f.relations for f in facts)
    for fact in facts:
        _, relations, cleared = entity_fields(fact.mentions, fact.relations, quote=fact.quote,
                                              speaker=None, subject=fact.subject)
        assert cleared == [], fact
        assert len(relations) == len(fact.relations)


def test_mentions_reach_the_fact_through_a_chat_turn(standin: OllamaStandIn,
                                                     extractor: OllamaExtractor) -> None:
    said = {"statement": "bob reports to Carol Diaz.", "kind": "STATE",
            "quote": "I report to Carol Diaz", "subject": "bob", "predicate": "reports to",
            "object": "Carol Diaz", "negated": False,
            "mentions": [{"name": "Carol Diaz", "type": "Person"}],
            "relations": [{"subject": "bob", "predicate": "reports_to",
                           "object": "Carol Diaz"}]}
    standin.script(answer(said))
    (fact,) = extractor.extract("bob: I report to Carol Diaz.", CONTEXT)
    assert fact.asserter == "bob"
    assert fact.mentions == (("Carol Diaz", "Person"),)
    assert fact.relations == (("bob", "reports_to", "Carol Diaz"),)


def test_mentions_and_relations_survive_a_recording_and_its_replay(
        standin: OllamaStandIn, extractor: OllamaExtractor, tmp_path) -> None:
    from factstore.entities.drafts import entity_fields
    from factstore.extractors.replay import RecordingExtractor, ReplayExtractor

    text = "Dana Reyes joined Initech as its payments lead."
    cassette = tmp_path / "ollama.jsonl"
    standin.script(answer(HIRED))
    live = RecordingExtractor(extractor, cassette).extract(text, CONTEXT)
    standin.stop()  # only the cassette can answer now
    replayed = ReplayExtractor(cassette, prompt=extractor.prompt_for).extract(text, CONTEXT)
    assert replayed == live
    assert replayed[0].mentions == (("Dana Reyes", "Person"), ("Initech", "Organization"))
    assert all(isinstance(m, tuple) for m in replayed[0].mentions + replayed[0].relations)

    def drafts(fact: ExtractedFact) -> Any:
        return entity_fields(fact.mentions, fact.relations, quote=fact.quote, speaker=None,
                             subject=fact.subject)

    assert drafts(replayed[0]) == drafts(live[0])
