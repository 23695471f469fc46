"""The reads recall makes from an open index, by id: rows, the entities they name, their
reading-order neighbours, evidence and supersession, and the few per-index tables it keeps
(entities, bank-page definitions, the newest log's day).

Lookups by id come from the SQLite projection when the index has one (Kùzu 0.11.3 scans
whole tables for them), else from the graph.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from datetime import date
from typing import Any

from graphmem.recall.items import Item, Superseded
from graphmem.recall.lookups import rows_by_ids
from graphmem.search.projection import Projection
from graphmem.store.db import Graph
from graphmem.text.stopwords import content_words

#: A page's metadata line ("Aliases: …", "Kind: person"), which defines nothing.
_KEY_LINE = re.compile(r"[A-Za-z][\w ]{0,30}:\s")


class Reader:
    """Reads of one open generation (its graph and the seed index's projection), with the
    per-index tables read once."""

    def __init__(self, graph: Graph, projection: Projection) -> None:
        self.graph = graph
        self.projection = projection
        self._latest_day: list[date | None] = []
        self._definition_ids: dict[str, tuple[str, frozenset[str]]] | None = None
        self._entity_table: dict[str, dict[str, Any]] | None = None

    def latest_day(self) -> date | None:
        """The newest log's day: undated core and bank files state the workspace as of it."""
        if not self._latest_day:
            rows = self.graph.run("recall/latest_day").rows
            self._latest_day.append(rows[0][0] if rows else None)
        return self._latest_day[0]

    def entity_rows(self) -> dict[str, dict[str, Any]]:
        """slug -> the entity's row (declared, mentions, …)."""
        if self._entity_table is None:
            self._entity_table = {r["slug"]: r for r in self.graph.run("entity/list").dicts()}
        return self._entity_table

    def definitions(self) -> dict[str, tuple[str, frozenset[str]]]:
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

    def rows(self, ids: list[str]) -> list[tuple[str, dict[str, Any]]]:
        if self.projection.available:
            return self.projection.rows(ids)
        return rows_by_ids(self.graph, ids)

    def items_of(self, slug: str, limit: int, about: bool = False) -> list[Any]:
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

    def mentions(self, ids: list[str]) -> list[Any]:
        if self.projection.available:
            return self.projection.mentions(ids)
        return self.graph.run("recall/node_entities", ids=ids).rows

    def neighbors(self, ids: list[str]) -> list[Any]:
        if self.projection.available:
            return self.projection.neighbors(ids)
        return self.graph.run("recall/neighbors", ids=ids).rows

    def evidence(self, ids: list[str]) -> list[Any]:
        if self.projection.available:
            return self.projection.evidence(ids)
        return self.graph.run("recall/evidence", ids=ids).rows

    def load(self, scores: dict[str, float], via: dict[str, list[str]]) -> dict[str, Item]:
        """The candidates for `scores`' ids, with their scores, ``via`` and entities."""
        ids = list(scores)
        items: dict[str, Item] = {}
        for table, row in self.rows(ids):
            items[row["id"]] = Item(row["id"], table, row, scores[row["id"]], via[row["id"]])
        for item_id, slug, name, how in self.mentions(ids):
            if item_id in items:
                items[item_id].entities.append((slug, name, how))
        return items

    def supersession(self, items: dict[str, Item]) -> Superseded:
        """older id -> (newer id, day of the newer statement)."""
        claims = [i for i, it in items.items() if it.table != "Passage"]
        if not claims:
            return {}
        links: Sequence[Sequence[Any]]
        if self.projection.by_supersession:
            links = self.projection.supersedes(claims)
        else:
            links = self.graph.run("recall/supersedes", ids=claims).rows
        out: Superseded = {}
        for newer, older, day, _ in links:
            # replaced twice: its first replacement says when it stopped holding
            if older not in out or replaced_sooner((newer, day), out[older]):
                out[older] = (newer, day)
        return out

    def opinion_evidence(self, ids: list[str]) -> list[tuple[str, str, str]]:
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


def replaced_sooner(one: tuple[str, date | None], other: tuple[str, date | None]) -> bool:
    """Whether replacement `one` (newer id, day) comes before `other`: a dated one before an
    undated one, then the earlier day, then the smaller id (a stable answer)."""
    (one_id, one_day), (other_id, other_day) = one, other
    if (one_day is None) != (other_day is None):
        return one_day is not None
    if one_day is not None and other_day is not None and one_day != other_day:
        return one_day < other_day
    return one_id < other_id
