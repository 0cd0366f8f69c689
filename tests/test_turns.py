"""Chat turns: which captures are chats, and how they split (pure, no parser)."""

from __future__ import annotations

import random

import pytest

from factstore.extractors.turns import is_chat, speaker_prefix, split_turns


def test_a_multi_speaker_chat_splits_into_turns_with_their_spans():
    text = "alice: payments-api p99 is 2s\nbob: we rolled back v2\n  still rolling\ncarol: ok"
    turns = split_turns(text)
    assert [t.speaker for t in turns] == ["alice", "bob", "carol"]
    assert [t.text for t in turns] == ["payments-api p99 is 2s",
                                       "we rolled back v2\n  still rolling", "ok"]
    assert all(text[t.start:t.end] == t.text for t in turns)


@pytest.mark.parametrize("text", [
    "Decision: we ship on Friday.",
    "Note: one\nUpdate: two",
    "Long story short: it broke.",
    "See https://example.test/a for the runbook.",
    "The meeting is at 10:30 tomorrow.",
    "",
])
def test_labels_urls_times_and_prose_are_not_chats(text):
    assert not is_chat(text)
    turns = split_turns(text)
    assert all(t.speaker is None for t in turns)
    assert "".join(t.text for t in turns) == text.strip()


def test_one_line_with_a_name_is_a_turn_and_timestamps_are_not_speakers():
    assert split_turns("alice: I am moving.")[0].speaker == "alice"
    turns = split_turns("[10:02] Dr. Chen: the MRI is booked\n[10:03] Sam: thanks")
    assert [t.speaker for t in turns] == ["Dr. Chen", "Sam"]
    assert speaker_prefix("Decision: keep it") is None


def test_prose_before_the_first_speaker_is_its_own_speakerless_turn():
    turns = split_turns("Standup notes\nalice: deploy is done\nbob: thanks")
    assert [(t.speaker, t.text) for t in turns] == [
        (None, "Standup notes"), ("alice", "deploy is done"), ("bob", "thanks")]


def test_a_generated_chat_always_round_trips_its_turns():
    rng = random.Random(13)
    names = ["alice", "bob", "Carol", "dev-ops", "Dr. Chen", "sam_k"]
    for _ in range(200):
        lines, expected = [], []
        for _ in range(rng.randint(2, 12)):
            speaker = rng.choice(names)
            words = " ".join(rng.choice(["db", "is", "green", "v2", "on", "Friday", "ok", "we",
                                         "https://x.test/a", "10:30"])
                             for _ in range(rng.randint(1, 8)))
            lines.append(f"{speaker}: {words}")
            expected.append((speaker, words))
        text = "\n".join(lines)
        turns = split_turns(text)
        assert [(t.speaker, t.text) for t in turns] == expected
        assert all(text[t.start:t.end] == t.text for t in turns)
