"""The write path's database stage: documents floor, tags, density check, triage, write.

Runs inside one transaction. The density check and the write are serialised per kind with a
transaction-scoped advisory lock, so two writers can never both miss each other's
near-duplicate.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from psycopg import sql
from psycopg.types.json import Jsonb

from factstore.asserted_time import asserted_interval
from factstore.claims import TRIAGE_OF_OUTCOME
from factstore.compiler.when import stated_time
from factstore.entities.resolution import Resolver, RuleResolver
from factstore.errors import SourceRemoved
from factstore.kinds import LIVE_VERDICTS, Kind, Verdict
from factstore.lineages import default_mode
from factstore.redaction import redact_json
from factstore.results import (
    CandidateRoot,
    DocumentRecord,
    FactOutcome,
    Interrupt,
    RememberResult,
    Side,
)
from factstore.settings import Settings
from factstore.store import claims as claim_sql
from factstore.store import compiling, entity_stage, groups, locks, transitions
from factstore.store import density as density_sql
from factstore.store import tags as tag_sql
from factstore.store.rows import fetch_fact
from factstore.store.sealed import open_row
from factstore.timelines.dates import start_of
from factstore.writepath.density import DensityFinding, HitReading, NearHit, assess
from factstore.writepath.prepare import PreparedCapture, PreparedFact
from factstore.writepath.triage import Candidate, TriageDecision, triage

#: What of a capture its document embedding reads: past any model's token window (MiniLM
#: reads 256 word pieces, ~1,500 characters of prose).
DOC_EMBED_CHARS = 16_000

@dataclass(frozen=True)
class Capture:
    text: str
    source_type: str
    source_ref: str | None
    said_at: datetime | None
    captured_by: str | None
    captured_at: datetime
    #: the extractor's name: which model wrote the facts, when the caller names no writer
    scribe: str | None = None
    #: the kinds of secret removed from the capture before anything read it
    redacted: tuple[str, ...] = ()
    #: when its source said it, for the compiler: said, else captured; None when the
    #: capture has no time of its own (a batch row with neither)
    compile_time: datetime | None = None

    @property
    def observed(self) -> datetime:
        """When the capture's source observed what it says: said, else captured."""
        return self.said_at or self.captured_at


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def lineage_of(source_type: str, source_ref: str | None, digest: str) -> str:
    """Versions of one source share a lineage; an unnamed capture is its own lineage."""
    return f"{source_type}:{source_ref}" if source_ref else f"{source_type}:sha256:{digest[:16]}"


