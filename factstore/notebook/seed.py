"""A small demo store for the notebooks, written through the public API only.

A notebook that finds an empty store calls :func:`ensure_demo_store`, which writes:

- timelines (``write_facts`` with ``now=``, so the store *learned* them on different days):
  a project's status over a year, with a correction learned later and one retracted
  reading; a person's employer; a disputed owner (two sources, the same start, two values);
  a many-valued key;
- captures through ``remember`` with the store's own extractor (the seed document's seven
  examples, a newer reading, a contradiction that opens a head-to-head conflict);
- a candidate root waiting for approval and an open question with evidence;
- a small archive migrated with ``factstore.migration.migrate_archive``: an ops chat over
  four weeks (two rows of it malformed, so the rejects show).

:func:`ensure_eval_runs` records conflict-precision runs at three density thresholds (the
eval's own dataset, the store's embedder) when fewer are recorded, appending their evidence to
the open-questions queue. Everything it writes is real output of the store and the evals.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from factstore.demo import CONTRADICTION, NEWER_READING, SEED_EXAMPLES

__all__ = ["SWEEP_THRESHOLDS", "SeedReport", "ensure_demo_store", "ensure_eval_runs"]

#: the density thresholds ensure_eval_runs records, in this order (the default first)
SWEEP_THRESHOLDS = (0.80, 0.86, 0.70)
_SESSION = "notebook-demo"


@dataclass(frozen=True)
class SeedReport:
    """What ensure_demo_store found or wrote; ``message`` is the notebook's first output."""

    seeded: bool
    message: str
    facts: int
    documents: int


def _counts(store: Any) -> tuple[int, int]:
    described = store.describe()
    facts = sum(n for by_verdict in described.facts_by_kind_verdict.values()
                for n in by_verdict.values())
    return facts, described.documents


def ensure_demo_store(store: Any, *, today: datetime | None = None) -> SeedReport:
    """Seed ``store`` when it holds no fact and no document; otherwise leave it alone."""
    facts, documents = _counts(store)
    if facts or documents:
        return SeedReport(False, f"Using your store: {facts:,} facts, {documents:,} documents "
                                 "(nothing was seeded).", facts, documents)
    today = (today or datetime.now(UTC)).astimezone(UTC)
    _timelines(store, today)
    _captures(store)
    _governance(store)
    _archive(store, today)
    facts, documents = _counts(store)
    return SeedReport(True, f"The store was empty, so a small demo store was seeded through "
                            f"the public API: {facts:,} facts, {documents:,} documents. "
                            "Point FACTSTORE_HOME or FACTSTORE_DSN at your own store to "
                            "explore it instead.", facts, documents)


# -- timelines -------------------------------------------------------------------------------


def _fact(subject: str, attribute: str, value: str, valid_from: str, observed: datetime,
          source: str, quote: str, **extra: Any) -> dict[str, Any]:
    return {"subject": subject, "attribute": attribute, "value": value,
            "valid_from": valid_from, "observed_at": observed.isoformat(), "source": source,
            "quote": quote, **extra}


def _timelines(store: Any, today: datetime) -> None:
    day = lambda n: today - timedelta(days=n)  # noqa: E731 - a local shorthand
    month = lambda n: f"{day(n):%Y-%m}"  # noqa: E731 - a partial date, n days back
    date = lambda n: f"{day(n):%Y-%m-%d}"  # noqa: E731
    # Learned 60 days ago: the project's early history, an employer, a disputed owner.
    first = day(60)
    store.write_facts({"format": 1, "shared": True, "facts": [
        _fact("project/atlas", "status", "planning", month(330), first, "standup:jan",
              "atlas is still in planning"),
        _fact("project/atlas", "status", "building", month(270), first, "standup:mar",
              "atlas moved into the build phase"),
        _fact("project/atlas", "owner", "maria", date(200), first, "roster:may",
              "maria owns atlas from the first"),
        _fact("project/atlas", "owner", "sam", date(200), first, "email:may",
              "sam takes atlas over from the first"),
        _fact("person/nick", "employer", "Acme", f"{day(1100):%Y}", first, "profile:2023",
              "Nick works at Acme"),
        _fact("person/nick", "team", "platform", month(420), first, "org-chart",
              "Nick is on the platform team", cardinality="many"),
    ]}, now=first)
    # Learned 30 days ago: a pause (later retracted), a move, a second team.
    second = day(30)
    paused = store.write_facts({"format": 1, "shared": True, "facts": [
        _fact("project/atlas", "status", "paused", date(160), second, "standup:jun",
              "atlas is paused until the vendor answers"),
        _fact("person/nick", "employer", "Globex", month(240), second, "profile:2025",
              "Nick joined Globex last April"),
        _fact("person/nick", "team", "search", month(330), second, "org-chart",
              "Nick also joined search this year", cardinality="many"),
    ]}, now=second).facts[0].id
    # Learned 7 days ago: the pause was a misreading; the project shipped.
    third = day(7)
    store.retract(paused, reason="the June standup notes were about another project",
                  now=third)
    store.write_facts({"format": 1, "shared": True, "facts": [
        _fact("project/atlas", "status", "shipped", date(70), third, "release-notes",
              "atlas shipped this quarter"),
        _fact("project/atlas", "latency_p99", "180", date(60), third, "dashboard",
              "p99 has been 180 ms since the release", unit="ms"),
    ]}, now=third)


