"""Which timelines a question is about, decided on the plaintext key alone (seed 002 §5):
attribute words, the subject's slug, and my/me for the asker's own person.

The rule is :func:`keys_about`. It is decided on a handful of keys the store fetches by index
(factstore/store/about.py), not on every key of an attribute; :func:`slug_ends` and
:func:`slug_words` say which keys a question could name, so that lookup is exact.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

_WORD = re.compile(r"[a-z0-9]+")
_ME = {"my", "me", "mine", "i", "i'm", "myself"}
_WE = {"we", "our", "us", "ours", "ourselves", "we're", "we've"}
#: A person's group (compiler/subjects.py): 'person/nick-group' is what nick's "we" holds.
GROUP_SUFFIX = "-group"


def words(question: str) -> list[str]:
    """The question's words as subject slugs and attributes are matched: lowercase runs of
    a-z and 0-9, with "'s" dropped ("nick's" -> "nick")."""
    return _WORD.findall(question.lower().replace("'s", ""))


def attribute_candidates(question: str, max_words: int = 4) -> list[str]:
    """Every run of up to four question words joined with '_' ('shoe size' -> 'shoe_size'),
    with a crude singular form too, so an index lookup can find the attribute."""
    tokens = words(question)
    found: list[str] = []
    for n in range(1, max_words + 1):
        for i in range(len(tokens) - n + 1):
            run = tokens[i:i + n]
            found.append("_".join(run))
            if run[-1].endswith("s") and len(run[-1]) > 3:
                found.append("_".join(run[:-1] + [run[-1][:-1]]))
    return list(dict.fromkeys(found))


def mentions_me(question: str) -> bool:
    """Whether the question says my/me/mine/I/myself."""
    return bool(set(re.findall(r"[a-z']+", question.lower())) & _ME)


def mentions_we(question: str) -> bool:
    """Whether the question says we/our/us."""
    return bool(set(re.findall(r"[a-z']+", question.lower())) & _WE)


def registry_candidates(question: str, aliases: Mapping[str, str],
                        question_words: Mapping[str, Iterable[str]]) -> list[str]:
    """The attribute keys a question names through the registry: a run of its words that is
    an alias ("works at", "employer"), or a word by which questions ask for a key ("where
    do we *live*" -> lives_in)."""
    tokens = words(question)
    found: list[str] = []
    for n in range(1, 5):
        for i in range(len(tokens) - n + 1):
            phrase = " ".join(tokens[i:i + n])
            if phrase in aliases:
                found.append(aliases[phrase])
    said = set(tokens)
    for key, asked_by in question_words.items():
        if said & set(asked_by):
            found.append(aliases.get(key, key))
    return list(dict.fromkeys(found))


def group_of(subject: str) -> str:
    """The subject of a person's group: 'person/nick' -> 'person/nick-group'."""
    return subject + GROUP_SUFFIX


def slug_of(subject: str) -> str:
    """The part of a subject after its kind: 'nick' for person/nick (all of it without '/')."""
    return subject.split("/", 1)[-1]


def subject_mentioned(subject: str, question: str) -> bool:
    """The subject's slug (or its words) appears in the question: 'nick' for person/nick."""
    slug = slug_of(subject)
    tokens = set(words(question))
    return slug in tokens or all(part in tokens for part in slug.split("-") if part)


def slug_ends(subject: str) -> tuple[str, str]:
    """The first and the last non-empty '-' part of the subject's slug: ('u', '17') for
    person/u-17, ('nick', 'nick') for person/nick, ('', '') when it has none ('person/-').

    The store indexes timeline rows by these two (migration 009 computes them in SQL the
    same way), because :func:`subject_mentioned` can only hold when both are question words
    or both are '' (see :func:`slug_words`)."""
    parts = [part for part in slug_of(subject).split("-") if part]
    return (parts[0], parts[-1]) if parts else ("", "")


def slug_words(question: str) -> list[str]:
    """What a mentioned subject's :func:`slug_ends` can be: the question's distinct words,
    plus '' (a slug with no non-empty part is mentioned by every question).

    Why this is exact: ``slug in tokens`` implies the slug is one word with no '-', so its
    one part is both ends; otherwise every non-empty part is a question word, its ends
    included. So looking keys up by (first end, last end) in slug_words x slug_words finds
    every subject :func:`subject_mentioned` accepts (and some it does not, which
    :func:`keys_about` then drops)."""
    return ["", *dict.fromkeys(words(question))]


#: An identifier a system goes by ('svc-mail', 'web-1', 'db2') ...
_IDENTIFIER = re.compile(r"\b[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+\b|\b[a-z]+\d+[a-z0-9]*\b")
#: ... and a capitalised name past the question's first word ('Elif', 'Project Fjord');
#: an acronym ('CI', 'API') names a property, not someone.
_NAME = re.compile(r"(?<=\s)[A-Z][a-z][\w'’-]*(?:\s+[A-Z][a-z][\w'’-]*)*")


def names_another(question: str, subject: str) -> bool:
    """The question names someone or something ('svc-mail', 'Elif', 'Project Fjord') that is
    not ``subject``: a key of that subject then does not answer it, however alone it is."""
    slug = set(slug_of(subject).split("-"))
    text = question.replace("'s", "").replace("’s", "")
    named = [words(found) for found in _IDENTIFIER.findall(text.lower())]
    named += [words(found) for found in _NAME.findall(text)]
    return any(found and not set(found) <= slug for found in named)


def keys_about(question: str, keys: Iterable[tuple[str, str]], me: str | None
               ) -> list[tuple[str, str]]:
    """The (subject, attribute) keys the question is about, among keys whose attribute the
    question names: the subject must be named, or be the asker's own when they say my/me,
    or be the only subject with that attribute.

    ``keys`` need not be every key of those attributes: per attribute, any subset holding
    every subject the question mentions, the asker's own subject when it has the attribute,
    and two distinct subjects (one when only one has it) decides exactly as all of them
    would. Repeated keys count once."""
    by_attribute: dict[str, list[str]] = {}
    for subject, attribute in dict.fromkeys(keys):
        by_attribute.setdefault(attribute, []).append(subject)
    chosen = []
    asker = []
    if me is not None and (mentions_me(question) or mentions_we(question)):
        # "I" and "we" read the asker and the asker's group (compiler/subjects.py)
        asker = [me, group_of(me)]
    for attribute, subjects in by_attribute.items():
        named = [s for s in subjects if subject_mentioned(s, question)]
        # a named person's group holds what the person's "we" said
        named += [s for s in subjects if s.endswith(GROUP_SUFFIX) and s not in named
                  and subject_mentioned(s[:-len(GROUP_SUFFIX)], question)]
        if not named:
            named = [s for s in asker if s in subjects]
        if not named and len(subjects) == 1 and not names_another(question, subjects[0]):
            named = subjects
        chosen += [(s, attribute) for s in named]
    return sorted(chosen)


# -- questions that name the value and ask who or what holds it ------------------------------

def value_named(question: str, value: str) -> bool:
    """The question names the value: its words appear in the question's words, in order
    ("Who is on the Identity team?" names 'Identity team'; "Which projects does Ugo lead?"
    names 'Ugo'). A value with no word of two letters names nothing ('5', 'a')."""
    want, have = words(value), words(question)
    if not want or not any(len(w) > 1 and w.isalpha() for w in want):
        return False
    # in order, gaps allowed: 'svc-shipping rotation' is named by "the svc-shipping on-call
    # rotation"
    rest = iter(have)
    return all(any(w == h for h in rest) for w in want)


def holder_keys(question: str, rows: Iterable[tuple[str, str, str]],
                answered: Iterable[str]) -> list[tuple[str, str]]:
    """The keys that answer a question asking who or what holds a value it names ("Which
    projects does Ugo lead?": lead(project/driftwood) = Ugo): of ``rows`` (subject,
    attribute, value), those whose value the question names, of an attribute no key was
    ``answered`` for by its subject, and whose subject the question does not name (then
    the question is about that subject, not its holders)."""
    skip = set(answered)
    found = {(subject, attribute) for subject, attribute, value in rows
             if attribute not in skip and value_named(question, value)
             and not subject_mentioned(subject, question)}
    return sorted(found)
