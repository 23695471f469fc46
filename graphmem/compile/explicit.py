"""Explicit links a bullet makes to an older line: ``(replaces path#Ln)``, ``(retracts path#Ln)``.

An agent (``graphmem retain --replaces``, ``graphmem retract``) or a person writes them; the
index reads them as plainly as it reads the text, with no rule to guess:

| written at the end of a bullet      | target is a fact                  | target is an opinion          |
|-------------------------------------|-----------------------------------|-------------------------------|
| ``(replaces memory/D.md#L12)``      | SUPERSEDES new -> old; the old    | (not read: state the new view |
|                                     | fact ends on the new one's day    | as a new opinion)             |
| ``(retracts memory/D.md#L12)``      | SUPERSEDES retraction -> old; the | CONTRADICTS, a strong move;   |
|                                     | fact ends on the retraction's day | status "retracted", cited     |

Only a link to a line that holds a typed bullet (a fact or an opinion) counts, and only one
that points backwards: the target must not start after the linking bullet. Nothing is ever
deleted: the old line stays in its file and in the graph, closed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Protocol

from graphmem.compile.opinions import STRONG, Link, Move, OpinionState
from graphmem.compile.supersede import Supersession
from graphmem.parse.blocks import Block
from graphmem.parse.links import read_link

#: The cue of an explicit edge, shown by ``about`` ("superseded 2026-01-03 by ... (replaces)").
REPLACES = "replaces (explicit)"
RETRACTS = "retracted (explicit)"


class _Ref(Protocol):
    """What the links need of a bullet (graphmem.compile.rows.FactRef)."""

    @property
    def path(self) -> str: ...
    @property
    def day(self) -> date | None: ...
    @property
    def block(self) -> Block: ...
    @property
    def valid_from(self) -> date | None: ...


@dataclass(frozen=True)
class Retraction:
    """Bullet `by` (cited `source`) retracts opinion `opinion` on `day`."""

    by: str
    opinion: str
    day: date | None
    source: str


@dataclass(frozen=True)
class Explicit:
    """Every explicit link of a workspace, resolved to the bullets they name."""

    supersessions: list[Supersession]
    retractions: list[Retraction]

    @property
    def ended(self) -> set[str]:
        """The facts an explicit link ends (no rule-found edge ends them as well)."""
        return {s.older for s in self.supersessions}


def _cite(ref: _Ref) -> str:
    a, b = ref.block.line_start, ref.block.line_end
    return f"{ref.path}#L{a}" + (f"-L{b}" if b > a else "")


def find_explicit(facts: Sequence[_Ref]) -> Explicit:
    """Resolve the explicit links among `facts` (every typed bullet of the workspace)."""
    by_path: dict[str, list[_Ref]] = defaultdict(list)
    for ref in facts:
        by_path[ref.path].append(ref)
    supersessions: list[Supersession] = []
    retractions: list[Retraction] = []
    for ref in facts:
        link = read_link(ref.block.text)
        if link is None:
            continue
        target = next(
            (
                t
                for t in by_path.get(link.path, ())
                if t.block.line_start <= link.line <= t.block.line_end
            ),
            None,
        )
        if target is None or target.block.id == ref.block.id:
            continue
        day = ref.valid_from or ref.day
        then = target.valid_from or target.day
        if day is not None and then is not None and then > day:
            continue  # a link forwards in time: nothing can end before it started
        if target.block.kind == "opinion":
            if link.verb == "retracts":
                retractions.append(Retraction(ref.block.id, target.block.id, day, _cite(ref)))
            continue
        if day is None:
            continue  # an undated line (memory.md) restates the present; it dates no end
        cue = REPLACES if link.verb == "replaces" else RETRACTS
        supersessions.append(Supersession(ref.block.id, target.block.id, day, cue))
    return Explicit(supersessions, retractions)


def merge_supersessions(found: Iterable[Supersession], explicit: Explicit) -> list[Supersession]:
    """The rule-found edges plus the explicit ones; an explicitly ended fact keeps only its
    explicit edge (what the writer said beats what a rule guessed)."""
    ended = explicit.ended
    return [s for s in found if s.older not in ended] + explicit.supersessions


def apply_retractions(
    links: list[Link], states: Mapping[str, OpinionState], retractions: Iterable[Retraction]
) -> tuple[list[Link], dict[str, OpinionState]]:
    """`links` and `states` with each retraction applied to an opinion they hold: a strong
    CONTRADICTS link, confidence down to ``(1 - STRONG)`` of itself, status "retracted"
    citing the retraction line (the first ending an opinion had stays its ending)."""
    out = dict(states)
    links = list(links)
    for r in retractions:
        state = out.get(r.opinion)
        if state is None:
            continue
        reason = f"retracted: {r.source}"
        links.append(
            Link(r.by, r.opinion, "contradicts", 1.0, r.day, reason, r.source, True, "retracted")
        )
        new = round(state.confidence * (1 - STRONG), 4)
        move = Move(r.day, state.confidence, new, r.by, "contradicts", reason, r.source)
        settled = state.status and state.status not in ("superseded", "reinforced")
        out[r.opinion] = replace(
            state,
            confidence=new,
            history=(*state.history, move),
            status=state.status if settled else "retracted",
            ended_by=state.ended_by if settled else r.source,
        )
    return links, out
