"""The compiler on names the parser mistakes, numbers it writes as words, and teams.

Found on real text: spaCy tags some first names at a sentence's start as plural nouns
("Ines", "Bilal", "Jonas"), which an earlier rule read as "Farmers manage ...", a kind of
person, and dropped; a company name tagged as a person ("Hooli") joined as a club; a value
normalised to a number ("1,050", "two") failed the check that a value names something.
Each rule is checked over a population, both ways. Parser-based, no database.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from factstore.compiler.offline import ParserCompiler

SAID = datetime(2026, 6, 10, 9, tzinfo=UTC)
NAMES = ["Ines", "Bilal", "Jonas", "Agnes", "Marcus", "Carlos", "Tomas", "Lukas", "Priya"]
PLURALS = ["Farmers", "People", "Students", "Engineers", "Parents", "Nurses", "Teachers"]


@pytest.fixture(scope="module")
def compiler() -> ParserCompiler:
    return ParserCompiler()


def _drafts(compiler: ParserCompiler, text: str) -> set[tuple[str | None, str | None]]:
    return {(d.attribute, d.value) for d in compiler.compile(text, SAID).drafts}


@pytest.mark.parametrize("name", NAMES)
def test_a_name_at_a_sentences_start_is_a_subject(compiler, name):
    assert ("reports_to", "Catalina") in _drafts(compiler, f"{name} now reports to Catalina.")
    assert ("office", "Rotterdam office") in _drafts(
        compiler, f"Kavya: {name} works from the Rotterdam office, third floor")
    drafts = compiler.compile(f"{name} lives in Lisbon.", SAID).drafts
    assert [(d.subject.name, d.attribute, d.value) for d in drafts] == \
        [(name, "lives_in", "Lisbon")]


@pytest.mark.parametrize("plural", PLURALS)
def test_a_kind_of_person_at_a_sentences_start_is_no_one(compiler, plural):
    assert _drafts(compiler, f"{plural} live in Lisbon.") == set()
    assert _drafts(compiler, f"{plural} work at Globex.") == set()


@pytest.mark.parametrize(("text", "want"), [
    ("In May, the landlord increased our rent to 1,050 euros a month.", ("rent", "1050")),
    ("We have two cats, Noodle and Juniper.", ("cats", "2")),
    ("Our rent was raised to 2,400 dollars.", ("rent", "2400")),
    ("web-1 now runs seven replicas.", ("replicas", "7")),
])
def test_a_value_normalised_to_a_number_is_a_value(compiler, text, want):
    assert want in _drafts(compiler, text)


@pytest.mark.parametrize(("text", "want"), [
    ("I joined Hooli in August, after leaving Tessellate.", {("employer", "Hooli")}),
    ("I joined Initech as a data engineer.",
     {("employer", "Initech"), ("job_title", "data engineer")}),
    ("I joined Sarah for lunch.", set()),
    ("Amara Nwosu works on the Observability team.", {("team", "Observability team")}),
    ("Quentin joined the Search team in August.", {("team", "Search team")}),
    ("I joined the book club last week.", {("member_of", "book club")}),
])
def test_joining_a_company_a_team_or_a_club(compiler, text, want):
    assert _drafts(compiler, text) == want


def test_a_join_beside_a_team_left_joins_a_team(compiler):
    drafts = compiler.compile("Wanjiru Kamau left the Growth team on January 21 and joined "
                              "Payments.", SAID).drafts
    joined = [d for d in drafts if d.value == "Payments"]
    assert [(d.attribute, str(d.time.date)) for d in joined] == [("team", "2026-01-21")]
    assert any("Growth team" in d.ends for d in drafts)


@pytest.mark.parametrize(("text", "want"), [
    ("Log retention is 60 days.", ("log_retention", "60")),
    ("The rate limit is 100 requests per minute.", ("rate_limit", "100")),
    ("The company is headquartered in Osaka.", ("headquarters", "Osaka")),
    ("Our headquarters is in Dublin.", ("headquarters", "Dublin")),
])
def test_a_property_named_with_no_owner_is_the_speakers_groups(compiler, text, want):
    drafts = compiler.compile(text, SAID).drafts
    assert [(d.subject.kind, d.attribute, d.value) for d in drafts] == [("group", *want)]


@pytest.mark.parametrize("text", [
    "The company I applied to is based in Berlin.",
    "A company is based in Osaka.",
    "The name is Bond.",
    "The retention is great.",
])
def test_another_company_or_a_bare_word_is_no_ones_property(compiler, text):
    assert compiler.compile(text, SAID).drafts == ()


@pytest.mark.parametrize(("text", "want"), [
    ("Project Fjord is led by Paola.", ("Project Fjord", "lead", "Paola")),
    ("The billing service is owned by Rania.", ("billing service", "owner", "Rania")),
])
def test_a_passive_lead_names_what_is_led_and_who_leads(compiler, text, want):
    drafts = compiler.compile(text, SAID).drafts
    assert [(d.subject.name, d.attribute, d.value) for d in drafts] == [want]


def test_a_passive_lead_by_no_name_is_nothing(compiler):
    assert compiler.compile("The team is led by a new manager.", SAID).drafts == ()


@pytest.mark.parametrize(("text", "want"), [
    ("Gael: where is Femi?\nHamid: he moved to the Payments team last month, didn't you see "
     "the announcement?", {("team", "Payments team")}),
    ("Hamid: Femi moved to the Payments team last month, right?", {("team", "Payments team")}),
    ("We moved to Lisbon, didn't we?", {("lives_in", "Lisbon")}),
    ("Did you move to Lisbon, or did you stay?", set()),
    ("Where do you live, Porto?", set()),
    ("Do you live in Porto, right?", set()),
    ("Is web-1 on 7 replicas now?", set()),
])
def test_a_statement_with_a_question_tagged_on_is_read_and_a_question_is_not(compiler, text,
                                                                              want):
    assert _drafts(compiler, text) == want


def test_no_longer_ends_only_its_own_clause(compiler):
    drafts = compiler.compile("Greta: no idea haha, I no longer live in Utrecht, I'm in Aarhus "
                              "now", SAID).drafts
    assert {(d.value, d.ends) for d in drafts} == {(None, ("Utrecht",)), ("Aarhus", ())}
