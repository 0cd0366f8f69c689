"""``factstore demo``: the seed's story told against a real store, checked as it goes.

It remembers the seven synthetic examples of seed 000 §2 (one per kind), raises a lane-3
conflict with a contradicting capture, shows recall serving both contested sides, resolves
the head-to-head, then prints labeled recall and the open-questions queue. Every step checks
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

__all__ = ["CONTRADICTION", "SEED_EXAMPLES", "DemoFailed", "DemoReport", "reset_demo_database",
           "run_demo"]

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
#: Contradicts the STATE example: same kind, same subject, a changed value. With the local
#: MiniLM model it scores ~0.86 against "sample-svc is green right now" — above the 0.80
#: density threshold, and not a restatement, so it must land in lane 3.
CONTRADICTION = "sample-svc is red right now"
CONTESTED_QUESTION = "is sample-svc green right now?"
RESOLUTION_REASONING = ("the red report is the newer observation: the nightly job failed after "
                        "the green check")
#: (question, the label code or answering layer the demo expects to see, what it shows)
LABELED_QUESTIONS: tuple[tuple[str, str, str], ...] = (
    ("does everything go through staging first?", "active",
     "an active DECISION serves as present-tense truth"),
    ("were all 214 pages migrated?", "event",
     "an EVENT is history: never present tense"),
    ("what do we do before fixing a bug?", "layer:document",
     "a thin fact layer falls through to the raw documents"),
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

    # (b) a contradicting capture of the same kind: the density check must interrupt.
    _step(console, "2. a contradicting STATE capture raises a lane-3 conflict")
    console.print(f"[bold]remember[/bold] {escape(repr(CONTRADICTION))}")
    result = store.remember(CONTRADICTION,
                            source_ref=f"{_SESSION}#turn-{len(SEED_EXAMPLES) + 1}")
    _check(len(result.outcomes) == 1 and result.outcomes[0].fact.kind is Kind.STATE,
           f"expected one STATE fact from {CONTRADICTION!r}, got {result.outcomes}")
    _check(len(result.interrupts) == 1,
           f"expected one conflict interrupt from {CONTRADICTION!r}, got "
           f"{len(result.interrupts)}: outcome {result.outcomes[0].outcome}, similarity "
           f"{result.outcomes[0].similarity}")
    interrupt = result.interrupts[0]
    green_id, red_id = fact_ids[Kind.STATE.value], result.outcomes[0].fact.id
    _check(interrupt.lane == "lane-3", f"expected lane-3, got {interrupt.lane}")
    _check(interrupt.existing.fact_id == green_id and interrupt.new.fact_id == red_id,
           f"the interrupt should pit #{green_id} against #{red_id}, got "
           f"#{interrupt.existing.fact_id} vs #{interrupt.new.fact_id}")
    _check(interrupt.similarity is not None
           and interrupt.similarity >= store.settings.density_threshold,
           f"similarity {interrupt.similarity} is below the density threshold "
           f"{store.settings.density_threshold}")
    render_remember(console, result)

    # (c) recall serves both contested sides, labeled, and does not choose.
    _step(console, "3. recall while contested: both sides served, no silent pick")
    contested = store.recall(CONTESTED_QUESTION)
    render_recall(console, contested)
    labels = {item.fact.id: item.label.code for item in contested.items if item.fact}
    _check(labels.get(green_id) == "contested" and labels.get(red_id) == "contested",
           f"recall should serve #{green_id} and #{red_id} both labeled contested, got "
           f"{labels}")

    # (d) the person decides the head-to-head.
    _step(console, "4. resolve the head-to-head")
    console.print(escape(f'store.resolve_conflict({interrupt.conflict_id}, winner_id={red_id}, '
                         f'reasoning="{RESOLUTION_REASONING}")'))
    resolved = store.resolve_conflict(interrupt.conflict_id, red_id, RESOLUTION_REASONING)
    render_conflict(console, resolved)
    loser = store.fact(green_id)
    _check(resolved.status == "resolved" and resolved.winner == red_id,
           f"conflict #{resolved.id} should be resolved with winner #{red_id}: {resolved}")
    _check(loser.verdict is Verdict.SUPERSEDED and loser.superseded_by == red_id,
           f"fact #{green_id} should be superseded by #{red_id}, is {loser.verdict.value}")
    _check(not store.open_conflicts(), "no conflict should remain open")
    after = store.recall(CONTESTED_QUESTION)
    render_recall(console, after)
    served = {item.fact.id: item.label.code for item in after.items if item.fact}
    _check(green_id not in served and served.get(red_id) == "active",
           f"after resolution only #{red_id} should serve (active), got {served}")

    # (e) labeled recall across the serving rules, then the store's own gaps.
    _step(console, "5. labeled recall: each answer says what it may be taken to mean")
    recalls = [after]
    for question, expected, meaning in LABELED_QUESTIONS:
        console.print(f"\n[dim]{escape(meaning)}[/dim]")
        answer = store.recall(question)
        render_recall(console, answer)
        _expect(answer, expected)
        recalls.append(answer)

    _step(console, "6. the open-questions queue: gaps weighed, not banked")
    questions = store.open_questions()
    render_questions(console, questions)
    _check(len(questions) >= 2, f"the queue should hold the seed's entries, has {len(questions)}")
    console.print("\n[bold green]demo complete[/bold green]: seven kinds remembered, a "
                  "lane-3 conflict raised, served contested, resolved, and recall labeled.")
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
