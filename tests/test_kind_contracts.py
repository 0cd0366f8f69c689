"""The three mutation contracts (seed 004), each through ``remember``:

- **Fact** (RULE, DECISION, REFERENCE, RESIDUAL): append-only; a different value for the
  same subject is a contradiction stored beside the old one, and the read prefers the
  higher-confidence, then the more recent member.
- **Preference** (PREFERENCE, and STATE's readings): supersedes; the old row's
  ``superseded_by`` points at the new one, recall serves only the newest, ``chain`` returns
  the history.
- **Event** (EVENT): immutable, with ``event_at``; a similar event is a second event.
"""

from __future__ import annotations

from datetime import UTC, datetime

from factstore.kinds import Verdict
from tests.helpers import fact


def tell(store, text: str, *facts, **capture):
    store.extractor.add(text, *facts)
    return store.remember(text, **capture)


def by_statement(store, statement: str):
    return next(f for f in store.facts_by_verdict() if f.statement == statement)


def test_fact_contract_keeps_both_and_reads_the_surer_then_the_newer(store):
    old = "The payments runbook lives at wiki/payments-v1."
    new = "The payments runbook lives at wiki/payments-v2."
    tell(store, "runbook v1", fact(old, "REFERENCE", quote="runbook v1"), source_ref="a",
         said_at="2026-03-01T09:00:00Z")
    tell(store, "runbook v2", fact(new, "REFERENCE", quote="runbook v2"), source_ref="b",
         said_at="2026-03-02T09:00:00Z")
    a, b = by_statement(store, old), by_statement(store, new)
    # append-only: both kept, contested together, nothing superseded
    assert (a.verdict, b.verdict) == (Verdict.CONTESTED, Verdict.CONTESTED)
    assert a.superseded_by is None and b.superseded_by is None
    items = {i.fact.id: i for i in store.recall("where is the payments runbook").items
             if i.fact}
    assert {a.id, b.id} <= set(items)
    # equal confidence (one source each): the more recent is the one the read prefers
    assert items[b.id].preferred and not items[a.id].preferred
    # a second source for the older one makes it the surer: the read now prefers it
    tell(store, "runbook v1 again", fact(old, "REFERENCE", quote="runbook v1 again"),
         source_ref="c", said_at="2026-03-03T09:00:00Z")
    items = {i.fact.id: i for i in store.recall("where is the payments runbook").items
             if i.fact}
    assert store.fact(a.id).support_count == 2
    assert items[a.id].preferred and not items[b.id].preferred


def test_preference_contract_supersedes_and_keeps_the_chain(store):
    first = "Priya prefers async standups."
    second = "Priya prefers live standups."
    tell(store, "async please", fact(first, "PREFERENCE", quote="async please",
                                     subject="Priya", predicate="prefers",
                                     object="async standups"),
         source_ref="chat:1", said_at="2026-03-01T09:00:00Z")
    tell(store, "live please", fact(second, "PREFERENCE", quote="live please",
                                    subject="Priya", predicate="prefers",
                                    object="live standups"),
         source_ref="chat:2", said_at="2026-03-05T09:00:00Z")
    a, b = by_statement(store, first), by_statement(store, second)
    assert a.verdict is Verdict.SUPERSEDED and a.superseded_by == b.id
    assert b.verdict is Verdict.ACTIVE
    served = {i.fact.id for i in store.recall("how does Priya like standups").items if i.fact}
    assert b.id in served and a.id not in served
    chain = store.chain(a.id)
    assert [f.id for f in chain.facts] == [a.id, b.id] and chain.current == b.id
    assert store.chain(b.id) == chain
    # a late-arriving older preference never overrides the newer one; it joins the chain
    older = "Priya prefers written standups."
    tell(store, "written please", fact(older, "PREFERENCE", quote="written please",
                                       subject="Priya", predicate="prefers",
                                       object="written standups"),
         source_ref="chat:0", said_at="2026-02-01T09:00:00Z")
    c = by_statement(store, older)
    assert c.verdict is Verdict.SUPERSEDED
    assert store.fact(b.id).verdict is Verdict.ACTIVE
    # another subject's preference is not a version of Priya's
    tell(store, "Ben: tea please", fact("Ben prefers tea.", "PREFERENCE", quote="tea please",
                                        subject="Ben", predicate="prefers", object="tea"),
         source_ref="chat:9", said_at="2026-03-06T09:00:00Z")
    assert store.fact(b.id).verdict is Verdict.ACTIVE
    assert by_statement(store, "Ben prefers tea.").verdict is Verdict.ACTIVE


def test_event_contract_keeps_similar_events_apart_with_their_own_time(store):
    first = "Deployed payments-api v1.2 to staging on 2026-03-02."
    second = "Deployed payments-api v1.3 to staging on 2026-03-09."
    tell(store, "deployed v1.2 on 2026-03-02",
         fact(first, "EVENT", quote="deployed v1.2 on 2026-03-02"),
         source_ref="ci:1", said_at="2026-03-10T12:00:00Z")
    tell(store, "deployed v1.3 on 2026-03-09",
         fact(second, "EVENT", quote="deployed v1.3 on 2026-03-09"),
         source_ref="ci:2", said_at="2026-03-10T12:00:00Z")
    a, b = by_statement(store, first), by_statement(store, second)
    assert (a.verdict, b.verdict) == (Verdict.ACTIVE, Verdict.ACTIVE)
    assert len(store.open_conflicts()) == 0
    assert a.supersedes is None and b.supersedes is None
    # event_at is when it happened (the quote's date), not when it was extracted
    assert a.event_at == datetime(2026, 3, 2, tzinfo=UTC) and a.event_at_source == "text"
    assert b.event_at == datetime(2026, 3, 9, tzinfo=UTC)
    # without a date in the quote: when it was said
    tell(store, "the pager fired", fact("The pager fired.", "EVENT", quote="the pager fired"),
         source_ref="ci:3", said_at="2026-03-11T08:30:00Z")
    c = by_statement(store, "The pager fired.")
    assert c.event_at == datetime(2026, 3, 11, 8, 30, tzinfo=UTC)
    assert c.event_at_source == "said"
    assert all(f.event_at is None for f in store.facts_by_verdict() if f.kind.value != "EVENT")


def test_every_kind_maps_to_one_contract():
    from factstore.kinds import Kind
    from factstore.writepath.contracts import CONTRACTS, contract_of

    assert set(CONTRACTS.values()) == {"fact", "preference", "event"}
    assert {contract_of(k) for k in Kind} == {"fact", "preference", "event"}
    assert contract_of(Kind.EVENT) == "event" and contract_of(Kind.PREFERENCE) == "preference"
    assert contract_of(Kind.REFERENCE) == "fact"
