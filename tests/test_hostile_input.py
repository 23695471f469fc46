"""Regressions from the hostile-input audit (issue 16): each test is one defect it found.

Every test runs the real thing a user runs (index, retain, the MCP tools' library calls,
cypher, export) on a real workspace in ``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for

from graphmem.api import run_cypher
from graphmem.entities import Gazetteer, KnownEntity
from graphmem.errors import BulletError
from graphmem.index import index_workspace
from graphmem.names import MAX_NAME_CHARS
from graphmem.retain import retain

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
