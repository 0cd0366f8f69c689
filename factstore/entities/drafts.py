"""The names and relations one extracted fact brings to the entity layer, checked before the
database sees them (the write path's pure stage). Pure.

A fact's mentions are the extractor's (named entities in its quote), plus its chat turn's
speaker (a Person, role ``speaker``) and its subject when the subject reads as a name
("Priya Patel", "payments-api", not "the release train"): that mention's entity becomes the
fact's ``subject_entity``. A relation's two ends must be mentions of the same fact (or its
speaker), its predicate one of the vocabulary's. Anything unusable is cleared and recorded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from factstore.entities.model import PREDICATES, entity_type
from factstore.entities.names import normalise

_PRONOUNS = frozenset(("i", "me", "my", "we", "us", "our", "you", "your", "he", "him", "his",
                       "she", "her", "they", "them", "their", "it", "its", "this", "that",
                       "the user", "someone", "everyone", "nobody", "people", "team",
                       "the team"))
#: Chat openers a subject may begin with ("Hi Maria"): never the first word of a name.
_GREETINGS = frozenset(("hi", "hey", "hello", "aw", "aww", "awww", "woah", "whoa", "wow",
                        "oh", "ooh", "thanks", "thank", "dear", "glad", "yay", "omg", "lol",
                        "haha", "congrats", "congratulations", "yes", "no", "ok", "okay",
                        "so", "well", "sorry", "bye"))
#: An identifier-shaped name: 'payments-api', 'svc-7', 'web_01'.
_IDENTIFIER = re.compile(r"^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)+$|^[a-z]+[0-9]+$")
MAX_NAME = 400


@dataclass(frozen=True)
class MentionDraft:
    """A name in a fact's quote (or its speaker), its type if known, and its role."""

    name: str
    entity_type: str | None
    #: 'speaker', 'subject' or 'mention'
    role: str

    @property
    def norm(self) -> str:
        return normalise(self.name)


def name_like(text: object) -> str | None:
    """The type a subject's wording suggests when it reads as a name, else None: a
    capitalised phrase of up to five words (type unknown), or an identifier ('Service')."""
    if not isinstance(text, str):
        return None
    words = text.split()
    if not words or len(words) > 5 or text.lower() in _PRONOUNS or not normalise(text):
        return None
    if any(w.lower() == "and" for w in words[1:-1]):
        return None  # "Max and John" is two people, not one name
    if words[0].lower().strip(",!.") in _GREETINGS:
        return None  # "Hi Maria", "Aww John": a greeting, not a name
    if _IDENTIFIER.match(text):
        return "Service"
    significant = [w for w in words if w.lower() not in ("of", "the", "and", "de", "van")]
    if significant and all(w[:1].isupper() or w[:1].isdigit() for w in significant) \
            and words[0].lower() != "the":
        return ""  # a name of unknown type
    return None


def entity_fields(mentions: object, relations: object, *, quote: str, speaker: str | None,
                  subject: str | None) -> tuple[tuple[MentionDraft, ...],
                                                tuple[tuple[str, str, str], ...], list[dict]]:
    """The fact's mention drafts and relations, and what was cleared (with why)."""
    cleared: list[dict] = []
    out: dict[str, MentionDraft] = {}

    def add(name: str, kind: str | None, role: str) -> None:
        name = _bare(name)
        norm = normalise(name)
        if not norm:
            return
        held = out.get(norm)
        if held is None or (role != "mention" and held.role == "mention"):
            out[norm] = MentionDraft(name, kind or (held.entity_type if held else None), role)

    if speaker:
        add(speaker, "Person", "speaker")
    for item in mentions if isinstance(mentions, Sequence) and not isinstance(mentions, str) \
            else ([mentions] if mentions else []):
        name, kind = _mention(item)
        if name is None or len(name) > MAX_NAME or (name not in quote and name != speaker):
            cleared.append({"field": "mentions", "value": repr(item)[:200],
                            "reason": "a mention must be a name written in the quote"})
            continue
        if name.lower() in _PRONOUNS:
            continue
        add(name, entity_type(kind), "mention")
    named = name_like(subject)
    if named is not None and subject:
        match = next((m for m in out.values() if m.norm == normalise(_bare(subject))), None)
        if match is not None and match.role != "speaker":
            out[match.norm] = MentionDraft(match.name, match.entity_type or (named or None),
                                           "subject")
        elif match is None and len(subject) <= MAX_NAME:
            add(subject, named or None, "subject")
    by_name = {m.norm: m.name for m in out.values()}
    found: list[tuple[str, str, str]] = []
    for item in relations if isinstance(relations, Sequence) and \
            not isinstance(relations, str) else []:
        triple = _relation(item)
        if triple is None or triple[1] not in PREDICATES or \
                normalise(triple[0]) not in by_name or normalise(triple[2]) not in by_name \
                or normalise(triple[0]) == normalise(triple[2]):
            cleared.append({"field": "relations", "value": repr(item)[:200],
                            "reason": "a relation joins two of the fact's mentions with a "
                                      "predicate of the vocabulary"})
            continue
        found.append((by_name[normalise(triple[0])], triple[1], by_name[normalise(triple[2])]))
    return tuple(out.values()), tuple(dict.fromkeys(found)), cleared


def _bare(name: str) -> str:
    """A name without a possessive ending ("John's" names John), still verbatim."""
    return name[:-2] if len(name) > 2 and name[-2:] in ("'s", "’s") else name


def _mention(item: object) -> tuple[str | None, str | None]:
    if isinstance(item, str):
        return " ".join(item.split()) or None, None
    if isinstance(item, Sequence) and len(item) == 2 and isinstance(item[0], str):
        return " ".join(item[0].split()) or None, item[1] if isinstance(item[1], str) else None
    if isinstance(item, dict) and isinstance(item.get("name"), str):
        return " ".join(item["name"].split()) or None, item.get("type")
    return None, None


def _relation(item: object) -> tuple[str, str, str] | None:
    if isinstance(item, dict):
        item = (item.get("subject"), item.get("predicate"), item.get("object"))
    if isinstance(item, Sequence) and len(item) == 3 and all(isinstance(x, str) for x in item):
        s, p, o = (" ".join(x.split()) for x in item)
        return (s, p.lower(), o) if s and p and o else None
    return None
