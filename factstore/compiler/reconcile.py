"""Drafts into format v1 facts: filed, keyed, dated, and reconciled with what is stored.

Seed 002 §9, "Source-dated facts" and "Reconciliation at write time":

* a compiled fact is observed at its source's own time, and valid from the time the text
  gives (else it starts when it was said: ``valid_from`` is left empty);
* an attribute with a number token or an event word is refused, with the reason;
* the same property keeps one key: a draft's attribute goes through the registry's aliases
  ("works at", "joined" -> employer), and a draft whose value names its own class
  ("Postgres 16", "Helix") takes that class's key -- or, when the text names none, the key
  of the stored value it replaces ("switched from Vim", "left Globex");
* an update ends what it replaces: a one attribute's new value ends the old by the timeline
  rules; a many attribute's ("switched from Vim to Helix") and an end alone ("left the
  chess club") end the stored value with ``"ended": [{"id", "valid_to"}]``;
* an addition ("I also speak French") never ends anything.

Pure: drafts, the stored current facts of their subjects and the registry in, facts to
write, facts to end and refusals out.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from factstore.compiler.drafts import Draft, Refusal
from factstore.compiler.subjects import SubjectRef
from factstore.compiler.values import attribute_key, refusal
from factstore.compiler.vocabulary import BY_KEY, MANY, MEMBER_HOLDS, ONE, class_of
from factstore.timelines.cardinality import registry_cardinality
from factstore.timelines.dates import start_of
from factstore.timelines.resolution import rfc3339

__all__ = ["Current", "Ending", "Planned", "reconcile"]

_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Current:
    """A stored current timeline fact of one of the drafts' subjects."""

    id: int
    subject: str
    attribute: str
    value: str
    unit: str | None
    cardinality: str
    valid_from: str | None
    observed_at: datetime


@dataclass(frozen=True)
class Planned:
    """One format v1 fact to write, and the draft it came from."""

    fact: dict[str, object]
    draft: Draft
    #: the registry's key was new (learned from this draft's words)
    learned: bool = False


@dataclass(frozen=True)
class Ending:
    """A stored fact the capture ends: its claim observed again with ``valid_to``."""

    current: Current
    valid_to: str
    draft: Draft


def _fold(text: str | None) -> str:
    return " ".join((text or "").lower().split())


def _same_value(a: str, b: str) -> bool:
    """'Globex' and 'Globex Corp', 'GitHub Actions' and 'github actions': one value."""
    fa, fb = _fold(a), _fold(b)
    if not fa or not fb:
        return False
    return fa == fb or fa.startswith(fb + " ") or fb.startswith(fa + " ")


def _day(instant: datetime) -> str:
    return instant.astimezone(UTC).strftime("%Y-%m-%d")


