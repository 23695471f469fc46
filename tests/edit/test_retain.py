"""retain: one typed bullet into today's daily log, byte-exact elsewhere, then re-indexed."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for

from graphmem.edit.retain import insert_bullet, retain
from graphmem.errors import BulletError, WorkspaceError
from graphmem.index.build import index_workspace
from graphmem.memory import open_graph

DAY = date(2025, 12, 13)
LOG = "memory/2025-12-13.md"


def test_creates_the_daily_log_with_heading_and_section(make_workspace: WriteFiles) -> None:
    root = make_workspace({"memory.md": "# Core\n"})
    result = retain(settings_for(root), "W @Peter: Bought a green bicycle.", today=DAY)
    assert (root / LOG).read_text(encoding="utf-8") == (
        "# 2025-12-13\n\n## Retain\n- W @Peter: Bought a green bicycle.\n"
    )
    assert (result.path, result.line, result.source) == (LOG, 4, f"{LOG}#L4")
    assert result.block.kind == "world" and result.block.mentions == ("Peter",)
    assert result.report is not None and result.report.changed


def test_appends_at_the_end_of_the_section_before_a_later_heading(
    make_workspace: WriteFiles,
) -> None:
    text = (
        "# 2025-12-13\n\nMorning notes.\n\n## Retain\n- W @Peter: Lives in Porto.\n\n"
        "## Evening\nDinner with Andy.\n"
    )
    root = make_workspace({LOG: text})
    result = retain(settings_for(root), "- O(c=0.8) @Peter: Likes rain.", today=DAY, reindex=False)
    assert (root / LOG).read_text(encoding="utf-8") == text.replace(
        "Lives in Porto.\n", "Lives in Porto.\n- O(c=0.8) @Peter: Likes rain.\n"
    )
    assert result.line == 7 and result.report is None
    assert result.block.kind == "opinion" and result.block.confidence == 0.8


def test_reuses_a_french_retenir_section(make_workspace: WriteFiles) -> None:
    text = "# 13 décembre\n\n## Retenir\n- W @Marta: Parle polonais.\n\n## Notes\nRien.\n"
    root = make_workspace({LOG: text})
    result = retain(settings_for(root), "B @warelay: I restarted the relay.", today=DAY)
    after = (root / LOG).read_text(encoding="utf-8")
    assert "## Retain" not in after
    assert after.splitlines()[result.line - 1] == "- B @warelay: I restarted the relay."
    assert after.index("I restarted") < after.index("## Notes")


def test_adds_a_section_to_a_file_without_one(make_workspace: WriteFiles) -> None:
    root = make_workspace({LOG: "# 2025-12-13\n\nJust notes, no Retain yet."})  # no final newline
    result = retain(settings_for(root), "W @Andy: Adopted a cat.", today=DAY, reindex=False)
    assert (root / LOG).read_bytes() == (
        b"# 2025-12-13\n\nJust notes, no Retain yet.\n\n## Retain\n- W @Andy: Adopted a cat.\n"
    )
    assert result.line == 6


@pytest.mark.parametrize(
    ("bullet", "reason"),
    [
        ("X @: ???", "unknown prefix 'X'"),
        ("O(c=abc)", "no text after its prefix"),
        ("O(c=abc) @Peter: Likes tea.", "confidence 'abc' is not a number"),
        ("@Peter: no prefix", "no type prefix"),
        ("W @Peter: one\nW @Peter: two", "one line"),
        ("   ", "empty"),
    ],
)
def test_malformed_bullets_are_refused_and_nothing_is_written(
    make_workspace: WriteFiles, bullet: str, reason: str
) -> None:
    before = b"# 2025-12-13\r\n\r\n## Retain\r\n- W @Peter: Lives in Porto.\r\n\xff odd byte\r\n"
    root = make_workspace({LOG: before, "memory/2025-12-14.md": "x\n"})
    settings = settings_for(root)
    with pytest.raises(BulletError) as err:
        retain(settings, bullet, today=DAY)
    message = str(err.value)
    assert reason in message and "W|B|O|O(c=0.8)|S @Entity: text" in message
    assert (root / LOG).read_bytes() == before
    with pytest.raises(BulletError):
        retain(settings, bullet, today=date(2025, 12, 15))
    assert not (root / "memory/2025-12-15.md").exists()
    assert not settings.memory_dir.exists() or not any(settings.memory_dir.glob("gen-*"))


def test_the_new_fact_is_in_the_graph(make_workspace: WriteFiles) -> None:
    root = make_workspace({"memory/2025-12-01.md": "## Retain\n- W @Peter: Lives in Porto.\n"})
    settings = settings_for(root)
    index_workspace(settings)
    result = retain(settings, "W @Peter: Bought a green bicycle named Kermit.", today=DAY)
    with open_graph(settings) as graph:
        rows = graph.run("recall/facts_by_ids", ids=[result.id]).dicts()
        mentions = graph.run("recall/node_entities", ids=[result.id]).rows
    assert len(rows) == 1
    fact = rows[0]
    assert fact["text"] == "Bought a green bicycle named Kermit."
    assert (fact["path"], fact["line_start"], fact["day"]) == (LOG, 4, DAY)
    assert [slug for _, slug, _, _ in mentions] == ["peter"]


def test_crlf_line_endings_and_other_bytes_are_kept(make_workspace: WriteFiles) -> None:
    before = (
        b"# 2025-12-13\r\n\r\nCaf\xc3\xa9 with \xff Andy.  \r\n\r\n"
        b"## Retain\r\n- W @Andy: Lives in Sintra.\r\n\r\n## Later\r\nMore.\r\n"
    )
    root = make_workspace({LOG: before})
    result = retain(settings_for(root), "W @Andy: Has a cat.", today=DAY)
    after = (root / LOG).read_bytes()
    assert after == before.replace(
        b"Lives in Sintra.\r\n", b"Lives in Sintra.\r\n- W @Andy: Has a cat.\r\n"
    )
    assert result.line == 7


def test_bullet_swallowed_by_an_open_code_fence_is_refused(make_workspace: WriteFiles) -> None:
    before = "## Retain\n- W @Peter: Lives in Porto.\n```\nunclosed\n"
    root = make_workspace({LOG: before})
    with pytest.raises(BulletError, match="code fence"):
        retain(settings_for(root), "W @Peter: Likes rain.", today=DAY)
    assert (root / LOG).read_text(encoding="utf-8") == before


@pytest.mark.parametrize(
    ("before", "after", "line"),
    [
        (b"", b"# 2025-12-13\n\n## Retain\n- W x\n", 4),
        (b"## Retain", b"## Retain\n- W x\n", 2),
        (b"a\r\r## Retain\r\r## B\r", b"a\r\r## Retain\r- W x\r\r## B\r", 4),
        (b"## Retain\n- W a\n\n\n", b"## Retain\n- W a\n- W x\n\n\n", 3),
        (b"```\n## Retain\n```\n", b"```\n## Retain\n```\n\n## Retain\n- W x\n", 6),
        (
            b"## Retain\n- W a\n### Detail\n- W b\n# Top\n",
            b"## Retain\n- W a\n### Detail\n- W b\n- W x\n# Top\n",
            5,
        ),
    ],
)
def test_insert_bullet_places_the_line_exactly(before: bytes, after: bytes, line: int) -> None:
    assert insert_bullet(before, "W x", DAY) == (after, line)


def test_a_symlink_leaving_the_workspace_is_not_written_through(
    make_workspace: WriteFiles, tmp_path: Path
) -> None:
    root = make_workspace({"memory.md": "# Core\n"})
    outside = tmp_path / "outside.md"
    outside.write_text("## Retain\n", encoding="utf-8")
    (root / "memory").mkdir()
    (root / LOG).symlink_to(outside)
    with pytest.raises(WorkspaceError, match="symlink"):
        retain(settings_for(root), "W @Peter: x.", today=DAY)
    assert outside.read_text(encoding="utf-8") == "## Retain\n"
