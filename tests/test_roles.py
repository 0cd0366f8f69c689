"""Role swaps and lexical grain for the difference detector (factstore.roles)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from factstore import roles
from factstore.roles import RoleSwap, base_forms, is_word, role_swaps, same_kind, same_referent

# --------------------------------------------------------------------------- WordNet lookups


@pytest.mark.parametrize(("word", "pos", "lemma"), [
    ("ran", "v", "run"), ("running", "v", "run"), ("lying", "v", "lie"), ("fed", "v", "feed"),
    ("women", "n", "woman"), ("boxes", "n", "box"), ("bigger", "a", "big"),
])
def test_base_forms_find_the_lemma(word, pos, lemma):
    assert lemma in base_forms(word, pos)


def test_unknown_words_have_no_forms():
    assert base_forms("sample-svc", "n") == ()
    assert not is_word("qzxv", "v")
    assert is_word("chases", "v")


@pytest.mark.parametrize(("x", "y", "pos"), [
    ("couch", "sofa", "n"), ("car", "vehicle", "n"), ("vehicle", "car", "n"),
    ("lady", "woman", "n"), ("horse", "animal", "n"), ("slicing", "cutting", "v"),
    ("dicing", "slicing", "v"),  # two manners of one specific action
    ("talking", "speaking", "v"), ("large", "big", "a"), ("huge", "big", "a"),
])
def test_same_kind(x, y, pos):
    assert same_kind(x, y, pos)


@pytest.mark.parametrize(("x", "y", "pos"), [
    ("man", "woman", "n"), ("tea", "coffee", "n"), ("token", "config", "n"),
    ("football", "tennis", "n"), ("running", "walking", "v"), ("sitting", "wading", "v"),
    ("green", "red", "a"), ("young", "old", "a"), ("sample-svc", "other-svc", "n"),
])
def test_different_kinds(x, y, pos):
    assert not same_kind(x, y, pos)


@pytest.mark.parametrize(("a", "b", "same"), [
    (["black", "dog"], ["dog"], True),          # a modifier adds detail
    (["young", "woman"], ["girl"], True),       # a compound lemma
    (["plastic", "sword"], ["toy", "weapon"], True),
    (["someone"], ["man"], True),               # an indefinite pronoun
    (["logs"], ["log"], True),
    (["runner", "token"], ["runner", "config"], False),
    (["man"], ["woman"], False),
    ([], ["dog"], False),
])
def test_same_referent(a, b, same):
    assert same_referent(a, b) is same


# --------------------------------------------------------------------------- role swaps


@pytest.mark.parametrize(("a", "b", "expected"), [
    ("the dog chases the cat", "the cat chases the dog",
     RoleSwap("dog chases cat", "cat chases dog")),
    ("The log is lying on the panda bear", "The panda bear is lying on the logs",
     RoleSwap("log is lying on panda bear", "panda bear is lying on logs")),
    ("Flights from Boston to Denver", "Flights to Boston from Denver",
     RoleSwap("from boston to denver", "from denver to boston")),
    ("New York to Boston flights", "Flights from Boston to New York",
     RoleSwap("from new york to boston", "from boston to new york")),
])
def test_role_swaps(a, b, expected):
    assert role_swaps(a, b) == (expected,)


@pytest.mark.parametrize(("a", "b"), [
    ("the cat is chased by the dog", "the dog chases the cat"),       # passive paraphrase
    ("the cat is not chased by the dog", "the dog does not chase the cat"),
    ("Boston to Denver flights", "flights to Denver from Boston"),     # roles kept
    ("the road between Boston and Denver", "the road between Denver and Boston"),
    ("A man and a woman are talking", "A woman and a man are talking"),
    ("The dog is sitting next to the cat", "The cat is sitting next to the dog"),
    ("Alice meets Bob", "Bob meets Alice"),                            # a reciprocal verb
    ("the dog chases the dog", "the dog chases the dog"),
    ("After the deploy run the tests", "Run the tests after the deploy"),  # clause order
    ("The girl is carrying a sign and a group is following her",
     "The girl is carrying a sign and is being followed by a group"),  # elided subject
])
def test_no_role_swap(a, b):
    assert role_swaps(a, b) == ()


def test_same_route_however_ordered():
    assert roles.same_route("Boston to Denver flights", "flights to Denver from Boston")
    assert roles.same_route("from Boston to Denver", "from Boston to Denver")
    assert not roles.same_route("from Boston to Denver", "from Denver to Boston")
    assert not roles.same_route("the dog chases the cat", "the cat chases the dog")


def test_a_passive_is_read_as_its_active():
    assert roles._active(["cat", "is", "being", "chased", "by", "dog", "in", "garden"]) == [
        "dog", "chased", "cat", "in", "garden"]
    assert roles._active(["dog", "chases", "cat"]) == ["dog", "chases", "cat"]


# --------------------------------------------------------------------------- cost and fallback


def test_import_loads_nothing_heavy():
    # no parser, no WordNet package, and no WordNet file read until a lookup needs one
    code = ("import sys, factstore.roles as r, factstore.differences; "
            "print(any(m.split('.')[0] in ('spacy', 'wn', 'nltk') for m in sys.modules), "
            "r._files.cache_info().currsize, r._index.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.split() == ["False", "0", "0"]


def test_without_wordnet_nothing_is_of_a_kind(monkeypatch):
    caches = (roles._offsets, roles._base_forms)
    for cache in caches:
        cache.cache_clear()
    monkeypatch.setattr(roles, "_files", lambda: None)
    try:
        assert base_forms("running", "v") == ()
        assert not same_kind("car", "vehicle", "n")
        assert role_swaps("the dog chases the cat", "the cat chases the dog")
    finally:
        for cache in caches:
            cache.cache_clear()
