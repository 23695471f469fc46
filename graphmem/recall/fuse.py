"""The channels fused into one score per candidate, by the preset's choice: a weighted sum
of each channel's scores over its best (``score``), reciprocal ranks (``rrf``), both
formulas pure in :mod:`graphmem.recall.fusion`; or every candidate scored again on bm25
and cosine (``rescore``, which reads the seed index). And how each candidate was reached."""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from graphmem.config.presets import RecallConfig
from graphmem.recall.fusion import rrf, score_fusion
from graphmem.recall.items import Channels
from graphmem.search.seeds import SeedIndex


def fuse(
    question: str, channels: Channels, cfg: RecallConfig, seeds: SeedIndex, qvec: np.ndarray | None
) -> dict[str, float]:
    """One score per candidate of any channel."""
    if cfg.fusion == "score":
        return score_fusion(channels, cfg.weights, normalise=cfg.normalise)
    if cfg.fusion == "rescore":
        return rescore(question, channels, cfg, seeds, qvec)
    return rrf(channels, cfg.weights, cfg.rrf_k)


def reached_by(channels: Channels) -> dict[str, list[str]]:
    """item id -> the channels that found it, with its rank in each ("lexical#3")."""
    via: dict[str, list[str]] = defaultdict(list)
    for name, ranked in channels.items():
        for rank, (item, _) in enumerate(ranked, start=1):
            via[item].append(f"{name}#{rank}")
    return via


def rescore(
    question: str, channels: Channels, cfg: RecallConfig, seeds: SeedIndex, qvec: np.ndarray | None
) -> dict[str, float]:
    """Score every candidate on both signals: bm25 (relative to the pool's best) and
    cosine similarity to the question (absolute), mixed by the channel weights."""
    pool = list({i for ranked in channels.values() for i, _ in ranked})
    lexical = seeds.lexical_scores(question, pool)
    best = max(lexical.values(), default=0.0) or 1.0
    w_lex = cfg.weights.get("lexical", 1.0)
    w_vec = cfg.weights.get("vector", 1.0)
    vectors = seeds.vectors(pool) if qvec is not None and w_vec > 0 else {}
    entity = {i for i, _ in channels.get("entity", [])}
    out: dict[str, float] = {}
    for item in pool:
        score = w_lex * max(0.0, lexical.get(item, 0.0)) / best
        vec = vectors.get(item)
        if vec is not None and qvec is not None:
            score += w_vec * max(0.0, float(vec @ qvec))
        if item in entity:
            score += cfg.weights.get("entity", 0.0) * 0.5
        out[item] = score
    return out
