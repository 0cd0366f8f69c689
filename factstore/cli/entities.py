"""The entity layer's commands: entities, entity, aliases, alias, merge, unmerge,
merge-proposals, relations, neighbours, mentions, refresh-profiles. Each calls exactly one
Store method."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from factstore.cli.formatting import _when
from factstore.cli.shell import _emit, _store, app
from factstore.entities.model import (
    Entity,
    EntityList,
    MentionRecord,
    MergeProposal,
    MergeResult,
    NeighbourList,
    Relation,
)


def _render_entities(console: Console, entities: EntityList) -> None:
    table = Table(title=f"{len(entities)} entit{'y' if len(entities) == 1 else 'ies'}",
                  title_justify="left")
    for name in ("id", "name", "type", "aliases", "mentions", "timeline", "merged into"):
        table.add_column(name, overflow="fold")
    for e in entities:
        table.add_row(e.id, escape(e.canonical_name), e.entity_type,
                      escape(", ".join(a for a in e.aliases if a != e.canonical_name)) or "—",
                      str(e.mentions), escape(e.timeline_subject or "—"), e.merged_into or "—")
    console.print(table)


def _render_entity(console: Console, e: Entity) -> None:
    if e.redirected_from:
        console.print(f"[yellow]redirected[/yellow]: {', '.join(e.redirected_from)} "
                      f"→ {e.id} (merged; `unmerge` undoes it)")
    console.print(f"[bold]{escape(e.canonical_name)}[/bold] ({e.entity_type}) {e.id}")
    others = [a for a in e.aliases if a != e.canonical_name]
    if others:
        console.print(f"also: {escape(', '.join(others))}")
    if e.timeline_subject:
        console.print(f"timeline subject: {escape(e.timeline_subject)}")
    if e.merged:
        console.print(f"merged into it: {', '.join(e.merged)}")
    for key, held in sorted(e.attributes.items()):
        if not key.startswith("_") and isinstance(held, dict):
            console.print(f"{escape(key)} = {escape(str(held.get('value')))} "
                          f"({held.get('type')}, since {escape(str(held.get('since', '?')))})")
    console.print(f"mentions: {e.mentions} · created {_when(e.created_at)}")
    state = "stale (rebuilt by refresh-profiles)" if e.profile_stale else \
        f"built {_when(e.profile_built_at)}"
    console.print(f"profile ({state}): {escape(e.profile or '— none: no current evidence')}")


def _render_relations(console: Console, relations: list[Relation]) -> None:
    table = Table(title=f"{len(relations)} relation(s)", title_justify="left")
    for name in ("#", "subject", "predicate", "object", "confidence", "lineages", "claims"):
        table.add_column(name, overflow="fold")
    for r in relations:
        table.add_row(str(r.id), escape(r.subject_name), r.predicate, escape(r.object_name),
                      f"{r.confidence:.3f}", str(r.support),
                      ", ".join(f"#{c}" for c in r.claim_ids) or "—")
    console.print(table)


def _render_neighbours(console: Console, neighbours: NeighbourList) -> None:
    table = Table(title=f"{len(neighbours)} neighbour(s), strongest first", title_justify="left")
    for name in ("name", "type", "depth", "weight", "path", "id"):
        table.add_column(name, overflow="fold")
    for n in neighbours:
        table.add_row(escape(n.entity.canonical_name), n.entity.entity_type, str(n.depth),
                      f"{n.weight:.3f}",
                      escape(" / ".join(f"{r.subject_name} {r.predicate} {r.object_name}"
                                        for r in n.path)), n.entity.id)
    console.print(table)


def _render_merge(console: Console, result: MergeResult) -> None:
    console.print(f"{result.action}: {escape(result.merged.canonical_name)} "
                  f"({result.merged.id}) {'→' if result.action == 'merged' else '⇸'} "
                  f"{escape(result.survivor.canonical_name)} ({result.survivor.id}) — "
                  f"{escape(result.reason)}")


def _render_proposals(console: Console, proposals: list[MergeProposal]) -> None:
    table = Table(title=f"{len(proposals)} merge proposal(s) — a person decides",
                  title_justify="left")
    for name in ("#", "entity a", "entity b", "score", "reason", "status", "proposed"):
        table.add_column(name, overflow="fold")
    for p in proposals:
        table.add_row(str(p.id), p.entity_a, p.entity_b,
                      "—" if p.score is None else f"{p.score:.3f}", escape(p.reason), p.status,
                      _when(p.created_at))
    console.print(table)


def _render_mentions(console: Console, mentions: list[MentionRecord]) -> None:
    table = Table(title=f"{len(mentions)} mention(s), newest first", title_justify="left")
    for name in ("#", "name", "role", "tier", "resolver", "reason", "claim", "document"):
        table.add_column(name, overflow="fold")
    for m in mentions:
        truncated = " (snapshot truncated)" if m.audit.get("truncated") else ""
        table.add_row(str(m.id), escape(m.name), m.role, m.tier, escape(m.resolver or "—"),
                      escape(str(m.audit.get("reason", "—")) + truncated),
                      f"#{m.claim_id}" if m.claim_id else "—", f"#{m.document_id}")
    console.print(table)


# -- commands ------------------------------------------------------------------------------

Ref = Annotated[str, typer.Argument(metavar="ENTITY",
                                    help="An entity id, timeline subject or name.")]


@app.command()
def entities(
    ctx: typer.Context,
    entity_type: Annotated[str | None, typer.Option(
        "--type", help="Only this type (Person, Organization, Project, Place, ...).")] = None,
    name: Annotated[str | None, typer.Option(help="Part of a name or alias.")] = None,
    include_merged: Annotated[bool, typer.Option(
        "--include-merged", help="Also list merged entities (redirects).")] = False,
    limit: Annotated[int, typer.Option(help="At most this many.")] = 500,
) -> None:
    """The entity registry: canonical names, types, aliases, mention counts."""
    result = _store(ctx).entities(entity_type=entity_type, name=name, limit=limit,
                                  include_merged=include_merged)
    _emit(ctx, result, lambda c: _render_entities(c, result))


@app.command()
def entity(ctx: typer.Context, ref: Ref) -> None:
    """One entity, its aliases and profile; a merged one is shown as its survivor."""
    result = _store(ctx).entity(ref)
    _emit(ctx, result, lambda c: _render_entity(c, result))


@app.command()
def aliases(ctx: typer.Context, ref: Ref) -> None:
    """Every name an entity is known by."""
    result = _store(ctx).aliases(ref)
    _emit(ctx, list(result), lambda c: c.print("\n".join(map(escape, result))))


@app.command()
def alias(
    ctx: typer.Context,
    ref: Ref,
    name: Annotated[str, typer.Argument(metavar="ALIAS", help="Another name for it.")],
) -> None:
    """Give an entity another name: later mentions of that name find it."""
    result = _store(ctx).add_alias(ref, name)
    _emit(ctx, result, lambda c: _render_entity(c, result))


@app.command("entity-attribute")
def entity_attribute(
    ctx: typer.Context,
    ref: Ref,
    name: Annotated[str, typer.Argument(metavar="NAME", help="lower_snake_case.")],
    value: Annotated[str, typer.Argument(metavar="VALUE", help="The value, as text.")],
    value_type: Annotated[str, typer.Option(
        "--type", help="text | int | float | bool | date")] = "text",
) -> None:
    """Set a typed attribute of an entity (the previous value is kept as history)."""
    result = _store(ctx).set_entity_attribute(ref, name, value, value_type)
    _emit(ctx, result, lambda c: _render_entity(c, result))


@app.command()
def merge(
    ctx: typer.Context,
    survivor: Annotated[str, typer.Argument(metavar="SURVIVOR", help="The entity that stays.")],
    merged: Annotated[str, typer.Argument(metavar="MERGED",
                                          help="The entity that becomes a redirect.")],
    reason: Annotated[str, typer.Option(help="Why they are one (kept with the merge).")],
) -> None:
    """Accept that two entities are one (a reversible redirect; see unmerge)."""
    result = _store(ctx).merge(survivor, merged, reason)
    _emit(ctx, result, lambda c: _render_merge(c, result))


@app.command()
def unmerge(
    ctx: typer.Context,
    merged: Annotated[str, typer.Argument(metavar="MERGED", help="The merged entity's id.")],
    reason: Annotated[str, typer.Option(help="Why the merge was wrong.")],
) -> None:
    """Undo a merge: both entities stand alone again, as they were."""
    result = _store(ctx).unmerge(merged, reason)
    _emit(ctx, result, lambda c: _render_merge(c, result))


@app.command("merge-proposals")
def merge_proposals(
    ctx: typer.Context,
    status: Annotated[str | None, typer.Option(
        help="pending | accepted | rejected (default pending).")] = "pending",
) -> None:
    """Pairs the store suspects are one entity (automatic merging is off)."""
    result = _store(ctx).merge_proposals(status)
    _emit(ctx, result, lambda c: _render_proposals(c, result))


@app.command("reject-merge")
def reject_merge(
    ctx: typer.Context,
    proposal: Annotated[int, typer.Argument(metavar="PROPOSAL_ID", help="A proposal's #.")],
    reason: Annotated[str, typer.Option(help="Why they are two.")],
) -> None:
    """Decide a merge proposal against: the two stay apart and it is not proposed again."""
    result = _store(ctx).reject_merge(proposal, reason)
    _emit(ctx, result, lambda c: _render_proposals(c, [result]))


@app.command()
def relations(
    ctx: typer.Context,
    ref: Ref,
    include_unsupported: Annotated[bool, typer.Option(
        "--include-unsupported", help="Also relations no current claim supports.")] = False,
) -> None:
    """The relations an entity takes part in, with confidence and evidence claims."""
    result = _store(ctx).relations(ref, include_unsupported=include_unsupported)
    _emit(ctx, result, lambda c: _render_relations(c, result))


@app.command()
def neighbours(
    ctx: typer.Context,
    ref: Ref,
    depth: Annotated[int, typer.Option(help="Hops at most (1-6).")] = 1,
    predicate: Annotated[list[str] | None, typer.Option(
        "--predicate", help="Only this relation (repeatable).")] = None,
) -> None:
    """Entities reached over relations, weighted by confidence along the path."""
    result = _store(ctx).neighbours(ref, depth=depth, predicates=predicate or None)
    _emit(ctx, result, lambda c: _render_neighbours(c, result))


@app.command()
def mentions(
    ctx: typer.Context,
    ref: Ref,
    limit: Annotated[int, typer.Option(help="At most this many.")] = 200,
) -> None:
    """The names claims used for an entity, with the tier and reason that resolved each."""
    result = _store(ctx).mentions(ref, limit=limit)
    _emit(ctx, result, lambda c: _render_mentions(c, result))


@app.command("refresh-profiles")
def refresh_profiles(
    ctx: typer.Context,
    limit: Annotated[int, typer.Option(help="At most this many profiles.")] = 1000,
) -> None:
    """Rebuild stale entity profiles and propose merges they suggest (never merge)."""
    result = _store(ctx).refresh_profiles(limit=limit)
    _emit(ctx, result, lambda c: c.print(f"{result.rebuilt} profile(s) rebuilt, "
                                         f"{result.cleared} cleared, "
                                         f"{result.proposed} merge proposal(s) made"))
