"""values.value_problem: which drafted values are values (pure, no parser, no database).

The refusals were found reading what real chat, meetings and READMEs compiled to; each
rule is checked both ways over a population, so a rule that refused everything (or
nothing) fails here.
"""

from __future__ import annotations

import pytest

from factstore.compiler.values import value_problem

#: (attribute, value, specific): values a careful reader keeps
GOOD = [
    ("lives_in", "Lisbon", True), ("employer", "Initech", True), ("replicas", "7", True),
    ("shoe_size", "41", True), ("job_title", "head of design", False),
    ("job_title", "staff engineer", False), ("database", "Postgres 16", True),
    ("rate_limit", "100", True), ("editor", "Helix", True), ("team", "Payments team", True),
    ("member_of", "book club", False), ("plays", "cello", False), ("rent", "1050", True),
    ("laptop_vendor", "Soylent", True), ("region", "eu-west-1", True),
    ("headquarters", "Tallinn", True), ("speaks", "Finnish", True),
]
#: (attribute, value, specific, a word the reason must carry)
BAD = [
    ("job_title", "{vocalsound}", False, "markup"),
    ("runs_on", "*", False, "letter or digit"),
    ("runs_on", "**", False, "letter or digit"),
    ("lives_in", "it", False, "pronoun"),
    ("member_of", "them", False, "pronoun"),
    ("sensors", "a lot", False, "vague"),
    ("count", "a number", False, "vague"),
    ("member_of", "group", False, "kind"),
    ("team", "team", False, "kind"),
    ("favourite", "this one", False, "unnamed"),
    ("employer", "some company", False, "unnamed"),
    ("store", "great", False, "describes"),
    ("talk", "very inspiring", False, "describes"),
    ("lives_in", "the place", False, None),
    ("employer", "a startup", False, None),
    ("consideration", "the interest", False, None),
]


@pytest.mark.parametrize(("attribute", "value", "specific"), GOOD)
def test_a_value_a_reader_keeps_has_no_problem(attribute, value, specific):
    assert value_problem(attribute, value, specific=specific) is None


@pytest.mark.parametrize(("attribute", "value", "specific", "word"), BAD)
def test_a_non_value_is_refused_with_its_reason(attribute, value, specific, word):
    why = value_problem(attribute, value, specific=specific)
    assert why is not None
    assert value in why or word in why
    if word is not None:
        assert word in why


def test_a_name_capitalised_is_not_praise():
    assert value_problem("employer", "Best Buy", specific=True) is None
    assert value_problem("employer", "best buy", specific=False) is not None
