"""Removing and restoring a source lineage, and setting its mode (see factstore/lineages.py).

Removal makes the lineage's claims stop counting. A live fact whose sole current support
disappears is closed: verdict ``withdrawn`` with reason code ``retracted_source_removal``,
recorded in fact_history with the lineage event that caused it. A fact still supported by
another lineage stays, its count reduced. Restoration reverses exactly that: each fact the
removal closed (and nothing has changed since) returns to the verdict it had, and a conflict
the removal closed opens again when both its sides are live again.

Lock order (store/locks.py): the plain kinds of the facts involved come after the lineage's
own lock; the facts are read before locking and read again under the locks.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from factstore.errors import InvalidInput, SourceNotFound, SourceStateError, StoreBusy
from factstore.kinds import Kind, Verdict
from factstore.lineages import MODES, LineageInfo, SourceChange, SupportChange, default_mode
from factstore.store import claims as claim_sql
from factstore.store import density as density_sql
from factstore.store import entities as entity_sql
from factstore.store import groups, locks, scoping, transitions
from factstore.writepath.density import assess
from factstore.writepath.prepare import PreparedFact

REMOVAL = "retracted_source_removal"
RESTORATION = "restored_source"


def _check_lineage(cur: Any, lineage: str) -> int:
    cur.execute("SELECT access_scope, count(*) AS n FROM documents WHERE lineage = %s "
                "GROUP BY access_scope",
                (lineage,))
    rows = cur.fetchall()
    if len(rows) > 1:
        raise InvalidInput(f"lineage {lineage!r} is held in {len(rows)} scopes "
                           f"({', '.join(r['access_scope'] for r in rows)}); act on it through a "
                           "credential that reads one of them")
    documents = rows[0]["n"] if rows else 0
    if rows:  # its lineage row and events land beside its documents
        scoping.use_scope(cur, rows[0]["access_scope"])
    if not documents:
        raise SourceNotFound(f"no document has lineage {lineage!r}; list them with lineages() "
                             "(a lineage is '<source type>:<source_ref>', e.g. "
                             "'file:docs/runbook.md')")
    cur.execute("SELECT 1 FROM documents WHERE lineage = %s AND captured_by = 'format-v1' "
                "AND meta ? 'format' LIMIT 1", (lineage,))
    if cur.fetchone() is not None:
        raise InvalidInput(f"{lineage!r} is a format v1 request: its timeline observations are "
                           "retracted fact by fact with retract(fact_id), so each timeline "
                           "is resolved again by its own rules")
    return documents


def _supported(cur: Any, lineage: str) -> list[int]:
    """Every fact the lineage's documents testify for."""
    cur.execute("SELECT DISTINCT e.fact_id FROM evidence e JOIN documents d ON "
                "d.id = e.document_id WHERE d.lineage = %s AND e.stance = 'supports' "
                "ORDER BY e.fact_id", (lineage,))
    return [r["fact_id"] for r in cur.fetchall()]


def _lock(cur: Any, lineage: str) -> list[int]:
    """The lineage's lock, then the kinds of the facts it supports; returns those facts."""
    before = _supported(cur, lineage)
    locks.lock_lineages(cur, [lineage])
    kinds = _kinds(cur, before)
    locks.lock_kinds(cur, kinds)
    facts = _supported(cur, lineage)
    if not set(_kinds(cur, facts)) <= set(kinds):
        # a writer added testimony of another kind between the read and the lock
        raise StoreBusy(f"source {lineage} changed while this call took its locks; nothing "
                        "was written, retry it")
    return facts


def _kinds(cur: Any, fact_ids: list[int]) -> list[str]:
    cur.execute("SELECT DISTINCT kind FROM facts WHERE id = ANY(%s) AND attribute IS NULL",
                (fact_ids,))
    return sorted(r["kind"] for r in cur.fetchall())


def _event(cur: Any, lineage: str, event: str, reason: str, at: datetime,
           mode: str | None = None) -> int:
    cur.execute("INSERT INTO lineage_events (lineage, event, reason, mode, at) VALUES "
                "(%s, %s, %s, %s, %s) RETURNING id", (lineage, event, reason, mode, at))
    return cur.fetchone()["id"]


