"""The per-file cache in ``.memory/cache.sqlite``: stage results keyed by content hash.

It is what makes indexing incremental: a file whose bytes did not change is never parsed,
time-tagged or run through NER again. Each stage stores its own payload under a ``stage``
name (``parse``, ``times``, ``ner:<model>``, ``mentions``); a payload is valid only for the
content hash and version it was stored with. The cache is derived data; deleting it only
costs time.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS stage_cache (
  path TEXT NOT NULL,
  stage TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  version TEXT NOT NULL,
  payload TEXT NOT NULL,
  PRIMARY KEY (path, stage)
);
CREATE TABLE IF NOT EXISTS text_cache (
  stage TEXT NOT NULL,
  text_hash TEXT NOT NULL,
  version TEXT NOT NULL,
  payload TEXT NOT NULL,
  PRIMARY KEY (stage, text_hash)
);
"""


def code_version(*modules: str) -> str:
    """A hash of the source of the named ``graphmem`` modules, as paths from the package
    (``parse/blocks``; data files with their extension: ``models/crosslingual.tsv``): a
    stage's cache version.

    Any change to the code that decides what a file yields invalidates that stage's cached
    payloads, so a cache can never outlive the code that filled it.
    """
    here = Path(__file__).resolve().parents[1]  # the graphmem package
    digest = hashlib.sha256()
    for name in modules:
        path = here / name if "." in name else here / f"{name}.py"
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


class FileCache:
    """Per-file, per-stage JSON payloads valid for one content hash and one version."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(path, timeout=30)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self.conn.executescript(_SCHEMA)

    def get(self, path: str, stage: str, content_hash: str, version: str) -> Any | None:
        """The cached payload, if the file and the stage's version are unchanged."""
        row = self.conn.execute(
            "SELECT payload FROM stage_cache"
            " WHERE path = ? AND stage = ? AND content_hash = ? AND version = ?",
            (path, stage, content_hash, version),
        ).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, path: str, stage: str, content_hash: str, version: str, payload: Any) -> None:
        """Remember `payload` for this file content."""
        self.conn.execute(
            "INSERT OR REPLACE INTO stage_cache (path, stage, content_hash, version, payload)"
            " VALUES (?, ?, ?, ?, ?)",
            (path, stage, content_hash, version, json.dumps(payload, ensure_ascii=False)),
        )

    def get_texts(self, stage: str, version: str, hashes: Iterable[str]) -> dict[str, Any]:
        """The payloads cached per text (by `text_hash`) for `stage` at `version`: a block
        unchanged in an edited file is not worked on again."""
        out: dict[str, Any] = {}
        wanted = list(dict.fromkeys(hashes))
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT text_hash, payload FROM text_cache WHERE stage = ? AND version = ?"
                f" AND text_hash IN ({marks})",
                (stage, version, *chunk),
            )
            out.update((h, json.loads(p)) for h, p in rows)
        return out

    def put_texts(self, stage: str, version: str, payloads: dict[str, Any]) -> None:
        """Remember a payload per text hash for `stage`."""
        self.conn.executemany(
            "INSERT OR REPLACE INTO text_cache (stage, text_hash, version, payload)"
            " VALUES (?, ?, ?, ?)",
            [(stage, h, version, json.dumps(p, ensure_ascii=False)) for h, p in payloads.items()],
        )

    def retain_texts(self, stage: str, hashes: Iterable[str]) -> int:
        """Forget `stage`'s texts not in `hashes` (no file holds them any more); how many."""
        keep = set(hashes)
        known = {
            h
            for (h,) in self.conn.execute(
                "SELECT text_hash FROM text_cache WHERE stage = ?", (stage,)
            )
        }
        gone = sorted(known - keep)
        self.conn.executemany(
            "DELETE FROM text_cache WHERE stage = ? AND text_hash = ?", [(stage, h) for h in gone]
        )
        return len(gone)

    def retain_only(self, paths: Iterable[str]) -> int:
        """Forget files that are gone; returns how many were forgotten."""
        keep = set(paths)
        known = {p for (p,) in self.conn.execute("SELECT DISTINCT path FROM stage_cache")}
        gone = sorted(known - keep)
        self.conn.executemany("DELETE FROM stage_cache WHERE path = ?", [(p,) for p in gone])
        return len(gone)

    def commit(self) -> None:
        """Make the writes durable."""
        self.conn.commit()

    def close(self) -> None:
        """Commit and close."""
        self.conn.commit()
        self.conn.close()
