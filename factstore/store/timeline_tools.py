"""Store's timeline tools: write_facts, retract, facts (both time axes), brief.

A mixin of Store, kept beside the SQL it calls so core.py stays about opening the store.
"""

from __future__ import annotations

import dataclasses
import getpass
import os
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from factstore.briefs import RECALLED_MAX, recalled_lines
from factstore.errors import AccessDenied, InvalidInput
from factstore.inputs import (
    MAX_NOTE,
    MAX_QUERY,
    MAX_REF,
    check_count,
    check_flag,
    check_id,
    check_instant,
    check_text,
    show,
)
from factstore.principals import Principal, personal_scope, shared_scope
from factstore.redaction import redact_fields, redact_text
from factstore.store import about as about_sql
from factstore.store import key_window
from factstore.store import timelines as timeline_sql
from factstore.store.key_window import KeyRead
from factstore.store.retry import retry_transient
from factstore.store.scoping import set_write_scope
from factstore.timelines import about
from factstore.timelines.about import value_named
from factstore.timelines.dates import as_of_instant, start_of
from factstore.timelines.format_v1 import validate_request
from factstore.timelines.model import (
    BackfillResult,
    FactWrite,
    TimelineAnswer,
    TimelineFact,
    TimelineKey,
    WriteFactsResult,
)
from factstore.timelines.question_time import as_of_from_question
from factstore.timelines.render import (
    Brief,
    brief_text,
    own_source,
    render_brief,
    render_line,
    unread_note,
)
from factstore.timelines.resolution import current_at, history_order, sort_start
from factstore.timelines.scopes import scope_notes
from factstore.timelines.subjects import resolve_me

MAX_READ = 500
#: how many timelines found by the words search (not named by the question) recall serves
FOUND_KEYS = 2
#: facts per backfill transaction (each chunk whole; a re-run skips the chunks that landed)
BACKFILL_CHUNK = 5000
MAX_BACKFILL_CHUNK = 1_000_000


def default_user() -> str:
    """$FACTSTORE_USER_ID, else the operating-system user: whose 'me' this is."""
    return os.environ.get("FACTSTORE_USER_ID") or getpass.getuser()


