"""Recall: hybrid seeds expanded through the graph, filtered in time, returned as packets.

1. Understand the question: entities (gazetteer, so aliases work), time, kind hints.
2. Seeds from four channels: lexical (FTS5 bm25 over an OR of content words), vector
   (sqlite-vec over MiniLM embeddings of the question without the names in it), window
   (the items of the windows of five consecutive items nearest that vector, see
   :mod:`graphmem.search.windows`) and entity (facts and opinions about the question's
   entities, capped per entity), fused by a weighted sum of each channel's scores
   divided by its best (see :mod:`graphmem.recall.fusion`).
3. Graph expansion from the best seeds along NEXT (reading-order neighbours) and EVIDENCE,
   each expanded node inheriting a fraction of its parent's score.
4. Time: ``--since``/``--until``/``--as-of`` filter hard (``--as-of`` keeps superseded facts
   out); a time the question names boosts what falls inside it; recency only breaks
   near-ties (at most +-5%, evergreen files none).
5. Boosts for items that mention (or are spoken by) the question's entities and for the
   hinted kind; MMR so near-identical notes do not fill the top k; packets within a budget.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

import numpy as np

from graphmem.config import Settings
from graphmem.config.presets import RecallConfig
from graphmem.errors import NotIndexedError
from graphmem.extract.crosslingual import english_query
from graphmem.extract.entities import Gazetteer
from graphmem.extract.slots import SETTING, VERSION, Slot, slots, temporary
from graphmem.extract.stopwords import content_words
from graphmem.index.vectorfill import coverage_notice
from graphmem.recall.about import holds_at
from graphmem.recall.fusion import jaccard_matrix, mmr, recency_factor, rrf, score_fusion
from graphmem.recall.lookups import entity_gazetteer, rows_by_ids
from graphmem.recall.packets import Packet, RecallResult, source_ref, timestamp, within_budget
from graphmem.recall.understand import PRESENT_CUES, QueryPlan, understand
from graphmem.search.embed import cosine_floor, embed_queries, rescale
from graphmem.search.projection import Projection
from graphmem.search.seeds import SeedIndex
from graphmem.search.windows import WindowIndex
from graphmem.store.db import Graph
from graphmem.store.layout import Generation, Store

KINDS = ("world", "experience", "observation", "opinion", "log")


@dataclass(frozen=True)
class RecallOptions:
    """What one recall call asks for."""

    k: int = 10
    now: date = field(default_factory=date.today)
    since: date | None = None
    until: date | None = None
    as_of: date | None = None
    kinds: frozenset[str] | None = None
    budget: int | None = None
    config: RecallConfig = field(default_factory=RecallConfig)


@dataclass
class _Item:
    id: str
    table: str
    row: dict[str, Any]
    score: float = 0.0
    via: list[str] = field(default_factory=list)
    entities: list[tuple[str, str, str]] = field(default_factory=list)  # slug, name, how

    @property
    def kind(self) -> str:
        if self.table == "Opinion":
            return "opinion"
        if self.table == "Passage":
            return "log"
        return str(self.row["kind"])


class Recaller:
    """An open index (graph + seeds + models) answering many questions.

    Opening costs a few hundred milliseconds (the embedding model dominates); reuse one
    instance for many questions (the benchmark and the MCP server do).
    """

    def __init__(self, settings: Settings, generation: Generation | None = None) -> None:
        gen = generation or Store(settings.memory_dir).current()
        if gen is None:
            raise NotIndexedError(str(settings.workspace))
        self.settings = settings
        self.generation = gen
        self.graph = Graph(gen.graph, read_only=True, buffer_pool_mb=settings.buffer_pool_mb)
        try:
            self.seeds = SeedIndex.open(gen.seeds)
        except BaseException:
            self.graph.close()
            raise
        self.projection = Projection(self.seeds.conn)
        self.windows = WindowIndex(self.seeds.conn)
        self.notices: list[str] = []
        self._embedder: Any = None
        self._embedder_loaded = False
        self._qvec: np.ndarray | None = None
        self._gazetteers: dict[bool, Gazetteer] = {}
        self._latest_day: list[date | None] = []
        self._definition_ids: dict[str, tuple[str, frozenset[str]]] | None = None
        self._entity_table: dict[str, dict[str, Any]] | None = None

    def close(self) -> None:
        """Release the database handles."""
        self.seeds.close()
        self.graph.close()

    def __enter__(self) -> Recaller:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def latest_day(self) -> date | None:
        """The newest log's day: undated core and bank files state the workspace as of it."""
        if not self._latest_day:
            rows = self.graph.run("recall/latest_day").rows
            self._latest_day.append(rows[0][0] if rows else None)
        return self._latest_day[0]

    def gazetteer(self, declared_only: bool = True) -> Gazetteer:
        """The names recall recognises in a question: the declared entities (bank pages,
        @mentions, chat speakers), or also the names NER promoted."""
        if declared_only not in self._gazetteers:
            rows = self._entity_rows().values()
            self._gazetteers[declared_only] = entity_gazetteer(
                [r for r in rows if r["declared"] or not declared_only]
            )
        return self._gazetteers[declared_only]

    def embedder(self) -> Any:
        """The query embedder, loaded on first use; None (with a notice) when unavailable."""
        if not self._embedder_loaded:
            self._embedder_loaded = True
            if getattr(self.seeds, "backend", "none") == "none":
                self.notices.append("embeddings off in this index: lexical + graph recall only")
            else:
                from graphmem.search.embed import load_embedder, model_places

                self._embedder, notice = load_embedder(
                    self.settings.embed_model, *model_places(self.settings)
                )
                if notice:
                    self.notices.append(notice)
                built = self.seeds.model_id
                if self._embedder is not None and built and built != self._embedder.model_id:
                    # Same size, other space (MiniLM and e5 are both 384-d): never mix them.
                    self.notices.append(
                        f"embeddings off: the index was built with {built}, the settings say "
                        f"{self._embedder.model_id}; run graphmem index. Recall is lexical + graph"
                    )
                    self._embedder = None
                self.notices.extend(coverage_notice(self.generation))
        return self._embedder

    # ------------------------------------------------------------------ the pipeline

    def recall(self, question: str, options: RecallOptions | None = None) -> RecallResult:
        """The best packets for `question`."""
        opts = options or RecallOptions()
        cfg = opts.config
        plan = understand(question, self.gazetteer(cfg.declared_entities_only), opts.now)
        channels, plan = self._channels(question, plan, opts)
        kept, superseded = self._score(question, channels, plan, opts)
        split = _TWO_PART.search(question) if cfg.second_hop else None
        if split is not None:
            bridge = self._bridge(kept, plan, cfg)
            if bridge:
                plan = replace(plan, entities=(*plan.entities, bridge))
                if plan.time is not None and plan.time.char_end <= split.start():
                    plan = replace(plan, time=None)  # the first part's time, not the second's
                asks_now = PRESENT_CUES.search(question, split.start()) is not None
                channels, plan = self._channels(
                    question, plan, opts, current=(bridge,) if asks_now else ()
                )
                kept, superseded = self._score(question, channels, plan, opts)
        picked = self._diversify(kept, opts.k, cfg)
        packets = self._packets(picked, superseded)
        return RecallResult(
            packets=within_budget(packets, opts.budget),
            entities=plan.entities,
            time=f"{plan.time.start}..{plan.time.end}" if plan.time else None,
            kinds=tuple(sorted(plan.kinds)),
            notices=tuple(self.notices),
        )

    def _bridge(self, kept: list[_Item], plan: QueryPlan, cfg: RecallConfig) -> str | None:
        """The entity the best answers to a two-part question's first part name and the
        question does not (declared, not a hub): the one its second part asks about."""
        rows = self._entity_rows()
        total = max(HUB_MIN_ITEMS, len(self.seeds))  # a hub needs a crowd to stand out in
        counts: dict[str, int] = defaultdict(int)
        for item in kept[: cfg.bridge_top]:
            for slug in {slug for slug, _, _ in item.entities}:
                row = rows.get(slug)
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

    def _entity_rows(self) -> dict[str, dict[str, Any]]:
        if self._entity_table is None:
            self._entity_table = {r["slug"]: r for r in self.graph.run("entity/list").dicts()}
        return self._entity_table

    def _score(
        self,
        question: str,
        channels: dict[str, list[tuple[str, float]]],
        plan: QueryPlan,
        opts: RecallOptions,
    ) -> tuple[list[_Item], dict[str, tuple[str, date | None]]]:
        """Fuse the channels, expand through the graph, and rank: the candidates, best
        first, with what superseded each."""
        cfg = opts.config
        if cfg.fusion == "score":
            fused = score_fusion(channels, cfg.weights, normalise=cfg.normalise)
        elif cfg.fusion == "rescore":
            fused = self._rescore(question, channels, cfg)
        else:
            fused = rrf(channels, cfg.weights, cfg.rrf_k)
        via: dict[str, list[str]] = defaultdict(list)
        for name, ranked in channels.items():
            for rank, (item, _) in enumerate(ranked, start=1):
                via[item].append(f"{name}#{rank}")
        scores = dict(fused)
        self._expand(scores, via, cfg)
        items = self._load(scores, via)
        superseded = self._supersession(items)
        if cfg.successor_weight > 0 and self._successors(items, superseded, via, cfg):
            superseded = self._supersession(items)
        kept = self._rank(items, superseded, plan, opts)
        return self._carry_evidence(kept, superseded, plan, opts, via), superseded

    def _successors(
        self,
        items: dict[str, _Item],
        superseded: dict[str, tuple[str, date | None]],
        via: dict[str, list[str]],
        cfg: RecallConfig,
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
            items.update(self._load(extra, via))
        return bool(extra)

    def _channels(
        self, question: str, plan: QueryPlan, opts: RecallOptions, current: tuple[str, ...] = ()
    ) -> tuple[dict[str, list[tuple[str, float]]], QueryPlan]:
        cfg = opts.config
        kinds = set(opts.kinds) if opts.kinds else None
        channels: dict[str, list[tuple[str, float]]] = {
            "lexical": self.seeds.lexical(plan.words or question, cfg.lexical_k, kinds)
        }
        qvec = None
        if cfg.weights.get("vector", 0) > 0 and (embedder := self.embedder()) is not None:
            text = plan.topic if cfg.vector_topic and plan.topic else question
            if not getattr(embedder, "multilingual", False):  # MiniLM reads English only
                text = english_query(text)
            qvec = np.asarray(embed_queries(embedder, [text]), dtype=np.float32)[0]
            floor = cosine_floor(embedder)
            channels["vector"] = rescale(self.seeds.vector(qvec, cfg.vector_k, kinds), floor)
            if cfg.weights.get("window", 0) > 0:  # items of other kinds go in _rank
                channels["window"] = rescale(self.windows.search(qvec, cfg.window_k), floor)
        self._qvec = qvec
        described = self._described(channels, plan, cfg)
        if described:
            plan = replace(plan, entities=(*plan.entities, *described))
        if plan.entities and cfg.weights.get("entity", 0) > 0:
            entity: list[tuple[str, float]] = []
            seen: set[str] = set()
            for slug in plan.entities:
                for item_id, _, _ in self._items_of(slug, cfg.per_entity_cap):
                    if item_id not in seen:
                        seen.add(item_id)
                        entity.append((item_id, 1.0))
            channels["entity"] = entity[: cfg.entity_k]
        if plan.entities and cfg.weights.get("subject", 0) > 0:
            about: dict[str, float] = {}
            for slug in plan.entities:
                for item_id, _, _ in self._items_of(slug, cfg.subject_k, about=True):
                    about.setdefault(item_id, 1.0)
            channels["subject"] = list(about.items())
        if current and cfg.weights.get("current", 0) > 0:
            channels["current"] = [(i, 1.0) for i in self._current(current, opts.now, cfg)]
        return channels, plan

    def _current(self, slugs: Iterable[str], now: date, cfg: RecallConfig) -> list[str]:
        """What holds at `now` about each entity (states begun and not ended, as on its
        `about` card; graphmem.recall.about.holds_at), newest first, `current_k` per entity:
        "what is that person's position now?" asks for these, whatever their words."""
        found: list[str] = []
        for slug in dict.fromkeys(slugs):
            rows = self.graph.run("entity/facts", slug=slug).dicts()
            held = [r["id"] for r in rows if r["kind"] != "experience" and holds_at(r, now)]
            found.extend(i for i in held[: cfg.current_k] if i not in found)
        return found

    def _described(
        self, channels: dict[str, list[tuple[str, float]]], plan: QueryPlan, cfg: RecallConfig
    ) -> list[str]:
        """Entities the question names by their definition rather than by a name ("Joana's
        home server" for rook, whose page begins "Joana's home server, an Intel NUC"):
        those whose definition line is among the `definition_top` best lexical or vector
        hits. They then count as named: boosts, entity and subject channels."""
        if cfg.definition_top <= 0:
            return []
        definitions = self._definitions()
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

    def _definitions(self) -> dict[str, tuple[str, frozenset[str]]]:
        """Definition line id -> (entity, its words): the first line of each bank page
        that is not a ``Key: value`` line (Aliases, Kind). Only words written in lower case
        count: a definition is recognised by what it says ("home server"), not by the
        names in it ("Joana's")."""
        if self._definition_ids is None:
            out: dict[str, tuple[str, frozenset[str]]] = {}
            seen: set[str] = set()
            for slug, item_id, _, text in self.graph.run("recall/page_lines").rows:
                line = str(text or "")
                if slug in seen or _KEY_LINE.match(line):
                    continue
                seen.add(slug)
                plain = " ".join(w for w in line.split() if w[:1].islower())
                out[str(item_id)] = (str(slug), content_words(plain))
            self._definition_ids = out
        return self._definition_ids

    def _rescore(
        self, question: str, channels: dict[str, list[tuple[str, float]]], cfg: RecallConfig
    ) -> dict[str, float]:
        """Score every candidate on both signals: bm25 (relative to the pool's best) and
        cosine similarity to the question (absolute), mixed by the channel weights."""
        pool = list({i for ranked in channels.values() for i, _ in ranked})
        lexical = self.seeds.lexical_scores(question, pool)
        best = max(lexical.values(), default=0.0) or 1.0
        w_lex = cfg.weights.get("lexical", 1.0)
        w_vec = cfg.weights.get("vector", 1.0)
        qvec = self._qvec
        vectors = self.seeds.vectors(pool) if qvec is not None and w_vec > 0 else {}
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

    def _expand(
        self,
        scores: dict[str, float],
        via: dict[str, list[str]],
        cfg: RecallConfig,
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
                for src, nb in self._neighbors(list(frontier)):
                    if frontier[src] * weight > scores.get(nb, 0.0):
                        scores[nb] = frontier[src] * weight
                    via[nb].append(f"next-to:{src}")
                    if nb not in reached:
                        following[nb] = max(following.get(nb, 0.0), frontier[src])
                reached.update(following)
                frontier = following
        if cfg.evidence_weight > 0:
            for claim, passage, how in self._evidence(top):
                for src, dst in ((claim, passage), (passage, claim)):
                    if src in parent:
                        value = parent[src] * cfg.evidence_weight
                        if value > scores.get(dst, 0.0):
                            scores[dst] = value
                        via[dst].append(f"evidence({how}):{src}")

    # Lookups by id: from the SQLite projection when the index has one (Kùzu 0.11.3 scans
    # whole tables for them), else from the graph.

    def _rows(self, ids: list[str]) -> list[tuple[str, dict[str, Any]]]:
        if self.projection.available:
            return self.projection.rows(ids)
        return rows_by_ids(self.graph, ids)

    def _items_of(self, slug: str, limit: int, about: bool = False) -> list[Any]:
        """Items naming an entity (`about`: those about it: bullets whose subject it is,
        lines of its page), newest first. Kùzu 0.11.3 answers the multi-label match of
        recall/subject_items with a fact twice in place of an opinion; the projection
        does not."""
        if self.projection.by_entity:
            if about:
                tables, hows = ("Fact", "Opinion", "Passage"), ("subject", "page")
                return self.projection.items_of([slug], limit, tables=tables, hows=hows)
            return self.projection.items_of([slug], limit, tables=("Fact", "Opinion"))
        query = "recall/subject_items" if about else "recall/entity_items"
        return self.graph.run(query, slugs=[slug], limit=limit).rows

    def _mentions(self, ids: list[str]) -> list[Any]:
        if self.projection.available:
            return self.projection.mentions(ids)
        return self.graph.run("recall/node_entities", ids=ids).rows

    def _neighbors(self, ids: list[str]) -> list[Any]:
        if self.projection.available:
            return self.projection.neighbors(ids)
        return self.graph.run("recall/neighbors", ids=ids).rows

    def _evidence(self, ids: list[str]) -> list[Any]:
        if self.projection.available:
            return self.projection.evidence(ids)
        return self.graph.run("recall/evidence", ids=ids).rows

    def _load(self, scores: dict[str, float], via: dict[str, list[str]]) -> dict[str, _Item]:
        ids = list(scores)
        items: dict[str, _Item] = {}
        for table, row in self._rows(ids):
            items[row["id"]] = _Item(row["id"], table, row, scores[row["id"]], via[row["id"]])
        for item_id, slug, name, how in self._mentions(ids):
            if item_id in items:
                items[item_id].entities.append((slug, name, how))
        return items

    def _supersession(self, items: dict[str, _Item]) -> dict[str, tuple[str, date | None]]:
        """older id -> (newer id, day of the newer statement)."""
        claims = [i for i, it in items.items() if it.table != "Passage"]
        if not claims:
            return {}
        links: Sequence[Sequence[Any]]
        if self.projection.by_supersession:
            links = self.projection.supersedes(claims)
        else:
            links = self.graph.run("recall/supersedes", ids=claims).rows
        out: dict[str, tuple[str, date | None]] = {}
        for newer, older, day, _ in links:
            # replaced twice: its first replacement says when it stopped holding
            if older not in out or _replaced_sooner((newer, day), out[older]):
                out[older] = (newer, day)
        return out

    def _rank(
        self,
        items: dict[str, _Item],
        superseded: dict[str, tuple[str, date | None]],
        plan: QueryPlan,
        opts: RecallOptions,
    ) -> list[_Item]:
        cfg = opts.config
        wanted = set(plan.entities)
        # The typed values of the candidates, read once for both uses below.
        replacing = frozenset(newer for newer, _ in superseded.values())
        stated = list(_stated_slots(items.values()))
        overtaken = _overtaken(stated)
        answering = {item.id for item, _, slot, _ in stated if slot[0] in plan.asks}
        stale_now = (
            _contradicted_then(stated, plan.time.start, plan.time.end)
            if plan.time is not None
            else set()
        )
        kept: list[_Item] = []
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
            if opts.as_of and not _valid_at(item, superseded, opts.as_of):
                continue
            if day is not None and day > opts.now:
                continue  # written after the time the question is asked from
            score = item.score
            slugs = {slug for slug, _, _ in item.entities}
            if wanted & slugs:
                score *= 1 + cfg.entity_boost
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
            before = score
            if plan.time is not None:
                score *= _time_factor(
                    item,
                    superseded,
                    plan.time.start,
                    plan.time.end,
                    opts,
                    replacing,
                    holds_until(item, answering, overtaken),
                )
            elif day is None and _before(opts.now, self.latest_day()):
                # Asked from a time before the newest log: the evergreen files were written
                # after it, so they may already state what was not yet true then.
                score *= cfg.undated_past_penalty
            if item.id in stale_now:
                score *= cfg.time_after_penalty
            # Asked about the present, what was replaced counts doubly stale.
            stale = cfg.superseded_penalty ** (2 if plan.present else 1)
            if item.id in overtaken and opts.as_of is None:
                # A later line of the candidates gives the same attribute another value.
                if plan.time is None or overtaken[item.id] < plan.time.start:
                    score *= stale
            if item.id in superseded and opts.as_of is None and plan.time is None:
                score *= stale
            if item.id in answering and score >= before:
                # It holds a value of the type asked for, and one that held at the time
                # asked about (a replaced or out-of-time value took a penalty above).
                score *= 1 + cfg.answer_type_boost
            score *= recency_factor(day, opts.now, cfg.recency, cfg.recency_days)
            item.score = score
            kept.append(item)
        kept.sort(
            key=lambda it: (-it.score, it.row.get("path") or "", it.row.get("line_start") or 0)
        )
        return kept

    def _carry_evidence(
        self,
        kept: list[_Item],
        superseded: dict[str, tuple[str, date | None]],
        plan: QueryPlan,
        opts: RecallOptions,
        via: dict[str, list[str]],
    ) -> list[_Item]:
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
            for claim, passage, how in self._evidence(list(claims))
            if claim in claims and how in ("same-day", "cites")
        ]
        opinions = [i for i, it in claims.items() if it.table == "Opinion"]
        if opinions and cfg.opinion_evidence_carry > 0:
            links += self._opinion_evidence(opinions)
        for claim, passage, why in links:
            share = cfg.evidence_carry if why == "restates" else cfg.opinion_evidence_carry
            value = claims[claim].score * share
            if value > carried.get(passage, 0.0):
                carried[passage] = value
            via[passage].append(f"{why}:{claim}")
        missing = [p for p in carried if p not in by_id]
        if missing:
            fresh = self._load({p: 0.0 for p in missing}, via)
            for new in self._rank(fresh, superseded, plan, opts):
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

    def _opinion_evidence(self, ids: list[str]) -> list[tuple[str, str, str]]:
        """(opinion, item, "supports" | "contradicts") for what moved each opinion's
        confidence (its history, written by graphmem.compile.opinions)."""
        out: list[tuple[str, str, str]] = []
        for opinion, history in self.graph.run("recall/opinion_history", ids=ids).rows:
            try:
                moves = json.loads(history or "[]")
            except ValueError:
                continue
            for move in moves if isinstance(moves, list) else []:
                evidence = str(move.get("evidence") or "").split("@", 1)[0]
                if evidence:
                    out.append((str(opinion), evidence, str(move.get("relation") or "evidence")))
        return out

    def _diversify(self, ranked: list[_Item], k: int, cfg: RecallConfig) -> list[_Item]:
        if cfg.mmr_lambda >= 1.0 and cfg.duplicate_similarity >= 1.0:
            return ranked[:k]
        pool = ranked[: min(len(ranked), max(k + 20, int(k * 1.2)), 150)]
        sim = jaccard_matrix([str(it.row.get("text") or "") for it in pool])
        chosen = mmr(
            [(it.id, it.score) for it in pool], sim, k, cfg.mmr_lambda, cfg.duplicate_similarity
        )
        by_id = {it.id: it for it in pool}
        return [by_id[i] for i, _ in chosen]

    def _packets(
        self, picked: list[_Item], superseded: dict[str, tuple[str, date | None]]
    ) -> list[Packet]:
        opinions = [it.id for it in picked if it.table == "Opinion"]
        evidence: dict[str, list[str]] = defaultdict(list)
        if opinions:
            for opinion, *ev, relation, _, _ in self.graph.run(
                "recall/opinion_evidence_cited", ids=opinions
            ).rows:
                evidence[opinion].append(f"{relation.lower()}:{source_ref(*ev)}")
            # Passages an opinion came from, cited by their lines (never an internal id).
            passages = [(c, p) for c, p, _ in self._evidence(opinions) if c in opinions]
            where = {
                row["id"]: source_ref(row["path"], row["line_start"], row["line_end"])
                for _, row in self._rows([p for _, p in passages])
            }
            for claim, passage in passages:
                if passage in where:
                    evidence[claim].append(where[passage])
        packets = []
        for it in picked:
            row = it.row
            day = row.get("day")
            packets.append(
                Packet(
                    id=it.id,
                    kind=it.kind,
                    content=str(row.get("text") or ""),
                    source=source_ref(row["path"], row["line_start"], row["line_end"]),
                    score=it.score,
                    timestamp=timestamp(day, row.get("valid_from"), row.get("valid_to")),
                    entities=tuple(dict.fromkeys(name for _, name, _ in it.entities)),
                    confidence=row.get("confidence"),
                    evidence=tuple(evidence.get(it.id, ())),
                    via=tuple(dict.fromkeys(it.via)),
                    superseded_by=superseded[it.id][0] if it.id in superseded else None,
                    valid_from=row.get("valid_from"),
                    valid_to=row.get("valid_to"),
                )
            )
        return packets


#: A question's time counts as "the past" (undated current-state lines may be stale) when
#: it ends this many days before now.
PAST_GRACE_DAYS = 14
#: An entity is a hub (bridges nothing) when more than `bridge_hub_share` of the items
#: name it, counted as if the workspace had at least this many items: in a tiny one,
#: every entity is named by a large share.
HUB_MIN_ITEMS = 50
#: A question in two parts whose second asks about what the first finds ("who reviewed
#: X, and what is that person's position now?", "whose husband …, and what came of it?"),
#: or a reason question: why a value is what it is is often told where the entity the
#: first answers name (the project a setting was brought from) is the subject.
_TWO_PART = re.compile(
    r",? and (what|which|who|whom|where|when|how|why|is|was|does|did|has)\b|"
    r"\b(that person|this person|whose)\b|^\s*why\b",
    re.IGNORECASE,
)
#: A page's metadata line ("Aliases: …", "Kind: person"), which defines nothing.
_KEY_LINE = re.compile(r"[A-Za-z][\w ]{0,30}:\s")


#: (item, day, (type, key, owner, value), lasting): one typed value a candidate states.
_Stated = tuple["_Item", "date | None", tuple[str, str, str, str], bool]


def _overtaken(stated_slots: Iterable[_Stated]) -> dict[str, date]:
    """Dated candidates whose typed value (graphmem.extract.slots) a later-dated candidate
    sharing an entity sets to another value, with the day of the first such statement.

    The recall-time twin of supersession, for free text too: "the listen line now reads
    127.0.0.1:9120" overtakes "listen = 0.0.0.0:8080" when both are candidates. Undated
    lines take no part (core and bank files cannot be placed in time), and a value
    stated as temporary or planned overtakes nothing.
    """
    stated: dict[tuple[str, str, str], list[tuple[date, str, str]]] = defaultdict(list)
    for item, day, slot, lasting in stated_slots:
        if day is not None:
            stated[slot[:3]].append((day, slot_value(slot, lasting), item.id))
    _share_ownerless(stated)
    out: dict[str, date] = {}
    for statements in stated.values():
        statements.sort()
        for day, value, item_id in statements:
            later = [d for d, v, _ in statements if d > day and v and v != value]
            if later:
                first = min(later)
                out[item_id] = min(out.get(item_id, first), first)
    return out


def _contradicted_then(stated: Iterable[_Stated], start: date, end: date) -> set[str]:
    """Candidates undated (core, bank) or written after ``start``..``end`` that give a
    typed value another value than the one a dated candidate states by the end of that
    time: for a question about then they state what became true later ("listens on
    127.0.0.1:9120" against February's 8080, April's new phone number against
    February's)."""
    said: dict[tuple[str, str, str], list[tuple[date, str]]] = defaultdict(list)
    undated: list[tuple[tuple[str, str, str], str, str]] = []
    for item, day, slot, lasting in stated:
        if day is None or day > end:
            undated.append((slot[:3], slot[3], item.id))
        elif lasting:
            said[slot[:3]].append((day, slot[3]))
    _share_ownerless(said)
    # The value valid then: the newest lasting statement made by the end of that time.
    then = {key: max(rows)[1] for key, rows in said.items() if rows}
    out: set[str] = set()
    for key, value, item_id in undated:
        valid = then.get(key) or then.get((key[0], key[1], ""))
        if valid is not None and valid != value:
            out.add(item_id)
    return out


def slot_value(slot: tuple[str, str, str, str], lasting: bool) -> str:
    """A stated value, or "" for a temporary one (which overtakes nothing)."""
    return slot[3] if lasting else ""


@lru_cache(maxsize=32768)
def _read_slots(text: str) -> tuple[tuple[Slot, ...], bool]:
    """The typed values of a candidate's text and whether they last (not "until Friday"),
    kept per text: every pass of a recall reads the same candidates, and a long-lived
    process (the MCP server, the daemon) the same lines for many questions."""
    values = tuple(slots(text)) if text else ()
    return values, bool(values) and not temporary(text)


def _stated_slots(items: Iterable[_Item]) -> Iterable[_Stated]:
    """(item, day, (type, key, owner, value), lasting) for every typed value of every item;
    the owner is an entity the item names ("" for a config key or a thing's version, and
    for an item that names no entity)."""
    for item in items:
        text = str(item.row.get("text") or item.row.get("statement") or "")
        values, lasting = _read_slots(text)
        if not values:
            continue
        owners = {slug for slug, _, _ in item.entities} or {""}
        for slot in values:
            for owner in [""] if slot.type in (SETTING, VERSION) else sorted(owners):
                yield item, item.row.get("day"), (slot.type, slot.key, owner, slot.value), lasting


def _share_ownerless(stated: dict[Any, list[Any]]) -> None:
    """Statements of a key-less value by an item that names nobody ("the listen line now
    reads 127.0.0.1:9120") join every owner's group of that type."""
    for (kind, key, owner), rows in list(stated.items()):
        if owner:
            continue
        for (k2, key2, owner2), rows2 in stated.items():
            if owner2 and (k2, key2) == (kind, key):
                rows2.extend(rows)


def _before(now: date, latest: date | None) -> bool:
    """`now` lies more than the grace period before `latest`."""
    return latest is not None and (latest - now).days > PAST_GRACE_DAYS


def holds_until(
    item: _Item, answering: set[str], overtaken: dict[str, date]
) -> tuple[date | None] | None:
    """For a line that states a value of the type the question asks for (a price, a phone
    number): ``(last,)``, the last day that value held (the day before a later candidate
    gave it another) or ``(None,)`` when nothing changed it; None for any other line. A log
    line that says "Espresso is €1.10" in March states what held in May unless a line
    changed it."""
    if item.id not in answering:
        return None
    changed = overtaken.get(item.id)
    return (None if changed is None else changed - timedelta(days=1),)


def _time_factor(
    item: _Item,
    superseded: dict[str, tuple[str, date | None]],
    start: date,
    end: date,
    opts: RecallOptions,
    replacing: frozenset[str] = frozenset(),
    holds: tuple[date | None] | None = None,
) -> float:
    """How an item stands to the time the question names (``start``..``end``).

    A state fact counts inside when its validity overlaps that time and nothing superseded
    it before the time began; an event or a log line when it happened (or is dated) inside
    it. An undated core or bank line states the present: for a question about the past it
    is neutral only when its own text dates it inside that time.
    """
    cfg = opts.config
    row = item.row
    day: date | None = row.get("day")
    valid_from: date | None = row.get("valid_from")
    valid_to: date | None = row.get("valid_to")
    if day is None:
        past = (opts.now - end).days > PAST_GRACE_DAYS
        if valid_from is not None and valid_from <= end and (valid_to or valid_from) >= start:
            return 1 + cfg.time_boost
        return cfg.undated_past_penalty if past else 1.0
    first = valid_from or day
    if (item.table == "Fact" and row.get("kind") == "world") or item.id in replacing:
        # A state, valid until it is itself replaced (a free-text sentence that ended a
        # fact states the new value from its day on).
        last = valid_to
        newer = superseded.get(item.id)
        if newer is not None and newer[1] is not None and newer[1] < start:
            return cfg.time_penalty  # replaced before the time asked about
    elif holds is not None:
        last = valid_to or holds[0]  # a stated value, held until it changed
    else:
        last = valid_to or (day if item.table != "Fact" else None)
    inside = first <= end and (last is None or last >= start)
    if inside:
        return 1 + cfg.time_boost
    return cfg.time_after_penalty if day > end else cfg.time_penalty


def _replaced_sooner(one: tuple[str, date | None], other: tuple[str, date | None]) -> bool:
    """Whether replacement `one` (newer id, day) comes before `other`: a dated one before an
    undated one, then the earlier day, then the smaller id (a stable answer)."""
    (one_id, one_day), (other_id, other_day) = one, other
    if (one_day is None) != (other_day is None):
        return one_day is not None
    if one_day is not None and other_day is not None and one_day != other_day:
        return one_day < other_day
    return one_id < other_id


def _valid_at(item: _Item, superseded: dict[str, tuple[str, date | None]], when: date) -> bool:
    """Was this item true (facts) or already said (everything else) on `when`?"""
    row = item.row
    day = row.get("day")
    if day is not None and day > when:
        return False
    start = row.get("valid_from") or day
    if item.table != "Fact":
        return start is None or start <= when
    end = row.get("valid_to")
    if start is not None and start > when:
        return False
    if end is not None and end < when:
        return False
    newer = superseded.get(item.id)
    return not (newer is not None and newer[1] is not None and newer[1] <= when)


def recall(settings: Settings, question: str, options: RecallOptions | None = None) -> RecallResult:
    """One-shot recall (opens and closes the index)."""
    with Recaller(settings) as recaller:
        return recaller.recall(question, options)
