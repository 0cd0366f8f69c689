"""Resolving one subject+attribute timeline (seed 002 §2, §3, §5): pure and deterministic.

Resolution never rewrites what a fact says. It decides, for every fact of one key, a status
(current / superseded / disputed / retracted), an effective end (the earlier of the fact's own
stated valid_to and the next fact's start, kept as TEXT so it reads as written) and the
supersession links. The result depends only on the facts, never on the order they are given:
facts are ordered by (start, observed_at, id), and ids are unique.

Vocabulary used below:

* start (``sort_start``): the start instant of valid_from; a fact with no valid_from starts at
  its observed_at.
* group: the live facts that share one start instant. A group whose facts disagree on
  value+unit is disputed (rule 4); a group that agrees is a small chain ordered by
  (observed_at, id), each one superseded by the next, so at most one of them covers any instant.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from factstore.errors import InvalidInput
from factstore.timelines.cardinality import MANY, check_cardinality
from factstore.timelines.dates import start_of
from factstore.timelines.model import Resolution, Resolved, TimelineFact
from factstore.timelines.values import value_key

CURRENT = "current"
SUPERSEDED = "superseded"
DISPUTED = "disputed"
RETRACTED = "retracted"

RULE_4 = "rule-4"
RULE_6 = "rule-6"

Pair = tuple[int, int, str]


# -- instants -----------------------------------------------------------------------------------

def _aware(instant: datetime) -> datetime:
    """``instant`` in UTC; a naive datetime is read as UTC so comparisons never raise."""
    if instant.tzinfo is None:
        return instant.replace(tzinfo=UTC)
    return instant.astimezone(UTC)


def _require_aware(instant: datetime) -> datetime:
    """Asked instants must say their timezone: guessing one would shift every answer."""
    if instant.tzinfo is None:
        raise InvalidInput(f"instant {instant.isoformat()} has no timezone; pass an aware time")
    return instant.astimezone(UTC)


def rfc3339(instant: datetime) -> str:
    """'2026-10-15T09:12:00Z', with microseconds when there are any.

    Used as the effective end of a fact whose successor has no valid_from; keeping the
    microseconds means the end is exactly the successor's start, leaving no gap between them.
    """
    instant = _aware(instant)
    text = instant.strftime("%Y-%m-%dT%H:%M:%S")
    if instant.microsecond:
        text += f".{instant.microsecond:06d}"
    return text + "Z"


def sort_start(fact: TimelineFact) -> datetime:
    """The instant a fact starts to hold: the start of its valid_from.

    A fact with no valid_from (the text gave no time) orders by its observed_at: whoever said it
    held at least from when it was said, and that is the latest start that is certainly true.
    Ordering it first of all (as if valid since forever) would let an undated fact silently end
    every dated one.
    """
    start = start_of(fact.valid_from)
    return _aware(fact.observed_at) if start is None else start


def end_instant(fact: TimelineFact) -> datetime | None:
    """The start instant of the fact's effective_valid_to (as stored); None = open-ended."""
    return start_of(fact.effective_valid_to)


def _start_text(fact: TimelineFact) -> str:
    """The fact's start as text: its valid_from as written, else its observed_at."""
    return fact.valid_from if fact.valid_from is not None else rfc3339(fact.observed_at)


def _order_key(fact: TimelineFact) -> tuple[datetime, datetime, int]:
    return (sort_start(fact), _aware(fact.claim_observed_at), fact.id)


def shown_order(fact: TimelineFact) -> tuple[datetime, datetime, tuple[str, str], int]:
    """How values that answer together are listed: by start, then by their first
    observation (a corroboration may be older than the row), then by value. Unlike the
    resolution order it does not depend on which observation happened to be stored as the
    row, so the same observations list the same way."""
    return (sort_start(fact), _aware(fact.first_observation().observed_at), fact.value_key,
            fact.id)


def _answer_rank(fact: TimelineFact) -> tuple[bool, datetime, int]:
    """When two could answer (seed 002 §4, §5): one with a source ranks above one without,
    then the newer observation wins."""
    sourced = bool(fact.source) or any(c.source for c in fact.corroborations)
    return (sourced, _aware(fact.claim_observed_at), fact.id)


def _newest_key(fact: TimelineFact) -> tuple[datetime, int]:
    """'Newer observation wins': the claim's newest observation, then the highest id."""
    return (_aware(fact.claim_observed_at), fact.id)


# -- validity -----------------------------------------------------------------------------------

def valid_at(fact: TimelineFact, instant: datetime) -> bool:
    """Whether ``instant`` lies in [sort_start, effective end) of the fact.

    This is the validity range only (the world); whether the fact is still believed (retracted
    or not) is a separate question, which current_at and corroborated_by ask themselves.
    """
    instant = _require_aware(instant)
    end = end_instant(fact)
    return sort_start(fact) <= instant and (end is None or instant < end)


def _live(facts: Iterable[TimelineFact]) -> list[TimelineFact]:
    return [f for f in facts if not f.retracted]


