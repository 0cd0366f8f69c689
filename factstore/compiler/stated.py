"""One truth, not two: a kind-typed fact moves with the timeline value it states.

"We live in Porto" is a fact of the kind layer (seed 000) and a value of the timeline
``lives_in`` (seed 002). When "we moved to Lisbon in March" moves the timeline on, the fact
that states Porto is superseded by the same transition, so recall never serves Porto as a
second current truth; the same when "I no longer live in Utrecht" ends the value with no
successor. The rule reads the timeline as it stands: a fact is stale when a value it states
was replaced by another, or none of its values holds now. A restatement of the same value keeps it current, an EVENT is
never touched (seed 004: events are immutable; a move happened whatever came after), and
only this rule's own supersession is ever undone, when a value holds again (an update
retracted).

Pure: each fact's links to the values it states, read at one instant, in; the verdict
changes out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Change", "Link", "MOVED_ON", "HOLDS_AGAIN", "stated_verdicts"]

#: The history reason codes of this rule's transitions.
MOVED_ON = "timeline_moved_on"
HOLDS_AGAIN = "timeline_holds_again"


@dataclass(frozen=True)
class Link:
    """A kind-typed fact and one value it states, as its timeline reads now."""

    fact_id: int
    kind: str
    #: the kind-typed fact's verdict, and the reason code of its last transition
    verdict: str
    last_code: str | None
    #: 'lives_in(person/nick)' and the value it states ('Porto')
    key: str
    value: str
    #: whether the value holds now on its timeline
    holds: bool
    #: what holds instead (a timeline fact id and its value), if anything does
    instead_id: int | None = None
    instead: str | None = None
    #: the timeline fact that carries this value (and, once it ended, its end)
    timeline_id: int | None = None


@dataclass(frozen=True)
class Change:
    """A verdict the kind-typed fact moves to, why, and by which timeline fact."""

    fact_id: int
    to: str
    reason: str
    by: int | None = None


def stated_verdicts(links: Sequence[Link]) -> list[Change]:
    """The changes that bring each fact in line with the values it states."""
    by_fact: dict[int, list[Link]] = {}
    for link in links:
        by_fact.setdefault(link.fact_id, []).append(link)
    changes = []
    for fact_id, own in sorted(by_fact.items()):
        first = own[0]
        if first.kind == "EVENT":
            continue
        # stale: a value it states was replaced by another, or none of its values holds
        replaced = [link for link in own if not link.holds and link.instead is not None]
        stale = bool(replaced) or not any(link.holds for link in own)
        if stale and first.verdict in ("active", "contested"):
            gone = replaced[0] if replaced else own[0]
            reason = (f"timeline {gone.key} moved on: {gone.value} was replaced by "
                      f"{gone.instead} (fact #{gone.instead_id})" if gone.instead
                      else f"timeline {gone.key}: {gone.value} no longer holds")
            # with no successor, the timeline fact that ended the value supersedes it
            changes.append(Change(fact_id, "superseded", reason,
                                  gone.instead_id if gone.instead_id is not None
                                  else gone.timeline_id))
        elif not stale and first.verdict == "superseded" and first.last_code == MOVED_ON:
            changes.append(Change(fact_id, "active",
                                  f"timeline {first.key}: {first.value} holds again"))
    return changes
