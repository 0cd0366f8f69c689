"""Settings, lifetimes, statement normalisation and the open-questions discipline (seed 000 §7).

Pure functions and a frozen dataclass: no database.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factstore.errors import InvalidInput
from factstore.lifetimes import format_lifetime, parse_lifetime
from factstore.questions import check_status, recommend
from factstore.settings import DEFAULT_SCRIBE_NAMES, Settings
from factstore.statements import normalise_statement

# --------------------------------------------------------------------------- questions.recommend


@pytest.mark.parametrize(("risk", "cost", "expected"), [
    ("high", "low", "resolve"),
    ("high", "medium", "resolve"),
    ("high", "high", "blocker"),
    ("low", "low", "park"),
    ("low", "medium", "park"),
    ("low", "high", "park"),
    ("medium", "low", "resolve"),
    ("medium", "medium", "park"),
    ("medium", "high", "park"),
])
def test_recommend_matrix(risk, cost, expected):
    assert recommend(risk, cost) == expected


@pytest.mark.parametrize(("risk", "cost"), [("High", "low"), ("high", "cheap"), ("", "low"),
                                            ("critical", "high")])
def test_recommend_rejects_unknown_levels(risk, cost):
    with pytest.raises(InvalidInput, match="must be one of low, medium, high"):
        recommend(risk, cost)


def test_check_status():
    for status in ("open", "parked", "blocker", "resolved"):
        assert check_status(status) == status
    with pytest.raises(InvalidInput):
        check_status("closed")


# --------------------------------------------------------------------------- Settings validation


def test_defaults_are_valid_and_documented_values():
    s = Settings()
    assert s.state_default_lifetime == timedelta(days=7)
    assert s.index_page_min_links == 5
    assert s.scribe_names == DEFAULT_SCRIBE_NAMES
    assert s.recall_floor <= s.recall_strong


@pytest.mark.parametrize("changes", [
    {"density_threshold": 1.5},
    {"density_threshold": -0.1},
    {"recall_floor": "0.3"},
    {"index_page_link_share": 2},
    {"density_k": 0},
    {"recall_k": 2.5},
    {"ef_search": True},
    {"index_page_min_links": -1},
    {"recall_floor": 0.6, "recall_strong": 0.5},
    {"state_default_lifetime": timedelta(0)},
    {"state_default_lifetime": "7d"},
])
def test_invalid_settings_raise(changes):
    with pytest.raises(InvalidInput):
        Settings(**changes)


def test_floor_above_strong_error_names_both():
    with pytest.raises(InvalidInput, match="recall_floor .* must not exceed recall_strong"):
        Settings(recall_floor=0.7, recall_strong=0.6)


def test_replace_changes_and_validates():
    s = Settings().replace(density_threshold=0.9, recall_k=3)
    assert (s.density_threshold, s.recall_k) == (0.9, 3)
    with pytest.raises(InvalidInput):
        Settings().replace(recall_floor=0.99)


def test_replace_unknown_key_is_an_error_naming_it():
    with pytest.raises(InvalidInput, match="unknown setting.*'density_treshold'"):
        Settings().replace(density_treshold=0.9)


def test_settings_are_frozen():
    with pytest.raises(AttributeError):
        Settings().recall_k = 3  # type: ignore[misc]


# --------------------------------------------------------------------------- Settings.from_env


def test_from_env_with_nothing_set_is_the_defaults():
    assert Settings.from_env({}) == Settings()
    assert Settings.from_env({"UNRELATED": "1", "FACTSTORE_NOT_A_FIELD": "x"}) == Settings()


def test_from_env_coerces_each_type():
    s = Settings.from_env({
        "FACTSTORE_DENSITY_THRESHOLD": "0.9",
        "FACTSTORE_DENSITY_K": "12",
        "FACTSTORE_DENSITY_SHARED_TAG": "yes",
        "FACTSTORE_STATE_DEFAULT_LIFETIME": "36h",
        "FACTSTORE_SCRIBE_NAMES": " claude, gpt ,, ",
    })
    assert s.density_threshold == pytest.approx(0.9)
    assert s.density_k == 12 and isinstance(s.density_k, int)
    assert s.density_shared_tag is True
    assert s.state_default_lifetime == timedelta(hours=36)
    assert s.scribe_names == ("claude", "gpt")


@pytest.mark.parametrize(("raw", "value"), [("1", True), ("TRUE", True), ("on", True),
                                            ("0", False), ("false", False), ("Off", False),
                                            ("no", False)])
def test_from_env_bool_spellings(raw, value):
    assert Settings.from_env({"FACTSTORE_DENSITY_SHARED_TAG": raw}).density_shared_tag is value


@pytest.mark.parametrize(("name", "raw"), [
    ("FACTSTORE_DENSITY_SHARED_TAG", "maybe"),
    ("FACTSTORE_DENSITY_K", "five"),
    ("FACTSTORE_DENSITY_K", "2.5"),
    ("FACTSTORE_RECALL_FLOOR", "low"),
    ("FACTSTORE_STATE_DEFAULT_LIFETIME", "a week"),
])
def test_from_env_coercion_errors_name_the_variable(name, raw):
    with pytest.raises(InvalidInput) as info:
        Settings.from_env({name: raw})
    assert name in str(info.value)
    assert repr(raw) in str(info.value)


def test_from_env_still_validates_ranges():
    with pytest.raises(InvalidInput):
        Settings.from_env({"FACTSTORE_DENSITY_K": "0"})
    with pytest.raises(InvalidInput):
        Settings.from_env({"FACTSTORE_RECALL_FLOOR": "0.9"})


def test_from_env_reads_os_environ_by_default(monkeypatch):
    monkeypatch.setenv("FACTSTORE_RECALL_K", "3")
    assert Settings.from_env().recall_k == 3


def test_as_dict_renders_plain_values():
    d = Settings().replace(state_default_lifetime=timedelta(hours=36)).as_dict()
    assert d["state_default_lifetime"] == "1.5d"
    assert d["scribe_names"] == list(DEFAULT_SCRIBE_NAMES)
    assert d["density_k"] == 5


# --------------------------------------------------------------------------- lifetimes


@pytest.mark.parametrize(("text", "delta"), [
    ("2d", timedelta(days=2)), ("36h", timedelta(hours=36)), ("1w", timedelta(weeks=1)),
    ("90m", timedelta(minutes=90)), (" 3 Days ", timedelta(days=3)),
    ("1.5d", timedelta(hours=36)), ("2 weeks", timedelta(weeks=2)), ("4hr", timedelta(hours=4)),
])
def test_parse_lifetime(text, delta):
    assert parse_lifetime(text) == delta


def test_parse_lifetime_passes_a_positive_timedelta_through():
    assert parse_lifetime(timedelta(hours=5)) == timedelta(hours=5)


@pytest.mark.parametrize("bad", ["", "2", "d", "2x", "-1d", "0d", "0.0h", "2 d 3h", "1e3m",
                                 timedelta(0), timedelta(days=-1), 5, None])
def test_parse_lifetime_rejects_bad_input(bad):
    with pytest.raises(InvalidInput):
        parse_lifetime(bad)


@pytest.mark.parametrize(("delta", "text"), [
    (timedelta(weeks=2), "2w"), (timedelta(days=2), "2d"), (timedelta(hours=36), "36h"),
    (timedelta(minutes=90), "90m"), (timedelta(days=1), "1d"),
])
def test_format_lifetime_picks_the_largest_exact_unit(delta, text):
    assert format_lifetime(delta) == text


def test_format_lifetime_none():
    assert format_lifetime(None) is None


@given(st.integers(min_value=1, max_value=60 * 24 * 7 * 520))
def test_lifetime_round_trip_whole_minutes(minutes):
    delta = timedelta(minutes=minutes)
    text = format_lifetime(delta)
    assert text is not None
    assert parse_lifetime(text) == delta


@given(st.sampled_from(["m", "h", "d", "w"]), st.integers(1, 500))
def test_lifetime_round_trip_from_text(unit, amount):
    delta = parse_lifetime(f"{amount}{unit}")
    assert parse_lifetime(format_lifetime(delta)) == delta


def test_format_lifetime_is_exact_below_a_minute():
    # the docstring promises "the shortest exact form"; 61 s is not a whole number of minutes.
    # BUG: it formats as '1.01667m', which parses back to 61.0002 s.
    delta = timedelta(seconds=61)
    assert parse_lifetime(format_lifetime(delta)) == delta


# --------------------------------------------------------------------------- statements


def test_normalise_is_case_whitespace_and_trailing_period_insensitive():
    assert normalise_statement("  Sample-SVC is   GREEN.  ") == normalise_statement(
        "sample-svc is green")


def test_normalise_treats_curly_and_straight_apostrophes_alike():
    assert normalise_statement("Don\u2019t push to production.") == normalise_statement(
        "don't push to production")


def test_normalise_keeps_negation():
    assert normalise_statement("The importer does not validate UTF-16") != normalise_statement(
        "The importer does validate UTF-16")
    assert normalise_statement("sample-svc is not green") != normalise_statement(
        "sample-svc is green")


def test_normalise_keeps_numbers_and_decimals():
    assert normalise_statement("X is 40") != normalise_statement("X is 41")
    assert normalise_statement("X is 4.0") != normalise_statement("X is 40")
    assert normalise_statement("X is -40") != normalise_statement("X is 40")
    assert normalise_statement("Version 1.2.") == "version 1.2"


def test_normalise_keeps_paths():
    assert normalise_statement(r"Token at C:\ops\a.env") != normalise_statement(
        r"Token at C:\ops\b.env")
    assert "/etc/app.toml" in normalise_statement("Config is at /etc/app.toml.")


@given(st.integers(-10_000, 10_000), st.integers(-10_000, 10_000))
def test_distinct_numbers_never_normalise_equal(a, b):
    if a != b:
        assert normalise_statement(f"The count is {a}") != normalise_statement(
            f"The count is {b}")


@given(st.text(st.sampled_from(list("abcXYZ 019")), min_size=1, max_size=30),
       st.sampled_from(["", ".", " .", "  "]))
def test_normalise_ignores_case_and_trailing_punctuation(text, tail):
    assert normalise_statement(text.upper() + tail) == normalise_statement(text.lower())


@given(st.text(max_size=40))
def test_normalise_is_idempotent(text):
    once = normalise_statement(text)
    assert normalise_statement(once) == once


@pytest.mark.parametrize(("a", "b"), [
    ("checksum == 214", "checksum != 214"),
    ("p95 latency < 40ms", "p95 latency > 40ms"),
    ("uptime \u2265 99.9", "uptime \u2264 99.9"),
])
def test_normalise_keeps_comparison_operators(a, b):
    # Opposite claims must not collapse into one "exact restatement" (a pure re-capture skips
    # the conflict pipeline). BUG: the operators are stripped as punctuation, so both sides
    # normalise to the same text ('checksum 214', 'p95 latency 40ms', 'uptime 99.9').
    assert normalise_statement(a) != normalise_statement(b)
