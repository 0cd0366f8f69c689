"""Reciprocal rank fusion and maximal marginal relevance (factstore/fusion.py): pure."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from factstore.fusion import RRF_K, mmr, rrf


def test_rrf_sums_reciprocal_ranks_across_lists():
    fused = dict(rrf([["a", "b", "c"], ["b", "d"]]))
    assert fused["b"] == pytest.approx(1 / (RRF_K + 2) + 1 / (RRF_K + 1))
    assert fused["a"] == pytest.approx(1 / (RRF_K + 1))
    assert [item for item, _ in rrf([["a", "b", "c"], ["b", "d"]])] == ["b", "a", "d", "c"]


def test_rrf_counts_a_repeat_once_and_breaks_ties_by_first_appearance():
    assert dict(rrf([["a", "a", "b"]]))["a"] == pytest.approx(1 / (RRF_K + 1))
    # a and x tie (rank 1 of one list each): the earlier list's comes first
    assert [i for i, _ in rrf([["a"], ["x"]])] == ["a", "x"]
    assert rrf([]) == [] and rrf([[], []]) == []
    with pytest.raises(ValueError):
        rrf([["a"]], k=0)


@given(st.lists(st.lists(st.integers(0, 30), max_size=12), max_size=4))
def test_rrf_property_an_item_in_more_lists_at_the_same_ranks_never_scores_lower(lists):
    fused = dict(rrf(lists))
    assert set(fused) == {x for ranked in lists for x in ranked}
    for ranked in lists:
        if ranked:  # the first of a list scores at least 1/(k+1)
            assert fused[ranked[0]] >= 1 / (RRF_K + 1) - 1e-12


def test_mmr_skips_a_near_copy_for_a_different_item():
    v = {"a": np.array([1.0, 0.0]), "a2": np.array([0.99, 0.05]), "b": np.array([0.0, 1.0])}
    relevance = {"a": 1.0, "a2": 0.95, "b": 0.6}
    assert mmr(relevance, v, 2, lam=0.7) == ["a", "b"]
    assert mmr(relevance, v, 2, lam=1.0) == ["a", "a2"]  # relevance alone
    assert mmr(relevance, v, 5) == ["a", "b", "a2"]  # never more than there are


def test_mmr_scales_small_fused_scores_and_keeps_items_without_vectors():
    v = {"a": np.array([1.0, 0.0]), "a2": np.array([1.0, 0.0])}
    relevance = {"a": 0.033, "a2": 0.032, "doc": 0.031}  # RRF-sized numbers
    assert mmr(relevance, v, 2) == ["a", "doc"]
    assert mmr({}, {}, 3) == []
    with pytest.raises(ValueError):
        mmr(relevance, v, 2, lam=1.5)
