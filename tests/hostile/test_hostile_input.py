"""Regressions from the hostile-input audit (issue 16): each test is one defect it found.

Every test runs the real thing a user runs (index, retain, the MCP tools' library calls,
cypher, export) on a real workspace in ``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for

from graphmem.edit.retain import retain
from graphmem.errors import BulletError
from graphmem.extract.entities import Gazetteer, KnownEntity
from graphmem.index.build import index_workspace
from graphmem.memory import run_cypher
from graphmem.parse.names import MAX_NAME_CHARS

DAY = "2025-11-27"
LOG = f"memory/{DAY}.md"
BASE = {
    "memory.md": "- W @Peter: Lives in Lisbon\n",
    LOG: f"# {DAY}\n\nCoffee with @Peter.\n\n## Retain\n- W @Peter: Works at Acme\n",
}


def facts(root: Path) -> set[str]:
    return {r[0] for r in run_cypher(settings_for(root), "MATCH (f:Fact) RETURN f.text").rows}


# ------------------------------------------------------------------ 1. one long name


def test_a_long_name_on_a_page_or_in_a_log_does_not_stop_the_index(
    make_workspace: WriteFiles,
) -> None:
    long = "A" * 5000
    aliases = ", ".join("Q" * i for i in range(1, 600))  # nested prefixes: the deepest trie
    root = make_workspace(
        {
            **BASE,
            "memory/2025-11-28.md": f"## Retain\n- W @{long}: a pasted blob\n- W @Peter: fine\n",
            "bank/entities/Zed.md": f"# Zed\nAliases: {aliases}, {'Z' * 3000}\n",
        }
    )
    report = index_workspace(settings_for(root))
    places = {(w.path, w.line): w.message for w in report.warnings}
    assert "longer than" in places[("memory/2025-11-28.md", 2)]
    assert {"Works at Acme", "fine", "Lives in Lisbon"} <= facts(root)
    # The bad line is still findable as log text.
    rows = run_cypher(
        settings_for(root),
        "MATCH (p:Passage) WHERE p.text CONTAINS 'a pasted blob' RETURN p.line_start",
    ).rows
    assert rows == [[2]]


def test_the_gazetteer_matches_names_up_to_the_limit_and_nests_deep_prefixes() -> None:
    names = ["Q" * i for i in range(3, MAX_NAME_CHARS + 1)]
    gazetteer = Gazetteer.build([KnownEntity("q", "Qq", aliases=tuple(names))])
    text = "met " + "Q" * MAX_NAME_CHARS + " today"
    assert [m.surface for m in gazetteer.find(text)] == ["Q" * MAX_NAME_CHARS]


@pytest.mark.parametrize(
    "bullet", [f"W @{'A' * 500}: long name.", f"W @Peter: {'x' * 10} @{'B' * 101}"]
)
def test_retain_refuses_a_bullet_it_could_not_index_and_writes_nothing(
    make_workspace: WriteFiles, bullet: str
) -> None:
    root = make_workspace(BASE)
    before = (root / LOG).read_bytes()
    with pytest.raises(BulletError, match="longer than 100"):
        retain(settings_for(root), bullet, today=_day())
    assert (root / LOG).read_bytes() == before


def test_retain_reports_success_once_written_even_when_the_index_fails(
    make_workspace: WriteFiles,
) -> None:
    root = make_workspace(BASE)
    # A directory where the index's lock file goes: every index now fails.
    settings = settings_for(root)
    (settings.memory_dir / "lock").mkdir(parents=True)
    result = retain(settings, "W @Peter: Moved to Porto", today=_day())
    assert result.notice is not None and "saved, but the index was not updated" in result.notice
    again = retain(settings, "W @Peter: Moved to Porto", today=_day())
    assert again.line == result.line and again.notice and "already retained" in again.notice
    text = (root / LOG).read_text(encoding="utf-8")
    assert text.count("Moved to Porto") == 1


def test_retain_refuses_invalid_utf8_and_control_characters(make_workspace: WriteFiles) -> None:
    root = make_workspace(BASE)
    before = (root / LOG).read_bytes()
    bad = b"W @Peter: caf\xe9".decode("utf-8", errors="surrogateescape")  # as argv holds it
    with pytest.raises(BulletError, match="not valid UTF-8"):
        retain(settings_for(root), bad, today=_day())
    with pytest.raises(BulletError, match="control character"):
        retain(settings_for(root), "W @Peter: nul\x00here", today=_day())
    assert (root / LOG).read_bytes() == before


def _day():  # type: ignore[no-untyped-def]
    from datetime import date

    return date.fromisoformat(DAY)


# ------------------------------------------------------------------ 2, 3. read-only cypher

ESCAPES = [
    "EXPORT/**/DATABASE '{out}/db'",
    "EXPORT DATABASE '{out}/db'",
    "export\u00a0database '{out}/db'",
    "EXPORT\u3000DATABASE '{out}/db'",
    "EXPORT\u2028DATABASE '{out}/db'",
    "EXPORT\x0cDATABASE '{out}/db'",
    "RETURN 1 AS `//`; COPY (MATCH (e:Entity) RETURN e.name) TO '{out}/a.csv'",
    "RETURN 1 AS `/*`; COPY (MATCH (e:Entity) RETURN e.name) TO '{out}/b.csv' // */",
    "RETURN 1 AS `'`; COPY (MATCH (e:Entity) RETURN e.name) TO '{out}/c.csv' // '",
    "RETURN '\\''; COPY (MATCH (e:Entity) RETURN e.name) TO '{out}/d.csv'",
    'RETURN "\\""; COPY (MATCH (e:Entity) RETURN e.name) TO \'{out}/e.csv\'',
    "RETURN 1 /* ' */; COPY (MATCH (e:Entity) RETURN e.name) TO '{out}/f.csv'",
    "RETURN 1 // x\nCOPY (MATCH (e:Entity) RETURN e.name) TO '{out}/g.csv'",
    "RETURN 1 // x\r; CoPy (MATCH (e:Entity) RETURN e.name) TO '{out}/h.csv'",
    "/* x */ COPY (MATCH (e:Entity) RETURN e.name) TO '{out}/i.csv'",
    "MATCH (e:Entity) WITH e LIMIT 1 COPY (RETURN 1) TO '{out}/j.csv'",
    "RETURN 1;\n\tcopy (RETURN 1) TO '{out}/k.csv'",
    "LOAD FROM '/etc/passwd' (file_format='csv', header=false, delim=':') RETURN * LIMIT 3",
    "MATCH (e:Entity) WITH e LIMIT 1 LOAD FROM '/etc/passwd' (header=false) RETURN *",
    "LOAD WITH HEADERS (a STRING) FROM '/etc/passwd' RETURN *",
    "CALL READ_CSV_SERIAL('/etc/passwd') RETURN *",
    "CALL file_info('/etc/passwd') RETURN *",
    "CALL CREATE_FTS_INDEX('Fact', 'x', ['text'])",
    "CALL threads=1",
    "INSTALL json",
    "LOAD EXTENSION json",
    "ATTACH '{out}/other' AS o (dbtype kuzu)",
    "IMPORT DATABASE '{out}/db'",
    "CHECKPOINT",
    "FORCE CHECKPOINT",
    "USE o",
    "BEGIN TRANSACTION READ ONLY",
    "MATCH (n) RETURN n.`x` UNION ALL MATCH (n) SET n.name = 'x' RETURN 1",
    "RETURN 'unterminated",
    "RETURN 1 /* unterminated",
    "RETURN `unterminated",
    "RETURN 1\x00; COPY (RETURN 1) TO '{out}/l.csv'",
]


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One indexed workspace for the read-only tests (they must not change it)."""
    root = tmp_path_factory.mktemp("readonly") / "ws"
    for rel, text in BASE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    index_workspace(settings_for(root))
    return root


