"""Store's reads of the two truth layers, never blended (seed 001), and the source
lifecycle that governs the testimony layer.

A mixin of Store:

- ``claims`` (testimony, grain ``claim``), ``claim``, ``why`` (the bridge for one fact),
  ``context`` (claims-and-sources and facts, two complete envelopes);
- ``remove_source`` / ``restore_source`` (a lineage's claims stop / start counting; facts
  whose sole support it was are closed / reopened, recorded in fact_history);
- ``lineages``, ``lineage``, ``set_lineage_mode`` (snapshot or living);
- ``contradiction_group`` (every member of a group, paged: recall's continuation).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from factstore.bridge import Why
from factstore.claims import TRIAGES, Claim, ClaimList
from factstore.context import ContextBundle
from factstore.errors import GroupNotFound
from factstore.groups import ContradictionGroup
from factstore.inputs import (
    MAX_NOTE,
    MAX_QUERY,
    check_choice,
    check_count,
    check_flag,
    check_id,
    check_instant,
    check_text,
)
from factstore.lineages import MODES, LineageInfo, LineageList, SourceChange
from factstore.redaction import redact_text
from factstore.store import claims as claim_sql
from factstore.store import conflicts as conflict_sql
from factstore.store import context as context_sql
from factstore.store import groups, retry
from factstore.store import sources as source_sql
from factstore.store.rows import fetch_facts

#: A lineage is '<source type>:<source_ref>' (a ref is at most 2,000 characters).
MAX_LINEAGE = 2100


def _now() -> datetime:
    return datetime.now(UTC)


def _lineage(value: object) -> str:
    return check_text("lineage", value, limit=MAX_LINEAGE)  # type: ignore[return-value]


def _reason(value: object) -> str:
    text = check_text("reason", value, limit=MAX_NOTE)
    return redact_text(text.strip(), MAX_NOTE)[0]  # type: ignore[union-attr]


class TestimonyTools:
    """claims, claim, why, context, remove_source, restore_source, lineages, lineage,
    set_lineage_mode, contradiction_group; mixed into Store."""

    def claims(self, *, lineage: str | None = None, document_id: int | None = None,
               asserter: str | None = None, since: datetime | str | None = None,
               until: datetime | str | None = None, text: str | None = None,
               fact_id: int | None = None, triage: str | None = None,
               historical: bool = False, limit: int = 100, offset: int = 0) -> ClaimList:
        """Testimony: what sources asserted, newest asserted first, filtered by lineage,
        document, asserter (a speaker or source), time asserted (``since`` inclusive,
        ``until`` exclusive), text (in the statement or quote), the fact it was tied to,
        or triage. Only current testimony unless ``historical``: then claims superseded by
        a living version or by re-extraction, and claims of removed sources, too. Pages by
        ``offset``; ``ClaimList.next_offset`` is the next page's."""
        if lineage is not None:
            _lineage(lineage)
        if document_id is not None:
            check_id("document_id", document_id)
        check_text("asserter", asserter, limit=MAX_LINEAGE, required=False)
        since_at = check_instant("since", since)
        until_at = check_instant("until", until)
        check_text("text", text, limit=MAX_QUERY, required=False)
        if fact_id is not None:
            check_id("fact_id", fact_id)
        check_choice("triage", triage, TRIAGES, required=False)
        check_flag("historical", historical)
        check_count("limit", limit, 1, 10_000)
        check_count("offset", offset, 0, 10_000_000)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return claim_sql.query(cur, lineage=lineage, document_id=document_id,
                                   asserter=asserter, since=since_at, until=until_at,
                                   text=text, fact_id=fact_id, triage=triage,
                                   historical=historical, limit=limit, offset=offset)

    def claim(self, claim_id: int) -> Claim:
        """One claim by id, whatever its status."""
        check_id("claim_id", claim_id)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return claim_sql.get(cur, claim_id)

    def why(self, fact_id: int) -> Why:
        """Why the store believes (or believed) a fact: every claim that supports or
        contradicts it, with its document and lineage and whether it still counts."""
        check_id("fact_id", fact_id)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return claim_sql.why(cur, fact_id)

    def context(self, query: str, *, k: int | None = None, per_source: int = 5,
                now: datetime | str | None = None) -> ContextBundle:
        """Claims with their sources, and facts, for one query: two complete envelopes,
        each ranked on its own, never re-ranked together. The facts envelope holds only
        validity-filtered facts (believed verdicts, valid at ``now``); a claim's asserted
        interval never makes a fact current. ``per_source`` bounds the claims served
        under each source (the rest: the envelope's continuations)."""
        check_text("the context query", query, limit=MAX_QUERY)
        k = check_count("k", self.settings.recall_k if k is None else k,  # type: ignore[attr-defined]
                        1, 1000)
        check_count("per_source", per_source, 1, 1000)
        when = check_instant("now", now) or _now()
        vector = self._embed([query])[0]  # type: ignore[attr-defined]
        settings = self.settings  # type: ignore[attr-defined]
        with self._tx() as cur:  # type: ignore[attr-defined]
            testimony = context_sql.claims_envelope(cur, vector, k, settings, per_source)
            lines = tuple(k.line for k in self._timeline_keys(  # type: ignore[attr-defined]
                cur, query, when))
            facts = context_sql.facts_envelope(cur, vector, k, settings, when, lines)
        return ContextBundle(query, testimony, facts)

    @retry.retry_transient
    def remove_source(self, lineage: str, reason: str) -> SourceChange:
        """Remove a source: its claims stop counting. A fact whose sole current support it
        was is closed (verdict withdrawn, reason code ``retracted_source_removal``, in its
        history); a fact another lineage supports stays with its count reduced. Reversible
        with ``restore_source``. New versions of a removed source are refused."""
        lineage, reason = _lineage(lineage), _reason(reason)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return source_sql.remove(cur, lineage, reason, _now())

    @retry.retry_transient
    def restore_source(self, lineage: str, reason: str) -> SourceChange:
        """Undo ``remove_source``: the claims count again, each fact the removal closed
        returns to its verdict (unless something else changed it since), a conflict the
        removal closed opens again, and a restored fact meets the density check again."""
        lineage, reason = _lineage(lineage), _reason(reason)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return source_sql.restore(cur, lineage, reason, _now(),
                                      self.settings)  # type: ignore[attr-defined]

    @retry.retry_transient
    def set_lineage_mode(self, lineage: str, mode: str,
                         reason: str = "set by a person") -> LineageInfo:
        """Set a lineage's mode: ``snapshot`` (every version is testimony) or ``living``
        (a new version supersedes the old one's claims). The default comes from the
        source type (files and urls living, the rest snapshot)."""
        lineage, reason = _lineage(lineage), _reason(reason)
        check_choice("mode", mode, MODES)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return source_sql.set_mode(cur, lineage, mode, reason, _now())

    def lineages(self, *, removed: bool | None = None, limit: int = 500) -> LineageList:
        """Lineages, most recently written first, with their mode, versions and claims;
        ``removed`` keeps only removed (True) or standing (False) ones."""
        if removed is not None:
            check_flag("removed", removed)
        check_count("limit", limit, 1, 100_000)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return LineageList(source_sql.lineage_list(cur, removed=removed, limit=limit))

    def lineage(self, lineage: str) -> LineageInfo:
        """One lineage."""
        lineage = _lineage(lineage)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return source_sql.lineage_info(cur, lineage)

    def contradiction_group(self, group_id: int, *, offset: int = 0,
                            limit: int = 50) -> ContradictionGroup:
        """Every member of a contradiction group (a page of them as facts) and its
        conflicts: the continuation recall and context name for a group too big to serve
        inline."""
        check_id("group_id", group_id)
        check_count("offset", offset, 0, 10_000_000)
        check_count("limit", limit, 1, 10_000)
        with self._tx() as cur:  # type: ignore[attr-defined]
            return _group(cur, group_id, offset, limit)


def _group(cur: Any, group_id: int, offset: int, limit: int) -> ContradictionGroup:
    cur.execute("SELECT * FROM conflicts WHERE group_id = %s ORDER BY id", (group_id,))
    rows = cur.fetchall()
    if not rows:
        raise GroupNotFound(f"no contradiction group #{group_id}; a conflict's group_id names "
                            "its group (open_conflicts())")
    is_open = any(r["status"] == "open" for r in rows)
    members = groups.members(cur, group_id, open_only=is_open)
    page = members[offset:offset + limit]
    found = fetch_facts(cur, page)
    shown = [r for r in rows if r["status"] == "open"] if is_open else rows
    return ContradictionGroup(
        group_id, "open" if is_open else "resolved", tuple(members),
        tuple(found[m] for m in page),
        tuple(conflict_sql.conflicts_of_rows(cur, shown)), offset,
        offset + limit if offset + limit < len(members) else None)