def _verdicts(cur: Any, fact_ids: list[int]) -> dict[int, str]:
    cur.execute("SELECT id, verdict FROM facts WHERE id = ANY(%s)", (fact_ids,))
    return {r["id"]: r["verdict"] for r in cur.fetchall()}


def remove(cur: Any, lineage: str, reason: str, at: datetime) -> SourceChange:
    """Remove a lineage: its claims stop counting; facts left with no support are closed."""
    documents = _check_lineage(cur, lineage)
    facts = _lock(cur, lineage)
    state = claim_sql.lineage_state(cur, lineage)
    if state["removed_at"] is not None:
        raise SourceStateError(f"source {lineage} is already removed (since "
                               f"{state['removed_at']:%Y-%m-%d %H:%M}: "
                               f"{state['removed_reason']}); nothing to do")
    before = claim_sql.live_support(cur, facts)
    cur.execute("INSERT INTO lineages (lineage, removed_at, removed_reason) VALUES (%s, %s, %s) "
                "ON CONFLICT (access_scope, lineage) DO UPDATE SET removed_at = excluded.removed_at, "
                "removed_reason = excluded.removed_reason", (lineage, at, reason))
    event = _event(cur, lineage, "removed", reason, at)
    after = claim_sql.live_support(cur, facts)
    verdicts = _verdicts(cur, facts)
    closed = [f for f in facts if after[f] == 0 and before[f] > 0
              and verdicts[f] in claim_sql.CLOSABLE]
    for fact_id in closed:
        transitions.set_verdict(cur, fact_id, Verdict.WITHDRAWN,
                                f"{REMOVAL}: its only current source, {lineage}, was removed "
                                f"({reason})", at, code=REMOVAL, lineage_event=event)
        transitions.close_conflicts_of(cur, fact_id, at, "withdrawn", except_conflict=None)
    cur.execute("UPDATE lineage_events SET fact_ids = %s WHERE id = %s", (closed, event))
    entity_sql.clear_for_withdrawal(cur, fact_ids=facts, lineage=lineage)
    return SourceChange(lineage, "removed", reason, at, event, closed=tuple(closed),
                        changed=_changes(cur, facts, before, after, closed),
                        documents=documents, claims=_claim_count(cur, lineage))


def restore(cur: Any, lineage: str, reason: str, at: datetime, settings: Any) -> SourceChange:
    """Restore a removed lineage: its claims count again; what its removal closed reopens."""
    documents = _check_lineage(cur, lineage)
    facts = _lock(cur, lineage)
    state = claim_sql.lineage_state(cur, lineage)
    if state["removed_at"] is None:
        raise SourceStateError(f"source {lineage} is not removed; nothing to restore")
    before = claim_sql.live_support(cur, facts)
    cur.execute("UPDATE lineages SET removed_at = NULL, removed_reason = NULL WHERE lineage = %s",
                (lineage,))
    event = _event(cur, lineage, "restored", reason, at)
    after = claim_sql.live_support(cur, facts)
    reopened, conflicts = _reopen(cur, lineage, facts, after, event, reason, at, settings)
    cur.execute("UPDATE lineage_events SET fact_ids = %s WHERE id = %s", (reopened, event))
    entity_sql.mark_stale_for(cur, fact_ids=facts, lineage=lineage)
    return SourceChange(lineage, "restored", reason, at, event, reopened=tuple(reopened),
                        changed=_changes(cur, facts, before, after, reopened),
                        documents=documents, claims=_claim_count(cur, lineage),
                        conflicts_reopened=tuple(conflicts))