def write_capture(cur: Any, capture: Capture, prepared: PreparedCapture,
                  doc_vector: np.ndarray, fact_vectors: np.ndarray, settings: Settings,
                  path_exists: Callable[[str], bool],
                  resolver: Resolver | None = None, owner: str | None = None
                  ) -> RememberResult:
    at = capture.captured_at
    routed = ("index-page" if prepared.gate.is_index_page
              else "facts" if prepared.facts else "documents-only")
    # The compiler's timeline keys come first in the lock order (store/locks.py).
    compile_plan = compiling.plan(cur, prepared.compilation, observed=capture.compile_time,
                                  owner=owner or "person/unknown", source=capture.source_ref)
    stated_kinds = compiling.lock(cur, compile_plan)
    document, mode = _land_document(cur, capture, routed, doc_vector, prepared)
    newly_read = document.routed == "unextracted" or not document.duplicate
    if document.routed == "unextracted" or (document.routed == "documents-only"
                                             and routed == "facts"):
        # landed by land_documents, or read again by an extractor that finds facts in it
        cur.execute("UPDATE documents SET routed = %s WHERE id = %s", (routed, document.id))
        document = dataclasses.replace(document, routed=routed)
    claims = claim_sql.ClaimWriter(cur, document, capture.source_ref, capture.scribe,
                                   capture.observed, at)
    if prepared.dropped:
        claims.dropped(prepared.dropped)
    if capture.scribe is not None:
        cur.execute("INSERT INTO document_extractions (document_id, extractor) VALUES (%s, %s) "
                    "ON CONFLICT DO NOTHING", (document.id, capture.scribe))
    outcomes: list[FactOutcome] = []
    interrupts: list[Interrupt] = []
    roots: dict[str, CandidateRoot] = {}
    written: list[tuple] = []
    if prepared.facts or stated_kinds:
        _lock_kinds(cur, {f.kind for f in prepared.facts} | {Kind(k) for k in stated_kinds})
    if prepared.facts:
        density_sql.tune_knn(cur, settings)
        registry = tag_sql.snapshot(cur)
    for fact, vector in zip(prepared.facts, fact_vectors, strict=True):
        resolutions = tag_sql.translate(cur, fact.topics, registry, at)
        registry = tag_sql.snapshot(cur) if any(r.via == "minted" for r in resolutions) else registry
        tags = list(dict.fromkeys(r.tag for r in resolutions if r.tag))
        meta = dict(fact.meta)
        unresolved = [r.topic for r in resolutions if r.tag is None]
        if unresolved:
            meta["unresolved_topics"] = unresolved
        outcome, interrupt = _write_one(cur, fact, vector, tags, meta, capture, document,
                                        settings, path_exists, claims)
        claims.absorbed(fact, outcome.fact.id)
        outcomes.append(outcome)
        written.append((fact, outcome, claims.claim_of.get(id(fact)), vector))
        if interrupt:
            interrupts.append(interrupt)
        for r in resolutions:
            if r.candidate_root:
                root = tag_sql.note_candidate_root(cur, r.topic, outcome.fact.id, at)
                roots[root.proposed_tag] = root
    entity_stage.resolve_capture(cur, document.id, written, resolver if resolver is not None else RuleResolver(),
                                 settings, at)
    compiled = compiling.write(cur, compile_plan, text=capture.text, document_id=document.id,
                               duplicate=document.duplicate,
                               stated=[(o.fact.id, f.quote) for f, o, _, _ in written], at=at)
    _settle_testimony(cur, document, capture, at, reread=document.duplicate and not newly_read,
                      new_living_version=newly_read and mode == "living")
    return RememberResult(document, tuple(outcomes), tuple(interrupts), tuple(roots.values()),
                          prepared.dropped, gated=prepared.gate.reason,
                          timeline=compiled.written, compile_refusals=tuple(
                              f"{r.reason}: {r.quote}" for r in compiled.refused))


def _settle_testimony(cur: Any, document: DocumentRecord, capture: Capture, at: datetime, *,
                      reread: bool, new_living_version: bool) -> None:
    """After a document's claims are stored: a re-read by another extractor generation
    supersedes the older generations' claims of it; a new version of a living lineage
    supersedes the older versions' claims. A fact left with no current support keeps its
    verdict and is served with a caveat (its history says why)."""
    if reread:
        touched = claim_sql.supersede_generations(cur, document.id, capture.scribe, at)
        claim_sql.note_withdrawn(cur, touched, at,
                                 f"re-extraction of document #{document.id} by "
                                 f"{capture.scribe or 'an unnamed extractor'} did not derive "
                                 "it again")
    if new_living_version and document.version > 1:
        touched = claim_sql.supersede_versions(cur, document.lineage, at)
        claim_sql.note_withdrawn(cur, touched, at,
                                 f"the living source {document.lineage} no longer says it "
                                 f"(version {document.version})")


