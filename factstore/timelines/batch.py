"""One key's backfill worked out in memory, so the store writes every row once.

A backfill used to insert each fact ``active``, then resolve its key and UPDATE most of what
it had just inserted (nine facts in ten end superseded), one round trip per row.
:class:`KeyBatch` holds a key's facts, observations and open disputes as plain data and
changes them exactly as the store's ``resolve_key`` changes the stored rows (corroborate or
insert each fact, then resolve, settle the corroborations, promote an orphaned one, resolve
again), recording what it would have written. The store then writes the outcome: new rows
with their final status and every history row, and one UPDATE for what changed on stored
rows.

Ids come from the caller (``ids``), drawn in the order the row-at-a-time path would have
inserted them, since resolution breaks ties by id. Pure: no database here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from factstore.timelines.bulk import CorroborationIndex
from factstore.timelines.dates import start_of
from factstore.timelines.format_v1 import WrittenFact
from factstore.timelines.model import STATUS_TO_VERDICT, Seen, TimelineFact
from factstore.timelines.observations import Observation, settle
from factstore.timelines.resolution import apply, resolve_timeline
from factstore.timelines.values import value_key

#: ``ids(table)`` is the next id for a new row of ``facts``, ``evidence`` or ``conflicts``.
IdSource = Callable[[str], int]

#: A key settles in one pass per promoted observation; far more means a resolution loop.
MAX_SETTLE_PASSES = 10_000


@dataclass
class EvidenceRow:
    """An observation as the batch leaves it (a stored row, or one to insert)."""

    id: int
    fact_id: int
    role: str  # 'testimony' | 'corroboration'
    document_id: int
    value: str | None
    unit: str | None
    valid_from: str | None
    valid_to: str | None
    observed_at: datetime | None
    source: str | None
    quote: str  # as stored: '' when the write gave none
    confidence: float | None
    recorded_at: datetime | None = None
    #: (fact_id, role) as stored; None for a row this batch inserts
    stored: tuple[int, str] | None = None

    @property
    def changed(self) -> bool:
        return self.stored is not None and self.stored != (self.fact_id, self.role)

    def unique_key(self) -> tuple[object, ...]:
        # evidence_once_per_document (sql/005): an observation is kept once per document
        return (self.fact_id, self.document_id, self.observed_at, self.valid_from,
                self.valid_to, self.role)


@dataclass
class FactRow:
    """A fact as the batch leaves it: the timeline view plus the columns resolution sets."""

    fact: TimelineFact  # without corroborations (``KeyBatch.view`` adds them)
    t_superseded: datetime | None
    t_last_verified: datetime
    #: the resolution columns and confirmation times as stored; None for a new row
    stored: tuple[object, ...] | None = None
    #: for a new row: what it was written from, its document and the reason of its creation
    written: WrittenFact | None = None
    redactions: tuple[dict, ...] = ()
    document_id: int | None = None
    reason: str = ""

    def columns(self) -> tuple[object, ...]:
        f = self.fact
        return (f.status, f.effective_valid_to, f.superseded_by, f.supersedes,
                self.t_superseded, f.last_confirmed_at, self.t_last_verified)

    @property
    def changed(self) -> bool:
        return self.stored is not None and self.stored != self.columns()


@dataclass(frozen=True)
class HistoryRow:
    fact_id: int
    from_verdict: str | None
    to_verdict: str
    reason: str
    conflict_id: int | None = None


@dataclass
class ConflictRow:
    """A timeline dispute: open, or settled by this batch."""

    id: int
    fact_a: int
    fact_b: int
    rule: str
    status: str = "open"
    reasoning: str | None = None
    stored: bool = False  # a row already there (only its closing is written)

    @property
    def closed_now(self) -> bool:
        return self.status == "resolved"


@dataclass
class KeyBatch:
    """One key (scope, subject, attribute) under its lock, in memory."""

    key: tuple[str, str, str]
    cardinality: str
    at: datetime
    ids: IdSource
    facts: dict[int, FactRow] = field(default_factory=dict)
    evidence: dict[int, EvidenceRow] = field(default_factory=dict)
    conflicts: dict[tuple[int, int], ConflictRow] = field(default_factory=dict)
    history: list[HistoryRow] = field(default_factory=list)
    #: conflicts this batch closed (they leave ``conflicts`` when closed)
    closed: list[ConflictRow] = field(default_factory=list)
    #: evidence looked up by what it observed; rebuilt after settling moves rows
    _seen: dict[tuple[object, ...], EvidenceRow] | None = None

    @classmethod
    def load(cls, key: tuple[str, str, str], cardinality: str, at: datetime, ids: IdSource,
             facts: Iterable[FactRow], evidence: Iterable[EvidenceRow],
             conflicts: Iterable[ConflictRow]) -> KeyBatch:
        batch = cls(key, cardinality, at, ids)
        for row in facts:
            row.stored = row.columns()
            batch.facts[row.fact.id] = row
        for ev in evidence:
            ev.stored = (ev.fact_id, ev.role)
            batch.evidence[ev.id] = ev
        for conflict in conflicts:
            conflict.stored = True
            batch.conflicts[(conflict.fact_a, conflict.fact_b)] = conflict
        return batch

    # -- what a read of the key would return ------------------------------------------------

    def view(self) -> list[TimelineFact]:
        """The key as ``load_key`` reads it: by id, each fact with its corroborations."""
        kept: dict[int, list[EvidenceRow]] = {}
        for ev in self.evidence.values():
            if ev.role == "corroboration":
                kept.setdefault(ev.fact_id, []).append(ev)
        out = []
        for fact_id in sorted(self.facts):
            fact = self.facts[fact_id].fact
            rows = sorted(kept.get(fact_id, ()), key=_evidence_order)
            if not rows:
                out.append(fact)
                continue
            claim = (fact.value_key, start_of(fact.valid_from), start_of(fact.valid_to))
            repeats = [r.observed_at for r in rows
                       if (value_key(r.value or "", r.unit), start_of(r.valid_from),
                           start_of(r.valid_to)) == claim]
            out.append(dataclasses.replace(
                fact, corroborations=tuple(
                    Seen(r.observed_at, r.source, r.quote or None, r.value or "", r.unit, r.id,
                         r.valid_from, r.valid_to, r.confidence) for r in rows),
                restated_at=max(repeats) if repeats else None))  # type: ignore[type-var]
        return out

    def index(self) -> CorroborationIndex:
        return CorroborationIndex(self.view(), self.cardinality)

    def recorded(self, document_id: int, fact: WrittenFact, observed: datetime) -> int | None:
        """The fact already keeping this very observation from this document (a re-run)."""
        found = self._observations().get(
            ("any", document_id, fact.value, fact.unit, fact.valid_from, fact.valid_to,
             observed))
        return found.fact_id if found is not None else None

    def _observations(self) -> dict[tuple[object, ...], EvidenceRow]:
        """Each observation by what it says (the oldest row first) and by its unique key."""
        if self._seen is None:
            self._seen = {}
            for _, ev in sorted(self.evidence.items()):
                self._index(ev)
        return self._seen

    def _index(self, ev: EvidenceRow) -> None:
        assert self._seen is not None
        self._seen.setdefault(("any", ev.document_id, ev.value, ev.unit, ev.valid_from,
                               ev.valid_to, ev.observed_at), ev)
        self._seen[("unique", *ev.unique_key())] = ev

    # -- writes -----------------------------------------------------------------------------

    def corroborate(self, fact_id: int, fact: WrittenFact, observed: datetime,
                    document_id: int) -> None:
        """Rule 2: the repeat is kept as an observation on the fact it repeats."""
        row = self.facts[fact_id]
        # Confirmation moves forward, never back: a backfilled older repeat changes nothing.
        row.fact = dataclasses.replace(
            row.fact, last_confirmed_at=max(row.fact.last_confirmed_at, observed))
        row.t_last_verified = max(row.t_last_verified, self.at)
        self._observe(fact_id, fact, observed, document_id, "corroboration")

    def insert(self, fact: WrittenFact, observed: datetime, document_id: int,
               redactions: tuple[dict, ...], reason: str = "written: format v1") -> int:
        """A new fact (active until resolved) with its testimony."""
        new_id = self._new_fact(fact, observed, document_id, redactions, reason)
        self._observe(new_id, fact, observed, document_id, "testimony")
        return new_id

    def _new_fact(self, fact: WrittenFact, observed: datetime, document_id: int,
                  redactions: tuple[dict, ...], reason: str) -> int:
        new_id = self.ids("facts")
        scope, subject, attribute = self.key
        self.facts[new_id] = FactRow(
            TimelineFact(new_id, subject, attribute, fact.value, fact.unit, self.cardinality,
                         fact.valid_from, fact.valid_to, observed, observed, self.at,
                         source=fact.source, quote=fact.quote or None,
                         confidence=fact.confidence, scope=scope),
            t_superseded=None, t_last_verified=self.at, written=fact, redactions=redactions,
            document_id=document_id, reason=reason)
        self.history.append(HistoryRow(new_id, None, "active", reason))
        return new_id

    def _observe(self, fact_id: int, fact: WrittenFact, observed: datetime,
                 document_id: int, role: str) -> None:
        row = EvidenceRow(0, fact_id, role, document_id, fact.value, fact.unit,
                          fact.valid_from, fact.valid_to, observed, fact.source,
                          fact.quote or "", fact.confidence, recorded_at=self.at)
        seen = self._observations()
        if ("unique", *row.unique_key()) in seen:
            return  # ON CONFLICT DO NOTHING: this observation is kept already
        row.id = self.ids("evidence")
        self.evidence[row.id] = row
        self._index(row)

    # -- resolution -------------------------------------------------------------------------

    def resolve(self, reason: str) -> None:
        """``resolve_key``: resolve, then settle the corroborations until each is held."""
        facts = self.view()
        for _ in range(MAX_SETTLE_PASSES):
            resolved = self._resolve_once(facts, reason)
            observations = [_observation_of(fact, seen) for fact in resolved
                            for seen in fact.corroborations]
            if not observations:
                return
            moves, orphan = settle(resolved, observations, self.cardinality)
            if not moves and orphan is None:
                return
            for obs_id, fact_id in moves.items():
                self.evidence[obs_id].fact_id = fact_id
            self._seen = None  # rows moved: look them up afresh
            if moves:
                self._recount([f.id for f in resolved])
            if orphan is not None:
                new_id = self._promote(orphan)
                reason = (f"observation #{orphan.id} kept as fact #{new_id}: fact "
                          f"#{orphan.fact_id} no longer holds it")
            else:
                reason = "corroborations moved to the facts that hold them"
            facts = self.view()
        raise RuntimeError(f"timeline {self.key} did not settle after {MAX_SETTLE_PASSES} "
                           "passes")

    def _resolve_once(self, facts: list[TimelineFact], reason: str) -> list[TimelineFact]:
        resolution = resolve_timeline(facts, self.cardinality)
        conflict_of = self._sync_disputes(facts, resolution.disputes, reason)
        resolved = apply(facts, resolution)
        for old, new in zip(facts, resolved, strict=True):
            if (old.status, old.effective_valid_to, old.superseded_by, old.supersedes) == (
                    new.status, new.effective_valid_to, new.superseded_by, new.supersedes):
                continue
            row = self.facts[new.id]
            verdict = STATUS_TO_VERDICT[new.status]
            row.fact = dataclasses.replace(
                row.fact, status=new.status, effective_valid_to=new.effective_valid_to,
                superseded_by=new.superseded_by, supersedes=new.supersedes)
            row.t_superseded = (row.t_superseded or self.at) if verdict == "superseded" else None
            if old.status != new.status:
                self.history.append(HistoryRow(new.id, STATUS_TO_VERDICT[old.status], verdict,
                                               f"timeline re-resolved: {reason}",
                                               conflict_of.get(new.id)))
        return resolved

    def _sync_disputes(self, facts: list[TimelineFact],
                       disputes: Iterable[tuple[int, int, str]], reason: str) -> dict[int, int]:
        ids = {f.id for f in facts}
        open_pairs = {pair: c for pair, c in self.conflicts.items() if pair[0] in ids}
        wanted = {(a, b): rule for a, b, rule in disputes}
        conflict_of: dict[int, int] = {}
        for pair, rule in wanted.items():
            if pair not in open_pairs:
                open_pairs[pair] = self.conflicts[pair] = ConflictRow(
                    self.ids("conflicts"), pair[0], pair[1], rule)
            conflict_of.setdefault(pair[0], open_pairs[pair].id)
            conflict_of.setdefault(pair[1], open_pairs[pair].id)
        for pair, conflict in open_pairs.items():
            if pair not in wanted:
                conflict.status = "resolved"
                conflict.reasoning = f"settled by the timeline: {reason}"
                self.closed.append(self.conflicts.pop(pair))
        return conflict_of

    def _recount(self, fact_ids: Iterable[int]) -> None:
        """last_confirmed_at: the fact's own observation or its latest corroboration's."""
        latest: dict[int, datetime] = {}
        for ev in self.evidence.values():
            if ev.role == "corroboration" and ev.observed_at is not None:
                if ev.fact_id not in latest or ev.observed_at > latest[ev.fact_id]:
                    latest[ev.fact_id] = ev.observed_at
        for fact_id in fact_ids:
            row = self.facts[fact_id]
            own = row.fact.observed_at
            row.fact = dataclasses.replace(row.fact,
                                           last_confirmed_at=max(own, latest.get(fact_id, own)))

    def _promote(self, obs: Observation) -> int:
        """An orphaned observation becomes the fact it reports; its evidence row becomes
        that fact's testimony (moved, not copied)."""
        scope, subject, attribute = self.key
        written = WrittenFact(subject=subject, attribute=attribute, value=obs.value,
                              unit=obs.unit, valid_from=obs.valid_from, valid_to=obs.valid_to,
                              observed_at=obs.observed_at, source=obs.source, quote=obs.quote,
                              confidence=obs.confidence, cardinality=self.cardinality)
        ev = self.evidence[obs.id]
        new_id = self._new_fact(written, obs.observed_at, ev.document_id, (),
                                f"promoted: observation #{obs.id} no longer corroborates "
                                f"fact #{obs.fact_id}")
        ev.fact_id, ev.role = new_id, "testimony"
        self._recount([obs.fact_id])
        return new_id

    # -- the outcome ------------------------------------------------------------------------

    def new_facts(self) -> list[FactRow]:
        return [row for _, row in sorted(self.facts.items()) if row.stored is None]

    def changed_facts(self) -> list[FactRow]:
        return [row for _, row in sorted(self.facts.items()) if row.changed]

    def new_evidence(self) -> list[EvidenceRow]:
        return [ev for _, ev in sorted(self.evidence.items()) if ev.stored is None]

    def moved_evidence(self) -> list[EvidenceRow]:
        return [ev for _, ev in sorted(self.evidence.items()) if ev.changed]

    def new_conflicts(self) -> list[ConflictRow]:
        rows = [c for c in (*self.conflicts.values(), *self.closed) if not c.stored]
        return sorted(rows, key=lambda c: c.id)

    def closed_conflicts(self) -> list[ConflictRow]:
        return [c for c in self.closed if c.stored]


def _evidence_order(ev: EvidenceRow) -> tuple[object, ...]:
    # ORDER BY observed_at, source, quote (NULLs last, as Postgres sorts them)
    return (ev.observed_at, ev.source is None, ev.source or "", ev.quote)


def _observation_of(fact: TimelineFact, seen: Seen) -> Observation:
    assert seen.id is not None  # view() fills the evidence id in
    return Observation(seen.id, fact.id, seen.value, seen.unit, seen.valid_from,
                       seen.valid_to, seen.observed_at, seen.source, seen.quote,
                       seen.confidence)