# -- captures and governance -----------------------------------------------------------------


def _captures(store: Any) -> None:
    for turn, (_kind, quote) in enumerate(SEED_EXAMPLES):
        store.remember(quote, source_ref=f"{_SESSION}#turn-{turn}")
    turn = len(SEED_EXAMPLES)
    store.remember(NEWER_READING, source_ref=f"{_SESSION}#turn-{turn}")
    store.remember(CONTRADICTION, source_ref=f"{_SESSION}#turn-{turn + 1}")


def _governance(store: Any) -> None:
    store.registry_propose_root("atlas", "Project Atlas: status, owners and releases")
    store.registry_propose_root("vendor", "Outside vendors the team waits on")
    question = store.add_open_question(
        "Who owns the Atlas rollout?",
        "Two sources name different owners from the same day; the timeline keeps both as "
        "disputed until a person settles it.", risk="high", cost="low")
    store.update_open_question(question.id, note="roster:may says maria, email:may says sam",
                               recorded_by="notebook seed")


# -- the archive -----------------------------------------------------------------------------

_SERVICES = ("payments-api", "search-indexer", "auth-gateway", "billing-worker")
_STATES = ("green", "degraded", "green", "red", "green")


def _chat_rows(today: datetime) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for n in range(28):
        when = today - timedelta(days=28 - n, hours=n % 5)
        service = _SERVICES[n % len(_SERVICES)]
        state = _STATES[n % len(_STATES)]
        rows.append({"text": f"{service} is {state} right now", "said_at": when.isoformat(),
                     "source_ref": f"ops-chat#{n}", "captured_by": "ops-bot"})
        if n % 7 == 3:
            rows.append({"text": f"from now on, every {service} deploy waits for a green canary",
                         "said_at": when.isoformat(), "source_ref": f"ops-chat#{n}-rule",
                         "captured_by": "ops-bot"})
        if n % 9 == 4:
            rows.append({"text": f"we decided to move {service} to the new cluster, that's final",
                         "said_at": when.isoformat(), "source_ref": f"ops-chat#{n}-decision",
                         "captured_by": "ops-bot"})
    rows.append({"text": "", "said_at": today.isoformat(), "source_ref": "ops-chat#empty"})
    rows.append({"text": "billing-worker is green", "said_at": "not a time",
                 "source_ref": "ops-chat#bad-time"})
    return rows


def _archive(store: Any, today: datetime) -> None:
    from factstore.migration import migrate_archive

    with tempfile.TemporaryDirectory(prefix="factstore-seed-") as folder:
        chat = Path(folder) / "ops-chat.jsonl"
        chat.write_text("".join(json.dumps(r) + "\n" for r in _chat_rows(today)),
                        encoding="utf-8")
        migrate_archive(store, chat, name="ops-chat")


# -- eval runs -------------------------------------------------------------------------------


class _Borrowed:
    """The notebook's store lent to the harness as its evidence store: the harness closes
    what it is given, and the notebook keeps using its own."""

    def __init__(self, store: Any) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def close(self) -> None:
        pass


def ensure_eval_runs(store: Any, *, eval_name: str = "conflict-precision",
                     thresholds: Sequence[float] = SWEEP_THRESHOLDS, minimum: int = 2,
                     home: str | os.PathLike[str] | None = None) -> list[str]:
    """Record runs of ``eval_name`` at each of ``thresholds`` when fewer than ``minimum`` are
    recorded; returns the ids of the runs it recorded (none when enough exist)."""
    from evals.compare import list_runs
    from evals.harness import run_eval

    if len(list_runs(home, eval_name)) >= minimum:
        return []
    made = []
    for threshold in thresholds:
        record, _ = run_eval(eval_name, extractor=store.extractor, embedder=store.embedder,
                             settings=replace(store.settings, density_threshold=threshold),
                             record=True, store_factory=lambda: _Borrowed(store), home=home)
        made.append(record.run_id)
    return made