def _land_document(cur: Any, capture: Capture, routed: str, vector: np.ndarray,
                   prepared: PreparedCapture | None) -> tuple[DocumentRecord, str]:
    """The capture's document: the one already stored for its lineage and content, else a
    new version of its lineage, routed ``routed``; and the lineage's mode."""
    digest = content_hash(capture.text)
    lineage = lineage_of(capture.source_type, capture.source_ref, digest)
    # Serialise versioning of one lineage across writers (and wait out a bulk import that
    # holds every lineage at once: store/locks.py).
    locks.lock_lineages(cur, [lineage])
    # the stored document, if any, and the lineage's state, in one round trip
    cur.execute("SELECT d.id, d.version, d.routed, l.mode, l.removed_at, l.removed_reason "
                "FROM (SELECT %(l)s AS lineage, current_setting('factstore.write_scope') AS access_scope) k "
                "LEFT JOIN documents d ON d.access_scope = k.access_scope AND d.lineage = k.lineage AND "
                "d.content_hash = %(h)s LEFT JOIN lineages l ON l.access_scope = k.access_scope AND "
                "l.lineage = k.lineage", {"l": lineage, "h": digest})
    row = cur.fetchone()
    mode = row["mode"] or default_mode(capture.source_type)
    if row["id"] is not None:
        return DocumentRecord(row["id"], lineage, row["version"], digest, True,
                              row["routed"]), mode
    if row["removed_at"] is not None:
        raise SourceRemoved(
            f"source {lineage} was removed on {row['removed_at']:%Y-%m-%d %H:%M} "
            f"({row['removed_reason']}); restore it with restore_source({lineage!r}, "
            "reason=...) before capturing a new version of it. Nothing was written")
    meta: dict[str, object] = {}
    if capture.redacted:
        meta["redactions"] = list(capture.redacted)
    if prepared is not None and prepared.gate.is_index_page:
        meta["gate"] = {"links": prepared.gate.links, "link_share": prepared.gate.link_share}
    if prepared is not None and prepared.dropped:
        meta["dropped_facts"] = len(prepared.dropped)
    cur.execute(
        "INSERT INTO documents (content, content_hash, source_type, source_ref, lineage, version, "
        "said_at, captured_by, captured_at, routed, embedding, meta) VALUES (%s, %s, %s, %s, %s, "
        "(SELECT COALESCE(max(version), 0) + 1 FROM documents WHERE lineage = %s AND access_scope = "
        "current_setting('factstore.write_scope')), %s, %s, %s, "
        "%s, %s, %s) RETURNING id, version",
        (capture.text, digest, capture.source_type, capture.source_ref, lineage, lineage,
         capture.said_at, capture.captured_by, capture.captured_at, routed, vector,
         _safe_meta(meta)))
    row = cur.fetchone()
    return DocumentRecord(row["id"], lineage, row["version"], digest, False, routed), mode


def land_unextracted(cur: Any, capture: Capture, vector: np.ndarray) -> DocumentRecord:
    """The document alone, routed 'unextracted' (or the one already stored for this lineage
    and content, whatever it was routed)."""
    return _land_document(cur, capture, "unextracted", vector, None)[0]


def unextracted_documents(cur: Any, limit: int, regenerate_for: str | None = None
                          ) -> list[dict[str, Any]]:
    """The oldest documents waiting for extraction, as their captures' fields; with
    ``regenerate_for``, also every document that extractor has not read (index pages
    excepted: the gate keeps them out of the fact layer whoever reads them)."""
    where = "routed = 'unextracted'"
    params: tuple[object, ...] = (limit,)
    if regenerate_for is not None:
        where = ("routed <> 'index-page' AND NOT EXISTS (SELECT 1 FROM document_extractions x "
                 "WHERE x.document_id = documents.id AND x.extractor = %s)")
        params = (regenerate_for, limit)
    cur.execute("SELECT id, content, source_type, source_ref, said_at, captured_by, captured_at, "
                f"access_scope, sealed_version FROM documents WHERE {where} ORDER BY id LIMIT %s",
                params)
    return [open_row("documents", r) for r in cur.fetchall()]


def _lock_kinds(cur: Any, kinds: set[Kind]) -> None:
    # Sorted, so two writers needing the same kinds always lock in the same order.
    for kind in sorted(kinds):
        cur.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                    ("density:" + kind.value,))


