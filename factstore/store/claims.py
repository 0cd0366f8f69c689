"""Claims' SQL: storing a capture's testimony, linking it to facts (the evidence bridge),
marking it superseded, and reading it back.

A claim row is immutable (a trigger in sql/015 refuses any other change); the only updates
here set the lifecycle marks ``superseded_at`` / ``superseded_why``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from factstore.bridge import EvidenceLink, Why
from factstore.claims import Claim, ClaimDraft, ClaimList, claim_list, draft_claim
from factstore.errors import ClaimNotFound, FactNotFound
from factstore.kinds import LIVE_VERDICTS, RETRIEVABLE_VERDICTS
from factstore.lineages import default_mode, source_type_of
from factstore.redaction import redact
from factstore.results import DocumentRecord, DroppedFact
from factstore.store import transitions
from factstore.store.entities import clear_for_withdrawal
from factstore.store.rows import fetch_fact
from factstore.writepath.prepare import PreparedFact

CLAIM_SELECT = (
    "c.id, c.statement, c.quote, c.kind, c.document_id, c.lineage, c.document_version, "
    "c.asserter, c.asserter_is, c.asserted_at, c.extractor, c.valid_from, c.valid_to, "
    "c.triage, c.triage_reason, c.fact_id, c.recorded_at, c.superseded_at, c.superseded_why, "
    "c.superseded_by_document, (l.removed_at IS NOT NULL) AS lineage_removed")
#: claims with their lineage's removal state (a removed lineage's claims stop counting)
CLAIMS_FROM = "claims c LEFT JOIN lineages l ON l.access_scope = c.access_scope AND l.lineage = c.lineage"


def claim_from_row(row: dict[str, Any]) -> Claim:
    return Claim(
        id=row["id"], statement=row["statement"], quote=row["quote"], kind=row["kind"],
        document_id=row["document_id"], lineage=row["lineage"],
        document_version=row["document_version"], asserter=row["asserter"],
        asserter_is=row["asserter_is"], asserted_at=row["asserted_at"],
        extractor=row["extractor"], valid_from=row["valid_from"], valid_to=row["valid_to"],
        triage=row["triage"], triage_reason=row["triage_reason"], fact_id=row["fact_id"],
        recorded_at=row["recorded_at"], superseded_at=row["superseded_at"],
        superseded_why=row["superseded_why"],
        superseded_by_document=row["superseded_by_document"],
        lineage_removed=bool(row["lineage_removed"]))


def lineage_state(cur: Any, lineage: str) -> dict[str, Any]:
    """A lineage's mode (set, else its source type's default) and removal."""
    cur.execute("SELECT mode, removed_at, removed_reason FROM lineages WHERE lineage = %s",
                (lineage,))
    row = cur.fetchone() or {"mode": None, "removed_at": None, "removed_reason": None}
    return {**row, "mode_set": row["mode"] is not None,
            "mode": row["mode"] or default_mode(source_type_of(lineage))}


class ClaimWriter:
    """The claims of one capture's document, and the evidence rows that link them to facts.

    ``extractor`` is the extraction generation (the extractor's name with its version)."""

    def __init__(self, cur: Any, document: DocumentRecord, source_ref: str | None,
                 extractor: str | None, observed: datetime, at: datetime) -> None:
        self.cur = cur
        self.document = document
        self.source_ref = source_ref
        self.extractor = extractor
        self.observed = observed
        self.at = at
        self._asserted_at: datetime | None = None if document.duplicate else observed
        #: the claim each prepared fact made (by the fact's identity), for the entity stage
        self.claim_of: dict[int, int] = {}

    @property
    def asserted_at(self) -> datetime:
        """When the source asserted it: the document's own time (said, else captured), so a
        re-read of a stored document by a new generation keeps the original time."""
        if self._asserted_at is None:
            self.cur.execute("SELECT coalesce(said_at, captured_at) AS at FROM documents "
                             "WHERE id = %s", (self.document.id,))
            self._asserted_at = self.cur.fetchone()["at"]
        return self._asserted_at

    def record(self, fact: PreparedFact, triage: str, reason: str | None, fact_id: int, *,
               link: str = "always") -> tuple[int, bool, bool]:
        """The claim for one prepared fact, whether it is new (a re-run of this document
        and generation finds the claim it already made: the same testimony), and whether
        the evidence row that ties it to ``fact_id`` was added (``link``: 'always', or
        'new' for a new claim only). One round trip."""
        draft = draft_claim(fact.statement, fact.quote, fact.kind.value,
                            speaker=fact.roles.get("asserter"),  # type: ignore[arg-type]
                            source_ref=self.source_ref)
        found = self._insert(draft, triage, reason, fact_id, link=link, quote=fact.quote)
        self.claim_of.setdefault(id(fact), found[0])
        return found

    def _insert(self, draft: ClaimDraft, triage: str, reason: str | None,
                fact_id: int | None, *, link: str = "never",
                quote: str | None = None) -> tuple[int, bool, bool]:
        cur = self.cur
        # The claim (or the one this document and generation already made), and its
        # evidence row, in one statement: a data-modifying CTE sees the claim it inserted
        # only through RETURNING, so an existing claim is looked up beside it.
        cur.execute(
            "WITH new AS (INSERT INTO claims (document_id, lineage, document_version, "
            "statement, quote, kind, asserter, asserter_is, asserted_at, extractor, "
            "valid_from, valid_from_at, valid_to, valid_to_at, triage, triage_reason, fact_id, "
            "recorded_at) VALUES (%(doc)s, %(lineage)s, %(version)s, %(statement)s, %(quote)s, "
            "%(kind)s, %(asserter)s, %(asserter_is)s, %(asserted_at)s, %(extractor)s, "
            "%(vf)s, %(vf_at)s, %(vt)s, %(vt_at)s, %(triage)s, %(reason)s, %(fact)s, %(at)s) "
            "ON CONFLICT DO NOTHING RETURNING id), "
            "got AS (SELECT id, true AS created FROM new UNION ALL SELECT id, false FROM claims "
            "WHERE document_id = %(doc)s AND coalesce(extractor, '') = coalesce(%(extractor)s, "
            "'') AND kind = %(kind)s AND md5(statement || E'\\x1f' || quote) = "
            "md5(%(statement)s || E'\\x1f' || %(quote)s) AND NOT EXISTS (SELECT 1 FROM new)), "
            "linked AS (INSERT INTO evidence (fact_id, document_id, quote, stance, recorded_at, "
            "observed_at, claim_id) SELECT %(fact)s, %(doc)s, %(link_quote)s, 'supports', "
            "%(at)s, %(observed)s, id FROM got WHERE %(link)s = 'always' OR "
            "(%(link)s = 'new' AND created) ON CONFLICT DO NOTHING RETURNING 1) "
            "SELECT (SELECT id FROM got LIMIT 1) AS id, (SELECT created FROM got LIMIT 1) "
            "AS created, EXISTS (SELECT 1 FROM linked) AS linked",
            {"doc": self.document.id, "lineage": self.document.lineage,
             "version": self.document.version, "statement": draft.statement,
             "quote": draft.quote, "kind": draft.kind, "asserter": draft.asserter,
             "asserter_is": draft.asserter_is, "asserted_at": self.asserted_at,
             "extractor": self.extractor, "vf": draft.valid_from,
             "vf_at": _start(draft.valid_from), "vt": draft.valid_to,
             "vt_at": _start(draft.valid_to), "triage": triage, "reason": reason,
             "fact": fact_id, "at": self.at, "observed": self.observed,
             "link": link if fact_id is not None else "never",
             "link_quote": quote if quote is not None else draft.quote})
        row = cur.fetchone()
        return row["id"], row["created"], row["linked"]

    def contradicts(self, fact_ids: Sequence[int], claim_id: int, quote: str) -> None:
        """Evidence rows: this claim speaks against these facts (one statement)."""
        if fact_ids:
            self.cur.execute(
                "INSERT INTO evidence (fact_id, document_id, quote, stance, recorded_at, "
                "observed_at, claim_id) SELECT f, %s, %s, 'contradicts', %s, %s, %s FROM "
                "unnest(%s::bigint[]) AS f ON CONFLICT DO NOTHING",
                (self.document.id, quote, self.at, self.observed, claim_id, list(fact_ids)))

    def dropped(self, refused: Sequence[DroppedFact]) -> None:
        """Every fact the write path refused, as a claim triaged 'dropped' with the stage
        and reason (what ``Store.dropped_facts`` reads)."""
        for d in refused:
            statement, quote = redact(d.statement)[0], redact(d.quote)[0]
            draft = draft_claim(statement, quote, d.kind, speaker=None,
                                source_ref=self.source_ref)
            self._insert(draft, "dropped", redact(d.reason)[0], None)

    def absorbed(self, fact: PreparedFact, fact_id: int) -> None:
        """Outcomes folded into an EVENT are claims of their own, supporting it."""
        for entry in fact.meta.get("absorbed_outcomes", ()):  # type: ignore[union-attr]
            if not isinstance(entry, dict) or not entry.get("statement"):
                continue
            quote = str(entry.get("quote") or entry["statement"])
            draft = draft_claim(str(entry["statement"]), quote, fact.kind.value,
                                speaker=entry.get("asserter"), source_ref=self.source_ref)
            self._insert(draft, "absorbed", f"an outcome of fact #{fact_id}", fact_id,
                         link="new")


def _start(text: str | None) -> datetime | None:
    from factstore.timelines.dates import start_of

    return start_of(text)


def supersede_generations(cur: Any, document_id: int, extractor: str | None,
                          at: datetime) -> set[int]:
    """A document read by another extractor generation: the older generations' claims of
    it are superseded by re-extraction. Returns the facts they were tied to."""
    cur.execute("UPDATE claims SET superseded_at = %s, superseded_why = 're-extraction', "
                "superseded_by_document = %s WHERE document_id = %s AND superseded_at IS NULL "
                "AND coalesce(extractor, '') <> coalesce(%s, '') RETURNING fact_id",
                (at, document_id, document_id, extractor))
    return {r["fact_id"] for r in cur.fetchall() if r["fact_id"] is not None}


def supersede_versions(cur: Any, lineage: str, at: datetime) -> set[int]:
    """A living lineage: the claims of every version older than its latest extracted one
    are superseded. Returns the facts they were tied to."""
    cur.execute("SELECT id, version FROM documents WHERE lineage = %s AND routed <> "
                "'unextracted' ORDER BY version DESC LIMIT 1", (lineage,))
    latest = cur.fetchone()
    if latest is None:
        return set()
    cur.execute("UPDATE claims SET superseded_at = %s, superseded_why = 'living-version', "
                "superseded_by_document = %s WHERE lineage = %s AND document_version < %s "
                "AND superseded_at IS NULL RETURNING fact_id",
                (at, latest["id"], lineage, latest["version"]))
    return {r["fact_id"] for r in cur.fetchall() if r["fact_id"] is not None}


def unmark_versions(cur: Any, lineage: str) -> set[int]:
    """A lineage set back to snapshot: every version counts again."""
    cur.execute("UPDATE claims SET superseded_at = NULL, superseded_why = NULL, "
                "superseded_by_document = NULL WHERE lineage = %s AND superseded_why = "
                "'living-version' RETURNING fact_id", (lineage,))
    return {r["fact_id"] for r in cur.fetchall() if r["fact_id"] is not None}


def note_withdrawn(cur: Any, fact_ids: Iterable[int], at: datetime, why: str) -> list[int]:
    """Facts left with no current support after their claims were superseded: each keeps
    its verdict and is served with a caveat; the withdrawal is recorded in its history."""
    ids = sorted(set(fact_ids))
    if not ids:
        return []
    retrievable = [v.value for v in RETRIEVABLE_VERDICTS]
    cur.execute("SELECT id, verdict FROM facts WHERE id = ANY(%s) AND verdict = ANY(%s) "
                "AND fact_support(id) = 0 ORDER BY id", (ids, retrievable))
    withdrawn = cur.fetchall()
    touched = sorted(fact_ids)
    if touched:
        clear_for_withdrawal(cur, fact_ids=touched)
    for row in withdrawn:
        transitions.record(cur, row["id"], row["verdict"], row["verdict"],
                           f"support withdrawn: {why}; no current testimony supports it, so "
                           "it is served with a caveat", at, code="support_withdrawn")
    return [r["id"] for r in withdrawn]


def live_support(cur: Any, fact_ids: Sequence[int]) -> dict[int, int]:
    """Current support counts of these facts."""
    cur.execute("SELECT id, fact_support(id) AS n FROM facts WHERE id = ANY(%s)",
                (list(fact_ids),))
    return {r["id"]: r["n"] for r in cur.fetchall()}


#: The verdicts a closed-by-removal fact may have had (removal closes only these).
CLOSABLE = tuple(v.value for v in RETRIEVABLE_VERDICTS)
LIVE = tuple(v.value for v in LIVE_VERDICTS)


def _like(text: str) -> str:
    """A substring pattern for ILIKE, with the caller's own % and _ taken literally."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def query(cur: Any, *, lineage: str | None = None, document_id: int | None = None,
          asserter: str | None = None, since: datetime | None = None,
          until: datetime | None = None, text: str | None = None, fact_id: int | None = None,
          triage: str | None = None, historical: bool = False, limit: int = 100,
          offset: int = 0) -> ClaimList:
    """Claims, newest asserted first. Only current testimony unless ``historical``: claims
    superseded (by a living version, by re-extraction) or of a removed lineage are left out."""
    where = ["TRUE"]
    params: dict[str, object] = {"limit": limit + 1, "offset": offset}
    for column, value in (("c.lineage", lineage), ("c.document_id", document_id),
                          ("c.asserter", asserter), ("c.fact_id", fact_id),
                          ("c.triage", triage)):
        if value is not None:
            name = column.split(".")[1]
            where.append(f"{column} = %({name})s")
            params[name] = value
    if since is not None:
        where.append("c.asserted_at >= %(since)s")
        params["since"] = since
    if until is not None:
        where.append("c.asserted_at < %(until)s")
        params["until"] = until
    if text is not None:
        where.append("(c.statement ILIKE %(text)s OR c.quote ILIKE %(text)s)")
        params["text"] = _like(text)
    if not historical:
        where.append("c.superseded_at IS NULL AND l.removed_at IS NULL")
    cur.execute(f"SELECT {CLAIM_SELECT} FROM {CLAIMS_FROM} WHERE {' AND '.join(where)} "
                "ORDER BY c.asserted_at DESC, c.id DESC LIMIT %(limit)s OFFSET %(offset)s",
                params)
    rows = cur.fetchall()
    more = len(rows) > limit
    return claim_list((claim_from_row(r) for r in rows[:limit]),
                      offset + limit if more else None)


def get(cur: Any, claim_id: int) -> Claim:
    cur.execute(f"SELECT {CLAIM_SELECT} FROM {CLAIMS_FROM} WHERE c.id = %s", (claim_id,))
    row = cur.fetchone()
    if row is None:
        raise ClaimNotFound(f"no claim #{claim_id}; list them with claims()")
    return claim_from_row(row)


def why(cur: Any, fact_id: int) -> Why:
    """The bridge for one fact: every claim (or observation) for and against it."""
    fact = fetch_fact(cur, fact_id)
    if fact is None:
        raise FactNotFound(f"no fact #{fact_id}")
    cur.execute(
        "SELECT e.id AS evidence_id, e.stance, e.role, e.document_id, d.lineage AS d_lineage, "
        "d.version AS d_version, e.quote AS e_quote, e.observed_at, e.claim_id, "
        "(dl.removed_at IS NOT NULL) AS d_removed, "
        f"{CLAIM_SELECT} FROM evidence e JOIN documents d ON d.id = e.document_id "
        "LEFT JOIN lineages dl ON dl.access_scope = d.access_scope AND dl.lineage = d.lineage "
        "LEFT JOIN claims c ON c.id = e.claim_id LEFT JOIN lineages l ON l.access_scope = c.access_scope AND l.lineage = c.lineage "
        "WHERE e.fact_id = %s ORDER BY e.id", (fact_id,))
    links = []
    for r in cur.fetchall():
        claim = claim_from_row(r) if r["claim_id"] is not None else None
        if r["d_removed"]:
            not_current = "source removed"
        elif claim is not None and claim.superseded_at is not None:
            not_current = f"superseded ({claim.superseded_why})"
        else:
            not_current = None
        links.append(EvidenceLink(r["evidence_id"], r["stance"], r["role"], r["document_id"],
                                  r["d_lineage"], r["d_version"], r["e_quote"],
                                  r["observed_at"], claim, not_current))
    supports = tuple(x for x in links if x.stance == "supports")
    lineages = tuple(sorted({x.lineage for x in supports if x.current}))
    return Why(fact, supports, tuple(x for x in links if x.stance == "contradicts"),
               len(lineages), lineages)
