"""The rich renderers shared by the core commands and ``factstore.demo``: a remember's
outcomes and interrupts, labeled recall, and conflicts before and after they close."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from factstore.cli.formatting import _kind_fields, _quote, _sim, _when
from factstore.results import (
    Conflict,
    DroppedFact,
    Fact,
    Interrupt,
    RecallResult,
    RememberResult,
)

__all__ = ["render_conflict", "render_conflicts", "render_dropped", "render_interrupt",
           "render_recall", "render_recall_items", "render_remember"]


_LAYER_MEANING = {
    "fact": "a typed fact answered strongly",
    "fact+document": "a typed fact answered strongly, and raw captured documents with no fact "
                     "of theirs matched too",
    "fact-weak": "only weak fact matches — nothing strong enough to lean on",
    "document": "no strong fact; raw captured documents matched",
    "none": "nothing in the store was relevant enough to serve",
}
_LABEL_STYLE = {
    "active": "green",
    "contested": "bold red",
    "stale-state": "yellow",
    "event": "cyan",
    "parked": "magenta",
    "document": "blue",
    "superseded-source": "dim",
    "support-withdrawn": "yellow",
}


def _cli_calls(interrupt: Interrupt) -> list[str]:
    """The CLI spellings of the interrupt's closing calls (existing wins, new wins, any
    other member of its contradiction group wins, all stand)."""
    cid = interrupt.conflict_id
    winners = [interrupt.existing.fact_id, interrupt.new.fact_id]
    winners += [m for m in interrupt.group_members if m not in winners]
    return ([f'factstore resolve {cid} {w} --reasoning "<why>"' for w in winners]
            + [f'factstore both-stand {cid} --reasoning "<why both are true>"'])


# -- renderers (shared with factstore.demo) -----------------------------------------------


def render_interrupt(console: Console, interrupt: Interrupt) -> None:
    """The head-to-head: both statements, kinds, quotes, capture times, the closing calls."""
    sides = Table(show_header=True, header_style="bold", expand=True, box=None, padding=(0, 1))
    sides.add_column("")
    sides.add_column(f"existing #{interrupt.existing.fact_id}", ratio=1)
    sides.add_column(f"new #{interrupt.new.fact_id}", ratio=1)
    old, new = interrupt.existing, interrupt.new
    sides.add_row("statement", escape(old.statement), escape(new.statement))
    sides.add_row("kind", old.kind.value, new.kind.value)
    sides.add_row("quote", escape(_quote(old.quote)), escape(_quote(new.quote)))
    sides.add_row("captured", _when(old.captured_at), _when(new.captured_at))
    parts: list[Any] = [sides]
    if interrupt.differences:
        parts.append(Text("differences: " + "; ".join(interrupt.differences)))
    calls = Text("\nclose it with one of:\n", style="bold")
    for call in (*interrupt.resolve_calls, interrupt.both_stand_call):
        calls.append(f"  store.{call}\n", style="")
    for call in _cli_calls(interrupt):
        calls.append(f"  {call}\n", style="")
    parts.append(calls)
    title = (f"conflict #{interrupt.conflict_id} · {interrupt.lane} · similarity "
             f"{_sim(interrupt.similarity)} · both sides are contested until you decide")
    console.print(Panel(Group(*parts), title=escape(title), border_style="red"))


def render_remembered(console: Console, results: Sequence[RememberResult]) -> None:
    """Many captures' account in a few lines: documents, outcomes, interrupts."""
    reruns = sum(r.document.duplicate for r in results)
    outcomes = Counter(o.outcome for r in results for o in r.outcomes)
    interrupts = sum(len(r.interrupts) for r in results)
    console.print(escape(f"{len(results)} capture(s): {len(results) - reruns} stored, {reruns} "
                         f"already stored (re-runs), {sum(bool(r.gated) for r in results)} "
                         "gated to the documents layer"))
    shown = ", ".join(f"{n} {name}" for name, n in sorted(outcomes.items())) or "no facts"
    console.print(escape(f"facts: {shown}"))
    if interrupts:
        console.print(escape(f"{interrupts} conflict(s) need a person: factstore conflicts"))