@pytest.mark.parametrize("statement", ESCAPES)
def test_cypher_without_write_refuses_files_and_writes(
    indexed: Path, tmp_path: Path, statement: str
) -> None:
    from graphmem.errors import ReadOnlyError

    root = indexed
    out = tmp_path / "outside"
    out.mkdir()
    with pytest.raises(ReadOnlyError, match="--write"):
        run_cypher(settings_for(root), statement.replace("{out}", str(out)))
    assert list(out.iterdir()) == []


READS = {
    "MATCH (e:Entity) RETURN count(e) AS n": 1,
    "// Peter's facts\nMATCH (e:Entity) RETURN count(e) AS n": 1,
    "MATCH (e:Entity) WHERE e.name <> 'COPY x TO y; EXPORT' RETURN count(e) AS n": 1,
    "MATCH (e:Entity) RETURN count(e) AS `LOAD FROM`": 1,
    "MATCH (n) RETURN count(n); MATCH (e:Entity) RETURN count(e) AS n;": 1,
    "match (e:Entity) /* DROP */ optional match (e)<-[:MENTIONS]-(f) "
    "return count(distinct e) as n order by n skip 0 limit 1": 1,
    "CALL show_tables() RETURN count(*) > 0 AS n": True,
    "CALL table_info('Entity') RETURN count(*) > 0 AS n": True,
    "UNWIND [1, 2] AS i RETURN count(i) AS n": 2,
}


