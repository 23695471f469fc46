"""The explicit link a bullet may end with: ``(replaces path#Ln)`` or ``(retracts path#Ln)``.

Read here, at the parse layer, because two later stages need it: extraction dates a bullet
without its link (the link's date is the old line's), and compile turns it into edges
(graphmem.compile.explicit).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: ``(replaces memory/2025-11-27.md#L12)`` or ``(retracts bank/opinions.md#L4-L5)`` at the end
#: of a bullet. One pass, no nested quantifiers: linear in the text's length.
LINK = re.compile(r"\((replaces|retracts) ([^\s()#]+)#L(\d+)(?:-L?\d+)?\)\s*\.?\s*$")


@dataclass(frozen=True)
class ExplicitLink:
    """What a bullet's explicit link says: `verb` ("replaces" | "retracts") the line
    `line` of `path` (workspace-relative)."""

    verb: str
    path: str
    line: int

    @property
    def target(self) -> str:
        """The cited line: ``memory/2025-11-27.md#L12``."""
        return f"{self.path}#L{self.line}"


def read_link(text: str) -> ExplicitLink | None:
    """The explicit link at the end of a bullet's text, if it has one."""
    m = LINK.search(text)
    if m is None:
        return None
    return ExplicitLink(m.group(1), m.group(2), int(m.group(3)))


def without_link(text: str) -> str:
    """`text` without its explicit link (the link's date is the old line's, not this one's)."""
    m = LINK.search(text)
    return text if m is None else text[: m.start()].rstrip()
