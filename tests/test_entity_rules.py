"""The entity layer's decision logic as pure functions, without a database or an embedder:
names (normalise, nicknames, Soundex, keys, Jaro-Winkler, fit tiers, surname clash),
resolution (distinction, ranking, the T0/T3/T4 tiers, the match-biased rule), the model's
rules (types, timeline names, relation confidence, traversal, profiles), the drafts a fact
brings (mentions, subject, relations), a contradiction's preferred member, and the names a
question carries. T3's vectors are built by hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from factstore.entities.drafts import MAX_NAME, MentionDraft, entity_fields, name_like
from factstore.entities.model import (
    PREDICATES,
    Relation,
    entity_type,
    profile_text,
    relation_confidence,
    timeline_name,
    traverse,
)
from factstore.entities.names import (
    NICKNAMES,
    NameFit,
    canonical_given,
    jaro_winkler,
    keys,
    name_fit,
    name_score,
    normalise,
    query_names,
    soundex,
    surname_clash,
    tokens,
)
from factstore.entities.resolution import (
    BINDING_GENERATION,
    ONE_VALUED,
    Candidate,
    Decision,
    Mention,
    RuleResolver,
    Scored,
    distinction,
    entities_distinct,
    resolve,
    score,
)
from factstore.groups import MemberStanding, preferred_member, read_confidence

T = datetime(2026, 3, 1, tzinfo=UTC)
X = np.array([1.0, 0.0, 0.0])
Y = np.array([0.0, 1.0, 0.0])
XY = np.array([1.0, 1.0, 0.0])  # cos(X, XY) = 0.707


def person(entity_id: str, name: str, *aliases: str, kind: str = "Person", **kw) -> Candidate:
    return Candidate(entity_id, name, tuple(aliases), kind, **kw)


def mention(name: str, kind: str | None = "Person", vector: np.ndarray | None = None,
            **anchors: str) -> Mention:
    return Mention(name, kind, f"{name} said something", vector, anchors)


@dataclass
class Scripted:
    """A T4 resolver that answers what it is told and records what it was shown."""

    decision: Decision
    name: str = "scripted/test"
    shown: list[list[str]] = field(default_factory=list)

    def decide(self, mention: Mention, candidates: Sequence[Scored]) -> Decision:
        self.shown.append([s.candidate.entity_id for s in candidates])
        return self.decision


# ======================================================================= names: folding


@pytest.mark.parametrize(("name", "norm"), [
    ("Dr. Mei Chen", "mei chen"),
    ("  MEI   chen ", "mei chen"),
    ("Arc Labs, Inc.", "arc labs"),
    ("The Arc Labs Group Ltd", "arc labs"),
    ("@priya", "priya"),
    ("José Núñez", "jose nunez"),
    ("Mary-Jane O'Brien", "mary jane o brien"),
    ("Prof. Sir Alan Turing Jr.", "alan turing"),
    ("The Co", "the co"),           # only titles/suffixes: the words are kept
    ("Dr.", "dr"),
    ("!!!", ""),
])
def test_normalise_folds_case_accents_punctuation_titles_and_suffixes(name, norm):
    assert normalise(name) == norm
    assert tokens(name) == (norm.split() if norm else [])


@pytest.mark.parametrize(("word", "full"), [
    ("bob", "robert"), ("bobby", "robert"), ("liz", "elizabeth"), ("jack", "john"),
    ("alex", "alexander"), ("sasha", "alexander"), ("robert", "robert"), ("priya", "priya"),
])
def test_canonical_given_maps_nicknames_and_leaves_other_words(word, full):
    assert canonical_given(word) == full


def test_every_nickname_maps_to_a_lowercase_word_that_is_not_itself():
    for nick, full in NICKNAMES.items():
        assert nick == nick.lower() and nick.isalpha(), nick
        assert full == full.lower() and full.isalpha() and full != nick, nick


@pytest.mark.parametrize(("word", "code"), [
    ("Robert", "R163"), ("Rupert", "R163"), ("Ashcraft", "A261"), ("Tymczak", "T522"),
    ("Pfister", "P236"), ("Honeyman", "H555"), ("Lee", "L000"), ("Priya", "P600"),
    ("Preya", "P600"), ("Micheal", "M240"), ("Michael", "M240"), ("123", ""), ("", ""),
])
def test_soundex(word, code):
    assert soundex(word) == code


def test_keys_of_a_titled_name():
    assert keys("Dr. Mei Chen") == {"n:mei chen", "t:mei", "t:chen", "s:M000", "s:C500",
                                    "p:mei", "p:che", "a:mc"}


def test_acronyms_meet_their_expansions():
    assert "a:ibu" in keys("IBU") & keys("International Business Unit")
    assert "a:gdpr" in keys("GDPR") & keys("General Data Protection Regulation")
    assert "a:ba" in keys("Bank of America")  # linking words are skipped
    assert "a:ibu" not in keys("Ibu")  # a capitalised word is not an acronym
    assert name_fit("IBU", "International Business Unit").why == "acronym"
    assert name_fit("International Business Unit", "IBU").score == 0.8
    assert name_fit("Ibu", "International Business Unit").score == 0.0
    assert name_fit("NGU", "Northgate United").score == 0.0  # two initials, not three


def test_keys_carry_the_nickname_given_name_and_a_handle_loses_its_at():
    assert {"t:bobby", "t:robert", "n:bobby"} <= keys("Bobby")
    assert keys("@priya") == keys("Priya") == {"n:priya", "t:priya", "s:P600", "p:pri"}


def test_keys_skip_soundex_and_prefix_for_short_or_numeric_words():
    found = keys("Ed web01")
    assert {"n:ed web01", "t:ed", "t:edward", "t:web01", "a:ew"} == found


def test_keys_of_a_misspelling_and_a_short_form_meet_the_full_name():
    assert keys("Preya") & keys("Priya Patel") == {"s:P600"}
    assert "p:sam" in keys("Sam") & keys("Samantha")


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("martha", "marhta", 0.9611),
    ("dwayne", "duane", 0.84),
    ("dixon", "dicksonx", 0.8133),
    ("jon", "john", 0.9333),
    ("same", "same", 1.0),
    ("", "abc", 0.0),
    ("abc", "xyz", 0.0),
])
def test_jaro_winkler_reference_values(a, b, expected):
    assert jaro_winkler(a, b) == pytest.approx(expected, abs=1e-4)


# ======================================================================= names: fits


@pytest.mark.parametrize(("m", "c", "fit"), [
    ("Dr. Mei Chen", "Mei Chen", (1.0, "T1", "exact")),
    ("Arc Labs, Inc.", "Arc Labs", (1.0, "T1", "exact")),
    ("@priya", "Priya", (1.0, "T1", "exact")),
    ("Bob Smith", "Robert Smith", (0.95, "T1", "nickname")),
    ("Priya", "Priya Patel", (0.8, "T1", "part")),
    ("Chen", "Mei Chen", (0.8, "T1", "part")),
    ("Priya Patel", "Priya", (0.8, "T1", "part")),
    ("Bob", "Robert Smith", (0.8, "T1", "part")),
    ("Sam", "Samantha Reed", (0.7, "T2", "part")),
    ("M. Chen", "Mei Chen", (0.85, "T1", "initials")),
    ("Jon Smyth", "John Smith", (0.8933, "T2", "spelling")),
    ("Preya", "Priya", (0.8933, "T2", "spelling")),
    ("Samantha", "Sam", (0.85, "T2", "spelling")),
])
def test_name_fit_tiers(m, c, fit):
    found = name_fit(m, c)
    assert (found.tier, found.why) == fit[1:]
    assert found.score == pytest.approx(fit[0], abs=1e-4)


@pytest.mark.parametrize(("m", "c"), [
    ("Alex Kim", "Alex Moreno"),
    ("Priya Patel", "Priya Nair"),
    ("Mei Chen", "Wei Chen"),       # the given names differ (Soundex M000 / W000)
    ("Zed", "Mei Chen"),
    ("!!!", "Mei Chen"),
    ("Mei Chen", ""),
])
def test_name_fit_no_fit(m, c):
    assert name_fit(m, c) == NameFit(0.0, "", "no fit")


def test_a_plural_fits_as_the_same_word():
    fit = name_fit("Arc Lab", "Arc Labs")
    assert fit.score == 0.95 and fit.tier == "T1"


def test_name_score_takes_the_best_name_and_calls_an_exact_alias_an_alias():
    names = ["Robert Smith", "Bobby Smith", "Bob"]
    assert name_score("Robert Smith", names) == NameFit(1.0, "T1", "exact")
    assert name_score("Bobby Smith", names) == NameFit(1.0, "T1", "alias")
    assert name_score("Dr. Bobby Smith", names) == NameFit(1.0, "T1", "alias")
    assert name_score("Rob Smith", names) == NameFit(0.95, "T1", "nickname")
    assert name_score("Zed", names).score == 0.0
    assert name_score("Zed", []).score == 0.0


@pytest.mark.parametrize(("a", "b", "clash"), [
    ("Alex Kim", "Alex Moreno", True),
    ("Priya Patel", "Priya Nair", True),
    ("Alex Kim", "Alex", False),            # one of them is no full name
    ("Alex", "Alex Moreno", False),
    ("Jon Smyth", "John Smith", False),     # a misspelled surname is the same surname
    ("Bob Smith", "Robert Smith", False),
    ("Dr. Mei Chen", "Mei Chen", False),
])
def test_surname_clash(a, b, clash):
    assert surname_clash(a, b) is clash
    assert surname_clash(b, a) is clash


def test_initials_fit_both_ways():
    assert name_fit("Mei Chen", "M. Chen").why == "initials"


# ======================================================================= distinction


def test_distinction_by_type_needs_two_known_types():
    org = mention("Arc Labs", "Organization")
    assert distinction(org, person("p", "Arc Labs")) == "type Organization is not Person"
    assert distinction(mention("Priya Patel"), person("o", "Priya Patel", kind="Organization"))
    assert distinction(org, person("q", "Arc Labs", kind="Project")) == \
        "type Organization is not Project"
    assert distinction(mention("Arc Labs", None), person("p", "Arc Labs")) is None
    assert distinction(org, person("c", "Arc Labs", kind="Concept")) is None  # untyped


def test_distinction_by_surname_needs_every_name_of_the_candidate_to_clash():
    moreno = person("e1", "Alex Moreno")
    assert distinction(mention("Alex Kim"), moreno) == "surname: Alex Kim is not Alex Moreno"
    # an untyped mention against a Person candidate is read as a person too
    assert distinction(mention("Alex Kim", None), moreno) is not None
    assert distinction(mention("Alex"), moreno) is None
    assert distinction(mention("Alex Kim"), person("e2", "Alex Moreno", "Alex Kim")) is None
    # organisations have no surnames
    assert distinction(mention("Arc Labs", "Organization"),
                       person("o", "Arc Works", kind="Organization")) is None


def test_a_bare_alias_does_not_hide_a_surname_clash():
    moreno = person("e1", "Alex Moreno", "Alex")
    assert distinction(mention("Alex Kim"), moreno) is not None
    assert resolve(mention("Alex Kim"), [moreno], RuleResolver()).entity_id is None


def test_an_untyped_concept_entity_is_no_distinction_for_a_person():
    untyped = person("c1", "Priya Patel", kind="Concept")
    assert distinction(mention("Priya Patel"), untyped) is None


def test_distinction_by_one_valued_anchor():
    initech = person("e1", "Alex", anchors={"works_at": frozenset({"initech"})})
    found = distinction(mention("Alex", works_at="Globex Inc."), initech)
    assert found == "works_at Globex Inc. is not initech"
    # the same value, written differently
    assert distinction(mention("Alex", works_at="Initech, Inc."), initech) is None
    # one value among several held
    both = person("e2", "Alex", anchors={"works_at": frozenset({"initech", "globex"})})
    assert distinction(mention("Alex", works_at="Globex"), both) is None
    # nothing held for it: no evidence either way
    assert distinction(mention("Alex", works_at="Globex"), person("e3", "Alex")) is None
    # a relation that is not one-valued proves nothing
    friend = person("e4", "Alex", anchors={"friend_of": frozenset({"bob"})})
    assert "friend_of" not in ONE_VALUED
    assert distinction(mention("Alex", friend_of="Carol"), friend) is None


def test_entities_distinct():
    kim, moreno = person("a", "Alex Kim"), person("b", "Alex Moreno")
    assert entities_distinct(kim, moreno) == "surname: Alex Kim is not Alex Moreno"
    # a shared full name among the aliases: maybe one person
    assert entities_distinct(kim, person("c", "Alex Moreno", "Alex Kim")) is None
    # bare names on either side prove nothing, but the full names still clash
    assert entities_distinct(person("d", "Alex Kim", "Alex"),
                             person("e", "Alex Moreno", "Alex")) is not None
    assert entities_distinct(person("f", "Alex"), moreno) is None
    assert entities_distinct(person("g", "Arc Labs", kind="Organization"),
                             person("h", "Arc Labs")) == "type Organization is not Person"
    assert entities_distinct(person("i", "Arc", kind="Concept"), person("j", "Arc")) is None
    assert entities_distinct(person("k", "Arc", kind="Organization"),
                             person("l", "Arc", kind="Project")) is not None
    works = {"works_at": frozenset({"initech"})}
    assert entities_distinct(person("m", "Alex", anchors=works), person(
        "n", "Alex", anchors={"works_at": frozenset({"globex"})})) == \
        "works_at initech is not globex"
    assert entities_distinct(person("o", "Alex", anchors=works), person(
        "p", "Alex", anchors={"works_at": frozenset({"globex", "initech"})})) is None
    assert entities_distinct(person("q", "Alex", anchors=works), person("r", "Alex")) is None


# ======================================================================= score and rank


def test_score_keeps_only_fitting_candidates_best_first():
    cands = [person("z", "Zed"), person("p", "Priya Patel"), person("x", "Priya")]
    found = score(mention("Priya"), cands)
    # both fit a bare "Priya" alike (nothing else differs: the id breaks the tie)
    assert [s.candidate.entity_id for s in found] == ["p", "x"]
    assert found[1].fit.why == "exact" and found[0].fit.why == "part"
    full = score(mention("Priya Patel"), [person("x", "Priya"), person("p", "Priya Patel")])
    assert [s.candidate.entity_id for s in full] == ["p", "x"]
    assert all(s.t3 is None for s in found)


def test_ranking_order_distinction_document_fit_context_mentions_id():
    m = mention("Priya", vector=X)
    # an undistinguished candidate beats a distinguished one with a better fit
    distinct = person("a", "Priya", anchors={"works_at": frozenset({"globex"})})
    open_ = person("b", "Priya Patel")
    m_anchor = Mention("Priya", "Person", "", X, {"works_at": "initech"})
    assert [s.candidate.entity_id for s in score(m_anchor, [distinct, open_])] == ["b", "a"]
    # a bare name fits its exact and its part candidates alike: this document decides
    assert [s.candidate.entity_id for s in score(m, [
        person("a", "Priya"), person("b", "Priya Patel", in_document=True)])] == ["b", "a"]
    # ... and then the context, not which of them already carries the alias
    assert [s.candidate.entity_id for s in score(m, [
        person("a", "Priya Patel", profile_vector=X), person("b", "Priya",
                                                            profile_vector=Y)])] == ["a", "b"]
    # for a full name the fit beats this document and the context
    full = mention("Michael Brennan", vector=X)
    assert [s.candidate.entity_id for s in score(full, [
        person("a", "Mike", in_document=True, profile_vector=X),
        person("b", "Micheal Brennan", profile_vector=Y)])] == ["b", "a"]
    # the context beats the mentions; a profile beats none
    assert [s.candidate.entity_id for s in score(m, [
        person("a", "Priya Nair", mentions=50), person("b", "Priya Patel", profile_vector=Y),
        person("c", "Priya Shah", profile_vector=XY)])] == ["c", "b", "a"]
    # the mentions beat the id, the id breaks the last tie
    assert [s.candidate.entity_id for s in score(m, [
        person("c", "Priya Nair"), person("b", "Priya Shah"),
        person("a", "Priya Patel", mentions=3)])] == ["a", "b", "c"]


def test_scored_audit_row():
    s = score(mention("Priya", vector=X), [person("p", "Priya Patel", profile_vector=XY)])[0]
    assert s.as_audit() == {"id": "p", "name": "Priya Patel", "type": "Person", "fit": 0.8,
                            "tier": "T1", "why": "part", "t3": 0.707, "distinct": None,
                            "in_document": False}


# ======================================================================= resolve


def test_no_fitting_candidate_is_none_and_the_resolver_is_not_asked():
    resolver = Scripted(Decision("x", "?"))
    out = resolve(mention("Alex Kim"), [person("m", "Alex Moreno"), person("z", "Zed")],
                  resolver, binding="m")
    assert (out.entity_id, out.tier) == (None, "none")
    assert out.audit["candidates"] == [] and out.audit["snapshot"] == 2
    assert resolver.shown == []
    assert resolve(mention("Priya"), [], resolver).tier == "none"


@pytest.mark.parametrize("name", ["Mei Chen", "Dr. Mei Chen", "M. Chen"])
def test_t0_replays_a_binding_for_an_exact_or_alias_fit(name):
    bound = person("b", "Mei Chen" if name != "M. Chen" else "Meiling Chen", "M. Chen")
    other = person("o", "Mei Chen", in_document=True, profile_vector=X)
    resolver = Scripted(Decision("o", "?"))
    out = resolve(mention(name, vector=X), [other, bound], resolver, binding="b")
    assert (out.entity_id, out.tier) == ("b", "T0")
    assert BINDING_GENERATION in out.reason and out.confidence is None
    assert resolver.shown == []


@pytest.mark.parametrize(("name", "bound_name"), [
    ("Priya", "Priya Patel"),        # part of a name
    ("Bob Smith", "Robert Smith"),   # nickname
    ("Jon Smyth", "John Smith"),     # close spelling
])
def test_t0_never_replays_a_fuzzy_fit(name, bound_name):
    resolver = Scripted(Decision(None, "new: scripted"))
    out = resolve(mention(name), [person("b", bound_name)], resolver, binding="b")
    assert out.tier == "T4" and out.entity_id is None
    assert resolver.shown == [["b"]]


def test_t0_needs_the_bound_entity_in_the_snapshot():
    out = resolve(mention("Mei Chen"), [person("a", "Mei Chen")], RuleResolver(),
                  binding="gone")
    assert (out.entity_id, out.tier) == ("a", "T4")


def test_t3_accepts_the_one_undistinguished_candidate_with_a_similar_profile():
    out = resolve(mention("Priya", vector=X), [person("p", "Priya Patel", profile_vector=XY)],
                  Scripted(Decision(None, "new")))
    assert (out.entity_id, out.tier) == ("p", "T3")
    assert out.confidence == pytest.approx(0.7071, abs=1e-4)


@pytest.mark.parametrize(("case", "m", "cands", "accept"), [
    ("no profile vector", mention("Priya", vector=X), [person("p", "Priya Patel")], 0.5),
    ("no context vector", mention("Priya"), [person("p", "Priya Patel", profile_vector=X)],
     0.5),
    ("zero profile vector", mention("Priya", vector=X),
     [person("p", "Priya Patel", profile_vector=np.zeros(3))], 0.5),
    ("below the threshold", mention("Priya", vector=X),
     [person("p", "Priya Patel", profile_vector=XY)], 0.75),
    ("orthogonal", mention("Priya", vector=X),
     [person("p", "Priya Patel", profile_vector=Y)], 0.5),
    ("two candidates", mention("Priya", vector=X),
     [person("p", "Priya Patel", profile_vector=X), person("n", "Priya Nair")], 0.5),
    ("distinct by type", mention("Priya Patel", "Organization", vector=X),
     [person("p", "Priya Patel", profile_vector=X)], 0.5),
    ("distinct by anchor", Mention("Alex", "Person", "", X, {"works_at": "Globex"}),
     [person("a", "Alex", profile_vector=X, anchors={"works_at": frozenset({"initech"})})],
     0.5),
])
def test_t3_refuses(case, m, cands, accept):
    resolver = Scripted(Decision(None, "new: scripted", 0.9))
    out = resolve(m, cands, resolver, t3_accept=accept)
    assert out.tier == "T4", case
    assert (out.entity_id, out.reason, out.confidence) == (None, "new: scripted", 0.9)
    assert out.audit["resolver"] == "scripted/test"


def test_t3_threshold_is_inclusive():
    out = resolve(mention("Priya", vector=X), [person("p", "Priya Patel", profile_vector=X)],
                  RuleResolver(), t3_accept=1.0)
    assert out.tier == "T3"


def test_t4_gets_every_fitting_candidate_and_its_decision_stands():
    resolver = Scripted(Decision("n", "match: scripted", 0.6))
    cands = [person("p", "Priya Patel"), person("n", "Priya Nair"), person("z", "Zed")]
    out = resolve(mention("Priya"), cands, resolver)
    assert (out.entity_id, out.tier, out.reason, out.confidence) == \
        ("n", "T4", "match: scripted", 0.6)
    assert sorted(resolver.shown[0]) == ["n", "p"]
    assert "refused_decision" not in out.audit


def test_a_decision_naming_no_candidate_is_refused_for_the_match_biased_rule():
    cands = [person("p", "Priya Patel", mentions=4), person("n", "Priya Nair"),
             person("z", "Zed")]
    for bogus in ("ghost", "z"):   # unknown, or in the snapshot without a fitting name
        out = resolve(mention("Priya"), cands, Scripted(Decision(bogus, "match: ?", 0.99)))
        assert out.audit["refused_decision"] == bogus
        assert out.entity_id == "p" and out.tier == "T4"
        assert out.reason.startswith("match: part name fit 0.80")
        assert out.confidence == 0.4


def test_truncation_is_recorded_and_changes_nothing():
    cands = [person("p", "Priya Patel"), person("n", "Priya Nair")]
    full = resolve(mention("Priya"), cands, RuleResolver())
    cut = resolve(mention("Priya"), cands, RuleResolver(), truncated=True)
    assert full.audit["truncated"] is False and cut.audit["truncated"] is True
    assert (cut.entity_id, cut.tier, cut.reason) == (full.entity_id, full.tier, full.reason)


def test_priya_against_patel_and_nair_is_a_match_never_new():
    out = resolve(mention("Priya"), [person("p", "Priya Patel"), person("n", "Priya Nair",
                                                                       mentions=2)],
                  RuleResolver())
    assert (out.entity_id, out.tier) == ("n", "T4")
    assert [c["why"] for c in out.audit["candidates"]] == ["part", "part"]
    assert out.confidence == 0.4   # two equal fits: no margin


@pytest.mark.parametrize(("name", "cand", "why"), [
    ("Dr. Mei Chen", "Mei Chen", "exact"),
    ("Bob Smith", "Robert Smith", "nickname"),
    ("Jon Smyth", "John Smith", "spelling"),
    ("@priya", "Priya", "exact"),
])
def test_rule_resolver_matches_fitting_names(name, cand, why):
    out = resolve(mention(name), [person("e", cand)], RuleResolver())
    assert (out.entity_id, out.tier) == ("e", "T4")
    assert out.reason.startswith(f"match: {why} name fit")
    assert out.audit["resolver"] == RuleResolver.name


def test_an_organization_mention_is_new_against_a_person():
    m = mention("Arc Labs, Inc.", "Organization", vector=X)
    out = resolve(m, [person("p", "Arc Labs", profile_vector=X)], RuleResolver())
    assert (out.entity_id, out.tier) == (None, "T4")
    assert out.reason == "new: distinct from every candidate (Arc Labs: type Organization " \
                         "is not Person)"
    org = person("o", "Arc Labs", kind="Organization", profile_vector=X)
    assert resolve(m, [org], RuleResolver()).entity_id == "o"


def test_differing_works_at_makes_new_and_a_shared_one_matches():
    initech = person("i", "Alex", "Alex Moreno", anchors={"works_at": frozenset({"initech"})})
    out = resolve(mention("Alex", works_at="Globex"), [initech], RuleResolver())
    assert out.entity_id is None and "works_at Globex is not initech" in out.reason
    assert resolve(mention("Alex", works_at="Initech"), [initech],
                   RuleResolver()).entity_id == "i"


def test_rule_resolver_prefers_the_undistinguished_and_the_document():
    m = mention("Alex", works_at="Globex")
    cands = [person("a", "Alex", anchors={"works_at": frozenset({"initech"})}, mentions=9),
             person("b", "Alex Moreno"), person("c", "Alex Kim", in_document=True)]
    out = resolve(m, cands, RuleResolver())
    assert out.entity_id == "c" and "already in this document" in out.reason
    # with the context: the reason says so, a lone candidate's margin is its fit
    d = RuleResolver().decide(m, score(mention("Alex", vector=X),
                                       [person("b", "Alex Moreno", profile_vector=X)]))
    assert d == Decision("b", "match: part name fit 0.80, context 1.00", 1.0)


# ======================================================================= model


@pytest.mark.parametrize(("value", "valid"), [
    ("Person", True), ("Organization", True), ("ChessClub", True), ("Ab", True),
    ("A" + "b" * 39, True), ("A" + "b" * 40, False), ("A", False), ("person", False),
    ("Person2", False), ("Big Club", False), ("", False), (None, False), (3, False),
])
def test_entity_type(value, valid):
    assert entity_type(value) == (value if valid else None)


def test_entity_type_refuses_a_trailing_newline():
    assert entity_type("Person\n") is None


@pytest.mark.parametrize(("subject", "named"), [
    ("person/ana-lopez", ("Ana Lopez", "Person")),
    ("project/falcon", ("Falcon", "Project")),
    ("team/core_infra", ("Core Infra", "Organization")),
    ("Org/arc-labs", ("Arc Labs", "Organization")),
    ("widget/blue--box", ("Blue Box", "Concept")),
    (" ME ", ("me", "Person")),
    ("standalone", ("standalone", "Concept")),
    ("person/", ("person/", "Person")),
])
def test_timeline_name(subject, named):
    assert timeline_name(subject) == named


@pytest.mark.parametrize(("lineages", "confidence"), [
    (-1, 0.0), (0, 0.0), (1, 0.5), (2, 0.75), (3, 0.875), (10, 0.999023),
])
def test_relation_confidence(lineages, confidence):
    assert relation_confidence(lineages) == confidence


def rel(i: int, s: str, o: str, confidence: float, predicate: str = "friend_of") -> Relation:
    return Relation(i, s, s, predicate, o, o, confidence, 1)


class Graph:
    def __init__(self, *relations: Relation) -> None:
        self.relations = relations
        self.asked: list[set[str]] = []

    def __call__(self, frontier: set[str]) -> list[Relation]:
        self.asked.append(set(frontier))
        return [r for r in self.relations if r.subject in frontier or r.object in frontier]


def reached(found: dict) -> dict[str, tuple[int, float, tuple[int, ...]]]:
    return {k: (d, round(w, 6), tuple(r.id for r in p)) for k, (d, w, p) in found.items()}


def test_traverse_depth_bound_and_one_query_per_hop():
    chain = Graph(rel(1, "A", "B", 1.0), rel(2, "B", "C", 1.0), rel(3, "C", "D", 1.0))
    assert reached(traverse("A", chain, 2)) == {"B": (1, 1.0, (1,)), "C": (2, 1.0, (1, 2))}
    assert chain.asked == [{"A"}, {"B"}]
    assert traverse("A", chain, 0) == {}
    lone = Graph()
    assert traverse("A", lone, 5) == {} and lone.asked == [{"A"}]


def test_traverse_follows_relations_both_ways():
    g = Graph(rel(1, "B", "A", 0.5, "works_at"), rel(2, "C", "B", 0.5, "manages"))
    assert reached(traverse("A", g, 3)) == {"B": (1, 0.5, (1,)), "C": (2, 0.25, (1, 2))}


def test_traverse_predicate_filter():
    g = Graph(rel(1, "A", "B", 1.0, "works_at"), rel(2, "A", "C", 1.0, "friend_of"),
              rel(3, "B", "D", 1.0, "friend_of"))
    assert reached(traverse("A", g, 3, frozenset({"works_at"}))) == {"B": (1, 1.0, (1,))}
    assert set(traverse("A", g, 3, frozenset({"friend_of"}))) == {"C"}


def test_traverse_strongest_path_wins_and_a_tie_keeps_the_shorter():
    g = Graph(rel(1, "A", "B", 0.5), rel(2, "A", "C", 0.9), rel(3, "C", "B", 0.9))
    assert reached(traverse("A", g, 2))["B"] == (2, 0.81, (2, 3))
    assert reached(traverse("A", g, 1))["B"] == (1, 0.5, (1,))
    tie = Graph(rel(1, "A", "B", 0.5), rel(2, "A", "C", 1.0), rel(3, "C", "B", 0.5))
    assert reached(traverse("A", tie, 2))["B"] == (1, 0.5, (1,))


def test_traverse_never_returns_a_path_longer_than_its_depth():
    g = Graph(rel(1, "A", "B", 1.0), rel(2, "A", "C", 0.1), rel(3, "B", "C", 1.0),
              rel(4, "C", "D", 1.0))
    found = traverse("A", g, 2)
    assert all(len(path) == depth for depth, _, path in found.values())
    assert reached(found)["D"] == (2, 0.1, (2, 4))


def test_profile_text():
    assert profile_text("Priya", "Person", ["Priya"], [], []) is None
    assert profile_text("Priya", "Person", ["Priya"], ["", ""], [""]) is None
    text = profile_text("Priya Patel", "Person", ["Priya Patel", "Priya", "Dr. Patel"],
                        ["Priya leads Falcon.", "Priya leads Falcon.", "", "She likes tea"],
                        ["Priya Patel works_at Arc Labs", "Priya Patel works_at Arc Labs"])
    assert text == ("Priya Patel (Person), also Priya, Dr. Patel. Priya Patel works_at Arc "
                    "Labs. Priya leads Falcon. She likes tea.")
    only_relations = profile_text("Arc", "Organization", [], [], ["Arc owns Falcon"])
    assert only_relations == "Arc (Organization). Arc owns Falcon."


def test_profile_text_limit_counts_distinct_items_most_recent_first():
    said = [f"fact {i}" for i in range(10)]
    text = profile_text("X", "Concept", [], ["fact 0", *said], [f"r{i}" for i in range(5)],
                        limit=3)
    assert text == "X (Concept). r0. r1. r2. fact 0. fact 1. fact 2."


# ======================================================================= drafts


@pytest.mark.parametrize(("text", "kind"), [
    ("Priya Patel", ""), ("Mei", ""), ("Bank of America", ""), ("Arc Labs", ""),
    ("payments-api", "Service"), ("web_01", "Service"), ("svc7", "Service"),
    ("the release train", None), ("The Beatles", None), ("release", None),
    ("she", None), ("The team", None), ("Priya Patel and the whole Arc team", None),
    ("One Two Three Four Five Six", None), ("", None), ("   ", None), ("!!!", None),
    (None, None), (42, None),
])
def test_name_like(text, kind):
    assert name_like(text) == kind


def drafts(mentions=(), relations=(), *, quote="", speaker=None, subject=None):
    return entity_fields(mentions, relations, quote=quote, speaker=speaker, subject=subject)


def test_the_speaker_is_a_person_mention_even_outside_the_quote():
    found, rels, cleared = drafts(quote="moved to Denver", speaker="Alice")
    assert found == (MentionDraft("Alice", "Person", "speaker"),)
    assert rels == () and cleared == []


def test_mentions_must_be_written_in_the_quote():
    quote = "Priya Patel met Bob at Arc Labs"
    found, _, cleared = drafts(["Priya Patel", "priya patel", "Mei Chen", "Bob"], quote=quote)
    assert [m.name for m in found] == ["Priya Patel", "Bob"]
    assert [c["value"] for c in cleared] == ["'priya patel'", "'Mei Chen'"]
    assert {c["field"] for c in cleared} == {"mentions"}
    assert {c["reason"] for c in cleared} == {"a mention must be a name written in the quote"}
    # the speaker's own name needs no quote
    found, _, cleared = drafts(["Alice"], quote="moved", speaker="Alice")
    assert found == (MentionDraft("Alice", "Person", "speaker"),) and cleared == []


def test_pronouns_are_skipped_without_a_record():
    found, _, cleared = drafts(["She", "they", "The team", "Bob"],
                               quote="She told they and The team about Bob")
    assert [m.name for m in found] == ["Bob"] and cleared == []


def test_mention_shapes_and_types():
    quote = "Priya Patel of Arc Labs runs payments-api with Mei"
    found, _, cleared = drafts([("Priya Patel", "Person"), ["Arc Labs", "Organization"],
                                {"name": "payments-api", "type": "Service"},
                                {"name": "Mei", "type": "person"}, 7, {"type": "Person"}],
                               quote=quote)
    assert found == (MentionDraft("Priya Patel", "Person", "mention"),
                     MentionDraft("Arc Labs", "Organization", "mention"),
                     MentionDraft("payments-api", "Service", "mention"),
                     MentionDraft("Mei", None, "mention"))
    assert [c["value"] for c in cleared] == ["7", "{'type': 'Person'}"]
    # one bare name for the whole field
    assert drafts("Mei", quote=quote)[0] == (MentionDraft("Mei", None, "mention"),)
    assert drafts(None, quote=quote) == ((), (), [])


def test_duplicate_mentions_are_one_draft_and_whitespace_is_folded():
    quote = "Dr. Mei Chen (Mei Chen to friends) said hi"
    found, _, cleared = drafts(["Dr. Mei Chen", ("Mei Chen", "Person"), "  Mei\tChen "],
                               quote=quote)
    assert found == (MentionDraft("Dr. Mei Chen", None, "mention"),) and cleared == []


def test_an_overlong_mention_is_cleared():
    long_name = "A" * (MAX_NAME + 1)
    _, _, cleared = drafts([long_name], quote=long_name)
    assert len(cleared) == 1 and cleared[0]["field"] == "mentions"


def test_the_subject_becomes_a_mention_when_it_reads_as_a_name():
    found, _, _ = drafts(quote="it ships friday", subject="payments-api")
    assert found == (MentionDraft("payments-api", "Service", "subject"),)
    found, _, _ = drafts(quote="likes tea", subject="Priya Patel")
    assert found == (MentionDraft("Priya Patel", None, "subject"),)
    assert drafts(quote="late again", subject="the release train")[0] == ()
    assert drafts(quote="x", subject="A" * (MAX_NAME + 1))[0] == ()


def test_a_subject_that_is_a_mention_upgrades_its_role_and_keeps_its_type():
    found, _, _ = drafts([("Dr. Mei Chen", "Person"), "Bob"], quote="Dr. Mei Chen and Bob",
                         subject="Mei Chen")
    assert found == (MentionDraft("Dr. Mei Chen", "Person", "subject"),
                     MentionDraft("Bob", None, "mention"))
    # the speaker stays the speaker
    found, _, _ = drafts(["Alice"], quote="Alice moved", speaker="Alice", subject="Alice")
    assert found == (MentionDraft("Alice", "Person", "speaker"),)


def test_relations_join_two_mentions_with_a_vocabulary_predicate():
    quote = "Priya Patel works at Arc Labs with Bob"
    mentions = [("Priya Patel", "Person"), ("Arc Labs", "Organization"), "Bob"]
    good = ("Dr. Priya Patel", "Works_At", "Arc Labs, Inc.")
    bad = [("Priya Patel", "employed_by", "Arc Labs"),     # not the vocabulary
           ("Priya Patel", "works_at", "Globex"),          # not a mention
           ("Priya Patel", "friend_of", "Priya Patel"),    # one mention with itself
           ("Priya Patel", "works_at"),                    # not a triple
           {"subject": "Bob", "predicate": "", "object": "Arc Labs"},
           "Bob works_at Arc Labs"]
    found, rels, cleared = drafts(mentions, [good, good, ["Bob", "friend_of", "Priya Patel"],
                                             {"subject": "Alice", "predicate": "manages",
                                              "object": "Bob"}, *bad],
                                  quote=quote, speaker="Alice")
    assert rels == (("Priya Patel", "works_at", "Arc Labs"),
                    ("Bob", "friend_of", "Priya Patel"),
                    ("Alice", "manages", "Bob"))
    assert len(cleared) == len(bad)
    assert {c["field"] for c in cleared} == {"relations"}
    assert all("vocabulary" in c["reason"] for c in cleared)
    assert set(PREDICATES) >= {r[1] for r in rels}


def test_relations_given_as_one_string_are_ignored():
    assert drafts(["Bob"], "Bob works_at Arc", quote="Bob")[1:] == ((), [])


def test_a_non_latin_name_is_kept_or_cleared_never_dropped_silently():
    found, _, cleared = drafts(["李明", "Алексей"], quote="李明 met Алексей")
    assert len(found) + len(cleared) == 2


# ======================================================================= groups


def standing(fact_id: int, confidence: float | None = None, support: int = 1,
             days: int = 0) -> MemberStanding:
    return MemberStanding(fact_id, confidence, support, T + timedelta(days=days))


@pytest.mark.parametrize(("member", "expected"), [
    (standing(1, 0.3, support=5), 0.3),
    (standing(1, 0.0, support=5), 0.0),
    (standing(1, None, support=0), 0.0),
    (standing(1, None, support=-2), 0.0),
    (standing(1, None, support=1), 0.5),
    (standing(1, None, support=2), 0.75),
    (standing(1, None, support=3), 0.875),
])
def test_read_confidence(member, expected):
    assert read_confidence(member) == expected


def test_preferred_member_confidence_then_recency_then_id():
    assert preferred_member([]) is None
    assert preferred_member([standing(1, support=2, days=0),
                             standing(2, support=1, days=9)]) == 1
    assert preferred_member([standing(1, 0.9, days=0), standing(2, support=3, days=9)]) == 1
    # a stated 0.75 and two lineages read the same: the more recent wins
    assert preferred_member([standing(5, 0.75, days=9), standing(6, support=2, days=1)]) == 5
    assert preferred_member([standing(5, 0.75, days=1), standing(6, support=2, days=9)]) == 6
    # equal up to float noise, same time: the later id
    assert preferred_member([standing(9, 0.1 + 0.2), standing(3, 0.3)]) == 9
    assert preferred_member([standing(3, 0.3), standing(9, 0.1 + 0.2)]) == 9


# ======================================================================= query_names


def test_query_names_are_the_normalised_word_runs():
    found = query_names("Who is Dr. Mei Chen?")
    assert "mei chen" in found and "mei" in found and "chen" in found
    assert not any("dr" in run.split() for run in found)
    assert found == sorted(set(found))
    assert "arc labs" in query_names("What does Arc Labs, Inc. build?")
    assert "priya" in query_names("what did @priya say")
    assert query_names("") == [] and query_names("?!") == []


def test_query_names_runs_are_one_to_four_words():
    found = query_names("a b c d e")
    assert "a b c d" in found and "b c d e" in found and "a b c d e" not in found
    assert len(found) == 5 + 4 + 3 + 2


# ======================================================================= populations

GIVEN = ["Mei", "Priya", "Bob", "Robert", "Alex", "Jon", "John", "Sam", "Samantha", "Ana"]
FAMILY = ["Chen", "Patel", "Nair", "Smith", "Smyth", "Kim", "Moreno", "Lopez"]
names_st = st.builds(
    lambda title, given, family, handle: (f"@{given.lower()}" if handle else
                                          " ".join(w for w in (title, given, family) if w)),
    st.sampled_from(["", "Dr.", "Ms.", "Prof."]), st.sampled_from(GIVEN),
    st.sampled_from(["", *FAMILY]), st.booleans())
kinds_st = st.sampled_from([None, "Person", "Person", "Organization", "Project"])
anchor_st = st.dictionaries(st.sampled_from(["works_at", "lives_in", "friend_of"]),
                            st.sampled_from(["Initech", "Globex", "Arc Labs"]), max_size=2)
vector_st = st.one_of(st.none(), st.sampled_from([X, Y, XY, np.zeros(3)]))


@st.composite
def candidates_st(draw) -> list[Candidate]:
    out = []
    for i in range(draw(st.integers(0, 5))):
        anchors = draw(anchor_st)
        out.append(Candidate(
            f"e{i}", draw(names_st), tuple(draw(st.lists(names_st, max_size=2))),
            draw(st.sampled_from(["Person", "Person", "Organization", "Concept"])),
            profile_vector=draw(vector_st),
            anchors={p: frozenset({normalise(v)}) for p, v in anchors.items()},
            in_document=draw(st.booleans()), mentions=draw(st.integers(0, 3))))
    return out


mentions_st = st.builds(lambda n, k, v, a: Mention(n, k, "context", v, a),
                        names_st, kinds_st, vector_st, anchor_st)
FAST = settings(max_examples=100, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(names_st)
def test_population_every_name_fits_itself_exactly_and_is_found_by_its_key(name):
    assert "n:" + normalise(name) in keys(name)
    assert name_score(name, [name]) == NameFit(1.0, "T1", "exact")
    assert name_fit(name, name.upper()) == NameFit(1.0, "T1", "exact")
    assert not surname_clash(name, name)


@FAST
@given(names_st, names_st)
def test_population_fits_are_bounded_and_keys_meet_when_names_fit(a, b):
    fit = name_fit(a, b)
    assert 0.0 <= fit.score <= 1.0
    assert 0.0 <= jaro_winkler(normalise(a), normalise(b)) <= 1.0 + 1e-12
    if fit.score > 0 and fit.why not in ("initials",):
        assert keys(a) & keys(b), (a, b, fit)


@FAST
@given(mentions_st, candidates_st(), st.sampled_from([None, "e0", "e1", "ghost"]),
       st.sampled_from([None, "e0", "e1", "e3", "ghost"]), st.booleans())
def test_population_resolve_only_names_a_fitting_candidate(m, cands, decided, binding,
                                                            truncated):
    out = resolve(m, cands, Scripted(Decision(decided, "scripted")), binding=binding,
                  truncated=truncated)
    fitting = {s.candidate.entity_id: s for s in score(m, cands)}
    assert out.entity_id is None or out.entity_id in fitting
    assert out.audit["truncated"] is truncated
    assert out.audit["snapshot"] == len(cands)
    if out.tier == "none":
        assert not fitting and out.entity_id is None
    if out.tier == "T0":
        assert out.entity_id == binding and fitting[binding].fit.why in ("exact", "alias")
    if out.tier == "T3":
        only = fitting[out.entity_id]
        assert len(fitting) == 1 and only.distinct is None and only.t3 is not None
        assert only.candidate.profile_vector is not None


@FAST
@given(mentions_st, candidates_st())
def test_population_rule_resolver_says_new_only_when_every_candidate_is_distinct(m, cands):
    scored = score(m, cands)
    if not scored:
        return
    decision = RuleResolver().decide(m, scored)
    open_ = [s for s in scored if s.distinct is None]
    if open_:
        assert decision.entity_id == open_[0].candidate.entity_id
        assert decision.reason.startswith("match: ")
        assert 0.0 < decision.confidence <= 1.0
    else:
        assert decision.entity_id is None and decision.reason.startswith("new: ")


def test_chat_noise_is_no_name():
    from factstore.entities.drafts import entity_fields, name_like

    assert name_like("Hi Maria") is None and name_like("Aww John") is None
    assert name_like("Max and John") is None
    assert name_like("Procter Gamble") == ""
    drafts, _, cleared = entity_fields([("John's", "Person")], [], quote="John's dog barked",
                                       speaker=None, subject=None)
    assert [d.name for d in drafts] == ["John"] and not cleared
    assert tokens("John's") == ["john"] and tokens("O’Brien’s") == ["o", "brien"]


def test_close_spellings_stay_close():
    assert name_fit("Joanna", "Jon").score == 0.0  # three letters apart: two names
    assert name_fit("Tim", "Time").why != "part"   # a short form drops two letters or more
    assert name_fit("Sam", "Samantha").score == 0.85
    assert name_fit("Jon", "John").why == "spelling"  # one letter: still a candidate