def render_remember(console: Console, result: RememberResult) -> None:
    """Each fact's outcome, then interrupts, candidate roots and dropped facts."""
    doc = result.document
    line = (f"capture stored as document #{doc.id} (lineage {doc.lineage} v{doc.version}, "
            f"routed: {doc.routed}{', already stored — a re-run' if doc.duplicate else ''})")
    console.print(escape(line))
    if result.gated:
        console.print(f"[yellow]gated: {escape(result.gated)} — kept as a document only, no "
                      "facts minted[/yellow]")
    if result.outcomes:
        # Three columns, not eight: the statement needs the width at a default 80 columns.
        table = Table(title="facts", title_justify="left", show_lines=True, expand=True)
        table.add_column("outcome", no_wrap=True)
        table.add_column("fact", no_wrap=True)
        table.add_column("statement and per-kind fields", ratio=1, overflow="fold")
        for o in result.outcomes:
            outcome = o.outcome
            if o.lane:
                outcome += f"\n{o.lane}\nsim {_sim(o.similarity)}"
            detail = f"[bold]{escape(o.fact.statement)}[/bold]"
            fields = _kind_fields(o.fact)
            if fields:
                detail += "\n" + escape(", ".join(f"{k}: {v}" for k, v in fields.items()))
            if o.fact.tags:
                detail += "\n" + escape("tags: " + ", ".join(o.fact.tags))
            if o.note:
                detail += f"\n[dim]{escape(o.note)}[/dim]"
            if o.related_fact_id is not None:
                detail += f"\n[dim]related: fact #{o.related_fact_id}[/dim]"
            table.add_row(outcome, f"#{o.fact.id} {o.fact.kind.value}\n{o.fact.verdict.value}",
                          detail)
        console.print(table)
    elif not result.gated:
        console.print("no typed facts: the capture lives in the documents layer only")
    for interrupt in result.interrupts:
        render_interrupt(console, interrupt)
    if result.candidate_roots:
        table = Table(title="candidate roots (a person decides; the write path never mints a "
                      "root)", title_justify="left")
        for name in ("proposed tag", "topic", "status", "seen", "approve with"):
            table.add_column(name)
        for c in result.candidate_roots:
            table.add_row(escape(c.proposed_tag), escape(c.topic), c.status, str(c.seen_count),
                          escape(f"factstore tags approve {c.proposed_tag}"))
        console.print(table)
    if result.dropped:
        render_dropped(console, result.dropped)


def render_dropped(console: Console, dropped: Sequence[DroppedFact]) -> None:
    """Extracted facts the write path refused, and why."""
    table = Table(title="dropped (not written)", title_justify="left", show_lines=True)
    for name in ("stage", "kind", "statement", "quote", "reason"):
        table.add_column(name, overflow="fold")
    for d in dropped:
        table.add_row(d.stage, d.kind, escape(d.statement), escape(_quote(d.quote)),
                      escape(d.reason))
    console.print(table)


def render_recall(console: Console, result: RecallResult) -> None:
    """The answering layer, then each item with its label, kind, verdict, similarity, quote."""
    meaning = _LAYER_MEANING.get(result.layer, "")
    console.print(f"recall [bold]{escape(_quote(result.query))}[/bold] → answered by the "
                  f"[bold]{result.layer}[/bold] layer ({escape(meaning)}; best fact similarity "
                  f"{_sim(result.best_fact_similarity)})")
    for line in result.timelines:
        console.print(f"timeline: {escape(line)}")
    if not result.items:
        console.print("[dim]no items served[/dim]")
        return
    render_recall_items(console, result.items)
    for more in result.continuations:
        console.print(f"group #{more.group_id} has {len(more.remaining)} more member(s): "
                      f"store.{more.call} or factstore group {more.group_id}")


