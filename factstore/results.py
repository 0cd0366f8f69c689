"""Frozen result types returned by Store methods. Plain data: safe to keep, compare, print."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from factstore.kinds import Kind, Verdict


@dataclass(frozen=True)
class Fact:
    """One typed, verdict-carrying atom with its evidence pointer and temporal frame."""

    id: int
    statement: str
    kind: Kind
    tags: tuple[str, ...]
    verdict: Verdict
    evidence_quote: str | None
    evidence_source_type: str
    evidence_source_ref: str | None
    evidence_captured_by: str | None
    document_id: int | None
    t_said: datetime | None
    t_captured: datetime
    t_last_verified: datetime
    t_superseded: datetime | None
    supersedes: int | None
    superseded_by: int | None
    scope: str | None = None
    status_detail: str | None = None
    trigger_predicate: str | None = None
    risk_weight: str | None = None
    earned_by: str | None = None
    subject: str | None = None
    expected_lifetime: timedelta | None = None
    meta: Mapping[str, object] = field(default_factory=dict)
    #: distinct document lineages with current supporting testimony (repetition is not corroboration)
    support_count: int = 1
    #: what the fact is about, folded; the density check compares same-subject facts first
    subject_key: str | None = None
    #: the extractor (name and version, e.g. 'rules/v1') that wrote it; None for imported
    #: and timeline facts and facts older than migration 011
    extracted_by: str | None = None
    #: the assertion's verb phrase and what it is about beyond the subject (migration 014)
    predicate: str | None = None
    object: str | None = None
    #: who asserted it: the chat turn's speaker; None for prose (captured_by is the scribe)
    asserter: str | None = None
    #: the quote is negated, as the extractor's parse read it; None when it did not say
    negated: bool | None = None
    #: it had supporting testimony and none of it counts any more (a re-extraction did not
    #: derive it again, or its living source's new version no longer says it): served with
    #: a caveat, never silently dropped
    support_withdrawn: bool = False
    #: the entity the fact is about (its subject, resolved in the registry), when it names one
    subject_entity: str | None = None
    #: an EVENT's time, distinct from when it was extracted, and where that time came from
    #: ('text': the quote names it; 'said'; 'captured')
    event_at: datetime | None = None
    event_at_source: str | None = None
    #: how sure the source or the extractor was, when it said (timeline facts carry one)
    confidence: float | None = None
    #: a timeline fact's attribute (its subject is ``subject``); None for every other fact
    attribute: str | None = None

    grain = "fact"


@dataclass(frozen=True)
class DocumentRecord:
    """Where a capture landed in the documents layer."""

    id: int
    lineage: str
    version: int
    content_hash: str
    #: True when this exact capture was already stored for this lineage (a re-run)
    duplicate: bool
    #: 'facts' (it also yielded facts), 'documents-only' (nothing typeable), 'index-page', or
    #: 'unextracted' (landed by land_documents, waiting for extract_documents)
    routed: str


@dataclass(frozen=True)
class Side:
    """One side of a head-to-head."""

    fact_id: int
    statement: str
    kind: Kind
    quote: str
    captured_at: datetime


@dataclass(frozen=True)
class Interrupt:
    """A conflict raised while context is warm: both sides and the exact call that closes it."""

    conflict_id: int
    lane: str
    similarity: float | None
    new: Side
    existing: Side
    #: the exact calls that close it, one per possible winner (existing first, then new,
    #: then the other members of its contradiction group): resolution closes the group
    resolve_calls: tuple[str, ...]
    both_stand_call: str
    differences: tuple[str, ...] = ()
    #: the contradiction group the conflict belongs to, and every member of it
    group_id: int | None = None
    group_members: tuple[int, ...] = ()


@dataclass(frozen=True)
class FactOutcome:
    """What the write path did with one extracted fact."""

    #: written | contested | superseded-prior | ground-truth-won | ground-truth-lost |
    #: older-reading | recaptured | unchanged | parked
    outcome: str
    fact: Fact
    #: rule-exception | lane-1 | lane-2 | revision | lane-3 | None when no conflict candidate
    lane: str | None = None
    related_fact_id: int | None = None
    conflict_id: int | None = None
    similarity: float | None = None
    note: str | None = None
    #: where the density check looked: 'subject' (same-subject facts first) or 'kind' (the
    #: fact has no subject key, so the kind-wide fallback); None when it never ran
    scope: str | None = None
    #: further facts the same new fact superseded (an explicit supersession or a revision
    #: replaces every contradicting candidate, not only the nearest)
    also_superseded: tuple[int, ...] = ()


@dataclass(frozen=True)
class DroppedFact:
    """An extracted fact the write path refused, and why (nothing is dropped silently)."""

    statement: str
    kind: str
    quote: str
    stage: str
    reason: str


@dataclass(frozen=True)
class CandidateRoot:
    """An entity-shaped topic no tag covers: waits for a person to approve it as a root."""

    id: int
    topic: str
    proposed_tag: str
    status: str
    seen_count: int
    description: str | None = None
    origin: str = "write-path"


@dataclass(frozen=True)
class RememberResult:
    """The whole account of one capture's trip through the write path."""

    document: DocumentRecord
    outcomes: tuple[FactOutcome, ...]
    interrupts: tuple[Interrupt, ...]
    candidate_roots: tuple[CandidateRoot, ...]
    dropped: tuple[DroppedFact, ...]
    #: why the capture went to the documents layer only (e.g. 'index-page'), else None
    gated: str | None = None
    #: the timeline facts the compiler wrote or found again: (fact id, 'created' |
    #: 'corroborated' | 'unchanged')
    timeline: tuple[tuple[int, str], ...] = ()
    #: the statements the compiler read and refused, each "reason: quote"
    compile_refusals: tuple[str, ...] = ()

    @property
    def facts(self) -> tuple[Fact, ...]:
        return tuple(o.fact for o in self.outcomes)