def current_at(facts: Sequence[TimelineFact], instant: datetime,
               cardinality: str) -> tuple[TimelineFact, ...]:
    """The facts that answer "what holds at ``instant``?" for one key (seed 002 §5).

    The live facts valid then, whatever their status (a superseded fact is still the answer for
    its own range). For a one attribute at most one, unless disputed facts are valid then, in
    which case one per disputed value; when two could answer, one with a source ranks above
    one without, then the newer observation wins. For a many attribute, one fact per
    distinct value (ranked the same way). Results are ordered
    by (start, observed_at, id), i.e. the order the values began.
    """
    check_cardinality(cardinality)
    valid = [f for f in _live(facts) if valid_at(f, instant)]
    if cardinality == MANY:
        return _one_per_value(valid)
    disputed = [f for f in valid if f.status == DISPUTED]
    if disputed:
        # one answer per value: two rows of one disputed value are one side of the dispute
        return _one_per_value(disputed)
    if not valid:
        return ()
    return (max(valid, key=_answer_rank),)


def _one_per_value(facts: Sequence[TimelineFact]) -> tuple[TimelineFact, ...]:
    best: dict[tuple[str, str], TimelineFact] = {}
    for fact in facts:
        held = best.get(fact.value_key)
        if held is None or _answer_rank(fact) > _answer_rank(held):
            best[fact.value_key] = fact
    return tuple(sorted(best.values(), key=shown_order))


def corroborated_by(value: str, unit: str | None, valid_from: str | None, observed_at: datetime,
                    facts: Sequence[TimelineFact], cardinality: str) -> TimelineFact | None:
    """Rule 2: the live fact a new write merely repeats, or None when the write is news.

    The new fact starts at its valid_from, else at its observed_at (as ``sort_start``). It is a
    corroboration of a live fact with equal value+unit whose stored range [sort_start,
    effective end) contains that start, including a superseded fact's range, since that value
    held then. A retracted fact never corroborates: nobody believes it any more. If several
    match, the newest observation (then the highest id) answers, so the choice is deterministic.
    ``cardinality`` does not change the test (ranges are per value either way) and is checked
    only so a caller cannot pass nonsense.
    """
    check_cardinality(cardinality)
    start = start_of(valid_from)
    instant = _require_aware(observed_at) if start is None else start
    wanted = value_key(value, unit)
    matches = [f for f in _live(facts)
               if f.value_key == wanted and valid_at(f, instant)]
    return max(matches, key=_newest_key) if matches else None


# -- resolution ---------------------------------------------------------------------------------

def _group_by_start(ordered: Sequence[TimelineFact]) -> list[list[TimelineFact]]:
    """Consecutive runs of facts with one start instant; ``ordered`` is sorted by _order_key."""
    return [list(run) for _, run in itertools.groupby(ordered, key=sort_start)]


def _is_disputed_group(group: Sequence[TimelineFact]) -> bool:
    """Rule 4: one start, different values: nothing says which came first."""
    return len({f.value_key for f in group}) > 1


def _pair(a: TimelineFact, b: TimelineFact, rule: str) -> Pair:
    return (min(a.id, b.id), max(a.id, b.id), rule)


def _rule4_pairs(group: Sequence[TimelineFact]) -> set[Pair]:
    """Every pair of a group that disagrees on value+unit (agreeing facts do not dispute)."""
    return {_pair(a, b, RULE_4) for a, b in itertools.combinations(group, 2)
            if a.value_key != b.value_key}


def _rule6(groups: Sequence[Sequence[TimelineFact]]
           ) -> tuple[set[Pair], dict[int, str | None]]:
    """Rule 6 over its overlap: the disputed pairs, and how far each late fact reaches.

    A fact whose stated valid_to runs past the next start, and which was observed after
    the fact that starts there, is a newer observation saying its value still held: a
    conflict. It is disputed over the overlap, so its own end stands against the facts it
    outlives. Walking the following groups that start before its stated end, it disputes
    every fact of another value observed before it, and stops (its effective end is that
    group's start) at the first group holding a fact observed after it (newer information
    ends it, as rule 5 says) or one of its own value (the value goes on there anyway).
    Every member of a disputed group is checked, since each states its own valid_to; in an
    agreeing group only the last of its chain can outlive anything, since each earlier member
    is ended at this same start by the restatement after it (rule 5).
    """
    pairs: set[Pair] = set()
    reach: dict[int, str | None] = {}
    for index, group in enumerate(groups):
        for fact in group if _is_disputed_group(group) else group[-1:]:
            stated_end = start_of(fact.valid_to)
            if stated_end is None:
                continue
            observed = _aware(fact.claim_observed_at)
            found: set[Pair] = set()
            end: str | None = fact.valid_to
            for following in groups[index + 1:]:
                start = sort_start(following[0])
                if start >= stated_end:
                    break
                if any(_aware(f.claim_observed_at) > observed
                       or f.value_key == fact.value_key for f in following):
                    end = _start_text(following[0])
                    break
                found |= {_pair(fact, f, RULE_6) for f in following}
            if found:
                pairs |= found
                reach[fact.id] = end
    return pairs, reach