def _reopen(cur: Any, lineage: str, facts: list[int], after: dict[int, int], event: int,
            reason: str, at: datetime, settings: Any) -> tuple[list[int], list[int]]:
    """Facts whose latest transition is this lineage's removal get their verdict back;
    conflicts that removal closed open again where both sides are live again."""
    cur.execute(
        "SELECT DISTINCT ON (h.fact_id) h.fact_id, h.from_verdict, h.reason_code, h.at, "
        "h.lineage_event, e.lineage FROM fact_history h LEFT JOIN lineage_events e ON "
        "e.id = h.lineage_event WHERE h.fact_id = ANY(%s) ORDER BY h.fact_id, h.id DESC",
        (facts,))
    latest = {r["fact_id"]: r for r in cur.fetchall()}
    reopened = [f for f in facts if after[f] > 0 and f in latest
                and latest[f]["reason_code"] == REMOVAL and latest[f]["lineage"] == lineage]
    for fact_id in reopened:
        was = Verdict(latest[fact_id]["from_verdict"])
        # contested returns once its conflicts are open again (below); parked stays parked
        back = Verdict.ACTIVE if was is Verdict.CONTESTED else was
        transitions.set_verdict(cur, fact_id, back,
                                f"{RESTORATION}: source {lineage} restored ({reason})", at,
                                code=RESTORATION, lineage_event=event)
    conflicts: list[int] = []
    for fact_id in reopened:
        cur.execute(
            "SELECT id, fact_a, fact_b, lane, similarity, differences FROM conflicts WHERE "
            "status = 'resolved' AND resolution = 'partner-withdrawn' AND resolved_at = %s "
            "AND (fact_a = %s OR fact_b = %s) ORDER BY id",
            (latest[fact_id]["at"], fact_id, fact_id))
        for row in cur.fetchall():
            partner = row["fact_b"] if row["fact_a"] == fact_id else row["fact_a"]
            if _verdicts(cur, [partner])[partner] not in claim_sql.LIVE:
                continue  # the partner has been closed since: nothing to reopen
            conflicts.append(_reopen_conflict(cur, row, fact_id, partner, lineage, at))
    for fact_id in reopened:
        conflicts += _recheck(cur, fact_id, lineage, at, settings)
    return reopened, conflicts


def _recheck(cur: Any, fact_id: int, lineage: str, at: datetime, settings: Any) -> list[int]:
    """A restored fact faces the density check again: what was written while it was closed
    may contradict it, and two live contradicting facts are never left unrecorded."""
    cur.execute("SELECT id, kind, statement, statement_norm, evidence_quote, subject_key, tags, "
                "verdict, embedding FROM facts WHERE id = %s AND attribute IS NULL "
                "AND embedding IS NOT NULL", (fact_id,))
    row = cur.fetchone()
    if row is None or row["verdict"] not in claim_sql.LIVE:
        return []
    kind = Kind(row["kind"])
    probe = PreparedFact(row["statement"], row["statement_norm"], kind, row["evidence_quote"],
                         (), False, {}, subject_key=row["subject_key"])
    hits = [h for h in density_sql.near_hits(cur, probe, row["embedding"], list(row["tags"]),
                                             settings) if h.id != fact_id]
    finding = assess(row["statement"], row["subject_key"], hits, kind=kind,
                     mode=settings.difference_detector, threshold=settings.density_threshold,
                     floor=settings.contradiction_floor, subject_floor=settings.subject_floor)
    opened = []
    rivals = [r for r in finding.candidates if not _open_between(cur, fact_id, r.hit.id)]
    if not rivals:
        return []
    group_id, _ = groups.join(cur, [fact_id, *(r.hit.id for r in rivals)])
    for rival in rivals:
        cur.execute("INSERT INTO conflicts (fact_a, fact_b, lane, similarity, differences, "
                    "created_at, group_id) VALUES (%s, %s, 'restored', %s, %s, %s, %s) "
                    "RETURNING id", (rival.hit.id, fact_id, rival.hit.similarity,
                                     list(rival.differences), at, group_id))
        conflict_id = cur.fetchone()["id"]
        opened.append(conflict_id)
        for side in (fact_id, rival.hit.id):
            transitions.set_verdict(cur, side, Verdict.CONTESTED,
                                    f"{RESTORATION}: #{fact_id} (source {lineage} restored) "
                                    f"contradicts #{rival.hit.id}", at, conflict_id)
    return opened


def _open_between(cur: Any, a: int, b: int) -> bool:
    cur.execute("SELECT 1 FROM conflicts WHERE status = 'open' AND least(fact_a, fact_b) = "
                "least(%(a)s, %(b)s) AND greatest(fact_a, fact_b) = greatest(%(a)s, %(b)s)",
                {"a": a, "b": b})
    return cur.fetchone() is not None


