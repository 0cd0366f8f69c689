"""Which timelines a question is about, decided on the plaintext key alone (seed 002 §5):
attribute words, the subject's slug, and my/me for the asker's own person."""

from __future__ import annotations

import re
from collections.abc import Iterable

_WORD = re.compile(r"[a-z0-9]+")
_ME = {"my", "me", "mine", "i", "i'm", "myself"}


def words(question: str) -> list[str]:
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
    return bool(set(re.findall(r"[a-z']+", question.lower())) & _ME)


def subject_mentioned(subject: str, question: str) -> bool:
    """The subject's slug (or its words) appears in the question: 'nick' for person/nick."""
    slug = subject.split("/", 1)[-1]
    tokens = set(words(question))
    return slug in tokens or all(part in tokens for part in slug.split("-") if part)


def keys_about(question: str, keys: Iterable[tuple[str, str]], me: str | None
               ) -> list[tuple[str, str]]:
    """The (subject, attribute) keys the question is about, among keys whose attribute the
    question names: the subject must be named, or be the asker's own when they say my/me,
    or be the only subject with that attribute."""
    by_attribute: dict[str, list[str]] = {}
    for subject, attribute in keys:
        by_attribute.setdefault(attribute, []).append(subject)
    chosen = []
    for attribute, subjects in by_attribute.items():
        named = [s for s in subjects if subject_mentioned(s, question)]
        if not named and me in subjects and mentions_me(question):
            named = [me]
        if not named and len(subjects) == 1:
            named = subjects
        chosen += [(s, attribute) for s in named]
    return sorted(chosen)
