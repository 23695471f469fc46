"""Recall: hybrid seeds expanded through the graph, filtered in time, returned as packets.

The pipeline; each step is a module of its own:

1. Understand the question (:mod:`~graphmem.recall.understand`): entities (gazetteer, so
   aliases work), time, kind hints, the type of value asked for.
2. Seeds from the channels (:mod:`~graphmem.recall.channels`): lexical (FTS5 bm25 over an
   OR of content words), vector (sqlite-vec over the embedded question), window (the items
   of the windows of five consecutive items nearest that vector, see
   :mod:`graphmem.search.windows`), entity and subject (items naming, or about, the
   question's entities, capped per entity), fused (:mod:`~graphmem.recall.fuse`) by a
   weighted sum of each channel's scores divided by its best (the formulas in
   :mod:`~graphmem.recall.fusion`).
3. Graph expansion (:mod:`~graphmem.recall.expand`) from the best seeds along NEXT
   (reading-order neighbours) and EVIDENCE, each expanded node inheriting a fraction of its
   parent's score, and along SUPERSEDES to what replaced a top candidate. The reads by id
   are :mod:`~graphmem.recall.reader`'s.
4. Ranking (:mod:`~graphmem.recall.rank`): ``--since``/``--until``/``--as-of`` filter hard
   (``--as-of`` keeps superseded facts out); a time the question names boosts what falls
   inside it (:mod:`~graphmem.recall.time_rules`); a typed value a later candidate changed
   is stale (:mod:`~graphmem.recall.stated`); recency only breaks near-ties (at most
   +-5%, evergreen files none); boosts for items that mention (or are spoken by) the
   question's entities, for the hinted kind and for a value of the type asked for.
5. Carried evidence (:mod:`~graphmem.recall.carry`): the sentence a top bullet distils and
   what moved a top opinion rank with it.
6. A two-part question runs again with the entity the first answers name
   (:mod:`~graphmem.recall.bridge`).
7. MMR so near-identical notes do not fill the top k; cited packets within a budget
   (:mod:`~graphmem.recall.cite`).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

import numpy as np

from graphmem.config import Settings
from graphmem.errors import NotIndexedError
from graphmem.extract.entities import Gazetteer
from graphmem.recall.bridge import TWO_PART, bridge
from graphmem.recall.carry import carry_evidence
from graphmem.recall.channels import gather
from graphmem.recall.cite import packets
from graphmem.recall.expand import expand, successors
from graphmem.recall.fuse import fuse, reached_by
from graphmem.recall.items import KINDS, Channels, Item, RecallOptions, Superseded
from graphmem.recall.lookups import entity_gazetteer
from graphmem.recall.packets import RecallResult, within_budget
from graphmem.recall.rank import diversify, rank
from graphmem.recall.reader import Reader
from graphmem.recall.understand import PRESENT_CUES, QueryPlan, understand
from graphmem.search.coverage import coverage_notice
from graphmem.search.projection import Projection
from graphmem.search.seeds import SeedIndex
from graphmem.search.windows import WindowIndex
from graphmem.store.db import Graph
from graphmem.store.layout import Generation, Store

__all__ = ["KINDS", "RecallOptions", "RecallResult", "Recaller", "recall"]


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
        self.reader = Reader(self.graph, self.projection)

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
        return self.reader.latest_day()

    def gazetteer(self, declared_only: bool = True) -> Gazetteer:
        """The names recall recognises in a question: the declared entities (bank pages,
        @mentions, chat speakers), or also the names NER promoted."""
        if declared_only not in self._gazetteers:
            rows = self.reader.entity_rows().values()
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
        split = TWO_PART.search(question) if cfg.second_hop else None
        if split is not None:
            found = bridge(kept, plan, cfg, self.reader.entity_rows(), len(self.seeds))
            if found:
                plan = replace(plan, entities=(*plan.entities, found))
                if plan.time is not None and plan.time.char_end <= split.start():
                    plan = replace(plan, time=None)  # the first part's time, not the second's
                asks_now = PRESENT_CUES.search(question, split.start()) is not None
                channels, plan = self._channels(
                    question, plan, opts, current=(found,) if asks_now else ()
                )
                kept, superseded = self._score(question, channels, plan, opts)
        picked = diversify(kept, opts.k, cfg)
        return RecallResult(
            packets=within_budget(packets(picked, superseded, self.reader), opts.budget),
            entities=plan.entities,
            time=f"{plan.time.start}..{plan.time.end}" if plan.time else None,
            kinds=tuple(sorted(plan.kinds)),
            notices=tuple(self.notices),
        )

    def _channels(
        self, question: str, plan: QueryPlan, opts: RecallOptions, current: tuple[str, ...] = ()
    ) -> tuple[Channels, QueryPlan]:
        channels, plan, self._qvec = gather(
            question, plan, opts, self.seeds, self.windows, self.reader, self.embedder, current
        )
        return channels, plan

    def _score(
        self, question: str, channels: Channels, plan: QueryPlan, opts: RecallOptions
    ) -> tuple[list[Item], Superseded]:
        """Fuse the channels, expand through the graph, and rank: the candidates, best
        first, with what superseded each."""
        cfg = opts.config
        reader = self.reader
        scores = fuse(question, channels, cfg, self.seeds, self._qvec)
        via = reached_by(channels)
        expand(scores, via, cfg, reader)
        items = reader.load(scores, via)
        superseded = reader.supersession(items)
        if cfg.successor_weight > 0 and successors(items, superseded, via, cfg, reader):
            superseded = reader.supersession(items)
        kept = rank(items, superseded, plan, opts, reader.latest_day)
        return carry_evidence(kept, superseded, plan, opts, via, reader), superseded


def recall(settings: Settings, question: str, options: RecallOptions | None = None) -> RecallResult:
    """One-shot recall (opens and closes the index)."""
    with Recaller(settings) as recaller:
        return recaller.recall(question, options)
