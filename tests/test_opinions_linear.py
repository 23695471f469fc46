"""Stance reading stays linear on hostile text: the two-span patterns (preference, change)
are skipped on clauses longer than any a person writes. Pure: no database."""

from __future__ import annotations

import threading

from graphmem import opinions


def _finishes(text: str, seconds: float = 60.0) -> bool:
    done = threading.Event()

    def run() -> None:
        opinions._read(text, ())
        done.set()

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    return done.is_set()


def test_a_long_clause_skips_the_two_span_patterns() -> None:
    long = "prefers " + "tea " * 50_000 + "over coffee"
    assert len(long) > opinions.MAX_CUE_SEGMENT
    assert _finishes(long)
    assert _finishes("moved everything from " + "x " * 100_000 + "to y")
