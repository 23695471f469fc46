"""Pure scoring functions of recall: fusion, recency, diversity. No database here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

import numpy as np


def rrf(
    channels: Mapping[str, Sequence[tuple[str, float]]],
    weights: Mapping[str, float],
    k: int = 60,
    caps: Mapping[str, int] | None = None,
) -> dict[str, float]:
    """Weighted reciprocal-rank fusion: ``sum(weight_c / (k + rank_c))`` over channels.

    Each channel is a ranked list of (id, score); only its first ``caps[c]`` items count,
    so no channel can crowd out the others. Ranks start at 1.
    """
    fused: dict[str, float] = {}
    for name, ranked in channels.items():
        weight = weights.get(name, 0.0)
        if weight <= 0:
            continue
        cap = (caps or {}).get(name, len(ranked))
        for rank, (item, _) in enumerate(ranked[:cap], start=1):
            fused[item] = fused.get(item, 0.0) + weight / (k + rank)
    return fused


def score_fusion(
    channels: Mapping[str, Sequence[tuple[str, float]]],
    weights: Mapping[str, float],
    caps: Mapping[str, int] | None = None,
    normalise: str = "best",
) -> dict[str, float]:
    """Weighted sum of per-channel scores, each channel's scores normalised first.

    ``normalise="best"``: a score divided by the channel's best (negative scores count as
    0), so a channel's weak items stay weak: a line at cosine 0.35 when the best is 0.60
    keeps 0.58 of the vector weight, and a bm25 hit on one rare word of five keeps its
    small share. ``"minmax"``: stretched to [0.1, 1] between the channel's worst and best
    item, which turns the 60th-best item of any channel into 0.1 however close it is to
    the best (a constant channel, such as the entity channel, gets 0.1 throughout).
    """
    if normalise not in ("best", "minmax"):
        raise ValueError(f"unknown normalisation {normalise!r}; choose best or minmax")
    fused: dict[str, float] = {}
    for name, ranked in channels.items():
        weight = weights.get(name, 0.0)
        cap = (caps or {}).get(name, len(ranked))
        top = ranked[:cap]
        if weight <= 0 or not top:
            continue
        best = max(score for _, score in top)
        if normalise == "best":
            if best <= 0:
                continue
            for item, score in top:
                fused[item] = fused.get(item, 0.0) + weight * max(0.0, score) / best
            continue
        worst = min(score for _, score in top)
        span = (best - worst) or 1.0
        for item, score in top:
            fused[item] = fused.get(item, 0.0) + weight * (0.1 + 0.9 * (score - worst) / span)
    return fused


def recency_factor(day: date | None, now: date, strength: float, horizon_days: int) -> float:
    """A bounded multiplier in [1 - strength, 1 + strength]: newer is slightly higher.

    Linear in age over `horizon_days`, flat beyond. Undated (evergreen) items get 1.0: they
    take no recency at all. Never an exponential decay that could outweigh relevance.
    """
    if day is None or strength <= 0:
        return 1.0
    age = max(0, (now - day).days)
    fraction = min(1.0, age / max(1, horizon_days))
    return 1.0 + strength * (1.0 - 2.0 * fraction)


def mmr(
    ranked: Sequence[tuple[str, float]],
    similarity: np.ndarray,
    k: int,
    lam: float = 0.85,
    duplicate: float = 0.95,
) -> list[tuple[str, float]]:
    """Maximal marginal relevance over a ranked list; returns up to `k` (id, score).

    `similarity` is the items' pairwise similarity matrix, in `ranked` order. Each pick
    maximises ``lam * relevance - (1 - lam) * max_similarity_to_picked`` with relevance
    normalised by the best score; an item at least `duplicate`-similar to one already
    picked is skipped entirely.
    """
    n = len(ranked)
    if n == 0:
        return []
    scores = np.array([score for _, score in ranked], dtype=np.float64)
    relevance = scores / (scores.max() or 1.0)
    closest = np.zeros(n)
    alive = np.ones(n, dtype=bool)
    picked: list[tuple[str, float]] = []
    while len(picked) < k:
        value = lam * relevance - (1.0 - lam) * closest
        value[~alive | (closest >= duplicate)] = -np.inf
        best = int(np.argmax(value))
        if not np.isfinite(value[best]):
            break
        alive[best] = False
        picked.append(ranked[best])
        closest = np.maximum(closest, similarity[:, best])
    return picked


def jaccard_matrix(texts: Sequence[str]) -> np.ndarray:
    """Pairwise Jaccard similarity of the texts' lower-cased word sets (1 on the diagonal,
    0 between two texts without words), from one product of their word-incidence matrix."""
    vocabulary: dict[str, int] = {}
    rows = [
        [vocabulary.setdefault(w, len(vocabulary)) for w in set(t.casefold().split())]
        for t in texts
    ]
    n = len(rows)
    incidence = np.zeros((n, len(vocabulary)), dtype=np.float64)
    for i, words in enumerate(rows):
        incidence[i, words] = 1.0
    shared = incidence @ incidence.T  # exact: small integers in float64
    sizes = incidence.sum(axis=1)
    union = sizes[:, None] + sizes[None, :] - shared
    out = np.divide(shared, union, out=np.zeros_like(shared), where=union > 0)
    np.fill_diagonal(out, 1.0)
    return out