def reconcile(drafts: Sequence[Draft], *, observed: datetime,
              subject_of: Callable[[SubjectRef, str | None], str | None],
              existing: Sequence[Current], registry: Mapping[str, str],
              cardinality_of: Callable[[str], str | None] | None = None,
              source: str | None = None
              ) -> tuple[list[Planned], list[Ending], list[Refusal]]:
    """Facts to write, facts to end and refusals for ``drafts`` said at ``observed``.

    ``subject_of(ref, attribute)`` files a subject reference (None: it has no subject);
    ``registry`` maps an alias or key to its canonical key; ``cardinality_of(key)`` is the
    attribute's stored cardinality, if any."""
    planned: list[Planned] = []
    endings: list[Ending] = []
    refused: list[Refusal] = []
    for draft in drafts:
        key, learned = _key(draft, registry)
        if key is None:
            possible = {subject_of(draft.subject, k) for k in (None, *MEMBER_HOLDS)}
            key = _key_of_stored(draft, possible - {None}, existing)
        if key is None:
            refused.append(Refusal(draft.quote, "no attribute: nothing in the text or the "
                                                "store names the property it changes"))
            continue
        subject = subject_of(draft.subject, key)
        if learned and subject is not None:
            # "the refund flag" after "the refund feature flag": the key already used
            key = _near_key(key, subject, existing) or key
        if subject is None:
            refused.append(Refusal(draft.quote, "no subject: it is about someone the store "
                                                "cannot file (a relation or a pronoun)", key))
            continue
        why = refusal(key)
        if why is not None:
            refused.append(Refusal(draft.quote, why, key))
            continue
        cardinality = (cardinality_of(key) if cardinality_of else None) or (
            BY_KEY[key].cardinality if key in BY_KEY else registry_cardinality(key))
        if draft.addition and cardinality == ONE and draft.value is not None:
            refused.append(Refusal(draft.quote, f"an addition ('also') to {key}, which holds "
                                                "one value at a time", key))
            continue
        when = draft.time
        valid_from = when.date if when is not None and when.role in ("at", "since") else None
        valid_to = draft.until
        if valid_from is not None and start_of(valid_from) is not None and \
                start_of(valid_from) > observed:  # type: ignore[operator]
            valid_from = None  # a time after the saying: never a start (plans are gated)
        if valid_to is not None and valid_from is not None and valid_to <= valid_from:
            valid_to = None
        end_at = valid_from or _day(observed)
        # what it ends: named values ("from Vim", "left Globex"), and for a switch in a
        # many attribute the same-class values it replaces
        ends = list(draft.ends)
        if draft.change and not draft.addition and cardinality == MANY and \
                draft.value is not None and not ends and (draft.replaces or
                                                          class_of(draft.value)):
            # a move or a switch in a many attribute: what it moves away from ends (for a
            # switch, the values of the same class: "switched to Helix" ends Vim, not Zed)
            ends = [c.value for c in existing if c.subject == subject and c.attribute == key
                    and (draft.replaces or class_of(c.value) == class_of(draft.value))
                    and not _same_value(c.value, draft.value)]
        for value in ends:
            for current in existing:
                if current.subject == subject and current.attribute == key and \
                        _same_value(current.value, value) and \
                        (draft.value is None or cardinality == MANY) and \
                        _ends_after_start(current, end_at):
                    endings.append(Ending(current, end_at, draft))
        if draft.value is None:
            continue
        fact: dict[str, object] = {"subject": subject, "attribute": key,
                                   "value": draft.value[:2000],
                                   "observed_at": rfc3339(observed),
                                   "quote": draft.quote[:2000], "cardinality": cardinality}
        if draft.unit:
            fact["unit"] = draft.unit[:32]
        if valid_from is not None:
            fact["valid_from"] = valid_from
        if valid_to is not None:
            fact["valid_to"] = valid_to
        if source:
            fact["source"] = source[:512]
        planned.append(Planned(fact, draft, learned))
    return planned, endings, refused


def _ends_after_start(current: Current, end_at: str) -> bool:
    start = start_of(current.valid_from) or current.observed_at
    end = start_of(end_at)
    return end is not None and end > start


def _key(draft: Draft, registry: Mapping[str, str]) -> tuple[str | None, bool]:
    """The draft's canonical attribute key and whether the registry lacked it."""
    if draft.attribute is None:
        if draft.value is not None and class_of(draft.value):
            return class_of(draft.value), False
        for value in draft.ends:
            if class_of(value):
                return class_of(value), False
        return None, False
    for name in (draft.attribute, _fold(draft.alias)):
        if name and name in registry:
            return registry[name], False
    key = attribute_key(draft.attribute)
    return key, key is not None and key not in BY_KEY


def _near_key(key: str, subject: str, existing: Sequence[Current]) -> str | None:
    """A stored key of the subject that names the same property in fewer or more words
    (flag / feature_flag: one head word, one's words within the other's), else None.
    Seed 002 §4: prefer an existing attribute over a near-synonym."""
    words = key.split("_")
    for current in existing:
        theirs = current.attribute.split("_")
        if current.subject == subject and current.attribute != key and \
                theirs[-1] == words[-1] and (set(words) <= set(theirs) or
                                             set(theirs) <= set(words)):
            return current.attribute
    return None


def _key_of_stored(draft: Draft, subjects: set[str | None],
                   existing: Sequence[Current]) -> str | None:
    """The key of the stored value a draft replaces or ends ("left Globex": employer), or
    of the one stored property of the subject the sentence names by a word of its key
    ("we switched to Initrode for cleaning": cleaning_vendor)."""
    for value in draft.ends:
        for current in existing:
            if current.subject in subjects and _same_value(current.value, value):
                return current.attribute
    if not draft.change or draft.value is None:
        return None
    said = set(_WORD.findall(draft.quote.lower()))
    named = {c.attribute for c in existing if c.subject in subjects and any(
        len(w) > 3 and w in said for w in c.attribute.split("_"))}
    return named.pop() if len(named) == 1 else None
