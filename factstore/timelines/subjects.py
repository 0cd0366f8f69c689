"""The asker's own subject (seed 002 §8): 'me' is person/ plus the user id, slugged.

A fact written as ``"subject": "me"`` is about the person speaking, so it is filed under
their own person subject, and a question that says my/me/mine/I is about that subject too.
The slug rule (lowercase, anything outside [a-z0-9-] becomes '-') is the schema's subject
slug alphabet, so the resolved subject is always a valid v1 subject.
"""

from __future__ import annotations

import re

from factstore.errors import InvalidInput

ME = "me"
#: The schema's slug length limit (temporal-fact.v1.json: [a-z0-9-]{1,128}).
MAX_SLUG = 128

_OUTSIDE_SLUG = re.compile(r"[^a-z0-9-]")
# 'I' as a word, but not the i of "i.e."; the others are unambiguous first-person words.
_FIRST_PERSON = re.compile(r"\b(?:my|me|mine|myself|i(?!\.e\b))\b", re.IGNORECASE)


def user_slug(user_id: str | None) -> str:
    """'U0NICK' -> 'u0nick'; 'Nick.Smith@x' -> 'nick-smith-x'. InvalidInput when empty."""
    if not isinstance(user_id, str) or not user_id.strip():
        raise InvalidInput(
            "subject 'me' needs to know who is speaking: pass user=... or set "
            "FACTSTORE_USER_ID")
    # Lowercase first, so 'Ä' becomes 'ä' and then '-', as the seed's rule reads in order.
    slug = _OUTSIDE_SLUG.sub("-", user_id.lower())
    if len(slug) > MAX_SLUG:
        # Truncating could file two users under one subject; refuse instead.
        raise InvalidInput(
            f"user id {user_id[:20]!r}... is {len(slug)} characters; a person subject "
            f"slug is at most {MAX_SLUG}")
    return slug


def resolve_me(subject: str, user_id: str | None) -> str:
    """'me' -> 'person/<user slug>'; any other subject is returned unchanged."""
    if subject != ME:
        return subject
    return "person/" + user_slug(user_id)


def question_mentions_me(question: str) -> bool:
    """Whether a question is about the asker: my, me, mine, myself or I as a word."""
    return isinstance(question, str) and _FIRST_PERSON.search(question) is not None
