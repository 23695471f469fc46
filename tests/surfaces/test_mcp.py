"""The MCP server as an agent sees it: a real server process over stdio, driven by the SDK's
own client, on an indexed copy of fixtures/sample (real Kùzu and SQLite underneath)."""

from __future__ import annotations

import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from conftest import ROOT, settings_for
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from graphmem.index.build import index_workspace
from graphmem.store.layout import Store

TOOLS = {
    "memory_recall",
    "memory_about",
    "memory_timeline",
    "memory_opinions",
    "memory_retain",
    "memory_retract",
    "memory_core_list",
    "memory_core_apply",
    "memory_get",
    "memory_status",
}
CITATION = re.compile(r"^memory/\d{4}-\d{2}-\d{2}\.md#L(\d+)(?:-L(\d+))?$")
#: A guard against a hung server, not an assertion about speed.
HANG_GUARD_SECONDS = 300


@pytest.fixture
def indexed(sample: Path) -> Path:
    """The sample workspace, indexed the way the server will read it."""
    index_workspace(settings_for(sample))
    return sample


Scenario = Callable[[ClientSession], Awaitable[None]]


@asynccontextmanager
async def _session(workspace: Path, errlog: Path) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", "from graphmem.surfaces.mcp import main; main()"],
        env={
            "GRAPHMEM_WORKSPACE": str(workspace),
            "GRAPHMEM_NER_MODEL": "none",
            "GRAPHMEM_EMBED_MODEL": "none",
            "GRAPHMEM_BUFFER_POOL_MB": "64",
        },
        cwd=str(ROOT),
    )
    with errlog.open("w", encoding="utf-8") as err:
        async with (
            stdio_client(params, errlog=err) as (read, write),
            ClientSession(read, write, read_timeout_seconds=HANG_GUARD_SECONDS) as session,
        ):
            await session.initialize()
            yield session


def run(workspace: Path, tmp_path: Path, scenario: Scenario) -> None:
    """Start a server on `workspace`, run `scenario` against it, stop the server."""
    errlog = tmp_path / "server-stderr.log"

    async def main() -> None:
        async with _session(workspace, errlog) as session:
            await scenario(session)

    try:
        anyio.run(main)
    except BaseException:
        sys.stderr.write(errlog.read_text(encoding="utf-8") if errlog.exists() else "")
        raise


