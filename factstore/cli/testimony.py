"""The testimony layer's commands: claims, why, context, lineages, lineage-mode,
remove-source, restore-source and group. Each calls exactly one Store method."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from factstore.bridge import Why
from factstore.claims import ClaimList
from factstore.cli.formatting import _sim, _when
from factstore.cli.render import render_recall_items
from factstore.cli.shell import _emit, _store, app
from factstore.context import ContextBundle
from factstore.groups import ContradictionGroup
from factstore.lineages import LineageInfo, LineageList, SourceChange


def _claims_table(title: str, claims: ClaimList) -> Table:
    table = Table(title=title, title_justify="left")
    for name in ("#", "status", "triage", "statement", "asserter", "asserted", "lineage",
                 "v", "extractor", "fact"):
        table.add_column(name, overflow="fold")
    for c in claims:
        table.add_row(str(c.id), c.status, c.triage, escape(c.statement),
                      escape(c.asserter or "—"), _when(c.asserted_at), escape(c.lineage),
                      str(c.document_version), escape(c.extractor or "—"),
                      f"#{c.fact_id}" if c.fact_id else "—")
    return table


def _render_claims(console: Console, claims: ClaimList) -> None:
    console.print(_claims_table(f"{len(claims)} claim(s) — testimony, not verdicts", claims))
    if claims.next_offset is not None:
        console.print(f"more: --offset {claims.next_offset}")


def _render_why(console: Console, why: Why) -> None:
    fact = why.fact
    console.print(f"[bold]fact #{fact.id}[/bold] ({fact.kind.value}, {fact.verdict.value}): "
                  f"{escape(fact.statement)}")
    console.print(f"support: {why.support_count} lineage(s) with current testimony"
                  + (f" — {', '.join(map(escape, why.lineages))}" if why.lineages else "")
                  + (" · support withdrawn: served with a caveat" if why.support_withdrawn
                     else ""))
    table = Table(title="the bridge: claims for and against it", title_justify="left")
    for name in ("stance", "counts?", "claim", "quote", "asserter", "lineage", "v"):
        table.add_column(name, overflow="fold")
    for link in why.supports + why.contradicts:
        claim = link.claim
        table.add_row(link.stance, "yes" if link.current else escape(link.not_current or ""),
                      escape(claim.statement if claim else f"({link.role})"),
                      escape(link.quote), escape(claim.asserter or "—") if claim else "—",
                      escape(link.lineage), str(link.document_version))
    console.print(table)


def _render_context(console: Console, bundle: ContextBundle) -> None:
    testimony = bundle.claims_and_sources
    table = Table(title=f"claims and sources (grain: claim) — {len(testimony.sources)} "
                        "source(s)", title_justify="left")
    for name in ("source", "claim", "asserter", "lineage", "cosine"):
        table.add_column(name, overflow="fold")
    for hit in testimony.claims:
        table.add_row(str(hit.source_rank), escape(hit.claim.statement),
                      escape(hit.claim.asserter or "—"), escape(hit.claim.lineage),
                      _sim(hit.similarity))
    console.print(table)
    for call in testimony.continuations:
        console.print(f"more testimony: store.{call}")
    console.print("[bold]facts (grain: fact; validity-filtered)[/bold]")
    render_recall_items(console, bundle.facts.items)
    for line in bundle.facts.timelines:
        console.print(f"  {escape(line)}")
    for more in bundle.facts.continuations:
        console.print(f"more of group #{more.group_id}: store.{more.call}")


def _render_change(console: Console, change: SourceChange) -> None:
    console.print(f"source {escape(change.lineage)} {change.action} ({escape(change.reason)}): "
                  f"{change.documents} document(s), {change.claims} claim(s)")
    if change.closed:
        console.print("closed (retracted_source_removal): "
                      + ", ".join(f"#{f}" for f in change.closed))
    if change.reopened:
        console.print("reopened (restored_source): " + ", ".join(f"#{f}" for f in change.reopened))
    for c in change.changed:
        if c.fact_id not in change.closed + change.reopened:
            console.print(f"fact #{c.fact_id}: support {c.before} → {c.after} ({c.verdict})")
    if change.conflicts_reopened:
        console.print("conflicts opened again: "
                      + ", ".join(f"#{c}" for c in change.conflicts_reopened))


def _render_lineages(console: Console, lineages: LineageList | list[LineageInfo]) -> None:
    table = Table(title=f"{len(lineages)} lineage(s)", title_justify="left")
    for name in ("lineage", "mode", "documents", "latest", "claims", "current", "removed"):
        table.add_column(name, overflow="fold")
    for x in lineages:
        table.add_row(escape(x.lineage), x.mode + ("" if x.mode_set else " (default)"),
                      str(x.documents), f"v{x.latest_version}", str(x.claims),
                      str(x.current_claims),
                      f"{_when(x.removed_at)}: {escape(x.removed_reason or '')}"
                      if x.removed else "—")
    console.print(table)


def _render_group(console: Console, group: ContradictionGroup) -> None:
    console.print(f"contradiction group #{group.id} ({group.status}): {group.size} member(s)")
    table = Table(show_header=True)
    for name in ("fact", "verdict", "statement"):
        table.add_column(name, overflow="fold")
    for fact in group.members:
        table.add_row(f"#{fact.id}", fact.verdict.value, escape(fact.statement))
    console.print(table)
    if group.next_offset is not None:
        console.print(f"more: --offset {group.next_offset}")


# -- commands ------------------------------------------------------------------------------


@app.command()
def claims(
    ctx: typer.Context,
    lineage: Annotated[str | None, typer.Option(help="Only this lineage's claims.")] = None,
    document: Annotated[int | None, typer.Option(help="Only this document's claims.")] = None,
    asserter: Annotated[str | None, typer.Option(help="Only this speaker's or source's.")] = None,
    since: Annotated[str | None, typer.Option(help="Asserted at or after (ISO-8601).")] = None,
    until: Annotated[str | None, typer.Option(help="Asserted before (ISO-8601).")] = None,
    text: Annotated[str | None, typer.Option(help="Words in the statement or quote.")] = None,
    fact_id: Annotated[int | None, typer.Option("--fact", help="Tied to this fact.")] = None,
    triage: Annotated[str | None, typer.Option(
        help="written | restatement | contested | superseded | parked | dropped | "
             "absorbed")] = None,
    historical: Annotated[bool, typer.Option(
        "--historical", help="Include superseded claims and removed sources' claims.")] = False,
    limit: Annotated[int, typer.Option(help="At most this many.")] = 100,
    offset: Annotated[int, typer.Option(help="Skip this many (the next page).")] = 0,
) -> None:
    """Testimony: what sources asserted, by whom and when (current only unless --historical)."""
    result = _store(ctx).claims(lineage=lineage, document_id=document, asserter=asserter,
                                since=since, until=until, text=text, fact_id=fact_id,
                                triage=triage, historical=historical, limit=limit,
                                offset=offset)
    _emit(ctx, result, lambda c: _render_claims(c, result))


@app.command()
def why(
    ctx: typer.Context,
    fact_id: Annotated[int, typer.Argument(metavar="FACT_ID", help="The fact.")],
) -> None:
    """Why the store believes a fact: every claim for and against it, and which still count."""
    result = _store(ctx).why(fact_id)
    _emit(ctx, result, lambda c: _render_why(c, result))


@app.command()
def context(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(metavar="QUERY", help="A question or phrase.")],
    k: Annotated[int | None, typer.Option("-k", "--k", help="How many of each.")] = None,
    per_source: Annotated[int, typer.Option(help="Claims served per source.")] = 5,
) -> None:
    """Claims with their sources, and facts: two envelopes, never re-ranked together."""
    result = _store(ctx).context(query, k=k, per_source=per_source)
    _emit(ctx, result, lambda c: _render_context(c, result))


@app.command("remove-source")
def remove_source(
    ctx: typer.Context,
    lineage: Annotated[str, typer.Argument(metavar="LINEAGE",
                                           help="e.g. file:docs/runbook.md (see lineages).")],
    reason: Annotated[str, typer.Option(help="Why; kept on every fact it closes.")],
) -> None:
    """Remove a source: its claims stop counting; facts it alone supported are closed."""
    result = _store(ctx).remove_source(lineage, reason)
    _emit(ctx, result, lambda c: _render_change(c, result))


@app.command("restore-source")
def restore_source(
    ctx: typer.Context,
    lineage: Annotated[str, typer.Argument(metavar="LINEAGE", help="A removed lineage.")],
    reason: Annotated[str, typer.Option(help="Why it is restored.")],
) -> None:
    """Undo remove-source: the claims count again and what it closed reopens."""
    result = _store(ctx).restore_source(lineage, reason)
    _emit(ctx, result, lambda c: _render_change(c, result))


@app.command()
def lineages(
    ctx: typer.Context,
    removed: Annotated[bool | None, typer.Option(
        "--removed/--standing", help="Only removed (or only standing) sources.")] = None,
    limit: Annotated[int, typer.Option(help="At most this many.")] = 500,
) -> None:
    """Sources by lineage: mode (snapshot or living), versions, claims, removal."""
    result = _store(ctx).lineages(removed=removed, limit=limit)
    _emit(ctx, result, lambda c: _render_lineages(c, result))


@app.command("lineage-mode")
def lineage_mode(
    ctx: typer.Context,
    lineage: Annotated[str, typer.Argument(metavar="LINEAGE", help="The lineage.")],
    mode: Annotated[str, typer.Argument(metavar="MODE", help="snapshot | living")],
    reason: Annotated[str, typer.Option(help="Why.")] = "set by a person",
) -> None:
    """Set a lineage's mode: snapshot keeps every version as testimony, living supersedes."""
    result = _store(ctx).set_lineage_mode(lineage, mode, reason)
    _emit(ctx, result, lambda c: _render_lineages(c, [result]))


@app.command()
def group(
    ctx: typer.Context,
    group_id: Annotated[int, typer.Argument(metavar="GROUP_ID", help="A conflict's group.")],
    offset: Annotated[int, typer.Option(help="Skip this many members.")] = 0,
    limit: Annotated[int, typer.Option(help="At most this many members.")] = 50,
) -> None:
    """Every member of a contradiction group (facts that disagree together)."""
    result = _store(ctx).contradiction_group(group_id, offset=offset, limit=limit)
    _emit(ctx, result, lambda c: _render_group(c, result))
