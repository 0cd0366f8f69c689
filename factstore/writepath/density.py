"""Reading the density check's near-hits: which are the same fact, which contradict the new
one, and which are about something else (issue 7).

The store's SQL finds the near-hits (same kind, live, nearest first; same-subject facts
first); this module decides what each one means. Pure: statements, subject keys and
similarities in, a :class:`DensityFinding` out.

The rules, in order, for one near-hit:

1. **Another subject is never a conflict.** When both facts have a subject key and the keys
   differ, the hit is skipped, in every detector mode. When either key is unknown, a
   difference the detector places in the subject position ("subject svc-31 -> svc-6") skips
   it too (modes ``annotate`` and ``route``).
2. **At or above ``density_threshold``** (modes ``annotate`` and ``route``): no detected
   difference is a *restatement*, new testimony for the existing fact, never an interrupt;
   a difference that contradicts (:func:`factstore.differences.route_decision`) makes it a
   conflict *candidate*; a detail on one side only is *complementary* in ``route`` (written
   as a separate fact) and a candidate in ``annotate`` (the interrupt names the detail).
   Mode ``off`` consults no detector: every hit at or above the threshold is a candidate.
3. **Below the threshold, down to a floor** (``subject_floor`` for a hit with the same
   subject key, ``contradiction_floor`` otherwise; every mode): only a strong
   contradiction counts -- a negation, an antonym or status change, a value, date or version
   replaced in the same slot, a swapped choice. "We decided to use Redis" / "We decided not
   to use Redis" sits at cosine 0.75 and is caught here. EVENTs are exempt: a similar event
   is a second event, not a contradiction (seed 004). In this band "no difference" proves
   nothing (the detector cannot name what differs between unrelated predicates), so a hit
   is a restatement only when both facts read the same subject's status in one class
   ("svc-7 is green" / "svc-7 is healthy", cosine 0.68); anything else is unrelated.

A new fact with no subject key searches kind-wide (the store's behaviour before subjects
were read), and the finding records that fallback as ``scope = "kind"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from factstore.differences import differences, route_decision, status_classes
from factstore.kinds import Kind
from factstore.writepath.contracts import contract_of

__all__ = [
    "STRONG_CATEGORIES",
    "DensityFinding",
    "HitReading",
    "NearHit",
    "assess",
    "read_hit",
    "strong_contradiction",
]

#: Difference categories that contradict even below the density threshold (when paired:
#: "value 3 -> 5", never a one-sided "value 5 only in b").
STRONG_CATEGORIES: tuple[str, ...] = ("value", "version", "date", "time", "negation",
                                      "antonym", "status", "swapped")
_ONE_SIDED = (" only in a", " only in b")


@dataclass(frozen=True)
class NearHit:
    """A live fact of the same kind near the new one."""

    id: int
    kind: Kind
    statement: str
    quote: str
    verdict: str
    similarity: float
    t_captured: datetime
    subject_key: str | None = None
    #: when the fact was said (None: unknown); with t_captured, its observation time
    t_said: datetime | None = None
    #: its predicate and object, when its extractor said (the Preference contract reads them)
    predicate: str | None = None
    object: str | None = None

    @property
    def observed(self) -> datetime:
        return self.t_said or self.t_captured


@dataclass(frozen=True)
class HitReading:
    """What one near-hit means for the new fact."""

    hit: NearHit
    #: restatement | candidate | complementary | other-subject | unrelated
    relation: str
    differences: tuple[str, ...]
    #: True when both facts have the same subject key (not merely an unknown one)
    same_subject: bool
    #: the similarity band: 'near' (at or above the threshold) or 'floor' (below it)
    band: str


@dataclass(frozen=True)
class DensityFinding:
    """Every near-hit read, and what the write path should do with them."""

    #: 'subject' when the new fact has a subject key, 'kind' for the kind-wide fallback
    scope: str
    readings: tuple[HitReading, ...]

    def _of(self, relation: str) -> tuple[HitReading, ...]:
        return tuple(r for r in self.readings if r.relation == relation)

    @property
    def decisive(self) -> HitReading | None:
        """The nearest hit that is a restatement or a conflict candidate: it decides."""
        return next((r for r in self.readings if r.relation in ("restatement", "candidate")),
                    None)

    @property
    def restatement(self) -> HitReading | None:
        """The deciding hit when it says the same thing: the new fact is testimony for it."""
        decisive = self.decisive
        return decisive if decisive is not None and decisive.relation == "restatement" else None

    @property
    def candidates(self) -> tuple[HitReading, ...]:
        """Conflict candidates, nearest first (none when a restatement decides)."""
        return () if self.restatement is not None else self._of("candidate")

    @property
    def complementary(self) -> HitReading | None:
        found = self._of("complementary")
        return found[0] if found else None

    @property
    def skipped_other_subjects(self) -> tuple[HitReading, ...]:
        return self._of("other-subject")


def strong_contradiction(found: tuple[str, ...] | list[str]) -> bool:
    """Whether what differs contradicts even at a lower similarity (rule 3)."""
    for entry in found:
        if entry.endswith(_ONE_SIDED):
            continue
        category = "negation" if entry.startswith("negation") else entry.split(" ", 1)[0]
        if category in STRONG_CATEGORIES:
            return True
    return False


def _same_status_reading(a: str, b: str) -> bool:
    """Both read the subject's status, in one class ("green" / "healthy"): one reading."""
    classes = status_classes(a)
    return len(classes) == 1 and classes == status_classes(b)


