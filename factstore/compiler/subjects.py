"""Whose property a compiled fact states: the speaker, the speaker's group, or a name.

The mapping (seed 002 §4: "use me only when writing for the person who is speaking"):

* **I, me, my** is the speaker: ``me`` (the store's own user, ``person/<user id>``) in prose
  with no speaker, ``person/<speaker>`` in a chat turn.
* **we, us, our** is the speaker's group: ``<speaker subject>-group`` (``person/nick-group``,
  ``person/ben-group``). What a group holds its members hold too (where they live, where they
  work: ``member_holds`` in the vocabulary), so "we moved to Lisbon" is filed under the
  speaker's own subject, and "where do I live?" and "where do we live?" read one timeline.
* **A name** is its entity's subject: a person ``person/<name>``, a system or service
  (``web-1``, "the billing service", "the API") ``system/<name>``, a team or club
  ``project/<name>``, a company ``customer/<name>``. The store maps a name through the
  entity registry, so "Priya" and "Priya Patel" file under one subject.

Pure: the store passes the owner's and the speakers' subjects in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["GROUP_SUFFIX", "SubjectRef", "slug", "timeline_subject"]

GROUP_SUFFIX = "-group"
_OUTSIDE = re.compile(r"[^a-z0-9]+")
_MAX_SLUG = 128


@dataclass(frozen=True)
class SubjectRef:
    """A statement's subject before it is a timeline subject."""

    #: 'speaker' (I), 'group' (we) or 'named'
    kind: str
    #: the name as written ('named'), else the speaker's name (None: the store's owner)
    name: str | None = None
    #: for a name: person | system | project | customer
    namespace: str = "person"


def slug(text: str) -> str | None:
    """'Hannelore Brandt' -> 'hannelore-brandt'; 'web-1' -> 'web-1'; None when empty."""
    out = _OUTSIDE.sub("-", text.lower()).strip("-")
    if not out:
        return None
    return out[:_MAX_SLUG].rstrip("-") or None


def speaker_subject(speaker: str | None) -> str | None:
    """The speaker's own subject: 'me' for the owner, person/<slug> for a named speaker."""
    if speaker is None:
        return "me"
    name = slug(speaker)
    return f"person/{name}" if name else None


def timeline_subject(ref: SubjectRef, *, member_holds: bool, owner: str) -> str | None:
    """The v1 subject a reference files under, or None when it has none.

    ``owner`` is what ``me`` resolves to (``person/<user id>``), so an owner's group is
    ``person/<user id>-group``. A group's value that its members hold (``member_holds``) is
    filed under the speaker's own subject."""
    if ref.kind == "named":
        name = slug(ref.name or "")
        return f"{ref.namespace}/{name}" if name else None
    own = speaker_subject(ref.name)
    if own is None:
        return None
    if ref.kind == "speaker" or member_holds:
        return own
    base = owner if own == "me" else own
    if len(base) + len(GROUP_SUFFIX) - base.index("/") - 1 > _MAX_SLUG:
        return None
    return base + GROUP_SUFFIX
