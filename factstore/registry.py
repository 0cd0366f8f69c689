"""Tag registry governance as pure functions over a snapshot of the registry.

Roots are a human decision, leaves auto-mint under an existing parent, aliases heal
fragmentation. Resolution order for a free-text topic (seed 000 §6):
alias -> exact tag -> unique leaf name -> dotted with existing parent (mint) -> unresolved.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Set
from dataclasses import dataclass

from factstore.errors import InvalidInput, OrphanTag, RootlessTag
from factstore.inputs import show
from factstore.results import TagResolution
from factstore.writepath.topics import is_entity_shaped

_SEGMENT = r"[a-z0-9][a-z0-9_-]*"
TAG_SHAPE = re.compile(rf"^{_SEGMENT}(\.{_SEGMENT})*$")


@dataclass(frozen=True)
class RegistrySnapshot:
    """The registry as plain data: canonical tags and alias -> tag."""

    tags: Set[str]
    aliases: Mapping[str, str]


def canonical_form(topic: str) -> str:
    """'Build Pipeline' -> 'build_pipeline'; 'Ops.Runner' -> 'ops.runner'."""
    text = topic.strip().lower()
    text = re.sub(r"\s*\.\s*", ".", text)
    text = re.sub(r"[^a-z0-9_.-]+", "_", text)
    return text.strip("_.")


def alias_key(alias: str) -> str:
    """Aliases match case- and whitespace-insensitively."""
    return " ".join(alias.lower().split())


def parent_of(tag: str) -> str | None:
    return tag.rsplit(".", 1)[0] if "." in tag else None


def check_tag_shape(tag: str) -> str:
    """Return the tag if it is a well-formed dotted path, else raise InvalidInput."""
    if not isinstance(tag, str) or not TAG_SHAPE.match(tag):
        raise InvalidInput(
            f"tag {show(tag)} is not a canonical dotted path; use lowercase segments of letters, "
            "digits, '_' or '-', joined by dots (e.g. 'infra.ci.nightly')"
        )
    return tag


def check_leaf(tag: str, tags: Set[str]) -> str:
    """A leaf may be minted only under an existing parent: never a bare root, never an orphan."""
    check_tag_shape(tag)
    parent = parent_of(tag)
    if parent is None:
        raise RootlessTag(
            f"tag {tag!r} has no dotted parent, so minting it would create a root; roots are a "
            f"human decision: call registry_propose_root({tag!r}, description) instead"
        )
    if parent not in tags:
        raise OrphanTag(
            f"tag {tag!r} names parent {parent!r}, which is not in the registry; add the parent "
            "first (registry_add_leaf for a dotted parent, registry_propose_root for a root)"
        )
    return tag


def resolve_topic(topic: str, registry: RegistrySnapshot) -> TagResolution:
    """Resolve one free-text topic; never creates a root."""
    key = alias_key(topic)
    if key in registry.aliases:
        return TagResolution(topic, registry.aliases[key], "alias")
    form = canonical_form(topic)
    if form in registry.tags:
        return TagResolution(topic, form, "exact")
    if form and "." not in form:
        owners = [t for t in registry.tags if t.rsplit(".", 1)[-1] == form]
        if len(owners) == 1:
            return TagResolution(topic, owners[0], "leaf-name")
    if form and "." in form and TAG_SHAPE.match(form) and parent_of(form) in registry.tags:
        return TagResolution(topic, form, "minted")
    return TagResolution(topic, None, "unresolved", candidate_root=is_entity_shaped(topic))