def _detector_says_other_subject(found: tuple[str, ...]) -> bool:
    return any(d.startswith("subject ") for d in found)


def read_hit(new_statement: str, new_key: str | None, hit: NearHit, *, kind: Kind,
             mode: str, threshold: float, floor: float,
             subject_floor: float | None = None,
             roles: tuple[str | None, str | None] = (None, None)) -> HitReading:
    """Rules 1-3 for one near-hit (see the module docstring). ``roles`` is the new fact's
    (predicate, object), when its extractor said."""
    same = new_key is not None and hit.subject_key == new_key
    if same and subject_floor is not None:
        floor = subject_floor
    band = "near" if hit.similarity >= threshold else "floor"
    if new_key is not None and hit.subject_key is not None and not same:
        return HitReading(hit, "other-subject", (), False, band)
    if kind is Kind.PREFERENCE and same and hit.similarity >= floor and \
            _new_version(roles, (hit.predicate, hit.object)):
        # Preferences supersede (seed 004): the same subject and predicate with another
        # object is the preference's new version (the revision lane orders them by when
        # each was said), at any similarity above the floor
        return HitReading(hit, "candidate", (f"object {hit.object} -> {roles[1]}",), same,
                          band)
    immutable = contract_of(kind) == "event"
    if band == "near" and mode == "off" and not immutable:
        return HitReading(hit, "candidate", (), same, band)
    found = differences(hit.statement, new_statement)
    if not same and _detector_says_other_subject(found):
        return HitReading(hit, "other-subject", found, False, band)
    if band == "floor":
        if hit.similarity < floor:
            return HitReading(hit, "unrelated", found, same, band)
        if not immutable and strong_contradiction(found):
            return HitReading(hit, "candidate", found, same, band)
        if same and not found and _same_status_reading(hit.statement, new_statement):
            return HitReading(hit, "restatement", found, same, band)
        return HitReading(hit, "unrelated", found, same, band)
    if not found:
        return HitReading(hit, "restatement", found, same, band)
    if immutable:
        # Events are immutable (seed 004): a similar event that differs is a second,
        # independent event, never a conflict and never a supersession.
        return HitReading(hit, "complementary", found, same, band)
    if kind is Kind.PREFERENCE and same:
        # Preferences supersede (seed 004): a near-identical preference of the same subject
        # that differs is its new version (the revision lane orders them by when said).
        return HitReading(hit, "candidate", found, same, band)
    if route_decision(found) or mode == "annotate":
        return HitReading(hit, "candidate", found, same, band)
    return HitReading(hit, "complementary", found, same, band)


def _fold(text: str | None) -> str:
    return " ".join((text or "").lower().split())


def _new_version(new: tuple[str | None, str | None], old: tuple[str | None, str | None]
                 ) -> bool:
    """The same predicate, another object: both named, compared case- and space-folded."""
    return all(new) and all(old) and _fold(new[0]) == _fold(old[0]) and \
        _fold(new[1]) != _fold(old[1])


def assess(new_statement: str, new_key: str | None, hits: list[NearHit] | tuple[NearHit, ...],
           *, kind: Kind, mode: str, threshold: float, floor: float,
           subject_floor: float | None = None, exhaustive: bool = True,
           prior: DensityFinding | None = None,
           roles: tuple[str | None, str | None] = (None, None)) -> DensityFinding:
    """Read the near-hits, nearest first; the nearest restatement or candidate decides.

    With ``exhaustive=False`` reading stops at the deciding hit (the detector costs about a
    millisecond a pair); the write path reads on only when every contradicting candidate
    counts (an explicit supersession or a revision replaces them all; a contested fact is
    contested against them all), passing the ``prior`` finding of the same hits so the
    hits already read are not read again.
    """
    ordered = sorted(hits, key=lambda h: (-h.similarity, h.id))
    readings: list[HitReading] = list(prior.readings) if prior is not None else []
    for hit in ordered[len(readings):]:
        reading = read_hit(new_statement, new_key, hit, kind=kind, mode=mode,
                           threshold=threshold, floor=floor, subject_floor=subject_floor,
                           roles=roles)
        readings.append(reading)
        if not exhaustive and reading.relation in ("restatement", "candidate"):
            break
    return DensityFinding("subject" if new_key is not None else "kind", tuple(readings))
