"""The open-questions queue's discipline (seed 000 §7), as a pure function.

A gap left open is only a failure when the risk of leaving it open outweighs the cost of
closing it: high risk and cheap -> resolve; high risk and expensive -> blocker; low risk ->
park (ships as a known issue). Medium sits between: resolve when cheap, else park and re-weigh.
"""

from __future__ import annotations

from typing import Any

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


#: the queue's working order: what the discipline says to act on first
_RECOMMENDATION_ORDER = {"blocker": 0, "resolve": 1, "park": 2}
_LEVEL_ORDER = {"high": 0, "medium": 1, "low": 2}


def queue_order(question: Any) -> tuple[int, int, int, int]:
    """Sort key for the open-questions queue: unresolved first, then by recommendation
    (blocker, resolve, park), higher risk first, cheaper first."""
    return (question.status == "resolved", _RECOMMENDATION_ORDER.get(question.recommendation, 3),
            _LEVEL_ORDER.get(question.risk, 3), -_LEVEL_ORDER.get(question.cost, 3))
