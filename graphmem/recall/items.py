"""What one recall call asks for (:class:`RecallOptions`) and the candidates it ranks
(:class:`Item`: a row of the graph with its running score, how it was reached, and the
entities it names)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from graphmem.config.presets import RecallConfig

KINDS = ("world", "experience", "observation", "opinion", "log")


@dataclass(frozen=True)
class RecallOptions:
    """What one recall call asks for."""

    k: int = 10
    now: date = field(default_factory=date.today)
    since: date | None = None
    until: date | None = None
    as_of: date | None = None
    kinds: frozenset[str] | None = None
    budget: int | None = None
    config: RecallConfig = field(default_factory=RecallConfig)


@dataclass
class Item:
    """One candidate: its id, table and row, score so far, the channels and hops that
    reached it (``via``) and the entities it names (slug, name, how)."""

    id: str
    table: str
    row: dict[str, Any]
    score: float = 0.0
    via: list[str] = field(default_factory=list)
    entities: list[tuple[str, str, str]] = field(default_factory=list)  # slug, name, how

    @property
    def kind(self) -> str:
        if self.table == "Opinion":
            return "opinion"
        if self.table == "Passage":
            return "log"
        return str(self.row["kind"])


#: older id -> (newer id, day of the newer statement)
Superseded = dict[str, tuple[str, date | None]]
#: channel name -> its ranked (item id, score)
Channels = dict[str, list[tuple[str, float]]]