def _write_one(cur: Any, fact: PreparedFact, vector: np.ndarray, tags: list[str],
               meta: dict[str, object], capture: Capture, document: DocumentRecord,
               settings: Settings, path_exists: Callable[[str], bool],
               claims: claim_sql.ClaimWriter) -> tuple[FactOutcome, Interrupt | None]:
    at = capture.captured_at
    rerun = _rerun(cur, fact, document, capture)
    if rerun is not None:
        # The same document already yielded this fact. Another extractor generation reading
        # it again asserts it anew (its own claim, same lineage: no added support).
        claims.record(fact, "restatement", "derived again from a document that already "
                      "yielded this fact", rerun, link="new")
        return FactOutcome("unchanged", fetch_fact(cur, rerun), related_fact_id=rerun,
                           note="this capture already yielded the fact (a re-run)",
                           scope=_scope(fact)), None
    if fact.parked_reason is not None:
        new_id, _ = _insert(cur, fact, vector, tags,
                            {**meta, "polarity_guard": fact.parked_reason}, capture, document,
                            Verdict.PARKED, claims=claims, reason=fact.parked_reason)
        transitions.record(cur, new_id, None, "parked", fact.parked_reason, at)
        return FactOutcome("parked", fetch_fact(cur, new_id), note=fact.parked_reason,
                           scope=_scope(fact)), None
    restated = _restatement(cur, fact)
    if restated is not None:
        return _recapture(cur, restated, fact, tags, capture, claims,
                          scope=_scope(fact)), None
    hits = density_sql.near_hits(cur, fact, vector, tags, settings)
    finding = _assess(fact, hits, settings, exhaustive=False)
    scope = finding.scope
    skipped = _skipped_note(finding)
    if finding.restatement is not None:
        same = finding.restatement
        # Nothing differs but the wording: new testimony for the existing fact.
        return _recapture(cur, same.hit.id, fact, tags, capture, claims, scope=scope,
                          similarity=same.hit.similarity,
                          note=f"near-hit #{same.hit.id} ({same.hit.similarity:.3f}) with no "
                               f"detected difference: new testimony{skipped}"), None
    if not finding.candidates:
        related = finding.complementary
        reason = (f"written: near-hit #{related.hit.id} differs only in "
                  f"{', '.join(related.differences)}" if related
                  else "written: no conflict candidate") + skipped
        new_id, _ = _insert(cur, fact, vector, tags, meta, capture, document, Verdict.ACTIVE,
                            claims=claims, reason=reason)
        transitions.record(cur, new_id, None, "active", reason, at)
        if related is None:
            return FactOutcome("written", fetch_fact(cur, new_id), note=skipped.lstrip("; ")
                               or None, scope=scope), None
        return FactOutcome("written", fetch_fact(cur, new_id), related_fact_id=related.hit.id,
                           similarity=related.hit.similarity,
                           note=f"not a conflict ({'; '.join(related.differences)}){skipped}",
                           scope=scope), None
    top = finding.candidates[0]
    decision = triage(Candidate(fact.kind, fact.statement, fact.quote),
                      Candidate(top.hit.kind, top.hit.statement, top.hit.quote),
                      explicit_supersession=fact.supersedes, path_exists=path_exists,
                      same_subject=top.same_subject, new_observed=capture.observed,
                      existing_observed=top.hit.observed)
    if decision.winner is None or (decision.winner == "new"
                                   and decision.lane in ("lane-1", "revision")):
        # It contests (or replaces) every contradicting candidate, so read past the first.
        finding = _assess(fact, hits, settings, exhaustive=True, prior=finding)
    write = _Write(cur, fact, vector, tags, meta, capture, document, settings, finding,
                   decision, skipped, claims)
    if decision.winner is None:  # RULE exception or lane 3: contested, one group, interrupt
        return write.contested()
    if decision.winner == "new":
        return write.replaces(), None
    return write.loses(), None


