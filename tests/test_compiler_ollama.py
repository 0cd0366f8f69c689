"""The model compiler (``--compiler ollama[:model]``) against the loopback Ollama stand-in:
the real ``ollama`` client, a scripted server. It sees EXISTING FACTS by id, may end them,
and an id it was not shown is refused; cassettes record its answers and replay them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from factstore.compiler import compiler_from_name
from factstore.compiler.ollama import COMPILE_SCHEMA, OllamaCompiler
from factstore.compiler.reconcile import Current
from factstore.compiler.replay import RecordingCompiler, ReplayCompiler, read_cassette
from factstore.errors import ExtractorError, InvalidInput
from tests.ollama_standin import OllamaStandIn, closed_port_host

MODEL = "llama3.1:8b"
SAID = datetime(2026, 6, 10, 9, tzinfo=UTC)
PORTO = Current(41, "person/nick", "lives_in", "Porto", None, "one", None,
                datetime(2025, 2, 10, tzinfo=UTC))


def answer(facts: list[dict], ended: list[dict] | None = None) -> str:
    return json.dumps({"facts": facts, "ended": ended or []})


@pytest.fixture
def standin() -> Iterator[OllamaStandIn]:
    with OllamaStandIn(models={MODEL}) as server_:
        yield server_


@pytest.fixture
def compiler(standin: OllamaStandIn) -> OllamaCompiler:
    return OllamaCompiler(MODEL, host=standin.host, timeout=5)


def test_one_schema_constrained_call_with_existing_facts_by_id(standin, compiler) -> None:
    standin.script(answer([{"subject": "we", "subject_type": "person", "attribute": "lives_in",
                            "value": "Lisbon", "valid_from": "2026-03",
                            "quote": "We moved to Lisbon in March"}],
                          [{"id": 41, "valid_to": "2026-03"}]))
    result = compiler.compile("We moved to Lisbon in March.", SAID, [PORTO])
    request = standin.chat_requests[0]
    assert request["format"] == COMPILE_SCHEMA and request["options"]["temperature"] == 0
    prompt = request["messages"][0]["content"]
    assert "41: lives_in(person/nick) = Porto" in prompt and "2026-06-10" in prompt
    assert [(d.subject.kind, d.attribute, d.value, d.time.date) for d in result.drafts] == \
        [("group", "lives_in", "Lisbon", "2026-03")]
    assert [(e.id, e.valid_to) for e in result.ended] == [(41, "2026-03")]


def test_an_id_it_was_not_shown_and_an_unquoted_fact_are_refused(standin, compiler) -> None:
    standin.script(answer([{"subject": "me", "attribute": "shoe_size", "value": "41",
                            "quote": "words that are not in the message"}],
                          [{"id": 999, "valid_to": "2026"}]))
    result = compiler.compile("my shoe size is now 41", SAID, [PORTO])
    assert result.drafts == () and result.ended == ()
    reasons = " | ".join(r.reason for r in result.refusals)
    assert "not in the message" in reasons and "#999 was not among" in reasons


def test_a_chat_is_asked_one_turn_at_a_time_as_its_speaker(standin, compiler) -> None:
    standin.script(answer([]), answer([{"subject": "me", "attribute": "employer",
                                        "value": "Initech", "quote": "I joined Initech"}]))
    result = compiler.compile("Ana: any news?\nBen: I joined Initech last month", SAID)
    assert len(standin.chat_requests) == 2
    assert "The speaker is Ben" in standin.chat_requests[1]["messages"][0]["content"]
    assert [(d.subject.name, d.value) for d in result.drafts] == [("Ben", "Initech")]


def test_not_json_and_a_server_that_is_down_raise_typed_errors(standin, compiler) -> None:
    standin.script("this is not json")
    with pytest.raises(ExtractorError, match="not JSON"):
        compiler.compile("We live in Porto.", SAID)
    down = OllamaCompiler(MODEL, host=closed_port_host(), timeout=2)
    with pytest.raises(ExtractorError):
        down.compile("We live in Porto.", SAID)


def test_a_cassette_records_once_and_replays_without_the_model(standin, compiler,
                                                               tmp_path: Path) -> None:
    cassette = tmp_path / "compile.jsonl"
    reply = answer([{"subject": "web-1", "subject_type": "system", "attribute": "replicas",
                     "value": "7", "quote": "web-1 is now running 7 replicas"}])
    standin.script(reply, reply)
    recording = RecordingCompiler(compiler, cassette)
    first = recording.compile("web-1 is now running 7 replicas.", SAID)
    recording.compile("web-1 is now running 7 replicas.", SAID)  # same answer: not appended
    assert len(read_cassette(cassette)) == 1
    assert len(cassette.read_text().splitlines()) == 1
    replay = ReplayCompiler(cassette, OllamaCompiler(MODEL, host=closed_port_host()))
    assert replay.compile("web-1 is now running 7 replicas.", SAID).drafts == first.drafts
    with pytest.raises(ExtractorError, match="no recording"):
        replay.compile("web-2 is now running 3 replicas.", SAID)


def test_names_choose_a_compiler() -> None:
    assert compiler_from_name("parser").name == "compiler/parser-v1"
    assert compiler_from_name("none") is None
    assert compiler_from_name("ollama:qwen2.5").name == "compiler/ollama:qwen2.5"
    with pytest.raises(InvalidInput, match="unknown compiler"):
        compiler_from_name("gpt")


def test_through_the_store_a_model_ends_what_it_was_shown(open_store, standin) -> None:
    store = open_store(compiler=OllamaCompiler(MODEL, host=standin.host, timeout=5),
                       user_id="nick")
    standin.script(answer([{"subject": "we", "attribute": "lives_in", "value": "Porto",
                            "quote": "We live in Porto"}]))
    store.remember("We live in Porto.", said_at="2025-02-10T09:00:00Z")
    porto = store.facts("person/nick", "lives_in").keys[0].current[0]

    def reply(request: dict) -> str:
        # the model answers with what it was shown: it ends the id listed in the prompt
        assert f"{porto.id}: lives_in(person/nick) = Porto" in \
            request["messages"][0]["content"]
        return answer([{"subject": "we", "attribute": "lives_in", "value": "Lisbon",
                        "valid_from": "2026-03", "quote": "We moved to Lisbon in March"}],
                      [{"id": porto.id, "valid_to": "2026-03"}])

    standin.reply_with(reply)
    store.remember("We moved to Lisbon in March.", said_at="2026-06-10T09:00:00Z")
    key = store.facts("person/nick", "lives_in").keys[0]
    assert [f.value for f in key.current] == ["Lisbon"]
    assert [f.value for f in store.facts("person/nick", "lives_in",
                                         as_of="2025-12").keys[0].current] == ["Porto"]
    assert store.compile_log(outcome="ended")[0].fact_id == porto.id
