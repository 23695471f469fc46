"""Reflect: what the evidence of a window did to beliefs, and the bank pages regenerated.

Opinion evolution itself is part of every index (graphmem.compile.opinions, applied in compile): it
is a pure function of everything the Markdown says, so it is idempotent and the same
evidence never counts twice. Reflect reports the moves whose evidence falls in the window,
and rewrites the generated parts of ``bank/`` (hand edits outside the markers are kept).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from graphmem.config import Settings
from graphmem.errors import GraphmemError
from graphmem.index.build import IndexReport, index_workspace
from graphmem.parse.textio import Lines
from graphmem.parse.workspace import read_regular
from graphmem.recall.packets import source_ref
from graphmem.reflect.bank import PageChange, regenerate
from graphmem.store.current import open_graph
from graphmem.store.db import Graph


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
    #: "" (open), confirmed, refuted, retracted, revoked, superseded or reinforced.
    status: str = ""
    #: The confidence as its line writes it (``O(c=1.3)``: 1.3), None when the line states
    #: none or cannot be read; `stated` is that number clamped to [0, 1].
    written: float | None = None

    @property
    def clamped(self) -> bool:
        """Whether the written confidence lay outside [0, 1] and was clamped to `stated`."""
        return self.written is not None and not 0.0 <= self.written <= 1.0

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "id": self.id,
            "statement": self.statement,
            "entities": list(self.entities),
            "confidence": self.confidence,
            "stated_confidence": self.stated,
            "written_confidence": self.written,
            "clamped": self.clamped,
            "last_updated": self.last_updated.isoformat() if self.last_updated else None,
            "superseded_by": self.superseded_by,
            "status": self.status or None,
            "confirmed": self.status == "confirmed",
            "source": self.source,
            "evidence_for": list(self.supports),
            "evidence_against": list(self.contradicts),
            "history": list(self.history),
        }


def opinions(
    graph: Graph, entity: str | None = None, workspace: Path | None = None
) -> list[OpinionView]:
    """Every opinion (or those about one entity) with evidence for and against and history;
    with `workspace`, each with the confidence its line writes (before clamping)."""
    slug = None
    if entity is not None:
        from graphmem.recall.about import resolve_entity

        slug = resolve_entity(graph, entity)["slug"]
    rows = graph.run("reflect/opinions").dicts()
    about: dict[str, list[str]] = {}
    slugs: dict[str, set[str]] = {}
    for row in graph.run("reflect/opinion_entities").dicts():
        about.setdefault(row["id"], []).append(row["name"])
        slugs.setdefault(row["id"], set()).add(row["slug"])
    ids = [r["id"] for r in rows if slug is None or slug in slugs.get(r["id"], set())]
    sources = {
        r["id"]: source_ref(r["path"], r["line_start"], r["line_end"])
        for r in graph.run("reflect/claim_sources").dicts()
    }
    newer = {r["older"]: r["newer"] for r in graph.run("reflect/opinion_supersedes").dicts()}
    out = []
    wanted = set(ids)
    files: dict[str, list[str]] = {}  # each opinion's file read once
    for row in rows:
        if row["id"] not in wanted:
            continue
        history = tuple(json.loads(row["history"])) if row["history"] else ()
        status, ended_by = "", None
        evidence: dict[str, list[str]] = {"supports": [], "contradicts": []}
        for move in history:
            where = move.get("source") or sources.get(move["evidence"], "")
            move["source"] = where
            delta = move["new"] - move["old"]
            evidence[move["relation"]].append(
                f"{where} ({delta:+.2f}, {move.get('day') or 'undated'}: {move['reason']})"
            )
            if move.get("ending"):
                status, ended_by = move["ending"], where
        replaced = newer.get(row["id"])
        superseded_by = sources.get(replaced, "") if replaced else None
        if status in ("superseded", "revoked", "retracted"):
            superseded_by = superseded_by or ended_by
        if status == "" and row["superseded"]:
            status = "superseded"
        out.append(
            OpinionView(
                id=row["id"],
                statement=row["statement"],
                entities=tuple(about.get(row["id"], ())),
                confidence=row["confidence"],
                stated=row["stated_confidence"],
                last_updated=row["last_updated"],
                superseded_by=superseded_by,
                source=source_ref(row["path"], row["line_start"], row["line_end"]),
                supports=tuple(evidence["supports"]),
                contradicts=tuple(evidence["contradicts"]),
                history=tuple({k: v for k, v in m.items() if k != "evidence"} for m in history),
                status=status,
                written=None
                if workspace is None
                else _written(workspace, row["path"], row["line_start"], files),
            )
        )
    return out


#: An O bullet's confidence as written: ``- O(c=1.3) @X: ...``, ``* O(c = 85%)``.
_WRITTEN = re.compile(r"\s*+[-*+]\s++O\(\s*+c\s*+=\s*+([^)]*+)\)", re.IGNORECASE)


def _written(workspace: Path, path: str, line: int, files: dict[str, list[str]]) -> float | None:
    """The confidence the opinion's line writes, unclamped (85% is 0.85); None when it
    states none, is no number, or the file is gone."""
    text = _lines(workspace, path, files)[max(line - 1, 0) : line]
    m = _WRITTEN.match(text[0]) if text else None
    if m is None:
        return None
    given = m.group(1).strip()
    try:
        value = float(given.rstrip("%")) / (100 if given.endswith("%") else 1)
    except ValueError:
        return None
    return value if math.isfinite(value) else None  # NaN, inf: the parser's default stands


@dataclass(frozen=True)
class OpinionWhy:
    """Why an opinion stands where it does: every move, with the line it came from."""

    opinion: OpinionView
    #: Each move in order: day, old, new, delta, relation, reason, source, ending and the
    #: cited line's text as the workspace has it now ("" when the file is gone).
    moves: tuple[dict[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {**self.opinion.to_dict(), "moves": list(self.moves)}


class UnknownOpinionError(GraphmemError):
    """No opinion, or more than one, matches what was asked for."""


#: The cited text shown per move, at most (a sentence, or a few wrapped lines).
WHY_TEXT = 400


def find_opinion(views: list[OpinionView], ref: str) -> OpinionView:
    """The opinion `ref` names: its id, its citation (``memory/2026-03-11.md#L16``, or the
    path and first line of it), or words of its statement that only it holds."""
    want = " ".join(ref.split())
    if not want:
        raise UnknownOpinionError("no opinion named", hint="pass an id, a citation or words of it")
    for v in views:
        if want in (v.id, v.source) or v.source.startswith(want + "-"):
            return v
    low = want.casefold()
    hits = [v for v in views if low in " ".join(v.statement.split()).casefold()]
    if len(hits) == 1:
        return hits[0]
    if hits:
        shown = "; ".join(f"{v.source} {v.statement[:60]}" for v in hits[:5])
        raise UnknownOpinionError(
            f"{len(hits)} opinions match {ref!r}: {shown}", hint="pass one's citation or id"
        )
    raise UnknownOpinionError(
        f"no opinion matches {ref!r}", hint="`graphmem opinions` lists them with their citations"
    )


def explain(view: OpinionView, workspace: Path) -> OpinionWhy:
    """Every move of `view` with its delta and the text of the line it came from."""
    files: dict[str, list[str]] = {}  # each cited file read once
    moves = []
    for move in view.history:
        source = move.get("source") or ""
        moves.append(
            {
                **move,
                "delta": round(move["new"] - move["old"], 4),
                "text": _cited_text(workspace, source, files),
            }
        )
    return OpinionWhy(view, tuple(moves))


def _cited_text(workspace: Path, source: str, files: dict[str, list[str]]) -> str:
    """The lines `source` (path#Lx or path#Lx-Ly) cites, joined on one line; "" when the
    file is gone."""
    path, _, anchor = source.partition("#")
    lines = [int(n) for n in re.findall(r"\d+", anchor)[:2]]
    if not path or not lines:
        return ""
    start, end = lines[0], lines[-1]
    return " ".join(" ".join(_lines(workspace, path, files)[start - 1 : end]).split())[:WHY_TEXT]


def _lines(workspace: Path, path: str, files: dict[str, list[str]]) -> list[str]:
    """The lines of `path`, read once into `files`; none when the file is gone or is no
    regular file (a FIFO put in its place must not block)."""
    if path not in files:
        try:
            data = read_regular(workspace / path)
        except OSError:  # NotRegularFile too
            data = b""
        # the parser's line breaks (\n, \r\n, \r), so a line number names the same line;
        # invalid UTF-8 shown as U+FFFD, not kept as surrogates a terminal cannot print
        files[path] = Lines.decode(data.decode("utf-8", errors="replace").encode()).lines
    return files[path]


@dataclass(frozen=True)
class ReflectReport:
    """What reflect found and changed."""

    since: date
    now: date
    moves: list[tuple[OpinionView, dict[str, Any]]] = field(default_factory=list)
    pages: list[PageChange] = field(default_factory=list)
    index: IndexReport | None = None
    dry_run: bool = False
    #: Where `now` came from when nobody gave it: "today", or "newest log" when today's
    #: window would hold no daily log (a workspace last written months ago).
    now_from: str = "given"


def reflect(settings: Settings, since: date, now: date, *, dry_run: bool = False) -> ReflectReport:
    """Index, report the confidence moves whose evidence is dated in [since, now] (or is
    curated, undated text), and
    regenerate the bank pages (unless `dry_run`), then index again so the pages' own
    sources are current."""
    index_workspace(settings)
    with open_graph(settings) as graph:
        views = opinions(graph)
        moves = [
            (view, move)
            for view in views
            for move in view.history
            # undated moves come from curated text (an entity page, memory.md), read as of now
            if not move.get("day") or since.isoformat() <= move["day"] <= now.isoformat()
        ]
        pages = regenerate(graph, settings.workspace, dry_run=dry_run, now=now)
    report = None if dry_run else index_workspace(settings)
    return ReflectReport(
        since=since, now=now, moves=moves, pages=pages, index=report, dry_run=dry_run
    )