@pytest.mark.parametrize(("statement", "expected"), READS.items())
def test_cypher_without_write_still_reads(indexed: Path, statement: str, expected: object) -> None:
    assert run_cypher(settings_for(indexed), statement).rows[-1][0] == expected


def test_load_from_a_binary_file_with_write_is_a_message(indexed: Path, tmp_path: Path) -> None:
    from graphmem.errors import QueryError

    root = indexed
    binary = tmp_path / "blob.csv"
    binary.write_bytes(b"abc,\xff\xfe\xc3(,x\n" + bytes(range(256)) * 4)
    with pytest.raises(QueryError, match="not UTF-8"):
        run_cypher(
            settings_for(root),
            f"LOAD FROM '{binary}' (file_format='csv', header=false) RETURN * LIMIT 3",
            write=True,
        )


def test_mcp_tools_refuse_a_nul_path_and_a_long_name_without_writing(
    make_workspace: WriteFiles,
) -> None:
    from mcp.server.mcpserver.exceptions import ToolError

    from graphmem.surfaces.mcp import Tools as Memory

    root = make_workspace(BASE)
    index_workspace(settings_for(root))
    memory = Memory(settings_for(root), today=_day)
    with pytest.raises(ToolError, match="NUL"):
        memory.get(f"{LOG}\x00#L1")
    before = (root / LOG).read_bytes()
    with pytest.raises(BulletError, match="longer than"):
        memory.retain(f"W @{'A' * 500}: long name.")
    assert (root / LOG).read_bytes() == before
    memory.close()


# ------------------------------------------------------------------ 5. top-level symlinks


@pytest.mark.parametrize("name", ["memory.md", "SOUL.md"])
def test_a_top_level_symlink_leaving_the_workspace_is_refused(
    make_workspace: WriteFiles, tmp_path: Path, name: str
) -> None:
    import os

    root = make_workspace({LOG: BASE[LOG]})
    secret = tmp_path / "secret.md"
    secret.write_text("- W @Mallory: NEEDLE-SECRET\n", encoding="utf-8")
    os.symlink(secret, root / name)
    report = index_workspace(settings_for(root))
    assert any(w.path == name and "leaves the workspace" in w.message for w in report.warnings), (
        report.warnings
    )
    rows = run_cypher(settings_for(root), "MATCH (s:Source) RETURN s.path").rows
    assert [name] not in rows and [LOG] in rows


def test_a_top_level_symlink_inside_the_workspace_is_followed(make_workspace: WriteFiles) -> None:
    import os

    root = make_workspace({**BASE, "bank/core.md": "- W @Peter: Lives in Lisbon\n"})
    (root / "memory.md").unlink()
    os.symlink("bank/core.md", root / "memory.md")
    report = index_workspace(settings_for(root))
    assert not [w for w in report.warnings if w.path == "memory.md"]
    rows = run_cypher(settings_for(root), "MATCH (s:Source) RETURN s.path").rows
    assert ["memory.md"] in rows


# ------------------------------------------------------------------ 7. the bulk load


