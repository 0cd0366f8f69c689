"""Personal and shared timelines side by side (seed 002 §6, issue 8 §4).

A fact lands in the writer's personal scope unless it is shared. The two scopes are two
timelines of one subject+attribute, resolved apart: a personal "editor = helix" never
supersedes, and is never superseded by, a shared "editor = zed". A read names both and
never lets one mask the other. When a subject+attribute is read in more than one scope,
each line is tagged with its scope (``[personal]``, ``[shared]``), and when the values the
scopes answer at the asked instant differ, each line says what the other scope answers:

    editor(person/nick) = helix [valid 2026..now, observed 2026-10-15] [personal] (shared: zed)

Pure: timelines in, one note per timeline out (None when it is read in one scope only).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from factstore.principals import scope_kind
from factstore.timelines.model import TimelineFact
from factstore.timelines.render import MAX_ANSWERS
from factstore.timelines.resolution import current_at

__all__ = ["scope_label", "scope_notes"]

ScopedTimeline = tuple[str | None, str, str, str, Sequence[TimelineFact]]


def scope_label(scope: str | None) -> str | None:
    """'personal' for a user scope, 'channel' or 'shared' for the others."""
    return scope_kind(scope)


def _answer(timeline: ScopedTimeline, instant: datetime) -> tuple[str, ...]:
    _, _, _, cardinality, facts = timeline
    live = [f for f in facts if not f.retracted]
    return tuple(sorted(" ".join(f"{f.value} {f.unit or ''}".split())
                        for f in current_at(live, instant, cardinality)))


def scope_notes(timelines: Sequence[ScopedTimeline], instant: datetime) -> list[str | None]:
    """The note each timeline's line ends with (see the module docstring)."""
    by_key: dict[tuple[str, str], list[int]] = {}
    for index, (_, subject, attribute, _, _) in enumerate(timelines):
        by_key.setdefault((subject, attribute), []).append(index)
    notes: list[str | None] = [None] * len(timelines)
    for indices in by_key.values():
        scopes = {timelines[i][0] for i in indices}
        if len(scopes) < 2:
            continue
        answers = {i: _answer(timelines[i], instant) for i in indices}
        for i in indices:
            note = f"[{scope_label(timelines[i][0])}]"
            others = [f"{scope_label(timelines[j][0])}: " + _values(answers[j])
                      for j in indices if j != i and answers[j] != answers[i]]
            notes[i] = note + (f" ({'; '.join(others)})" if others else "")
    return notes


def _values(answer: tuple[str, ...]) -> str:
    """The other scope's values, at most MAX_ANSWERS of them named (a many key can hold
    thousands at once), the rest counted: 'a, b, +3 more'; 'none' when it has none."""
    if not answer:
        return "none"
    shown = list(answer[:MAX_ANSWERS])
    if len(answer) > MAX_ANSWERS:
        shown.append(f"+{len(answer) - MAX_ANSWERS} more")
    return ", ".join(shown)