def _reopen_conflict(cur: Any, row: dict[str, Any], fact_id: int, partner: int, lineage: str,
                     at: datetime) -> int:
    cur.execute("SELECT id FROM conflicts WHERE status = 'open' AND least(fact_a, fact_b) = "
                "least(%(a)s, %(b)s) AND greatest(fact_a, fact_b) = greatest(%(a)s, %(b)s)",
                {"a": fact_id, "b": partner})
    already = cur.fetchone()
    if already is not None:
        return already["id"]
    group_id, _ = groups.join(cur, [fact_id, partner])
    cur.execute("INSERT INTO conflicts (fact_a, fact_b, lane, similarity, differences, "
                "created_at, group_id) VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id",
                (row["fact_a"], row["fact_b"], row["lane"], row["similarity"],
                 row["differences"], at, group_id))
    conflict_id = cur.fetchone()["id"]
    for side in (fact_id, partner):
        transitions.set_verdict(cur, side, Verdict.CONTESTED,
                                f"{RESTORATION}: conflict #{row['id']} opened again as "
                                f"#{conflict_id} (source {lineage} restored)", at, conflict_id)
    return conflict_id


def _changes(cur: Any, facts: list[int], before: dict[int, int], after: dict[int, int],
             switched: list[int]) -> tuple[SupportChange, ...]:
    verdicts = _verdicts(cur, facts)
    return tuple(SupportChange(f, before[f], after[f], verdicts[f]) for f in facts
                 if before[f] != after[f] or f in switched)


def _claim_count(cur: Any, lineage: str) -> int:
    cur.execute("SELECT count(*) AS n FROM claims WHERE lineage = %s", (lineage,))
    return cur.fetchone()["n"]


def set_mode(cur: Any, lineage: str, mode: str, reason: str, at: datetime) -> LineageInfo:
    """Set a lineage's mode. Living: older versions' claims are superseded by the latest
    version's; snapshot: every version counts again. Facts left without support are noted
    (served with a caveat), never closed."""
    if mode not in MODES:
        raise InvalidInput(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    _check_lineage(cur, lineage)
    _lock(cur, lineage)
    cur.execute("INSERT INTO lineages (lineage, mode) VALUES (%s, %s) ON CONFLICT (access_scope, lineage) "
                "DO UPDATE SET mode = excluded.mode", (lineage, mode))
    _event(cur, lineage, "mode", reason, at, mode)
    if mode == "living":
        touched = claim_sql.supersede_versions(cur, lineage, at)
        claim_sql.note_withdrawn(cur, touched, at, f"the living source {lineage} no longer "
                                                   "says it in its latest version")
    else:
        claim_sql.unmark_versions(cur, lineage)
    return lineage_info(cur, lineage)


def lineage_info(cur: Any, lineage: str) -> LineageInfo:
    found = lineage_list(cur, lineage=lineage, limit=1)
    if not found:
        raise SourceNotFound(f"no document has lineage {lineage!r}; list them with lineages()")
    return found[0]


def lineage_list(cur: Any, *, lineage: str | None = None, removed: bool | None = None,
                 limit: int = 500) -> list[LineageInfo]:
    """Lineages with their documents and claims, newest first."""
    cur.execute(
        "SELECT d.lineage, count(*) AS documents, max(d.version) AS latest_version, "
        "max(d.id) AS newest, min(d.source_type) AS source_type, l.mode, l.removed_at, "
        "l.removed_reason, (SELECT count(*) FROM claims c WHERE c.lineage = d.lineage) AS claims, "
        "(SELECT count(*) FROM claims c WHERE c.lineage = d.lineage AND c.superseded_at IS NULL "
        " AND c.triage <> 'dropped') AS current_claims "
        "FROM documents d LEFT JOIN lineages l ON l.access_scope = d.access_scope AND l.lineage = d.lineage "
        "WHERE (%(l)s::text IS NULL OR d.lineage = %(l)s) "
        "AND (%(r)s::boolean IS NULL OR (l.removed_at IS NOT NULL) = %(r)s) "
        "GROUP BY d.lineage, l.mode, l.removed_at, l.removed_reason "
        "ORDER BY newest DESC LIMIT %(n)s", {"l": lineage, "r": removed, "n": limit})
    out = []
    for r in cur.fetchall():
        out.append(LineageInfo(
            r["lineage"], r["mode"] or default_mode(r["source_type"]), r["mode"] is not None, r["documents"],
            r["latest_version"], r["claims"],
            0 if r["removed_at"] is not None else r["current_claims"],
            r["removed_at"], r["removed_reason"]))
    return out
