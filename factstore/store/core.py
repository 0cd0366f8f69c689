"""factstore.Store: the one seam. The only code that talks SQL; every tool is a method.

Every method is one transaction: a call that raises has written nothing. The bulk calls
(``import_facts``, ``remember_many``) commit in chunks, each whole, and a re-run skips what
landed.
"""

from __future__ import annotations

import copy
import dataclasses
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
import psycopg
from pgvector.psycopg import register_vector
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool, PoolTimeout

from factstore import sealing
from factstore.backfill import FactRecord, check_record, redact_record
from factstore.captures import check_capture
from factstore.compiler.base import Compiler
from factstore.embedders.base import Embedder
from factstore.entities.resolution import Resolver, RuleResolver
from factstore.errors import (
    AccessDenied,
    DatabaseUnavailable,
    EmbedderError,
    EmbedderMismatch,
    FactNotFound,
    FactStoreError,
    InvalidInput,
    PermissionDenied,
    SchemaError,
)
from factstore.extractors.base import ExtractionContext, Extractor
from factstore.extractors.turns import split_turns
from factstore.inputs import (
    MAX_NOTE,
    MAX_QUERY,
    MAX_REF,
    MAX_TAG,
    check_choice,
    check_count,
    check_flag,
    check_id,
    check_instant,
    check_text,
    show,
)
from factstore.kinds import Kind, Verdict, parse_kind
from factstore.lifetimes import parse_lifetime
from factstore.principals import Principal, local_owner
from factstore.questions import LEVELS, STATUSES
from factstore.redaction import redact, redact_text
from factstore.results import (
    CandidateRoot,
    Conflict,
    ConflictList,
    Description,
    Fact,
    HistoryEntry,
    LeafResult,
    OpenQuestion,
    QuestionQueue,
    RecallResult,
    RegistryQueryResult,
    RememberResult,
    SupersessionChain,
    TagInfo,
)
from factstore.settings import Settings
from factstore.store import attributes as attribute_sql
from factstore.store import compiling, retry, scoping, sealed, server
from factstore.store import conflicts as conflict_sql
from factstore.store import entities as entity_sql
from factstore.store import imports as import_sql
from factstore.store import questions as question_sql
from factstore.store import recall as recall_sql
from factstore.store import remember as remember_sql
from factstore.store import tags as tag_sql
from factstore.store.bulk_tools import BulkTools
from factstore.store.compiler_tools import CompilerTools
from factstore.store.credential_tools import CredentialTools
from factstore.store.diagnostic_tools import DiagnosticTools
from factstore.store.entity_tools import EntityTools
from factstore.store.extraction_tools import ExtractionTools
from factstore.store.migrations import apply_migrations
from factstore.store.review_tools import ReviewTools
from factstore.store.rows import fetch_fact, fetch_facts
from factstore.store.scope_tools import ScopeTools
from factstore.store.server_tuning import SERVER_SETTINGS
from factstore.store.subjects import read_unread_subjects
from factstore.store.testimony_tools import TestimonyTools
from factstore.store.timeline_tools import TimelineTools, default_user
from factstore.timelines.subjects import resolve_me
from factstore.writepath.prepare import prepare_capture

TOOLS = (
    "describe", "remember", "remember_many", "recall", "resolve_conflict", "resolve_both_stand",
    "open_conflicts", "registry_query", "registry_add_leaf", "registry_propose_root",
    "open_questions", "update_open_question", "write_facts", "backfill_facts",
    "retract", "end_fact", "facts", "brief",
    "claims", "why", "context", "remove_source", "restore_source", "lineages",
    "set_lineage_mode", "contradiction_group",
    "entities", "entity", "aliases", "add_alias", "merge", "unmerge", "merge_proposals",
    "reject_merge", "relations", "neighbours", "mentions", "refresh_profiles", "chain",
    "set_entity_attribute", "create_token", "list_tokens", "revoke_token",
    "scopes", "seal_scope", "rotate_key", "forget_scope",
    "attributes", "merge_attribute", "add_attribute_alias", "compile_log",
)
#: How many imported records commit together (each chunk whole, and skipped on a re-run).
IMPORT_CHUNK = 1000
#: The largest chunk: a million records in one transaction (a big first load, whose HNSW
#: indexes are then built once instead of row by row; see store/index_plan.py).
MAX_IMPORT_CHUNK = 1_000_000