@dataclass
class _Write:
    """Writing a new fact against its nearest conflict candidate, by the triage decision."""

    cur: Any
    fact: PreparedFact
    vector: np.ndarray
    tags: list[str]
    meta: dict[str, object]
    capture: Capture
    document: DocumentRecord
    settings: Settings
    finding: DensityFinding
    decision: TriageDecision
    skipped: str
    claims: claim_sql.ClaimWriter

    @property
    def top(self) -> HitReading:
        return self.finding.candidates[0]

    @property
    def reason(self) -> str:
        return f"{self.decision.lane}: {self.decision.reason}"

    @property
    def resolution(self) -> str:
        return {"lane-1": "explicit-supersession", "lane-2": "ground-truth",
                "revision": "revision"}[self.decision.lane]

    def _insert(self, verdict: Verdict, superseded_by: int | None = None) -> tuple[int, int]:
        return _insert(self.cur, self.fact, self.vector, self.tags, self.meta, self.capture,
                       self.document, verdict, superseded_by=superseded_by,
                       claims=self.claims, reason=self.reason)

    def _contradicts(self, claim_id: int, fact_ids: list[int]) -> None:
        """The bridge records what the new claim speaks against, beside what it supports."""
        self.claims.contradicts(fact_ids, claim_id, self.fact.quote)

    def _outcome(self, outcome: str, new_id: int, conflict_id: int | None, note: str,
                 also: tuple[int, ...] = ()) -> FactOutcome:
        return FactOutcome(outcome, fetch_fact(self.cur, new_id), self.decision.lane,
                           self.top.hit.id, conflict_id, self.top.hit.similarity,
                           note + self.skipped, scope=self.finding.scope, also_superseded=also)

    def contested(self) -> tuple[FactOutcome, Interrupt]:
        """Contested against every contradicting candidate, all in one contradiction group
        (joining the groups they were in), with an interrupt for the nearest."""
        cur, at, top, lane = self.cur, self.capture.captured_at, self.top, self.decision.lane
        rivals = list(self.finding.candidates)
        new_id, claim_id = self._insert(Verdict.CONTESTED)
        group_id, members = groups.join(cur, [r.hit.id for r in rivals])
        conflict_ids = groups.contest(cur, new_id, [(r.hit.id, r.hit.similarity, r.differences)
                                                    for r in rivals], lane, group_id, at)
        transitions.record(cur, new_id, None, "contested", self.reason, at, conflict_ids[0])
        self._contradicts(claim_id, [r.hit.id for r in rivals])
        members |= {new_id, *(r.hit.id for r in rivals)}
        interrupt = _interrupt(conflict_ids[0], lane, top.hit, self.fact, new_id,
                               top.differences, at, group_id, tuple(sorted(members)))
        also = ("" if len(rivals) == 1 else
                f"; also contested with {', '.join(f'#{r.hit.id}' for r in rivals[1:])}")
        return self._outcome("contested", new_id, conflict_ids[0],
                             self.decision.reason + also), interrupt

    def replaces(self) -> FactOutcome:
        """The new fact wins: it supersedes the candidate (and, for an explicit supersession
        or a revision, every other candidate it replaces), each with a resolved audit row."""
        cur, at = self.cur, self.capture.captured_at
        losers = [self.top] + _also_replaced(self.finding, self.decision.lane,
                                             self.capture.observed, self.settings)
        new_id, claim_id = self._insert(Verdict.ACTIVE)
        transitions.record(cur, new_id, None, "active", self.reason, at)
        first_conflict = None
        for index, loser in enumerate(losers):
            closed = _closed_conflict(cur, loser.hit.id, new_id, new_id, self.decision,
                                      self.resolution, loser.hit.similarity, at,
                                      loser.differences)
            first_conflict = first_conflict or closed
            transitions.supersede(cur, loser.hit.id, new_id, self.reason, at, closed,
                                  settings=self.settings,
                                  pending={r.hit.id for r in losers[index + 1:]})
        self._contradicts(claim_id, [r.hit.id for r in losers])
        also = tuple(r.hit.id for r in losers[1:])
        note = self.decision.reason + (f"; also superseded {', '.join(f'#{i}' for i in also)}"
                                       if also else "")
        outcome = "ground-truth-won" if self.decision.lane == "lane-2" else "superseded-prior"
        return self._outcome(outcome, new_id, first_conflict, note, also)

    def loses(self) -> FactOutcome:
        """The existing fact wins (ground truth, or a newer reading): the new one is written
        already superseded, and the winner links back to it."""
        cur, at, top = self.cur, self.capture.captured_at, self.top
        new_id, claim_id = self._insert(Verdict.SUPERSEDED, superseded_by=top.hit.id)
        conflict_id = _closed_conflict(cur, top.hit.id, new_id, top.hit.id, self.decision,
                                       self.resolution, top.hit.similarity, at,
                                       top.differences)
        cur.execute("UPDATE facts SET supersedes = COALESCE(supersedes, %s) WHERE id = %s",
                    (new_id, top.hit.id))
        transitions.record(cur, new_id, None, "superseded", self.reason, at, conflict_id)
        self._contradicts(claim_id, [top.hit.id])
        outcome = "ground-truth-lost" if self.decision.lane == "lane-2" else "older-reading"
        return self._outcome(outcome, new_id, conflict_id, self.decision.reason)


def _assess(fact: PreparedFact, hits: list[NearHit], settings: Settings, *,
            exhaustive: bool, prior: DensityFinding | None = None) -> DensityFinding:
    return assess(fact.statement, fact.subject_key, hits, kind=fact.kind,
                  mode=settings.difference_detector, threshold=settings.density_threshold,
                  floor=settings.contradiction_floor, subject_floor=settings.subject_floor,
                  exhaustive=exhaustive, prior=prior,
                  roles=(_text(fact.roles.get("predicate")), _text(fact.roles.get("object"))))


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _scope(fact: PreparedFact) -> str:
    return "subject" if fact.subject_key is not None else "kind"


def _also_replaced(finding: DensityFinding, lane: str, observed: datetime,
                   settings: Settings) -> list[HitReading]:
    """Other candidates the same new fact replaces: for an explicit supersession every
    contradicting candidate (so "3 replicas" cannot outlive "now 7"), for a revision every
    older reading of the same subject. With the detector off, only the nearest."""
    rest = list(finding.candidates[1:])
    if lane == "lane-1" and settings.difference_detector != "off":
        return rest
    if lane == "revision":
        return [r for r in rest if r.same_subject and r.hit.observed <= observed]
    return []


