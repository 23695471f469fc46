"""The progress line ``graphmem index`` shows on a terminal.

One line, rewritten in place: the stage (parse, ner, extract, graph, seeds, model, embed,
windows), a bar and a count when the stage knows its total, and the seconds the stage has
taken, so the line moves during every long stage. Each redraw erases the rest of the line
(no stale digits from a longer line before), and :meth:`ProgressLine.clear` removes it
when the command is done. The CLI uses it only when stderr is a terminal and ``--quiet``
is not given, so piped and quiet output carry no progress at all.
"""

from __future__ import annotations

import time
from typing import TextIO

#: Seconds between redraws of the same stage (the last step of a stage always draws).
REDRAW_S = 0.1
_ERASE = "\x1b[K"  # erase from the cursor to the end of the line


class ProgressLine:
    """A ``(stage, done, total)`` callback drawing one self-erasing line on `stream`."""

    def __init__(self, stream: TextIO, width: int = 30) -> None:
        self.stream = stream
        self.width = width
        self._stage: str | None = None
        self._stage_started = 0.0
        self._drawn = 0.0
        self._shown = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.perf_counter()
        if stage != self._stage:
            self._stage, self._stage_started = stage, now
        elif done < total and now - self._drawn < REDRAW_S:
            return
        self._drawn = now
        self.stream.write(
            "\r" + self.render(stage, done, total, now - self._stage_started) + _ERASE
        )
        self.stream.flush()
        self._shown = True

    def render(self, stage: str, done: int, total: int, seconds: float) -> str:
        """The line for one step (without the carriage return and erase)."""
        if total > 1:
            filled = min(self.width, int(self.width * done / total))
            bar = f"[{'#' * filled}{'.' * (self.width - filled)}] {done:,}/{total:,}"
        else:
            bar = "done" if total and done >= total else "working"
        return f"{stage:<8} {bar}  {seconds:.0f}s"

    def clear(self) -> None:
        """Remove the line (when anything was drawn)."""
        if self._shown:
            self.stream.write("\r" + _ERASE)
            self.stream.flush()
            self._shown = False
