"""The ranking of the candidates: the hard filters of the call (kinds, ``--since``,
``--until``, ``--as-of``, nothing written after the time asked from), the boosts (the
question's entities, speaker, subject, hinted kind, a value of the type asked for), an
entity page's declaration lines held back, what the evidence left of an opinion, the time
rules, staleness and recency; then the pick of ``k`` with MMR so near-identical notes do
not fill the top."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from graphmem.config.presets import RecallConfig
from graphmem.parse.parser import declaration_only
from graphmem.recall.fusion import jaccard_matrix, mmr, recency_factor
from graphmem.recall.items import Item, RecallOptions, Superseded
from graphmem.recall.stated import contradicted_then, overtaken, stated_slots
from graphmem.recall.time_rules import before, holds_until, time_factor, valid_at
from graphmem.recall.understand import QueryPlan


def rank(
    items: dict[str, Item],
    superseded: Superseded,
    plan: QueryPlan,
    opts: RecallOptions,
    latest_day: Callable[[], date | None],
) -> list[Item]:
    """The candidates that pass the call's filters, rescored, best first (ties by path and
    line). `latest_day` is read only when an undated line meets a question without a time."""
    cfg = opts.config
    wanted = set(plan.entities)
    # The typed values of the candidates, read once for both uses below.
    replacing = frozenset(newer for newer, _ in superseded.values())
    stated = list(stated_slots(items.values()))
    changed = overtaken(stated)
    answering = {item.id for item, _, slot, _ in stated if slot[0] in plan.asks}
    stale_now = (
        contradicted_then(stated, plan.time.start, plan.time.end)
        if plan.time is not None
        else set()
    )
    # The chat's speakers are named in nearly every turn (its speaker, a greeting): of the
    # question's entities they count as one.
    talkers = {s for it in items.values() for s, _, how in it.entities if how == "speaker"}
    # What replaced a line speaks of what that line named ("from today Joana is the tech
    # lead of Sluice" ends "Joana is a senior engineer at Corvid"): it counts those names.
    inherited: dict[str, set[str]] = {}
    for older, (newer, _) in superseded.items():
        if older in items:
            inherited.setdefault(newer, set()).update(s for s, _, _ in items[older].entities)
    kept: list[Item] = []
    for item in items.values():
        row = item.row
        day: date | None = row.get("day")
        if opts.kinds and item.kind not in opts.kinds:
            continue
        if (opts.since or opts.until) and day is None:
            continue
        if opts.since and day is not None and day < opts.since:
            continue
        if opts.until and day is not None and day > opts.until:
            continue
        if opts.as_of and not valid_at(item, superseded, opts.as_of):
            continue
        if day is not None and day > opts.now:
            continue  # written after the time the question is asked from
        score = item.score
        if cfg.declaration_weight < 1 and declaration_only(
            str(row.get("path") or ""), str(row.get("text") or "")
        ):
            score *= cfg.declaration_weight
        slugs = {slug for slug, _, _ in item.entities}
        if wanted & slugs:
            names = slugs | inherited.get(item.id, set())
            named = len((wanted - talkers) & names) + (1 if wanted & talkers & names else 0)
            score *= (1 + cfg.entity_boost) ** min(named, cfg.entity_boost_max)
            spoken = {s for s, _, how in item.entities if how == "speaker"}
            if wanted & spoken:
                score *= 1 + cfg.speaker_boost
            about = {s for s, _, how in item.entities if how in ("subject", "page")}
            if wanted & about:
                score *= 1 + cfg.subject_boost
        if item.kind in plan.kinds:
            score *= 1 + cfg.kind_boost
        if item.table == "Opinion":
            # What the evidence left of a belief: a retracted or refuted one is stale.
            confidence = row.get("confidence")
            if confidence is not None:
                score *= 1 - cfg.confidence_weight * (1 - float(confidence))
            if row.get("superseded"):
                score *= cfg.superseded_penalty
        unpenalised = score
        if plan.time is not None:
            score *= time_factor(
                item,
                superseded,
                plan.time.start,
                plan.time.end,
                opts,
                replacing,
                holds_until(item, answering, changed),
            )
        elif day is None and before(opts.now, latest_day()):
            # Asked from a time before the newest log: the evergreen files were written
            # after it, so they may already state what was not yet true then.
            score *= cfg.undated_past_penalty
        if item.id in stale_now:
            score *= cfg.time_after_penalty
        # Asked about the present, what was replaced counts doubly stale.
        stale = cfg.superseded_penalty ** (2 if plan.present else 1)
        if item.id in changed and opts.as_of is None and changed[item.id] <= opts.now:
            # A later line of the candidates gives the same attribute another value.
            if plan.time is None or changed[item.id] < plan.time.start:
                score *= stale
        if item.id in superseded and opts.as_of is None and plan.time is None:
            starts = superseded[item.id][1]
            if starts is None or starts <= opts.now:
                score *= stale  # a replacement that starts later leaves it current now
        if item.id in answering and score >= unpenalised:
            # It holds a value of the type asked for, and one that held at the time
            # asked about (a replaced or out-of-time value took a penalty above).
            score *= 1 + cfg.answer_type_boost
        score *= recency_factor(day, opts.now, cfg.recency, cfg.recency_days)
        item.score = score
        kept.append(item)
    kept.sort(key=lambda it: (-it.score, it.row.get("path") or "", it.row.get("line_start") or 0))
    return kept


def diversify(ranked: list[Item], k: int, cfg: RecallConfig) -> list[Item]:
    """The best `k`, near-duplicates held back by MMR (none when both knobs are off)."""
    if cfg.mmr_lambda >= 1.0 and cfg.duplicate_similarity >= 1.0:
        return ranked[:k]
    pool = ranked[: min(len(ranked), max(k + 20, int(k * 1.2)), 150)]
    sim = jaccard_matrix([str(it.row.get("text") or "") for it in pool])
    chosen = mmr(
        [(it.id, it.score) for it in pool], sim, k, cfg.mmr_lambda, cfg.duplicate_similarity
    )
    by_id = {it.id: it for it in pool}
    return [by_id[i] for i, _ in chosen]