def render_recall_items(console: Console, items: Sequence[Any]) -> None:
    """Served items, each with its label, what it is, and its similarity."""
    table = Table(show_lines=True, expand=True)
    table.add_column("#", justify="right")
    table.add_column("label", no_wrap=True)
    table.add_column("served item", ratio=1, overflow="fold")
    table.add_column("sim", justify="right")
    for n, item in enumerate(items, 1):
        style = _LABEL_STYLE.get(item.label.code, "")
        label = f"[{style}]{item.label.code}[/{style}]" if style else item.label.code
        if item.fact is not None:
            f = item.fact
            body = (f"[bold]{escape(f.statement)}[/bold]\n"
                    f"fact #{f.id} · kind {f.kind.value} · verdict {f.verdict.value}"
                    f"{_served_as(item.served_as)}"
                    f"{' · the read prefers it' if getattr(item, 'preferred', False) else ''}"
                    f" · support {f.support_count}\n"
                    f"quote: {escape(_quote(f.evidence_quote))}\n"
                    f"{_read_from(item.document)}")
        else:
            assert item.document is not None
            d = item.document
            content = d.content if len(d.content) <= 400 else d.content[:400] + "…"
            ref = f" {d.source_ref}" if d.source_ref else ""
            body = (f"[bold]{escape(content)}[/bold]\n"
                    f"document #{d.id} · {d.source_type}{escape(ref)} · captured "
                    f"{_when(d.captured_at)}\n")
        body += f"[dim]{escape(item.label.text)}[/dim]"
        table.add_row(str(n), label, body, _sim(item.similarity))
    console.print(table)


def _served_as(served_as: str) -> str:
    return {"hit": "", "same-source": " · also read from the same capture",
            "contested-partner": " · served as contested partner",
            "neighbour": " · about a related entity"}.get(served_as, f" · {served_as}")


def _read_from(document: Any) -> str:
    """The capture a served fact was read from, when recall found it too."""
    if document is None:
        return ""
    ref = f" {document.source_ref}" if document.source_ref else ""
    return f"read from document #{document.id} · {document.source_type}{escape(ref)}\n"


def _conflict_sides(c: Conflict) -> tuple[str, str]:
    def side(f: Fact) -> str:
        return escape(f"#{f.id} [{f.verdict.value}] {f.kind.value}: {f.statement}")
    return side(c.fact_a), side(c.fact_b)


def render_conflicts(console: Console, conflicts: Sequence[Conflict], *, everything: bool) -> None:
    """A table of conflicts; open ones come with the commands that close them."""
    if not conflicts:
        console.print("no conflicts" if everything else "no open conflicts")
        return
    table = Table(show_lines=True, expand=True)
    table.add_column("id", justify="right")
    table.add_column("state", no_wrap=True)
    table.add_column("the pair", ratio=2, overflow="fold")
    table.add_column("closed as", ratio=1, overflow="fold")
    for c in conflicts:
        a, b = _conflict_sides(c)
        if c.status == "open":
            closed = "—"
        else:
            closed = c.resolution or "resolved"
            if c.winner is not None:
                closed += f", winner #{c.winner}"
            if c.reasoning:
                closed += f"\n[dim]{escape(c.reasoning)}[/dim]"
        table.add_row(str(c.id), f"{c.status}\n{c.lane}\nsim {_sim(c.similarity)}",
                      f"a: {a}\nb: {b}", closed)
    console.print(table)
    for c in conflicts:
        if c.status == "open":
            # Both winners spelled out: the person picks one id, the command is ready to run.
            console.print(escape(
                f"close #{c.id}: factstore resolve {c.id} <{c.fact_a.id}|{c.fact_b.id}> "
                f'--reasoning "<why>"  |  factstore both-stand {c.id} --reasoning '
                '"<why both are true>"'))


def render_conflict(console: Console, c: Conflict) -> None:
    """One conflict after a close: who won, who was superseded, and the reasoning."""
    if c.status == "open":
        head = f"conflict #{c.id} is open ({c.lane}, similarity {_sim(c.similarity)})"
    elif c.winner is not None:
        loser = c.fact_b if c.winner == c.fact_a.id else c.fact_a
        head = (f"conflict #{c.id} resolved {c.resolution or 'head-to-head'}: fact #{c.winner} "
                f"won; fact #{loser.id} is now {loser.verdict.value}")
    else:
        head = (f"conflict #{c.id} closed {c.resolution or 'both-stand'}: both facts stand, "
                "neither superseded")
    a, b = _conflict_sides(c)
    lines = [escape(head), f"  a: {a}", f"  b: {b}"]
    if c.reasoning:
        lines.append(f"  reasoning: {escape(c.reasoning)}")
    if c.resolved_at:
        lines.append(f"  closed at {_when(c.resolved_at)}")
    console.print("\n".join(lines))