class Store(TimelineTools, BulkTools, ExtractionTools, DiagnosticTools, ReviewTools,
            TestimonyTools, EntityTools, CredentialTools, ScopeTools, CompilerTools):
    """A fact store on Postgres + pgvector. Open with ``Store.open()``; close when done."""

    def __init__(self, pool: ConnectionPool, dsn: str, embedder: Embedder, extractor: Extractor,
                 settings: Settings, path_exists: Callable[[str], bool],
                 user_id: str | None = None, resolver: Resolver | None = None,
                 compiler: Compiler | None = None) -> None:
        self.user_id = user_id or default_user()
        #: who is asking: the local owner in-process, a token's principal in a server view
        self.principal: Principal = local_owner(self.user_id)
        #: T4 of entity resolution: the offline rule resolver, or a model (entities/resolvers)
        self.resolver: Resolver = resolver if resolver is not None else RuleResolver()
        #: what turns plain statements into timeline facts on the write path: the offline
        #: parser compiler, a model (compiler/ollama.py), or None (no compiling)
        self.compiler: Compiler | None = compiler
        self._pool = pool
        self._dsn = dsn
        self.embedder = embedder
        self.extractor = extractor
        self.settings = settings
        self._path_exists = path_exists
        #: where the master key file is looked for (``<home>/master.key``) unless
        #: FACTSTORE_MASTER_KEY is set
        self.home: str | os.PathLike[str] | None = None
        self._master: bytes | None = None
        #: what the last ``import_facts`` call did (rows, chunks, rebuilt indexes, timings)
        self.last_import: import_sql.ImportReport | None = None

    # -- opening and closing ------------------------------------------------------------

    @classmethod
    def open(cls, dsn: str | None = None, *, home: str | os.PathLike[str] | None = None,
             database: str | None = None, embedder: Embedder | None = None,
             extractor: Extractor | None = None, settings: Settings | None = None,
             path_exists: Callable[[str], bool] | None = None, pool_size: int = 4,
             user_id: str | None = None, resolver: Resolver | None = None,
             compiler: Compiler | None | str = "default") -> Store:
        """Open (creating and migrating if needed) a store.

        With no ``dsn`` (and no ``FACTSTORE_DSN``) an embedded Postgres is started or reused
        under ``home`` (``$FACTSTORE_HOME``, default ``./.factstore``). ``database`` picks a
        database on that server (created if missing; default ``$FACTSTORE_DATABASE`` or
        ``factstore``). The embedder defaults to the local MiniLM model, the extractor to the
        parser-based scribe (``parser/v1``), settings to ``Settings.from_env()``. ``user_id`` is whose ``me``
        timeline subjects mean (default ``$FACTSTORE_USER_ID`` or the OS user). ``compiler``
        turns plain statements into timeline facts as they are remembered: the offline
        ``compiler/parser-v1`` by default, a model compiler, or None for none.
        """
        if compiler == "default":
            from factstore.compiler.offline import ParserCompiler
            compiler = ParserCompiler()
        if embedder is None:
            from factstore.embedders.local import LocalEmbedder
            embedder = LocalEmbedder()
        if extractor is None:
            # the parser scribe loads spaCy on its first extraction, not here
            from factstore.extractors.parsed import ParserExtractor
            extractor = ParserExtractor()
        settings = settings or Settings.from_env()
        target = cls._target_dsn(dsn, home, database)
        _migrate_and_check(target, embedder)
        pool = ConnectionPool(target, min_size=1, max_size=pool_size, open=False,
                              kwargs={"row_factory": dict_row, "options": "-c TimeZone=UTC"},
                              configure=register_vector,
                              name="factstore")
        try:
            pool.open(wait=True, timeout=30)
        except PoolTimeout as exc:
            raise DatabaseUnavailable(f"could not connect to {server.redact(target)}") from exc
        store = cls(pool, target, embedder, extractor, settings, path_exists or os.path.exists,
                    user_id, resolver, compiler)  # type: ignore[arg-type]
        store.home = home
        return store

    @staticmethod
    def _target_dsn(dsn: str | None, home: Any, database: str | None) -> str:
        dsn = dsn or os.environ.get("FACTSTORE_DSN") or None
        if dsn is not None:
            _check_dsn(dsn)
        if database is not None:
            server.check_database_name(database)
        if dsn is None:
            admin = server.embedded_admin_dsn(server.factstore_home(home))
            database = database or os.environ.get("FACTSTORE_DATABASE") or "factstore"
        else:
            admin = dsn
        if database:
            server.ensure_database(admin, database)
            return server.with_database(admin, database)
        return dsn

    def close(self) -> None:
        """Release the connections (the embedded server stops when its last user exits)."""
        self._pool.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _master_key(self, create: bool = False) -> bytes:
        """The master key that wraps the scopes' data keys (read on each first use in a
        transaction that meets a sealed row; never kept in the database)."""
        if self._master is None:
            self._master = sealing.load_master_key(self.home, create=create)
        return self._master

    def as_principal(self, principal: Principal) -> Store:
        """This store as ``principal`` sees it: a view sharing the pool, the model and the
        settings, whose every transaction reads only the principal's scopes (Postgres
        row-level security, set per transaction) and writes into them. Cheap: one object."""
        if not isinstance(principal, Principal):
            raise InvalidInput(f"as_principal takes a Principal, got {show(principal)}")
        view = copy.copy(self)
        view.principal = principal
        view.user_id = principal.user
        return view

    @contextmanager
    def _tx(self, write_scope: str | None = None, *, snapshot: bool = False) -> Iterator[Any]:
        """One transaction as the principal (its scopes set for row-level security; rows
        land in ``write_scope``, default its personal scope); psycopg errors become
        FactStoreErrors. ``snapshot``: every statement reads one snapshot (REPEATABLE
        READ), for a read of many statements that concurrent writers must not tear."""
        try:
            with self._pool.connection() as conn, conn.transaction(), conn.cursor() as cur:
                if snapshot:  # must come first: the isolation is fixed at the first query
                    cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                scope = write_scope or self.principal.home
                scoping.enter(cur, self.principal, scope)
                keyring = sealed.Keyring(cur, self._master_key)
                bound = sealed.bind(keyring)
                try:
                    yield cur
                    sealed.finish(cur, keyring)
                finally:
                    sealed.unbind(bound)
        except FactStoreError:
            raise
        except retry.TRANSIENT as exc:
            # Lost a lock race (deadlock, serialization failure): rolled back whole, the
            # database is fine; @retry.retry_transient on the method runs it again.
            raise retry.busy(exc) from exc
        except psycopg.errors.InsufficientPrivilege as exc:
            # row-level security or a table the principal's role may not touch
            raise AccessDenied(f"not permitted for this credential: "
                               f"{exc.diag.message_primary}") from exc
        except psycopg.errors.IntegrityError as exc:
            raise InvalidInput(f"the database refused the write: {exc.diag.message_primary} "
                               f"({exc.diag.constraint_name or exc.sqlstate})") from exc
        except psycopg.DataError as exc:
            # A value Postgres cannot hold (a NUL byte, an out-of-range number): the caller's
            # input, refused whole; the transaction rolled back, so nothing was written.
            raise InvalidInput(f"the database refused a value: {exc.diag.message_primary}; "
                               "check the input for NUL characters or out-of-range values"
                               ) from exc
        except (psycopg.OperationalError, PoolTimeout) as exc:
            raise DatabaseUnavailable(f"lost the database at {server.redact(self._dsn)}: "
                                      f"{exc}") from exc

    # -- the seed's tools -----------------------------------------------------------------

    def describe(self) -> Description:
        """The store's shape: counts by kind and verdict, conflicts, registry, queue, config."""
        with self._tx() as cur:
            cur.execute("SELECT kind, verdict, attribute IS NOT NULL AS timeline, "
                        "count(*) AS n FROM facts GROUP BY 1, 2, 3")
            by_kind: dict[str, dict[str, int]] = {k.value: {} for k in Kind}
            timeline: dict[str, int] = {}
            for row in cur.fetchall():
                if row["timeline"]:
                    timeline[row["verdict"]] = row["n"]
                else:
                    by_kind[row["kind"]][row["verdict"]] = row["n"]
            cur.execute(
                "SELECT (SELECT count(*) FROM documents) AS documents, "
                "(SELECT count(*) FROM conflicts WHERE status = 'open') AS open_conflicts, "
                "(SELECT count(*) FROM tags) AS tags, "
                "(SELECT count(*) FROM candidate_roots WHERE status = 'pending') AS roots, "
                "(SELECT count(*) FROM claims) AS claims, "
                "(SELECT count(*) FROM claims c LEFT JOIN lineages l ON l.access_scope = c.access_scope AND l.lineage = c.lineage "
                " WHERE c.superseded_at IS NULL AND l.removed_at IS NULL "
                " AND c.triage <> 'dropped') AS current_claims, "
                "(SELECT count(*) FROM lineages WHERE removed_at IS NOT NULL) AS removed, "
                "current_setting('server_version') AS server_version, "
                "(SELECT extversion FROM pg_extension WHERE extname = 'vector') AS pgvector, "
                "(SELECT array_agg(version ORDER BY version) FROM schema_migrations) AS versions")
            row = cur.fetchone()
            cur.execute("SELECT status, count(*) AS n FROM open_questions GROUP BY 1")
            questions = {r["status"]: r["n"] for r in cur.fetchall()}
            cur.execute("SELECT name, current_setting(name) AS value FROM unnest(%s::text[]) "
                        "AS name ORDER BY name", (list(SERVER_SETTINGS),))
            server_settings = {r["name"]: r["value"] for r in cur.fetchall()}
        return Description(
            database=server.redact(self._dsn), server_version=row["server_version"],
            pgvector_version=row["pgvector"], schema_versions=tuple(row["versions"]),
            embedder=self.embedder.name, embedding_dim=self.embedder.dim,
            extractor=self.extractor.name, facts_by_kind_verdict=by_kind,
            documents=row["documents"], open_conflicts=row["open_conflicts"], tags=row["tags"],
            pending_candidate_roots=row["roots"], open_questions=questions,
            settings=self.settings.as_dict(), tools=TOOLS, server_settings=server_settings,
            claims=row["claims"], current_claims=row["current_claims"],
            removed_sources=row["removed"], timeline_facts_by_verdict=timeline)

    def remember(self, text: str, *, source_type: str = "utterance",
                 source_ref: str | None = None, said_at: datetime | str | None = None,
                 captured_by: str | None = None,
                 captured_at: datetime | str | None = None,
                 compile: bool = True) -> RememberResult:
        """Run one capture through the write path; returns every fact's outcome.

        The capture lands in the documents layer exactly once per source lineage, whatever
        it yields. ``captured_at`` (default now) lets a backfill keep original capture times.
        The compiler reads its property statements into timelines unless ``compile`` is
        False (the caller wrote the capture's timeline facts itself: a note's facts array).
        """
        check_flag("compile", compile)
        capture, prepared = self._capture_of(text, source_type=source_type,
                                             source_ref=source_ref, said_at=said_at,
                                             captured_by=captured_by, captured_at=captured_at,
                                             compile=compile)
        statements = [f.statement for f in prepared.facts]
        # The model reads a text's first few hundred tokens; tokenising a 1 MB capture whole
        # only to cut it there took seconds, so it is given the head it reads. And apart from
        # the statements: in one batch with them, every short statement was padded to the
        # capture's 256 tokens (7x the work for a capture of 145 sentences).
        vectors = np.concatenate([self._embed([capture.text[:remember_sql.DOC_EMBED_CHARS]])]
                                 + ([self._embed(statements)] if statements else []))
        return self._write_capture(capture, prepared, vectors)

    def _capture_of(self, text: str, *, source_type: str = "utterance",
                    source_ref: str | None = None, said_at: datetime | str | None = None,
                    captured_by: str | None = None, captured_at: datetime | str | None = None,
                    extract: bool = True, batch: bool = False, compile: bool = True
                    ) -> tuple[remember_sql.Capture, Any]:
        """A capture checked, redacted and (unless ``extract`` is False: then None)
        extracted and compiled: everything before its embedding. A ``batch`` row that says
        neither when it was said nor when it was captured has no time of its own: the
        compiler refuses to date its statements by the day of the run (seed 002 §9)."""
        checked = check_capture(text, source_type=source_type, source_ref=source_ref,
                                said_at=said_at, captured_by=captured_by,
                                captured_at=captured_at)
        kind_of_source, said = checked.source_type, checked.said_at
        captured = checked.captured_at or _now()
        # Secrets out before anything reads the capture: extraction, embedding, storage.
        text, secrets = redact(text)
        source_ref, ref_secrets = redact_text(source_ref, MAX_REF)
        captured_by, by_secrets = redact_text(captured_by, MAX_REF)
        secrets = tuple(sorted({*secrets, *ref_secrets, *by_secrets}))
        context = ExtractionContext(kind_of_source, source_ref, said, captured_by)
        prepared = (prepare_capture(text, context, self.extractor, self.settings)
                    if extract else None)
        timed = said or (checked.captured_at if batch else captured)
        if prepared is not None and self.compiler is not None and compile and \
                not prepared.gate.is_index_page:
            existing = (self._existing_for(text, prepared)
                        if getattr(self.compiler, "wants_existing", False) else ())
            prepared = dataclasses.replace(
                prepared, compilation=self.compiler.compile(text, timed or captured, existing))
        capture = remember_sql.Capture(text, kind_of_source, source_ref, said, captured_by,
                                       captured, scribe=getattr(self.extractor, "name", None),
                                       redacted=secrets, compile_time=timed)
        return capture, prepared

    def _existing_for(self, text: str, prepared: Any) -> list[Any]:
        """What a model compiler is shown before its call: the current timeline facts of
        the owner, the capture's speakers, their groups and the names its facts mention."""
        me = resolve_me("me", self.user_id)
        speakers = {t.speaker for t in split_turns(text) if t.speaker}
        names = {m.name for f in prepared.facts for m in f.mentions} | speakers
        with self._tx() as cur:
            subjects = {me, me + "-group"}
            for name in sorted(names):
                for found in entity_sql.find(cur, name):
                    cur.execute("SELECT timeline_subject FROM entities WHERE id = %s",
                                (found,))
                    row = cur.fetchone()
                    if row and row["timeline_subject"]:
                        subjects |= {row["timeline_subject"],
                                     row["timeline_subject"] + "-group"}
            return compiling.existing_for(cur, sorted(subjects))

    @retry.retry_transient
    def _write_capture(self, capture: remember_sql.Capture, prepared: Any,
                       vectors: Any, *, wait_for_disk: bool = True) -> RememberResult:
        # Only the transaction is retried: extraction (perhaps a model call) and the
        # embedding ran once, and the write is the same whichever attempt lands it.
        with self._tx() as cur:
            if not wait_for_disk:  # a bulk call: made durable once, at its end (_flush)
                cur.execute("SET LOCAL synchronous_commit = off")
            return remember_sql.write_capture(cur, capture, prepared, vectors[0], vectors[1:],
                                              self.settings, self._path_exists, self.resolver,
                                              owner=resolve_me("me", self.user_id))

    def recall(self, query: str, *, k: int | None = None,
               now: datetime | str | None = None) -> RecallResult:
        """Ranked, labeled recall of retrievable facts, falling through to documents if thin.

        ``now`` (default the current time) is the moment staleness is judged at.
        """
        check_text("the recall query", query, limit=MAX_QUERY)
        k = check_count("k", self.settings.recall_k if k is None else k, 1, 1000)
        vector = self._embed([query])[0]
        when = check_instant("now", now) or _now()
        # One snapshot: a fact superseded by a concurrent write between two of recall's
        # statements would otherwise be read as a candidate and then as superseded.
        with self._tx(snapshot=True) as cur:
            result, found = recall_sql.recall(cur, query, vector, k, self.settings, when)
            keys = self._timeline_keys(cur, query, when, found=found)
        if not keys:
            return result
        return dataclasses.replace(result, timelines=tuple(k.line for k in keys),
                                   answers=tuple(keys))

    @retry.retry_transient
    def resolve_conflict(self, conflict_id: int, winner_id: int, reasoning: str) -> Conflict:
        """Close a genuine either/or: the winner returns to active, the loser is superseded."""
        check_id("conflict_id", conflict_id)
        check_id("winner_id", winner_id)
        reasoning = _note("reasoning", reasoning)
        with self._tx() as cur:
            return conflict_sql.resolve(cur, conflict_id, winner_id, reasoning, _now(),
                                        settings=self.settings)

    @retry.retry_transient
    def resolve_both_stand(self, conflict_id: int, reasoning: str) -> Conflict:
        """Close a false-fired pair: both true, both active, neither superseded."""
        check_id("conflict_id", conflict_id)
        reasoning = _note("reasoning", reasoning)
        with self._tx() as cur:
            return conflict_sql.both_stand(cur, conflict_id, reasoning, _now())

    def open_conflicts(self) -> ConflictList:
        """Every unresolved head-to-head, oldest first."""
        with self._tx() as cur:
            return conflict_sql.list_conflicts(cur, "open")

    def registry_query(self, topic: str) -> RegistryQueryResult:
        """How a free-text topic resolves, and the tags that mention it."""
        check_text("topic", topic, limit=MAX_TAG)
        with self._tx() as cur:
            return tag_sql.query(cur, topic)

    @retry.retry_transient
    def registry_add_leaf(self, tag: str, description: str | None = None) -> LeafResult:
        """Mint a dotted leaf under an existing parent (refuses roots and orphans)."""
        tag = _tag_name("tag", tag)
        description = _note("description", description, required=False)
        with self._tx() as cur:
            return tag_sql.add_leaf(cur, tag, description, _now())

    @retry.retry_transient
    def registry_propose_root(self, tag: str, description: str | None = None) -> CandidateRoot:
        """Queue a new root for a person's approval; roots are never created directly."""
        tag = _tag_name("tag", tag)
        description = _note("description", description, required=False)
        with self._tx() as cur:
            return tag_sql.propose_root(cur, tag, description, _now())

    def open_questions(self, status: str | None = None) -> QuestionQueue:
        """The store's own triage queue of gaps, each with its computed recommendation."""
        check_choice("status", status, STATUSES, required=False)
        with self._tx() as cur:
            return question_sql.list_questions(cur, status)

    @retry.retry_transient
    def update_open_question(self, question_id: int, *, status: str | None = None,
                             risk: str | None = None, cost: str | None = None,
                             note: str | None = None,
                             recorded_by: str | None = None) -> OpenQuestion:
        """Re-weigh an entry and/or append evidence to it (evidence is never rewritten)."""
        check_id("question_id", question_id)
        check_choice("status", status, STATUSES, required=False)
        check_choice("risk", risk, LEVELS, required=False)
        check_choice("cost", cost, LEVELS, required=False)
        note = _note("note", note, required=False)
        recorded_by = _note("recorded_by", recorded_by, required=False, limit=MAX_REF)
        with self._tx() as cur:
            return question_sql.update(cur, question_id, status=status, risk=risk, cost=cost,
                                       note=note, recorded_by=recorded_by, at=_now())

    # -- beyond the seed's nine: the person's side of governance, reads ------------------

    @retry.retry_transient
    def add_open_question(self, title: str, body: str, *, risk: str, cost: str) -> OpenQuestion:
        """File a new gap; it starts in the status its risk and cost recommend."""
        title = _note("title", title, limit=MAX_REF)
        body = _note("body", body)
        check_choice("risk", risk, LEVELS)
        check_choice("cost", cost, LEVELS)
        with self._tx() as cur:
            return question_sql.add(cur, title, body, risk, cost, _now())

    def registry_candidates(self, status: str | None = "pending") -> list[CandidateRoot]:
        """Candidate roots awaiting (or past) a person's decision."""
        check_choice("status", status, ("pending", "approved", "rejected"), required=False)
        with self._tx() as cur:
            return tag_sql.candidates(cur, status)

    @retry.retry_transient
    def registry_approve_root(self, tag: str, reason: str | None = None) -> CandidateRoot:
        """A person approves a candidate root: it becomes a root tag; its facts carry it."""
        tag = _tag_name("tag", tag)
        reason = _note("reason", reason, required=False)
        with self._tx() as cur:
            return tag_sql.decide_root(cur, tag, True, reason, _now())

    @retry.retry_transient
    def registry_reject_root(self, tag: str, reason: str | None = None) -> CandidateRoot:
        """A person rejects a candidate root; it stays in the queue as rejected."""
        tag = _tag_name("tag", tag)
        reason = _note("reason", reason, required=False)
        with self._tx() as cur:
            return tag_sql.decide_root(cur, tag, False, reason, _now())

    @retry.retry_transient
    def registry_add_alias(self, alias: str, tag: str) -> TagInfo:
        """Map a free-text spelling to a canonical tag (never repoints an existing alias)."""
        alias = _tag_name("alias", alias)
        tag = _tag_name("tag", tag)
        with self._tx() as cur:
            return tag_sql.add_alias(cur, alias, tag, _now())

    @retry.retry_transient
    def registry_set_lifetime(self, tag: str, lifetime: str | timedelta | None) -> TagInfo:
        """Give a tag a default STATE lifetime ('2d'), or clear it with None."""
        tag = _tag_name("tag", tag)
        parsed = None if lifetime is None else parse_lifetime(lifetime)
        with self._tx() as cur:
            return tag_sql.set_lifetime(cur, tag, parsed)

    def registry_tags(self) -> list[TagInfo]:
        """The whole registry, sorted by tag."""
        with self._tx() as cur:
            return tag_sql.tag_info(cur)

    def conflicts(self, status: str | None = None) -> ConflictList:
        """Conflicts by status ('open', 'resolved' or None for all)."""
        check_choice("status", status, ("open", "resolved"), required=False)
        with self._tx() as cur:
            return conflict_sql.list_conflicts(cur, status)

    def conflict(self, conflict_id: int) -> Conflict:
        """One conflict by id."""
        check_id("conflict_id", conflict_id)
        with self._tx() as cur:
            return conflict_sql.get(cur, conflict_id)

    def fact(self, fact_id: int) -> Fact:
        """One fact by id, whatever its verdict."""
        with self._tx() as cur:
            found = fetch_fact(cur, _fact_id(fact_id))
        if found is None:
            raise FactNotFound(f"no fact #{fact_id}")
        return found

    def history(self, fact_id: int) -> list[HistoryEntry]:
        """Every verdict transition of one fact, oldest first."""
        with self._tx() as cur:
            if fetch_fact(cur, _fact_id(fact_id)) is None:
                raise FactNotFound(f"no fact #{fact_id}")
            # id order is the order the transitions committed in; two writers' clocks (taken
            # before one waited for the other's lock) need not agree with it
            cur.execute("SELECT * FROM fact_history WHERE fact_id = %s ORDER BY id",
                        (fact_id,))
            return [HistoryEntry(r["fact_id"], r["from_verdict"], r["to_verdict"], r["reason"],
                                 r["conflict_id"], r["at"], r["reason_code"],
                                 r["lineage_event"]) for r in cur.fetchall()]

    def chain(self, fact_id: int) -> SupersessionChain:
        """The supersession chain a fact is part of, oldest first: what it replaced and
        what replaced it (a revised preference's history; recall serves only the newest)."""
        with self._tx() as cur:
            start = _fact_id(fact_id)
            if fetch_fact(cur, start) is None:
                raise FactNotFound(f"no fact #{fact_id}")
            # both directions in one recursive walk; the cycle guard is belt and braces
            cur.execute(
                "WITH RECURSIVE back(id, depth) AS (SELECT %(id)s::bigint, 0 UNION SELECT "
                "f.supersedes, b.depth - 1 FROM facts f JOIN back b ON f.id = b.id WHERE "
                "f.supersedes IS NOT NULL AND b.depth > -10000), fwd(id, depth) AS (SELECT "
                "%(id)s::bigint, 0 UNION SELECT f.superseded_by, w.depth + 1 FROM facts f "
                "JOIN fwd w ON f.id = w.id WHERE f.superseded_by IS NOT NULL AND w.depth < "
                "10000) SELECT id, min(depth) AS depth FROM (SELECT * FROM back UNION ALL "
                "SELECT * FROM fwd) x GROUP BY id ORDER BY min(depth), id", {"id": start})
            ids = [r["id"] for r in cur.fetchall()]
            found = fetch_facts(cur, ids)
        facts = tuple(found[i] for i in ids if i in found)
        live = [f for f in facts if f.verdict in (Verdict.ACTIVE, Verdict.PARKED)]
        return SupersessionChain(facts, live[-1].id if live else None)

    def facts_by_verdict(self, *verdicts: str, kind: str | None = None,
                         limit: int = 500) -> list[Fact]:
        """Facts with the given verdicts (all when none given), newest first."""
        names = tuple(v.value for v in Verdict)
        wanted = [check_choice("verdict", v, names) for v in verdicts] or list(names)
        if kind is not None:
            check_text("kind", kind, limit=32)
        kinds = [parse_kind(kind).value] if kind is not None else [k.value for k in Kind]
        check_count("limit", limit, 1, 100_000)
        with self._tx() as cur:
            cur.execute("SELECT id FROM facts WHERE verdict = ANY(%s) AND kind = ANY(%s) "
                        "ORDER BY id DESC LIMIT %s", (wanted, kinds, limit))
            ids = [r["id"] for r in cur.fetchall()]
            found = fetch_facts(cur, ids)
        return [found[i] for i in ids]

    def import_facts(self, records: list[FactRecord], *, embeddings: Any | None = None,
                     chunk_size: int = IMPORT_CHUNK) -> list[int]:
        """Bulk-load already-adjudicated facts (another store's export); returns their ids.

        Extraction and triage are skipped because the source store already adjudicated
        them; provenance, verdict and history are kept. Every record is validated first and
        any problem rejects the whole import, nothing written. ``embeddings`` (n x dim) may
        be supplied when the exporter already holds vectors from this store's embedder.

        The records commit ``chunk_size`` at a time, each chunk whole or not at all, and
        each record lands once by its import key (``FactRecord.key``, else a digest of what
        it says and where it came from): a re-run, or a resume after a crash, writes only
        what is missing and returns the same ids.

        Each chunk is written set-based (binary COPY). A chunk large next to an HNSW index it
        lands in drops that index, loads, and builds it again inside the chunk's transaction
        (store/index_plan.py; settings ``import_rebuild_fraction`` and
        ``import_rebuild_min_rows``); it then holds ACCESS EXCLUSIVE on the table until it
        commits. A big first load wants a big ``chunk_size`` (up to 1,000,000): its indexes
        are then built once instead of row by row. ``last_import`` reports what the call did.
        """
        self._owner_only("a bulk import (binary COPY, which row-level security forbids)")
        started = time.perf_counter()
        check_count("chunk_size", chunk_size, 1, MAX_IMPORT_CHUNK)
        if not isinstance(records, list | tuple):
            raise InvalidInput(f"import_facts takes a list of FactRecord, got {show(records)}")
        records = list(records)
        problems = [p for i, r in enumerate(records) for p in check_record(i, r)]
        if problems:
            raise InvalidInput(f"{len(problems)} problem(s) in the import, nothing written: "
                               + "; ".join(problems[:20]))
        report = self.last_import = import_sql.ImportReport()
        if not records:
            return []
        # Another store's export may carry secrets its own write path let through.
        records = [redact_record(r)[0] for r in records]
        if embeddings is None:
            vectors = self._embed([r.statement for r in records])
            doc_vectors = self._embed([r.quote for r in records])
        else:
            vectors = np.asarray(embeddings, dtype=np.float32)
            if vectors.shape != (len(records), self.embedder.dim):
                raise InvalidInput(f"embeddings have shape {vectors.shape}; expected "
                                   f"({len(records)}, {self.embedder.dim})")
            if not np.isfinite(vectors).all():
                # refused here, whole, rather than by the server part way through the chunks
                raise InvalidInput("embeddings must be finite numbers (found NaN or infinity)")
            doc_vectors = vectors
        prepared = import_sql.prepare(records)  # keys, lineages, subjects: once, not per retry
        report.prepare_seconds = time.perf_counter() - started
        ids: list[int] = []
        for start in range(0, len(records), chunk_size):
            end = start + chunk_size
            chunk = self._import_chunk(prepared[start:end], vectors[start:end],
                                       doc_vectors[start:end])
            report.add(chunk)
            ids += chunk.ids
        report.seconds = time.perf_counter() - started
        return ids

    @retry.retry_transient
    def _import_chunk(self, prepared: list[import_sql.Prepared], vectors: Any,
                      doc_vectors: Any) -> import_sql.ChunkReport:
        started = time.perf_counter()
        with self._tx() as cur:
            chunk = import_sql.import_facts(cur, prepared, vectors, doc_vectors, _now(),
                                            self.settings)
        # the chunk's whole transaction, its commit included, apart from the index builds
        chunk.load_seconds = time.perf_counter() - started - chunk.build_seconds
        return chunk

    # -- internals -----------------------------------------------------------------------

    def _embed(self, texts: list[str]) -> Any:
        vectors = self.embedder.embed(texts)
        if getattr(vectors, "shape", None) != (len(texts), self.embedder.dim):
            raise EmbedderError(
                f"embedder {self.embedder.name} returned shape {getattr(vectors, 'shape', None)} "
                f"for {len(texts)} texts; expected ({len(texts)}, {self.embedder.dim})")
        return vectors


