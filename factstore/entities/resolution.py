"""Tiered entity resolution at write time (seed 001, "Identity"). Pure.

A mention (a name in a claim, with the claim as its context) is resolved against a bounded
snapshot of candidate entities the store found by name keys (:mod:`factstore.entities.names`):

- **T0** an exact name is a candidate signal only; it never accepts across documents. The one
  exception: after T4 bound that exact name to one entity in a document, later repeats in
  the same document replay the binding (generation ``document-t0-v1``). A fuzzy T1/T2 match
  never gains that authority.
- **T1 / T2** alias and normalised-name matches (titles, suffixes, nicknames, parts of a
  name), then close spellings: these make the candidate list.
- **T3** compares the mention in its context (the claim's statement vector) with the
  candidate's profile vector (name, aliases and salient current facts), never two name-only
  vectors. One candidate with a current profile and no positive distinction, similar
  enough, is accepted here. An entity with no evidence has no profile vector and goes on.
- **T4** one binary, match-biased decision over every candidate of the snapshot: one
  candidate id, or ``new``. ``new`` needs positive distinction from every candidate
  (another type, another surname, another value of a one-valued relation such as
  works_at); missing overlap and other topics are not evidence of another referent. The
  decision comes from a :class:`Resolver`: the deterministic one here by default, an
  Ollama model in production (:mod:`factstore.entities.resolvers`).

The confidence is kept in the audit and never routes anything; a truncated snapshot is
recorded (``truncated``) without becoming a third decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from factstore.entities.names import NameFit, name_score, normalise, surname_clash, tokens

#: The generation of document bindings T0 replays (a binding of another generation is
#: ignored, so a change to the replay rule never replays an old decision).
BINDING_GENERATION = "document-t0-v1"
#: Relations one entity holds with one value at a time: another value is positive
#: distinction ("Alex works at Globex" is not the Alex who works at Initech).
ONE_VALUED = frozenset(("works_at", "lives_in", "born_in", "married_to", "reports_to"))
PERSONISH = "Person"
#: The type an entity has until a mention says one (entity_stage creates it so).
UNTYPED = "Concept"


@dataclass(frozen=True)
class Mention:
    """A name in a claim: what T1-T4 resolve."""

    name: str
    #: Person, Organization, Project, Place, Service, Concept ...; None when unknown
    entity_type: str | None
    #: the claim's statement (its context) and its vector, for T3
    context: str
    vector: np.ndarray | None = None
    #: one-valued relations this claim states about the mention: {'works_at': 'acme'}
    anchors: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Candidate:
    """An entity of the snapshot, with what T3 and T4 may read of it."""

    entity_id: str
    canonical_name: str
    aliases: tuple[str, ...]
    entity_type: str
    profile: str | None = None
    profile_vector: np.ndarray | None = None
    salient: tuple[str, ...] = ()
    #: its one-valued relations' values: {'works_at': {'globex'}}
    anchors: Mapping[str, frozenset[str]] = field(default_factory=dict)
    #: already mentioned in this document (resolved there before)
    in_document: bool = False
    mentions: int = 0


@dataclass(frozen=True)
class Scored:
    """A candidate as the tiers read it."""

    candidate: Candidate
    fit: NameFit
    #: cosine of the mention's context with the candidate's profile; None: no profile
    t3: float | None
    #: the positive distinction found, if any ('type', 'surname', 'works_at ...')
    distinct: str | None

    def as_audit(self) -> dict[str, Any]:
        c = self.candidate
        return {"id": c.entity_id, "name": c.canonical_name, "type": c.entity_type,
                "fit": round(self.fit.score, 3), "tier": self.fit.tier, "why": self.fit.why,
                "t3": None if self.t3 is None else round(self.t3, 3),
                "distinct": self.distinct, "in_document": c.in_document}


@dataclass(frozen=True)
class Decision:
    """What T4 decided: a candidate's id, or None for a new entity, and why."""

    entity_id: str | None
    reason: str
    confidence: float | None = None


class Resolver(Protocol):
    """T4: one binary, match-biased decision over every candidate in the snapshot."""

    name: str

    def decide(self, mention: Mention, candidates: Sequence[Scored]) -> Decision:
        """One supplied candidate id, or new (None)."""
        ...


@dataclass(frozen=True)
class Resolution:
    """The outcome for one mention, with its audit."""

    #: the entity it resolved to; None means a new entity is to be created
    entity_id: str | None
    #: T0 (replayed binding), T3, T4, or 'none' (no candidate at all: new)
    tier: str
    reason: str
    confidence: float | None
    audit: Mapping[str, Any]


def _cosine(a: np.ndarray | None, b: np.ndarray | None) -> float | None:
    if a is None or b is None:
        return None
    denom = float(np.linalg.norm(a) * np.linalg.norm(b))
    return float(np.dot(a, b) / denom) if denom else None


def distinction(mention: Mention, candidate: Candidate) -> str | None:
    """Positive evidence that the mention is not this candidate, else None."""
    types = (mention.entity_type, candidate.entity_type)
    # an untyped entity (a Concept until a mention says more) is not told apart by type
    if all(types) and types[0] != types[1] and UNTYPED not in types:
        return f"type {mention.entity_type} is not {candidate.entity_type}"
    if (mention.entity_type or candidate.entity_type) == PERSONISH and \
            len(tokens(mention.name)) >= 2:
        # only full names can clash: a bare "Alex" alias proves nothing either way
        full = [n for n in (candidate.canonical_name, *candidate.aliases)
                if len(tokens(n)) >= 2]
        if full and all(surname_clash(mention.name, n) for n in full):
            return f"surname: {mention.name} is not {candidate.canonical_name}"
    for predicate, value in mention.anchors.items():
        held = candidate.anchors.get(predicate)
        if predicate in ONE_VALUED and held and normalise(value) not in held:
            return f"{predicate} {value} is not {', '.join(sorted(held))}"
    return None


