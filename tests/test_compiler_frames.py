"""The offline compiler's frames for headcounts, schedules, owners, leads coming back and
personal properties named with no owner, each over a generated population of teams,
people, jobs and values, with the near-misses that must not compile (parser-based, no
database)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from factstore.compiler.offline import ParserCompiler
from factstore.compiler.subjects import SubjectRef

SAID = datetime(2026, 6, 10, 9, tzinfo=UTC)
TEAMS = ["Growth", "Identity", "Payments", "Search", "Platform", "Support", "Mobile"]
PEOPLE = ["Chiara", "Kenji", "Soo-jin", "Anneke", "Hamid", "Priya", "Mateo Rossi"]
THINGS = ["travel budget", "infrastructure budget", "hiring plan", "roadmap"]
JOBS = ["billing job", "nightly export", "reports job", "nightly backup"]
PROJECTS = ["Project Atlas", "Project Beacon", "Project Fjord"]


@pytest.fixture(scope="module")
def compiler() -> ParserCompiler:
    return ParserCompiler()


def _one(compiler: ParserCompiler, text: str) -> list[tuple[SubjectRef, str | None, str | None,
                                                            str | None]]:
    found = compiler.compile(text, SAID)
    return [(d.subject, d.attribute, d.value, d.unit) for d in found.drafts]


def _headcounts(rng: random.Random) -> list[tuple[str, str, str]]:
    rows = []
    for team in TEAMS:
        n = str(rng.randint(3, 40))
        rows += [(f"The {team} team has {n} people.", f"{team} team", n),
                 (f"Headcount on the {team} team increased to {n} in March.", f"{team} team", n),
                 (f"The {team.lower()} team was cut to {n} people in June.",
                  f"{team.lower()} team", n),
                 (f"Headcount for the {team} team was raised to {n} earlier this year.",
                  f"{team} team", n)]
    return rows


@pytest.mark.parametrize(("text", "team", "n"), _headcounts(random.Random(5)))
def test_a_team_s_headcount_is_read_whatever_the_shape(compiler, text, team, n):
    drafts = _one(compiler, text)
    assert (SubjectRef("named", team, "project"), "headcount", n) in \
        [(s, a, v) for s, a, v, _ in drafts], text


def _schedules(rng: random.Random) -> list[tuple[str, str, str]]:
    rows = []
    for job in JOBS:
        at = f"{rng.randint(0, 23):02d}:{rng.choice(['00', '15', '30', '45'])} UTC"
        rows += [(f"The {job} is scheduled for {at} every night.", at),
                 (f"The {job} runs at {at}.", at)]
    return [(text, at, text) for text, at in rows]


@pytest.mark.parametrize(("text", "at", "_"), _schedules(random.Random(7)))
def test_a_job_s_schedule_is_read_with_its_zone(compiler, text, at, _):
    drafts = _one(compiler, text)
    assert [(a, v) for _s, a, v, _u in drafts] == [("schedule", at)], text
    assert drafts[0][0].namespace == "system"


@pytest.mark.parametrize("thing", THINGS)
@pytest.mark.parametrize("person", PEOPLE[:4])
def test_an_owner_of_a_thing_is_read_both_ways(compiler, thing, person):
    owns = _one(compiler, f"{person} owns the {thing}.")
    named = _one(compiler, f"The {thing} owner is {person}.")
    for drafts in (owns, named):
        assert [(s.name, a, v) for s, a, v, _ in drafts] == [(thing, "owner", person)]
    ended = _one(compiler, f"{person} no longer owns the {thing}.")
    assert [(s.name, a, v) for s, a, v, _ in ended] == [(thing, "owner", None)]


def test_a_hyphenated_name_is_a_person_and_an_identifier_a_system(compiler):
    assert _one(compiler, "Soo-jin owns the travel budget.")[0][2] == "Soo-jin"
    assert _one(compiler, "web-1 runs 5 replicas.")[0][0] == SubjectRef("named", "web-1",
                                                                         "system")


@pytest.mark.parametrize("project", PROJECTS)
@pytest.mark.parametrize("person", ["Anneke", "Hamid", "Ilse"])
def test_a_lead_back_on_a_project_leads_it_again(compiler, project, person):
    drafts = _one(compiler, f"{person} is back on {project} as lead.")
    assert drafts == [(SubjectRef("named", project, "project"), "lead", person, None)]
    changed = _one(compiler, f"The lead of {project} changed to {person} last week.")
    assert changed[0][0] == SubjectRef("named", project, "project")  # never a person


@pytest.mark.parametrize(("text", "key", "value", "unit"), [
    ("Elif: shoe size is now 39", "shoe_size", "39", None),
    ("Shoe size is 40.", "shoe_size", "40", None),
    ("Log retention was raised to 180 days earlier this year.", "log_retention", "180",
     "days"),
    ("My email address is m.okafor@example.test.", "email_address",
     "m.okafor@example.test", None),
    ("Our mobile app is called Quill.", "name", "Quill", None),
])
def test_properties_named_plainly_are_read_with_their_units(compiler, text, key, value, unit):
    drafts = _one(compiler, text)
    assert [(a, v, u) for _s, a, v, u in drafts] == [(key, value, unit)], text


@pytest.mark.parametrize("text", [
    "Page size is 50.",                       # a setting, nobody's own size
    "Batch size is 200.",
    "backups stay at 02:15",                  # a time is no place to live
    "The budget for Anna is 500 euros.",      # a person after "for" owns nothing here
    "Anna owns a budget.",                    # no particular thing
    "Chiara might own the travel budget.",    # a maybe
    "Soo-jin owns the travel budget?",        # a question
    "The mobile team might grow to 20 people.",
])
def test_near_misses_compile_to_nothing(compiler, text):
    assert _one(compiler, text) == [], text


@pytest.mark.parametrize(("text", "subject", "key", "value"), [
    ("There are 17 people on the Identity team.", "Identity team", "headcount", "17"),
    ("We keep logs for 180 days.", None, "retention", "180"),
    ("We pay 1,050 euros a month in rent.", None, "rent", "1050"),
    ("Joon-ho Park reports to Emil.", "Joon-ho Park", "reports_to", "Emil"),
    ("Mei took over as owner of the marketing budget two weeks ago.", "marketing budget",
     "owner", "Mei"),
    ("I was promoted to analytics lead in January.", None, "job_title", "analytics lead"),
    ("svc-invoices was relocated to eu-north-1 last year.", "svc-invoices", None,
     "eu-north-1"),
    ("We migrated the checkout repo from Jenkins to GitHub Actions.", "checkout repo", None,
     "GitHub Actions"),
    ("We switched svc-catalog from Redis Streams to NATS.", "svc-catalog", None, "NATS"),
])
def test_everyday_shapes_name_their_subject_key_and_value(compiler, text, subject, key,
                                                          value):
    drafts = _one(compiler, text)
    assert [(s.name, a, v) for s, a, v, _ in drafts] == [(subject, key, value)], text


@pytest.mark.parametrize(("text", "key"), [
    ("Paola no longer leads Project Fjord; Rohan does.", "lead"),
    ("Chiara no longer owns the infrastructure budget; Kenji does.", "owner"),
])
def test_a_handover_in_an_ellipsis_ends_one_holder_and_names_the_next(compiler, text, key):
    drafts = _one(compiler, text)
    assert [(a, v) for _s, a, v, _u in drafts] == [(key, None), (key, text.split("; ")[1]
                                                                 .split()[0])]
    assert drafts[0][0] == drafts[1][0]


@pytest.mark.parametrize("text", [
    "I no longer live in Utrecht; Anna does.",     # Anna lives there: no handover of mine
    "Paola no longer leads Project Fjord. Rohan does, I think.",
    "There are 3 cats in the garden.",
    "We keep the car in the garage.",
    "We pay 20 euros for lunch.",
])
def test_shapes_that_only_look_like_those_compile_no_value(compiler, text):
    assert [v for _s, _a, v, _u in _one(compiler, text) if v is not None] == [], text


@pytest.mark.parametrize(("text", "subject", "key", "value"), [
    ("The checkout repo still builds on Jenkins.", "checkout repo", None, "Jenkins"),
    ("Every repo builds on CircleCI.", None, None, "CircleCI"),
    ("CI is on GitLab CI.", None, "ci", "GitLab CI"),
    ("Esra: Carmen, she's the engineering manager for the platform group", "Carmen",
     "job_title", "engineering manager"),
    ("web-1 runs on m6i.xlarge instances.", "web-1", None, "m6i.xlarge"),
    ("We added Jürgen to the svc-shipping rotation last year.", "Jürgen", "member_of",
     "svc-shipping rotation"),
    ("Aiko: I was added to the hiring committee two weeks ago", "Aiko", "member_of",
     "hiring committee"),
    ("Tariq is on the svc-payments on-call rotation.", "Tariq", "member_of",
     "svc-payments on-call rotation"),
    ("Femi is on the Search team.", "Femi", "team", "Search team"),
])
def test_memberships_ci_and_fronted_names(compiler, text, subject, key, value):
    drafts = _one(compiler, text)
    assert [(s.name, a, v) for s, a, v, _ in drafts] == [(subject, key, value)], text


@pytest.mark.parametrize("text", [
    "We build on weekends.",                        # no CI system
    "We added a new index to the orders table.",    # a table is no group
    "Mei: Carmen and Ilse, she's the one to ask",   # two names: never guess
])
def test_near_misses_of_memberships_and_names(compiler, text):
    assert [v for _s, _a, v, _u in _one(compiler, text) if v is not None] == [], text


@pytest.mark.parametrize(("text", "expected"), [
    ("Ewa and Beatriz sit on the security council.",
     [("Ewa", "member_of", "security council"), ("Beatriz", "member_of", "security council")]),
    ("Oskar and Petra are on the Search team.",
     [("Oskar", "team", "Search team"), ("Petra", "team", "Search team")]),
    ("The Growth team is Paola and Marek.",
     [("Paola", "team", "Growth team"), ("Marek", "team", "Growth team")]),
    ("Kenji is the only member of the architecture board so far.",
     [("Kenji", "member_of", "architecture board")]),
    ("api-gw is running 10 replicas.", [("api-gw", "replicas", "10")]),
    ("svc-catalog has a memory limit of 1 GB.", [("svc-catalog", "memory_limit", "1")]),
    ("svc-reports stays on Python 3.10 for now.", [("svc-reports", None, "Python 3.10")]),
    ("svc-invoices publishes its events to NATS.", [("svc-invoices", None, "NATS")]),
    ("The Growth team is Acquisition now.", []),     # a name, not two members
    ("Anna writes to her mother.", []),               # no class of value
    ("We have a lot of work.", []),
])
def test_groups_of_members_and_system_properties(compiler, text, expected):
    drafts = _one(compiler, text)
    assert [(s.name, a, v) for s, a, v, _ in drafts] == expected, text


@pytest.mark.parametrize(("text", "expected"), [
    ("We moved the db-ledger backup cron to 03:45 UTC last week.",
     [("db-ledger backup cron", "schedule", "03:45 UTC")]),
    ("I switched gyms to FitLoft because it's closer to the office.",
     [(None, "gym", "FitLoft")]),
    ("The marketing tooling budget is owned by Helen Strauss.",
     [("marketing tooling budget", "owner", "Helen Strauss")]),
    ("Nora: svc-events is on kafka right", [("svc-events", None, "kafka")]),
    ("Marco: I went fully vegan in june", [("Marco", None, "vegan")]),
    ("Priya became vegetarian last year.", [("Priya", None, "vegetarian")]),
    ("I went home.", []),
    ("We moved the meeting to 15:00.", []),   # a meeting is no system with a schedule
])
def test_times_classes_and_owners_in_everyday_shapes(compiler, text, expected):
    drafts = _one(compiler, text)
    assert [(s.name, a, v) for s, a, v, _ in drafts] == expected, text


@pytest.mark.parametrize(("text", "expected"), [
    ("The db-ledger backup cron runs at 01:30 UTC.",
     [("db-ledger backup cron", "schedule", "01:30 UTC")]),
    ("My brother Tomasz lives in Gdańsk.", [("Tomasz", "lives_in", "Gdańsk")]),
    ("June: support team is 14 people now, finally", [("support team", "headcount", "14")]),
    ("Luca Ferri's new mentor is Grace Obi.", [("Luca Ferri", "mentor", "Grace Obi")]),
    ("My sister lives in Lyon.", []),          # a relation, not a name: nobody to file
])
def test_names_beside_relations_and_phrases_hung_on_the_verb(compiler, text, expected):
    drafts = _one(compiler, text)
    assert [(s.name, a, v) for s, a, v, _ in drafts] == expected, text