def _migrate_and_check(dsn: str, embedder: Embedder) -> None:
    """Apply the schema for this embedder's dimension, or refuse a mismatched embedder."""
    try:
        with psycopg.connect(dsn, autocommit=True) as conn:
            recorded = _recorded_embedder(conn)
            if recorded.get("embedding_dim") not in (None, str(embedder.dim)):
                raise EmbedderMismatch(
                    f"this store's vectors are {recorded['embedding_dim']}-d "
                    f"({recorded.get('embedder_name', 'unknown embedder')}); {embedder.name} makes "
                    f"{embedder.dim}-d vectors. Open it with the embedder that built it, or use "
                    "another database for this embedder")
            if not conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'"
                                ).fetchone():
                raise SchemaError("the pgvector extension is not installed on this server; "
                                  "install pgvector 0.5 or newer")
            apply_migrations(conn, embedder.dim)
            read_unread_subjects(conn)
            attribute_sql.seed(conn, _now())
            with conn.transaction():
                conn.execute("INSERT INTO store_meta (key, value) VALUES ('embedder_name', %s) "
                             "ON CONFLICT (key) DO NOTHING", (embedder.name,))
                name = conn.execute("SELECT value FROM store_meta WHERE key = 'embedder_name'"
                                    ).fetchone()[0]
            if name != embedder.name:
                raise EmbedderMismatch(
                    f"this store's vectors were built by {name}; refusing to mix in "
                    f"{embedder.name}. Open it with {name}, or use another database")
    except psycopg.errors.InsufficientPrivilege as exc:
        raise PermissionDenied(
            f"the role in {server.redact(dsn)} may not set up the store "
            f"({exc.diag.message_primary}); run the first open as a role that may create the "
            "vector extension and tables, or grant them") from exc
    except psycopg.OperationalError as exc:
        raise DatabaseUnavailable(f"could not connect to {server.redact(dsn)}: {exc}") from exc


