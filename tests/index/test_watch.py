"""`watch`: a change is indexed once the files are quiet; Ctrl-C stops it cleanly."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from conftest import WriteFiles, settings_for

from graphmem.index.build import IndexReport
from graphmem.index.watch import snapshot, watch
from graphmem.memory import open_graph

HANG = 60.0  # a guard against hangs, not a speed target


def facts(root: Path) -> list[str]:
    with open_graph(settings_for(root)) as graph:
        return [r[0] for r in graph.execute("MATCH (f:Fact) RETURN f.text ORDER BY f.text").rows]


def test_snapshot_sees_memory_bank_and_core_files_only(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "memory.md": "x",
            "README.md": "x",
            "memory/2025-01-01.md": "x",
            "bank/entities/P.md": "x",
            ".memory/cache.md": "x",
        }
    )
    assert sorted(snapshot(root)) == ["bank/entities/P.md", "memory.md", "memory/2025-01-01.md"]


def test_snapshot_watches_user_md_and_the_extra_paths(
    make_workspace: WriteFiles, tmp_path: Path
) -> None:
    root = make_workspace({"USER.md": "x", "MEMORY.md": "x"})
    notes = tmp_path / "notes"
    (notes / ".hidden").mkdir(parents=True)
    (notes / "a.md").write_text("x", encoding="utf-8")
    (notes / ".hidden" / "b.md").write_text("x", encoding="utf-8")
    single = tmp_path / "runbook.md"
    single.write_text("x", encoding="utf-8")
    seen = snapshot(root, [notes, single])
    assert sorted(seen) == sorted(
        ["MEMORY.md", "USER.md", (notes / "a.md").as_posix(), single.as_posix()]
    )
    (notes / "a.md").write_text("longer", encoding="utf-8")
    assert snapshot(root, [notes, single]) != seen


def test_a_change_is_indexed_after_the_quiet_period(make_workspace: WriteFiles) -> None:
    root = make_workspace({"memory/2025-11-01.md": "## Retain\n- W @Peter: Lives in Lisbon\n"})
    reports: list[IndexReport] = []
    changed = threading.Event()
    stop = threading.Event()

    def on_index(report: IndexReport) -> None:
        reports.append(report)
        if len(reports) >= 2:
            changed.set()

    thread = threading.Thread(
        target=watch,
        args=(settings_for(root),),
        kwargs={"interval": 0.05, "debounce": 0.2, "on_index": on_index, "stop": stop},
    )
    thread.start()
    try:
        deadline = time.monotonic() + HANG
        while not reports and time.monotonic() < deadline:
            time.sleep(0.05)
        assert facts(root) == ["Lives in Lisbon"]
        (root / "memory/2025-11-02.md").write_text("## Retain\n- W @Peter: Moved to Porto\n")
        assert changed.wait(HANG)
    finally:
        stop.set()
        thread.join(HANG)
    assert not thread.is_alive()
    assert reports[1].changed and reports[1].parsed == 1
    assert facts(root) == ["Lives in Lisbon", "Moved to Porto"]


def _watch_until(root: Path, stop: signal.Signals, sigint: Any) -> tuple[int, str, str]:
    """Start `graphmem watch` with SIGINT set to `sigint` in the child, wait for its first
    report, send `stop`: (exit code, stdout, stderr)."""
    env = {
        **os.environ,
        "GRAPHMEM_NER_MODEL": "none",
        "GRAPHMEM_EMBED_MODEL": "none",
        "GRAPHMEM_BUFFER_POOL_MB": "64",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "graphmem", "--workspace", str(root), "watch", "--interval", "0.1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, sigint),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()  # the first index is done when it reports
    assert "indexed" in line or "up to date" in line
    proc.send_signal(stop)
    out, err = proc.communicate(timeout=HANG)
    return proc.returncode, out, err


def test_ctrl_c_stops_the_command_cleanly(make_workspace: WriteFiles) -> None:
    root = make_workspace({"memory/2025-11-01.md": "Hello @Peter.\n"})
    # A shell's background job ignores SIGINT, and Python keeps that: give the child the
    # default so that Ctrl-C is what is tested.
    code, out, err = _watch_until(root, signal.SIGINT, signal.SIG_DFL)
    assert code == 0, err
    assert "stopped" in out and "Traceback" not in err


def test_sigterm_stops_the_command_cleanly(make_workspace: WriteFiles) -> None:
    """A service manager stops `watch` with SIGTERM: it ends as on Ctrl-C, with "stopped"
    and exit 0, also when started as a background job (which ignores SIGINT)."""
    root = make_workspace({"memory/2025-11-01.md": "Hello @Peter.\n"})
    code, out, err = _watch_until(root, signal.SIGTERM, signal.SIG_IGN)
    assert code == 0, err
    assert "stopped" in out and "Traceback" not in err