class TimelineTools:
    """Timeline methods; mixed into Store (which provides _tx, _embed and user_id)."""

    user_id: str
    principal: Principal

    @retry_transient
    def write_facts(self, payload: Any, *, user: str | None = None,
                    now: datetime | None = None) -> WriteFactsResult:
        """Write a format v1 request (seed 002 §4): every fact stored or corroborated, each
        key re-resolved with rules 1-7. Any violation rejects the whole request, nothing
        written (FactsValidationError lists every error; CardinalityMismatch is its own)."""
        user = self._caller(user)
        facts, shared = validate_request(payload, now=_aware_now(now))
        scope = self._timeline_scope(shared, user)
        facts = [dataclasses.replace(f, subject=resolve_me(f.subject, user)) for f in facts]
        redacted = [redact_fields(f) for f in facts]
        facts = [f for f, _ in redacted]
        records = tuple(r for _, r in redacted)
        document = timeline_sql.request_text(
            {"format": 1, "shared": shared, "facts": [dataclasses.asdict(f) for f in facts]})
        vector = self._embed(["\n".join(timeline_sql.statement_of(f) + " " + (f.quote or "")
                                        for f in facts)])[0]
        with self._tx(scope) as cur:
            # The time is taken under the keys' locks (None: now, then), so a write that
            # waited for another is stamped after it.
            return timeline_sql.write(cur, facts, records, scope, document,
                                      vector, now and _aware_now(now))

    def backfill_facts(self, facts: Iterable[Any], *, shared: bool = False,
                       user: str | None = None, now: datetime | None = None,
                       chunk_size: int = BACKFILL_CHUNK,
                       progress: Callable[[int, int], None] | None = None) -> BackfillResult:
        """Bulk-write format v1 facts (an archive's worth).

        Validated like write_facts, the whole archive at once (write_facts' 50-fact cap
        does not apply), and all rejected if any fact is invalid. Then written
        ``chunk_size`` facts at a time, each chunk in a transaction of its own (its own
        request document) and whole: each fact corroborated or stored, each key resolved
        once per chunk, every row written once (store/timeline_batches.py). A re-run of the
        same archive (after a crash, say) finds each chunk that landed and writes nothing for
        it. ``progress(done, total)`` is called after each chunk commits.
        """
        self._owner_only(  # type: ignore[attr-defined]
            "a backfill (binary COPY, which row-level security forbids)")
        if isinstance(facts, str | bytes | bytearray | dict) or not isinstance(facts, Iterable):
            raise InvalidInput(f"backfill_facts takes a list of format v1 fact objects, got "
                               f"{show(facts)}")
        check_flag("shared", shared)
        check_count("chunk_size", chunk_size, 1, MAX_BACKFILL_CHUNK)
        if progress is not None and not callable(progress):
            raise InvalidInput(f"progress must be a callable(done, total), got {show(progress)}")
        user = self._caller(user)
        scope = self._timeline_scope(shared, user)
        facts = list(facts)
        if not facts:
            raise InvalidInput("backfill_facts needs at least one fact")
        # One validation of the whole archive (every problem listed at its own index); the
        # 50-fact cap is write_facts' request limit, not a backfill's.
        written = validate_request({"format": 1, "facts": facts}, now=_aware_now(now),
                                   batch=True)[0]
        written = [dataclasses.replace(f, subject=resolve_me(f.subject, user)) for f in written]
        redacted = [redact_fields(f) for f in written]
        at = now and _aware_now(now)
        results = []
        for start in range(0, len(redacted), chunk_size):
            results.append(self._backfill_chunk(redacted[start:start + chunk_size], shared,
                                                scope, at))
            if progress is not None:
                progress(min(start + chunk_size, len(redacted)), len(redacted))
        return BackfillResult(
            results[0].document_id, sum(r.created for r in results),
            sum(r.corroborated for r in results),
            len({(f.subject, f.attribute) for f in written}),
            sum(r.redacted for r in results), sum(r.unchanged for r in results),
            documents=tuple(r.document_id for r in results))

    @retry_transient
    def _backfill_chunk(self, redacted: list[tuple[Any, tuple[dict, ...]]], shared: bool,
                        scope: str, at: datetime | None) -> BackfillResult:
        # Only the chunk's transaction is retried: validation and redaction ran once.
        sample = "\n".join(timeline_sql.statement_of(f) for f, _ in redacted[:64])
        vector = self._embed([sample])[0]
        document = timeline_sql.request_text(
            {"format": 1, "shared": shared, "backfill": True,
             "facts": [vars(f) for f, _ in redacted]})
        with self._tx(scope) as cur:
            return timeline_sql.backfill(cur, [f for f, _ in redacted],
                                         [r for _, r in redacted], scope, document, vector, at)

    @retry_transient
    def end_fact(self, fact_id: int, valid_to: str, *, observed_at: datetime | str | None = None,
                 source: str | None = None, quote: str | None = None,
                 now: datetime | None = None) -> FactWrite:
        """End a timeline fact at ``valid_to`` (seed 002 §9, ``ended: [{id, valid_to}]``).

        Nothing is rewritten: the fact's claim is observed again with the end stated (in the
        fact's own scope, observed now unless ``observed_at`` says when the source said it),
        and the key is re-resolved, so the ended version supersedes the open one and the
        value stops at ``valid_to``. Works for a many value too. Refuses an unknown id, a
        fact that is not a timeline fact or is retracted, and an end not after its start.
        """
        check_id("fact_id", fact_id)
        check_text("valid_to", valid_to, limit=64)
        check_text("source", source, limit=512, required=False)
        check_text("quote", quote, limit=2000, required=False)
        at = _aware_now(now)
        with self._tx() as cur:
            fact = timeline_sql.fact_for_end(cur, fact_id)
            set_write_scope(cur, self.principal, fact.scope)
            request = {"subject": fact.subject, "attribute": fact.attribute,
                       "value": fact.value, "valid_to": valid_to,
                       "source": source if source is not None else f"end:fact-{fact_id}"}
            for name, value in (("unit", fact.unit), ("valid_from", fact.valid_from),
                                ("quote", quote), ("cardinality", fact.cardinality)):
                if value is not None:
                    request[name] = value
            if observed_at is not None:
                request["observed_at"] = (observed_at.isoformat() if isinstance(
                    observed_at, datetime) else observed_at)
            written, _ = validate_request({"format": 1, "facts": [request]}, now=at)
            start = sort_start(fact)
            end = start_of(written[0].valid_to)
            if end is None or end <= start:
                raise InvalidInput(f"valid_to {valid_to!r} must be after the start of fact "
                                   f"#{fact_id} ({fact.valid_from or fact.observed_at})")
            redacted = [redact_fields(f) for f in written]
            document = timeline_sql.request_text(
                {"format": 1, "ended": [{"id": fact_id, "valid_to": valid_to}],
                 "facts": [vars(f) for f, _ in redacted]})
            vector = self._embed([timeline_sql.statement_of(written[0])])[0]
            result = timeline_sql.write(cur, [f for f, _ in redacted],
                                        [r for _, r in redacted], fact.scope,
                                        document, vector, now and at)
        return result.facts[0]

    @retry_transient
    def retract(self, fact_id: int, *, reason: str = "retracted by request",
                now: datetime | None = None) -> TimelineFact | None:
        """Withdraw a fact (never deleted); a timeline fact's key is re-resolved, so what it
        had superseded can become current again. Returns the timeline fact, if it is one."""
        check_id("fact_id", fact_id)
        if isinstance(reason, str) and not reason.strip():
            raise InvalidInput("a retraction needs a reason; it is kept in the history")
        check_text("reason", reason, limit=MAX_NOTE)
        reason = redact_text(reason.strip(), MAX_NOTE)[0]
        at = _aware_now(now)
        with self._tx() as cur:
            # the history row lands in the fact's own scope, where its readers are
            cur.execute("SELECT access_scope FROM facts WHERE id = %s", (fact_id,))
            row = cur.fetchone()
            if row is not None:
                set_write_scope(cur, self.principal, row["access_scope"])
            return timeline_sql.retract(cur, fact_id, reason, at)

    def facts(self, subject: str | None = None, attribute: str | None = None, *,
              as_of: str | datetime | None = None, known_at: str | datetime | None = None,
              user: str | None = None, limit: int = MAX_READ) -> TimelineAnswer:
        """Timelines read as seed 002 §5 says: per key the facts valid at ``as_of`` (a partial
        date means the end of that period), the whole history and the line.

        ``known_at`` reads transaction time: what the store had *recorded* by that instant
        (facts, corroborations and retractions it had stored by then), re-resolved, not what
        its sources had observed by then (``observed_at`` is valid-time evidence, never the
        store's own clock). A subject+attribute with facts in the personal and the shared
        scope is answered as two keys, each line tagged with its scope."""
        user = self._caller(user)
        check_text("subject", subject, limit=200, required=False)
        check_text("attribute", attribute, limit=64, required=False)
        if subject is not None:
            subject = resolve_me(subject, user)
        check_count("limit", limit, 1, MAX_READ)
        now = _aware_now(None)
        label, instant = as_of_instant(as_of, now)
        believed = _belief_time(known_at)
        with self._tx(snapshot=True) as cur:
            keys = timeline_sql.read_keys(cur, self._read_scopes(user), subject, attribute,
                                          limit)
            if believed is not None:
                keys = [k for k in (timeline_sql.as_known_at(cur, facts, believed)
                                    for facts in keys) if k]
        notes = scope_notes(_scoped(keys), instant)
        return TimelineAnswer(label, instant,
                              tuple(_key(facts, instant, limit, note)
                                    for facts, note in zip(keys, notes, strict=True)),
                              known_at=believed)

    def brief(self, question: str, *, as_of: str | datetime | None = None,
              user: str | None = None) -> Brief:
        """The facts part of an answer brief: the convention, one line per timeline the
        question is about (as of the time it names, or ``as_of``), numbered citations."""
        check_text("the question", question, limit=MAX_QUERY)
        user = self._caller(user)
        now = _aware_now(None)
        label, instant = as_of_instant(as_of or as_of_from_question(question, now), now)
        with self._tx(snapshot=True) as cur:
            reads = self._timelines_about(cur, question, user, instant)
        timelines = [read.facts for read in reads]
        notes = _line_notes(reads, instant)
        brief = render_brief(question, [(f[0].subject, f[0].attribute, f[0].cardinality, f)
                                        for f in timelines], instant, label, notes=notes)
        keys = tuple(_key(r.facts, instant, note=n, as_of=label, holder=r.holder)
                     for r, n in zip(reads, notes, strict=True))
        # what recall serves beside the timelines (a chat store has none for most questions)
        served = self.recall(question, k=RECALLED_MAX, now=min(instant, now))  # type: ignore[attr-defined]
        recalled = recalled_lines(served.items)
        return dataclasses.replace(brief, keys=keys, recalled=recalled,
                                   text=brief_text(brief.lines, brief.citations, recalled))

    def _timeline_keys(self, cur: Any, question: str, now: datetime,
                       found: Sequence[tuple[str, str]] = ()) -> list[TimelineKey]:
        """Recall's timeline part: the keys the question is about, then (up to
        FOUND_KEYS) the keys whose rows its words found, read as of the time it names
        (else now), each line citing its facts by their own sources."""
        label, instant = as_of_instant(as_of_from_question(question, now), now)
        reads = self._timelines_about(cur, question, self.user_id, instant)
        named = {(r.facts[0].subject, r.facts[0].attribute) for r in reads}
        scopes = self._read_scopes(self.user_id)
        # a key its words found, only where the question named no property a key answers
        # ("who does Luca report to?" is not answered by Luca's mentor as well), and never
        # another subject's ("replicas of svc-ledger" never serves web-2's replicas)
        extra = [] if named else [k for k in found
                                  if not about.names_another(question, k[0])]
        for subject, attribute in extra[:FOUND_KEYS]:
            reads += key_window.read_for_line(cur, scopes, subject, attribute, instant)
        notes = _line_notes(reads, instant)
        return [_key(r.facts, instant, note=note, as_of=label, holder=r.holder)
                for r, note in zip(reads, notes, strict=True)]

    def _caller(self, user: object) -> str:
        """Whose 'me' a call means: the caller's id, else the store's. A credential speaks
        only for its own user."""
        if user is None:
            return self.user_id
        user = check_text("user", user, limit=MAX_REF)
        if not self.principal.owner and user != self.principal.user:
            raise AccessDenied(f"this credential speaks for {self.principal.user!r}, not "
                               f"{user!r}; leave user out")
        return user

    def _timeline_scope(self, shared: bool, user: str) -> str:
        """Where a write lands: the user's personal scope, or the workspace's shared one."""
        if self.principal.owner:
            workspace = self.principal.workspace
            return shared_scope(workspace) if shared else personal_scope(workspace, user)
        return self.principal.write_scope(shared)

    def _read_scopes(self, user: str) -> list[str]:
        """The timelines a read names: the owner reads the user's personal timelines and the
        shared ones; a credential reads every scope it was granted."""
        if self.principal.owner:
            workspace = self.principal.workspace
            return [personal_scope(workspace, user), shared_scope(workspace)]
        return list(self.principal.scopes)

    def _timelines_about(self, cur: Any, question: str, user: str,
                         instant: datetime) -> list[KeyRead]:
        """The keys the question is about (chosen by index: store/about.py), each read for
        its line as of ``instant`` (a long key as a window around it: store/key_window.py)."""
        scopes = self._read_scopes(user)
        found = []
        keys, holders = about_sql.keys_and_holders(cur, question, scopes,
                                                   resolve_me("me", user))
        for subject, attribute in keys:
            reads = key_window.read_for_line(cur, scopes, subject, attribute, instant)
            if (subject, attribute) in holders:
                # a holder answers only while it holds the value the question names
                reads = [dataclasses.replace(r, holder=True) for r in reads if any(
                    value_named(question, f.value) for f in
                    current_at(r.facts, instant, r.facts[0].cardinality))]
            found += reads
        return found


