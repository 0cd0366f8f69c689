"""Only real changes meet (graphiti#1728 inside one store): populations of generated pairs
through the pure density reading, the same-property rule and the aligned-negation rule.

- Same subject, different things (one speaker's many claims): never a candidate, never
  testimony for one another, in either band, for any revisable or append-only kind, and
  never a negation difference.
- Same subject, same property, a changed value (a number, a status, an option, a negation of
  the same predicate): always a candidate.
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest

from factstore.differences import differences
from factstore.kinds import Kind
from factstore.writepath.density import NearHit, alternatives, read_hit, same_property
from factstore.writepath.subjects import subject_key, subject_of

T0 = datetime(2026, 1, 1, tzinfo=UTC)
SUBJECTS = ("Sam", "Priya Patel", "web-1")

#: One speaker's claims about different things: (statement, predicate, object). Several
#: share a predicate ("loves", "is", "appreciates") and several are negated somewhere.
UNRELATED = (
    ("{s} loves hiking.", "loves", "hiking"),
    ("{s} wishes your motivation never goes anywhere.", "wishes",
     "your motivation never goes anywhere"),
    ("{s} is so proud of you for finishing the race.", "is",
     "so proud of you for finishing the race"),
    ("{s} is passionate about helping people.", "is", "passionate about helping people"),
    ("{s} will let you know about the picnic.", "will let", "you know about the picnic"),
    ("{s} is fine even when they're not with Audrey.", "is",
     "fine even when they're not with Audrey"),
    ("{s} is not giving up on the pottery class.", "is not giving up",
     "on the pottery class"),
    ("{s} is living a true self these days.", "is living", "a true self these days"),
    ("{s} appreciates our friendship.", "appreciates", "our friendship"),
    ("{s} appreciates your help and motivation.", "appreciates", "your help and motivation"),
    ("{s} loves live music.", "loves", "live music"),
    ("{s} loves how painting is a creative outlet.", "loves",
     "how painting is a creative outlet"),
    ("{s} is glad everyone had fun.", "is", "glad everyone had fun"),
    ("{s} is here for you.", "is", "here for you"),
    ("{s} hasn't read that book.", "hasn't read", "that book"),
    ("{s} doesn't get competitive over board games.", "doesn't get",
     "competitive over board games"),
    ("{s} is keen to try your recipe.", "is", "keen to try your recipe"),
    ("{s} can't wait to see the photos.", "can't wait", "to see the photos"),
    ("{s} couldn't agree more.", "couldn't agree", "more"),
    ("{s} never misses a game on Fridays.", "never misses", "a game on Fridays"),
)

#: Same property, another value: (old, new, kind, old roles, new roles).
Roles = tuple[str | None, str | None]


def _changes() -> list[tuple[str, str, Kind, Roles, Roles]]:
    out: list[tuple[str, str, Kind, Roles, Roles]] = []
    none: Roles = (None, None)
    for n, m in ((3, 5), (2, 7), (4, 9)):
        out.append((f"{{s}} runs {n} replicas right now.", f"{{s}} is now running {m} replicas.",
                    Kind.STATE, none, none))
        out.append((f"{{s}} has {n} open incidents.", f"{{s}} has {m} open incidents.",
                    Kind.STATE, none, none))
        out.append((f"{{s}} is {n} years old.", f"{{s}} is now {m} years old.", Kind.STATE,
                    none, none))
    for old, new in (("green", "red"), ("healthy", "paused"), ("running", "degraded"),
                     ("online", "offline")):
        out.append((f"{{s}} is {old} right now.", f"{{s}} is {new} right now.", Kind.STATE,
                    none, none))
    for old, new in (("tea", "coffee"), ("dark mode", "light mode"),
                     ("window seats", "aisle seats")):
        out.append((f"{{s}} prefers {old}.", f"{{s}} prefers {new}.", Kind.PREFERENCE,
                    ("prefers", old), ("prefers", new)))
    for tool in ("Redis", "Kafka", "Postgres"):
        out.append((f"{{s}} decided to use {tool}.", f"{{s}} decided not to use {tool}.",
                    Kind.DECISION, none, none))
    for thing in ("jazz", "cilantro", "long meetings"):
        out.append((f"{{s}} likes {thing}.", f"{{s}} does not like {thing}.",
                    Kind.PREFERENCE, none, none))
    out.append(("The backup for {s} runs at 02:00.", "The backup for {s} runs at 03:00.",
                Kind.STATE, none, none))
    out.append(("{s} ships on Friday.", "{s} ships on Monday.", Kind.DECISION, none, none))
    return out


def _read(old: str, new: str, similarity: float, kind: Kind, key: str | None,
          old_roles: Roles = (None, None), new_roles: Roles = (None, None)):
    """The new statement read against the old one as a near-hit, both under ``key`` (the
    extractor's subject, as the parser scribe names it: the speaker)."""
    hit = NearHit(1, kind, old, old, "active", similarity, T0, key, None, *old_roles)
    return read_hit(new, key, hit, kind=kind, mode="route", threshold=0.80, floor=0.60,
                    subject_floor=0.50, roles=new_roles)


def _unrelated_pairs(subject: str):
    for (a, pa, oa), (b, pb, ob) in itertools.permutations(UNRELATED, 2):
        yield a.format(s=subject), b.format(s=subject), (pa, oa), (pb, ob)


@pytest.mark.parametrize("subject", SUBJECTS)
def test_one_speakers_claims_about_different_things_never_meet(subject):
    pairs = list(_unrelated_pairs(subject))
    key = subject_key(subject)
    # the population holds what used to make them meet: shared predicates with other
    # objects, and negations elsewhere in one side
    assert sum(ra[0] == rb[0] for _, _, ra, rb in pairs) >= 30
    assert sum("not" in b or "n't" in b or "never" in b for _, b, _, _ in pairs) >= 100
    met = []
    for a, b, roles_a, roles_b in pairs:
        found = differences(a, b)
        assert not any(d.startswith("negation:") for d in found), (a, b, found)
        for kind in (Kind.STATE, Kind.PREFERENCE, Kind.DECISION):
            for similarity in (0.62, 0.86):
                reading = _read(a, b, similarity, kind, key, roles_a, roles_b)
                assert reading.same_subject
                # neither a rival (superseded, contested) nor testimony (merged into it)
                if reading.relation in ("candidate", "restatement"):
                    met.append((kind.value, similarity, a, b, reading.relation,
                                reading.differences))
    assert met == []


@pytest.mark.parametrize("subject", SUBJECTS)
def test_the_same_property_with_another_value_always_meets(subject):
    missed = []
    for old, new, kind, old_roles, new_roles in _changes():
        a, b = old.format(s=subject), new.format(s=subject)
        key = subject_key(subject_of(a))
        assert key == subject_key(subject_of(b)) is not None, (a, b)
        for similarity in (0.58, 0.72, 0.9):
            reading = _read(a, b, similarity, kind, key, old_roles, new_roles)
            if reading.relation != "candidate":
                missed.append((similarity, a, b, reading.relation, reading.differences))
    assert missed == []


REWORDED = (
    ("{s} runs 3 replicas right now.", "{s} currently runs three replicas."),
    ("{s} is green right now.", "{s} is healthy right now."),
    ("{s} is down right now.", "{s} is offline right now."),
    ("{s} will.", "{s} definitely will."),
    ("{s} is here for you.", "{s} is always here for you."),
    ("{s} is having an art show next month.", "{s} is putting together an art show next "
                                              "month."),
)


@pytest.mark.parametrize("subject", SUBJECTS)
def test_a_near_rewording_of_one_property_is_still_testimony(subject):
    key = subject_key(subject)
    for old, new in REWORDED:
        a, b = old.format(s=subject), new.format(s=subject)
        reading = _read(a, b, 0.9, Kind.STATE, key)
        assert reading.relation == "restatement", (a, b, reading)


@pytest.mark.parametrize(("old", "new"), [
    ("web-1 runs 5 replicas right now.", "web-1 is now running 7 replicas."),
    ("The backup runs at 02:00.", "The backup runs at 03:00."),
    ("We decided to use Redis.", "We decided not to use Redis."),
    ("The nightly build is green.", "The nightly build is failing."),
    ("The search index is up to date.", "The search index is stale."),
    ("The staging cluster has 40 nodes.", "The staging cluster has 40 nodes and 2 spares."),
])
def test_same_property_reads_one_frame(old, new):
    assert same_property(old, new, differences(old, new))


@pytest.mark.parametrize(("old", "new"), [
    ("Sam loves hiking.", "Sam wishes your motivation never goes anywhere."),
    ("Joanna is going to try making it tonight.", "Joanna will come over tomorrow."),
    ("The team decided to use Redis.", "The team decided not to deploy on Fridays."),
    ("web-1 runs 3 replicas right now.", "web-1 is degraded right now."),
    ("Tim is glad it had the same impact on you.", "Tim is glad everyone had fun."),
    ("Nate loves coconut milk.", "Nate knows one recipe using coconut milk."),
])
def test_same_property_refuses_two_frames(old, new):
    assert not same_property(old, new, differences(old, new))


@pytest.mark.parametrize(("new", "old", "expected"), [
    # a verb of choice: one option at a time
    (("prefers", "light mode"), ("prefers", "dark mode"), True),
    (("prefers", "coffee"), ("prefers", "tea"), True),
    (("prefers", "live standups"), ("prefers", "async standups"), True),
    (("would rather", "take the train"), ("would rather", "fly"), True),
    # a copula: the statements decide (an antonym, a status, a value), never the roles
    (("is", "open right now"), ("is", "closed right now"), False),
    (("is", "4 years old"), ("is", "3 years old"), False),
    (("is", "so grateful"), ("is", "super thankful"), False),
    (("is", "here for you anytime"), ("is", "so proud of you"), False),
    (("is", "totally hooked"), ("is", "here for you anytime"), False),
    # two likings, two attitudes, two complements: two facts
    (("loves", "how it is a creative outlet"), ("loves", "live music"), False),
    (("loves", "rock music"), ("loves", "live music"), False),
    (("is", "so lucky to have a support system"), ("is", "passionate about helping"), False),
    (("appreciates", "your help"), ("appreciates", "our friendship too"), False),
    (("is", "glad everyone had fun"), ("is", "glad it had the same impact on you"), False),
    (("is", "grateful that John was able to overcome it"),
     ("is", "grateful for the support John has received"), False),
    (("remembers", "you mentioning the roads"), ("remembers", "you mentioning those areas"),
     False),
    # no option named, the same option, another predicate, no predicate
    (("loves", "it"), ("loves", "the self-acceptance theme"), False),
    (("prefers", "it"), ("prefers", "tea"), False),
    (("prefers", "tea"), ("prefers", "tea"), False),
    (("likes", "tea"), ("prefers", "coffee"), False),
    ((None, "tea"), ("prefers", "coffee"), False),
])
def test_a_preferences_new_version_from_its_roles(new, old, expected):
    assert alternatives(new, old, frozenset({"john"})) is expected


def test_the_subjects_own_words_name_no_option():
    # a scribe writes "my family" as "Melanie's family": the name is the subject, no option
    assert alternatives(("prefers", "Melanie's garden"), ("prefers", "the beach"))
    assert not alternatives(("prefers", "Melanie's"), ("prefers", "the beach"),
                            frozenset({"melanie"}))


# -- aligned negation over a generated set -------------------------------------------------

VERBS = (("likes", "like"), ("uses", "use"), ("runs", "run"), ("reads", "read"),
         ("needs", "need"), ("plays", "play"))
OBJECTS = ("jazz", "the staging gate", "a second reviewer", "Redis", "board games")


@pytest.mark.parametrize("subject", ("Sam", "The team", "web-1"))
def test_a_negation_of_the_same_predicate_and_object_is_aligned(subject):
    for (third, base), obj in itertools.product(VERBS, OBJECTS):
        positive = f"{subject} {third} {obj}."
        for negative in (f"{subject} does not {base} {obj}.", f"{subject} never {third} {obj}.",
                         f"{subject} doesn't {base} {obj} anymore."):
            assert differences(positive, negative) == ("negation: b negates a",), negative
            assert differences(negative, positive) == ("negation: a negates b",), negative


@pytest.mark.parametrize("subject", ("Sam", "The team", "web-1"))
def test_a_negation_about_something_else_is_not_a_difference(subject):
    for (third, _), obj in itertools.product(VERBS, OBJECTS):
        positive = f"{subject} {third} {obj}."
        for elsewhere in (f"{subject} is fine even when they're not with {obj}.",
                          f"{subject} never goes anywhere on weekends.",
                          f"{subject} hasn't been around lately.",
                          f"{subject} is not giving up."):
            found = differences(positive, elsewhere)
            # a negation of something else is a detail of one side, never a contradiction
            assert not any(d.startswith("negation:") for d in found), (positive, elsewhere,
                                                                       found)
            assert "negation only in b" in found, (positive, elsewhere, found)
