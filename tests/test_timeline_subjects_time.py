"""'me' resolution (seed 002 §8) and the time a question names (§5)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from factstore.errors import InvalidInput
from factstore.timelines.dates import parse_partial
from factstore.timelines.format_v1 import validate_request
from factstore.timelines.question_time import as_of_from_question
from factstore.timelines.subjects import question_mentions_me, resolve_me

NOW = datetime(2026, 10, 15, 9, 12, tzinfo=UTC)

# --- resolve_me ----------------------------------------------------------------------------


def test_seed_user_resolves_to_u0nick() -> None:
    assert resolve_me("me", "U0NICK") == "person/u0nick"


@pytest.mark.parametrize(("user", "subject"), [
    ("nick", "person/nick"),
    ("Nick.Smith@example.com", "person/nick-smith-example-com"),
    ("user_42", "person/user-42"),
    ("already-slugged-7", "person/already-slugged-7"),
    ("Zoë Ärger", "person/zo---rger"),
    ("x" * 128, "person/" + "x" * 128),
])
def test_me_slug_rule(user: str, subject: str) -> None:
    resolved = resolve_me("me", user)
    assert resolved == subject
    # Whatever the user id, the result is a valid v1 subject.
    facts, _ = validate_request(
        {"format": 1, "facts": [{"subject": resolved, "attribute": "a", "value": "v"}]})
    assert facts[0].subject == resolved


@pytest.mark.parametrize("subject", [
    "person/nick", "project/apollo", "system/ci", "Me", "me/too", "person/me"])
def test_other_subjects_are_unchanged(subject: str) -> None:
    assert resolve_me(subject, "U0NICK") == subject


@pytest.mark.parametrize("user", ["", None, "   "])
def test_me_without_a_user_says_how_to_fix_it(user: str | None) -> None:
    with pytest.raises(InvalidInput) as caught:
        resolve_me("me", user)
    assert "user=" in str(caught.value) and "FACTSTORE_USER_ID" in str(caught.value)


def test_other_subjects_need_no_user() -> None:
    assert resolve_me("person/nick", None) == "person/nick"


def test_user_id_too_long_for_a_slug() -> None:
    with pytest.raises(InvalidInput, match="at most 128"):
        resolve_me("me", "x" * 129)


@pytest.mark.parametrize("question", [
    "what's my shoe size?", "tell me my size", "is this one mine?", "What do I use?",
    "what did i say about Berlin", "I'm moving soon", "notes about myself", "MY TOOLS"])
def test_question_mentions_me(question: str) -> None:
    assert question_mentions_me(question)


@pytest.mark.parametrize("question", [
    "what is nick's shoe size?", "meeting notes for the team", "mimic the items",
    "the ids, i.e. the keys", "Myanmar memo", ""])
def test_question_does_not_mention_me(question: str) -> None:
    assert not question_mentions_me(question)


# --- as_of_from_question -------------------------------------------------------------------


@pytest.mark.parametrize(("question", "as_of"), [
    ("what was my shoe size in 2025?", "2025"),
    ("in 2025", "2025"),
    ("shoe size in 2024?", "2024"),
    ("shoe size in 2024.", "2024"),
    ("In 2024, what did I use", "2024"),
    ("during 2023 which tools", "2023"),
    ("what was it at the end of 2022", "2022"),
    ("as of 2025", "2025"),
    ("as of 2025-06", "2025-06"),
    ("what was true as of 2025-06-15?", "2025-06-15"),
    ("as of 2025-06-15T10:00:00Z", "2025-06-15T10:00:00Z"),
    ("in June 2025", "2025-06"),
    ("June 2025", "2025-06"),
    ("my employer, june 2025?", "2025-06"),
    ("IN JUNE 2025", "2025-06"),
    ("in Jun 2025", "2025-06"),
    ("in Sept. 2024", "2024-09"),
    ("in sep 2024", "2024-09"),
    ("in January 2020", "2020-01"),
    ("feb 2021", "2021-02"),
    ("in March, 2019", "2019-03"),
    ("on 15 June 2025", "2025-06-15"),
    ("on June 15th, 2025", "2025-06-15"),
    ("on 2025-06-15", "2025-06-15"),
])
def test_named_times(question: str, as_of: str) -> None:
    assert as_of_from_question(question, NOW) == as_of
    parse_partial(as_of)  # the caller can always take its last instant


def test_last_month_and_last_year() -> None:
    assert as_of_from_question("what did I use last month?", NOW) == "2026-09"
    assert as_of_from_question("my employer last year", NOW) == "2025"
    assert as_of_from_question("LAST MONTH", NOW) == "2026-09"


def test_last_month_across_a_year_boundary() -> None:
    january = datetime(2026, 1, 3, tzinfo=UTC)
    assert as_of_from_question("last month", january) == "2025-12"
    assert as_of_from_question("last year", january) == "2025"
    assert as_of_from_question("last month", datetime(2026, 12, 31, tzinfo=UTC)) == "2026-11"


def test_last_month_reads_nows_own_calendar() -> None:
    # 00:30 on 1 March in UTC+2 is still February in UTC; the caller's clock decides.
    local = datetime(2026, 3, 1, 0, 30, tzinfo=timezone(timedelta(hours=2)))
    assert as_of_from_question("last month", local) == "2026-02"


def test_end_of_the_named_time_is_the_as_of_instant() -> None:
    as_of = as_of_from_question("what was my shoe size in 2025?", NOW)
    assert as_of is not None
    assert parse_partial(as_of).last_instant == datetime(2025, 12, 31, 23, 59, 59, 999999,
                                                         tzinfo=UTC)


@pytest.mark.parametrize("question", [
    "what's my shoe size?",
    "what do I use now",
    "",
    "how many tokens fit in 4096 tokens",
    "the service listens on port 8080",
    "issue 2025 is still open",
    "in 25 days",
    "as of 2025-13",
    "the 2024-25 season",
    "we may ship soon",
    "it was last monday",
    "build ABC-2025-06-15-x",
])
def test_no_time_named(question: str) -> None:
    assert as_of_from_question(question, NOW) is None


def test_an_impossible_day_falls_back_to_its_month() -> None:
    # 'February 2025' is still named, so the question is asked as of the end of it.
    assert as_of_from_question("on 30 February 2025", NOW) == "2025-02"


def test_first_named_time_wins() -> None:
    assert as_of_from_question("in 2024 or in June 2025?", NOW) == "2024"
    assert as_of_from_question("June 2025 versus 2024", NOW) == "2025-06"


def test_not_a_string() -> None:
    assert as_of_from_question(None, NOW) is None  # type: ignore[arg-type]


@pytest.mark.parametrize(("question", "as_of"), [
    # an explicit as-of outranks every other time in the question
    ("what was my shoe size last year, as of 2021?", "2021"),
    ("in 2019 or so, as of 2022, who ran it?", "2022"),
    # years before 1900 are read
    ("who held the record as of 1898", "1898"),
    ("what was the capital in 1850?", "1850"),
    # a range is asked as of the end of its first period, every time
    ("Who owned the house from 1811 to 1827?", "1811"),
    ("who was it from Sep 1896 to Mar 1919?", "1896-09"),
    ("who ran the lab between 2010 and 2014?", "2010"),
    ("who coached the team 1990-1995?", "1990"),
    # a date that describes something never beats the time asked about
    ("Where did Ada, born 12 January 2000, live in 2014?", "2014"),
    ("who ran the observatory built between 1772 and 1774 from 1774 to 1783?", "1774"),
    ("which tools did I use in the 1990s?", "1999"),
    ("what was my employer before 2020?", "2019"),
])
def test_the_strongest_time_named_wins(question: str, as_of: str) -> None:
    assert as_of_from_question(question, NOW) == as_of


@pytest.mark.parametrize("question", [
    "Where does Ada, born in 2000, live?",
    "who has been CEO since 2010?",
    "what happened after 2020?",
    "what do we deploy in June?",
])
def test_describing_and_open_ended_times_name_no_instant(question: str) -> None:
    assert as_of_from_question(question, NOW) is None