def _skipped_note(finding: DensityFinding) -> str:
    """Near-hits about other subjects are never conflicts; say which were passed over."""
    skipped = finding.skipped_other_subjects
    if not skipped:
        return ""
    shown = ", ".join(f"#{r.hit.id} ({r.hit.similarity:.3f})" for r in skipped[:3])
    more = f" and {len(skipped) - 3} more" if len(skipped) > 3 else ""
    return f"; near-hits about another subject passed over: {shown}{more}"


def _rerun(cur: Any, fact: PreparedFact, document: DocumentRecord, capture: Capture
           ) -> int | None:
    """The fact this very capture already yielded for this quote, whatever its verdict now:
    re-running a capture changes nothing.

    A capture is the same one when its document is (same lineage and content) and, for an
    unnamed capture (no ``source_ref``), its observation time is too: the same words said
    again later ("svc-7 is paused right now", after "healthy") are a new observation and go
    through the write path."""
    if not document.duplicate:
        return None
    same_time = "TRUE" if capture.source_ref else "(e.observed_at = %s OR e.observed_at IS NULL)"
    # Matched on the quote (the capture's own span), not the statement: a capture that was
    # testimony for a reworded fact is a re-run too.
    params: tuple[object, ...] = (document.id, fact.kind.value, fact.quote)
    if not capture.source_ref:
        params += (capture.observed,)
    cur.execute("SELECT f.id FROM evidence e JOIN facts f ON f.id = e.fact_id "
                "WHERE e.document_id = %s AND e.stance = 'supports' AND f.kind = %s AND "
                f"e.quote = %s AND {same_time} ORDER BY f.id LIMIT 1", params)
    row = cur.fetchone()
    return row["id"] if row else None


def _restatement(cur: Any, fact: PreparedFact) -> int | None:
    live = [v.value for v in LIVE_VERDICTS]
    # Timeline facts are adjudicated by their own rules, never by restatement.
    cur.execute("SELECT id FROM facts WHERE kind = %s AND statement_norm = %s AND verdict = "
                "ANY(%s) AND attribute IS NULL ORDER BY id LIMIT 1",
                (fact.kind.value, fact.statement_norm, live))
    row = cur.fetchone()
    return row["id"] if row else None


def _recapture(cur: Any, fact_id: int, fact: PreparedFact, tags: list[str], capture: Capture,
               claims: claim_sql.ClaimWriter,
               note: str = "exact normalised restatement: evidence added, verified again",
               scope: str | None = None, similarity: float | None = None) -> FactOutcome:
    """A pure re-capture: new testimony for the same fact, verified again, no conflict."""
    _, _, linked = claims.record(fact, "restatement", note, fact_id)
    if not linked:
        # this very capture already testified: a re-run changes nothing
        return FactOutcome("unchanged", fetch_fact(cur, fact_id), related_fact_id=fact_id,
                           similarity=similarity,
                           note="this capture already supports the fact", scope=scope)
    # Verified moves forward, never back (a backfilled older capture does not rewind it).
    cur.execute("UPDATE facts SET t_last_verified = GREATEST(t_last_verified, %s), "
                "tags = ARRAY(SELECT DISTINCT unnest(tags || %s::text[])) WHERE id = %s",
                (capture.captured_at, tags, fact_id))
    return FactOutcome("recaptured", fetch_fact(cur, fact_id), related_fact_id=fact_id,
                       similarity=similarity, note=note, scope=scope)


