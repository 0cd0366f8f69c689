"""Chats through the parser extractor and the whole write path, in several arrival orders:
the facts a store ends with -- statements, kinds, asserters, roles, verdicts -- do not depend
on the order the captures arrived in."""

from __future__ import annotations

import itertools
import random

import pytest

from factstore import Store
from factstore.extractors.parsed import ParserExtractor
from factstore.store import server

CHATS = [
    ("alice: I moved to Denver last year and my brother still lives in Ohio.\n"
     "bob: I prefer tea over coffee in the mornings.", "2026-03-01T09:00:00Z"),
    ("bob: The billing service runs on ECS, which we're planning to move off next year.\n"
     "alice: Don't merge without a green build.", "2026-03-02T09:00:00Z"),
    ("alice: Leo hates flying, so he takes the train to every conference.\n"
     "bob: hey, how was your weekend?", "2026-03-03T09:00:00Z"),
    ("bob: I prefer tea over coffee in the mornings.\n"  # a restatement, by the same speaker
     "alice: I never deploy on Fridays.", "2026-03-04T09:00:00Z"),
]


def _orders() -> list[tuple[int, ...]]:
    every = list(itertools.permutations(range(len(CHATS))))
    rng = random.Random(13)
    return [every[0], every[-1], *rng.sample(every[1:-1], 3)]


def _held(store: Store) -> list[tuple]:
    return sorted((f.statement, f.kind, f.asserter, f.subject, f.predicate, f.object,
                   f.negated, f.verdict, f.attribute or "")
                  for f in store.facts_by_verdict(limit=10_000))


@pytest.fixture(scope="module")
def parser() -> ParserExtractor:
    return ParserExtractor()


def test_a_parsed_chat_stream_holds_the_same_facts_in_any_arrival_order(
        admin_dsn, embedder, parser):
    results = []
    for n, order in enumerate(_orders()):
        name = f"t_chat_order_{n}"
        server.drop_database(admin_dsn, name)
        server.ensure_database(admin_dsn, name)
        with Store.open(server.with_database(admin_dsn, name), embedder=embedder,
                        extractor=parser) as store:
            for k in order:
                text, said_at = CHATS[k]
                store.remember(text, said_at=said_at, source_ref=f"chat:{k}")
            results.append((order, _held(store), store.row_counts()["facts"]))
        server.drop_database(admin_dsn, name)
    first_order, expected, count = results[0]
    # the stream exercises what it is meant to: speakers as asserters, a restatement
    # kept once, a "which" clause and a fronted clause split off, chatter dropped
    asserters = {row[2] for row in expected if not row[-1]}  # timeline rows: no asserter
    assert asserters == {"alice", "bob"}
    assert sum("tea" in row[0] for row in expected) == 1
    assert any("ECS" in row[0] for row in expected) and count >= 7
    assert not any("weekend" in row[0] for row in expected)
    for order, held, n in results[1:]:
        assert (held, n) == (expected, count), f"order {order} differs from {first_order}"
