"""Windows: a few consecutive items (passages, facts, opinions) of one file, embedded together.

One line of a chat log often does not say what it is about: "The kids loved it! They got
their hands dirty and made something with clay" is pottery with the family, but only the
lines around it say so, and a list question ("what has Melanie done with her family?")
needs such lines from many days. The window channel embeds every run of
:data:`WINDOW_ITEMS` consecutive items of a file (in reading order) as one text and
searches those vectors with the question's; each item of a window it finds is a seed
scored with that window's similarity. Facts and opinions take part so that a curated
``## Retain`` bullet is not outranked by the prose around it only because prose alone
had windows. Measured on LoCoMo (docs/decisions/0005-the-window-channel.md).

The windows live in the seed index file, in a ``windows`` table written beside the seeds
and patched with them in an incremental index; their texts go through the same embedding
cache as every other text. An index built without embeddings has no windows. An index
built progressively (graphmem.index.vectorfill) keeps the windows still waiting for their vector
in ``windows_pending``, with their text, until a later pass embeds them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from graphmem.search.seeds import connect, has_table, top_k

if TYPE_CHECKING:  # recall imports this module; it needs none of the compiler
    from graphmem.compile.rows import GraphData

#: Items per window. Windows do not overlap: every item is in exactly one, so the windows
#: cost about as many tokens to embed as the items themselves.
WINDOW_ITEMS = 5

_SCHEMA = """
CREATE TABLE IF NOT EXISTS windows (path TEXT NOT NULL, ids TEXT NOT NULL, embedding BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS windows_path ON windows (path);
CREATE TABLE IF NOT EXISTS windows_pending (path TEXT NOT NULL, ids TEXT NOT NULL, text TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS windows_pending_path ON windows_pending (path);
"""


@dataclass(frozen=True)
class Window:
    """Consecutive items of one file (ids in reading order) and their joined text."""

    path: str
    ids: tuple[str, ...]
    text: str


def windows_of(data: GraphData, size: int = WINDOW_ITEMS) -> list[Window]:
    """The windows of every file's items, in reading order.

    A window of a single item would only repeat that item's own vector, so a file's last
    run is kept only when it holds at least two items.
    """
    by_path: dict[str, list[dict[str, object]]] = {}
    for table in ("Fact", "Opinion", "Passage"):
        for node in data.nodes[table]:
            by_path.setdefault(str(node["path"]), []).append(node)
    out: list[Window] = []
    for path, nodes in by_path.items():
        nodes.sort(key=lambda n: (int(n["line_start"]), str(n["id"])))  # type: ignore[call-overload]
        for start in range(0, len(nodes), size):
            run = nodes[start : start + size]
            if len(run) < 2:
                continue
            ids = tuple(str(n["id"]) for n in run)
            text = " ".join(data.seed_text.get(i, "") for i in ids)
            out.append(Window(path, ids, text))
    return out


def write_windows(
    path: Path,
    windows: Sequence[Window],
    vectors: npt.ArrayLike | None,
    replace_paths: Iterable[str] = (),
    *,
    pending: bool = False,
) -> None:
    """Add `windows` (one vector each) to the unpublished seed index at `path`, first
    dropping the windows of `replace_paths`. No vectors: with `pending` the windows wait in
    ``windows_pending`` for :func:`fill_windows`; else (embeddings off) nothing is added."""
    conn = connect(path)
    try:
        conn.executescript(_SCHEMA)
        for table in ("windows", "windows_pending"):
            conn.executemany(f"DELETE FROM {table} WHERE path = ?", ((p,) for p in replace_paths))
        if vectors is None and pending:
            conn.executemany(
                "INSERT INTO windows_pending (path, ids, text) VALUES (?, ?, ?)",
                ((w.path, json.dumps(w.ids), w.text) for w in windows),
            )
        if vectors is not None and windows:
            matrix = np.ascontiguousarray(vectors, dtype=np.float32)
            if matrix.shape[0] != len(windows):
                raise ValueError(f"{matrix.shape[0]} vectors for {len(windows)} windows")
            conn.executemany(
                "INSERT INTO windows (path, ids, embedding) VALUES (?, ?, ?)",
                (
                    (w.path, json.dumps(w.ids), vec.tobytes())
                    for w, vec in zip(windows, matrix, strict=True)
                ),
            )
        conn.commit()
    finally:
        conn.close()


def pending_windows(path: Path) -> list[tuple[int, str]]:
    """The windows of the seed index at `path` still waiting for a vector: (key, text)."""
    conn = connect(path, readonly=True)
    try:
        if not has_table(conn, "windows_pending"):
            return []
        rows = conn.execute("SELECT rowid, text FROM windows_pending ORDER BY rowid").fetchall()
        return [(int(key), str(text)) for key, text in rows]
    finally:
        conn.close()


def fill_windows(path: Path, keys: Sequence[int], vectors: npt.ArrayLike) -> int:
    """Move the pending windows `keys` of the unpublished seed index at `path` into
    ``windows`` with their vectors (one per key, in order); returns how many still wait."""
    matrix = np.ascontiguousarray(vectors, dtype=np.float32)
    if matrix.shape[0] != len(keys):
        raise ValueError(f"{matrix.shape[0]} vectors for {len(keys)} windows")
    conn = connect(path)
    try:
        for key, vec in zip(keys, matrix, strict=True):
            row = conn.execute(
                "SELECT path, ids FROM windows_pending WHERE rowid = ?", (key,)
            ).fetchone()
            if row is None:  # its file was re-indexed meanwhile
                continue
            conn.execute(
                "INSERT INTO windows (path, ids, embedding) VALUES (?, ?, ?)",
                (row[0], row[1], vec.tobytes()),
            )
            conn.execute("DELETE FROM windows_pending WHERE rowid = ?", (key,))
        left = int(conn.execute("SELECT count(*) FROM windows_pending").fetchone()[0])
        conn.commit()
        return left
    finally:
        conn.close()


class WindowIndex:
    """The windows of an open seed index, searched in memory (loaded on first search)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._ids: list[str] | None = None  # each window's ids as stored (JSON)
        self._matrix: npt.NDArray[np.float32] | None = None

    def _load(self) -> None:
        found = has_table(self.conn, "windows")
        rows = self.conn.execute("SELECT ids, embedding FROM windows").fetchall() if found else []
        self._ids = [ids for ids, _ in rows]
        if rows:  # one buffer, not one array per row: 20k windows load in a fraction of the time
            flat = np.frombuffer(b"".join(blob for _, blob in rows), dtype=np.float32)
            self._matrix = flat.reshape(len(rows), -1)

    def search(self, qvec: npt.NDArray[np.float32], k: int) -> list[tuple[str, float]]:
        """Items of the `k` windows nearest `qvec` (cosine), each scored with its window's
        similarity, best first. Empty when the index has no windows or
        the vector's dimension differs from theirs."""
        if self._ids is None:
            self._load()
        matrix = self._matrix
        if matrix is None or k <= 0 or matrix.shape[1] != qvec.shape[0]:
            return []
        sims = matrix @ qvec
        ids = self._ids or []
        best: dict[str, float] = {}
        for j in top_k(sims, k):
            for item in json.loads(ids[j]):
                best.setdefault(item, float(sims[j]))
        return sorted(best.items(), key=lambda kv: -kv[1])
