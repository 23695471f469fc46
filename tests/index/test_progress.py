"""The index progress line: it moves within a stage, erases what it drew before, and
leaves nothing behind."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from conftest import WriteFiles
from typer.testing import CliRunner

import graphmem.index.progress as progress
from graphmem.index.progress import ProgressLine
from graphmem.surfaces.cli import app

ENV = {
    "GRAPHMEM_NER_MODEL": "none",
    "GRAPHMEM_EMBED_MODEL": "none",
    "GRAPHMEM_BUFFER_POOL_MB": "64",
}


def test_the_line_erases_its_tail_and_clears_at_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress, "REDRAW_S", 0.0)
    out = io.StringIO()
    line = ProgressLine(out)
    line("embed", 0, 16_000)
    line("embed", 8_000, 16_000)
    line("graph", 0, 1)
    line.clear()
    text = out.getvalue()
    draws = text.split("\r")[1:]
    assert all(d.endswith("\x1b[K") for d in draws), draws  # no stale digits after a redraw
    assert "8,000/16,000" in draws[1] and "[###############" in draws[1]
    assert draws[2].startswith("graph") and "working" in draws[2]
    assert draws[-1] == "\x1b[K"  # the last write erases the line


def test_redraws_are_throttled_but_the_last_step_always_draws() -> None:
    out = io.StringIO()
    line = ProgressLine(out)
    for i in range(1000):
        line("parse", i, 1000)
    line("parse", 1000, 1000)
    draws = out.getvalue().split("\r")[1:]
    assert len(draws) < 50 and "1,000/1,000" in draws[-1]


def test_nothing_drawn_nothing_cleared() -> None:
    out = io.StringIO()
    ProgressLine(out).clear()
    assert out.getvalue() == ""


def test_piped_and_quiet_index_output_has_no_progress(make_workspace: WriteFiles) -> None:
    root: Path = make_workspace({"memory/2025-11-01.md": "Coffee with @Peter.\n"})
    runner = CliRunner()
    piped = runner.invoke(app, ["--workspace", str(root), "index", "--force"], env=ENV)
    assert piped.exit_code == 0, piped.output
    assert "\r" not in piped.output and "\x1b" not in piped.output
    assert piped.stdout.startswith("indexed 1 files")
    quiet = runner.invoke(app, ["--workspace", str(root), "index", "--force", "-q"], env=ENV)
    assert quiet.exit_code == 0 and quiet.stdout == ""
