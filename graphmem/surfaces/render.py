"""Recall packets as text a person reads in a terminal: the whole answer, wrapped, under
a line that says where it is (``path#Lx-Ly``), what kind of memory it is and when.

Pure: packets in, a string out (the CLI prints it).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from graphmem.recall.packets import Packet

#: Narrower terminals still get readable lines.
MIN_WIDTH = 40


def render_packets(packets: Sequence[Packet], width: int = 100) -> str:
    """One block per packet: ``#rank  source  kind  when  score`` then the full content,
    wrapped and indented; opinions add their confidence and evidence, a superseded fact
    says so, and the entities close the block."""
    width = max(MIN_WIDTH, width)
    body = textwrap.TextWrapper(
        width=width, initial_indent="    ", subsequent_indent="    ", break_on_hyphens=False
    )
    blocks: list[str] = []
    for rank, p in enumerate(packets, start=1):
        head = [f"#{rank}", p.source, p.kind]
        if p.timestamp:
            head.append(p.timestamp)
        head.append(f"score {p.score:.3f}")
        lines = ["  ".join(head)]
        content = " ".join(p.content.split())
        if p.confidence is not None:
            content = f"[c={p.confidence:.2f}] {content}"
        lines += body.wrap(content) or ["    "]
        extra: list[str] = []
        if p.evidence:
            extra.append("evidence: " + ", ".join(e for e in p.evidence))
        if p.superseded_by:
            extra.append("superseded (a newer statement replaces it)")
        if p.entities:
            extra.append("entities: " + ", ".join(p.entities))
        for note in extra:
            lines += body.wrap(note)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) if blocks else "no results"
