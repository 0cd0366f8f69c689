"""Triage: route a conflict candidate to exactly one lane (seed 000 §4).

RULE exception first (a rule replacing a rule always runs the resolution round), then lane 1
(explicit supersession auto-resolves), lane 2 (a filesystem path decides, for STATE and
REFERENCE), else lane 3 (contested, with an interrupt).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from factstore.kinds import Kind

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
    #: rule-exception | lane-1 | lane-2 | lane-3
    lane: str
    #: for lane 1 and lane 2: 'new' or 'existing' wins; None when contested
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
           path_exists: Callable[[str], bool]) -> TriageDecision:
    """Pick the lane for a new fact that near-hits an existing live fact of the same kind."""
    if new.kind is Kind.RULE:
        return TriageDecision("rule-exception", None,
                              "a RULE replacing a RULE never auto-resolves; both go contested")
    if explicit_supersession:
        return TriageDecision("lane-1", "new", "the capture explicitly replaces the prior belief")
    if new.kind in (Kind.STATE, Kind.REFERENCE):
        decision = _ground_truth(new, existing, path_exists)
        if decision is not None:
            return decision
    return TriageDecision("lane-3", None, "genuinely contested: no explicit supersession and "
                                          "no mechanical ground truth")


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