@dataclass(frozen=True)
class Label:
    """An honest serving label: what the reader may take this item to mean."""

    code: str
    text: str
    present_tense: bool


@dataclass(frozen=True)
class DocumentHit:
    """A raw capture recall serves: on its own, or as the source a served fact was read from."""

    id: int
    content: str
    source_type: str
    source_ref: str | None
    lineage: str
    captured_at: datetime
    #: when it was said, when the capture said (a chat session's date)
    said_at: datetime | None = None

    grain = "document"


@dataclass(frozen=True)
class RecallItem:
    """One served item with its label: a fact (with the document it was read from, when
    recall found that document too or the fact has one), or a document on its own."""

    label: Label
    #: cosine of the item's text to the question (the fact's, else the document's)
    similarity: float
    fact: Fact | None = None
    #: a document item's capture; for a fact, its source document, served with it
    document: DocumentHit | None = None
    #: ids of the open-conflict partners served alongside a contested fact
    partner_ids: tuple[int, ...] = ()
    #: 'hit' (one per slot, ranked by fused score), 'same-source' (another fact read from
    #: the hit's document), 'contested-partner' (served because its partner was) or
    #: 'neighbour' (about an entity related to one the question names; recall_neighbours)
    served_as: str = "hit"
    #: a contested fact's contradiction group
    group_id: int | None = None
    #: the member of its group the Fact contract's read prefers (higher confidence, then
    #: more recent); every member is still served, labeled contested
    preferred: bool = False
    #: which retrievers found its slot ('fact-vector', 'fact-text', 'document-vector',
    #: 'document-text') and which preferences lifted it ('named', 'timed')
    matched_by: tuple[str, ...] = ()
    #: the slot's fused score (reciprocal rank fusion plus preferences)
    score: float | None = None

    @property
    def grain(self) -> str:
        """'fact' or 'document': what this item is."""
        return "fact" if self.fact is not None else "document"

    @property
    def text(self) -> str:
        if self.fact is not None:
            return self.fact.statement
        assert self.document is not None
        return self.document.content


@dataclass(frozen=True)
class RecallResult:
    """Labeled recall; ``layer`` names who answered: fact, fact+document (facts and documents
    with no fact of theirs both served), fact-weak, document, or none."""

    query: str
    layer: str
    items: tuple[RecallItem, ...]
    best_fact_similarity: float | None
    #: the lines of the timelines the query is about, read as of the time it names
    timelines: tuple[str, ...] = ()
    #: the same timelines as TimelineKeys (factstore.timelines.model), first in what recall
    #: serves: each key's current value(s) at that time, and its history ("was ... until")
    answers: tuple[Any, ...] = ()
    #: contradiction groups with more co-members than were served inline: each names the
    #: rest and the call that returns them (a contested side is never served alone)
    continuations: tuple[Any, ...] = ()

    def _repr_html_(self) -> str:
        from factstore.html import recall_html

        return recall_html(self)


@dataclass(frozen=True)
class Conflict:
    """A contested pair and, once closed, its resolution."""

    id: int
    fact_a: Fact
    fact_b: Fact
    status: str
    winner: int | None
    reasoning: str | None
    lane: str
    similarity: float | None
    created_at: datetime
    resolved_at: datetime | None
    #: None while open; head-to-head | both-stand | explicit-supersession | ground-truth |
    #: revision | partner-superseded | partner-withdrawn | both-superseded | timeline
    resolution: str | None = None
    differences: tuple[str, ...] = ()
    #: the newer fact whose supersession closed it (partner-superseded, both-superseded)
    settled_by: int | None = None
    #: its contradiction group: every conflict among facts that disagree together
    group_id: int | None = None

    def _repr_html_(self) -> str:
        from factstore.html import conflict_html

        return conflict_html(self)


