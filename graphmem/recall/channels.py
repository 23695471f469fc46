"""The seed channels: lexical (FTS5 bm25 over the question's content words), vector
(sqlite-vec over the embedded question), window (the items of the windows nearest that
vector, :mod:`graphmem.search.windows`), entity and subject (items naming, or about, the
question's entities, counting those it names by their definition), and current (what
holds now about a bridged entity). Each is a ranked list of (item id, score)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import date
from typing import Any

import numpy as np

from graphmem.config.presets import RecallConfig
from graphmem.extract.crosslingual import english_query
from graphmem.recall.about import holds_at
from graphmem.recall.items import Channels, RecallOptions
from graphmem.recall.reader import Reader
from graphmem.recall.understand import QueryPlan
from graphmem.search.embed import cosine_floor, embed_queries, rescale
from graphmem.search.seeds import SeedIndex
from graphmem.search.windows import WindowIndex
from graphmem.text.stopwords import content_words


def gather(
    question: str,
    plan: QueryPlan,
    opts: RecallOptions,
    seeds: SeedIndex,
    windows: WindowIndex,
    reader: Reader,
    embedder: Callable[[], Any],
    current: tuple[str, ...] = (),
) -> tuple[Channels, QueryPlan, np.ndarray | None]:
    """The channels for `question`, the plan with the entities named by their definition
    added, and the question's vector (None without embeddings). `embedder` is asked for
    only when the vector channel weighs anything."""
    cfg = opts.config
    kinds = set(opts.kinds) if opts.kinds else None
    channels: Channels = {"lexical": seeds.lexical(plan.words or question, cfg.lexical_k, kinds)}
    qvec = None
    if cfg.weights.get("vector", 0) > 0 and (model := embedder()) is not None:
        text = plan.topic if cfg.vector_topic and plan.topic else question
        if not getattr(model, "multilingual", False):  # MiniLM reads English only
            text = english_query(text)
        qvec = np.asarray(embed_queries(model, [text]), dtype=np.float32)[0]
        floor = cosine_floor(model)
        channels["vector"] = rescale(seeds.vector(qvec, cfg.vector_k, kinds), floor)
        if cfg.weights.get("window", 0) > 0:  # items of other kinds go in rank
            channels["window"] = rescale(windows.search(qvec, cfg.window_k), floor)
    found = described(channels, plan, cfg, reader)
    if found:
        plan = replace(plan, entities=(*plan.entities, *found))
    if plan.entities and cfg.weights.get("entity", 0) > 0:
        entity: list[tuple[str, float]] = []
        seen: set[str] = set()
        for slug in plan.entities:
            for item_id, _, _ in reader.items_of(slug, cfg.per_entity_cap):
                if item_id not in seen:
                    seen.add(item_id)
                    entity.append((item_id, 1.0))
        channels["entity"] = entity[: cfg.entity_k]
    if plan.entities and cfg.weights.get("subject", 0) > 0:
        about: dict[str, float] = {}
        for slug in plan.entities:
            for item_id, _, _ in reader.items_of(slug, cfg.subject_k, about=True):
                about.setdefault(item_id, 1.0)
        channels["subject"] = list(about.items())
    if current and cfg.weights.get("current", 0) > 0:
        channels["current"] = [(i, 1.0) for i in holding(reader, current, opts.now, cfg)]
    return channels, plan, qvec


def holding(reader: Reader, slugs: Iterable[str], now: date, cfg: RecallConfig) -> list[str]:
    """What holds at `now` about each entity (states begun and not ended, as on its
    `about` card; graphmem.recall.about.holds_at), newest first, `current_k` per entity:
    "what is that person's position now?" asks for these, whatever their words."""
    found: list[str] = []
    for slug in dict.fromkeys(slugs):
        rows = reader.graph.run("entity/facts", slug=slug).dicts()
        held = [r["id"] for r in rows if r["kind"] != "experience" and holds_at(r, now)]
        found.extend(i for i in held[: cfg.current_k] if i not in found)
    return found


def described(channels: Channels, plan: QueryPlan, cfg: RecallConfig, reader: Reader) -> list[str]:
    """Entities the question names by their definition rather than by a name ("Joana's
    home server" for rook, whose page begins "Joana's home server, an Intel NUC"):
    those whose definition line is among the `definition_top` best lexical or vector
    hits. They then count as named: boosts, entity and subject channels."""
    if cfg.definition_top <= 0:
        return []
    definitions = reader.definitions()
    asked = content_words(english_query(plan.words or plan.question))
    found: list[str] = []
    for name in ("lexical", "vector"):
        for item_id, _ in channels.get(name, [])[: cfg.definition_top]:
            if item_id not in definitions:
                continue
            slug, words = definitions[item_id]
            if slug not in plan.entities and slug not in found and len(words & asked) >= 2:
                found.append(slug)
    return found
