"""Export: GraphML for Gephi/yEd, CSV files, and a Cypher script that Kùzu re-imports."""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path

import networkx as nx
import pytest
from conftest import WriteFiles, settings_for

from graphmem.compile.rows import NODE_COLUMNS, REL_COLUMNS
from graphmem.config import Settings
from graphmem.export.files import (
    GRAPHML_FILE,
    KUZU_SCRIPT,
    NEO4J_SCRIPT,
    ExportError,
    export_graph,
    schema_tables,
)
from graphmem.index.build import index_workspace
from graphmem.memory import open_graph
from graphmem.store.db import Graph
from graphmem.store.queries import catalog, strip_comments

#: Text that CSV and Cypher quoting must survive: commas, quotes, backslashes, newlines.
HOSTILE: dict[str, str | bytes] = {
    "memory.md": '- W @Peter: Lives in Lisbon, "the" city; keeps notes in C:\\notes\\x\n',
    "bank/entities/Peter.md": "# Peter\nAliases: Pete, P. [the dev]\n\nA developer.\n",
    "memory/2025-11-01.md": (
        "# Sat\n\nCoffee with @Andy,\nthen a \"long\" walk; 50% rain, 'ok'.\n\n"
        "## Retain\n- W @Andy: Works at Acme (Nov 1–Dec 1, 2025)\n"
        "- O(c=0.7) @Andy: Prefers tea, not coffee\n"
        '- O @Peter: Writes "too much", maybe\n'
    ),
}
REASON = 'weighs "both", sides\nand a second line \\ with a backslash'


def _index(root: Path) -> Settings:
    settings = settings_for(root)
    index_workspace(settings)
    return settings


def _add_reflect_edges(settings: Settings) -> None:
    """Give the tables indexing leaves empty some rows, plus one parallel MENTIONS edge."""
    with open_graph(settings, write=True) as graph:
        pick = "MATCH (f:Fact), (o:Opinion), (p:Opinion) WHERE o.id < p.id WITH f, o, p "
        pick += "ORDER BY f.id, o.id, p.id LIMIT 1 "
        graph.execute(
            pick + "CREATE (f)-[:SUPPORTS {weight: 0.25, day: $day, reason: $reason}]->(o), "
            "(o)-[:CONTRADICTS {weight: 0.5, day: $day, reason: $reason}]->(p), "
            "(p)-[:SUPERSEDES {day: $day, cue: 'changed, \"mind\"'}]->(o)",
            {"day": date(2025, 12, 1), "reason": REASON},
        )
        graph.execute(
            "MATCH (f:Fact)-[m:MENTIONS]->(e:Entity) WITH f, e ORDER BY f.id, e.slug LIMIT 1 "
            "CREATE (f)-[:MENTIONS {how: 'again'}]->(e)"
        )


def _statements(script: str) -> list[str]:
    """A Cypher script's statements: comments out, split on the semicolons ending them."""
    return [s.strip() for s in strip_comments(script).split(";") if s.strip()]


def _reimport(out: Path, db: Path, monkeypatch: pytest.MonkeyPatch) -> Graph:
    """Run load.cypher statement by statement into a new database, from the export folder."""
    monkeypatch.chdir(out)  # the script names its CSV files relative to its own folder
    graph = Graph(db, read_only=False, buffer_pool_mb=64)
    for statement in _statements((out / KUZU_SCRIPT).read_text(encoding="utf-8")):
        graph.execute(statement, name=KUZU_SCRIPT)
    return graph


def _counts(graph: Graph) -> dict[str, int]:
    """Rows per node label and per relationship type, by engine-wide scans."""
    nodes = graph.execute("MATCH (n) RETURN label(n), count(n)").rows
    rels = graph.execute("MATCH ()-[r]->() RETURN label(r), count(r)").rows
    return {str(label): int(count) for label, count in [*nodes, *rels]}


def _sample_props(graph: Graph) -> dict[str, list[list[object]]]:
    q = {
        "entities": "MATCH (e:Entity) RETURN e.slug, e.name, e.aliases, e.kind ORDER BY e.slug",
        "facts": "MATCH (f:Fact) RETURN f.id, f.text, f.day, f.valid_to ORDER BY f.id LIMIT 10",
        "supersedes": "MATCH (a)-[s:SUPERSEDES]->(b) RETURN a.id, b.id, s.day, s.cue ORDER BY a.id, b.id",
        "supports": "MATCH (a)-[s:SUPPORTS]->(b) RETURN a.id, b.id, s.weight, s.reason "
        "ORDER BY a.id, b.id, s.reason",
        "opinions": "MATCH (o:Opinion) RETURN o.id, o.confidence, o.superseded ORDER BY o.id",
    }
    return {name: graph.execute(text).rows for name, text in q.items()}


@pytest.fixture(params=["hostile", "sample"])
def indexed(request: pytest.FixtureRequest, make_workspace: WriteFiles) -> Settings:
    """An indexed workspace: a small one with awkward text, or a copy of fixtures/sample."""
    if request.param == "hostile":
        root = make_workspace(HOSTILE)
    else:
        root = request.getfixturevalue("sample")
    settings = _index(root)
    _add_reflect_edges(settings)
    return settings


