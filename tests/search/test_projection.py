"""The SQLite projection answers the by-id lookups exactly as the graph does."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from conftest import settings_for

from graphmem.index.build import index_workspace
from graphmem.memory import open_graph
from graphmem.recall.engine import Recaller, RecallOptions, RecallResult
from graphmem.search.projection import Projection
from graphmem.search.seeds import SeedIndex, connect
from graphmem.store.layout import Store

NOW = date(2026, 1, 1)


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
        assert projection.by_supersession
        superseding = sorted(projection.supersedes(ids))
        assert superseding, "the sample has superseded facts"
        assert superseding == sorted(tuple(r) for r in graph.run("recall/supersedes", ids=ids).rows)


def test_an_index_without_the_supersedes_table_asks_the_graph(sample: Path) -> None:
    """An index written before the projection kept SUPERSEDES answers the same from Kùzu,
    and an incremental index of it leaves it so (a table begun empty would hide links)."""
    settings = settings_for(sample)
    index_workspace(settings)
    question = "Where does Peter live?"
    with Recaller(settings) as recaller:
        assert recaller.projection.by_supersession
        before = _superseded(recaller.recall(question, RecallOptions(k=25, now=NOW)))
    assert before, "the sample's question finds a superseded fact"
    gen = Store(settings.memory_dir).current()
    assert gen is not None
    conn = connect(gen.seeds)
    conn.execute("DROP TABLE supersedes_pairs")
    conn.commit()
    conn.close()
    with Recaller(settings) as recaller:
        assert not recaller.projection.by_supersession
        assert _superseded(recaller.recall(question, RecallOptions(k=25, now=NOW))) == before
    log = next((sample / "memory").glob("*.md"))
    log.write_text(log.read_text(encoding="utf-8") + "\nA new line about the garden.\n")
    assert index_workspace(settings).mode == "delta"
    with Recaller(settings) as recaller:
        assert not recaller.projection.by_supersession
        assert _superseded(recaller.recall(question, RecallOptions(k=25, now=NOW))) == before


def _superseded(result: RecallResult) -> list[tuple[str, str]]:
    return [(p.source, str(p.superseded_by)) for p in result.packets if p.superseded_by]


def test_a_claim_replaced_twice_is_dated_by_its_first_replacement() -> None:
    """Whatever order the links come in, a claim stopped holding at its first dated
    replacement; an undated one counts last, and equal days fall to the smaller id."""
    from graphmem.recall.reader import replaced_sooner

    march, may = date(2026, 3, 1), date(2026, 5, 1)
    assert replaced_sooner(("b", march), ("a", may))
    assert not replaced_sooner(("a", may), ("b", march))
    assert replaced_sooner(("b", may), ("a", None))
    assert not replaced_sooner(("a", None), ("b", may))
    assert replaced_sooner(("a", march), ("b", march))
    assert not replaced_sooner(("b", march), ("a", march))
