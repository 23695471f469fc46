"""A big daily log costs work in proportion to its size (issue 31: a 50 MB log took 247 s).

The log is one paragraph of chat lines with no sentence ends, the shape that made one
passage megabytes long; it is indexed at two sizes and the CPU seconds compared: four times
the text may cost at most eight times the work (linear is four, quadratic sixteen). No
wall-clock limit: the machine's load changes both runs alike. Forking is off so that every
second of the work is this process's own.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import settings_for

from graphmem.index.build import index_workspace

pytestmark = pytest.mark.slow
MB = 1 << 20
WORDS = "tram standup Lisbon Porto coffee relay billing Marta Andy deploy atlas castle".split()


def _log(size: int) -> str:
    lines, total, i = ["# 2025-12-01", ""], 0, 0
    while total < size:
        a, b = WORDS[i % len(WORDS)], WORDS[(i * 7 + 3) % len(WORDS)]
        line = f"{i // 60 % 24:02d}:{i % 60:02d} peter: {a} then {b} number {i}"
        lines.append(line)
        total += len(line) + 1
        i += 1
    return "\n".join(lines) + "\n"


def _cpu_to_index(root: Path, size: int) -> float:
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "2025-12-01.md").write_text(_log(size), encoding="utf-8")
    started = time.process_time()
    report = index_workspace(settings_for(root, fork=False))  # all the work in this process
    spent = time.process_time() - started
    assert report.counts["Passage"] >= 1
    return spent


def test_a_big_chat_log_is_indexed_in_linear_work(tmp_path: Path) -> None:
    _cpu_to_index(tmp_path / "warm", MB // 4)  # imports and first-use caches
    small = _cpu_to_index(tmp_path / "small", 1 * MB)
    big = _cpu_to_index(tmp_path / "big", 4 * MB)
    assert big < 8 * small, (small, big)