def test_the_cypher_export_round_trips_through_a_fresh_kuzu(
    indexed: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "export"
    with open_graph(indexed) as graph:
        report = export_graph(graph, "cypher", out)
        before_counts, before_props = _counts(graph), _sample_props(graph)
        before_rows = {
            name: graph.run(name).rows for name in catalog() if name.startswith("export/")
        }
    assert report.counts == {t: before_counts.get(t, 0) for t in report.counts}
    assert report.counts["SUPPORTS"] >= 1 and report.counts["CONTRADICTS"] >= 1
    with _reimport(out, tmp_path / "copy.kuzu", monkeypatch) as copy:
        assert _counts(copy) == before_counts
        assert _sample_props(copy) == before_props
        # Every row of every table and pair, column by column, as the export queries see it.
        assert {name: copy.run(name).rows for name in before_rows} == before_rows
    assert before_props["supports"][0][3] == REASON


def test_graphml_keeps_every_node_and_parallel_edge(indexed: Settings, tmp_path: Path) -> None:
    with open_graph(indexed) as graph:
        report = export_graph(graph, "graphml", tmp_path / "gml")
        peter = graph.execute("MATCH (e:Entity {slug: 'peter'}) RETURN e.name, e.aliases").rows
        fact = graph.execute("MATCH (f:Fact) RETURN f.id, f.day, f.valid_to ORDER BY f.id LIMIT 1")
    assert report.files == (tmp_path / "gml" / GRAPHML_FILE,)
    g = nx.read_graphml(report.files[0], force_multigraph=True)
    nodes = sum(report.counts[t] for t in NODE_COLUMNS)
    assert g.number_of_nodes() == nodes
    assert g.number_of_edges() == sum(report.counts[r] for r in REL_COLUMNS)
    labels = [d["label"] for _, _, d in g.edges(data=True)]
    assert {r: labels.count(r) for r in REL_COLUMNS} == {r: report.counts[r] for r in REL_COLUMNS}
    name, aliases = peter[0]
    node = g.nodes["Entity:peter"]
    assert (node["label"], node["name"], node["aliases"]) == ("Entity", name, "; ".join(aliases))
    fid, day, valid_to = fact.rows[0]
    assert g.nodes[f"Fact:{fid}"]["day"] == day.isoformat()
    assert ("valid_to" in g.nodes[f"Fact:{fid}"]) == (valid_to is not None)  # None is omitted
    supports = [
        d for _, _, d in g.edges(data=True) if d["label"] == "SUPPORTS" and d["reason"] == REASON
    ]
    assert supports == [
        {"label": "SUPPORTS", "weight": 0.25, "day": "2025-12-01", "reason": REASON}
    ]


def test_csv_export_writes_one_file_per_table_and_pair(sample: Path, tmp_path: Path) -> None:
    settings = _index(sample)
    with open_graph(settings) as graph:
        report = export_graph(graph, "csv", tmp_path / "csv")
    tables, pairs = schema_tables()
    assert [f.name for f in report.files] == [t.csv_name for t in (*tables, *pairs)]
    rows_per_rel: dict[str, int] = {}
    for path in report.files:
        with path.open(newline="", encoding="utf-8") as fh:
            header, *rows = list(csv.reader(fh))
        kind, table, *_ = path.stem.split("_")
        if kind == "nodes":
            assert header == list(NODE_COLUMNS[table])
            assert len(rows) == report.counts[table]
        else:
            assert header == ["from", "to", *REL_COLUMNS[table]]
            rows_per_rel[table] = rows_per_rel.get(table, 0) + len(rows)
    assert rows_per_rel == {r: report.counts[r] for r in REL_COLUMNS}
    assert report.counts["Entity"] == 15 and report.counts["SUPERSEDES"] > 0
    assert not (tmp_path / "csv" / KUZU_SCRIPT).exists()


def test_the_neo4j_script_loads_every_file_and_says_it_is_untested(tmp_path: Path) -> None:
    out = tmp_path / "export"
    with Graph.create(tmp_path / "empty.kuzu", buffer_pool_mb=64) as graph:
        report = export_graph(graph, "cypher", out)
    assert report.counts == {t: 0 for t in [*NODE_COLUMNS, *REL_COLUMNS]}
    script = (out / NEO4J_SCRIPT).read_text(encoding="utf-8")
    assert "UNTESTED" in script.splitlines()[0]
    for path in report.files:
        if path.suffix == ".csv":
            assert f"'file:///{path.name}'" in script
            assert f"'{path.name}'" in (out / KUZU_SCRIPT).read_text(encoding="utf-8")
    assert "-[:`IN`]->" in script and "row.`from`" in script
    tables, pairs = schema_tables()
    assert len(_statements(script)) == 2 * len(tables) + len(pairs)
    # Shells that split on ";" naively must see one statement per ";", none in comments.
    for text in (script, (out / KUZU_SCRIPT).read_text(encoding="utf-8")):
        assert all(line.endswith(";") for line in text.splitlines() if ";" in line)
        assert not [line for line in text.splitlines() if line.startswith("//") and "'" in line]


def test_bad_formats_and_targets_are_refused(tmp_path: Path) -> None:
    (tmp_path / "taken").write_text("x")
    with Graph.create(tmp_path / "g.kuzu", buffer_pool_mb=64) as graph:
        with pytest.raises(ExportError, match="graphml, cypher, csv"):
            export_graph(graph, "dot", tmp_path / "out")  # type: ignore[arg-type]
        with pytest.raises(ExportError, match="give a folder"):
            export_graph(graph, "csv", tmp_path / "taken")


def test_the_ontology_export_queries_and_compile_columns_agree() -> None:
    tables, pairs = schema_tables()
    assert {t.name: tuple(c for c, _ in t.columns) for t in tables} == NODE_COLUMNS
    assert {p.rel: tuple(c for c, _ in p.columns) for p in pairs} == REL_COLUMNS
    expected = {f"export/nodes_{t.name}" for t in tables}
    expected |= {f"export/rels_{p.rel}_{p.src}_{p.dst}" for p in pairs}
    assert {name for name in catalog() if name.startswith("export/")} == expected