class ConflictList(list[Conflict]):
    """A list of conflicts (``open_conflicts()``, ``conflicts()``): a plain list, which a
    notebook shows as one head-to-head table with each open pair's resolve calls."""

    def _repr_html_(self) -> str:
        from factstore.html import conflicts_html

        return conflicts_html(self)


@dataclass(frozen=True)
class TagResolution:
    """How one free-text topic resolved against the registry."""

    topic: str
    tag: str | None
    #: alias | exact | leaf-name | minted | unresolved
    via: str
    #: True when the unresolved topic is entity-shaped and surfaced as a candidate root
    candidate_root: bool = False


@dataclass(frozen=True)
class TagInfo:
    tag: str
    parent: str | None
    description: str | None
    default_lifetime: timedelta | None
    aliases: tuple[str, ...]
    created_at: datetime


@dataclass(frozen=True)
class RegistryQueryResult:
    topic: str
    resolution: TagResolution
    matches: tuple[TagInfo, ...]


@dataclass(frozen=True)
class LeafResult:
    tag: TagInfo
    created: bool


@dataclass(frozen=True)
class QuestionEvidence:
    note: str
    recorded_at: datetime
    recorded_by: str | None


@dataclass(frozen=True)
class OpenQuestion:
    """An entry of the store's own triage queue of gaps (seed 000 §7)."""

    id: int
    title: str
    body: str
    risk: str
    cost: str
    status: str
    #: what the queue's discipline says to do with it, computed from risk and cost
    recommendation: str
    evidence: tuple[QuestionEvidence, ...]
    created_at: datetime
    updated_at: datetime

    def _repr_html_(self) -> str:
        from factstore.html import question_html

        return question_html(self)


class QuestionQueue(list[OpenQuestion]):
    """The open-questions queue (``open_questions()``): a plain list, which a notebook shows
    as one table in the queue's risk/cost order, with each entry's evidence count."""

    def _repr_html_(self) -> str:
        from factstore.html import queue_html

        return queue_html(self)


@dataclass(frozen=True)
class Description:
    """What describe() reports: the store's shape, counts and configuration."""

    database: str
    server_version: str
    pgvector_version: str
    schema_versions: tuple[int, ...]
    embedder: str
    embedding_dim: int
    extractor: str
    facts_by_kind_verdict: Mapping[str, Mapping[str, int]]
    documents: int
    open_conflicts: int
    tags: int
    pending_candidate_roots: int
    open_questions: Mapping[str, int]
    settings: Mapping[str, object]
    tools: tuple[str, ...]
    #: the server's memory and checkpoint settings as it runs them (see server_tuning.py)
    server_settings: Mapping[str, str] = field(default_factory=dict)
    #: testimony: every claim kept, and how many of them count now
    claims: int = 0
    current_claims: int = 0
    #: sources removed (Store.remove_source) and not restored
    removed_sources: int = 0
    #: timeline facts (format v1 writes and what the compiler read) by verdict; the kind
    #: counts above are the kind layer's own
    timeline_facts_by_verdict: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class SupersessionChain:
    """A fact's supersession chain (the Preference contract's history, seed 004): every
    version, oldest first, each superseded by the next; ``current`` is the one a current
    query returns (the newest, unless it was itself withdrawn or contested)."""

    facts: tuple[Fact, ...]
    current: int | None

    grain = "fact"


@dataclass(frozen=True)
class HistoryEntry:
    """One verdict transition of a fact."""

    fact_id: int
    from_verdict: str | None
    to_verdict: str
    reason: str
    conflict_id: int | None
    at: datetime
    #: the machine-readable reason, where one applies: 'retracted_source_removal',
    #: 'restored_source', 'support_withdrawn'
    reason_code: str | None = None
    #: the source change (lineage_events row) behind it
    lineage_event: int | None = None


@dataclass(frozen=True)
class DensityPair:
    """Two live same-kind facts above the density threshold that no conflict records."""

    fact_a: int
    fact_b: int
    kind: Kind
    similarity: float
    statement_a: str
    statement_b: str


@dataclass(frozen=True)
class DensityReport:
    """Store.density_report: the unscreened near-duplicate pairs, nearest first."""

    threshold: float
    #: live facts probed (every kind's)
    facts_checked: int
    pairs: tuple[DensityPair, ...]
    #: True when more pairs exist than the limit let through
    truncated: bool = False
