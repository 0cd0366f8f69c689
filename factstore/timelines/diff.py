"""What the store believed then against what it believes now: two reads of the same keys,
one with ``known_at`` (belief time), compared key by key. Pure over TimelineAnswers."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from factstore.timelines.model import TimelineAnswer, TimelineKey


@dataclass(frozen=True)
class BeliefChange:
    """One key whose answer differs. ``change`` is 'learned' (unknown then), 'withdrawn'
    (no value now), 'changed', 'now disputed' or 'dispute settled'."""

    subject: str
    attribute: str
    scope: str | None
    then: str
    now: str
    change: str


@dataclass(frozen=True)
class BeliefDiff:
    """belief_diff's answer: the changed keys, and how many keys read the same."""

    then: datetime
    now_label: str
    as_of: str
    changes: tuple[BeliefChange, ...]
    unchanged: int

    def _repr_html_(self) -> str:
        from factstore.html import belief_diff_html

        return belief_diff_html(self)


def answer_value(key: TimelineKey | None) -> tuple[str, bool]:
    """A key's answer as text (disputed values joined by ' | ') and whether it is disputed."""
    if key is None or not key.current:
        return "", False
    values = sorted({f.value + (f" {f.unit}" if f.unit else "") for f in key.current})
    disputed = any(f.status == "disputed" for f in key.current)
    return " | ".join(values), disputed


def belief_diff(then: TimelineAnswer, now: TimelineAnswer) -> BeliefDiff:
    """Compare ``then`` (read with ``known_at``) against ``now`` (read without), key by key.

    Both should be read at the same ``as_of``; keys are matched by subject, attribute and
    scope, so a personal and a shared timeline never answer for each other.
    """
    if then.known_at is None:
        from factstore.errors import InvalidInput

        raise InvalidInput("belief_diff needs the earlier answer read with known_at=...; "
                           "call store.facts(..., known_at=instant) for it")
    before = {(k.subject, k.attribute, k.scope): k for k in then.keys}
    after = {(k.subject, k.attribute, k.scope): k for k in now.keys}
    changes, unchanged = [], 0
    for ident in sorted(set(before) | set(after), key=lambda i: (i[0], i[1], i[2] or "")):
        old, old_disputed = answer_value(before.get(ident))
        new, new_disputed = answer_value(after.get(ident))
        if (old, old_disputed) == (new, new_disputed):
            unchanged += 1
            continue
        change = ("learned" if not old else "withdrawn" if not new
                  else "now disputed" if new_disputed and not old_disputed
                  else "dispute settled" if old_disputed and not new_disputed else "changed")
        changes.append(BeliefChange(ident[0], ident[1], ident[2], old, new, change))
    label = f"{now.known_at.isoformat(timespec='seconds')}" if now.known_at else "now"
    return BeliefDiff(then.known_at, label, then.as_of, tuple(changes), unchanged)
