"""Recall packets as text a person reads in a terminal: the whole answer, wrapped, under
a line that says where it is (``path#Lx-Ly``), what kind of memory it is and when.

Pure: packets in, a string out (the CLI prints it).
"""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Sequence

from graphmem.recall.packets import Packet

#: Narrower terminals still get readable lines.
MIN_WIDTH = 40


def cells(text: str) -> int:
    """Terminal columns `text` takes: East Asian wide and fullwidth characters take two,
    combining marks none."""
    total = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        total += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return total


def wrap(text: str, width: int, indent: str = "", first: str | None = None) -> list[str]:
    """`text` as lines of at most `width` terminal columns, broken between words (a word
    longer than a line gets a line of its own, never cut); the first line starts with
    `first` (default `indent`), the others with `indent`. Wide characters count two, and
    a run of them with no spaces (Chinese, Japanese) may break between any two."""
    lead = indent if first is None else first
    lines: list[str] = []
    line, used = lead, cells(lead)
    for word in text.split():
        pieces = [word]
        if cells(word) > width - cells(indent) and any(cells(c) == 2 for c in word):
            pieces = list(word)  # CJK runs break anywhere
        for i, piece in enumerate(pieces):
            glue = "" if (i > 0 or line == lead) else " "
            size = cells(piece)
            if line != lead and used + len(glue) + size > width:
                lines.append(line)
                line, used, glue = indent, cells(indent), ""
            line += glue + piece
            used += len(glue) + size
    if line != lead or not lines:
        lines.append(line)
    return lines


def kind_label(kind: str, source: str) -> str:
    """What a person is told a line is: a bank page's or the core file's line is not "log"."""
    if kind == "log" and source.startswith("bank/"):
        return "page"
    if kind == "log" and source.split("#")[0].lower() in ("memory.md", "soul.md", "user.md"):
        return "core"
    return kind


def pad(text: str, width: int) -> str:
    """`text` padded with spaces to `width` terminal columns (wide characters count two)."""
    return text + " " * max(0, width - cells(text))


def render_entities(rows: Sequence[Sequence[object]], width: int = 100) -> str:
    """Entities as aligned columns that fit `width`: name, kind, mentions, days seen, then
    the aliases wrapped under their own column (never cut). `rows` hold (name, kind,
    mentions, first seen, last seen, aliases)."""
    width = max(MIN_WIDTH, width)
    names = [str(r[0]) for r in rows]
    name_w = min(max([cells(n) for n in names] + [4]), 24)
    left = name_w + 2 + 7 + 2 + 8 + 2 + 22 + 2
    head = f"{pad('name', name_w)}  {'kind':<7}  {'mentions':>8}  {'seen':<22}"
    head += "  aliases" if left + 30 <= width else ""
    out = [head, "-" * min(width, cells(head) + 10)]
    for name, kind, mentions, first, last, aliases in rows:
        seen = f"{first or ''}..{last or ''}" if first or last else "undated"
        lead = f"{pad(str(name), name_w)}  {kind or '-'!s:<7}  {mentions!s:>8}  {seen:<22}  "
        if cells(str(name)) > name_w:  # a long name gets its own line
            out.append(str(name))
            lead = f"{pad('', name_w)}  {kind or '-'!s:<7}  {mentions!s:>8}  {seen:<22}  "
        text = ", ".join(str(a) for a in aliases) if aliases else ""  # type: ignore[attr-defined]
        if left + 30 > width:  # too narrow for a column: aliases on the next line
            out.append(lead.rstrip())
            if text:
                out += wrap(f"aliases: {text}", width, indent="    ", first="    ")
            continue
        out += wrap(text, width, indent=" " * left, first=lead) if text else [lead.rstrip()]
    return "\n".join(out)


def render_packets(packets: Sequence[Packet], width: int = 100) -> str:
    """One block per packet: ``#rank  source  kind  when  score`` then the full content,
    wrapped and indented; opinions add their confidence and evidence, a superseded fact
    says so, and the entities close the block."""
    width = max(MIN_WIDTH, width)
    blocks: list[str] = []
    for rank, p in enumerate(packets, start=1):
        head = [f"#{rank}", p.source, kind_label(p.kind, p.source)]
        if p.timestamp:
            head.append(p.timestamp)
        head.append(f"score {p.score:.3f}")
        lines = ["  ".join(head)]
        content = " ".join(p.content.split())
        if p.confidence is not None:
            content = f"[c={p.confidence:.2f}] {content}"
        lines += wrap(content, width, "    ")
        extra: list[str] = []
        if p.evidence:
            extra.append("evidence: " + ", ".join(e for e in p.evidence))
        if p.superseded_by:
            extra.append("superseded (a newer statement replaces it)")
        if p.entities:
            extra.append("entities: " + ", ".join(p.entities))
        for note in extra:
            lines += wrap(note, width, "    ")
        blocks.append("\n".join(lines))
    if not blocks:
        return "no results"
    scores = [p.score for p in packets]
    if any(later > earlier for earlier, later in itertools.pairwise(scores)):
        # The rank also weighs diversity (a near-duplicate of a line above moves down) and
        # the question's time; the score shown is the fused relevance alone.
        note = (
            "(ranked by relevance, then spread: a result close to one above it moves down, so a "
            "lower rank can show a higher score)"
        )
        blocks.append("\n".join(wrap(note, width)))
    return "\n\n".join(blocks)
