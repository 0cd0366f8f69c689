"""Landing documents first and extracting them later decides exactly what remember would,
and every fact records the extractor that wrote it."""

from __future__ import annotations

import random
from contextlib import contextmanager

import pytest

from factstore import Store
from factstore.errors import InvalidInput
from factstore.extractors.rules import RuleExtractor
from factstore.store import server
from tests.helpers import fact


class SecondModel:
    """Another extractor generation: the rule scribe's facts plus one more per text."""

    name = "rules/v2-test"

    def __init__(self) -> None:
        self.inner = RuleExtractor()

    def extract(self, text, context):
        first = text.split(".")[0]
        return self.inner.extract(text, context) + [
            fact(f"Somebody noted that {first}.", "RESIDUAL", quote=first)]


@pytest.fixture()
def fresh(admin_dsn, database, embedder):
    """fresh(tag): a store with the rule extractor on a database of its own."""
    made = []

    @contextmanager
    def _open(tag: str, extractor=None):
        name = f"{database[:50]}_{tag}"
        if name not in made:
            server.drop_database(admin_dsn, name)
            made.append(name)
            server.ensure_database(admin_dsn, name)
        store = Store.open(server.with_database(admin_dsn, name), embedder=embedder,
                           extractor=extractor or RuleExtractor())
        try:
            yield store
        finally:
            store.close()

    yield _open
    for name in made:
        server.drop_database(admin_dsn, name)


def _stream(n: int = 60, seed: int = 11) -> list[dict]:
    """Ops chat over many services and kinds: restatements, changes, decisions, paths."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        s = f"svc-{rng.randrange(12)}"
        text = rng.choice((
            f"{s} is {rng.choice(['green', 'red', 'degraded'])} right now.",
            f"We decided to move {s} to the new cluster.",
            f"Always page the on-call before restarting {s}.",
            f"The {s} runner token lives at /etc/{s}/runner-{rng.randrange(3)}.env.",
            f"I prefer to review {s} changes in the morning.",
        ))
        out.append({"text": text, "source_ref": f"chat:{i}",
                    "captured_at": f"2026-03-{1 + i // 24:02d}T{i % 24:02d}:00:00Z"})
    return out


def _tables(store) -> tuple:
    facts = sorted((f.statement, f.verdict.value, f.evidence_source_ref, f.extracted_by)
                   for f in store.facts_by_verdict(limit=100_000))
    conflicts = sorted((c.fact_a.statement, c.fact_b.statement, c.status, c.lane,
                        c.resolution) for c in store.conflicts())
    documents = sorted((r["lineage"], r["version"], r["routed"])
                       for r in store.table_rows("documents"))
    return store.row_counts(), facts, conflicts, documents


def test_land_then_extract_leaves_the_tables_remember_many_leaves(fresh):
    stream = _stream()
    with fresh("direct") as direct:
        direct.remember_many(stream)
        expected = _tables(direct)
    with fresh("landed") as store:
        landed = store.land_documents(stream, batch_size=16)
        assert all(d.routed == "unextracted" and not d.duplicate for d in landed)
        assert store.facts_by_verdict(limit=10) == []
        results = store.extract_documents(batch_size=16)
        assert [r.document.id for r in results] == [d.id for d in landed]
        assert _tables(store) == expected
        assert store.extract_documents() == []  # nothing is waiting any more


def test_every_fact_records_the_extractor_that_wrote_it(fresh):
    with fresh("x") as store:
        _records_its_extractor(store)


def _records_its_extractor(store) -> None:
    result = store.remember("We decided to move svc-1 to the new cluster.", source_ref="a")
    name = RuleExtractor().name
    assert result.outcomes and all(o.fact.extracted_by == name for o in result.outcomes)
    assert store.fact(result.outcomes[0].fact.id).extracted_by == name


def test_landing_a_document_already_stored_leaves_it_as_it_is(fresh):
    with fresh("x") as store:
        _lands_once(store)


def _lands_once(store) -> None:
    store.remember("We decided to move svc-2 to the new cluster.", source_ref="b")
    (again,) = store.land_documents([{"text": "We decided to move svc-2 to the new cluster.",
                                      "source_ref": "b"}])
    assert again.duplicate and again.routed == "facts"
    assert store.extract_documents() == []


def test_an_extraction_stopped_part_way_resumes_where_it_stopped(fresh):
    stream = _stream(30, seed=3)
    with fresh("direct") as direct:
        direct.remember_many(stream)
        expected = _tables(direct)
    with fresh("landed") as store:
        store.land_documents(stream)
        first = store.extract_documents(limit=11)
        rest = store.extract_documents()
        assert len(first) + len(rest) == 30
        assert _tables(store) == expected


@pytest.mark.parametrize("call, words", [
    (lambda s: s.land_documents("one text"), "list of captures"),
    (lambda s: s.land_documents([{"text": ""}]), "captures\\[0\\]"),
    (lambda s: s.extract_documents(limit=0), "limit"),
    (lambda s: s.extract_documents(progress="bar"), "progress")])
def test_bad_calls_are_refused_and_write_nothing(store, call, words):
    before = store.row_counts()
    with pytest.raises(InvalidInput, match=words):
        call(store)
    assert store.row_counts() == before


def test_regenerating_with_another_extractor_adds_a_generation_and_never_support(fresh):
    stream = _stream(24, seed=5)
    with fresh("gen") as store:
        store.remember_many(stream)
        support = {f.id: f.support_count for f in store.facts_by_verdict(limit=10_000)}
        assert store.extract_documents(regenerate=True) == []  # this extractor read them all
    with fresh("gen", SecondModel()) as store:
        results = store.extract_documents(regenerate=True)
        assert len(results) == 24
        first = [o for r in results for o in r.outcomes if o.fact.extracted_by == "rules/v1"]
        assert first and all(o.outcome == "unchanged" for o in first)
        facts = {f.id: f for f in store.facts_by_verdict(limit=10_000)}
        for fact_id, count in support.items():
            assert facts[fact_id].support_count == count, "a re-extraction added support"
        second = [f for f in facts.values() if f.extracted_by == "rules/v2-test"]
        assert second and all(f.kind.value == "RESIDUAL" for f in second)
        assert store.extract_documents(regenerate=True) == []  # resumable: nothing left
