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
   difference is a *restatement*, new testimony for the existing fact, never an interrupt,
   when the two say one thing (:func:`one_reading`: not merely one subject);
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

4. **The same property** (rules 2 and 3, and the Preference contract): a subject is not a
   property. One speaker's "Sam loves hiking" and "Sam wishes your motivation never goes
   anywhere" share a subject and nothing else, and neither replaces nor contests the other
   (graphiti#1728). A candidate needs, beside a contradicting difference, evidence that both
   facts speak of one property (:func:`same_property`): outside the subject and the changed
   words, what the statements say is mostly shared ("web-1 runs 5 replicas" / "web-1 is now
   running 7 replicas": *runs replicas*), or nothing is left but the changed value itself
   ("The nightly build is green" / "... is failing"). A preference's new version read
   from the role columns alone (:func:`alternatives`) needs a verb of choice with another
   option ("prefers tea" / "prefers coffee"): "loves live music" and "loves how it's a
   creative outlet" are two likings, "is so proud of you" and "is here for you" two
   attitudes.

A new fact with no subject key searches kind-wide (the store's behaviour before subjects
were read), and the finding records that fallback as ``scope = "kind"``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from factstore.differences import (
    NUMBER_WORDS,
    STATUS_CLASSES,
    differences,
    route_decision,
    status_classes,
)
from factstore.kinds import Kind
from factstore.writepath import polarity
from factstore.writepath.contracts import contract_of
from factstore.writepath.subjects import subject_of

__all__ = [
    "STRONG_CATEGORIES",
    "DensityFinding",
    "HitReading",
    "NearHit",
    "alternatives",
    "assess",
    "frame_share",
    "one_reading",
    "read_hit",
    "same_property",
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


# --------------------------------------------------------------------------------------------
# The same property
# --------------------------------------------------------------------------------------------

#: Difference categories, longest first so "named value" is not read as "named".
_CATEGORIES = ("named value", "value", "version", "date", "time", "negation", "antonym",
               "status", "action", "subject", "swapped", "roles", "object")
#: Words that carry no property: intensifiers, hedges and time adverbs of chat.
_FILLERS = frozenset((
    "really", "so", "very", "just", "also", "too", "still", "now", "currently", "right",
    "actually", "definitely", "totally", "super", "pretty", "quite", "even", "always",
    "never", "usually", "sometimes", "often", "again", "already", "though", "anyway",
    "probably", "maybe", "truly", "honestly", "lately", "recently", "today", "tonight",
    # the connectives of a stated interval ("paused until 2030"): its date is a value
    "until", "till", "since",
))
_WORD = re.compile(r"[a-z0-9][a-z0-9'.+/_-]*")
#: Share of the two frames' words (Dice) that must be exceeded for one property: "loves
#: coconut milk" / "knows a recipe using coconut milk" shares exactly half, and is two.
_FRAME_SHARE = 0.5
#: Verbs of choice: their object is the one option taken, so another object replaces it.
_CHOICE_VERBS = frozenset(("prefer", "favour", "favor", "choose", "pick", "opt", "rather",
                           "select", "switch"))
#: Longest object (content words) a verb of choice names as one option.
_OPTION_WORDS = 3


def _content(text: str, skip: frozenset[str] = frozenset()) -> list[str]:
    """Content words, lower case: function words, operators, fillers and ``skip`` left out."""
    out = []
    for raw in _WORD.findall(text.lower().replace("\u2019", "'")):
        word = raw.removesuffix("'s").strip(".'")
        if (word and word not in polarity.FUNCTION_WORDS and word not in _FILLERS
                and word not in polarity.SINGLE_OPERATORS and word != "no"
                and not word.endswith("n't") and word not in skip):
            out.append(word)
    return out


def _said(word: str, others: Sequence[str]) -> bool:
    return any(polarity.same_word(word, o) or polarity.same_stem(word, o) for o in others)


def _subject_words(statement: str, keys: Sequence[str | None] = ()) -> frozenset[str]:
    """The words naming the statement's subject: its noun phrase before the predicate, and
    the words that spell one of ``keys`` (the facts' subject keys: "Sam", "Priya Patel" for
    ``priyapatel``), since the extractor names the subject where the statement's own reading
    stops short ("Sam appreciates our friendship" has no predicate word it knows)."""
    subject = (subject_of(statement) or "").split(" (", 1)[0]
    words = set(_content(subject))
    for key in (k for k in keys if k):
        head = key.split("@", 1)[0]
        for word in _content(statement):
            folded = re.sub(r"[^0-9a-z]", "", word)
            if len(folded) >= _KEY_PART and (folded == head or head.startswith(folded)
                                             or head.endswith(folded)):
                words.add(word)
    return frozenset(words)


#: Shortest word read as a part of a subject key ("sam" of "sam", "patel" of "priyapatel").
_KEY_PART = 3


def _changed_words(found: Sequence[str]) -> frozenset[str]:
    """The words a difference names on either side ("value 40 EU -> 41 EU": 40, eu, 41)."""
    words: set[str] = set()
    for entry in found:
        label = next((c for c in _CATEGORIES if entry.startswith(c)), None)
        if label is None or label == "negation":
            continue
        rest = entry[len(label):]
        for marker in (" only in a", " only in b"):
            rest = rest.removesuffix(marker)
        for side in rest.split(" -> "):
            words.update(_content(side.replace("-", " ")))
            words.update(_content(side))
    return frozenset(words)


def _dice(a: Sequence[str], b: Sequence[str]) -> float:
    if not a and not b:
        return 1.0
    shared = sum(_said(w, b) for w in a) + sum(_said(w, a) for w in b)
    return shared / (len(a) + len(b))


def same_property(old: str, new: str, found: Sequence[str] = (),
                  keys: Sequence[str | None] = ()) -> bool:
    """Whether two statements about one subject speak of the same property.

    The *frame* of a statement is what it says beyond its subject and the words a
    difference changes (``found``, from :func:`factstore.differences.differences`). Two
    frames speak of one property when both are empty (nothing but the value changed: "The
    nightly build is green" / "... is failing") or when they mostly share their words
    (Dice > 0.5, up to inflection: "runs 5 replicas" / "is now running 7 replicas").
    Intensifiers and hedges ("really", "so", "probably") carry no property.
    """
    return frame_share(old, new, found, keys) > _FRAME_SHARE


def frame_share(old: str, new: str, found: Sequence[str] = (),
                keys: Sequence[str | None] = ()) -> float:
    """How much of the two statements' frames is shared (Dice, up to inflection; 1.0 when
    both are empty): see :func:`same_property`. Numbers are values, never a frame."""
    subject = _subject_words(old, keys) | _subject_words(new, keys)
    skip = subject | _changed_words(found)
    frame_old = [w for w in _content(old, skip) if not _is_number(w)]
    frame_new = [w for w in _content(new, skip) if not _is_number(w)]
    return _dice(frame_old, frame_new)


def one_reading(old: str, new: str, keys: Sequence[str | None] = ()) -> bool:
    """Whether two near statements with no detected difference are one fact reworded, so
    the new one is testimony for the old: their frames (what each says beyond the subject)
    share at least half their words, up to inflection ("such an awesome experience" / "an
    amazing experience", "Next month Caroline is having an LGBTQ art show" / "Caroline is
    putting together an LGBTQ art show next month"), or both say nothing more ("John will"
    / "John definitely will") or one word each that is not another status ("ledger is
    down" / "ledger is offline", "That bowl is gorgeous" / "... awesome"). One speaker's
    "Tim is totally hooked" and "Tim is glad everyone had fun", or "Sam loves hiking" and
    "Sam loves live music", are near through the name and a verb: two facts, never one
    merged into the other. (A longer rewording that shares too little, "Gina is passionate about
    fashion trends" / "Gina is focused on making her store a top destination for fashion
    fans", is written twice: a duplicate, never a false merge.)"""
    subject = _subject_words(old, keys) | _subject_words(new, keys)
    frame_old = [w for w in _content(old, subject) if not _is_number(w)]
    frame_new = [w for w in _content(new, subject) if not _is_number(w)]
    if len(frame_old) == len(frame_new) <= 1:
        # nothing, or one word each, at cosine 0.80 or more: a reworded reading ("That bowl
        # is gorgeous" / "... awesome"), unless the two are two readings of a status
        return not (frame_old and _other_status(frame_old[0], frame_new[0]))
    return _dice(frame_old, frame_new) >= _FRAME_SHARE


_STATUS_CLASS = {w: i for i, c in enumerate(STATUS_CLASSES) for w in c}


def _other_status(a: str, b: str) -> bool:
    """Two readings of two status classes ("green" / "paused")."""
    return a in _STATUS_CLASS and b in _STATUS_CLASS and _STATUS_CLASS[a] != _STATUS_CLASS[b]


def _is_number(word: str) -> bool:
    return word.replace(".", "").replace(",", "").isdigit() or word in NUMBER_WORDS


def _head(predicate: str) -> str:
    """The predicate's main verb: its last content word ("decided to keep": keep), else its
    last word ("is", "'m")."""
    words = _WORD.findall(predicate.lower().replace("\u2019", "'"))
    content = [w for w in words if w not in polarity.FUNCTION_WORDS
               and w not in polarity.SINGLE_OPERATORS and not w.endswith("n't")]
    return (content or words or [""])[-1]


def alternatives(new: tuple[str | None, str | None], old: tuple[str | None, str | None],
                 ignore: frozenset[str] = frozenset()) -> bool:
    """Whether two (predicate, object) readings are two values of one property, read from
    the role columns alone: a verb of choice with another short option ("prefers dark mode"
    / "prefers light mode", "prefers tea" / "prefers coffee"): one option is taken at a time.

    Any other predicate is two facts as far as the roles tell: two objects of a liking
    ("loves live music" / "loves how it's a creative outlet"), two complements of one
    attitude ("is grateful for the support" / "is grateful that John overcame it"), two
    attitudes ("is so proud of you" / "is here for you anytime"). Where a copula's value
    really is replaced ("is closed" / "is open", "is 3 years old" / "is 4 years old") the
    statements say so to the detector (an antonym, a status, a value), and rules 2-4 decide.
    Words in ``ignore`` (the subject's: a scribe writes "my garden" as "Melanie's garden")
    name no option."""
    if not (all(new) and all(old)):
        return False
    (pred_new, obj_new), (pred_old, obj_old) = new, old
    head_new, head_old = _head(pred_new or ""), _head(pred_old or "")
    if not polarity.same_word(head_new, head_old) or _fold(obj_new) == _fold(obj_old):
        return False
    if not any(polarity.same_word(head_new, verb) for verb in _CHOICE_VERBS):
        return False
    words_new, words_old = _content(obj_new or "", ignore), _content(obj_old or "", ignore)
    # "it", "that": a pronoun names no option; a long object is a clause, not an option
    return (0 < len(words_new) <= _OPTION_WORDS and 0 < len(words_old) <= _OPTION_WORDS
            and words_new != words_old)


def read_hit(new_statement: str, new_key: str | None, hit: NearHit, *, kind: Kind,
             mode: str, threshold: float, floor: float,
             subject_floor: float | None = None,
             roles: tuple[str | None, str | None] = (None, None)) -> HitReading:
    """Rules 1-3 for one near-hit (see the module docstring). ``roles`` is the new fact's
    (predicate, object), when its extractor said."""
    same = new_key is not None and hit.subject_key == new_key
    keys = (new_key, hit.subject_key)
    if same and subject_floor is not None:
        floor = subject_floor
    band = "near" if hit.similarity >= threshold else "floor"
    if new_key is not None and hit.subject_key is not None and not same:
        return HitReading(hit, "other-subject", (), False, band)
    if kind is Kind.PREFERENCE and same and hit.similarity >= floor and alternatives(
            roles, (hit.predicate, hit.object),
            _subject_words(hit.statement, keys) | _subject_words(new_statement, keys)):
        # Preferences supersede (seed 004): the same subject and predicate with another
        # option in the object's slot is the preference's new version (the revision lane
        # orders them by when each was said), at any similarity above the floor
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
        if not immutable and strong_contradiction(found) and \
                same_property(hit.statement, new_statement, found, keys):
            return HitReading(hit, "candidate", found, same, band)
        if same and not found and _same_status_reading(hit.statement, new_statement):
            return HitReading(hit, "restatement", found, same, band)
        return HitReading(hit, "unrelated", found, same, band)
    if not found:
        if not one_reading(hit.statement, new_statement, keys):
            # Near only through the subject: another fact, neither testimony nor a rival.
            return HitReading(hit, "unrelated", found, same, band)
        return HitReading(hit, "restatement", found, same, band)
    if immutable:
        # Events are immutable (seed 004): a similar event that differs is a second,
        # independent event, never a conflict and never a supersession.
        return HitReading(hit, "complementary", found, same, band)
    if not same_property(hit.statement, new_statement, found, keys):
        # One subject, two properties: both stand, whatever differs between them.
        return HitReading(hit, "complementary", found, same, band)
    if kind is Kind.PREFERENCE and same and route_decision(found):
        # Preferences supersede (seed 004): a near-identical preference of the same subject
        # that changes a value is its new version (the revision lane orders them by when
        # said); a detail on one side only ("knows one recipe") is not a new version.
        return HitReading(hit, "candidate", found, same, band)
    if route_decision(found) or mode == "annotate":
        return HitReading(hit, "candidate", found, same, band)
    return HitReading(hit, "complementary", found, same, band)


def _fold(text: str | None) -> str:
    return " ".join((text or "").lower().split())


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
