"""Tunable thresholds and switches. Settings, not constants: researchers sweep them.

Every field can be set from the environment as FACTSTORE_<FIELD_NAME_UPPER>, or passed to
``Store.open(settings=Settings(...))``. Values are validated on construction.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field, fields
from datetime import timedelta

from factstore.errors import InvalidInput
from factstore.lifetimes import parse_lifetime

DEFAULT_SCRIBE_NAMES: tuple[str, ...] = (
    "assistant", "scribe", "claude", "gpt", "chatgpt", "openai", "llama", "ollama", "mistral",
    "mixtral", "qwen", "gemma", "phi", "deepseek", "nomic-embed-text", "minilm",
)


@dataclass(frozen=True)
class Settings:
    """Thresholds for the write path and recall. See docs/architecture.md for each one's role."""

    #: cosine similarity at or above which a same-kind live fact is a conflict candidate
    density_threshold: float = 0.80
    #: below the threshold, down to this cosine, a near-hit is a conflict candidate only when the
    #: difference detector finds a strong contradiction (a negation, an antonym or status
    #: change, a value replaced in the same slot); chosen by measurement, see docs/evals.md.
    #: A floor at or above the threshold turns the band off.
    contradiction_floor: float = 0.50
    #: the same band's lower edge for a near-hit about the same subject (both facts carry one
    #: subject key): a status reading changed ("svc-7 is healthy" / "... is paused", cosine
    #: 0.58) is caught down to here
    subject_floor: float = 0.50
    #: how many nearest neighbours the density check considers (kind-wide, and per subject)
    density_k: int = 5
    #: restrict the density check to facts sharing at least one tag (when the new fact has tags)
    density_shared_tag: bool = False
    #: HNSW candidate list size for kNN queries (pgvector hnsw.ef_search)
    ef_search: int = 100
    #: below this cosine a fact is too weak to serve at all
    recall_floor: float = 0.30
    #: if the best fact is below this the fact layer is thin and recall falls through to documents
    recall_strong: float = 0.55
    #: documents below this cosine are not served in the fall-through
    document_floor: float = 0.30
    #: default number of items recall returns
    recall_k: int = 8
    #: how many candidates each of recall's retrievers contributes (facts and documents, by
    #: vector and by words) before they are fused; at least k
    recall_candidates: int = 40
    #: recall also searches the words (Postgres full-text search) of facts and documents,
    #: beside the vectors; off leaves the vector retrievers alone (for ablations)
    recall_lexical: bool = True
    #: a question's word that more rows than this hold (by the table's ANALYZE statistics)
    #: is too common to search by: it would cost a ranking of most of the table and tell
    #: nothing apart (a small store keeps every word)
    recall_word_max_rows: int = 1000
    #: ... or more than this share of the rows (it tells little apart: a chat speaker's name
    #: opens half the turns; the named-people preference carries it instead)
    recall_word_max_share: float = 0.2
    #: recall lifts the slots by or about a person the question names, and from the time it
    #: names, as if one more retriever of this weight had ranked them (a retriever's weight
    #: is 1; 0 turns the preferences off)
    recall_preference_weight: float = 1.0
    #: reciprocal rank fusion's constant: each retriever gives a slot 1 / (this + rank)
    recall_rrf_k: int = 60
    #: MMR's relevance weight when recall picks its slots: 1.0 is relevance alone, lower
    #: trades relevance for slots that are not near copies of one another
    recall_mmr_lambda: float = 0.7
    #: the entity resolver's snapshot: at most this many candidates per mention (the rest
    #: are left out, and the truncation recorded in the mention's audit)
    entity_candidates: int = 8
    #: T3 accepts the one candidate with a current profile when the mention's context is at
    #: least this similar to it; otherwise T4 decides
    entity_t3_accept: float = 0.5
    #: a rebuilt profile this similar to another entity's (names fitting, nothing telling
    #: them apart) raises a merge proposal; a person decides (no automatic merging)
    entity_merge_propose: float = 0.75
    #: recall also serves up to this many facts about entities one relation away from the
    #: ones the question names or the served facts are about (0: off)
    recall_neighbours: int = 0
    #: how many co-members of a contested fact's contradiction group recall and context
    #: serve inline; the rest are named in a continuation (Store.contradiction_group)
    group_inline: int = 6
    #: STATE facts with no hint of their own and no tag default go stale after this long
    state_default_lifetime: timedelta = timedelta(days=7)
    #: a capture with at least this many [[wiki-links]] ...
    index_page_min_links: int = 5
    #: ... making up at least this share of its words is a table of contents
    index_page_link_share: float = 0.25
    #: names never kept as topics (provenance is not aboutness); captured_by is always dropped too
    scribe_names: tuple[str, ...] = field(default=DEFAULT_SCRIBE_NAMES)
    #: the second stage after cosine: 'route' (a contradiction is a conflict candidate, a
    #: detail on one side only a separate fact), 'annotate' (every near-hit that differs at
    #: all is a candidate, and the interrupt says what differs) or 'off' (cosine alone). In
    #: 'route' and 'annotate' a near-hit with no detected difference is new testimony.
    difference_detector: str = "route"
    #: fold fragments of one assertion back into one fact (the sentence-shredding fix)
    granularity_fix: bool = True
    #: park a fact whose statement's negation polarity differs from its quote's
    polarity_guard: bool = True
    #: import_facts drops an HNSW index, loads and builds it again (in the chunk's own
    #: transaction) when the chunk adds at least this share of the rows the index holds;
    #: 0 rebuilds for any chunk of import_rebuild_min_rows or more (store/index_plan.py).
    #: Measured break-even: about 0.18 into 20,000 facts, about 0.05 into 1,000,000
    #: (docs/performance.md, "Bulk import (set-based)")
    import_rebuild_fraction: float = 0.1
    #: ... and never in a chunk of fewer records than this (a small import never takes the
    #: table lock a rebuild needs)
    import_rebuild_min_rows: int = 2000

    def __post_init__(self) -> None:
        for name in ("density_threshold", "contradiction_floor", "subject_floor", "recall_floor", "recall_strong", "document_floor", "entity_t3_accept", "entity_merge_propose",
                     "index_page_link_share", "recall_mmr_lambda", "recall_preference_weight",
                     "recall_word_max_share"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) \
                    or not 0.0 <= float(value) <= 1.0:
                raise InvalidInput(f"setting {name}={value!r} must be a number in [0, 1]")
        fraction = self.import_rebuild_fraction
        if isinstance(fraction, bool) or not isinstance(fraction, int | float) \
                or not 0.0 <= float(fraction) < float("inf"):
            raise InvalidInput(f"setting import_rebuild_fraction={fraction!r} must be a "
                               "finite number >= 0")
        if not isinstance(self.recall_neighbours, int) or isinstance(self.recall_neighbours, bool) \
                or not 0 <= self.recall_neighbours <= 100:
            raise InvalidInput(f"setting recall_neighbours={self.recall_neighbours!r} must be "
                               "a whole number from 0 (off) to 100")
        for name in ("density_k", "ef_search", "recall_k", "group_inline", "entity_candidates",
                     "recall_candidates", "recall_rrf_k", "recall_word_max_rows",
                     "index_page_min_links",
                     "import_rebuild_min_rows"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise InvalidInput(f"setting {name}={value!r} must be a positive integer")
        for name in ("density_shared_tag", "recall_lexical",
                     "granularity_fix", "polarity_guard"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidInput(f"setting {name}={getattr(self, name)!r} must be true or false")
        if self.difference_detector not in ("off", "annotate", "route"):
            raise InvalidInput(f"setting difference_detector={self.difference_detector!r} must "
                               "be 'off', 'annotate' or 'route'")
        if self.recall_floor > self.recall_strong:
            raise InvalidInput(
                f"recall_floor ({self.recall_floor}) must not exceed recall_strong "
                f"({self.recall_strong}); lower the floor or raise the strong gate"
            )
        if not isinstance(self.state_default_lifetime, timedelta) or \
                self.state_default_lifetime <= timedelta(0):
            raise InvalidInput(
                f"setting state_default_lifetime={self.state_default_lifetime!r} must be a "
                "positive timedelta (from the environment: '7d', '36h', '2w')"
            )

    def replace(self, **changes: object) -> Settings:
        """A copy with some fields changed (validated)."""
        unknown = set(changes) - {f.name for f in fields(self)}
        if unknown:
            raise InvalidInput(f"unknown setting(s) {sorted(unknown)}; known: "
                               f"{', '.join(f.name for f in fields(self))}")
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Settings:
        """Defaults overridden by FACTSTORE_<NAME> environment variables."""
        env = os.environ if environ is None else environ
        changes: dict[str, object] = {}
        for f in fields(cls):
            raw = env.get(f"FACTSTORE_{f.name.upper()}")
            if raw is None:
                continue
            changes[f.name] = _coerce(f.name, f.type, raw)
        return cls(**changes)  # type: ignore[arg-type]

    def as_dict(self) -> dict[str, object]:
        """Plain values, for describe() and eval run records."""
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, timedelta):
                value = f"{value.total_seconds() / 86400:g}d"
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


def _coerce(name: str, type_name: object, raw: str) -> object:
    text = str(type_name)
    try:
        if "bool" in text:
            if raw.lower() in ("1", "true", "yes", "on"):
                return True
            if raw.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(raw)
        if "float" in text:
            return float(raw)
        if "int" in text:
            return int(raw)
        if "timedelta" in text:
            return parse_lifetime(raw)
        if "tuple" in text:
            return tuple(part.strip() for part in raw.split(",") if part.strip())
    except (ValueError, InvalidInput) as exc:
        raise InvalidInput(f"environment FACTSTORE_{name.upper()}={raw!r} is not a valid "
                           f"{text}: {exc}") from None
    return raw
