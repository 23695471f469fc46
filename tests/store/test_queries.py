"""Named queries: every file binds against a fresh database; parameters are checked."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from graphmem.errors import QueryError, ReadOnlyError
from graphmem.index.load import (
    add_node_statement,
    add_rel_statement,
    remove_nodes,
    remove_rel_statement,
)
from graphmem.store.db import Graph
from graphmem.store.ontology import node_columns, primary_keys, rel_columns, rel_pairs
from graphmem.store.queries import catalog, load_query, parameters

#: A sample value for every parameter name the query files use. A new parameter name
#: must be added here, so that every query keeps being exercised.
SAMPLE_VALUES: dict[str, object] = {
    "slug": "peter",
    "slugs": ["peter"],
    "path": "memory/2025-11-27.md",
    "ids": ["f1"],
    "id": "f1",
    "day": date(2025, 11, 27),
    "as_of": date(2025, 11, 27),
    "since": date(2025, 1, 1),
    "until": date(2025, 12, 31),
    "limit": 10,
    "k": 10,
    "per_entity": 5,
    "text": "hello",
    "valid_to": date(2025, 12, 1),
    "confidence": 0.5,
    "superseded": False,
    "last_updated": date(2025, 11, 27),
    "history": "[]",
    "mentions": 3,
    "first_seen": date(2025, 9, 2),
    "last_seen": date(2025, 11, 27),
}


@pytest.fixture(scope="module")
def empty_graph(tmp_path_factory: pytest.TempPathFactory) -> Graph:
    graph = Graph.create(tmp_path_factory.mktemp("db") / "graph.kuzu", buffer_pool_mb=64)
    yield graph  # type: ignore[misc]
    graph.close()


def test_there_are_queries() -> None:
    assert len(catalog()) >= 5


@pytest.mark.parametrize("name", sorted(catalog()))
def test_every_query_binds_against_an_empty_database(empty_graph: Graph, name: str) -> None:
    query = catalog()[name]
    assert query.description, f"{name} needs a // description line"
    unknown = query.params - SAMPLE_VALUES.keys()
    assert not unknown, f"add sample values for {unknown} to SAMPLE_VALUES"
    rows = empty_graph.run(name, **{p: SAMPLE_VALUES[p] for p in query.params})
    assert rows.rows == [] or name.startswith("status/")


def test_a_call_with_missing_or_extra_parameters_is_refused(empty_graph: Graph) -> None:
    with pytest.raises(QueryError, match=r"missing \$slug"):
        empty_graph.run("entity/facts")
    with pytest.raises(QueryError, match=r"unknown \$name"):
        empty_graph.run("entity/facts", slug="peter", name="x")


def test_unknown_query_names_suggest_the_catalog(empty_graph: Graph) -> None:
    with pytest.raises(QueryError, match="query --list"):
        empty_graph.run("no/such")


def test_parameters_ignore_comments_and_string_literals() -> None:
    text = "// uses $nothing\nMATCH (e) WHERE e.name = '$notaparam' AND e.slug = $slug /* $no */ RETURN e"
    assert parameters(text) == {"slug"}


def test_query_files_need_a_description_and_one_statement(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cypher"
    bad.write_text("MATCH (n) RETURN n")
    with pytest.raises(QueryError, match="description"):
        load_query(bad, "bad")
    bad.write_text("// two\nMATCH (n) RETURN n; MATCH (m) RETURN m")
    with pytest.raises(QueryError, match="one statement"):
        load_query(bad, "bad")


def test_read_only_graph_refuses_writes_including_procedures(tmp_path: Path) -> None:
    path = tmp_path / "graph.kuzu"
    Graph.create(path, buffer_pool_mb=64).close()
    with Graph(path, read_only=True, buffer_pool_mb=64) as graph:
        with pytest.raises(ReadOnlyError, match="--write"):
            graph.execute("CREATE (:Entity {slug: 'x'})")
        with pytest.raises(ReadOnlyError):
            graph.execute("CALL CREATE_FTS_INDEX('Passage', 'p', ['text'])")
        with pytest.raises(ReadOnlyError):
            graph.execute("MATCH (e:Entity) DETACH DELETE e")


def test_an_apostrophe_in_a_comment_does_not_hide_parameters() -> None:
    text = "// Peter's facts\nMATCH (e) WHERE e.slug = $slug AND e.name = '// kept $x' RETURN e"
    assert parameters(text) == {"slug"}


def test_several_statements_in_one_string_return_the_last_result(empty_graph: Graph) -> None:
    rows = empty_graph.execute(
        "MATCH (e:Entity) RETURN count(e); MATCH (f:Fact) RETURN count(f) AS n"
    )
    assert rows.columns == ["n"] and rows.rows == [[0]]


@pytest.mark.parametrize("table", sorted(node_columns()))
def test_the_incremental_node_statements_run_on_every_table(tmp_path: Path, table: str) -> None:
    """The ontology-derived CREATE and delete of an incremental index, per node table."""
    with Graph.create(tmp_path / "graph.kuzu", buffer_pool_mb=64) as graph:
        key = primary_keys()[table]
        row = {c: None for c in node_columns()[table]} | {key: "k1"}
        graph.execute(add_node_statement(table), row)
        assert graph.execute(f"MATCH (n:`{table}`) RETURN n.`{key}`").rows == [["k1"]]
        remove_nodes(graph, table, key, "k1")
        assert graph.execute(f"MATCH (n:`{table}`) RETURN count(*)").rows == [[0]]


@pytest.mark.parametrize(
    ("rel", "src", "dst"), [(r, a, b) for r, pairs in sorted(rel_pairs().items()) for a, b in pairs]
)
def test_the_incremental_rel_statements_run_on_every_pair(
    tmp_path: Path, rel: str, src: str, dst: str
) -> None:
    """CREATE and DELETE of one relationship, and deleting an end removes it from counts."""
    keys = primary_keys()
    with Graph.create(tmp_path / "graph.kuzu", buffer_pool_mb=64) as graph:
        for table, value in ((src, "a1"), (dst, "b1")):
            graph.execute(
                add_node_statement(table),
                {c: None for c in node_columns()[table]} | {keys[table]: value},
            )
        props = {c: None for c in rel_columns()[rel]}
        graph.execute(add_rel_statement(rel, src, dst), {"a": "a1", "b": "b1", **props})
        count = f"MATCH ()-[r:`{rel}`]->() RETURN count(*)"
        assert graph.execute(count).rows == [[1]]
        graph.execute(remove_rel_statement(rel, src, dst), {"a": "a1", "b": "b1"})
        assert graph.execute(count).rows == [[0]]
        graph.execute(add_rel_statement(rel, src, dst), {"a": "a1", "b": "b1", **props})
        remove_nodes(graph, src, keys[src], "a1")
        assert graph.execute(count).rows == [[0]]
