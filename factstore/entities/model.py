"""The entity layer's result types, and the pure rules reads apply to them: entity types,
the relation vocabulary, a relation's confidence, graph traversal, profiles. Plain data."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from factstore.frames import pandas_frame, polars_frame

#: The types the registry starts with; any CamelCase name is accepted (extensible).
ENTITY_TYPES = ("Person", "Organization", "Project", "Place", "Service", "Concept")
_TYPE = re.compile(r"^[A-Z][A-Za-z]{1,39}$")
#: Timeline subject prefixes and the type each names ('person/ana' is a Person).
TIMELINE_TYPES = {"person": "Person", "org": "Organization", "organization": "Organization",
                  "project": "Project", "place": "Place", "service": "Service",
                  "team": "Organization"}
#: The relation vocabulary (seed 004's examples and what the offline extractor reads).
PREDICATES = ("works_at", "reports_to", "manages", "member_of", "leads", "located_in",
              "lives_in", "born_in", "studied_at", "founded", "acquired", "owns", "part_of",
              "maintains", "depends_on", "uses", "married_to", "sibling_of", "friend_of",
              "created", "moved_to", "joined", "left", "partner_of", "competitor_of")
SYMMETRIC = frozenset(("married_to", "sibling_of", "friend_of", "partner_of",
                       "competitor_of"))


def timeline_name(subject: str) -> tuple[str, str]:
    """A timeline subject's canonical name and type: 'person/ana-lopez' is the Person
    'Ana Lopez', 'project/falcon' the Project 'Falcon', 'me' the Person the store is for;
    an unknown prefix is a Concept named by its slug."""
    if subject.strip().lower() == "me":
        return "me", "Person"
    prefix, slash, slug = subject.partition("/")
    if not slash:
        return subject.strip()[:400] or subject, "Concept"
    words = [w for w in slug.replace("_", "-").split("-") if w]
    name = " ".join(w[:1].upper() + w[1:] for w in words)[:400] or subject[:400]
    return name, TIMELINE_TYPES.get(prefix.lower(), "Concept")


#: The types an entity attribute's value may have, and what each accepts.
ATTRIBUTE_TYPES = ("text", "int", "float", "bool", "date")
_ATTRIBUTE_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
_DATE = re.compile(r"^\d{4}(-\d{2}(-\d{2})?)?$")


def attribute_value(name: object, value: object, kind: object) -> tuple[str, dict[str, Any]]:
    """A typed attribute ('founded', 1998, 'int') as stored: its name and
    ``{"type": ..., "value": ...}``; ValueError naming what is wrong. Pure."""
    if not isinstance(name, str) or not _ATTRIBUTE_NAME.match(name):
        raise ValueError(f"attribute name {name!r} must be lower_snake_case, 1-64 "
                         "characters, starting with a letter")
    if kind not in ATTRIBUTE_TYPES:
        raise ValueError(f"attribute type {kind!r} is not one of {', '.join(ATTRIBUTE_TYPES)}")
    if kind == "bool":
        text = str(value).strip().lower()
        if isinstance(value, bool) or text in ("true", "false"):
            return name, {"type": kind, "value": value if isinstance(value, bool)
                          else text == "true"}
        raise ValueError(f"attribute {name}: {value!r} is not true or false")
    if kind in ("int", "float"):
        try:
            number = int(str(value)) if kind == "int" else float(str(value))
        except ValueError:
            raise ValueError(f"attribute {name}: {value!r} is not a{'n' if kind == 'int' else ''}"
                             f" {kind}") from None
        if isinstance(value, bool) or number != number or number in (float("inf"),
                                                                    float("-inf")):
            raise ValueError(f"attribute {name}: {value!r} is not a finite {kind}")
        return name, {"type": kind, "value": number}
    if not isinstance(value, str) or not value.strip() or len(value) > 2000:
        raise ValueError(f"attribute {name}: a {kind} value is 1-2000 characters of text")
    if kind == "date" and not _DATE.match(value.strip()):
        raise ValueError(f"attribute {name}: {value!r} is not a date (YYYY, YYYY-MM or "
                         "YYYY-MM-DD)")
    return name, {"type": kind, "value": value.strip()}


def entity_type(value: object) -> str | None:
    """A valid entity type (CamelCase, 2-40 letters) or None."""
    return value if isinstance(value, str) and _TYPE.fullmatch(value) else None


def relation_confidence(lineages: int) -> float:
    """A relation's confidence from the distinct lineages with current testimony for it:
    0.5 for one source, 0.75 for two, 0.875 for three ... 0 for none."""
    return 0.0 if lineages <= 0 else round(1 - 0.5 ** lineages, 6)


@dataclass(frozen=True)
class Entity:
    """One registry entry. ``redirected_from`` lists the ids a read followed to reach it
    (merged entities point at their survivor; the redirect is disclosed, never hidden)."""

    id: str
    canonical_name: str
    entity_type: str
    aliases: tuple[str, ...]
    attributes: Mapping[str, Any]
    created_at: datetime
    mentions: int = 0
    timeline_subject: str | None = None
    merged_into: str | None = None
    profile: str | None = None
    profile_built_at: datetime | None = None
    profile_stale: bool = True
    redirected_from: tuple[str, ...] = ()
    #: entities merged into this one (their ids)
    merged: tuple[str, ...] = ()

    grain = "entity"


ENTITY_COLUMNS = ("id", "canonical_name", "entity_type", "aliases", "mentions",
                  "timeline_subject", "merged_into", "profile_stale", "created_at")


class EntityList(list[Entity]):
    """Store.entities: a plain list with frames."""

    def to_pandas(self) -> Any:
        return pandas_frame((asdict(e) for e in self), ENTITY_COLUMNS)

    def to_polars(self) -> Any:
        return polars_frame([asdict(e) for e in self], ENTITY_COLUMNS)

    def _repr_html_(self) -> str:
        from factstore.html import entities_html

        return entities_html(self)


@dataclass(frozen=True)
class Relation:
    """(subject entity, predicate, object entity) with its confidence and evidence."""

    id: int
    subject: str
    subject_name: str
    predicate: str
    object: str
    object_name: str
    confidence: float
    #: distinct lineages with current testimony for it
    support: int
    claim_ids: tuple[int, ...] = ()

    grain = "relation"


@dataclass(frozen=True)
class Neighbour:
    """An entity reached from the anchor: how far, by which relations, how strongly (the
    product of the confidences along the path)."""

    entity: Entity
    depth: int
    weight: float
    path: tuple[Relation, ...]


class NeighbourList(list[Neighbour]):
    """Store.neighbours: strongest first, with frames."""

    def to_pandas(self) -> Any:
        return pandas_frame((_neighbour_row(n) for n in self), NEIGHBOUR_COLUMNS)

    def to_polars(self) -> Any:
        return polars_frame([_neighbour_row(n) for n in self], NEIGHBOUR_COLUMNS)

    def _repr_html_(self) -> str:
        from factstore.html import neighbours_html

        return neighbours_html(self)


NEIGHBOUR_COLUMNS = ("entity_id", "name", "entity_type", "depth", "weight", "path")


def _neighbour_row(n: Neighbour) -> dict[str, Any]:
    return {"entity_id": n.entity.id, "name": n.entity.canonical_name,
            "entity_type": n.entity.entity_type, "depth": n.depth, "weight": n.weight,
            "path": " / ".join(f"{r.subject_name} {r.predicate} {r.object_name}"
                               for r in n.path)}


def traverse(anchor: str, edges: Callable[[set[str]], Iterable[Relation]], depth: int,
             predicates: frozenset[str] | None = None) -> dict[str, tuple[int, float,
                                                                          tuple[Relation, ...]]]:
    """Breadth-first from ``anchor`` over relations in either direction, ``depth`` hops at
    most, only ``predicates`` (all when None). Each reached entity keeps its strongest path
    (the product of confidences; a shorter path wins a tie). ``edges`` returns the
    relations touching a set of entities (one query per hop)."""
    best: dict[str, tuple[int, float, tuple[Relation, ...]]] = {anchor: (0, 1.0, ())}
    frontier = {anchor}
    for hop in range(1, depth + 1):
        # extend only the paths as they stood at the start of this hop, so one hop adds
        # one relation whatever order the edges come in
        start = {e: best[e] for e in frontier}
        reached: set[str] = set()
        for rel in edges(frontier):
            if predicates is not None and rel.predicate not in predicates:
                continue
            for here, there in ((rel.subject, rel.object), (rel.object, rel.subject)):
                if here not in start:
                    continue
                _, weight, path = start[here]
                candidate = (hop, weight * rel.confidence, (*path, rel))
                held = best.get(there)
                if held is None or (candidate[1], -candidate[0]) > (held[1], -held[0]):
                    best[there] = candidate
                    reached.add(there)
        frontier = reached
        if not frontier:
            break
    best.pop(anchor)
    return best


def profile_text(entity_name: str, entity_type: str, aliases: Sequence[str],
                 statements: Sequence[str], relations: Sequence[str], *,
                 limit: int = 8) -> str | None:
    """An entity's profile: its name, type, aliases, and what current supported facts and
    relations say of it (the most recent first). None when nothing supports it: an entity
    with no evidence has no profile and no vector (T3 skips it)."""
    said = list(dict.fromkeys(s for s in statements if s))[:limit]
    related = list(dict.fromkeys(r for r in relations if r))[:limit]
    if not said and not related:
        return None
    others = [a for a in aliases if a != entity_name]
    head = f"{entity_name} ({entity_type})" + (f", also {', '.join(others)}" if others else "")
    return ". ".join([head, *related, *(s.rstrip('.') for s in said)]) + "."


@dataclass(frozen=True)
class MergeProposal:
    """Two entities the store thinks may be one; a person decides (automatic merging is
    off until its threshold is calibrated)."""

    id: int
    entity_a: str
    entity_b: str
    score: float | None
    reason: str
    status: str
    created_at: datetime


@dataclass(frozen=True)
class ProfileRefresh:
    """What refresh_profiles did: profiles rebuilt from current evidence, profiles cleared
    (no evidence left: no text, no vector), and merge proposals the new profiles raised."""

    rebuilt: int
    cleared: int
    proposed: int


@dataclass(frozen=True)
class MergeResult:
    """What merge / unmerge did: the survivor, the other, and the redirect's state."""

    survivor: Entity
    merged: Entity
    action: str
    reason: str
    at: datetime


@dataclass(frozen=True)
class MentionRecord:
    """A name a claim mentioned, what it resolved to, and how."""

    id: int
    name: str
    role: str
    entity_id: str
    tier: str
    claim_id: int | None
    document_id: int
    resolver: str | None
    confidence: float | None
    audit: Mapping[str, Any] = field(default_factory=dict)
