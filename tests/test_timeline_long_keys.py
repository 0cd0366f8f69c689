"""A long key's line is bounded, and whatever it leaves out is said in it.

Pure: a one key with 10,000 facts of history, a many key with 10,000 values at once, a
dispute of twelve, the scope note. Through the store: brief reads a long key as a window
around the instant (store/key_window.py) and its line counts what was not read.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

import pytest

from factstore.store import key_window
from factstore.timelines.model import TimelineFact
from factstore.timelines.render import (
    MAX_ANSWERS,
    MAX_LISTED,
    own_source,
    render_brief,
    render_line,
    unread_note,
)
from factstore.timelines.scopes import scope_notes

NOW = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
OBSERVED = datetime(2026, 1, 2, 3, 4, tzinfo=UTC)
DAY0 = date(1990, 1, 1)


def _day(i: int) -> str:
    return (DAY0 + timedelta(days=i)).isoformat()


def _fact(i: int, value: str, valid_from: str, **decided) -> TimelineFact:
    return TimelineFact(id=i, subject="person/nick", attribute=decided.pop("attribute", "city"),
                        value=value, unit=None, cardinality=decided.pop("cardinality", "one"),
                        valid_from=valid_from, valid_to=None, observed_at=OBSERVED,
                        recorded_at=OBSERVED, last_confirmed_at=OBSERVED,
                        source=f"note:{i}", **decided)


def one_key_history(n: int) -> list[TimelineFact]:
    """n values, each ended (superseded) by the next; the last current."""
    return [_fact(i + 1, f"city-{i}", _day(i), status="superseded",
                  effective_valid_to=_day(i + 1), superseded_by=i + 2)
            if i < n - 1 else _fact(i + 1, f"city-{i}", _day(i), supersedes=i)
            for i in range(n)]


def test_a_one_key_with_ten_thousand_facts_lists_five_earlier_and_counts_the_rest():
    line = render_line("person/nick", "city", "one", one_key_history(10_000), NOW,
                       cite=own_source)
    assert line.startswith("city(person/nick) = city-9999 [valid 2017-05-18..now, ")
    assert line.endswith(f", +{10_000 - 1 - MAX_LISTED} more)")
    assert line.count("..") == 1 + MAX_LISTED and len(line) < 400


def test_a_many_key_with_ten_thousand_values_names_ten_and_counts_the_rest():
    facts = [_fact(i + 1, f"tool-{i}", _day(i), attribute="uses_tool", cardinality="many")
             for i in range(10_000)]
    line = render_line("person/nick", "uses_tool", "many", facts, NOW, cite=own_source)
    shown = ", ".join(f"tool-{i}" for i in range(MAX_ANSWERS))
    assert line.startswith(f"uses_tool(person/nick) = {{{shown}, +{10_000 - MAX_ANSWERS} more}} [")
    assert line.count("valid ") == MAX_ANSWERS and len(line) < 1_200
    brief = render_brief("tools?", [("person/nick", "uses_tool", "many", facts)], NOW, "now")
    assert len(brief.citations) == MAX_ANSWERS  # only what the line names is cited


def test_a_wide_dispute_names_ten_sides():
    facts = [_fact(i + 1, f"c{i:02d}", "2024", status="disputed") for i in range(12)]
    line = render_line("person/nick", "city", "one", facts, NOW, cite=own_source)
    sides = " | ".join(f"c{i:02d}" for i in range(MAX_ANSWERS))
    assert f"= {{disputed: {sides} | +2 more}} [" in line
    assert line.count("valid ") == MAX_ANSWERS


def test_a_short_many_key_is_unchanged():
    facts = [_fact(1, "jj", "2024", attribute="uses_tool", cardinality="many"),
             _fact(2, "rg", "2025", attribute="uses_tool", cardinality="many")]
    line = render_line("person/nick", "uses_tool", "many", facts, NOW, cite=own_source)
    assert line.startswith("uses_tool(person/nick) = {jj, rg} [valid 2024..now")


def test_unread_note():
    assert unread_note(0, 0) is None
    assert unread_note(1, 0) == "(1 earlier fact not read)"
    assert unread_note(0, 3) == "(3 later facts not read)"
    assert unread_note(9500, 20) == "(9500 earlier and 20 later facts not read)"


def test_the_scope_note_names_ten_of_the_other_scopes_values():
    personal = [_fact(i + 1, f"t{i:02d}", "2024", attribute="uses_tool", cardinality="many",
                      scope="local/user-nick") for i in range(15)]
    shared = [_fact(100, "zed", "2024", attribute="uses_tool", cardinality="many",
                    scope="local/shared-main")]
    notes = scope_notes([("local/user-nick", "person/nick", "uses_tool", "many", personal),
                         ("local/shared-main", "person/nick", "uses_tool", "many", shared)], NOW)
    assert notes[0] == "[personal] (shared: zed)"
    listed = ", ".join(f"t{i:02d}" for i in range(MAX_ANSWERS))
    assert notes[1] == f"[shared] (personal: {listed}, +5 more)"


# -- through the store: brief reads a long key as a window --------------------------------------

def _weights(n: int, attribute: str = "weight_kg") -> list[dict]:
    """n weekly values from 2020-01-01, observed 2026-01-02."""
    return [{"subject": "me", "attribute": attribute, "value": f"{60 + i / 10:.1f}",
             "unit": "kg", "valid_from": (date(2020, 1, 1) + timedelta(weeks=i)).isoformat(),
             "observed_at": "2026-01-02T03:04:05Z", "source": f"test:w{i}"}
            for i in range(n)]


def _without_note(line: str) -> str:
    return re.sub(r" \(\d+ (earlier|later).*not read\)$", "", line)


@pytest.fixture()
def nick(open_store):
    return open_store(user_id="U0NICK")


def test_brief_reads_a_long_key_as_a_window_and_says_what_it_left(nick, monkeypatch):
    nick.backfill_facts(_weights(60))
    whole_now = nick.brief("what is my weight kg?").lines
    whole_2020 = nick.brief("what was my weight kg in 2020?").lines
    monkeypatch.setattr(key_window, "KEY_READ_CAP", 20)
    monkeypatch.setattr(key_window, "WINDOW_SIDE", 5)

    (now,) = nick.brief("what is my weight kg?").lines
    # the answer is the whole key's; the window read the current fact and 4 before it
    assert now.split(" (was ")[0] == whole_now[0].split(" (was ")[0]
    assert now.endswith(" (55 earlier facts not read)")
    assert ("(was 65.8 kg 2021-02-10..2021-02-17, 65.7 kg 2021-02-03..2021-02-10, "
            "65.6 kg 2021-01-27..2021-02-03, 65.5 kg 2021-01-20..2021-01-27) (55 ") in now

    # 2020 ends after week 52: 53 facts start by then, 7 after
    (then,) = nick.brief("what was my weight kg in 2020?").lines
    assert then.split(" (was ")[0] == whole_2020[0].split(" (was ")[0]
    assert then.endswith(" (48 earlier and 2 later facts not read)")
    assert "(later 65.3 kg 2021-01-06..2021-01-13, " in then
    (recalled,) = nick.recall("what is my weight kg?").timelines  # cites sources by name
    assert recalled.endswith(" (55 earlier facts not read)")


def test_a_long_key_of_retractions_alone_still_reads_as_one_line(nick, monkeypatch):
    nick.backfill_facts(_weights(25))
    for key in nick.facts("me", "weight_kg").keys:
        for fact in key.history:
            nick.retract(fact.id)
    monkeypatch.setattr(key_window, "KEY_READ_CAP", 20)
    assert nick.brief("what is my weight kg?").lines == ("weight_kg(person/u0nick) = "
                                                         "(none at now)",)


def test_a_key_at_the_cap_is_read_whole(nick, monkeypatch):
    nick.backfill_facts(_weights(20))
    whole = nick.brief("what is my weight kg?").lines
    monkeypatch.setattr(key_window, "KEY_READ_CAP", 20)
    assert nick.brief("what is my weight kg?").lines == whole
    assert "not read" not in whole[0]


def test_a_many_key_window_reads_its_values_up_to_the_cap(nick, monkeypatch):
    tools = [{"subject": "me", "attribute": "uses_tool", "value": f"tool-{i:02d}",
              "valid_from": (date(2020, 1, 1) + timedelta(days=i)).isoformat(),
              "observed_at": "2026-01-02T03:04:05Z", "source": f"test:t{i}"}
             for i in range(30)]
    nick.backfill_facts(tools)
    monkeypatch.setattr(key_window, "KEY_READ_CAP", 20)
    monkeypatch.setattr(key_window, "WINDOW_SIDE", 5)
    (line,) = nick.brief("which uses tool do I have?").lines
    # the 20 newest of the 30 current values are read; the line names 10 of them
    named = ", ".join(f"tool-{i:02d}" for i in range(10, 20))
    assert line.startswith(f"uses_tool(person/u0nick) = {{{named}, +10 more}} [")
    assert _without_note(line) != line and line.endswith(" (10 earlier facts not read)")
