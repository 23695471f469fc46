"""The pure parts of `graphmem push`: row building, diffing, the FalkorDB statements and the
dialect variants of the team queries. No server here (see test_push_server.py, slow)."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for
from typer.testing import CliRunner

from graphmem.export.falkordb import ScaleoutError, dialect
from graphmem.export.falkordb.connection import check_url, public_url
from graphmem.export.falkordb.rows import content_hash, diff, node_rows, read_local, rel_rows
from graphmem.export.files import RelPair, schema_tables
from graphmem.index.build import index_workspace
from graphmem.memory import open_graph
from graphmem.store.queries import catalog, get, load_query, variant
from graphmem.store.resources import queries_dir
from graphmem.surfaces.cli import app

TABLES, PAIRS = schema_tables()
BY_NAME = {t.name: t for t in TABLES}
FACT = BY_NAME["Fact"]
SUPPORTS = next(p for p in PAIRS if p.rel == "SUPPORTS" and p.src == "Fact")
FILES: dict[str, str | bytes] = {
    "bank/entities/Peter.md": "# Peter\nAliases: Pete\n",
    "memory/2025-11-01.md": "Coffee with @Peter.\n\n## Retain\n- W @Peter: Works at Acme.\n- W @Peter: Lives in Lisbon.\n",
    "memory/2025-11-02.md": "## Retain\n- O(c=0.8) @Peter: Prefers voice notes.\n",
}


# -- rows and hashes -------------------------------------------------------------------------


def test_a_hash_covers_every_property_and_ignores_their_order() -> None:
    a = content_hash({"text": "x", "day": "2025-11-01"})
    assert a == content_hash({"day": "2025-11-01", "text": "x"})
    assert a != content_hash({"day": "2025-11-02", "text": "x"})
    assert a != content_hash({"day": "2025-11-01", "text": "x", "heading": None})


def test_node_rows_key_on_the_primary_key_and_send_dates_as_iso_text() -> None:
    columns = [c for c, _ in FACT.columns]
    raw = {c: None for c in columns} | {
        "id": "f1",
        "text": "Lives in Lisbon.",
        "day": date(2025, 11, 1),
    }
    (row,) = node_rows(FACT, columns, [[raw[c] for c in columns]])
    assert row.key == "f1"
    assert row.props["day"] == "2025-11-01"
    param = dialect.node_param(row, "alice")
    assert param["k"] == "f1"
    assert param["p"]["workspace"] == "alice" and param["p"]["push_hash"] == row.hash
    with pytest.raises(ScaleoutError, match="no id"):
        node_rows(FACT, columns, [[None for _ in columns]])


def test_parallel_relationships_get_distinct_ids_whatever_order_they_come_in() -> None:
    columns = ["from", "to", *(c for c, _ in SUPPORTS.columns)]
    one = ["f1", "o1", 0.5, date(2025, 11, 1), "restates"]
    two = ["f1", "o1", 1.0, date(2025, 11, 2), "restates"]
    forward = rel_rows(SUPPORTS, columns, [one, two])
    backward = rel_rows(SUPPORTS, columns, [two, one])
    assert len({r.rid for r in forward}) == 2
    assert {(r.rid, r.hash) for r in forward} == {(r.rid, r.hash) for r in backward}
    other = RelPair("SUPPORTS", "Opinion", "Opinion", SUPPORTS.columns)
    assert rel_rows(other, columns, [one])[0].rid not in {r.rid for r in forward}


def test_diff_sends_new_and_changed_rows_and_deletes_the_rest() -> None:
    d = diff({"a": "1", "b": "2", "c": "3"}, {"b": "2", "c": "9", "gone": "4"})
    assert d.send == ("a", "c")
    assert d.new == 1
    assert d.delete == ("gone",)
    assert d.unchanged == 1
    same = diff({"a": "1"}, {"a": "1"})
    assert same.send == () and same.delete == () and same.unchanged == 1


def test_the_local_graph_reads_with_stable_ids_and_an_edit_changes_only_its_rows(
    make_workspace: WriteFiles,
) -> None:
    root = make_workspace(FILES)
    settings = settings_for(root)
    report = index_workspace(settings)
    with open_graph(settings) as graph:
        before = read_local(graph)
    assert {t: len(rows) for t, rows in before.nodes.items()} == {
        t.name: report.counts.get(t.name, 0) for t in TABLES
    }
    assert sum(len(r) for r in before.rels.values()) == sum(
        report.counts.get(rel, 0) for rel in before.rels
    )
    index_workspace(settings, force=True)
    with open_graph(settings) as graph:
        again = read_local(graph)
    for kind in [*before.nodes, *before.rels]:
        assert again.manifest(kind) == before.manifest(kind), kind

    log = root / "memory/2025-11-02.md"
    log.write_text(
        log.read_text(encoding="utf-8") + "- W @Peter: Moved to Porto.\n", encoding="utf-8"
    )
    index_workspace(settings)
    with open_graph(settings) as graph:
        after = read_local(graph)
    facts = diff(after.manifest("Fact"), before.manifest("Fact"))
    assert facts.new >= 1 and not facts.delete
    untouched = diff(after.manifest("Passage"), before.manifest("Passage"))
    assert untouched.unchanged >= 1


# -- the FalkorDB statements -----------------------------------------------------------------


def test_upserts_merge_on_workspace_and_key_and_turn_iso_text_back_into_dates() -> None:
    text = dialect.node_upsert(FACT)
    assert "MERGE (n:`Fact` {workspace: $workspace, `id`: r.k})" in text
    assert "SET n = r.p" in text
    for column in ("day", "valid_from", "valid_to"):
        assert f"n.`{column}` = date(r.p.`{column}`)" in text
    rel = dialect.rel_upsert(SUPPORTS, BY_NAME)
    assert "MATCH (a:`Fact` {workspace: $workspace, `id`: r.a})" in rel
    assert "MATCH (b:`Opinion` {workspace: $workspace, `id`: r.b})" in rel
    assert "MERGE (a)-[e:`SUPPORTS` {rid: r.id}]->(b)" in rel
    assert "e.`day` = date(r.p.`day`)" in rel
    source = dialect.node_upsert(BY_NAME["Source"])
    assert "`path`: r.k" in source


def test_every_table_and_relationship_type_gets_its_statements_and_indexes() -> None:
    indexes = "\n".join(dialect.index_statements(TABLES, PAIRS))
    for table in TABLES:
        assert f"(n:`{table.name}`) ON (n.`{table.key}`)" in indexes
        assert f"(n:`{table.name}`) ON (n.workspace)" in indexes
    for rel in {p.rel for p in PAIRS}:
        assert f"[e:`{rel}`]-() ON (e.rid)" in indexes
        assert "DELETE e" in dialect.rel_delete(rel)
    assert "[e:`IN`" in dialect.rel_manifest("IN")  # IN is a keyword: always backticked


def test_a_column_the_push_reserves_is_refused() -> None:
    clash = type(FACT)("Fact", (*FACT.columns, ("workspace", "STRING")), "id")
    with pytest.raises(ScaleoutError, match="reserves"):
        dialect.node_upsert(clash)


def test_targets_must_be_server_urls_and_passwords_stay_out_of_reports() -> None:
    check_url("redis://127.0.0.1:6379")
    check_url("falkor://team.example:6379")
    for bad in ("http://x:1", "127.0.0.1:6379", "redis://"):
        with pytest.raises(ScaleoutError, match="redis://"):
            check_url(bad)
    assert public_url("redis://bob:s3cret@db:6379") == "redis://bob:***@db:6379"


# -- the team queries and their dialect variants ---------------------------------------------


def _variants() -> list[Path]:
    return sorted(queries_dir().rglob("*.falkordb.cypher"))


def test_dialect_variants_sit_beside_a_kuzu_query_with_the_same_parameters() -> None:
    assert len(_variants()) >= 4
    for path in _variants():
        name = path.relative_to(queries_dir()).as_posix().removesuffix(".falkordb.cypher")
        base, server = get(name), variant(name, "falkordb")
        assert server.text != base.text and server.description
        assert server.params == base.params, name
        assert not server.writes
        assert name in catalog() and f"{name}.falkordb" not in catalog()


def _returns(text: str) -> list[str]:
    tail = text.split("RETURN", 1)[1].split("ORDER BY")[0]
    return re.findall(r"\bAS\s+(\w+)", tail)


def test_each_variant_returns_the_kuzu_columns_after_a_workspace_column() -> None:
    for path in _variants():
        name = path.relative_to(queries_dir()).as_posix().removesuffix(".falkordb.cypher")
        server = load_query(path, name)
        assert _returns(server.text) == ["workspace", *_returns(get(name).text)], name


def test_a_query_without_a_variant_runs_as_it_is() -> None:
    assert variant("entity/facts", "falkordb") == get("entity/facts")


# -- the command -----------------------------------------------------------------------------


def test_push_refuses_a_target_that_is_not_a_server_url(make_workspace: WriteFiles) -> None:
    root = make_workspace(FILES)
    result = CliRunner().invoke(app, ["push", "-w", str(root), "--to", "localhost:6379"])
    assert result.exit_code == 1
    assert "redis://" in result.output
    result = CliRunner().invoke(app, ["push", "-w", str(root), "--to", "localhost:6379", "--json"])
    assert result.exit_code == 1
    error = json.loads(result.stdout)
    assert "not a server URL" in error["error"] and "redis://" in error["hint"]


def test_push_says_when_no_server_answers(make_workspace: WriteFiles) -> None:
    from graphmem.export.falkordb.server import free_port

    root = make_workspace(FILES)
    index_workspace(settings_for(root))
    url = f"redis://127.0.0.1:{free_port()}"
    result = CliRunner().invoke(app, ["--workspace", str(root), "push", "--to", url])
    assert result.exit_code == 1
    assert "cannot reach a FalkorDB server" in result.output


def test_only_the_connection_module_imports_the_falkordb_client() -> None:
    package = Path(__file__).resolve().parents[2] / "graphmem"
    importers = {
        path.relative_to(package).as_posix()
        for path in package.rglob("*.py")
        if re.search(r"^\s*(from|import) falkordb\b(?!_bin)", path.read_text("utf-8"), re.M)
    }
    assert importers == {"export/falkordb/connection.py"}
