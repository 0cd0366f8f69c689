"""Which keys a question is about, chosen by index (store/about.py, migration 009), equals
the whole-table rule: ``about.keys_about`` over every key of the attributes it may name.

The population mixes kinds, one-word and multi-part slugs ('mary-ann' and 'ann-mary',
'u-1', 'u-17', 'u-171', five parts, a repeated part, stray dashes, a slug of dashes only
that every question mentions), the asker's own subject, personal, shared and another
user's scope, and attributes held by many subjects, two, or one.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factstore.store import about as about_sql
from factstore.timelines import about

USER = "U0NICK"
ME = "person/u0nick"
SCOPES = ["local/user-u0nick", "local/shared-main"]

SLUGS = ("nick", "ann", "mary", "mary-ann", "ann-mary", "u-1", "u-17", "u-171", "17",
         "u-17-b", "api-v2", "auth-api", "billing-api", "a-b-c-d-e", "x-x", "--zed-",
         "2024", "city", "my", "bob", "u0nick")
KINDS = ("person", "project", "system", "customer")
#: (attribute, share of subjects that have it); None: placed by hand below
ATTRIBUTES = (("city", 0.6), ("employer", 0.4), ("shoe_size", 0.15), ("uses_tool", 0.3),
              ("home_city", 0.1))
PHRASES = ("city", "employer", "shoe size", "shoe sizes", "uses tool", "office floor",
           "motto", "home city", "weather", "favourite color", "launch date")
NOISE = ("what", "is", "the", "of", "and", "was", "now", "in", "who", "does", "tell", "about")


def _fact(subject: str, attribute: str, value: str, day: int) -> dict:
    return {"subject": subject, "attribute": attribute, "value": value,
            "valid_from": f"20{10 + day % 15:02d}-0{1 + day % 9}-1{day % 10}",
            "observed_at": "2026-01-02T03:04:05Z", "source": f"test:{subject}#{attribute}"}


def _population(rng: random.Random) -> tuple[list[dict], list[dict], list[dict]]:
    """(personal, shared, another user's) format v1 facts."""
    subjects = sorted({f"{rng.choice(KINDS)}/{slug}" for slug in SLUGS}
                      | {"person/mary-ann", "project/mary-ann", "person/u-17", "person/nick"})
    personal, shared = [], []
    for i, subject in enumerate(subjects):
        for attribute, share in ATTRIBUTES:
            if rng.random() < share:
                where = shared if rng.random() < 0.4 else personal
                where.append(_fact(subject, attribute, f"v{i}", i))
                if rng.random() < 0.2:  # the key in both scopes
                    (personal if where is shared else shared).append(
                        _fact(subject, attribute, f"w{i}", i + 1))
    personal += [_fact("me", "city", "Lisbon", 1), _fact("me", "shoe_size", "41", 2),
                 _fact("me", "uses_tool", "jj", 3),
                 # one subject only, and two subjects only
                 _fact("person/bob", "office_floor", "7", 4),
                 _fact("project/api-v2", "launch_date", "2027", 5),
                 _fact("system/auth-api", "launch_date", "2028", 6),
                 # every question mentions a slug of dashes only (three of them: more than
                 # the two subjects the one-subject probe reads)
                 _fact("glossary/-", "motto", "dash", 7), _fact("radar/--", "motto", "d", 7),
                 _fact("person/---", "motto", "d", 7), _fact("person/nick", "motto", "n", 7),
                 _fact("project/x-x", "motto", "x", 7)]
    other = [_fact("person/zed", "favourite_color", "red", 8),
             _fact("person/nick", "city", "Oslo", 9), _fact("person/nick", "motto", "x", 9)]
    return personal, shared, other


def _mention(slug: str, rng: random.Random) -> list[str]:
    parts = [p for p in slug.split("-") if p] or ["-"]
    how = rng.randrange(5)
    if how == 0:
        return [f"{rng.choice(KINDS)}/{slug}'s"]
    if how == 1:
        return [slug]
    if how == 2:
        return parts
    if how == 3:
        return list(reversed(parts))
    return parts[:1]  # a part only: names nothing unless the slug is one word


def _question(rng: random.Random, long: bool = False) -> str:
    words = [rng.choice(NOISE) for _ in range(rng.randrange(1, 4))]
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        words += _mention(rng.choice(SLUGS), rng)
        words += [rng.choice(NOISE)]
    for _ in range(rng.choice((1, 1, 2))):
        words.insert(rng.randrange(len(words) + 1), rng.choice(PHRASES))
    if rng.random() < 0.3:
        words.insert(rng.randrange(len(words) + 1), rng.choice(("my", "me", "mine", "I")))
    if long:  # past MAX_PAIRED_WORDS distinct words: the last part is probed alone
        words += [f"w{k}" for k in range(about_sql.MAX_PAIRED_WORDS + 5)]
        rng.shuffle(words)
    if rng.random() < 0.3:  # a split part scattered: 'mary ... ann'
        words.insert(rng.randrange(len(words) + 1), rng.choice(("ann", "mary", "17", "u", "b")))
    return " ".join(words) + "?"


def _all_keys(store) -> list[tuple[str, str]]:
    """Every key of the asker's scopes: what the old whole-table query read."""
    with store._tx() as cur:
        cur.execute("SELECT DISTINCT subject, attribute FROM facts WHERE attribute IS NOT NULL "
                    "AND timeline_scope = ANY(%s)", (SCOPES,))
        return [(r["subject"], r["attribute"]) for r in cur.fetchall()]


def _reference(question: str, keys: list[tuple[str, str]]) -> list[tuple[str, str]]:
    candidates = set(about.attribute_candidates(question))
    return about.keys_about(question, [k for k in keys if k[1] in candidates], ME)


@pytest.fixture()
def populated(open_store):
    store = open_store(user_id=USER)
    personal, shared, other = _population(random.Random(20261202))
    store.backfill_facts(personal)
    store.backfill_facts(shared, shared=True)
    store.backfill_facts(other, user="someone-else")
    return store


def test_the_indexed_choice_equals_the_whole_table_rule(populated):
    keys = _all_keys(populated)
    rng = random.Random(7)
    questions = [_question(rng) for _ in range(400)] + [_question(rng, long=True)
                                                        for _ in range(60)]
    questions += ["what is person/u-17's city?", "what is u 17's city?", "ann mary city",
                  "mary and ann: employer?", "what is my city?", "what's my shoe size?",
                  "which office floor?", "launch date?", "api v2 launch date",
                  "what is the motto?", "favourite color?", "city of nick", "my city, nick?",
                  "what is the weather like?", "a b c d e city", "e d c b a city", "x city",
                  "zed city", "u0nick employer", "2024 city"]
    chosen = shapes = 0
    with populated._tx() as cur:
        for question in questions:
            expected = _reference(question, keys)
            assert about_sql.keys_about(cur, question, SCOPES, ME) == expected, question
            chosen += bool(expected)
            shapes += len({s for s, _ in expected}) > 1
    # the population exercises the rule, not just its empty answers
    assert chosen > len(questions) // 3 and shapes > 20


def test_brief_lines_are_the_chosen_keys(populated):
    keys = _all_keys(populated)
    rng = random.Random(11)
    for question in [_question(rng) for _ in range(40)] + ["what is my city?"]:
        lines = populated.brief(question).lines
        shown = sorted({tuple(reversed(re.match(r"(\w+)\((.+?)\) = ", line).groups()))
                        for line in lines})
        assert shown == _reference(question, keys), question


def test_the_sql_slug_ends_are_about_slug_ends(populated):
    odd = ["person/u-17", "person/nick", "glossary/-", "radar/--a--b--", "nope", "/x",
           "person/", "a/b/c-d", "person/Ünï-cödé", "x/-y", "x/y-", "system/a--b"]
    with populated._tx() as cur:
        cur.execute(f"SELECT f.subject, {about_sql.FIRST} AS first, {about_sql.LAST} AS last "
                    "FROM (SELECT unnest(%s::text[]) AS subject UNION "
                    "SELECT subject FROM facts WHERE attribute IS NOT NULL) AS f", (odd,))
        rows = cur.fetchall()
    assert len(rows) > len(odd)
    for row in rows:
        assert (row["first"], row["last"]) == about.slug_ends(row["subject"]), row["subject"]


def test_the_lookups_ride_the_slug_index(populated):
    params = {"attributes": ["city", "employer"], "scopes": SCOPES,
              "words": about.slug_words("what is person/u-17's city?"), "subject": ME}
    with populated._tx() as cur:
        cur.execute("SET LOCAL enable_seqscan = off")
        for query in (about_sql.TWO_SUBJECTS, about_sql.NAMED_PAIRED, about_sql.NAMED):
            cur.execute("EXPLAIN " + query, params)
            plan = "\n".join(r["QUERY PLAN"] for r in cur.fetchall())
            if query is about_sql.TWO_SUBJECTS:
                # only this index yields a key's subjects in slug order: the expressions match
                assert "facts_timeline_slug" in plan and "Sort" not in plan, plan
            else:
                assert "Index" in plan and "Seq Scan" not in plan, plan


# -- pure -----------------------------------------------------------------------------------

def test_slug_ends():
    assert about.slug_ends("person/u-17") == ("u", "17")
    assert about.slug_ends("person/nick") == ("nick", "nick")
    assert about.slug_ends("radar/--a--b--") == ("a", "b")
    assert about.slug_ends("glossary/-") == ("", "")
    assert about.slug_ends("nope") == ("nope", "nope")
    assert about.slug_words("Nick's u-17 and NICK?") == ["", "nick", "u", "17", "and"]


def test_keys_about_counts_a_repeated_key_once():
    assert about.keys_about("city?", [("person/a", "city"), ("person/a", "city")], None) == [
        ("person/a", "city")]


slug = st.text(alphabet="ab1-", min_size=1, max_size=8)
question = st.lists(st.sampled_from(["a", "b", "1", "ab", "a1", "b-a", "x", "my"]),
                    max_size=6).map(" ".join)


@given(slug, question)
def test_a_mentioned_subject_has_both_slug_ends_in_the_question_words(slug, question):
    subject = "person/" + slug
    first, last = about.slug_ends(subject)
    if about.subject_mentioned(subject, question):
        assert first in about.slug_words(question) and last in about.slug_words(question)


@pytest.mark.parametrize(("question", "subject", "another"), [
    ("Which region is svc-mail deployed in?", "system/svc-analytics", True),
    ("Which message broker does svc-invoices use?", "system/svc-payments", True),
    ("What is the api-gw timeout?", "system/api-gw", False),
    ("What is web-1's memory limit?", "system/web-1", False),
    ("What is my shoe size?", "person/root", False),
    ("Where does Greta live?", "person/greta", False),
    ("What is Elif's shoe size?", "person/root", True),
    ("Who leads Project Fjord?", "project/project-harbor", True),
    ("Who leads Project Fjord?", "project/project-fjord", False),
    ("Which CI system does the checkout repo build on?", "system/checkout-repo", False),
])
def test_a_question_naming_another_is_not_answered_by_the_only_one(question, subject,
                                                                   another):
    assert about.names_another(question, subject) is another
    # the only subject holding the attribute answers only when the question names no other
    chosen = about.keys_about(question, [(subject, "region")], None)
    mentioned = about.subject_mentioned(subject, question)
    assert (chosen == []) is (another and not mentioned)
