"""Times a statement names, read against when it was said (factstore/compiler/when.py).

A population over many saying dates, not single cases: every phrase is checked against the
calendar arithmetic it means, wherever in the year it is said.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factstore.compiler.when import future_time, stated_time
from factstore.timelines.dates import parse_partial

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
said_dates = st.datetimes(min_value=datetime(2001, 1, 1), max_value=datetime(2030, 12, 31),
                          timezones=st.just(UTC))


def _day(instant: datetime) -> str:
    return instant.strftime("%Y-%m-%d")


@settings(max_examples=200, deadline=None)
@given(said=said_dates, month=st.integers(1, 12))
def test_a_named_month_is_the_last_one_on_or_before_the_saying(said: datetime,
                                                                month: int) -> None:
    found = stated_time(f"We moved to Lisbon in {MONTHS[month - 1]}.", said)
    assert found is not None and found.role == "at"
    year = said.year if month <= said.month else said.year - 1
    assert found.date == f"{year:04d}-{month:02d}"
    assert parse_partial(found.date).start <= said


@settings(max_examples=200, deadline=None)
@given(said=said_dates, days=st.integers(1, 10))
def test_days_and_weeks_ago_are_days_before_the_saying(said: datetime, days: int) -> None:
    words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    assert stated_time(f"it changed {days} days ago", said).date == \
        _day(said - timedelta(days=days))
    assert stated_time(f"it changed {words[days - 1]} weeks ago", said).date == \
        _day(said - timedelta(weeks=days))


@settings(max_examples=200, deadline=None)
@given(said=said_dates)
def test_relative_words_against_the_saying(said: datetime) -> None:
    last_month = (said.replace(day=1) - timedelta(days=1))
    assert stated_time("I left Globex last month", said).date == \
        f"{last_month.year:04d}-{last_month.month:02d}"
    assert stated_time("we switched yesterday", said).date == _day(said - timedelta(days=1))
    assert stated_time("we switched last week", said).date == _day(said - timedelta(days=7))
    assert stated_time("this year we moved", said).date == f"{said.year:04d}"
    assert stated_time("we moved last year", said).date == f"{said.year - 1:04d}"
    assert stated_time("I just switched to Helix", said).date == _day(said)
    assert stated_time("at the start of the year it changed", said).date == \
        f"{said.year:04d}-01"


@pytest.mark.parametrize(("text", "role", "date"), [
    ("since October", "since", "2026-10"),
    ("until last month", "until", "2026-10"),
    ("on May 3", "at", "2026-05-03"),
    ("on 3 December", "at", "2025-12-03"),  # later than the saying: last year's
    ("on 2026-04-12", "at", "2026-04-12"),
    ("in March 2025", "at", "2025-03"),
    ("in 2019", "at", "2019"),
    ("on Friday", "at", "2026-11-13"),  # said on Tuesday 2026-11-17
])
def test_named_times(text: str, role: str, date: str) -> None:
    found = stated_time(text, datetime(2026, 11, 17, 9, tzinfo=UTC))
    assert (found.role, found.date) == (role, date)


@pytest.mark.parametrize("text", ["my shoe size is now 41", "web-1 runs 5 replicas",
                                  "the API rate limit is 100 requests per minute",
                                  "we have 4 nodes", "release 4.2 is out"])
def test_no_time_named_is_none(text: str) -> None:
    assert stated_time(text, datetime(2026, 6, 10, tzinfo=UTC)) is None


@pytest.mark.parametrize(("text", "future"), [
    ("we move next month", True), ("the switch happens tomorrow", True),
    ("we might move someday", True), ("we moved last month", False),
    ("we live in Porto", False)])
def test_plans_are_told_apart(text: str, future: bool) -> None:
    assert future_time(text) is future


@settings(max_examples=200, deadline=None)
@given(said=said_dates, hours=st.sampled_from(["an hour", "two hours", "a few minutes",
                                               "3 hours"]))
def test_hours_ago_are_the_day_of_the_saying(said: datetime, hours: str) -> None:
    found = stated_time(f"the job moved {hours} ago", said)
    assert found is not None and found.date == _day(said)


@settings(max_examples=200, deadline=None)
@given(said=said_dates, phrase=st.sampled_from(["last weekend", "over the weekend"]))
def test_the_weekend_is_a_saturday_before_the_saying(said: datetime, phrase: str) -> None:
    found = stated_time(f"we moved {phrase}", said)
    assert found is not None
    day = datetime.fromisoformat(found.date).replace(tzinfo=UTC)
    assert day.weekday() == 5 and day.date() <= said.date()
    assert (said.date() - day.date()).days < (14 if phrase == "last weekend" else 7)


@settings(max_examples=300, deadline=None)
@given(said=said_dates, day=st.integers(1, 31), since=st.booleans())
def test_a_day_of_the_month_alone_is_the_last_such_day(said: datetime, day: int,
                                                         since: bool) -> None:
    suffix = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}.get(day, "th")
    found = stated_time(f"{'as of' if since else 'on'} the {day}{suffix}, it runs on Postgres",
                        said)
    assert found is not None and found.role == ("since" if since else "at")
    got = datetime.fromisoformat(found.date).replace(tzinfo=UTC)
    assert got.day == day and got.date() <= said.date()
    assert (said.date() - got.date()).days < 93  # the last one, never a year back
