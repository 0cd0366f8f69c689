"""What a compiler reads off a capture, before the store dates, files and reconciles it.

A :class:`Draft` says: this subject's property (an attribute key, or a value whose class
names the key) has this value from this time, quoted from this clause; possibly ending
other values ("switched from Vim", "left Globex"). A :class:`Refusal` is a statement the
compiler would not turn into a timeline fact, and why (seed 002 §9: refused, with a logged
reason). Plain data; every compiler produces them.
"""

from __future__ import annotations

from dataclasses import dataclass

from factstore.compiler.subjects import SubjectRef
from factstore.compiler.when import StatedTime


@dataclass(frozen=True)
class Draft:
    """One property value a clause states (or ends)."""

    subject: SubjectRef
    #: the attribute key; None when only the value's class can name it (resolved later)
    attribute: str | None
    #: the new value; None for a draft that only ends values ("I left Globex")
    value: str | None
    unit: str | None
    #: the clause, verbatim, and where it lies in the capture
    quote: str
    span: tuple[int, int]
    #: the words that say the value changed ("now", "moved to", "switched from"), if any
    cue: str | None = None
    #: the time the clause names, resolved against when it was said
    time: StatedTime | None = None
    #: the verb reports a change that happened (moved, joined, switched): its time is the
    #: new value's start
    change: bool = False
    #: values of the same attribute it ends ("switched from Vim", "left Globex")
    ends: tuple[str, ...] = ()
    #: "also", "too": an addition, which never ends a value
    addition: bool = False
    #: the words the attribute was read from ("works at", "shoe size"), for the registry
    alias: str | None = None
    #: the valid_to the text states ("until 2024"), when it names one
    until: str | None = None
    #: the verb moves the subject from what it had ("relocated to", "migrated to"): in a
    #: many attribute the other current values end (an "also" never does)
    replaces: bool = False


@dataclass(frozen=True)
class Refusal:
    """A statement not compiled, and why."""

    quote: str
    reason: str
    attribute: str | None = None


@dataclass(frozen=True)
class Ended:
    """A stored fact a model said no longer holds (seed 002 §9 ``ended``), by id."""

    id: int
    valid_to: str
    quote: str


@dataclass(frozen=True)
class Compilation:
    """Everything one capture compiled to."""

    compiler: str
    drafts: tuple[Draft, ...] = ()
    refusals: tuple[Refusal, ...] = ()
    #: the stored facts a model ended, by id, and the ids it was shown (only those may end)
    ended: tuple[Ended, ...] = ()
    shown: tuple[int, ...] = ()
