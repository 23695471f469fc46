"""Recall packets: the small, cited units agents get back."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any


@dataclass(frozen=True)
class Packet:
    """One result: what it says, where it says it, why it was returned."""

    id: str
    kind: str  # world | experience | opinion | observation | log
    content: str
    source: str  # memory/2025-11-27.md#L12 or #L12-L15
    score: float
    timestamp: str | None  # the source day, or the validity range "2025-11-27..2025-12-01"
    entities: tuple[str, ...] = ()
    confidence: float | None = None
    evidence: tuple[str, ...] = ()
    via: tuple[str, ...] = ()
    superseded_by: str | None = None
    valid_from: date | None = None
    valid_to: date | None = None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: exactly the packet, nothing of the engine."""
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "timestamp": self.timestamp,
            "entities": list(self.entities),
            "content": self.content,
            "source": self.source,
            "score": round(self.score, 6),
            "via": list(self.via),
        }
        if self.kind == "opinion":
            out["confidence"] = self.confidence
            out["evidence"] = list(self.evidence)
        elif self.evidence:
            out["evidence"] = list(self.evidence)
        if self.superseded_by:
            out["superseded_by"] = self.superseded_by
        return out

    def tokens(self) -> int:
        """A rough token count (4 characters a token, plus the citation overhead)."""
        return len(self.content) // 4 + 12


def source_ref(path: str, start: int, end: int) -> str:
    """``path#L12`` or ``path#L12-L15``."""
    return f"{path}#L{start}" if start == end else f"{path}#L{start}-L{end}"


def timestamp(day: date | None, valid_from: date | None, valid_to: date | None) -> str | None:
    """The source day, or the validity range when the text states one."""
    if valid_from and valid_to and valid_from != valid_to:
        return f"{valid_from.isoformat()}..{valid_to.isoformat()}"
    if valid_from and valid_from != day:
        return valid_from.isoformat() + ("" if valid_to else "..")
    return day.isoformat() if day else None


def within_budget(packets: Sequence[Packet], budget: int | None) -> list[Packet]:
    """Packets in rank order while their rough token count stays within `budget`."""
    if budget is None:
        return list(packets)
    out: list[Packet] = []
    used = 0
    for packet in packets:
        cost = packet.tokens()
        if used + cost > budget and out:
            break
        out.append(packet)
        used += cost
    return out


@dataclass(frozen=True)
class RecallResult:
    """Packets plus what recall understood (for --explain and tests)."""

    packets: list[Packet]
    entities: tuple[str, ...] = ()
    time: str | None = None
    kinds: tuple[str, ...] = ()
    notices: tuple[str, ...] = field(default=())
