"""The identity guard (seed 000 §7, the "fact 161" shape): pure functions over strings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factstore.writepath.identity import ASSISTANT, SPEAKER, entity_mentions, identity_mismatch

# --------------------------------------------------------------------------- what counts as a name


def _mentioned(text: str, **kwargs) -> list[str]:
    return [m.text for m in entity_mentions(text, **kwargs)]


def test_mentions_are_names_identifiers_and_roles_in_order():
    text = "Yesterday Priya moved ledger-db to VS Code's box, and I reviewed it with the EU team."
    assert _mentioned(text) == ["Priya", "ledger-db", "VS Code", SPEAKER, "EU"]


@pytest.mark.parametrize("text", [
    "The build is red.",                       # an opener is capitalised by its position only
    "Heads up: the build is red.",
    "Generally, the build is red on Mondays",  # so is an opening adverb
    "We keep a read-only replica on-call.",    # hyphenated words are not identifiers
    "The limit is 40 per minute since v2.3.1.",  # numbers and versions are values
    "The token lives at /etc/sample/prod.env.",  # paths are values
    "Don't ever merge your own PR.",           # a generic "you" names nobody
])
def test_ordinary_words_values_and_generic_you_are_not_mentions(text):
    assert [m for m in _mentioned(text) if m != "PR"] == []


def test_sentence_openers_and_possessives():
    assert _mentioned("Marco's laptop runs Linux. Priya agrees.") == ["Marco", "Linux", "Priya"]
    assert _mentioned("The user prefers tabs.") == [SPEAKER]
    assert _mentioned("The assistant filed it.") == [ASSISTANT]


def test_given_names_count_even_in_lower_case():
    assert _mentioned("canaries on search", names=["search", "checkout"]) == ["search"]


# --------------------------------------------------------------------------- the mangles it catches


@pytest.mark.parametrize(("statement", "quote", "said", "instead"), [
    # two people: the other one's name moved onto this quote's predicate
    ("Omar owns the payments queue.", "Keiko owns the payments queue", "Omar", "Keiko"),
    ("Keiko reviewed the schema change.", "it was Omar who reviewed the schema change",
     "Keiko", "Omar"),
    # identifiers compare whole: build-12 is not build-13
    ("build-13 is out of disk.", "build-12 is out of disk", "build-13", "build-12"),
    # the speaker is "I" in the quote
    ("Omar prefers short standups.", "I prefer short standups", "Omar", SPEAKER),
    ("The user prefers short standups.", "Keiko prefers short standups", SPEAKER, "Keiko"),
    (f"{ASSISTANT.capitalize()} wrote the migration.", "Keiko wrote the migration", ASSISTANT,
     "Keiko"),
    # a name inside a URL is not a mention of the person
    ("Keiko's notes are at wiki.example.test/omar-notes.",
     "Omar keeps his at wiki.example.test/omar-notes", "Keiko", "Omar"),
    # common-noun subjects: the modifier swapped under a shared head noun ...
    ("The android team owns the nightly build.", "the desktop team owns the nightly build",
     "android", "desktop"),
    ("The invoice service was rewritten on Friday.", "We rewrote the ledger service on Friday",
     "invoice", "ledger"),
    # ... or the whole bare subject swapped before a shared predicate
    ("Billing runs Postgres 15 right now.", "the scheduler still runs Postgres 15",
     "Billing", "scheduler"),
])
def test_a_statement_about_someone_else_is_a_mismatch(statement, quote, said, instead):
    reason = identity_mismatch(statement, quote)
    assert reason == (f"identity: the statement is about {said} but its quote is about "
                      f"{instead}")


# --------------------------------------------------------------------------- what it leaves alone


@pytest.mark.parametrize(("statement", "quote"), [
    ("Omar owns the payments queue.", "Omar owns the payments queue"),
    ("The user prefers short standups.", "I prefer short standups"),
    ("The assistant should keep answers short.", "you should keep answers short"),
    # a pronoun in the quote: the statement's subject is missing, but nobody else is named
    ("The deploy pipeline fails on Mondays.", "It fails on Mondays"),
    ("Keiko's notes are at wiki.example.test/keiko.", "she keeps them at wiki.example.test/keiko"),
    # the quote names more than the statement says: a detail left out, not a swap
    ("Omar owns billing.", "Omar owns billing, with Keiko as backup"),
    # the statement names more than its quote: an unquoted detail, not a swap
    ("Omar owns billing for the EU.", "he owns billing"),
    # a changed value or path is the difference detector's business, not identity
    ("The rate limit is 41 per minute.", "the rate limit is 40 per minute"),
    ("The prod token lives at /etc/b.env.", "the prod token lives at /etc/a.env"),
    # reworded with the subject kept, passive for active, a pronoun subject
    ("The auth refactor was merged on Friday.", "We merged the auth refactor on Friday"),
    ("The team decided against a service mesh.", "For now the decision is: no service mesh"),
    ("The repo was renamed to platform-tools.", "We gave the repository the name platform-tools"),
    # indefinite subjects name no particular thing
    ("A person is slicing an onion.", "A man is slicing an onion"),
    ("Engineers must not merge their own PRs.", "Don't ever merge your own PR"),
    ("", "Omar owns billing"),
    ("Omar owns billing.", "   "),
])
def test_faithful_statements_are_not_flagged(statement, quote):
    assert identity_mismatch(statement, quote) is None


def test_a_subject_named_after_its_predicate_needs_the_names():
    # No parse: "canaries on search" puts the subject last, so rule 2 cannot align it ...
    statement, quote = "Checkout is deployed with canaries.", "canaries on search"
    assert identity_mismatch(statement, quote) is None
    # ... but a caller that knows the capture's entities catches it.
    reason = identity_mismatch(statement, quote, names=["search", "checkout"])
    assert reason == "identity: the statement is about Checkout but its quote is about search"
    assert identity_mismatch("Search is deployed with canaries.", quote,
                             names=["search", "checkout"]) is None


_words = st.sampled_from(["Omar", "keiko", "the", "user", "I", "build-12", "owns", "billing",
                          "runs", "Postgres", "15", "not", "you", "A", "team", "web", "."])


@given(st.lists(_words, min_size=1, max_size=12).map(" ".join))
def test_a_statement_identical_to_its_quote_is_never_a_mismatch(text):
    assert identity_mismatch(text, text) is None


def test_names_match_inside_identifiers_but_the_roles_are_never_given_names():
    # The host name "priyanka-laptop" mentions Priyanka, so Omar (named by the quote only)
    # is a detail the statement leaves out, not a second subject.
    assert identity_mismatch("Priyanka's laptop is out of disk.",
                             "priyanka-laptop is out of disk, Omar says") is None
    # Passing the roles as names changes nothing: they are always recognised.
    assert identity_mismatch("The user prefers tabs.", "I prefer tabs",
                             names=["the user", "Omar"]) is None
    assert identity_mismatch("Omar prefers tabs.", "I prefer tabs",
                             names=["The User", "Omar"]) == (
        "identity: the statement is about Omar but its quote is about the user")
