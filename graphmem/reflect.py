"""Reflect: what the evidence of a window did to beliefs, and the bank pages regenerated.

Opinion evolution itself is part of every index (graphmem.opinions, applied in compile): it
is a pure function of everything the Markdown says, so it is idempotent and the same
evidence never counts twice. Reflect reports the moves whose evidence falls in the window,
and rewrites the generated parts of ``bank/`` (hand edits outside the markers are kept).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from graphmem.api import open_graph
from graphmem.bank import PageChange, regenerate
from graphmem.config import Settings
from graphmem.db import Graph
from graphmem.index import IndexReport, index_workspace
from graphmem.packets import source_ref


@dataclass(frozen=True)
class OpinionView:
    """One opinion as ``graphmem opinions`` shows it."""

    id: str
    statement: str
    entities: tuple[str, ...]
    confidence: float
    stated: float | None
    last_updated: date | None
    superseded_by: str | None
    source: str
    supports: tuple[str, ...] = ()
    contradicts: tuple[str, ...] = ()
    history: tuple[dict[str, Any], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "id": self.id,
            "statement": self.statement,
            "entities": list(self.entities),
            "confidence": self.confidence,
            "stated_confidence": self.stated,
            "last_updated": self.last_updated.isoformat() if self.last_updated else None,
            "superseded_by": self.superseded_by,
            "source": self.source,
            "evidence_for": list(self.supports),
            "evidence_against": list(self.contradicts),
            "history": list(self.history),
        }


def opinions(graph: Graph, entity: str | None = None) -> list[OpinionView]:
    """Every opinion (or those about one entity) with evidence for and against and history."""
    slug = None
    if entity is not None:
        from graphmem.about import resolve_entity

        slug = resolve_entity(graph, entity)["slug"]
    rows = graph.run("reflect/opinions").dicts()
    about: dict[str, list[str]] = {}
    slugs: dict[str, set[str]] = {}
    for row in graph.run("reflect/opinion_entities").dicts():
        about.setdefault(row["id"], []).append(row["name"])
        slugs.setdefault(row["id"], set()).add(row["slug"])
    ids = [r["id"] for r in rows if slug is None or slug in slugs.get(r["id"], set())]
    evidence: dict[str, dict[str, list[str]]] = {
        i: {"SUPPORTS": [], "CONTRADICTS": []} for i in ids
    }
    sources = {
        r["id"]: source_ref(r["path"], r["line_start"], r["line_end"])
        for r in graph.run("reflect/claim_sources").dicts()
    }
    for opinion, ev, relation, weight, day in graph.run("recall/opinion_evidence", ids=ids).rows:
        where = sources.get(ev, ev)
        evidence[opinion][relation].append(f"{where} ({weight:+.2f}, {day or 'undated'})")
    newer = {r["older"]: r["newer"] for r in graph.run("reflect/opinion_supersedes").dicts()}
    out = []
    for row in rows:
        if row["id"] not in evidence:
            continue
        out.append(
            OpinionView(
                id=row["id"],
                statement=row["statement"],
                entities=tuple(about.get(row["id"], ())),
                confidence=row["confidence"],
                stated=row["stated_confidence"],
                last_updated=row["last_updated"],
                superseded_by=newer.get(row["id"]),
                source=source_ref(row["path"], row["line_start"], row["line_end"]),
                supports=tuple(evidence[row["id"]]["SUPPORTS"]),
                contradicts=tuple(evidence[row["id"]]["CONTRADICTS"]),
                history=tuple(json.loads(row["history"])) if row["history"] else (),
            )
        )
    return out


@dataclass(frozen=True)
class ReflectReport:
    """What reflect found and changed."""

    since: date
    now: date
    moves: list[tuple[OpinionView, dict[str, Any]]] = field(default_factory=list)
    pages: list[PageChange] = field(default_factory=list)
    index: IndexReport | None = None
    dry_run: bool = False


def reflect(settings: Settings, since: date, now: date, *, dry_run: bool = False) -> ReflectReport:
    """Index, report the confidence moves whose evidence is dated in [since, now], and
    regenerate the bank pages (unless `dry_run`), then index again so the pages' own
    sources are current."""
    index_workspace(settings)
    with open_graph(settings) as graph:
        views = opinions(graph)
        moves = [
            (view, move)
            for view in views
            for move in view.history
            if move.get("day") and since.isoformat() <= move["day"] <= now.isoformat()
        ]
        pages = regenerate(graph, settings.workspace, dry_run=dry_run)
    report = None if dry_run else index_workspace(settings)
    return ReflectReport(
        since=since, now=now, moves=moves, pages=pages, index=report, dry_run=dry_run
    )
