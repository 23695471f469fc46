"""The SQLite projection answers the by-id lookups exactly as the graph does."""

from __future__ import annotations

from pathlib import Path

from conftest import settings_for

from graphmem.api import open_graph
from graphmem.index.build import index_workspace
from graphmem.search.projection import Projection
from graphmem.search.seeds import SeedIndex
from graphmem.store.layout import Store


def test_projection_matches_the_graph(sample: Path) -> None:
    settings = settings_for(sample)
    index_workspace(settings)
    gen = Store(settings.memory_dir).current()
    assert gen is not None
    with open_graph(settings) as graph, SeedIndex.open(gen.seeds) as seeds:
        ids = [
            r[0]
            for r in graph.execute("MATCH (n:Fact:Opinion:Passage) RETURN n.id ORDER BY n.id").rows
        ]
        projection = Projection(seeds.conn)
        assert projection.available
        expected = {}
        for table, query in (
            ("Fact", "recall/facts_by_ids"),
            ("Opinion", "recall/opinions_by_ids"),
            ("Passage", "recall/passages_by_ids"),
        ):
            expected.update({r["id"]: (table, r) for r in graph.run(query, ids=ids).dicts()})
        assert {row["id"]: (table, row) for table, row in projection.rows(ids)} == expected
        assert sorted(projection.mentions(ids)) == sorted(
            tuple(r) for r in graph.run("recall/node_entities", ids=ids).rows
        )
        assert sorted(projection.neighbors(ids)) == sorted(
            tuple(r) for r in graph.run("recall/neighbors", ids=ids).rows
        )
        assert sorted(projection.evidence(ids)) == sorted(
            tuple(r) for r in graph.run("recall/evidence", ids=ids).rows
        )
