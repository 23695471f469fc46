"""The second pass of a two-part question: the entity the first part's best answers name
(declared, not a hub) becomes one the question names, and recall runs again."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

from graphmem.config.presets import RecallConfig
from graphmem.recall.items import Item
from graphmem.recall.understand import QueryPlan

#: An entity is a hub (bridges nothing) when more than `bridge_hub_share` of the items
#: name it, counted as if the workspace had at least this many items: in a tiny one,
#: every entity is named by a large share.
HUB_MIN_ITEMS = 50
#: A question in two parts whose second asks about what the first finds ("who reviewed
#: X, and what is that person's position now?", "whose husband …, and what came of it?"),
#: or a reason question: why a value is what it is is often told where the entity the
#: first answers name (the project a setting was brought from) is the subject.
TWO_PART = re.compile(
    r",? and (what|which|who|whom|where|when|how|why|is|was|does|did|has)\b|"
    r"\b(that person|this person|whose)\b|^\s*why\b",
    re.IGNORECASE,
)


def bridge(
    kept: list[Item],
    plan: QueryPlan,
    cfg: RecallConfig,
    entities: dict[str, dict[str, Any]],
    items: int,
) -> str | None:
    """The entity the best answers to a two-part question's first part name and the
    question does not (declared, not a hub): the one its second part asks about.
    `entities` are the index's entity rows by slug, `items` how many items it holds."""
    total = max(HUB_MIN_ITEMS, items)  # a hub needs a crowd to stand out in
    counts: dict[str, int] = defaultdict(int)
    for item in kept[: cfg.bridge_top]:
        for slug in {slug for slug, _, _ in item.entities}:
            row = entities.get(slug)
            if (
                slug not in plan.entities
                and row is not None
                and row["declared"]
                and (row["mentions"] or 0) <= cfg.bridge_hub_share * total
            ):
                counts[slug] += 1
    if not counts:
        return None
    return max(counts.items(), key=lambda kv: (kv[1], kv[0]))[0]
