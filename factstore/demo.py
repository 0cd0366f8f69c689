"""``factstore demo``: the seed's story told against a real store, checked as it goes.

It remembers the seven synthetic examples of seed 000 §2 (one per kind), revises the STATE
with a newer reading of the same service, takes a reworded restatement as new testimony,
raises a lane-3 conflict with a contradicting REFERENCE, shows recall serving both contested
sides, resolves the head-to-head, then prints labeled recall and the open-questions queue. Every step checks
what the store actually did and raises ``DemoFailed`` if it did not happen, so ``make demo``
is a real end-to-end check rather than a slideshow.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

from factstore.cli import (
    render_conflict,
    render_questions,
    render_recall,
    render_remember,
)
from factstore.kinds import Kind, Verdict
from factstore.results import Conflict, Interrupt, OpenQuestion, RecallResult
from factstore.store import Store, server

__all__ = ["CONTRADICTION", "NEWER_READING", "RESTATEMENT", "SEED_EXAMPLES", "DemoFailed",
           "DemoReport", "reset_demo_database", "run_demo"]

#: The seed's synthetic examples (§2): the verbatim evidence quote and the kind it must yield.
SEED_EXAMPLES: tuple[tuple[Kind, str], ...] = (
    (Kind.DECISION, "everything goes through staging first, no exceptions, that's final"),
    (Kind.RULE, "from now on, repro test first, then the fix — no exceptions"),
    (Kind.STATE, "sample-svc is green right now"),
    (Kind.PREFERENCE, "I can't stand light-mode editors"),
    (Kind.REFERENCE, r"the runner token lives at C:\ops\sample\runner.env"),
    (Kind.RESIDUAL, "we'll live with the UTF-16 gap until a non-UTF-8 feed shows up"),
    (Kind.EVENT, "migrated all 214 pages. Checksum parity verified (214 == 214), link sweep "
                 "found zero broken links"),
)
#: A newer reading of the STATE example's service: same subject, a changed status, so the
#: revision lane replaces the older reading (no interrupt: a STATE perishes).
NEWER_READING = "sample-svc is red right now"
#: The same reading reworded: no detected difference, so new testimony, never a conflict.
RESTATEMENT = "sample-svc is currently red"
#: Contradicts the REFERENCE example: same subject, another path. Neither path exists on this
#: machine, so the filesystem cannot decide (lane 2 falls through) and it lands in lane 3.
CONTRADICTION = r"the runner token lives at C:\ops\legacy\runner.env"
CONTESTED_QUESTION = "where is the runner token stored?"
RESOLUTION_REASONING = ("the legacy path was retired last quarter; the sample path is the one "
                        "the runner reads")
#: (question, the label code or answering layer the demo expects to see, what it shows)
LABELED_QUESTIONS: tuple[tuple[str, str, str], ...] = (
    ("does everything go through staging first?", "active",
     "an active DECISION serves as present-tense truth"),
    ("were all 214 pages migrated?", "event",
     "an EVENT is history: never present tense"),
    ("what do we do before fixing a bug?", "weak-match",
     "a weak match is labeled so, never believed current, and comes with the capture it "
     "was read from"),
    ("who owns the billing database?", "layer:none",
     "nothing relevant: the store says so instead of guessing"),
)

#: Each capture is its own turn of one demo session: distinct refs, so distinct lineages
#: (one shared ref would make every capture a new version of the same document).
_SESSION = "demo-session"


class DemoFailed(RuntimeError):
    """An expected step of the demo did not happen: the store behaves unlike the seed."""


@dataclass(frozen=True)
class DemoReport:
    """What the demo did, for callers (tests, --json) that check it programmatically."""

    fact_ids: dict[str, int]
    interrupt: Interrupt
    contested_recall: RecallResult
    resolved: Conflict
    recalls: tuple[RecallResult, ...]
    questions: tuple[OpenQuestion, ...]


def reset_demo_database(dsn: str | None, home: str | os.PathLike[str] | Path | None,
                        database: str) -> None:
    """Drop and recreate the demo's database, so every run starts from nothing.

    With ``dsn`` (or ``$FACTSTORE_DSN``) that server is used, else the embedded one under
    ``home``; the database itself is created again by ``Store.open``.
    """
    dsn = dsn or os.environ.get("FACTSTORE_DSN") or None
    admin = dsn or server.embedded_admin_dsn(server.factstore_home(home))
    # ensure first: it reports an unreachable server as a FactStoreError (clean CLI error);
    # then the drop (WITH FORCE) is known to reach a live server.
    server.ensure_database(admin, database)
    server.drop_database(admin, database)
    server.ensure_database(admin, database)


def _check(condition: bool, message: str) -> None:
    if not condition:
        raise DemoFailed(message)


def _step(console: Console, title: str) -> None:
    console.print()
    console.print(Rule(f"[bold]{escape(title)}[/bold]", align="left"))


def run_demo(store: Store, console: Console) -> DemoReport:
    """Tell the seed's story on an empty store, checking each step; returns what happened.

    Expects the rule extractor and the local embedder (the thresholds the contradiction was
    chosen against). Raises ``DemoFailed`` the moment the store does something unexpected.
    """
    described = store.describe()
    existing = sum(n for counts in described.facts_by_kind_verdict.values()
                   for n in counts.values())
    _check(existing == 0 and described.documents == 0,
           f"the demo needs an empty store; this one already holds {existing} facts and "
           f"{described.documents} documents")
    console.print(escape(f"factstore demo on {described.database}\n"
                         f"embedder {described.embedder}, extractor {described.extractor}, "
                         f"density threshold {store.settings.density_threshold}"))

    # (a) the seven kinds, one synthetic example each.
    _step(console, "1. remember the seed's seven synthetic examples (one per kind)")
    fact_ids: dict[str, int] = {}
    for turn, (kind, text) in enumerate(SEED_EXAMPLES, 1):
        console.print(f"\n[bold]remember[/bold] {escape(repr(text))}")
        result = store.remember(text, source_ref=f"{_SESSION}#turn-{turn}")
        render_remember(console, result)
        kinds = [o.fact.kind for o in result.outcomes]
        _check(kinds == [kind], f"expected exactly one {kind.value} fact from {text!r}, got "
                                f"{[k.value for k in kinds]} (dropped: {list(result.dropped)})")
        outcome = result.outcomes[0]
        _check(outcome.outcome == "written" and outcome.fact.verdict is Verdict.ACTIVE,
               f"the {kind.value} example should be written active, got {outcome.outcome} / "
               f"{outcome.fact.verdict.value}")
        _check(not result.interrupts, f"the {kind.value} example raised an unexpected "
                                      f"conflict: {result.interrupts}")
        fact_ids[kind.value] = outcome.fact.id
    event = store.fact(fact_ids[Kind.EVENT.value])
    _check(bool(event.meta.get("absorbed_outcomes")),
           "the migration's outcome sentence should be absorbed into its EVENT")
    console.print("\n[dim]The migration's check results were absorbed into the EVENT "
                  "(meta.absorbed_outcomes), not minted as standalone facts.[/dim]")

    # (b) a newer reading of the same service replaces the older one; a rewording of it is
    # new testimony.
    turn = len(SEED_EXAMPLES)
    _step(console, "2. a newer STATE reading of the same subject replaces the older one")
    green_id = fact_ids[Kind.STATE.value]
    turn += 1
    console.print(f"[bold]remember[/bold] {escape(repr(NEWER_READING))}")
    result = store.remember(NEWER_READING, source_ref=f"{_SESSION}#turn-{turn}")
    render_remember(console, result)
    _check(len(result.outcomes) == 1 and result.outcomes[0].lane == "revision"
           and result.outcomes[0].related_fact_id == green_id and not result.interrupts,
           f"expected {NEWER_READING!r} to revise #{green_id} without an interrupt, got "
           f"{result.outcomes}")
    red_id = result.outcomes[0].fact.id
    _check(store.fact(green_id).superseded_by == red_id,
           f"#{green_id} should be superseded by #{red_id}")
    turn += 1
    console.print(f"\n[bold]remember[/bold] {escape(repr(RESTATEMENT))}")
    result = store.remember(RESTATEMENT, source_ref=f"{_SESSION}#turn-{turn}")
    render_remember(console, result)
    _check([o.outcome for o in result.outcomes] == ["recaptured"]
           and result.outcomes[0].fact.id == red_id,
           f"expected {RESTATEMENT!r} to be new testimony for #{red_id}, got {result.outcomes}")
    console.print("\n[dim]A reworded restatement is testimony for the fact it restates: "
                  f"#{red_id} now has {result.outcomes[0].fact.support_count} supporting "
                  "sources.[/dim]")

    # (c) a contradicting capture of the same kind: the density check must interrupt.
    _step(console, "3. a contradicting REFERENCE capture raises a lane-3 conflict")
    turn += 1
    console.print(f"[bold]remember[/bold] {escape(repr(CONTRADICTION))}")
    result = store.remember(CONTRADICTION, source_ref=f"{_SESSION}#turn-{turn}")
    _check(len(result.outcomes) == 1 and result.outcomes[0].fact.kind is Kind.REFERENCE,
           f"expected one REFERENCE fact from {CONTRADICTION!r}, got {result.outcomes}")
    _check(len(result.interrupts) == 1,
           f"expected one conflict interrupt from {CONTRADICTION!r}, got "
           f"{len(result.interrupts)}: outcome {result.outcomes[0].outcome}, similarity "
           f"{result.outcomes[0].similarity}")
    interrupt = result.interrupts[0]
    old_id, new_id = fact_ids[Kind.REFERENCE.value], result.outcomes[0].fact.id
    _check(interrupt.lane == "lane-3", f"expected lane-3, got {interrupt.lane}")
    _check(interrupt.existing.fact_id == old_id and interrupt.new.fact_id == new_id,
           f"the interrupt should pit #{old_id} against #{new_id}, got "
           f"#{interrupt.existing.fact_id} vs #{interrupt.new.fact_id}")
    _check(bool(interrupt.differences), "the interrupt should say what differs")
    render_remember(console, result)

    # (c) recall serves both contested sides, labeled, and does not choose.
    _step(console, "4. recall while contested: both sides served, no silent pick")
    contested = store.recall(CONTESTED_QUESTION)
    render_recall(console, contested)
    labels = {item.fact.id: item.label.code for item in contested.items if item.fact}
    _check(labels.get(old_id) == "contested" and labels.get(new_id) == "contested",
           f"recall should serve #{old_id} and #{new_id} both labeled contested, got "
           f"{labels}")

    # (e) the person decides the head-to-head.
    _step(console, "5. resolve the head-to-head")
    console.print(escape(f'store.resolve_conflict({interrupt.conflict_id}, winner_id={old_id}, '
                         f'reasoning="{RESOLUTION_REASONING}")'))
    resolved = store.resolve_conflict(interrupt.conflict_id, old_id, RESOLUTION_REASONING)
    render_conflict(console, resolved)
    loser = store.fact(new_id)
    _check(resolved.status == "resolved" and resolved.winner == old_id,
           f"conflict #{resolved.id} should be resolved with winner #{old_id}: {resolved}")
    _check(loser.verdict is Verdict.SUPERSEDED and loser.superseded_by == old_id,
           f"fact #{new_id} should be superseded by #{old_id}, is {loser.verdict.value}")
    _check(not store.open_conflicts(), "no conflict should remain open")
    after = store.recall(CONTESTED_QUESTION)
    render_recall(console, after)
    served = {item.fact.id: item.label.code for item in after.items if item.fact}
    _check(new_id not in served and served.get(old_id) == "active",
           f"after resolution only #{old_id} should serve (active), got {served}")

    # (f) labeled recall across the serving rules, then the store's own gaps.
    _step(console, "6. labeled recall: each answer says what it may be taken to mean")
    recalls = [after]
    for question, expected, meaning in LABELED_QUESTIONS:
        console.print(f"\n[dim]{escape(meaning)}[/dim]")
        answer = store.recall(question)
        render_recall(console, answer)
        _expect(answer, expected)
        recalls.append(answer)

    _step(console, "7. the open-questions queue: gaps weighed, not banked")
    questions = store.open_questions()
    render_questions(console, questions)
    _check(len(questions) >= 2, f"the queue should hold the seed's entries, has {len(questions)}")
    console.print("\n[bold green]demo complete[/bold green]: seven kinds remembered, a STATE "
                  "revised, a restatement taken as testimony, a lane-3 conflict raised, served "
                  "contested, resolved, and recall labeled.")
    return DemoReport(fact_ids, interrupt, contested, resolved, tuple(recalls),
                      tuple(questions))


def _expect(answer: RecallResult, expected: str) -> None:
    """Check one labeled-recall step: a label code must be served, or a layer must answer."""
    if expected.startswith("layer:"):
        layer = expected.removeprefix("layer:")
        _check(answer.layer == layer, f"{answer.query!r} should be answered by the {layer} "
                                      f"layer, got {answer.layer}")
        return
    codes: Sequence[str] = [item.label.code for item in answer.items if item.fact is not None]
    _check(expected in codes, f"{answer.query!r} should serve a fact labeled {expected}, got "
                              f"{codes} (layer {answer.layer})")
