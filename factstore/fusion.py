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


def rrf(lists: Sequence[Sequence[K]], *, k: int = RRF_K) -> list[tuple[K, float]]:
    """Items of every list, by fused score (highest first; ties by first appearance).
    A list names each item once; a repeat inside one list counts at its first rank."""
    if k < 1:
        raise ValueError("rrf's k must be at least 1")
    scores: dict[K, float] = {}
    first: dict[K, tuple[int, int]] = {}
    for which, ranked in enumerate(lists):
        seen: set[K] = set()
        for rank, item in enumerate(ranked, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
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
    top = max(relevance.values(), default=0.0)
    relevance = {item: (score / top if top > 0 else score) for item, score in relevance.items()}
    order = sorted(relevance, key=lambda item: -relevance[item])
    units = {item: _unit(vectors[item]) for item in order if item in vectors}
    chosen: list[K] = []
    while order and len(chosen) < count:
        def gain(item: K) -> float:
            unit = units.get(item)
            if unit is None or not chosen:
                return lam * relevance[item]
            similar = max((float(unit @ units[c]) for c in chosen if c in units), default=0.0)
            return lam * relevance[item] - (1 - lam) * similar

        best = max(order, key=lambda item: (gain(item), -order.index(item)))
        chosen.append(best)
        order.remove(best)
    return chosen


def _unit(vector: np.ndarray) -> np.ndarray:
    v = np.asarray(vector, dtype=np.float64)
    norm = float(np.linalg.norm(v))
    return v / norm if norm else v
