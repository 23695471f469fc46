"""`retain --replaces` and `retract`: explicit links written as Markdown, read by the index."""

from __future__ import annotations

import subprocess
import sys
from datetime import date

import pytest
from conftest import WriteFiles, settings_for

from graphmem.edit.retain import retain
from graphmem.errors import BulletError
from graphmem.memory import Memory
from graphmem.parse.links import read_link
from graphmem.reflect.run import opinions
from graphmem.store.current import open_graph

OLD = "memory/2025-11-27.md"
NEW = "memory/2026-01-10.md"
DAY = date(2026, 1, 10)


def _workspace(make_workspace: WriteFiles) -> Memory:
    root = make_workspace(
        {
            OLD: "# 2025-11-27\n\n## Retain\n- W @Peter: Lives in Lisbon, near the river.\n"
            "- O(c=0.8) @Peter: Prefers tea over coffee.\n",
            "memory.md": "# Core\n- Peter: lives in Lisbon.\n",
        }
    )
    mem = Memory.open(settings_for(root), today=lambda: DAY)
    mem.index()
    return mem


def test_read_link_takes_only_a_link_at_the_end() -> None:
    assert read_link("Lives in Vienna. (replaces memory/2025-11-27.md#L12)") is not None
    link = read_link("Wohnt in Wien (retracts memory/2025-11-27.md#L3-L4).")
    assert link is not None and (link.verb, link.path, link.line) == ("retracts", OLD, 3)
    assert read_link("He said (replaces memory/x.md#L2) and then left") is None
    assert read_link("(replaces memory/x.md)") is None


def test_replace_ranks_the_new_fact_first_and_marks_the_old(make_workspace: WriteFiles) -> None:
    mem = _workspace(make_workspace)
    result = mem.retain("W @Peter: Lives in Vienna.", replaces=f"{OLD}#L4")
    text = (mem.settings.workspace / NEW).read_text()
    assert f"- W @Peter: Lives in Vienna. (replaces {OLD}#L4)\n" in text
    packets = mem.recall("Where does Peter live?", k=10)
    sources = [p.source for p in packets]
    assert sources.index(result.source) < sources.index(f"{OLD}#L4")
    old = next(p for p in packets if p.source == f"{OLD}#L4")
    assert old.superseded_by == result.id
    assert old.valid_to == DAY
    # before the replacement, the old fact is what held
    then = mem.recall("Where does Peter live?", k=10, as_of="2025-12-15")
    then_sources = [p.source for p in then]
    assert f"{OLD}#L4" in then_sources and result.source not in then_sources
    about = mem.about("Peter")
    assert any(h.source == f"{OLD}#L4" and "explicit" in (h.note or "") for h in about.history)
    mem.close()


def test_the_same_in_another_language(make_workspace: WriteFiles) -> None:
    root = make_workspace({OLD: "## Retenir\n- W @Ana: Mora no Porto, perto do rio.\n"})
    settings = settings_for(root)
    result = retain(settings, "W @Ana: Mora agora em Braga.", today=DAY, replaces=f"{OLD}#L2")
    with open_graph(settings) as graph:
        rows = graph.run("about/superseded", slug="ana").dicts()
    assert [(r["line_start"], r["day"]) for r in rows] == [(2, DAY)]
    assert rows[0]["newer_id"] == result.id


def test_a_replace_naming_no_fact_line_writes_nothing(make_workspace: WriteFiles) -> None:
    mem = _workspace(make_workspace)
    for bad in (f"{OLD}#L1", f"{OLD}#L99", "memory/2020-01-01.md#L2", "nonsense", f"{OLD}#L5"):
        with pytest.raises(BulletError):
            mem.retain("W @Peter: Lives in Vienna.", replaces=bad)
    assert not (mem.settings.workspace / NEW).exists()
    with pytest.raises(BulletError, match="after 2025-11-01"):
        mem.retain("W @Peter: Lives in Faro.", replaces=f"{OLD}#L4", today="2025-11-01")
    assert not (mem.settings.workspace / "memory/2025-11-01.md").exists()
    mem.close()


def test_retracting_a_fact_ends_it_and_keeps_it(make_workspace: WriteFiles) -> None:
    mem = _workspace(make_workspace)
    result = mem.retract(f"{OLD}#L4", reason="he moved away, address unknown")
    line = (mem.settings.workspace / NEW).read_text().splitlines()[result.line - 1]
    assert line == f"- S @Peter: retracted: he moved away, address unknown (retracts {OLD}#L4)"
    assert (mem.settings.workspace / OLD).read_text().count("Lives in Lisbon") == 1
    card = mem.about("Peter")
    assert f"{OLD}#L4" not in [f.source for f in card.current]
    assert [h.source for h in card.history] == [f"{OLD}#L4"]
    assert result.source in (card.history[0].note or "")
    mem.close()


def test_retracting_an_opinion_marks_it_with_the_line_as_evidence(
    make_workspace: WriteFiles,
) -> None:
    mem = _workspace(make_workspace)
    result = mem.retract(f"{OLD}#L5")
    text = (mem.settings.workspace / NEW).read_text()
    assert f"“Prefers tea over coffee.” no longer holds (retracts {OLD}#L5)" in text
    with open_graph(mem.settings) as graph:
        view = next(v for v in opinions(graph) if v.source == f"{OLD}#L5")
    assert view.status == "retracted"
    assert view.confidence < 0.8
    assert any(result.source in c for c in view.contradicts)
    assert view.history[-1]["source"] == result.source
    mem.close()


def test_a_core_line_can_be_retracted_too(make_workspace: WriteFiles) -> None:
    mem = _workspace(make_workspace)
    mem.retract("memory.md#L2", reason="Peter left Lisbon")
    card = mem.about("Peter")
    assert "memory.md#L2" in [h.source for h in card.history]
    mem.close()


_CHILD = """
import os, signal, sys
import subprocess
import sys
from datetime import date
from pathlib import Path
from graphmem.config import resolve_settings
from graphmem.edit.retain import retain
from graphmem.store import layout

def die(*args):
    os.kill(os.getpid(), signal.SIGKILL)

real_replace = os.replace

def replace_then_die(src, dst):
    real_replace(src, dst)
    die()

if sys.argv[2] == "before-rename":
    layout.os.fsync = die  # the temp file is written, not yet renamed
else:
    layout.os.replace = replace_then_die
settings = resolve_settings(Path(sys.argv[1]), env={})
retain(settings, "W @Peter: Lives in Vienna.", today=date(2026, 1, 10), reindex=False,
       replaces="memory/2026-01-10.md#L2")
"""


@pytest.mark.parametrize("when", ["before-rename", "after-rename"])
def test_kill_9_mid_replace_leaves_the_old_or_the_new_file(
    make_workspace: WriteFiles, when: str
) -> None:
    before = b"## Retain\r\n- W @Peter: Lives in Lisbon.\r\n\r\n## Notes\r\nNo final newline"
    root = make_workspace({NEW: before})
    child = subprocess.run(
        [sys.executable, "-c", _CHILD, str(root), when], capture_output=True, timeout=120
    )
    assert child.returncode == -9, child.stderr.decode()
    after = (root / NEW).read_bytes()
    if when == "before-rename":
        assert after == before
    else:
        assert after == before.replace(
            b"Lisbon.\r\n",
            b"Lisbon.\r\n- W @Peter: Lives in Vienna. (replaces memory/2026-01-10.md#L2)\r\n",
        )
