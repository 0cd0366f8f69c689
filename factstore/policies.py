"""Named policies for working the conflict queue in bulk: pure functions over conflicts.

A policy looks at each open conflict and either decides it or leaves it for a person. A
decision is the call a person would make (``resolve_conflict(id, winner, reasoning)`` or
``resolve_both_stand(id, reasoning)``), with the policy and its parameters as the reasoning,
so every resolution says which rule made it. ``plan`` answers the decisions without
writing; the Dagster job and a dry run both start from it.

- ``newer-wins`` (``kind``, default STATE): both sides of that kind, about the same subject;
  the side said (else captured) later wins. A tie is left alone.
- ``both-stand-wording``: the difference detector found no difference between the sides
  (they differ only in wording); both stand.
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
    """One conflict decided by a policy: a winner, or both standing (winner None)."""

    conflict_id: int
    winner: int | None
    reasoning: str


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
    for conflict in conflicts:
        if conflict.status != "open":
            continue
        if policy == "newer-wins":
            outcome = _newer_wins(conflict, params["kind"], label)
        else:
            outcome = _both_stand_wording(conflict, label)
        if isinstance(outcome, Decision):
            decisions.append(outcome)
        else:
            left.append((conflict.id, outcome))
    return Plan(policy, params, tuple(decisions), tuple(left))


def _newer_wins(conflict: Conflict, kind: str, label: str) -> Decision | str:
    a, b = conflict.fact_a, conflict.fact_b
    if a.kind.value != kind or b.kind.value != kind:
        return f"not both {kind}"
    if a.subject_key is None or a.subject_key != b.subject_key:
        return "not about one subject"
    when_a, when_b = _when(a), _when(b)
    if when_a == when_b:
        return "said at the same time"
    newer, older = (a, b) if when_a > when_b else (b, a)
    return Decision(conflict.id, newer.id,
                    f"{label}: #{newer.id} ({_when(newer).isoformat()}) is newer than "
                    f"#{older.id} ({_when(older).isoformat()}) about {a.subject_key}")


def _both_stand_wording(conflict: Conflict, label: str) -> Decision | str:
    if conflict.differences:
        return "the detector found differences: " + ", ".join(conflict.differences)
    return Decision(conflict.id, None,
                    f"{label}: the difference detector found no difference between "
                    f"#{conflict.fact_a.id} and #{conflict.fact_b.id}; they differ in wording")


def _when(fact: Fact):  # noqa: ANN202
    return fact.t_said or fact.t_captured
