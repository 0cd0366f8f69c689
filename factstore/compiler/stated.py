"""One truth, not two: a kind-typed fact moves with the timeline value it states.

"We live in Porto" is a fact of the kind layer (seed 000) and a value of the timeline
``lives_in`` (seed 002). When "we moved to Lisbon in March" moves the timeline on, the fact
that states Porto is superseded by the same transition, so recall never serves Porto as a
second current truth. Only a different value replaces it: a restatement of the same value
("we still live in Porto") keeps it current. And only this rule's own supersession is ever
undone, when the value holds again (the update was retracted).

Pure: the links between facts and timeline values in, the verdict changes out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Change", "Link", "MOVED_ON", "stated_verdicts"]

#: The history reason code of a supersession this rule made.
MOVED_ON = "timeline_moved_on"


@dataclass(frozen=True)
class Link:
    """A kind-typed fact and one timeline fact holding a value it states."""

    fact_id: int
    #: the kind-typed fact's verdict, and the reason code of its last transition
    verdict: str
    last_code: str | None
    timeline_id: int
    #: the timeline fact's verdict: active (current), superseded, contested, withdrawn
    timeline_verdict: str
    value: tuple[str, str]
    #: the fact that superseded the timeline fact, and its value
    next_id: int | None
    next_value: tuple[str, str] | None
    #: 'lives_in(person/nick)', for the reason
    key: str


@dataclass(frozen=True)
class Change:
    """A verdict the kind-typed fact moves to, why, and by which timeline fact."""

    fact_id: int
    to: str
    reason: str
    by: int | None = None


def _replaced(link: Link) -> bool:
    return link.timeline_verdict == "superseded" and link.next_value is not None and \
        link.next_value != link.value


def stated_verdicts(links: Sequence[Link]) -> list[Change]:
    """The changes that bring each fact in line with the values it states."""
    by_fact: dict[int, list[Link]] = {}
    for link in links:
        by_fact.setdefault(link.fact_id, []).append(link)
    changes = []
    for fact_id, own in sorted(by_fact.items()):
        verdict, code = own[0].verdict, own[0].last_code
        replaced = [link for link in own if _replaced(link)]
        if replaced and verdict in ("active", "contested"):
            first = min(replaced, key=lambda link: link.timeline_id)
            changes.append(Change(
                fact_id, "superseded",
                f"timeline {first.key} moved on: {first.value[0]} was replaced by "
                f"{first.next_value[0]} (fact #{first.next_id})",  # type: ignore[index]
                first.next_id))
        elif not replaced and verdict == "superseded" and code == MOVED_ON and any(
                link.timeline_verdict in ("active", "contested") for link in own):
            changes.append(Change(fact_id, "active",
                                  f"timeline {own[0].key}: its value holds again"))
    return changes
