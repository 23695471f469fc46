"""The user's bytes, kept: read a Markdown file as lines and write it back the same way.

Every command that edits Markdown (``retain``, ``entities merge``, ``reflect``/``bank``)
goes through here, so a page keeps its own line endings (``\\n``, ``\\r\\n`` or a lone
``\\r``, even mixed), its byte-order mark and any invalid UTF-8: each line keeps the ending
it had, invalid bytes survive as surrogate escapes, and a line the command adds takes the
file's first line ending.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from graphmem.parse.workspace import read_regular
from graphmem.store.layout import write_atomic

BOM = b"\xef\xbb\xbf"
_ENDINGS = ("\r\n", "\r", "\n")
_BREAK = re.compile(r"(\r\n|\r|\n)")  # the parser's line breaks, nothing else


def newline_of(data: str | bytes, default: str = "\n") -> str:
    """The first line ending in `data` (``\\n``, ``\\r\\n`` or ``\\r``), else `default`."""
    text = data.decode("latin-1") if isinstance(data, bytes) else data
    cr, lf = text.find("\r"), text.find("\n")
    if cr < 0 and lf < 0:
        return default
    if cr < 0 or 0 <= lf < cr:
        return "\n"
    return "\r\n" if text.startswith("\n", cr + 1) else "\r"


def ending_of(line: str) -> str:
    """The line ending `line` ends with, or ``""``."""
    return next((e for e in _ENDINGS if line.endswith(e)), "")


@dataclass
class Lines:
    """A text file as lines without their endings, each ending kept beside it."""

    lines: list[str] = field(default_factory=list)
    endings: list[str] = field(default_factory=list)
    bom: bool = False
    #: What an added line ends with: the file's first line ending (``\\n`` for a new file).
    newline: str = "\n"

    @classmethod
    def decode(cls, data: bytes) -> Lines:
        """`data` split as an editor splits it; invalid UTF-8 kept as surrogate escapes."""
        bom = data.startswith(BOM)
        text = data[len(BOM) :].decode("utf-8", errors="surrogateescape") if bom else None
        if text is None:
            text = data.decode("utf-8", errors="surrogateescape")
        parts = _BREAK.split(text)  # [line, ending, line, ending, ..., last line]
        lines, endings = parts[0::2], [*parts[1::2], ""]
        if lines[-1] == "" and len(lines) > 1:
            lines.pop()  # a final line break ends the last line; it does not start one
            endings.pop()
        if not text:
            lines, endings = [], []
        return cls(lines, endings, bom, newline_of(text))

    @classmethod
    def read(cls, path: Path) -> Lines:
        """The file at `path` (an empty :class:`Lines` when it does not exist); a FIFO or a
        device raises :class:`~graphmem.parse.workspace.NotRegularFile` instead of blocking."""
        return cls.decode(read_regular(path)) if path.exists() else cls()

    def encode(self) -> bytes:
        """The bytes: every line with its own ending, the BOM if there was one."""
        body = "".join(ln + end for ln, end in zip(self.lines, self.endings, strict=True))
        return (BOM if self.bom else b"") + body.encode("utf-8", errors="surrogateescape")

    def write(self, path: Path) -> None:
        """Write atomically to `path`."""
        write_atomic(path, self.encode())

    def replace(self, index: int, line: str) -> None:
        """Line `index` becomes `line`; its ending stays."""
        self.lines[index] = line

    def insert(self, index: int, *new: str) -> None:
        """Insert `new` lines before line `index`, each ending like the file's lines.

        At the end of a file whose last line has no ending, that line gets one first.
        """
        if index == len(self.lines) and self.endings and not self.endings[-1]:
            self.endings[-1] = self.newline
        self.lines[index:index] = list(new)
        self.endings[index:index] = [self.newline] * len(new)