async def call(session: ClientSession, tool: str, /, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must succeed; its structured result."""
    result = await session.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def fail(session: ClientSession, tool: str, /, **arguments: Any) -> str:
    """Call a tool that must fail; the error text the model reads."""
    result = await session.call_tool(tool, arguments)
    assert result.is_error
    return " ".join(getattr(block, "text", "") for block in result.content)


def test_tools_are_listed_with_schemas_and_descriptions(indexed: Path, tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == TOOLS
        for tool in tools.values():
            assert tool.description and len(tool.description) > 40, tool.name
            assert tool.input_schema["type"] == "object"
            for prop, schema in tool.input_schema.get("properties", {}).items():
                assert schema.get("description"), f"{tool.name}.{prop} has no description"
        recall = tools["memory_recall"].input_schema
        assert recall["required"] == ["query"]
        assert set(recall["properties"]) == {
            "query",
            "k",
            "since",
            "until",
            "as_of",
            "kind",
            "budget",
            "now",
        }
        kind = recall["properties"]["kind"]["anyOf"][0]["items"]
        assert set(kind["enum"]) == {"world", "experience", "observation", "opinion", "log"}
        assert tools["memory_get"].input_schema["required"] == ["path"]
        assert tools["memory_recall"].annotations.read_only_hint is True
        assert tools["memory_retain"].annotations.read_only_hint is False

    run(indexed, tmp_path, scenario)


def test_opinions_and_why_each_moved(indexed: Path, tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        listed = (await call(session, "memory_opinions", entity="Peter"))["opinions"]
        assert listed and all(o["source"] and 0 <= o["confidence"] <= 1 for o in listed)
        moved = next(o for o in listed if o["source"] == "memory/2025-11-07.md#L12")
        why = await call(session, "memory_opinions", why=moved["source"])
        assert why["statement"] == moved["statement"] and why["confidence"] == moved["confidence"]
        assert [m["source"] for m in why["moves"]] == [m["source"] for m in moved["history"]]
        for m in why["moves"]:
            assert m["delta"] == pytest.approx(m["new"] - m["old"], abs=1e-4)
            assert m["reason"] and m["text"], m  # the cited line itself, not only its place
        assert "voice notes" in why["moves"][0]["text"]
        assert "no opinion matches" in await fail(session, "memory_opinions", why="zorblax quux")

    run(indexed, tmp_path, scenario)


def test_recall_about_timeline_get_and_status(indexed: Path, tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        found = await call(
            session, "memory_recall", query="where does Peter live", now="2025-12-13"
        )
        assert "peter" in found["entities"]
        cited = [p for p in found["packets"] if CITATION.match(p["source"])]
        assert cited, [p["source"] for p in found["packets"]]
        assert any("Lisbon" in p["content"] or "Porto" in p["content"] for p in found["packets"])

        # The citation opens with memory_get and holds the packet's text.
        packet = next(p for p in cited if p["kind"] != "log")
        got = await call(session, "memory_get", path=packet["source"])
        m = CITATION.match(packet["source"])
        assert m is not None
        assert got["path"] == packet["source"].split("#")[0]
        assert got["start_line"] == int(m[1]) and got["end_line"] == int(m[2] or m[1])
        assert packet["content"] in got["text"]
        whole = await call(session, "memory_get", path=got["path"])
        assert whole["start_line"] == 1 and whole["end_line"] == whole["total_lines"]
        assert got["text"] in whole["text"]

        card = await call(session, "memory_about", name="Pete")
        assert card["slug"] == "peter" and card["name"] == "Peter"
        assert "Pete" in card["aliases"]
        assert card["current_facts"] and all("source" in f for f in card["current_facts"])
        assert "no entity named 'Zorblax'" in await fail(session, "memory_about", name="Zorblax")

        events = await call(session, "memory_timeline", name="Andy", since="2025-11-01")
        assert events["entity"] == "andy" and events["events"]
        assert all(e["when"] >= "2025-11-01" for e in events["events"] if e["when"])

        narrowed = await call(
            session,
            "memory_recall",
            query="Peter",
            kind=["opinion"],
            since="2025-10-01",
            until="2025-11-30",
            k=5,
        )
        assert narrowed["packets"]
        assert {p["kind"] for p in narrowed["packets"]} == {"opinion"}
        assert all("2025-10-01" <= p["timestamp"][:10] <= "2025-11-30" for p in narrowed["packets"])
        assert "not a time window" in await fail(
            session, "memory_recall", query="x", since="the twelfth of never"
        )

        status = await call(session, "memory_status")
        assert status["fresh"] is True and status["counts"]["Fact"] > 0
        assert all(isinstance(w, str) for w in status["warnings"])
        assert any("embeddings off" in d for d in status["degraded"])

    run(indexed, tmp_path, scenario)


REFUSED = [
    ("../etc/passwd", "leaves the workspace"),
    ("memory/../../secret.md", "leaves the workspace"),
    ("/etc/passwd", "absolute"),
    ("memory/2025-09-06\x00.md", "NUL"),
    (".memory/CURRENT", "not a Markdown"),
    ("memory/escape.md", "outside the workspace"),
    ("memory/2031-01-01.md", "does not exist"),
    ("memory/2025-09-06.md#L500", "outside memory/2025-09-06.md"),
]


def test_memory_get_refuses_what_it_must_not_read(indexed: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("# not yours\n", encoding="utf-8")
    (indexed / "memory" / "escape.md").symlink_to(secret)

    async def scenario(session: ClientSession) -> None:
        for path, why in REFUSED:
            message = await fail(session, "memory_get", path=path)
            assert why in message and "not yours" not in message, (path, message)

    run(indexed, tmp_path, scenario)


def test_retain_then_recall_finds_it(indexed: Path, tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        await call(session, "memory_recall", query="bicycle")  # opens the old generation
        saved = await call(
            session, "memory_retain", bullet="W @Peter: Bought a green bicycle named Kermit."
        )
        # The server's today, not ours: the two may straddle midnight.
        assert re.fullmatch(r"memory/\d{4}-\d{2}-\d{2}\.md", saved["path"])
        assert saved["source"] == f"{saved['path']}#L{saved['line']}"
        log = indexed / saved["path"]
        assert saved["notice"] is None

        found = await call(session, "memory_recall", query="green bicycle Kermit", k=3)
        top = found["packets"][0]
        assert top["id"] == saved["id"] and top["source"] == saved["source"]
        assert top["content"] == "Bought a green bicycle named Kermit."

        got = await call(session, "memory_get", path=saved["source"])
        assert got["text"] == "- W @Peter: Bought a green bicycle named Kermit."

        before = log.read_bytes()
        message = await fail(session, "memory_retain", bullet="@Peter: no prefix")
        assert "no type prefix" in message and "W|B|O|O(c=0.8)|S @Entity: text" in message
        assert log.read_bytes() == before

        status = await call(session, "memory_status")
        assert status["fresh"] is True

    run(indexed, tmp_path, scenario)


def test_an_index_by_another_process_is_picked_up(indexed: Path, tmp_path: Path) -> None:
    settings = settings_for(indexed)

    async def scenario(session: ClientSession) -> None:
        first = await call(session, "memory_recall", query="zeppelin")
        assert not any("zeppelin" in p["content"].lower() for p in first["packets"])
        old = Store(settings.memory_dir).current()
        (indexed / "memory" / "2025-12-20.md").write_text(
            "## Retain\n- W @Andy: Took a zeppelin ride over Sintra.\n", encoding="utf-8"
        )
        stale = await call(session, "memory_status")
        assert stale["fresh"] is False and stale["new"] == ["memory/2025-12-20.md"]
        await anyio.to_thread.run_sync(index_workspace, settings)
        assert Store(settings.memory_dir).current() != old
        found = await call(session, "memory_recall", query="zeppelin")
        assert found["packets"][0]["source"] == "memory/2025-12-20.md#L2"

    run(indexed, tmp_path, scenario)


def test_an_unindexed_workspace_is_indexed_on_first_use(sample: Path, tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        assert (await call(session, "memory_status"))["generation"] is None
        found = await call(session, "memory_recall", query="where does Peter live")
        assert found["packets"]
        assert any("built one on first use" in n for n in found["notices"])
        assert (await call(session, "memory_status"))["fresh"] is True

    run(sample, tmp_path, scenario)


def test_replace_retract_and_core_proposals(indexed: Path, tmp_path: Path) -> None:
    async def scenario(session: ClientSession) -> None:
        first = await call(session, "memory_retain", bullet="W @Peter: Drives a red van.")
        second = await call(
            session,
            "memory_retain",
            bullet="W @Peter: Drives a blue van.",
            replaces=first["source"],
        )
        got = await call(session, "memory_get", path=second["source"])
        assert got["text"] == f"- W @Peter: Drives a blue van. (replaces {first['source']})"
        gone = await call(session, "memory_retract", source=second["source"], reason="sold it")
        got = await call(session, "memory_get", path=gone["source"])
        assert got["text"] == f"- S @Peter: retracted: sold it (retracts {second['source']})"
        listed = await call(session, "memory_core_list")
        assert all(p["number"] == n for n, p in enumerate(listed["proposals"], 1))
        message = await fail(session, "memory_core_apply", number=99)
        assert "no core proposal 99" in message

    run(indexed, tmp_path, scenario)
