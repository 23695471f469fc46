"""A read-optimised copy of what recall looks up by id, kept beside the seeds in SQLite.

Kùzu 0.11.3 answers ``WHERE n.id IN $ids`` (and the UNWIND form for relationships) with
scans of whole tables: at 100k items, loading 150 candidates and their mentions, neighbours
and evidence cost ~200 ms a question
(docs/decisions/0001-by-id-lookups-from-a-sqlite-projection.md). The same lookups by primary key in
SQLite cost well under a millisecond each. The graph stays the model: this projection is
written from the same compiled rows in the same generation, and named Cypher queries keep
answering everything else.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphmem.search.seeds import connect, has_table

if TYPE_CHECKING:  # recall imports this module; it needs none of the compiler
    from graphmem.compile.rows import GraphData

_DATES = ("day", "valid_from", "valid_to", "last_updated")
_CHUNK = 500
_SCHEMA = """
CREATE TABLE node_rows (id TEXT PRIMARY KEY, tbl TEXT NOT NULL, row TEXT NOT NULL);
CREATE TABLE node_mentions (id TEXT NOT NULL, slug TEXT NOT NULL, name TEXT, how TEXT);
CREATE INDEX node_mentions_id ON node_mentions (id);
CREATE INDEX node_mentions_slug ON node_mentions (slug);
CREATE TABLE next_pairs (a TEXT NOT NULL, b TEXT NOT NULL);
CREATE INDEX next_pairs_a ON next_pairs (a);
CREATE INDEX next_pairs_b ON next_pairs (b);
CREATE TABLE evidence_pairs (claim TEXT NOT NULL, passage TEXT NOT NULL, how TEXT);
CREATE INDEX evidence_pairs_claim ON evidence_pairs (claim);
CREATE INDEX evidence_pairs_passage ON evidence_pairs (passage);
CREATE TABLE supersedes_pairs (newer TEXT NOT NULL, older TEXT NOT NULL, day TEXT, cue TEXT);
CREATE INDEX supersedes_pairs_newer ON supersedes_pairs (newer);
CREATE INDEX supersedes_pairs_older ON supersedes_pairs (older);
"""
#: The columns recall reads, per table (the query files' aliases: an opinion's statement is
#: its "text").
_COLUMNS = {
    "Fact": ("id", "kind", "text", "day", "valid_from", "valid_to", "path", "line_start",
             "line_end", "origin"),
    "Opinion": ("id", "statement", "confidence", "last_updated", "superseded", "day", "path",
                "line_start", "line_end", "origin"),
    "Passage": ("id", "text", "day", "valid_from", "valid_to", "path", "line_start",
                "line_end", "origin", "speaker"),
}  # fmt: skip


def _plain(value: object) -> object:
    return value.isoformat() if isinstance(value, date) else value


def write_projection(path: Path, data: GraphData) -> None:
    """Add the projection tables to the (not yet published) seed index at `path`."""
    conn = connect(path)
    try:
        conn.executescript(_SCHEMA)
        _insert(conn, data, {str(e["slug"]): str(e["name"]) for e in data.nodes["Entity"]})
        conn.commit()
    finally:
        conn.close()


def patch_projection(
    path: Path,
    removed: Sequence[str],
    data: GraphData,
    names: dict[str, str],
    unlinked: Sequence[tuple[str, str]] = (),
) -> None:
    """In the (not yet published) seed index at `path`: forget the items `removed` and the
    SUPERSEDES links `unlinked` (newer, older) between items that stay, then add or replace
    the rows and relationships in `data`. `names`: entity slug -> name."""
    conn = connect(path)
    try:
        deletes = [
            "DELETE FROM node_rows WHERE id IN ({marks})",
            "DELETE FROM node_mentions WHERE id IN ({marks})",
            "DELETE FROM next_pairs WHERE a IN ({marks}) OR b IN ({marks})",
            "DELETE FROM evidence_pairs WHERE claim IN ({marks}) OR passage IN ({marks})",
        ]
        # An index written before the table existed goes on asking Kùzu (see supersession).
        with_supersedes = has_table(conn, "supersedes_pairs")
        if with_supersedes:
            deletes.append(
                "DELETE FROM supersedes_pairs WHERE newer IN ({marks}) OR older IN ({marks})"
            )
            conn.executemany(
                "DELETE FROM supersedes_pairs WHERE newer = ? AND older = ?", list(unlinked)
            )
        for start in range(0, len(removed), _CHUNK):
            chunk = list(removed[start : start + _CHUNK])
            marks = ",".join("?" * len(chunk))
            for sql in deletes:
                conn.execute(sql.format(marks=marks), chunk * sql.count("IN ("))
        _insert(conn, data, names, supersedes=with_supersedes)
        conn.commit()
    finally:
        conn.close()


def _insert(
    conn: sqlite3.Connection, data: GraphData, names: dict[str, str], *, supersedes: bool = True
) -> None:
    for table, columns in _COLUMNS.items():
        conn.executemany(
            "INSERT OR REPLACE INTO node_rows (id, tbl, row) VALUES (?, ?, ?)",
            (
                (
                    str(node["id"]),
                    table,
                    json.dumps(
                        {("text" if c == "statement" else c): _plain(node.get(c)) for c in columns},
                        ensure_ascii=False,
                    ),
                )
                for node in data.nodes[table]
            ),
        )
    for (rel, _, _), rows in data.rels.items():
        if rel == "MENTIONS":
            conn.executemany(
                "INSERT INTO node_mentions VALUES (?, ?, ?, ?)",
                ((r["from"], r["to"], names.get(str(r["to"])), r.get("how")) for r in rows),
            )
        elif rel == "NEXT":
            conn.executemany(
                "INSERT INTO next_pairs VALUES (?, ?)", ((r["from"], r["to"]) for r in rows)
            )
        elif rel == "EVIDENCE":
            conn.executemany(
                "INSERT INTO evidence_pairs VALUES (?, ?, ?)",
                ((r["from"], r["to"], r.get("how")) for r in rows),
            )
        elif rel == "SUPERSEDES" and supersedes:
            conn.executemany(
                "INSERT INTO supersedes_pairs VALUES (?, ?, ?, ?)",
                ((r["from"], r["to"], _plain(r.get("day")), r.get("cue")) for r in rows),
            )


class Projection:
    """Lookups by id on an open seed index connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        #: False for an index built before the projection existed (recall then asks Kùzu).
        self.available = has_table(conn, "node_rows")
        #: Whether items can be looked up by entity (an index built since
        #: node_mentions_slug; before, a scan of every mention: Kùzu answers instead).
        self.by_entity = self.available and has_table(conn, "node_mentions_slug", "index")
        #: Whether SUPERSEDES links are here (an index built since supersedes_pairs).
        self.by_supersession = self.available and has_table(conn, "supersedes_pairs")

    def _each(self, sql: str, ids: Sequence[str], repeat: int = 1) -> Iterable[tuple[Any, ...]]:
        unique = list(dict.fromkeys(ids))
        for start in range(0, len(unique), _CHUNK):
            chunk = unique[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            yield from self.conn.execute(sql.format(marks=marks), chunk * repeat)

    def rows(self, ids: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
        """(table, row) of each id that is a fact, opinion or passage."""
        out = []
        for tbl, raw in self._each("SELECT tbl, row FROM node_rows WHERE id IN ({marks})", ids):
            row = json.loads(raw)
            for key in _DATES:
                if row.get(key):
                    row[key] = date.fromisoformat(row[key])
            out.append((tbl, row))
        return out

    def mentions(self, ids: Sequence[str]) -> list[tuple[str, str, str, str]]:
        """(id, slug, name, how) for every entity those items mention."""
        return list(
            self._each("SELECT id, slug, name, how FROM node_mentions WHERE id IN ({marks})", ids)
        )

    def items_of(
        self, slugs: Sequence[str], limit: int, *, tables: Sequence[str], hows: Sequence[str] = ()
    ) -> list[tuple[str, str, date | None]]:
        """(id, slug, day) of the items of `tables` that mention any of `slugs` (only by
        `hows`, when given), undated first (as Kùzu orders a null), then newest first, at
        most `limit` rows: the queries recall/entity_items and recall/subject_items, on
        the projection."""
        where = [f"m.slug IN ({','.join('?' * len(slugs))})"]
        where.append(f"r.tbl IN ({','.join('?' * len(tables))})")
        if hows:
            where.append(f"m.how IN ({','.join('?' * len(hows))})")
        sql = (
            "SELECT m.id, m.slug, json_extract(r.row, '$.day') AS day FROM node_mentions m"
            f" JOIN node_rows r ON r.id = m.id WHERE {' AND '.join(where)}"
            " ORDER BY day IS NOT NULL, day DESC, m.id LIMIT ?"
        )
        rows = self.conn.execute(sql, [*slugs, *tables, *hows, limit]).fetchall()
        return [(i, slug, date.fromisoformat(d) if d else None) for i, slug, d in rows]

    def neighbors(self, ids: Sequence[str]) -> list[tuple[str, str]]:
        """(id, neighbour) for the passages just before and after those passages."""
        sql = (
            "SELECT a, b FROM next_pairs WHERE a IN ({marks})"
            " UNION SELECT b, a FROM next_pairs WHERE b IN ({marks})"
        )
        return list(self._each(sql, ids, repeat=2))

    def supersedes(self, ids: Sequence[str]) -> list[tuple[str, str, date | None, str | None]]:
        """(newer, older, day, cue) for the SUPERSEDES links touching those ids, either end:
        the query recall/supersedes, on the projection."""
        sql = (
            "SELECT newer, older, day, cue FROM supersedes_pairs WHERE newer IN ({marks})"
            " UNION SELECT newer, older, day, cue FROM supersedes_pairs WHERE older IN ({marks})"
        )
        return [
            (newer, older, date.fromisoformat(day) if day else None, cue)
            for newer, older, day, cue in self._each(sql, ids, repeat=2)
        ]

    def evidence(self, ids: Sequence[str]) -> list[tuple[str, str, str]]:
        """(claim, passage, how) for EVIDENCE links touching those ids, either end."""
        sql = (
            "SELECT claim, passage, how FROM evidence_pairs WHERE claim IN ({marks})"
            " UNION SELECT claim, passage, how FROM evidence_pairs WHERE passage IN ({marks})"
        )
        return list(self._each(sql, ids, repeat=2))
