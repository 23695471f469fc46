"""1 MB of each worst case of the time grammar, through the calls the index makes.

The index parses a daily log (graphmem.parser, sentence units from graphmem.sentences) and
dates every block (graphmem.extract.Extractor.times -> graphmem.dating.date_block ->
graphmem.timex.extract_times, graphmem.mood). Before these cases were fixed, a long clause
holding many dates was re-read once per date, a long run of periods once per period, and
1 MB of them took hours. Each case must now take at most a few seconds of CPU (the
measured figures, well under a second each on an idle core, are in
bench/notes/2026-12-01b-issue-16.md): the budget is loose so that a loaded CI machine does
not make the test flaky, and it is CPU time of the worker thread, not wall time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from graphmem.mood import clauses, lean
from graphmem.sentences import split_units

MB = 1 << 20
CPU_BUDGET = 3.0  # seconds of the worker thread's CPU; measured: under 0.3 s on an idle core


def fill(unit: str, n: int = MB) -> str:
    """`unit` repeated to exactly `n` characters."""
    return (unit * (n // len(unit) + 1))[:n]


def within_budget(fn: Callable[..., Any], *args: Any) -> Any:
    """`fn(*args)`, failing if it takes more than CPU_BUDGET of CPU or a minute of wall."""
    out: list[Any] = []
    cpu: list[float] = []

    def work() -> None:
        start = time.thread_time()
        out.append(fn(*args))
        cpu.append(time.thread_time() - start)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert out, f"{getattr(fn, '__name__', fn)} did not finish on 1 MB of its worst case"
    assert cpu[0] <= CPU_BUDGET, f"{cpu[0]:.2f} s of CPU on 1 MB (budget {CPU_BUDGET} s)"
    return out[0]


@pytest.mark.parametrize(
    "text", [fill("."), fill(".")[:-1] + "x", fill("\n \n"), fill(". "), fill("x.")[:-1] + " "]
)
def test_clause_and_sentence_ends_are_linear(text: str) -> None:
    within_budget(clauses, text)
    within_budget(split_units, text.split("\n"), 1)


def test_lean_of_a_long_clause() -> None:
    text = fill("we went in March ") + "we will go"
    assert within_budget(lean, text, len(text) - 3) == 1
