"""Cassettes: a recorded extractor replays exactly, offline, and misses say how to record."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from factstore.errors import ExtractorError, InvalidInput
from factstore.extractors.base import ExtractedFact, ExtractionContext
from factstore.extractors.replay import (
    RecordingExtractor,
    ReplayExtractor,
    cassette_key,
    read_cassette,
)
from tests.helpers import ScriptedExtractor, fact

CAPTURE = "The deploy runs on Fridays and the freeze starts in December"
RICH = ExtractedFact(
    statement="The freeze starts in December.", kind="RULE", quote="the freeze starts in December",
    topics=("release.freeze", "calendar"), trigger_predicate="it is December",
    risk_weight="high", subject="release", expected_lifetime="30d", supersedes=True,
    meta={"span": [31, 60], "note": "ünïcode", "nested": {"a": 1}})


def scripted(name: str = "scripted/test") -> ScriptedExtractor:
    extractor = ScriptedExtractor()
    extractor.name = name
    return extractor


class PromptedExtractor(ScriptedExtractor):
    """A scripted extractor that, like OllamaExtractor, has a prompt (the template is settable)."""

    name = "prompted/test"

    def __init__(self, template: str = "Extract facts from: {text}") -> None:
        super().__init__()
        self.template = template

    def prompt_for(self, text: str, context: ExtractionContext) -> str:
        return self.template.replace("{text}", text)


def test_cassette_key_is_canonical_and_depends_on_all_three_parts() -> None:
    key = cassette_key("m", "p", "t")
    assert key == cassette_key("m", "p", "t")
    assert len(key) == 64 and int(key, 16) >= 0
    assert len({key, cassette_key("m2", "p", "t"), cassette_key("m", "p2", "t"),
                cassette_key("m", "p", "t2")}) == 4
    # The parts are kept apart: moving text between fields is a different key.
    assert cassette_key("ab", "", "c") != cassette_key("a", "", "bc")


def test_replay_reproduces_a_recording_exactly(tmp_path: Path) -> None:
    cassette = tmp_path / "run.jsonl"
    inner = scripted()
    inner.add(CAPTURE, fact("The deploy runs on Fridays.", "STATE"), RICH)
    inner.add("nothing to see here")  # an empty answer is a recording too
    recorder = RecordingExtractor(inner, cassette)
    assert recorder.name == inner.name
    live = recorder.extract(CAPTURE, ExtractionContext())
    assert recorder.extract("nothing to see here", ExtractionContext()) == []

    inner.script.clear()  # the original is gone: only the cassette can answer now
    replay = ReplayExtractor(cassette)
    assert replay.name == "replay/scripted/test"
    replayed = replay.extract(CAPTURE, ExtractionContext())
    assert replayed == live
    assert replayed[1].topics == ("release.freeze", "calendar")  # tuples come back as tuples
    assert replay.extract("nothing to see here") == []
    # Fresh objects each time, so a caller mutating meta cannot change the next replay.
    replayed[1].meta["note"] = "changed"
    assert replay.extract(CAPTURE)[1].meta["note"] == "ünïcode"


def test_cassette_lines_are_sorted_json_with_the_documented_fields(tmp_path: Path) -> None:
    cassette = tmp_path / "run.jsonl"
    inner = scripted()
    inner.add(CAPTURE, RICH)
    RecordingExtractor(inner, cassette).extract(CAPTURE, ExtractionContext())
    (line,) = cassette.read_text(encoding="utf-8").splitlines()
    entry = json.loads(line)
    assert list(entry) == sorted(entry) == ["facts", "key", "model", "recorded_at", "text"]
    assert entry["key"] == cassette_key("scripted/test", "", CAPTURE)
    assert entry["model"] == "scripted/test" and entry["text"] == CAPTURE
    assert entry["facts"][0]["statement"] == RICH.statement
    assert list(entry["facts"][0]) == sorted(entry["facts"][0])
    assert datetime.fromisoformat(entry["recorded_at"]).tzinfo == UTC
    assert "ünïcode" in line  # written as UTF-8, readable in a diff


def test_a_missing_recording_names_the_text_and_how_to_record(tmp_path: Path) -> None:
    cassette = tmp_path / "run.jsonl"
    inner = scripted()
    inner.add("recorded", fact("Recorded."))
    RecordingExtractor(inner, cassette).extract("recorded", ExtractionContext())
    long_text = "an unrecorded capture " + "x" * 100
    with pytest.raises(ExtractorError) as caught:
        ReplayExtractor(cassette).extract(long_text, ExtractionContext())
    message = str(caught.value)
    assert repr(long_text[:60] + "…") in message
    assert long_text not in message  # only the first 60 characters
    assert "--record-cassette" in message and str(cassette) in message


def test_a_missing_cassette_file_is_invalid_input(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="no cassette at .*--record-cassette"):
        ReplayExtractor(tmp_path / "absent.jsonl")


def test_two_models_recordings_do_not_collide(tmp_path: Path) -> None:
    cassette = tmp_path / "shared.jsonl"
    small, large = scripted("ollama/small"), scripted("ollama/large")
    small.add(CAPTURE, fact("The deploy runs on Fridays."))
    large.add(CAPTURE, fact("The deploy runs on Fridays."), RICH)
    RecordingExtractor(small, cassette).extract(CAPTURE, ExtractionContext())
    RecordingExtractor(large, cassette).extract(CAPTURE, ExtractionContext())
    assert len(read_cassette(cassette)) == 2

    assert len(ReplayExtractor(cassette, model="ollama/small").extract(CAPTURE)) == 1
    assert ReplayExtractor(cassette, model="ollama/large").extract(CAPTURE)[1] == RICH
    assert ReplayExtractor(cassette, model="ollama/large").name == "replay/ollama/large"
    with pytest.raises(InvalidInput, match="ollama/large, ollama/small"):
        ReplayExtractor(cassette)  # ambiguous: which model?
    with pytest.raises(InvalidInput, match="no recordings of 'ollama/tiny'"):
        ReplayExtractor(cassette, model="ollama/tiny")


def test_the_cassette_survives_reopening_and_identical_rerecords_append_nothing(
        tmp_path: Path) -> None:
    cassette = tmp_path / "run.jsonl"
    inner = scripted()
    inner.add("first capture", fact("First."))
    inner.add("second capture", fact("Second."))
    RecordingExtractor(inner, cassette).extract("first capture", ExtractionContext())

    reopened = RecordingExtractor(inner, cassette)  # a later session, same file
    reopened.extract("second capture", ExtractionContext())
    reopened.extract("first capture", ExtractionContext())  # same answer: not appended again
    assert len(cassette.read_text().splitlines()) == 2

    inner.add("first capture", fact("First, revised."))  # the extractor's answer changed
    RecordingExtractor(inner, cassette).extract("first capture", ExtractionContext())
    assert len(cassette.read_text().splitlines()) == 3

    replay = ReplayExtractor(cassette)
    assert len(replay) == 2
    assert replay.extract("first capture")[0].statement == "First, revised."  # last line wins
    assert replay.extract("second capture")[0].statement == "Second."


def test_a_prompted_extractor_keys_by_its_prompt_and_default_replay_still_agrees(
        tmp_path: Path) -> None:
    cassette = tmp_path / "ollama.jsonl"
    inner = PromptedExtractor()
    inner.add(CAPTURE, RICH)
    RecordingExtractor(inner, cassette).extract(CAPTURE, ExtractionContext())
    (entry,) = read_cassette(cassette)
    assert entry["key"] == cassette_key(inner.name, inner.prompt_for(CAPTURE,
                                                                     ExtractionContext()),
                                        CAPTURE)

    # Default replay (no prompt) matches on model and text, whatever prompt was recorded.
    assert ReplayExtractor(cassette).extract(CAPTURE) == [RICH]
    # Strict replay with the same prompt matches the full key...
    strict = ReplayExtractor(cassette, prompt=PromptedExtractor().prompt_for)
    assert strict.extract(CAPTURE) == [RICH]
    # ...and a changed template is a miss, not a stale answer.
    changed = ReplayExtractor(cassette, prompt=PromptedExtractor("New template: {text}"
                                                                 ).prompt_for)
    with pytest.raises(ExtractorError, match="only under another prompt"):
        changed.extract(CAPTURE)

    # Recorded under two prompts, the prompt-blind lookup refuses to guess.
    reworded = PromptedExtractor("New template: {text}")
    reworded.add(CAPTURE, fact("Something else."))
    RecordingExtractor(reworded, cassette).extract(CAPTURE, ExtractionContext())
    with pytest.raises(ExtractorError, match="2 recordings .* different prompts"):
        ReplayExtractor(cassette).extract(CAPTURE)
    by_new_prompt = ReplayExtractor(cassette, prompt=reworded.prompt_for)
    assert by_new_prompt.extract(CAPTURE)[0].statement == "Something else."


def test_a_malformed_cassette_line_is_reported_with_its_number(tmp_path: Path) -> None:
    cassette = tmp_path / "bad.jsonl"
    cassette.write_text('{"key": "k", "model": "m", "text": "t", "facts": []}\n\nnot json\n')
    with pytest.raises(InvalidInput, match="line 3 is not JSON"):
        ReplayExtractor(cassette)


# -- mentions and relations (the entity layer's fields) ----------------------------------------

NAMED = ExtractedFact(
    statement="Dana Reyes joined Initech.", kind="EVENT", quote="Dana Reyes joined Initech",
    mentions=(("Dana Reyes", "Person"), ("Initech", None), "Dana",
              {"name": "Initech", "type": "Organization"}),
    relations=(("Dana Reyes", "joined", "Initech"),))


def test_mentions_and_relations_replay_as_the_tuples_recorded(tmp_path: Path) -> None:
    from factstore.entities.drafts import entity_fields

    cassette = tmp_path / "named.jsonl"
    inner = scripted()
    inner.add("Dana Reyes joined Initech", NAMED)
    live = RecordingExtractor(inner, cassette).extract("Dana Reyes joined Initech",
                                                       ExtractionContext())
    (entry,) = read_cassette(cassette)
    assert entry["facts"][0]["mentions"][0] == ["Dana Reyes", "Person"]  # JSON has lists
    (replayed,) = ReplayExtractor(cassette).extract("Dana Reyes joined Initech")
    assert [replayed] == live
    assert replayed.mentions[:2] == (("Dana Reyes", "Person"), ("Initech", None))
    assert replayed.mentions[2:] == ("Dana", {"name": "Initech", "type": "Organization"})
    assert replayed.relations == (("Dana Reyes", "joined", "Initech"),)

    def drafts(f: ExtractedFact) -> object:
        return entity_fields(f.mentions, f.relations, quote=f.quote, speaker=None,
                             subject=f.subject)

    assert drafts(replayed) == drafts(NAMED)
    # entity_fields would also take the raw JSON lists; the tuples keep replay == live.
    raw = entry["facts"][0]
    assert entity_fields(raw["mentions"], raw["relations"], quote=NAMED.quote, speaker=None,
                         subject=None) == drafts(NAMED)


def test_a_recording_made_before_mentions_existed_replays_with_none(tmp_path: Path) -> None:
    cassette = tmp_path / "old.jsonl"
    old_fact = {"statement": "Old.", "kind": "STATE", "quote": "Old", "topics": ["a"],
                "meta": {}}  # written before ExtractedFact had mentions and relations
    cassette.write_text(json.dumps({"key": cassette_key("scripted/test", "", "old"),
                                    "model": "scripted/test", "text": "old",
                                    "facts": [old_fact]}) + "\n")
    (fact,) = ReplayExtractor(cassette).extract("old")
    assert (fact.mentions, fact.relations, fact.topics) == ((), (), ("a",))
