"""Contradiction groups (seed 001): when more than two facts disagree they form one group,
not a chain of pairs.

Every conflict row belongs to a group; the open conflicts of a group connect its members.
A new fact that contradicts several live facts is contested against each of them, in one
group (joining, and merging, the groups they were already in). Retrieval serves every
co-member of a contested fact's group, a bounded number inline and the rest named in a
continuation; returning one side alone is a contract violation, not a ranking preference.
Resolution closes the whole group: one winner, every other member superseded by it; or
all stand.

Pure: the result types and the inline bound.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from factstore.results import Conflict, Fact


@dataclass(frozen=True)
class GroupContinuation:
    """The co-members of a contested fact's group that recall did not serve inline."""

    group_id: int
    #: co-members served inline (ids), and how many more the group holds
    shown: tuple[int, ...]
    remaining: tuple[int, ...]

    @property
    def call(self) -> str:
        """The exact call that returns every member."""
        return f"contradiction_group({self.group_id})"


@dataclass(frozen=True)
class MemberStanding:
    """What the Fact contract's read compares among a group's members."""

    fact_id: int
    #: the stated confidence (a timeline fact's), else None
    confidence: float | None
    #: distinct lineages with current testimony
    support: int
    learned_at: datetime


def read_confidence(member: MemberStanding) -> float:
    """A stated confidence, else the one support gives (1 - 0.5^lineages: 0.5 for one
    source, 0.75 for two ...), so a fact more sources testify to reads as surer."""
    if member.confidence is not None:
        return float(member.confidence)
    return 0.0 if member.support <= 0 else 1 - 0.5 ** member.support


def preferred_member(members: Sequence[MemberStanding]) -> int | None:
    """The Fact contract's read of a contradiction (seed 004): append-only, every side
    kept, and the read prefers the higher-confidence member, then the more recent, then the
    later id. None for an empty group."""
    if not members:
        return None
    return max(members, key=lambda m: (round(read_confidence(m), 9), m.learned_at,
                                       m.fact_id)).fact_id


def bound_inline(fact_id: int, members: Sequence[int], inline: int
                 ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A contested fact's co-members (its group's members but itself, in id order): the
    first ``inline`` served beside it, the rest for the continuation."""
    others = tuple(m for m in sorted(set(members)) if m != fact_id)
    return others[:inline], others[inline:]


@dataclass(frozen=True)
class ContradictionGroup:
    """One group: its members (a page of them), its conflicts, and whether it is open."""

    id: int
    #: 'open' while any of its conflicts is open, else 'resolved'
    status: str
    #: every member's id, in id order
    member_ids: tuple[int, ...]
    #: the page of members asked for (offset, limit), as facts
    members: tuple[Fact, ...]
    conflicts: tuple[Conflict, ...]
    offset: int = 0
    #: the offset of the next page, None when this page reaches the end
    next_offset: int | None = None

    grain = "fact"

    @property
    def size(self) -> int:
        return len(self.member_ids)
