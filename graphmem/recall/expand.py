"""Graph expansion of the best candidates: their reading-order neighbours (NEXT, hop by
hop) and their evidence, each reached line inheriting a damped share of its seed's score;
and what replaced a top candidate (SUPERSEDES, newer side)."""

from __future__ import annotations

from graphmem.config.presets import RecallConfig
from graphmem.recall.items import Item, Superseded
from graphmem.recall.reader import Reader


def expand(
    scores: dict[str, float], via: dict[str, list[str]], cfg: RecallConfig, reader: Reader
) -> None:
    """Add reading-order neighbours and evidence of the best seeds, with damped scores."""
    top = [i for i, _ in sorted(scores.items(), key=lambda kv: -kv[1])[: cfg.expand_top]]
    if not top:
        return
    parent = {i: scores[i] for i in top}
    if cfg.neighbor_weight > 0:
        # Reading order, hop by hop: hop h gives a line neighbor_weight *
        # neighbor_hop_decay ** (h - 1) of the score of the seed it was reached from.
        frontier = dict(parent)  # node -> score of the seed it came from
        reached = set(parent)
        for hop in range(1, cfg.neighbor_hops + 1):
            weight = cfg.neighbor_weight * cfg.neighbor_hop_decay ** (hop - 1)
            following: dict[str, float] = {}
            for src, nb in reader.neighbors(list(frontier)):
                if frontier[src] * weight > scores.get(nb, 0.0):
                    scores[nb] = frontier[src] * weight
                via[nb].append(f"next-to:{src}")
                if nb not in reached:
                    following[nb] = max(following.get(nb, 0.0), frontier[src])
            reached.update(following)
            frontier = following
    if cfg.evidence_weight > 0:
        for claim, passage, how in reader.evidence(top):
            for src, dst in ((claim, passage), (passage, claim)):
                if src in parent:
                    value = parent[src] * cfg.evidence_weight
                    if value > scores.get(dst, 0.0):
                        scores[dst] = value
                    via[dst].append(f"evidence({how}):{src}")


def successors(
    items: dict[str, Item],
    superseded: Superseded,
    via: dict[str, list[str]],
    cfg: RecallConfig,
    reader: Reader,
) -> bool:
    """What replaced a top candidate joins the candidates (SUPERSEDES, newer side) at
    `successor_weight` of its score (or has its score raised to that): "from today
    Joana is the tech lead of Sluice" comes with the "senior backend engineer" line it
    ended, whatever its words. Returns whether any was added."""
    top = sorted(items.values(), key=lambda it: -it.score)[: cfg.expand_top]
    extra: dict[str, float] = {}
    for item in top:
        newer = superseded.get(item.id)
        if newer is None:
            continue
        value = item.score * cfg.successor_weight
        present = items.get(newer[0])
        if present is not None:
            if value > present.score:
                present.score = value
                present.via.append(f"replaces:{item.id}")
            continue
        extra[newer[0]] = max(extra.get(newer[0], 0.0), value)
        via[newer[0]].append(f"replaces:{item.id}")
    if extra:
        items.update(reader.load(extra, via))
    return bool(extra)