def _insert(cur: Any, fact: PreparedFact, vector: np.ndarray, tags: list[str],
            meta: dict[str, object], capture: Capture, document: DocumentRecord,
            verdict: Verdict, superseded_by: int | None = None, *,
            claims: claim_sql.ClaimWriter, reason: str) -> tuple[int, int]:
    """The new fact, its claim (triaged by the verdict it is written with) and the evidence
    row between them; returns the fact's id and the claim's."""
    at = capture.captured_at
    columns = {
        "statement": fact.statement, "statement_norm": fact.statement_norm,
        "kind": fact.kind.value, "tags": tags, "verdict": verdict.value,
        "evidence_quote": fact.quote, "evidence_source_type": capture.source_type,
        "evidence_source_ref": capture.source_ref, "evidence_captured_by": capture.captured_by or capture.scribe,
        "document_id": document.id, "t_said": capture.said_at, "t_captured": at,
        "t_last_verified": at, "embedding": vector, "meta": _safe_meta(meta),
        "extracted_by": capture.scribe,
        "superseded_by": superseded_by, "subject_key": fact.subject_key,
        "subject_source": fact.subject_source,
        "t_superseded": at if superseded_by is not None else None,
        **fact.fields,
        **fact.roles,
        **_event_time(fact, capture),
    }
    query = sql.SQL("INSERT INTO facts ({}) VALUES ({}) RETURNING id").format(
        sql.SQL(", ").join(map(sql.Identifier, columns)),
        sql.SQL(", ").join(sql.Placeholder(c) for c in columns))
    cur.execute(query, columns)
    new_id = cur.fetchone()["id"]
    claim_id, _, _ = claims.record(fact, _TRIAGE_OF_VERDICT[verdict], reason, new_id)
    return new_id, claim_id


def _event_time(fact: PreparedFact, capture: Capture) -> dict[str, object]:
    """An EVENT's time (seed 004's event_at), apart from when it was extracted: the time its
    quote names ("on 2025-03-04", "yesterday", "last month" read against when it was said),
    else when it was said, else when it was captured."""
    if fact.kind is not Kind.EVENT:
        return {}
    # "yesterday", "last month", "in March": read against when it was said (seed 002 §4)
    stated = stated_time(fact.quote, capture.observed)
    if stated is not None and stated.role in ("at", "since"):
        return {"event_at": start_of(stated.date), "event_at_source": "text"}
    named = asserted_interval(fact.quote)
    if named is not None and named.valid_from is not None:
        return {"event_at": start_of(named.valid_from), "event_at_source": "text"}
    if capture.said_at is not None:
        return {"event_at": capture.said_at, "event_at_source": "said"}
    return {"event_at": capture.captured_at, "event_at_source": "captured"}


#: A new fact's claim is triaged by the verdict the fact is written with.
_TRIAGE_OF_VERDICT = {Verdict.ACTIVE: TRIAGE_OF_OUTCOME["written"],
                      Verdict.CONTESTED: TRIAGE_OF_OUTCOME["contested"],
                      Verdict.PARKED: TRIAGE_OF_OUTCOME["parked"],
                      Verdict.SUPERSEDED: TRIAGE_OF_OUTCOME["older-reading"]}


def _closed_conflict(cur: Any, existing: int, new: int, winner: int, decision: Any,
                     resolution: str, similarity: float, at: datetime,
                     found: tuple[str, ...] = ()) -> int:
    """Auto-resolved lanes still leave an audit row, born resolved."""
    cur.execute(
        "INSERT INTO conflicts (fact_a, fact_b, status, winner, reasoning, lane, resolution, "
        "similarity, differences, created_at, resolved_at) VALUES (%s, %s, 'resolved', %s, %s, "
        "%s, %s, %s, %s, %s, %s) RETURNING id",
        (existing, new, winner, decision.reason, decision.lane, resolution, similarity,
         list(found), at, at))
    return cur.fetchone()["id"]


def _interrupt(conflict_id: int, lane: str, top: NearHit, fact: PreparedFact, new_id: int,
               found: tuple[str, ...], at: datetime, group_id: int,
               members: tuple[int, ...]) -> Interrupt:
    return Interrupt(
        conflict_id=conflict_id, lane=lane, similarity=top.similarity,
        new=Side(new_id, fact.statement, fact.kind, fact.quote, at),
        existing=Side(top.id, top.statement, top.kind, top.quote, top.t_captured),
        resolve_calls=tuple(f'resolve_conflict({conflict_id}, winner_id={w}, reasoning="<why>")'
                            for w in (top.id, new_id,
                                      *(m for m in members if m not in (top.id, new_id)))),
        both_stand_call=f'resolve_both_stand({conflict_id}, reasoning="<why both are true>")',
        differences=found,
        group_id=group_id,
        group_members=members,
    )


def _safe_meta(meta: dict[str, object]) -> Jsonb:
    """Meta as stored: every string in it redacted once more, since it records what an
    extractor sent (a cleared field's value, a dropped fact) beside what the store made."""
    return Jsonb(redact_json(meta)[0])
