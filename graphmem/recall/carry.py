"""Carried evidence: the day's sentence a top-ranked bullet distils ranks just below the
bullet, and what moved a top-ranked opinion comes with it."""

from __future__ import annotations

from graphmem.recall.items import Item, RecallOptions, Superseded
from graphmem.recall.rank import rank
from graphmem.recall.reader import Reader
from graphmem.recall.understand import QueryPlan


def carry_evidence(
    kept: list[Item],
    superseded: Superseded,
    plan: QueryPlan,
    opts: RecallOptions,
    via: dict[str, list[str]],
    reader: Reader,
) -> list[Item]:
    """The day's sentence a top-ranked bullet distils ranks just below the bullet,
    and what moved a top-ranked opinion comes with it.

    A Retain bullet restates a line of the same day's text (its EVIDENCE, see
    compile.fact_evidence), which often names neither the bullet's entity nor the
    question's words ("The office is on Rua de Ceuta" under "@MareLabs: Maré's office
    is on Rua de Ceuta"): it gets `evidence_carry` of the bullet's final score when
    that is more than its own. The evidence in an opinion's history gets
    `opinion_evidence_carry` of the opinion's.
    """
    cfg = opts.config
    if cfg.evidence_carry <= 0 and cfg.opinion_evidence_carry <= 0:
        return kept
    claims = {it.id: it for it in kept[: cfg.expand_top] if it.table != "Passage"}
    if not claims:
        return kept
    by_id = {it.id: it for it in kept}
    carried: dict[str, float] = {}
    links = [
        (claim, passage, "restates")
        for claim, passage, how in reader.evidence(list(claims))
        if claim in claims and how in ("same-day", "cites")
    ]
    opinions = [i for i, it in claims.items() if it.table == "Opinion"]
    if opinions and cfg.opinion_evidence_carry > 0:
        links += reader.opinion_evidence(opinions)
    for claim, passage, why in links:
        share = cfg.evidence_carry if why == "restates" else cfg.opinion_evidence_carry
        value = claims[claim].score * share
        if value > carried.get(passage, 0.0):
            carried[passage] = value
        via[passage].append(f"{why}:{claim}")
    missing = [p for p in carried if p not in by_id]
    if missing:
        fresh = reader.load({p: 0.0 for p in missing}, via)
        for new in rank(fresh, superseded, plan, opts, reader.latest_day):
            by_id[new.id] = new
            kept.append(new)
    changed = False
    for passage, value in carried.items():
        found = by_id.get(passage)
        if found is not None and value > found.score:
            found.score = value
            changed = True
    if changed or missing:
        kept.sort(
            key=lambda it: (-it.score, it.row.get("path") or "", it.row.get("line_start") or 0)
        )
    return kept
