"""The seven kinds on seed 004's three mutation contracts. Pure.

- **fact** — append-only (RULE, DECISION, REFERENCE, RESIDUAL): a different value for the
  same subject is a contradiction stored beside the old one (contested, one contradiction
  group), and the read prefers the higher-confidence, then the more recent member
  (:func:`factstore.groups.preferred_member`). Only the source itself saying it replaces
  the old belief (lane 1) or a checkable path (lane 2) supersedes one; nothing is
  overwritten either way.
- **preference** — supersedes (PREFERENCE, and STATE): a newer value for the same subject
  replaces the older (``superseded_by`` points at it; recall serves only the newest;
  ``Store.chain`` returns the history), ordered by when each was said, so a late-arriving
  older one is written already superseded. A STATE is a reading of a perishable condition
  ("svc-7 is paused right now"): the newer reading is the current one, as a newer
  preference is.
- **event** — immutable (EVENT), with ``event_at`` (when it happened, apart from when it
  was extracted): a similar event is a second, independent event, never a conflict and
  never a supersession.
"""

from __future__ import annotations

from factstore.kinds import Kind

CONTRACTS: dict[Kind, str] = {
    Kind.RULE: "fact",
    Kind.DECISION: "fact",
    Kind.REFERENCE: "fact",
    Kind.RESIDUAL: "fact",
    Kind.STATE: "preference",
    Kind.PREFERENCE: "preference",
    Kind.EVENT: "event",
}


def contract_of(kind: Kind) -> str:
    """'fact', 'preference' or 'event'."""
    return CONTRACTS[kind]
