"""The open-questions queue's discipline (seed 000 §7), as a pure function.

A gap left open is only a failure when the risk of leaving it open outweighs the cost of
closing it: high risk and cheap -> resolve; high risk and expensive -> blocker; low risk ->
park (ships as a known issue). Medium sits between: resolve when cheap, else park and re-weigh.
"""

from __future__ import annotations

from factstore.errors import InvalidInput
from factstore.inputs import show

LEVELS = ("low", "medium", "high")
STATUSES = ("open", "parked", "blocker", "resolved")


def check_level(name: str, value: str) -> str:
    if value not in LEVELS:
        raise InvalidInput(f"{name} {show(value)} must be one of {', '.join(LEVELS)}")
    return value


def check_status(value: str) -> str:
    if value not in STATUSES:
        raise InvalidInput(f"status {show(value)} must be one of {', '.join(STATUSES)}")
    return value


def recommend(risk: str, cost: str) -> str:
    """'resolve', 'blocker' or 'park' for a gap of this risk and cost."""
    check_level("risk", risk)
    check_level("cost", cost)
    if risk == "low":
        return "park"
    if risk == "high":
        return "blocker" if cost == "high" else "resolve"
    return "resolve" if cost == "low" else "park"
