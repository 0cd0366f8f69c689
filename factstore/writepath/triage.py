"""Triage: route a conflict candidate to exactly one lane (seed 000 §4).

RULE exception first (a rule replacing a rule always runs the resolution round), then lane 1
(explicit supersession auto-resolves), lane 2 (a filesystem path decides, for STATE and
REFERENCE), then the revision lane (a newer reading of a STATE, or a newer PREFERENCE, about
the same subject replaces the older one), else lane 3 (contested, with an interrupt).

Why the revision lane: a STATE is a reading of a perishable condition ("svc-7 is paused right
now") and a PREFERENCE is revisable by contract (seed 004: a new preference for the same
subject supersedes the old one). When the subject is known to be the same, the reading
observed later is the current one and the earlier one becomes history; asking a person to
adjudicate every heartbeat of a service would bury the real conflicts. Observation time is
when the fact was said (else captured), so an older reading that arrives late is written
already superseded by the newer one, and the outcome does not depend on arrival order.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from factstore.kinds import Kind
from factstore.writepath.contracts import CONTRACTS

#: Kinds whose newer same-subject value replaces the older one without a person: those on
#: the supersession contract (writepath/contracts.py).
REVISABLE_KINDS: frozenset[Kind] = frozenset(k for k, c in CONTRACTS.items()
                                             if c == "preference")

_WINDOWS_PATH = re.compile(r"(?<![\w/])[A-Za-z]:\\(?:[^\s\\\"'<>|?*]+\\)*[^\s\\\"'<>|?*]*")
_POSIX_PATH = re.compile(r"(?<![\w:/.])(?:~|\.{1,2})?/(?:[\w.@+-]+/)*[\w.@+-]+")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)


@dataclass(frozen=True)
class Candidate:
    """The side of a near-hit the triage needs to see."""

    kind: Kind
    statement: str
    quote: str


@dataclass(frozen=True)
class TriageDecision:
    #: rule-exception | lane-1 | lane-2 | revision | lane-3
    lane: str
    #: for lanes 1, 2 and revision: 'new' or 'existing' wins; None when contested
    winner: str | None
    reason: str


def filesystem_paths(text: str) -> tuple[str, ...]:
    """Paths named in a text. URLs are stripped first: they are un-checkable without network."""
    # Transport doubles backslashes (C:\\\\ops); collapse runs as anchor hygiene does.
    text = re.sub(r"\\+", r"\\", _URL.sub(" ", text))
    found = [m.group(0).rstrip(".,;:)") for m in _WINDOWS_PATH.finditer(text)]
    found += [m.group(0).rstrip(".,;:)") for m in _POSIX_PATH.finditer(text)]
    return tuple(dict.fromkeys(p for p in found if len(p) > 1))


def triage(new: Candidate, existing: Candidate, *, explicit_supersession: bool,
           path_exists: Callable[[str], bool], same_subject: bool = False,
           new_observed: datetime | None = None,
           existing_observed: datetime | None = None) -> TriageDecision:
    """Pick the lane for a new fact that contradicts an existing live fact of the same kind.

    ``same_subject`` says both facts carry the same subject key; only then may the revision
    lane decide, by observation time (``new_observed`` against ``existing_observed``).
    """
    if new.kind is Kind.RULE:
        return TriageDecision("rule-exception", None,
                              "a RULE replacing a RULE never auto-resolves; both go contested")
    revisable = (same_subject and new.kind in REVISABLE_KINDS and new_observed is not None
                 and existing_observed is not None)
    if revisable and new_observed < existing_observed:  # type: ignore[operator]
        # A late-arriving older reading never overrides a newer one, "now" or not.
        return _revision(new.kind, new_observed, existing_observed)  # type: ignore[arg-type]
    if explicit_supersession:
        return TriageDecision("lane-1", "new", "the capture explicitly replaces the prior belief")
    if new.kind in (Kind.STATE, Kind.REFERENCE):
        decision = _ground_truth(new, existing, path_exists)
        if decision is not None:
            return decision
    if revisable:
        return _revision(new.kind, new_observed, existing_observed)  # type: ignore[arg-type]
    return TriageDecision("lane-3", None, "genuinely contested: no explicit supersession and "
                                          "no mechanical ground truth")


def _revision(kind: Kind, new_observed: datetime, existing_observed: datetime
              ) -> TriageDecision:
    what = "reading of the subject's state" if kind is Kind.STATE else "preference"
    if new_observed >= existing_observed:
        return TriageDecision("revision", "new", f"revision: a newer {what} replaces the "
                                                 "older one (same subject)")
    return TriageDecision("revision", "existing", f"revision: an older {what} than the "
                                                  "current one (same subject); kept as history")


def _ground_truth(new: Candidate, existing: Candidate,
                  path_exists: Callable[[str], bool]) -> TriageDecision | None:
    new_paths = filesystem_paths(new.statement + " " + new.quote)
    old_paths = filesystem_paths(existing.statement + " " + existing.quote)
    if not new_paths or not old_paths:
        return None
    new_ok = any(path_exists(p) for p in new_paths)
    old_ok = any(path_exists(p) for p in old_paths)
    if new_ok and not old_ok:
        return TriageDecision("lane-2", "new", f"ground truth: {new_paths[0]} exists and "
                                               f"{old_paths[0]} does not")
    if old_ok and not new_ok:
        return TriageDecision("lane-2", "existing", f"ground truth: {old_paths[0]} exists and "
                                                    f"{new_paths[0]} does not")
    return None  # both or neither exist: the filesystem cannot decide