CSV_TEXT = [
    "x,\\\\",  # a comma forces quoting; Kùzu's default escape read the two backslashes as one
    "\\\\,a\nb",
    'say "\\"hi\\"", ok',
    "\\",
    "tab\tand\r\nCRLF and a lone\rend",
]


def test_text_that_broke_the_csv_bulk_load_lands_byte_for_byte(make_workspace: WriteFiles) -> None:
    body = "\n\n".join(f"NEEDLE-{i} {t}" for i, t in enumerate(CSV_TEXT))
    root = make_workspace({LOG: f"# {DAY}\n\n{body}\n".encode()})
    index_workspace(settings_for(root))
    texts = [r[0] for r in run_cypher(settings_for(root), "MATCH (p:Passage) RETURN p.text").rows]
    for i, text in enumerate(CSV_TEXT):
        want = " ".join(f"NEEDLE-{i} {text}".split())  # the lines of a paragraph join
        assert any(want in " ".join(t.split()) for t in texts), (want, texts)


def test_aliases_with_list_syntax_load() -> None:
    from graphmem.index.load import list_item

    assert [list_item(a) for a in ["{x}", "'a", '"b', "c,d", "[e]", " f "]] == [
        "(x)",
        "‘a",
        "“b",
        "c d",
        "(e)",
        "f",
    ]


def test_a_row_the_database_refuses_is_left_out_with_its_file_and_line(
    make_workspace: WriteFiles, tmp_path: Path
) -> None:
    from graphmem.compile.rows import compile_graph
    from graphmem.index.load import load_graph
    from graphmem.parse.parser import parse
    from graphmem.store.db import Graph

    root = make_workspace(BASE)
    files = [parse(rel, (root / rel).read_text(encoding="utf-8")) for rel in sorted(BASE)]
    data = compile_graph(files, {})
    bad = next(r for r in data.nodes["Fact"] if r["text"] == "Works at Acme")
    bad["day"] = "not a date"  # what Kùzu refuses, standing in for any row it cannot take
    with Graph.create(tmp_path / "g", buffer_pool_mb=64) as graph:
        notices = load_graph(graph, data, tmp_path / "scratch")
        loaded = {r[0] for r in graph.execute("MATCH (f:Fact) RETURN f.text").rows}
    assert [(n.path, n.line) for n in notices] == [(LOG, 6)]
    assert "left out" in notices[0].message
    assert loaded == {"Lives in Lisbon"}


# ------------------------------------------------------------------ 10. export


def test_export_graphml_to_a_file_name_writes_that_file(
    make_workspace: WriteFiles, tmp_path: Path
) -> None:
    from graphmem.export.files import export_graph
    from graphmem.memory import open_graph

    root = make_workspace(BASE)
    index_workspace(settings_for(root))
    target = tmp_path / "out" / "x.graphml"
    with open_graph(settings_for(root)) as graph:
        report = export_graph(graph, "graphml", target)
    assert target.is_file() and report.files == (target,)
    assert target.read_text(encoding="utf-8").startswith("<?xml")
    folder = tmp_path / "folder"
    with open_graph(settings_for(root)) as graph:
        export_graph(graph, "graphml", folder)
    assert (folder / "graph.graphml").is_file()


@pytest.mark.parametrize("text", [",\\\\", "\\\\,a", "a\n\\\\", 'q"\\\\"', "nul\x00,x", "\\"])
def test_copy_reads_back_what_the_csv_module_wrote(tmp_path: Path, text: str) -> None:
    """One value per file, as Kùzu sniffs a dialect per file: a sniffed backslash escape
    turned two backslashes into one (and could refuse the whole file)."""
    import csv

    from graphmem.store.db import Graph

    path = tmp_path / "t.csv"
    with path.open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows([["id", "t", "u"], ["k", text, "z"]])
    with Graph(tmp_path / "g", read_only=False, buffer_pool_mb=32) as graph:
        graph.execute("CREATE NODE TABLE T(id STRING, t STRING, u STRING, PRIMARY KEY(id))")
        graph.copy_csv("T", path)
        assert graph.execute("MATCH (n:T) RETURN n.t, n.u").rows == [[text, "z"]]