def _check_dsn(dsn: object) -> None:
    """A libpq connection string or URI, else InvalidInput (not psycopg's ProgrammingError)."""
    check_text("the DSN", dsn, limit=MAX_NOTE)
    try:
        conninfo_to_dict(dsn)  # type: ignore[arg-type]
    except psycopg.ProgrammingError:
        # libpq's own message can quote the string, password and all: not repeated here
        raise InvalidInput("the DSN (--dsn or FACTSTORE_DSN) is not a Postgres connection "
                           "string libpq can parse; write e.g. "
                           "postgresql://user@host:5432/dbname or 'host=... dbname=...'"
                           ) from None


def _recorded_embedder(conn: psycopg.Connection) -> dict[str, str]:
    exists = conn.execute("SELECT to_regclass('store_meta') IS NOT NULL").fetchone()[0]
    if not exists:
        return {}
    return dict(conn.execute("SELECT key, value FROM store_meta").fetchall())


def _now() -> datetime:
    return datetime.now(UTC)


def _fact_id(value: object) -> int:
    return check_id("fact_id", value)


def _note(name: str, value: object, *, required: bool = True,
          limit: int = MAX_NOTE) -> str | None:
    """Free text a person writes (a reason, a note, a title): checked, trimmed, redacted and
    kept within its limit."""
    text = check_text(name, value, limit=limit, required=required)
    return None if text is None else redact_text(text.strip(), limit)[0]


def _tag_name(name: str, value: object) -> str:
    """A tag or alias name: text, and never a secret (a tag is a public label; a secret-shaped
    one is refused, not stored redacted)."""
    text = check_text(name, value, limit=MAX_TAG)
    kinds = redact(text)[1]
    if kinds:
        raise InvalidInput(f"{name} looks like a secret ({', '.join(kinds)}); tags and aliases "
                           "are public names, so it was not stored")
    return text
