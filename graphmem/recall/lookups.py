"""Lookups against the graph shared by recall, entity cards and merges: the entity table
as a name matcher, and full rows of facts, opinions and passages by id."""

from __future__ import annotations

from typing import Any

from graphmem.extract.entities import Gazetteer, KnownEntity
from graphmem.store.db import Graph

#: The named query that returns a table's full rows for a list of ids.
ROWS_BY_IDS = (
    ("Fact", "recall/facts_by_ids"),
    ("Opinion", "recall/opinions_by_ids"),
    ("Passage", "recall/passages_by_ids"),
)


def entity_gazetteer(rows: list[dict[str, Any]]) -> Gazetteer:
    """A name matcher over rows of the ``entity/list`` query (names, slugs, aliases)."""
    return Gazetteer.build(
        KnownEntity(r["slug"], r["name"], tuple(r["aliases"] or ()), r["kind"]) for r in rows
    )


def rows_by_ids(graph: Graph, ids: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """(table, row) of each id that is a fact, opinion or passage."""
    out: list[tuple[str, dict[str, Any]]] = []
    for table, query in ROWS_BY_IDS:
        out.extend((table, row) for row in graph.run(query, ids=ids).dicts())
    return out
