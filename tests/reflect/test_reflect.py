"""Opinion evolution through a real index, `opinions`, and `reflect` on fixtures/sample."""

from __future__ import annotations

import hashlib
import json
import re
from datetime import date
from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for
from typer.testing import CliRunner

from graphmem.index.build import index_workspace
from graphmem.memory import open_graph
from graphmem.reflect.run import OpinionView, opinions, reflect
from graphmem.surfaces.cli import app


def views(root: Path) -> dict[str, OpinionView]:
    with open_graph(settings_for(root)) as graph:
        return {v.source: v for v in opinions(graph)}


@pytest.fixture
def indexed(sample: Path) -> Path:
    index_workspace(settings_for(sample))
    return sample


def test_repeated_support_raises_confidence(indexed: Path) -> None:
    concise = views(indexed)["memory/2025-09-09.md#L20"]
    assert concise.stated == 0.95 and concise.confidence > 0.95
    assert concise.supports and concise.history[0]["relation"] == "supports"


def test_repeated_contradiction_lowers_and_supersedes(indexed: Path) -> None:
    by_source = views(indexed)
    calls = by_source["memory/2025-09-16.md#L11"]  # prefers phone calls
    assert calls.confidence < 0.7 and len(calls.contradicts) >= 2
    assert calls.superseded_by == by_source["memory/2025-11-07.md#L12"].source  # a citation
    coffee = by_source["memory/2025-09-02.md#L16"]  # flat white every morning
    assert coffee.confidence < 0.9 and coffee.history[-1]["new"] == coffee.confidence


def test_opinions_json_names_no_internal_id(indexed: Path) -> None:
    with open_graph(settings_for(indexed)) as graph:
        data = [v.to_dict() for v in opinions(graph)]
    ids = {d["id"] for d in data}
    for d in data:
        shown = json.dumps({k: v for k, v in d.items() if k != "id"}, ensure_ascii=False)
        assert not any(i in shown for i in ids)
        for move in d["history"]:
            assert re.fullmatch(r"[^#]+\.md#L\d+(-L\d+)?", move["source"]), move


def test_unrelated_facts_leave_an_opinion_alone(indexed: Path) -> None:
    ui = views(indexed)["memory/2025-09-24.md#L16"]  # OpenClaw web UI is cluttered
    assert ui.confidence == ui.stated == 0.5
    assert ui.history == () and ui.supports == () and ui.contradicts == ()


def test_opinions_filter_by_entity_alias(indexed: Path) -> None:
    with open_graph(settings_for(indexed)) as graph:
        marta = opinions(graph, "M.K.")
    assert marta and all("Marta" in v.entities for v in marta)


def test_reflect_twice_changes_nothing_the_second_time(indexed: Path) -> None:
    settings = settings_for(indexed)
    memory = hashlib.sha256((indexed / "memory.md").read_bytes()).hexdigest()
    first = reflect(settings, date(2025, 11, 1), date(2025, 11, 30))
    assert any(p.changed for p in first.pages)
    assert any(view.statement.startswith("Prefers phone calls") for view, _ in first.moves)
    snapshot = {p: p.read_bytes() for p in (indexed / "bank").rglob("*.md")}
    second = reflect(settings, date(2025, 11, 1), date(2025, 11, 30))
    assert not any(p.changed for p in second.pages)
    assert {p: p.read_bytes() for p in (indexed / "bank").rglob("*.md")} == snapshot
    assert hashlib.sha256((indexed / "memory.md").read_bytes()).hexdigest() == memory
    assert [(v.id, m) for v, m in first.moves] == [(v.id, m) for v, m in second.moves]


def test_reflect_dry_run_writes_nothing(indexed: Path) -> None:
    before = {p: p.read_bytes() for p in indexed.rglob("*.md")}
    report = reflect(settings_for(indexed), date(2025, 11, 1), date(2025, 11, 30), dry_run=True)
    assert any(p.changed and p.diff for p in report.pages)
    assert {p: p.read_bytes() for p in indexed.rglob("*.md")} == before


def test_cli_opinions_json_and_reflect(indexed: Path) -> None:
    env = {
        "GRAPHMEM_NER_MODEL": "none",
        "GRAPHMEM_EMBED_MODEL": "none",
        "GRAPHMEM_BUFFER_POOL_MB": "64",
    }
    runner = CliRunner()
    out = runner.invoke(
        app, ["-w", str(indexed), "opinions", "--entity", "Peter", "--json"], env=env
    )
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert {
        "statement",
        "confidence",
        "last_updated",
        "evidence_for",
        "evidence_against",
        "history",
    } <= set(data[0])
    out = runner.invoke(
        app,
        ["-w", str(indexed), "reflect", "--since", "30d", "--now", "2025-11-10", "--dry-run"],
        env=env,
    )
    assert out.exit_code == 0, out.stderr
    assert "confidence moves" in out.stdout and "would change" in out.stdout


def test_free_text_moves_opinions_in_full_and_incremental_index(make_workspace: WriteFiles) -> None:
    """A rule written in free text revokes a permission, cited with its line; editing only
    that passage (an incremental index) moves the opinion back, and forth again."""
    root = make_workspace(
        {
            "bank/entities/Rook.md": "# Rook\nAliases: magpie\nKind: thing\n\nThe home server.\n",
            "memory/2026-02-19.md": "# 2026-02-19\n\nQuiet day.\n\n## Retain\n"
            "- O(c=0.7) @magpie: Letting upgrades run on magpie without asking is fine.\n",
            "memory/2026-04-15.md": "# 2026-04-15\n\nKestrel was down.\n"
            "From now on, always ask me before upgrading anything on rook.\n",
        }
    )
    settings = settings_for(root)

    def permission() -> OpinionView:
        return views(root)["memory/2026-02-19.md#L6"]

    index_workspace(settings)
    first = permission()
    assert first.status == "revoked" and first.confidence <= 0.15
    assert first.superseded_by == "memory/2026-04-15.md#L4"
    log = root / "memory/2026-04-15.md"
    log.write_text("# 2026-04-15\n\nKestrel was down.\nUpgrades stay unattended.\n", "utf-8")
    index_workspace(settings)
    assert permission().status == "" and permission().confidence == 0.7
    log.write_text("# 2026-04-15\n\nKestrel was down.\n\nFrom now on, always ask me before upgrading anything on rook.\n", "utf-8")  # fmt: skip
    index_workspace(settings)
    assert permission().superseded_by == "memory/2026-04-15.md#L5"  # its new line
