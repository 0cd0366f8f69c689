"""Named policies for working the conflict queue in bulk: pure functions over conflicts.

A policy looks at each open conflict and either decides it or leaves it for a person. A
decision is the call a person would make (``resolve_conflict(id, winner, reasoning)`` or
``resolve_both_stand(id, reasoning)``), with the policy and its parameters as the reasoning,
so every resolution says which rule made it. ``plan`` answers the decisions without
writing; the Dagster job and a dry run both start from it.

- ``newer-wins`` (``kind``, default STATE): every member of the group of that kind, about
  the same subject; the member said (else captured) last wins. A tie is left alone.
- ``both-stand-wording``: the difference detector found no difference in any of the
  group's pairs (they differ only in wording); all stand.

A policy decides a contradiction group as a whole, as a person's resolution does: one
decision per group (named by its first conflict), closing every conflict in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from factstore.errors import InvalidInput
from factstore.kinds import parse_kind
from factstore.results import Conflict, Fact

POLICIES = ("newer-wins", "both-stand-wording")


@dataclass(frozen=True)
class Decision:
    """One contradiction group decided by a policy: a winner, or all standing (winner None).
    ``conflict_id`` is the group's first open conflict, the one the call names."""

    conflict_id: int
    winner: int | None
    reasoning: str
    #: every open conflict the decision closes (the group's)
    closes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Plan:
    """What a policy would do with the open conflicts it was shown."""

    policy: str
    params: Mapping[str, str]
    decisions: tuple[Decision, ...]
    #: conflicts the policy left for a person, with why
    left: tuple[tuple[int, str], ...]


def plan(policy: str, conflicts: Sequence[Conflict],
         params: Mapping[str, str] | None = None) -> Plan:
    """The decisions ``policy`` makes over ``conflicts`` (open ones only), nothing written."""
    params = dict(params or {})
    if policy == "newer-wins":
        unknown = set(params) - {"kind"}
        kind = parse_kind(params.get("kind", "STATE"))
        params = {"kind": kind.value}
    elif policy == "both-stand-wording":
        unknown = set(params)
    else:
        raise InvalidInput(f"unknown conflict policy {policy!r}; use one of "
                           f"{', '.join(POLICIES)}")
    if unknown:
        raise InvalidInput(f"policy {policy} takes no parameter(s) {sorted(unknown)}")
    label = f"policy {policy}" + "".join(f" {k}={v}" for k, v in sorted(params.items()))
    decisions, left = [], []
    for group in _groups(conflicts):
        if policy == "newer-wins":
            outcome = _newer_wins(group, params["kind"], label)
        else:
            outcome = _both_stand_wording(group, label)
        if isinstance(outcome, Decision):
            decisions.append(outcome)
        else:
            left += [(c.id, outcome) for c in group]
    return Plan(policy, params, tuple(decisions), tuple(left))


def _groups(conflicts: Sequence[Conflict]) -> list[list[Conflict]]:
    """The open conflicts by contradiction group (a conflict with no group is its own),
    each in id order, the groups in the order of their first conflict."""
    found: dict[object, list[Conflict]] = {}
    for conflict in sorted(conflicts, key=lambda c: c.id):
        if conflict.status != "open":
            continue
        key = conflict.group_id if conflict.group_id is not None else ("pair", conflict.id)
        found.setdefault(key, []).append(conflict)
    return list(found.values())


def _members(group: list[Conflict]) -> list[Fact]:
    facts = {f.id: f for c in group for f in (c.fact_a, c.fact_b)}
    return [facts[i] for i in sorted(facts)]


def _newer_wins(group: list[Conflict], kind: str, label: str) -> Decision | str:
    members = _members(group)
    if any(f.kind.value != kind for f in members):
        return f"not all {kind}" if len(members) > 2 else f"not both {kind}"
    subjects = {f.subject_key for f in members}
    if None in subjects or len(subjects) != 1:
        return "not about one subject"
    ordered = sorted(members, key=_when, reverse=True)
    newer = ordered[0]
    if _when(ordered[1]) == _when(newer):
        return "said at the same time"
    others = ", ".join(f"#{f.id} ({_when(f).isoformat()})" for f in ordered[1:])
    return Decision(group[0].id, newer.id,
                    f"{label}: #{newer.id} ({_when(newer).isoformat()}) is newer than "
                    f"{others} about {newer.subject_key}", tuple(c.id for c in group))


def _both_stand_wording(group: list[Conflict], label: str) -> Decision | str:
    found = sorted({d for c in group for d in c.differences})
    if found:
        return "the detector found differences: " + ", ".join(found)
    names = " and ".join(f"#{f.id}" for f in _members(group))
    return Decision(group[0].id, None,
                    f"{label}: the difference detector found no difference between "
                    f"{names}; they differ in wording", tuple(c.id for c in group))


def _when(fact: Fact):  # noqa: ANN202
    return fact.t_said or fact.t_captured
