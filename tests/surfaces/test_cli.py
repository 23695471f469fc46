"""The command line through Typer's CliRunner, on real workspaces."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from conftest import WriteFiles
from typer.testing import CliRunner

from graphmem.surfaces.cli import app

runner = CliRunner()
FILES: dict[str, str | bytes] = {
    "bank/entities/Peter.md": "# Peter\nAliases: Pete\n",
    "memory/2025-11-01.md": "Coffee with @Peter.\n\n## Retain\n- W @Peter: Works at Acme\n- W @Peter: Lives in Lisbon\n",
    "memory/2025-11-02.md": "## Retain\n- O(c=1.7) @Andy: Loves rain\n",
}
ENV = {
    "GRAPHMEM_NER_MODEL": "none",
    "GRAPHMEM_EMBED_MODEL": "none",
    "GRAPHMEM_BUFFER_POOL_MB": "64",
}


def gm(root: Path, *args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--workspace", str(root), *args], env=ENV)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def indexed(make_workspace: WriteFiles) -> Path:
    root = make_workspace(FILES)
    code, _, err = gm(root, "index")
    assert code == 0, err
    return root


def test_index_reports_counts_and_warnings(make_workspace: WriteFiles) -> None:
    root = make_workspace(FILES)
    code, out, err = gm(root, "index")
    assert code == 0
    assert "indexed 3 files" in out and "2 entities" in out and "1 opinions" in out
    assert "warning: memory/2025-11-02.md:2: confidence 1.7 is outside [0, 1]" in err
    code, out, _ = gm(root, "index")
    assert code == 0 and out.startswith("up to date")


def test_index_and_status_say_when_an_index_was_incremental(indexed: Path) -> None:
    code, out, _ = gm(indexed, "status")
    assert code == 0 and "built in full" in out
    log = indexed / "memory/2025-11-01.md"
    log.write_text(log.read_text(encoding="utf-8") + "\nLunch with @Peter.\n", encoding="utf-8")
    code, out, _ = gm(indexed, "index")
    assert code == 0 and "(1 parsed, 0 removed, incremental)" in out, out
    code, out, _ = gm(indexed, "status")
    assert "built incrementally" in out and "(fresh)" in out, out
    code, out, _ = gm(indexed, "index", "--force")
    assert code == 0 and "full build" in out, out


def test_status_shows_counts_and_warnings(indexed: Path) -> None:
    code, out, _ = gm(indexed, "status")
    assert code == 0
    assert "(fresh)" in out and "2 Fact" in out and "clamped to 1.0" in out
    code, out, _ = gm(indexed, "status", "--json")
    data = json.loads(out)
    assert data["fresh"] is True and data["counts"]["Entity"] == 2


def test_cypher_table_json_and_csv(indexed: Path) -> None:
    stmt = "MATCH (e:Entity)<-[:MENTIONS]-(f:Fact) RETURN e.name AS name, count(f) AS facts ORDER BY facts DESC"
    code, out, _ = gm(indexed, "cypher", stmt)
    assert code == 0 and out.splitlines()[0].split() == ["name", "facts"] and "Peter" in out
    code, out, _ = gm(indexed, "cypher", stmt, "--json")
    assert json.loads(out) == [{"name": "Peter", "facts": 2}]
    code, out, _ = gm(indexed, "cypher", stmt, "--csv")
    assert list(csv.reader(io.StringIO(out))) == [["name", "facts"], ["Peter", "2"]]


def test_cypher_with_parameters(indexed: Path) -> None:
    code, out, _ = gm(
        indexed,
        "cypher",
        "MATCH (e:Entity {slug: $s}) RETURN e.name AS n",
        "--param",
        "s=andy",
        "--json",
    )
    assert code == 0 and json.loads(out) == [{"n": "Andy"}]


def test_cypher_is_read_only_unless_write(indexed: Path) -> None:
    code, _, err = gm(indexed, "cypher", "MATCH (e:Entity) DETACH DELETE e")
    assert code == 1 and "read-only" in err and "--write" in err
    code, out, _ = gm(indexed, "cypher", "MATCH (e:Entity) RETURN count(e) AS n", "--json")
    assert json.loads(out) == [{"n": 2}]
    code, _, err = gm(
        indexed, "cypher", "--write", "MATCH (e:Entity {slug: 'andy'}) SET e.kind = 'person'"
    )
    assert code == 0, err
    code, out, _ = gm(
        indexed, "cypher", "MATCH (e:Entity {slug: 'andy'}) RETURN e.kind AS k", "--json"
    )
    assert json.loads(out) == [{"k": "person"}]


def test_query_list_and_run(indexed: Path) -> None:
    code, out, _ = gm(indexed, "query", "--list")
    assert code == 0 and "entity/facts" in out and "$slug" in out
    code, out, _ = gm(indexed, "query", "entity/facts", "--param", "slug=peter", "--json")
    rows = json.loads(out)
    assert sorted(r["text"] for r in rows) == ["Lives in Lisbon", "Works at Acme"]
    assert rows[0]["path"] == "memory/2025-11-01.md"


def test_query_with_wrong_parameters_is_a_clear_error(indexed: Path) -> None:
    code, _, err = gm(indexed, "query", "entity/facts")
    assert code == 1 and "missing $slug" in err
    code, _, err = gm(indexed, "query", "entity/facts", "--param", "nokey")
    assert code == 2 and "key=value" in err


def test_read_commands_before_index_say_to_index(make_workspace: WriteFiles) -> None:
    root = make_workspace(FILES)
    code, _, err = gm(root, "cypher", "MATCH (n) RETURN n")
    assert code == 1 and "run `graphmem --workspace" in err


def test_workspace_from_environment(make_workspace: WriteFiles) -> None:
    root = make_workspace(FILES)
    result = runner.invoke(app, ["index"], env={**ENV, "GRAPHMEM_WORKSPACE": str(root)})
    assert result.exit_code == 0 and (root / ".memory" / "CURRENT").exists()


def test_every_command_has_help() -> None:
    for command in app.registered_commands:
        assert command.callback is not None and command.callback.__doc__, command.name
        name = command.name or command.callback.__name__
        result = runner.invoke(app, [name, "--help"])
        assert result.exit_code == 0 and "Usage" in result.stdout


def test_opinions_why_lists_each_move_with_its_line(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "bank/entities/Lagares.md": "# Lagares\nAliases: Rua dos Lagares\n",
            "memory/2026-03-11.md": "## Retain\n"
            "- O(c=0.7) @Lagares: We will have the Rua dos Lagares lease signed by the end of April.\n",
            "memory/2026-04-13.md": "## Retain\n- W @Lagares: Draft Lagares lease received.\n",
            "memory/2026-05-04.md": "Bad news.\n\n## Retain\n"
            "- W @Lagares: The Rua dos Lagares lease fell through on 4 May.\n",
        }
    )
    assert gm(root, "index")[0] == 0
    code, out, err = gm(root, "opinions", "--why", "memory/2026-03-11.md#L2")
    assert code == 0, err
    assert "stated 0.70 → now 0.14 [refuted]" in out
    assert "contradicts: did not happen: “fell through”" in out
    assert (
        "memory/2026-05-04.md#L4" in out
        and "“- W @Lagares: The Rua dos Lagares lease fell through" in out
    )
    assert "Draft" not in out  # a mention of the lease is not its signature, nor a move
    code, out, _ = gm(root, "opinions", "--why", "lease signed", "--json")
    moves = json.loads(out)["moves"]
    assert [(m["source"], m["delta"]) for m in moves] == [("memory/2026-05-04.md#L4", -0.56)]
    code, _, err = gm(root, "opinions", "--why", "no such opinion")
    assert code != 0 and "no opinion matches 'no such opinion'" in err
