"""The offline compiler's rules over a generated population of statements.

Many subjects (I, we, people, services), many properties and values, each shape of update
and each shape of non-update, seeded and drawn, not one hand-picked sentence per rule: every
update must compile to its value and key, and nothing a careful reader would not call a
change may compile at all. Parser-based (spaCy), no database.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from factstore.compiler.offline import ParserCompiler
from factstore.compiler.reconcile import reconcile
from factstore.compiler.subjects import SubjectRef
from factstore.compiler.vocabulary import class_of

SAID = datetime(2026, 6, 10, 9, tzinfo=UTC)
PEOPLE = ["Priya", "Mateo Rossi", "Aiko", "Kwame", "Ingrid Larsen", "Tomás", "Leilani",
          "Dmitri", "Amara", "Jonas"]
CITIES = ["Lisbon", "Porto", "Berlin", "Osaka", "Nairobi", "Toronto", "Bologna", "Tampere"]
ORGS = ["Globex", "Initech", "Hooli", "Umbrella", "Vandelay", "Tessellate"]
SYSTEMS = ["web-1", "svc-orders", "svc-search", "api-gw", "db-reports", "svc-payments"]
ROLES = ["engineering manager", "head of design", "data analyst", "staff engineer",
         "product lead", "test manager"]
DATABASES = ["Postgres", "MySQL", "MariaDB"]
EDITORS = ["Vim", "Helix", "Emacs", "Neovim", "Zed"]


def _subject_refs() -> list[tuple[str, str, SubjectRef]]:
    """(subject as written, verb agreement, the reference it must compile to)."""
    out = [("I", "", SubjectRef("speaker")), ("We", "", SubjectRef("group"))]
    out += [(p, "s", SubjectRef("named", p, "person")) for p in PEOPLE]
    return out


def _population(rng: random.Random) -> list[tuple[str, SubjectRef, str, str]]:
    """(text, subject ref, attribute key, value) for value-carrying statements."""
    rows = []
    for written, s, ref in _subject_refs():
        city, org, person = rng.choice(CITIES), rng.choice(ORGS), rng.choice(PEOPLE)
        rows += [
            (f"{written} live{s} in {city}.", ref, "lives_in", city),
            (f"{written} moved to {city} in March.", ref, "lives_in", city),
            (f"{written} work{s} at {org}.", ref, "employer", org),
            (f"{written} joined {org} last month.", ref, "employer", org),
        ]
        if ref.kind != "group":
            rows.append((f"{written} report{s} to {person}.", ref, "reports_to", person))
    for person in PEOPLE:
        role = rng.choice(ROLES)
        rows.append((f"{person} is the {role}.", SubjectRef("named", person, "person"),
                     "job_title", role))
    for system in SYSTEMS:
        ref = SubjectRef("named", system, "system")
        version, replicas = rng.randint(9, 17), rng.randint(2, 30)
        database = rng.choice(DATABASES)
        rows += [
            (f"{system} runs on {database} {version}.", ref, "database",
             f"{database} {version}"),
            (f"{system} was upgraded to {database} {version + 1} last week.", ref,
             "database", f"{database} {version + 1}"),
            (f"{system} runs {replicas} replicas.", ref, "replicas", str(replicas)),
            (f"{system} is now running {replicas} replicas.", ref, "replicas", str(replicas)),
            (f"We bumped {system} to {replicas} replicas yesterday.", ref, "replicas",
             str(replicas)),
            (f"The {system} memory limit is {replicas * 64} MB.", ref, "memory_limit",
             str(replicas * 64)),
        ]
    for n in (38, 40, 41, 44):
        rows.append((f"My shoe size is now {n}.", SubjectRef("speaker"), "shoe_size", str(n)))
    return rows


#: Statements that change nothing: the compiler must not write a value from them.
NON_UPDATES = [
    "We might move to {city} someday.",
    "We did not move to {city} after all.",
    "Did {person} move to {city}?",
    "We will move to {city} next year.",
    "My sister moved to {city}.",
    "We spent a weekend in {city} in March.",
    "We lived in {city}.",
    "If we move to {city}, we will tell you.",
    "We thought about moving to {city}.",
    "{person} wants to work at {org}.",
    "{person} turned down the {org} offer.",
    "Nobody works at {org} anymore.",
]


@pytest.fixture(scope="module")
def compiler() -> ParserCompiler:
    return ParserCompiler()


def _key(draft, registry=None) -> str | None:
    if draft.attribute is not None:
        return draft.attribute
    return class_of(draft.value or "") if draft.value else None


def test_every_update_of_the_population_compiles_to_its_value(compiler) -> None:
    rows = _population(random.Random(7))
    assert len(rows) > 100
    missed = []
    for text, ref, key, value in rows:
        drafts = compiler.compile(text, SAID).drafts
        if not any(d.subject == ref and _key(d) == key and
                   (d.value or "").lower() == value.lower() for d in drafts):
            missed.append((text, [(d.subject, d.attribute, d.value) for d in drafts]))
    assert not missed, missed[:10]


def test_no_non_update_of_the_population_compiles_a_value(compiler) -> None:
    rng = random.Random(11)
    written = []
    for template in NON_UPDATES:
        for _ in range(4):
            text = template.format(city=rng.choice(CITIES), org=rng.choice(ORGS),
                                   person=rng.choice(PEOPLE))
            drafts = compiler.compile(text, SAID).drafts
            written += [(text, d.attribute, d.value) for d in drafts if d.value]
    assert not written, written[:10]


def test_updates_carry_their_cue_time_and_the_values_they_end(compiler) -> None:
    drafts = compiler.compile("I left Globex last month and joined Initech as a data "
                              "engineer.", SAID).drafts
    ended = [d for d in drafts if d.value is None]
    assert [d.ends for d in ended] == [("Globex",)]
    joined = {d.attribute: d for d in drafts if d.value}
    assert joined["employer"].value == "Initech" and joined["job_title"].value == \
        "data engineer"
    assert {d.time.date for d in drafts} == {"2026-05"}  # "last month", shared by both
    switched = compiler.compile("We switched from Vim to Helix.", SAID).drafts
    assert [(d.value, d.ends, class_of(d.value)) for d in switched] == \
        [("Helix", ("Vim",), "editor")]


def test_a_chat_files_i_and_we_under_the_turn_speaker(compiler) -> None:
    text = ("Ana: how's the new flat?\nBen: love it! we moved to Lisbon in March btw\n"
            "Ana: and work?\nBen: I joined Initech last month")
    drafts = compiler.compile(text, SAID).drafts
    assert {(d.subject, d.attribute, d.value) for d in drafts} == {
        (SubjectRef("group", "Ben"), "lives_in", "Lisbon"),
        (SubjectRef("speaker", "Ben"), "employer", "Initech")}
    for draft in drafts:  # each quote is the capture's own words, at its span
        assert text[draft.span[0]:draft.span[1]] == draft.quote


@pytest.mark.parametrize(("question", "answer", "key", "value"), [
    ("which editor do you use these days?", "Vim, forever.", "editor", "Vim"),
    ("what's svc-payments on?", "Postgres 13, yeah I know, it's old", "database",
     "Postgres 13"),
    ("are you still in Valencia?", "yep, Valencia, can't beat the beach", "lives_in",
     "Valencia"),
    ("who does Hiro report to?", "Ines", "reports_to", "Ines"),
    ("how many replicas does web-1 have?", "5 replicas, it's been stable", "replicas", "5"),
])
def test_an_answer_is_read_with_its_question(compiler, question, answer, key, value) -> None:
    text = f"Dev: {question}\nSam: {answer}"
    drafts = compiler.compile(text, SAID).drafts
    found = [(d.attribute or class_of(d.value or ""), d.value) for d in drafts]
    assert (key, value) in found
    assert all(d.quote == answer for d in drafts)


def test_a_no_answers_nothing(compiler) -> None:
    assert not compiler.compile("Dev: are you still in Valencia?\nSam: no, not anymore",
                                SAID).drafts


def test_he_is_the_one_person_named_before_and_never_a_guess(compiler) -> None:
    one = compiler.compile("Gael: Femi wasn't at standup\nHamid: he moved to the Payments "
                           "team last month", SAID).drafts
    assert [(d.subject.name, d.attribute, d.value) for d in one] == \
        [("Femi", "team", "Payments team")]
    two = compiler.compile("Gael: Femi and Quentin weren't at standup\nHamid: he moved to "
                           "the Payments team last month", SAID).drafts
    assert two == ()


def test_reconcile_keys_values_and_refuses_event_words() -> None:
    drafts = ParserCompiler().compile("We use Jenkins for CI. The outage count is 3.",
                                      SAID).drafts
    planned, endings, refused = reconcile(
        drafts, observed=SAID, subject_of=lambda ref, key: "person/nick-group"
        if ref.kind == "group" else "system/x", existing=[], registry={"ci": "ci_system"})
    assert [(p.fact["attribute"], p.fact["value"]) for p in planned] == \
        [("ci_system", "Jenkins")]
    assert endings == []
