"""The diagnostic probes benchmarks use: the density query rides its kind's partial index."""

from __future__ import annotations

from factstore.kinds import Kind
from tests.helpers import say


def test_the_density_query_uses_its_kinds_partial_hnsw_index(store):
    for n in range(6):
        say(store, f"The staging cluster has {40 + n} nodes right now.", subject="staging")
    vector = store.embedder.embed(["The staging cluster has 47 nodes right now."])[0]
    plan = store.explain_density(Kind.STATE, vector)
    assert "facts_hnsw_state" in plan.indexes
    recall_plan = store.explain_recall(vector)
    assert {f"facts_hnsw_{k.value.lower()}" for k in Kind} <= set(recall_plan.indexes)


def test_the_index_and_the_exact_scan_agree_on_a_small_store(store):
    # six clusters, six subjects: six live readings (one subject's readings would revise
    # each other down to one)
    for n in range(6):
        say(store, f"The cluster-{n} pool has {40 + n} nodes right now.", subject=f"cluster-{n}")
    vector = store.embedder.embed(["The staging cluster has 47 nodes right now."])[0]
    hnsw = store.density_probe(Kind.STATE, vector, 5)
    exact = store.density_probe(Kind.STATE, vector, 5, exact=True)
    assert hnsw.ids == exact.ids and len(exact.ids) == 5
