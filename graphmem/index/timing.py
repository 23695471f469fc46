"""Seconds per named stage of a run (an index), for reports and meta.json."""

from __future__ import annotations

import time


class Laps:
    """Adds the time since the last lap to a stage: ``laps("parse")`` after parsing."""

    def __init__(self, timings: dict[str, float] | None = None) -> None:
        self.timings = timings if timings is not None else {}
        self.mark = time.perf_counter()

    def __call__(self, stage: str) -> None:
        now = time.perf_counter()
        self.timings[stage] = round(self.timings.get(stage, 0.0) + now - self.mark, 4)
        self.mark = now

    def restart(self) -> None:
        """Start the next lap now (time since the last one is not counted)."""
        self.mark = time.perf_counter()