def _effective_end(fact: TimelineFact, successor: TimelineFact | None) -> str | None:
    """Rule 5: the earlier of the fact's own valid_to and its successor's start, as text.

    On a tie the fact's own valid_to is kept: it is what the fact itself said.
    """
    if successor is None:
        return fact.valid_to
    stated = start_of(fact.valid_to)
    if stated is not None and stated <= sort_start(successor):
        return fact.valid_to
    return _start_text(successor)


def _links(groups: Sequence[Sequence[TimelineFact]], index: int
           ) -> list[tuple[TimelineFact, TimelineFact | None, TimelineFact | None]]:
    """(fact, predecessor, successor) for each fact of ``groups[index]``.

    Between groups, a fact is superseded by the first fact of the next group (by observed_at,
    id) and supersedes the last fact of the previous group. Inside an agreeing group the facts
    form a chain by (observed_at, id); a disputed group has no inner order, so its members all
    link to the neighbouring groups.
    """
    group = groups[index]
    before = groups[index - 1][-1] if index > 0 else None
    after = groups[index + 1][0] if index + 1 < len(groups) else None
    if _is_disputed_group(group):
        return [(fact, before, after) for fact in group]
    last = len(group) - 1
    return [(fact, group[i - 1] if i > 0 else before, group[i + 1] if i < last else after)
            for i, fact in enumerate(group)]


def _resolve_single(live: Sequence[TimelineFact]) -> tuple[list[Resolved], set[Pair]]:
    """Rules 3-7 over live facts that form one timeline (a one key, or one value of a many)."""
    groups = _group_by_start(sorted(live, key=_order_key))
    disputes: set[Pair] = set()
    for group in groups:
        disputes |= _rule4_pairs(group)
    outliving, reach = _rule6(groups)
    disputes |= outliving
    disputed_ids = {fact_id for a, b, _ in disputes for fact_id in (a, b)}
    resolved: list[Resolved] = []
    for index in range(len(groups)):
        for fact, predecessor, successor in _links(groups, index):
            if fact.id in disputed_ids:
                status = DISPUTED
            else:
                status = CURRENT if successor is None else SUPERSEDED
            end = reach[fact.id] if fact.id in reach else _effective_end(fact, successor)
            resolved.append(Resolved(
                id=fact.id, status=status, effective_valid_to=end,
                superseded_by=successor.id if successor else None,
                supersedes=predecessor.id if predecessor else None))
    return resolved, disputes


def _retracted(fact: TimelineFact) -> Resolved:
    """Rule 1: a retracted fact takes no part; it keeps only what it said itself."""
    return Resolved(id=fact.id, status=RETRACTED, effective_valid_to=fact.valid_to,
                    superseded_by=None, supersedes=None)


def _check_one_key(facts: Sequence[TimelineFact]) -> None:
    """Refuse input that is not one key's facts: the answer would silently mix timelines."""
    keys = {(f.subject, f.attribute) for f in facts}
    if len(keys) > 1:
        raise InvalidInput(f"resolve_timeline takes one subject+attribute key, got {sorted(keys)}")
    ids = [f.id for f in facts]
    if len(ids) != len(set(ids)):
        raise InvalidInput("resolve_timeline was given the same fact id twice")


def resolve_timeline(facts: Sequence[TimelineFact], cardinality: str) -> Resolution:
    """Resolve one subject+attribute key by rules 1-7 of seed 002 §2 (and §3 for many).

    For a one attribute the live facts form one timeline. For a many attribute each distinct
    value+unit is its own timeline: a new value ends nothing, and disputes never arise between
    different values. The result lists every fact exactly once, sorted by id, and the disputed
    pairs sorted; it is the same for any order of the same facts.
    """
    check_cardinality(cardinality)
    _check_one_key(facts)
    resolved = [_retracted(f) for f in facts if f.retracted]
    live = _live(facts)
    if cardinality == MANY:
        by_value = sorted(live, key=lambda f: f.value_key)
        timelines = [list(run) for _, run in itertools.groupby(by_value, key=lambda f: f.value_key)]
    else:
        timelines = [live] if live else []
    disputes: set[Pair] = set()
    for timeline in timelines:
        decided, found = _resolve_single(timeline)
        resolved.extend(decided)
        disputes |= found
    return Resolution(facts=tuple(sorted(resolved, key=lambda r: r.id)),
                      disputes=tuple(sorted(disputes)))


def apply(facts: Sequence[TimelineFact], resolution: Resolution) -> list[TimelineFact]:
    """The facts, in the given order, with the resolution's decisions written onto them.

    A fact the resolution does not mention is returned unchanged, so resolving a subset and
    applying it to the whole key touches only that subset.
    """
    decided = resolution.by_id()
    out: list[TimelineFact] = []
    for fact in facts:
        r = decided.get(fact.id)
        out.append(fact if r is None else replace(
            fact, status=r.status, effective_valid_to=r.effective_valid_to,
            superseded_by=r.superseded_by, supersedes=r.supersedes))
    return out


def history_order(facts: Iterable[TimelineFact]) -> tuple[TimelineFact, ...]:
    """Every fact, retracted ones included: newest start first, then newest observed_at, id."""
    return tuple(sorted(facts, key=_order_key, reverse=True))
