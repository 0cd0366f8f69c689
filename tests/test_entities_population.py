"""Entity resolution on a generated population, in several arrival orders, compared through
the Store: 18 people (some sharing a first name, some called by a nickname or with a
title), 6 organisations, 60 captures from 60 sources. Every order must yield the gold
clusters: no false merge, no split."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from factstore.extractors.base import ExtractedFact
from factstore.store import Store, server
from tests.helpers import ScriptedExtractor

#: (gold id, full name, the other names the stream uses for them, employer)
PEOPLE = [
    ("p1", "Priya Patel", ("Dr. Priya Patel",), "Arc Labs"),
    ("p2", "Priya Nair", ("Dr. Priya Nair",), "Harbor Clinic"),
    ("p3", "Robert Smith", ("Bob Smith",), "Arc Labs"),
    ("p4", "Alex Kim", ("Alexander Kim",), "Arc Labs"),
    ("p5", "Alex Moreno", ("Alex Moreno",), "Brightwater"),
    ("p6", "Katherine Lee", ("Kate Lee", "Ms. Katherine Lee"), "Kestrel Freight"),
    ("p7", "Daniel Reyes", ("Dan Reyes",), "Arc Labs"),
    ("p8", "Samantha Okafor", ("Sam Okafor",), "Brightwater"),
    ("p9", "Sam Whitfield", ("Sam Whitfield",), "Harbor Clinic"),
    ("p10", "Tom Becker", ("Thomas Becker",), "Kestrel Freight"),
    ("p11", "Tom Nguyen", ("Tom Nguyen",), "Northgate United"),
    ("p12", "Emma Fischer", ("Emma Fischer",), "Arc Labs"),
    ("p13", "Emma Ruiz", ("Emma Ruiz",), "Northgate United"),
    ("p14", "Jordan Lee", ("Jordan Lee",), "Brightwater"),
    ("p15", "Chris Doyle", ("Christopher Doyle",), "Arc Labs"),
    ("p16", "Maria Santos", ("Maria Santos",), "Kestrel Freight"),
    ("p17", "James Walker", ("Jim Walker",), "Brightwater"),
    ("p18", "William Chen", ("Bill Chen", "Will Chen"), "Harbor Clinic"),
]
ORGS = ["Arc Labs", "Brightwater", "Harbor Clinic", "Kestrel Freight", "Northgate United",
        "Quill Analytics"]
VERBS = ["reviewed the budget", "closed the incident", "booked the offsite",
         "shipped the release", "answered the auditor", "moved the standup"]


def _stream() -> list[tuple[str, list[tuple[str, str]], ExtractedFact]]:
    """(text, [(name, gold)], fact) per capture; deterministic."""
    rng = random.Random(15)
    out = []
    for n in range(60):
        gold, full, others, employer = PEOPLE[n % len(PEOPLE)]
        name = full if n < len(PEOPLE) else rng.choice((full, *others))
        verb = VERBS[n % len(VERBS)]
        if n % 3 == 0:
            text = f"{name} works at {employer} and {verb}"
            fact = ExtractedFact(
                statement=f"{name} works at {employer}.", kind="STATE", quote=text,
                subject=name, mentions=((name, "Person"), (employer, "Organization")),
                relations=((name, "works_at", employer),))
            names = [(name, gold), (employer, "org:" + employer)]
        else:
            text = f"{name} of {employer} {verb} (note {n})"
            fact = ExtractedFact(
                statement=f"{name} {verb}.", kind="EVENT", quote=text, subject=name,
                mentions=((name, "Person"), (employer, "Organization")))
            names = [(name, gold), (employer, "org:" + employer)]
        out.append((text, names, fact))
    return out


def _partition(store: Store, documents: dict[int, int]) -> dict[tuple[int, str], str]:
    """(capture number, name) -> entity id, read through Store methods only."""
    found = {}
    for entity in store.entities(limit=10_000):
        for m in store.mentions(entity.id, limit=10_000):
            found[(documents[m.document_id], m.name)] = entity.id
    return found


@pytest.fixture()
def fresh_stores(admin_dsn, embedder, request):
    made: list[tuple[Store, str]] = []

    def make(tag: str) -> Store:
        name = f"t_pop_{tag}_{len(made)}_{random.Random().randrange(10**9)}"
        server.ensure_database(admin_dsn, name)
        store = Store.open(server.with_database(admin_dsn, name), embedder=embedder,
                           extractor=ScriptedExtractor())
        made.append((store, name))
        return store

    yield make
    for store, name in made:
        store.close()
        server.drop_database(admin_dsn, name)


def test_every_arrival_order_yields_the_gold_clusters(fresh_stores):
    stream = _stream()
    gold = {(i, name): g for i, (_, names, _) in enumerate(stream) for name, g in names}
    orders = {"forward": list(range(len(stream))),
              "reverse": list(reversed(range(len(stream)))),
              "shuffled": random.Random(4).sample(range(len(stream)), len(stream))}
    partitions = {}
    for tag, order in orders.items():
        store = fresh_stores(tag)
        documents: dict[int, int] = {}
        for i in order:
            text, _, fact = stream[i]
            store.extractor.add(text, fact)
            documents[store.remember(text, source_ref=f"chat:{i}").document.id] = i
        partitions[tag] = _partition(store, documents)
        assert set(partitions[tag]) == set(gold), f"{tag}: a mention was not recorded"
        false_merges = [(a, b) for a, b in combinations(sorted(gold), 2)
                        if gold[a] != gold[b] and partitions[tag][a] == partitions[tag][b]]
        splits = [(a, b) for a, b in combinations(sorted(gold), 2)
                  if gold[a] == gold[b] and partitions[tag][a] != partitions[tag][b]]
        assert not false_merges, f"{tag}: false merges {false_merges[:5]}"
        assert not splits, f"{tag}: splits {splits[:5]}"
        people = store.entities(entity_type="Person", limit=1000)
        assert len(people) == len(PEOPLE)