def entities_distinct(a: Candidate, b: Candidate) -> str | None:
    """Positive evidence that two registry entries are two referents (what keeps a merge
    proposal from being made): another type, another surname, or another value of a
    one-valued relation."""
    if a.entity_type != b.entity_type and "Concept" not in (a.entity_type, b.entity_type):
        return f"type {a.entity_type} is not {b.entity_type}"
    if PERSONISH in (a.entity_type, b.entity_type):
        # only full names can clash: a bare "Alex" alias on both sides proves nothing
        full_a = [x for x in (a.canonical_name, *a.aliases) if len(tokens(x)) >= 2]
        full_b = [y for y in (b.canonical_name, *b.aliases) if len(tokens(y)) >= 2]
        if full_a and full_b and all(surname_clash(x, y) for x in full_a for y in full_b):
            return f"surname: {a.canonical_name} is not {b.canonical_name}"
    for predicate in sorted(ONE_VALUED & a.anchors.keys() & b.anchors.keys()):
        if not a.anchors[predicate] & b.anchors[predicate]:
            return (f"{predicate} {', '.join(sorted(a.anchors[predicate]))} is not "
                    f"{', '.join(sorted(b.anchors[predicate]))}")
    return None


def score(mention: Mention, candidates: Sequence[Candidate]) -> list[Scored]:
    """Every candidate whose name fits (T1/T2), with its T3 similarity and distinction,
    best first."""
    out = []
    for candidate in candidates:
        fit = name_score(mention.name, [candidate.canonical_name, *candidate.aliases])
        if fit.score <= 0:
            continue
        out.append(Scored(candidate, fit, _cosine(mention.vector, candidate.profile_vector),
                          distinction(mention, candidate)))
    return sorted(out, key=lambda x: _rank(x, mention.name))


def fit_rank(mention: str, fit: NameFit) -> float:
    """A name fit as ranking reads it: to a tenth, and a bare one-word name's alias, exact
    and part fits alike (see :func:`_rank`)."""
    if len(tokens(mention)) == 1 and fit.why in ("exact", "alias", "part") and fit.score >= 0.8:
        return 1.0
    return round(fit.score, 1)


def _rank(s: Scored, mention: str = "") -> tuple:
    """Match-biased order: no distinction, then the name's fit (to a tenth), then this
    document, then the context's similarity, then the better-known entity. A bare one-word
    name fits every candidate it is a part or an alias of alike ("Priya" of Priya Patel and
    of Priya Nair): which of them already carries the alias is history, not evidence, so
    the context decides among them."""
    return (s.distinct is not None, -fit_rank(mention, s.fit), not s.candidate.in_document,
            -(s.t3 if s.t3 is not None else -1.0), -s.candidate.mentions,
            s.candidate.entity_id)


def resolve(mention: Mention, candidates: Sequence[Candidate], resolver: Resolver, *,
            binding: str | None = None, truncated: bool = False,
            t3_accept: float = 0.5) -> Resolution:
    """Resolve one mention against the snapshot (see the module doc)."""
    scored = score(mention, candidates)
    audit: dict[str, Any] = {"candidates": [s.as_audit() for s in scored],
                             "truncated": truncated, "snapshot": len(candidates)}
    if binding is not None and any(s.candidate.entity_id == binding and s.fit.why in
                                   ("exact", "alias") for s in scored):
        return Resolution(binding, "T0", "this exact name was bound to it earlier in the "
                          f"document ({BINDING_GENERATION})", None, audit)
    if not scored:
        return Resolution(None, "none", "no candidate has a fitting name", None, audit)
    open_ = [s for s in scored if s.distinct is None]
    if len(scored) == 1 and open_ and open_[0].t3 is not None and open_[0].t3 >= t3_accept:
        only = open_[0]
        return Resolution(only.candidate.entity_id, "T3",
                          f"the one candidate; its profile fits the context ({only.t3:.2f})",
                          only.t3, audit)
    decision = resolver.decide(mention, scored)
    known = {s.candidate.entity_id for s in scored}
    if decision.entity_id is not None and decision.entity_id not in known:
        # a model that names no supplied candidate has not decided: match-biased default
        audit["refused_decision"] = decision.entity_id
        decision = RuleResolver().decide(mention, scored)
    audit["resolver"] = resolver.name
    return Resolution(decision.entity_id, "T4", decision.reason, decision.confidence, audit)


class RuleResolver:
    """The offline T4: deterministic and match-biased. It picks the best candidate that no
    positive distinction rules out; ``new`` only when every candidate is ruled out."""

    name = "rules/t4-v1"

    def decide(self, mention: Mention, candidates: Sequence[Scored]) -> Decision:
        open_ = sorted((s for s in candidates if s.distinct is None),
                       key=lambda x: _rank(x, mention.name))
        if not open_:
            reasons = "; ".join(f"{s.candidate.canonical_name}: {s.distinct}"
                                for s in candidates)
            return Decision(None, f"new: distinct from every candidate ({reasons})", 1.0)
        best = open_[0]
        margin = best.fit.score - (open_[1].fit.score if len(open_) > 1 else 0.0)
        why = (f"{best.fit.why} name fit {best.fit.score:.2f}"
               + (", already in this document" if best.candidate.in_document else "")
               + (f", context {best.t3:.2f}" if best.t3 is not None else ""))
        return Decision(best.candidate.entity_id, f"match: {why}",
                        round(min(1.0, best.fit.score * (0.5 + margin)), 3))
