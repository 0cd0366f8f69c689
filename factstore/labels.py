"""Recall serving labels: the trinary discipline made into serving rules (seed 000 §5).

The store never launders a labeled fact into present-tense truth. Pure functions: given a
fact, the time and the lifetimes in force, say what the reader may take it to mean.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from factstore.kinds import Kind, Verdict
from factstore.results import Fact, Label

DOCUMENT_LABEL = Label(
    "document",
    "unverified document content — raw capture, not a typed fact; served because its words "
    "or its meaning match the question",
    present_tense=False,
)

#: A document every fact read from which has since been superseded or withdrawn: what was
#: said then, kept as history (supersession, never deletion), not what is believed now.
HISTORY_LABEL = Label(
    "superseded-source",
    "history — what was said then: every fact read from this capture has since been "
    "superseded or withdrawn; not current",
    present_tense=False,
)


def state_lifetime(fact: Fact, tag_lifetimes: Mapping[str, timedelta],
                   default: timedelta) -> tuple[timedelta, str]:
    """The lifetime a STATE fact ages by, and where it came from.

    Its own hint wins; else the shortest default among its tags (the most cautious clock);
    else the global default.
    """
    if fact.expected_lifetime is not None:
        return fact.expected_lifetime, "fact"
    tagged = [tag_lifetimes[t] for t in fact.tags if t in tag_lifetimes]
    if tagged:
        return min(tagged), "tag"
    return default, "default"


def is_stale(fact: Fact, now: datetime, tag_lifetimes: Mapping[str, timedelta],
             default: timedelta) -> bool:
    """A STATE aged past its lifetime since it was last verified."""
    if fact.kind is not Kind.STATE:
        return False
    lifetime, _ = state_lifetime(fact, tag_lifetimes, default)
    return now - fact.t_last_verified > lifetime


#: The caveat a fact carries once none of its testimony counts any more (seed 001: a
#: re-extraction that fails to derive it again never makes it silently vanish).
SUPPORT_WITHDRAWN = ("support withdrawn — no current testimony supports this any more (a "
                     "re-extraction did not derive it again, or its living source no longer "
                     "says it); why(fact_id) shows the claims")


def label_fact(fact: Fact, *, now: datetime, tag_lifetimes: Mapping[str, timedelta],
               default_lifetime: timedelta, partner_ids: Sequence[int] = (),
               similarity: float | None = None, strong: float | None = None,
               group_size: int = 0) -> Label:
    """The serving label for one retrievable fact.

    With ``similarity`` and ``strong`` (recall's strong gate), an active fact that matched
    the query only weakly is labeled as the weak match it is, not as believed current truth
    for the question asked. A fact whose support was withdrawn carries that caveat, and an
    active one is then never present tense.
    """
    label = _label(fact, now=now, tag_lifetimes=tag_lifetimes,
                   default_lifetime=default_lifetime, partner_ids=partner_ids,
                   similarity=similarity, strong=strong, group_size=group_size)
    if not fact.support_withdrawn:
        return label
    if label.code == "active":
        return Label("support-withdrawn", SUPPORT_WITHDRAWN, present_tense=False)
    return Label(label.code, f"{label.text}; {SUPPORT_WITHDRAWN}", present_tense=False)


def _label(fact: Fact, *, now: datetime, tag_lifetimes: Mapping[str, timedelta],
           default_lifetime: timedelta, partner_ids: Sequence[int], similarity: float | None,
           strong: float | None, group_size: int) -> Label:
    if fact.verdict is Verdict.CONTESTED:
        partners = ", ".join(f"#{p}" for p in partner_ids) or "its partner"
        more = group_size - 1 - len(partner_ids)
        if group_size > 2:
            return Label("contested",
                         f"contested — one of {group_size} facts that disagree (with "
                         f"{partners}{f' and {more} more' if more > 0 else ''}); every side "
                         "is served and the store does not choose", present_tense=False)
        return Label("contested",
                     f"contested — head-to-head with {partners} is unresolved; both sides are "
                     "served and the store does not choose", present_tense=False)
    if fact.verdict is Verdict.PARKED:
        return Label("parked", "parked — set aside, not an active claim", present_tense=False)
    if fact.verdict is not Verdict.ACTIVE:
        raise ValueError(f"fact #{fact.id} is {fact.verdict}: never served")
    if fact.kind is Kind.EVENT:
        return Label("event", "event — records that something happened; makes no claim about "
                              "the present state", present_tense=False)
    if is_stale(fact, now, tag_lifetimes, default_lifetime):
        lifetime, source = state_lifetime(fact, tag_lifetimes, default_lifetime)
        return Label("stale-state",
                     f"last known as of {fact.t_last_verified:%Y-%m-%d}, unverified since — do "
                     f"not serve as live (lifetime {_days(lifetime)} from {source})",
                     present_tense=False)
    if fact.kind is Kind.DECISION and fact.status_detail == "parked-with-trigger":
        trigger = (f"reopens when: {fact.trigger_predicate}" if fact.trigger_predicate
                   else "no trigger recorded")
        return Label("parked-decision",
                     f"parked decision — set aside until its trigger; {trigger}. Not a locked "
                     "decision in force", present_tense=False)
    if similarity is not None and strong is not None and similarity < strong:
        return Label("weak-match",
                     f"weak match — active, but similarity {similarity:.2f} is below the strong "
                     f"gate {strong:.2f}; it may not answer this question", present_tense=False)
    return Label("active", "active — believed current", present_tense=True)


def answering_layer(best_fact: float | None, *, floor: float, strong: float,
                    documents_found: bool) -> str:
    """Which layer answers: fact (a strong fact), fact+document (a strong fact, and documents
    with no fact of theirs served beside it), document (no strong fact), fact-weak, or none.
    ``best_fact`` is the best cosine among the served facts; ``documents_found`` says whether
    a document was served on its own."""
    if best_fact is not None and best_fact >= strong:
        return "fact+document" if documents_found else "fact"
    if documents_found:
        return "document"
    if best_fact is not None and best_fact >= floor:
        return "fact-weak"
    return "none"


def _days(delta: timedelta) -> str:
    days = delta.total_seconds() / 86400
    return f"{days:g}d" if days >= 1 else f"{delta.total_seconds() / 3600:g}h"
