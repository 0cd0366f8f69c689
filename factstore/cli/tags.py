"""``factstore tags``: the machine-owned tag registry — query, leaves, roots, aliases."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from factstore.cli.shell import _emit, _store
from factstore.lifetimes import format_lifetime
from factstore.results import CandidateRoot, LeafResult, RegistryQueryResult, TagInfo

__all__ = ["tags_app"]


tags_app = typer.Typer(no_args_is_help=True,
                       help="The machine-owned tag registry: query, leaves, roots, aliases.")


def _render_tags(console: Console, tags: Sequence[TagInfo], title: str | None = None) -> None:
    if not tags:
        console.print("no tags" if title is None else f"{title}: none")
        return
    table = Table(title=title, title_justify="left")
    for name in ("tag", "parent", "description", "lifetime", "aliases"):
        table.add_column(name, overflow="fold")
    for t in tags:
        table.add_row(escape(t.tag), escape(t.parent or "(root)"), escape(t.description or ""),
                      format_lifetime(t.default_lifetime) or "—",
                      escape(", ".join(t.aliases)) or "—")
    console.print(table)


def _render_candidates(console: Console, candidates: Sequence[CandidateRoot]) -> None:
    if not candidates:
        console.print("no candidate roots")
        return
    table = Table()
    for name in ("id", "proposed tag", "topic", "status", "seen", "origin", "description"):
        table.add_column(name, overflow="fold")
    for c in candidates:
        table.add_row(str(c.id), escape(c.proposed_tag), escape(c.topic), c.status,
                      str(c.seen_count), c.origin, escape(c.description or ""))
    console.print(table)


def _render_candidate(console: Console, c: CandidateRoot, verb: str) -> None:
    console.print(escape(f"candidate root '{c.proposed_tag}' {verb} (status {c.status}, seen "
                         f"{c.seen_count}x, origin {c.origin})"))


# -- tags ------------------------------------------------------------------------------------


@tags_app.command("list")
def tags_list(ctx: typer.Context) -> None:
    """The whole registry, sorted by tag."""
    result = _store(ctx).registry_tags()
    _emit(ctx, result, lambda c: _render_tags(c, result))


@tags_app.command("query")
def tags_query(
    ctx: typer.Context,
    topic: Annotated[str, typer.Argument(metavar="TOPIC", help="A free-text topic.")],
) -> None:
    """How a free-text topic resolves, and the tags that mention it."""
    result: RegistryQueryResult = _store(ctx).registry_query(topic)

    def render(console: Console) -> None:
        r = result.resolution
        if r.tag is not None:
            console.print(escape(f"'{r.topic}' resolves to {r.tag} (via {r.via})"))
        else:
            extra = "; entity-shaped, so it would surface as a candidate root" \
                if r.candidate_root else ""
            console.print(escape(f"'{r.topic}' is unresolved{extra}"))
        _render_tags(console, result.matches, title="matching tags")

    _emit(ctx, result, render)


@tags_app.command("add-leaf")
def tags_add_leaf(
    ctx: typer.Context,
    tag: Annotated[str, typer.Argument(metavar="TAG",
                                       help="A dotted tag whose parent exists, e.g. ci.nightly.")],
    description: Annotated[str | None, typer.Option(help="What the tag covers.")] = None,
) -> None:
    """Mint a dotted leaf under an existing parent (refuses roots and orphans)."""
    result: LeafResult = _store(ctx).registry_add_leaf(tag, description)
    verb = "minted" if result.created else "already existed:"
    _emit(ctx, result, lambda c: c.print(escape(
        f"{verb} {result.tag.tag} (parent {result.tag.parent})")))


@tags_app.command("propose-root")
def tags_propose_root(
    ctx: typer.Context,
    tag: Annotated[str, typer.Argument(metavar="TAG", help="A bare (undotted) tag.")],
    description: Annotated[str | None, typer.Option(help="What the root covers.")] = None,
) -> None:
    """Queue a new root for a person's approval; roots are never created directly."""
    result = _store(ctx).registry_propose_root(tag, description)

    def render(console: Console) -> None:
        _render_candidate(console, result, "queued")
        console.print(escape(f"approve with: factstore tags approve {result.proposed_tag}"))

    _emit(ctx, result, render)


@tags_app.command("candidates")
def tags_candidates(
    ctx: typer.Context,
    status: Annotated[str, typer.Option(help="pending | approved | rejected | all")] = "pending",
) -> None:
    """Candidate roots awaiting (or past) a person's decision."""
    result = _store(ctx).registry_candidates(None if status == "all" else status)
    _emit(ctx, result, lambda c: _render_candidates(c, result))


@tags_app.command("approve")
def tags_approve(
    ctx: typer.Context,
    tag: Annotated[str, typer.Argument(metavar="TAG", help="The candidate root's proposed tag.")],
    reason: Annotated[str | None, typer.Option(help="Why (kept with the decision).")] = None,
) -> None:
    """Approve a candidate root: it becomes a root tag and its facts carry it."""
    result = _store(ctx).registry_approve_root(tag, reason)
    _emit(ctx, result, lambda c: _render_candidate(c, result, "approved"))


@tags_app.command("reject")
def tags_reject(
    ctx: typer.Context,
    tag: Annotated[str, typer.Argument(metavar="TAG", help="The candidate root's proposed tag.")],
    reason: Annotated[str | None, typer.Option(help="Why (kept with the decision).")] = None,
) -> None:
    """Reject a candidate root; it stays in the queue as rejected."""
    result = _store(ctx).registry_reject_root(tag, reason)
    _emit(ctx, result, lambda c: _render_candidate(c, result, "rejected"))


@tags_app.command("alias")
def tags_alias(
    ctx: typer.Context,
    alias: Annotated[str, typer.Argument(metavar="ALIAS", help="A free-text spelling.")],
    tag: Annotated[str, typer.Argument(metavar="TAG", help="The canonical tag it means.")],
) -> None:
    """Map a free-text spelling to a canonical tag."""
    result = _store(ctx).registry_add_alias(alias, tag)
    _emit(ctx, result, lambda c: _render_tags(c, [result], title=f"alias '{alias}' added"))


@tags_app.command("lifetime")
def tags_lifetime(
    ctx: typer.Context,
    tag: Annotated[str, typer.Argument(metavar="TAG", help="A canonical tag.")],
    lifetime: Annotated[str, typer.Argument(metavar="LIFETIME|none",
                                            help="A default STATE lifetime ('2d', '36h') or "
                                                 "'none' to clear it.")],
) -> None:
    """Give a tag a default STATE lifetime, or clear it with 'none'."""
    value = None if lifetime.strip().lower() == "none" else lifetime
    result = _store(ctx).registry_set_lifetime(tag, value)
    shown = format_lifetime(result.default_lifetime)
    _emit(ctx, result, lambda c: c.print(escape(
        f"{result.tag}: default STATE lifetime {shown}" if shown
        else f"{result.tag}: default STATE lifetime cleared")))
