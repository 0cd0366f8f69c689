"""Fusing ranked candidate lists, and keeping a served list diverse (issue 17). Pure.

- :func:`rrf` is reciprocal rank fusion (Cormack, Clarke and Buettcher, 2009): each list
  gives an item ``1 / (k + rank)``; an item's score is the sum over the lists it is in. It
  needs no score calibration between a cosine and a ``ts_rank_cd``, which share no scale.
- :func:`mmr` is maximal marginal relevance (Carbonell and Goldstein, 1998): each next item
  maximises ``lam * relevance - (1 - lam) * (its highest similarity to an item already
  chosen)``, so ten slots are not filled with near-copies of one turn.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

import numpy as np

K = TypeVar("K", bound=Hashable)

#: RRF's constant: the original paper's 60, which damps the weight of the very top ranks.
RRF_K = 60


def rrf(lists: Sequence[Sequence[K]], *, k: int = RRF_K,
        weights: Sequence[float] | None = None) -> list[tuple[K, float]]:
    """Items of every list, by fused score (highest first; ties by first appearance).
    A list names each item once; a repeat inside one list counts at its first rank. A
    list's ``weights`` entry (default 1 each) scales what it gives."""
    if k < 1:
        raise ValueError("rrf's k must be at least 1")
    weights = [1.0] * len(lists) if weights is None else list(weights)
    if len(weights) != len(lists):
        raise ValueError("rrf needs one weight per list")
    scores: dict[K, float] = {}
    first: dict[K, tuple[int, int]] = {}
    for which, ranked in enumerate(lists):
        seen: set[K] = set()
        for rank, item in enumerate(ranked, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + weights[which] / (k + rank)
            first.setdefault(item, (rank, which))
    return sorted(scores.items(), key=lambda kv: (-kv[1], first[kv[0]]))


def mmr(relevance: Mapping[K, float], vectors: Mapping[K, np.ndarray], count: int, *,
        lam: float = 0.7) -> list[K]:
    """Up to ``count`` items, each next one the most relevant after a penalty for its
    cosine to the items already chosen (``lam`` 1.0: relevance alone). Relevance is scaled
    to the best item's (RRF scores are small numbers; a cosine is not), items without a
    vector are never penalised, and ties keep the relevance order."""
    if not 0.0 <= lam <= 1.0:
        raise ValueError("mmr's lam must be between 0 and 1")
    order = sorted(relevance, key=lambda item: -relevance[item])  # stable: ties keep order
    if not order or count < 1:
        return []
    top = max(relevance.values())
    scaled = np.array([relevance[i] / top if top > 0 else relevance[i] for i in order])
    if lam >= 1.0:
        return order[:count]
    has = np.array([i in vectors for i in order])
    dim = next((len(vectors[i]) for i in order if i in vectors), 1)
    raw = np.stack([np.asarray(vectors[i], dtype=np.float64) if i in vectors
                    else np.zeros(dim) for i in order])
    norms = np.linalg.norm(raw, axis=1, keepdims=True)
    units = np.divide(raw, norms, out=np.zeros_like(raw), where=norms > 0)
    # the highest cosine of each item to any chosen one (0 until one with a vector is chosen)
    penalty = np.zeros(len(order))
    open_ = np.ones(len(order), dtype=bool)
    chosen: list[int] = []
    while len(chosen) < min(count, len(order)):
        gain = np.where(has, lam * scaled - (1 - lam) * penalty, lam * scaled)
        gain[~open_] = -np.inf
        best = int(np.argmax(gain))  # the first maximum: ties keep the relevance order
        chosen.append(best)
        open_[best] = False
        if has[best]:
            penalty = np.maximum(penalty, units @ units[best])
    return [order[i] for i in chosen]