def _key(facts: list[TimelineFact], instant: datetime, limit: int = MAX_READ,
         note: str | None = None, as_of: str | None = None, holder: bool = False
         ) -> TimelineKey:
    """One key's answer; the current value is judged on the whole key, but a key longer than
    the read cap shows only its newest ``limit`` history entries."""
    first = facts[0]
    history = history_order(facts)
    line = render_line(first.subject, first.attribute, first.cardinality, facts, instant,
                       cite=own_source, as_of=as_of, note=note)
    return TimelineKey(
        first.subject, first.attribute, first.cardinality,
        current_at(facts, instant, first.cardinality), history[:limit], line,
        scope=first.scope, omitted=max(0, len(history) - limit), holder=holder)


def _line_notes(reads: list[KeyRead], instant: datetime) -> list[str | None]:
    """Each line's end: its scope tag, then what a window left unread."""
    tags = scope_notes(_scoped([read.facts for read in reads]), instant)
    notes = []
    for read, tag in zip(reads, tags, strict=True):
        parts = [p for p in (tag, unread_note(read.earlier_unread, read.later_unread)) if p]
        notes.append(" ".join(parts) or None)
    return notes


def _scoped(keys: list[list[TimelineFact]]) -> list[Any]:
    return [(f[0].scope, f[0].subject, f[0].attribute, f[0].cardinality, f) for f in keys]


def _aware_now(now: datetime | None) -> datetime:
    if now is None:
        return datetime.now(UTC)
    return check_instant("now", now)


def _belief_time(known_at: str | datetime | None) -> datetime | None:
    if known_at is None:
        return None
    if isinstance(known_at, datetime):
        return check_instant("known_at", known_at)
    # A partial date here too means the end of that period.
    return as_of_instant(known_at, datetime.now(UTC))[1]
