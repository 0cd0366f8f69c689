"""The tools a server exposes, once, for both doors (MCP and HTTP).

Each tool is a plain function of a Store (already narrowed to the caller's principal) and
typed keyword arguments; its signature is its JSON schema (MCP derives it, HTTP builds a
body model from it) and its docstring is the description an agent reads. No tool takes a
scope: the principal is the scope. Results are plain JSON.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from factstore.cli.formatting import to_jsonable
from factstore.service.notes import keep_note
from factstore.store import Store

__all__ = ["TOOLS", "Tool", "as_json", "note"]


@dataclass(frozen=True)
class Tool:
    """One tool: its name, its function and the first line of its description."""

    name: str
    fn: Callable[..., Any]

    @property
    def description(self) -> str:
        return inspect.getdoc(self.fn) or self.name

    def params(self) -> list[inspect.Parameter]:
        """The caller's parameters, annotations evaluated (the store is the server's, never
        the caller's): what both doors build their schemas from."""
        return list(inspect.signature(self.fn, eval_str=True).parameters.values())[1:]

    def call(self, store: Store, arguments: dict[str, Any]) -> Any:
        return as_json(self.fn(store, **arguments))


def as_json(value: Any) -> Any:
    """A result as strict JSON: the CLI's ``to_jsonable``, with NaN and infinities as null.
    Recall gives NaN as the similarity of an item no vector found (a fact found by its
    words); Python's json would write the token ``NaN``, which strict parsers refuse."""
    return _finite(to_jsonable(value))


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


# -- the seed's nine tools ---------------------------------------------------------------

def describe(store: Store) -> Any:
    """The store's shape: fact counts by kind and verdict, open conflicts, registry and
    queue sizes, the embedder and the server. Use it first to see what memory holds."""
    return store.describe()


def remember(store: Store, text: str, source_ref: str | None = None,
             said_at: str | None = None, source_type: str = "utterance",
             captured_by: str | None = None) -> Any:
    """Capture text (a message, a note, a paragraph) into memory: facts are extracted,
    checked against their quote, deduplicated and triaged against what is known. Returns
    each fact's outcome (written, recaptured, superseded, contested...) and any interrupt
    that needs a person. ``source_ref`` cites where it came from (e.g. 'chat:42#m3');
    ``said_at`` (ISO 8601) is when it was said; ``source_type`` is utterance, capture,
    file, commit or url; ``captured_by`` who or what captured it."""
    return store.remember(text, source_ref=source_ref, said_at=said_at,
                          source_type=source_type, captured_by=captured_by)


def recall(store: Store, query: str, k: int | None = None) -> Any:
    """Search memory for a question: facts and their source documents, by meaning and by
    words, each labeled honestly (current, last known, contested with its partner, weak
    match, history). Read the labels before answering from an item. Returns the layer that
    answered and the items (label, similarity, the fact and/or its document); ``k`` caps
    the items (default the store's setting)."""
    return store.recall(query, k=k)


def resolve_conflict(store: Store, conflict_id: int, winner_id: int, reasoning: str) -> Any:
    """Close an open conflict by naming which of its two facts wins; the other is
    superseded, with ``reasoning`` kept in its history. Ids come from open_conflicts or
    from a remember interrupt. Returns the closed conflict."""
    return store.resolve_conflict(conflict_id, winner_id, reasoning)


def resolve_both_stand(store: Store, conflict_id: int, reasoning: str) -> Any:
    """Close an open conflict whose two facts are both true (different wording, scope or
    time); neither is superseded. Returns the closed conflict."""
    return store.resolve_both_stand(conflict_id, reasoning)


def open_conflicts(store: Store) -> Any:
    """The open conflicts: pairs of facts that contradict each other and wait for a
    decision (resolve_conflict or resolve_both_stand). Returns a list of conflicts, each
    with its id, both facts (fact_a, fact_b), lane and what differs."""
    return list(store.open_conflicts())


def registry_query(store: Store, topic: str) -> Any:
    """How a free-text topic maps onto the governed tag registry: the canonical tag it
    resolves to (through aliases), or why it does not. Use it before tagging, to reuse an
    existing tag. Returns the resolution (tag, and via: alias, exact, leaf-name, minted or
    unresolved) and the registry's matching tags."""
    return store.registry_query(topic)


