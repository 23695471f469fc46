"""The per-file cache in ``.memory/cache.sqlite``: parse results keyed by content hash.

It is what makes indexing incremental: a file whose bytes did not change is never parsed
again. The cache is derived data too; deleting it only costs time.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS files (
  path TEXT PRIMARY KEY,
  content_hash TEXT NOT NULL,
  version TEXT NOT NULL,
  payload TEXT NOT NULL
);
"""


class FileCache:
    """Per-file payloads (JSON) valid for one content hash and one pipeline version."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(path, timeout=30)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.executescript(_SCHEMA)

    def get(self, path: str, content_hash: str, version: str) -> dict[str, Any] | None:
        """The cached payload, if the file and pipeline are unchanged."""
        row = self.conn.execute(
            "SELECT payload FROM files WHERE path = ? AND content_hash = ? AND version = ?",
            (path, content_hash, version),
        ).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, path: str, content_hash: str, version: str, payload: dict[str, Any]) -> None:
        """Remember `payload` for this file content."""
        self.conn.execute(
            "INSERT OR REPLACE INTO files (path, content_hash, version, payload) VALUES (?, ?, ?, ?)",
            (path, content_hash, version, json.dumps(payload, ensure_ascii=False)),
        )

    def retain_only(self, paths: Iterable[str]) -> int:
        """Forget files that are gone; returns how many were forgotten."""
        keep = set(paths)
        gone = [p for (p,) in self.conn.execute("SELECT path FROM files") if p not in keep]
        self.conn.executemany("DELETE FROM files WHERE path = ?", [(p,) for p in gone])
        return len(gone)

    def commit(self) -> None:
        """Make the writes durable."""
        self.conn.commit()

    def close(self) -> None:
        """Commit and close."""
        self.conn.commit()
        self.conn.close()
