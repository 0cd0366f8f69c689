"""The seven fact kinds, the verdicts, and which per-kind columns each kind owns (seed 000 §2)."""

from __future__ import annotations

from enum import StrEnum


class Kind(StrEnum):
    DECISION = "DECISION"
    RULE = "RULE"
    STATE = "STATE"
    PREFERENCE = "PREFERENCE"
    REFERENCE = "REFERENCE"
    RESIDUAL = "RESIDUAL"
    EVENT = "EVENT"


class Verdict(StrEnum):
    ACTIVE = "active"
    SUPERSEDED = "superseded"
    WITHDRAWN = "withdrawn"
    PARKED = "parked"
    CONTESTED = "contested"


class SourceType(StrEnum):
    UTTERANCE = "utterance"
    CAPTURE = "capture"
    FILE = "file"
    COMMIT = "commit"
    URL = "url"


#: The verdicts the density check compares against (a near-hit here is a conflict candidate).
LIVE_VERDICTS: tuple[Verdict, ...] = (Verdict.ACTIVE, Verdict.CONTESTED)
#: The verdicts recall may serve; superseded and withdrawn are never served.
RETRIEVABLE_VERDICTS: tuple[Verdict, ...] = (Verdict.ACTIVE, Verdict.CONTESTED, Verdict.PARKED)

#: Per-kind load-bearing columns: populated only by the kind that owns them.
KIND_COLUMNS: dict[Kind, tuple[str, ...]] = {
    Kind.DECISION: ("scope", "status_detail", "trigger_predicate"),
    Kind.RULE: ("earned_by",),
    Kind.STATE: ("subject", "expected_lifetime"),
    Kind.PREFERENCE: (),
    Kind.REFERENCE: (),
    Kind.RESIDUAL: ("risk_weight", "trigger_predicate"),
    Kind.EVENT: (),
}
PER_KIND_COLUMNS: tuple[str, ...] = (
    "scope",
    "status_detail",
    "trigger_predicate",
    "risk_weight",
    "earned_by",
    "subject",
    "expected_lifetime",
)
STATUS_DETAILS: tuple[str, ...] = ("locked", "parked-with-trigger")


def parse_kind(value: object) -> Kind:
    """Return the Kind for a case-insensitive name, or raise InvalidInput naming the choices."""
    from factstore.errors import InvalidInput
    from factstore.inputs import show

    if isinstance(value, Kind):
        return value
    if isinstance(value, str) and value.strip().upper() in Kind.__members__:
        return Kind[value.strip().upper()]
    raise InvalidInput(
        f"unknown fact kind {show(value)}; use one of {', '.join(k.value for k in Kind)}"
    )


def parse_source_type(value: object) -> SourceType:
    """Return the SourceType for a name, or raise InvalidInput naming the choices."""
    from factstore.errors import InvalidInput
    from factstore.inputs import show

    if isinstance(value, SourceType):
        return value
    if isinstance(value, str):
        try:
            return SourceType(value.strip().lower())
        except ValueError:
            pass
    raise InvalidInput(
        f"unknown source_type {show(value)}; use one of {', '.join(s.value for s in SourceType)}"
    )