def registry_add_leaf(store: Store, tag: str, description: str | None = None) -> Any:
    """Add a leaf tag under an existing parent ('ops.ci.flaky' under 'ops.ci'). A bare tag
    is refused: new roots go through registry_propose_root. Returns the tag and whether it was created."""
    return store.registry_add_leaf(tag, description)


def registry_propose_root(store: Store, tag: str, description: str | None = None) -> Any:
    """Propose a new root tag; it waits in the candidate queue for a person to approve
    (agents never approve roots). Returns the candidate."""
    return store.registry_propose_root(tag, description)


# -- timelines (seed 002) ----------------------------------------------------------------

def write_facts(store: Store, facts: list[dict[str, Any]], shared: bool = False) -> Any:
    """Write dated facts about a subject (format v1, at most 50): each is
    {subject, attribute, value, unit?, valid_from?, valid_to?, observed_at?, source?, quote?,
    confidence?, cardinality?}. Subject is 'me' or 'person|project|decision|customer|system|
    glossary|radar/<slug>'. The store orders, supersedes and disputes; never resolve
    conflicts yourself. ``shared`` writes to the workspace's shared memory (if granted);
    otherwise to your personal memory. Any invalid fact rejects the whole request."""
    return store.write_facts({"format": 1, "facts": facts, "shared": shared})


def facts(store: Store, subject: str | None = None, attribute: str | None = None,
          as_of: str | None = None, known_at: str | None = None) -> Any:
    """Timelines: per subject+attribute the value(s) valid at ``as_of`` (a partial date
    such as '2025' means its end; default now), the whole history, and one rendered line.
    ``known_at`` reads what the store had recorded by then."""
    return store.facts(subject, attribute, as_of=as_of, known_at=known_at)


def brief(store: Store, question: str, as_of: str | None = None) -> Any:
    """The facts part of an answer: one line per timeline the question is about, as of the
    time it names (or ``as_of``), with numbered citations F1, F2.. Quote its lines."""
    return store.brief(question, as_of=as_of)


def retract(store: Store, fact_id: int, reason: str = "retracted by request") -> Any:
    """Withdraw a fact (kept, never deleted); its timeline is resolved again, so what it
    had superseded can become current."""
    return {"retracted": fact_id, "fact": store.retract(fact_id, reason=reason)}


def end_fact(store: Store, fact_id: int, valid_to: str, observed_at: str | None = None,
             source: str | None = None, quote: str | None = None) -> Any:
    """Say that a timeline fact stopped holding at ``valid_to`` ('2026-10'): it is
    observed again with the end stated, nothing rewritten."""
    return store.end_fact(fact_id, valid_to, observed_at=observed_at, source=source,
                          quote=quote)


def note(store: Store, body: str, facts: list[dict[str, Any]] | None = None,
         shared: bool = False) -> Any:
    """Keep a note (a body of text, remembered like remember's captures) and, optionally,
    the dated facts it states (same shape as write_facts, no 'format'). Each fact's source
    defaults to the note ('note:<scope>/<slug>') and its quote to nothing. Any invalid fact
    refuses the whole call before anything is written. Returns the note's ref, the facts'
    outcomes and the note's remember result."""
    return keep_note(store, body, facts, shared)


# -- the questions queue -----------------------------------------------------------------

def open_questions(store: Store, status: str | None = None) -> Any:
    """The store's own queue of known gaps (open, parked, blocker, resolved), each with
    its risk, cost and recommended status."""
    return list(store.open_questions(status))


def update_open_question(store: Store, question_id: int, status: str | None = None,
                         risk: str | None = None, cost: str | None = None,
                         note: str | None = None) -> Any:
    """Change a queue entry's status, risk or cost, or add a dated note to it."""
    return store.update_open_question(question_id, status=status, risk=risk, cost=cost,
                                      note=note)


def add_open_question(store: Store, title: str, body: str, risk: str, cost: str) -> Any:
    """File a new gap (risk and cost: low, medium, high)."""
    return store.add_open_question(title, body, risk=risk, cost=cost)


TOOLS: dict[str, Tool] = {fn.__name__: Tool(fn.__name__, fn) for fn in (
    describe, remember, recall, resolve_conflict, resolve_both_stand, open_conflicts,
    registry_query, registry_add_leaf, registry_propose_root,
    write_facts, facts, brief, retract, end_fact, note,
    open_questions, update_open_question, add_open_question)}
