"""The seed index beside the graph: one SQLite file with FTS5 and vector search.

Recall starts from seeds: items whose text matches the question's words (:meth:`SeedIndex.lexical`,
bm25 over FTS5) or whose embedding is near the question's (:meth:`SeedIndex.vector`,
sqlite-vec). The file is derived data: :meth:`SeedIndex.build` writes a whole new file
and renames it into place, so readers see the old index or the new one, never half of one,
and nothing is ever updated in place.

Tables::

    meta(key, value)                      schema version, tokenizer, vector backend, dim, model
    seeds(rid, id, kind, text, day, path) one row per item; id is the graph node id
    seeds_fts                             FTS5 over seeds.text (external content)
    seeds_vec                             vec0(rid, kind, embedding float[dim] cosine)
      or seeds_vec_blob(rid, embedding)   float32 blobs, searched with numpy (no sqlite-vec)
    pending(rid)                          rows whose vector is still to come (an index built
                                          progressively: graphmem.index.vectorfill fills them)

SQLite comes from the stdlib when it can load extensions, else from ``pysqlite3`` (the
default CPython here is built without ``enable_load_extension``). Without sqlite-vec the
index stores plain blobs and searches them by brute force; :attr:`SeedIndex.notice` says so.
"""

from __future__ import annotations

import importlib
import os
import re
import sqlite3
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

from graphmem.errors import GraphmemError
from graphmem.extract.crosslingual import cjk_bigrams, segment_cjk, strip_cjk, translate
from graphmem.store.layout import fsync_path
from graphmem.text.fold import fold
from graphmem.text.stopwords import QUERY

#: Kinds of indexed items.
KINDS = frozenset({"world", "experience", "observation", "opinion", "log"})
_KIND_CODES = {kind: code for code, kind in enumerate(sorted(KINDS))}
#: FTS5 tokenizer. Porter stemming lets "move" find "moved" and "crashes" find "crashed";
#: unicode61 with remove_diacritics 2 lets "chateau" find "Château" (and vice versa).
FTS_TOKENIZER = "porter unicode61 remove_diacritics 2"
SCHEMA_VERSION = "1"
#: sqlite-vec refuses KNN queries with k above 4096.
MAX_K = 4096
#: From this many vector searches on one open index, search an in-memory matrix instead
#: of sqlite-vec (see SeedIndex.vector).
IN_MEMORY_AFTER = 3
#: Most query terms put into one MATCH expression (a pasted page stays a fast query).
MAX_TERMS = 64
#: meta "fts_text": how text was prepared for FTS5. "cjk-spaced": Han and kana characters
#: are one token each (crosslingual.segment_cjk); absent in indexes built before that.
FTS_TEXT = "cjk-spaced"

#: Address space a reader may map (virtual, not resident memory).
MMAP_BYTES = 1 << 30

_CHUNK = 500  # ids per IN (...) lookup


class SeedIndexError(GraphmemError):
    """The seed index cannot be built or read as asked; the message says what to do."""


@dataclass(frozen=True, slots=True)
class SeedRow:
    """One indexed item: a graph node's id, its kind, its text, day and source path."""

    id: str
    kind: str
    text: str
    day: str | None = None
    path: str = ""


# --- connections -------------------------------------------------------------------------


@cache
def sqlite_module() -> ModuleType:
    """The DB-API module used for seed indexes: stdlib ``sqlite3`` if it can load
    extensions, else ``pysqlite3.dbapi2``, else the stdlib anyway (vectors by numpy)."""
    if hasattr(sqlite3.Connection, "enable_load_extension"):
        return sqlite3
    try:
        return importlib.import_module("pysqlite3.dbapi2")
    except ImportError:
        return sqlite3


def _sqlite_vec() -> ModuleType | None:
    """The sqlite_vec package, or None when it is not installed."""
    try:
        return importlib.import_module("sqlite_vec")
    except ImportError:
        return None


def _load_vec(conn: Any) -> bool:
    """Load sqlite-vec into `conn`; False when the package or extension loading is missing."""
    vec = _sqlite_vec()
    if vec is None or not hasattr(conn, "enable_load_extension"):
        return False
    try:
        conn.enable_load_extension(True)
        try:
            vec.load(conn)
        finally:
            conn.enable_load_extension(False)
    except Exception:  # the module's OperationalError, AttributeError on odd builds
        return False
    return True


def connect(path: str | Path, *, readonly: bool = False) -> sqlite3.Connection:
    """Open the SQLite file at `path` with sqlite-vec loaded when possible.

    `readonly` opens it through a ``file:...?mode=ro`` URI, so any write fails.
    Use :func:`vec_available` to learn whether sqlite-vec got loaded.
    """
    module = sqlite_module()
    if readonly:
        # A reader may be used by whichever thread holds graphmem.Memory's lock (one at a
        # time), not only by the thread that opened it.
        uri = Path(path).resolve().as_uri() + "?mode=ro"
        conn = module.connect(uri, uri=True, check_same_thread=False)
    else:
        conn = module.connect(str(path))
    _load_vec(conn)
    return conn  # type: ignore[no-any-return]


def has_table(conn: sqlite3.Connection, name: str, kind: str = "table") -> bool:
    """Does the database on `conn` have a table (or another `kind` of object: "index")
    called `name`? (Older indexes lack some.)"""
    found = conn.execute(
        "SELECT count(*) FROM sqlite_master WHERE type = ? AND name = ?", (kind, name)
    ).fetchone()[0]
    return bool(found)


def top_k(sims: npt.NDArray[np.floating[Any]], k: int) -> npt.NDArray[np.intp]:
    """Indices of the `k` highest values of `sims`, best first, ties by index."""
    if k < len(sims):  # the k best in any order, then only those sorted
        part = np.argpartition(-sims, k - 1)[:k]
        return part[np.lexsort((part, -sims[part]))]
    return np.lexsort((np.arange(len(sims)), -sims))


def vec_available(conn: Any) -> bool:
    """Whether sqlite-vec's functions are loaded in `conn`."""
    try:
        conn.execute("SELECT vec_version()").fetchone()
    except Exception:  # OperationalError of whichever sqlite module made conn
        return False
    return True


# --- the query language ------------------------------------------------------------------

# A term: word characters, possibly joined by identifier punctuation ("relay.maxRetries",
# "connection.update", "max_retries", "2025-11-27", "l'hôtel"). Underscore is a separator
# for unicode61, as for this pattern's parts.
_TERM = re.compile(r"[^\W_]+(?:[._:/@'’\-]+[^\W_]+)*")
_PART = re.compile(r"[^\W_]+")


def _quote(words: Sequence[str]) -> str:
    """An FTS5 string (a phrase when several words); quoting disarms every operator."""
    return '"' + " ".join(words).replace('"', '""') + '"'


def _droppable(word: str) -> bool:
    folded = fold(word)
    return folded in QUERY or (len(folded) == 1 and not folded.isdigit())


def match_expression(question: str) -> str | None:
    """The FTS5 MATCH expression for `question`: an OR of its quoted content words.

    Stop words (en/fr/pt) and single letters are dropped unless nothing else is left.
    A term joined by punctuation ("relay.maxRetries") becomes a phrase, which only
    matches the exact sequence, OR-ed with its parts, which match anywhere; so exact
    identifiers rank first. Chinese words become two-character phrases, and a question in
    fr/pt/de/es/zh also gets English words for its words (graphmem.extract.crosslingual), so it
    can find notes written in English. Returns None when the question has no words at all.
    """
    terms = _TERM.findall(unicodedata.normalize("NFC", strip_cjk(question)))
    content: list[str] = []
    every: list[str] = []
    for term in terms:
        parts = _PART.findall(term)
        if len(parts) > 1:
            content.append(_quote(parts))
            every.append(_quote(parts))
        for part in parts:
            every.append(_quote([part]))
            if not _droppable(part) and not (len(parts) > 1 and part.isdigit() and len(part) < 4):
                content.append(_quote([part]))
    content += [_quote(gram.split()) for gram in cjk_bigrams(question)]
    content += [_quote([w]) for w in translate(question).words if not _droppable(w)]
    chosen = content or every
    if not chosen:
        return None
    # lower(), not casefold(): "ß" must stay "ß" as in unicode61's folding.
    unique = list(dict.fromkeys(expr.lower() for expr in chosen))[:MAX_TERMS]
    return " OR ".join(unique)


# --- the index ---------------------------------------------------------------------------


def _schema(tokenizer: str) -> str:
    return f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE seeds (
    rid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ({", ".join(f"'{kind}'" for kind in sorted(KINDS))})),
    text TEXT NOT NULL,
    day TEXT,
    path TEXT NOT NULL
);
CREATE VIRTUAL TABLE seeds_fts USING fts5(
    text, content='seeds', content_rowid='rid', tokenize='{tokenizer}'
);
CREATE TABLE pending (rid INTEGER PRIMARY KEY);
"""


def _create_vectors(conn: Any, backend: str, dim: int) -> None:
    if backend == "vec0":
        conn.execute(
            "CREATE VIRTUAL TABLE seeds_vec USING vec0("
            f"rid INTEGER PRIMARY KEY, kind TEXT, embedding float[{dim}] "
            "distance_metric=cosine)"
        )
    else:
        conn.execute(
            "CREATE TABLE seeds_vec_blob (rid INTEGER PRIMARY KEY, embedding BLOB NOT NULL)"
        )


def _insert_vectors(
    conn: Any, backend: str, keys: Iterable[tuple[int, str]], matrix: npt.NDArray[np.float32]
) -> None:
    """Insert one vector per (rid, kind) of `keys`, in order."""
    if backend == "vec0":
        conn.executemany(
            "INSERT INTO seeds_vec (rid, kind, embedding) VALUES (?,?,?)",
            ((rid, kind, vec.tobytes()) for (rid, kind), vec in zip(keys, matrix, strict=True)),
        )
    else:
        conn.executemany(
            "INSERT INTO seeds_vec_blob (rid, embedding) VALUES (?,?)",
            ((rid, vec.tobytes()) for (rid, _), vec in zip(keys, matrix, strict=True)),
        )


def _pending_kinds(conn: Any, rids: Sequence[int]) -> dict[int, str]:
    """Kind of each of `rids` that is still pending."""
    found: dict[int, str] = {}
    for start in range(0, len(rids), _CHUNK):
        chunk = list(rids[start : start + _CHUNK])
        marks = ",".join("?" * len(chunk))
        found.update(
            conn.execute(
                "SELECT p.rid, s.kind FROM pending p JOIN seeds s ON s.rid = p.rid"
                f" WHERE p.rid IN ({marks})",
                chunk,
            ).fetchall()
        )
    return found


class SeedIndex:
    """A read-only view of one seed index file. Build with :meth:`build`, read with :meth:`open`."""

    def __init__(self, conn: Any, path: Path) -> None:
        self.conn = conn
        self.path = path
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        if meta.get("schema") != SCHEMA_VERSION:
            raise SeedIndexError(
                f"{path}: seed index schema {meta.get('schema')!r}, expected {SCHEMA_VERSION!r}; "
                "rebuild the index (graphmem index --force)"
            )
        #: "vec0", "numpy" (blobs searched by brute force) or "none" (built without vectors).
        self.backend: str = meta.get("backend", "none")
        self.dim: int = int(meta.get("dim", "0"))
        self.model_id: str | None = meta.get("model_id") or None
        self.tokenizer: str = meta.get("tokenizer", "")
        #: One line for the user when vector search is degraded or off; None when all is well.
        self.notice: str | None = None
        self._matrix: tuple[npt.NDArray[np.float32], npt.NDArray[np.int64], list[str]] | None
        self._matrix = None
        #: Vector searches answered so far (see :meth:`vector`).
        self._searches = 0
        if self.backend == "vec0" and not vec_available(conn):
            self.notice = (
                "vector seeds off: the index was built with sqlite-vec, which cannot be loaded "
                "here; install sqlite-vec (and pysqlite3-binary) or rebuild the index"
            )
        elif self.backend == "numpy":
            self.notice = (
                "vector seeds use brute-force numpy search: sqlite-vec was unavailable when the "
                "index was built"
            )

    # -- building

    @classmethod
    def build(
        cls,
        path: str | Path,
        rows: Iterable[SeedRow],
        vectors: npt.ArrayLike | None = None,
        *,
        model_id: str | None = None,
        tokenizer: str = FTS_TOKENIZER,
        dim: int | None = None,
    ) -> SeedIndex:
        """Write a new index at `path` (replacing any file there atomically) and open it.

        `vectors` holds one row per item of `rows`, in the same order (``(n, dim)``); None
        builds an index without vector search, unless `dim` is given: then the index is
        made for vectors of that size from `model_id` and every row is pending, to be
        filled with :meth:`add_vectors`. `model_id` records which embedder made them.
        Everything is written to a sibling temporary file in one transaction, synced, then
        renamed over `path`, so a crash leaves the previous file untouched.
        """
        path = Path(path)
        items = list(rows)
        for row in items:
            if row.kind not in KINDS:
                raise SeedIndexError(
                    f"seed {row.id!r} has kind {row.kind!r}; expected one of {sorted(KINDS)}"
                )
        matrix = None
        if vectors is not None:
            matrix = np.ascontiguousarray(vectors, dtype=np.float32)
            if matrix.ndim != 2 or matrix.shape[0] != len(items):
                raise SeedIndexError(
                    f"vectors have shape {matrix.shape}; expected ({len(items)}, dim), one per row"
                )
            if not np.isfinite(matrix).all():
                raise SeedIndexError("vectors contain NaN or infinity; re-embed the texts")
        building = path.with_name(f".{path.name}.{os.getpid()}.building")
        building.unlink(missing_ok=True)
        conn = connect(building)
        try:
            cls._write(conn, items, matrix, model_id, tokenizer, dim)
            conn.close()
            fsync_path(building)
            os.replace(building, path)
            fsync_path(path.parent)  # make the rename itself durable
        except BaseException:
            conn.close()
            building.unlink(missing_ok=True)
            raise
        return cls.open(path)

    @staticmethod
    def _write(
        conn: Any,
        items: list[SeedRow],
        matrix: npt.NDArray[np.float32] | None,
        model_id: str | None,
        tokenizer: str,
        pending_dim: int | None = None,
    ) -> None:
        # The file is private until renamed and deleted on failure: no journal needed.
        conn.execute("PRAGMA journal_mode=OFF")
        conn.execute("PRAGMA synchronous=OFF")
        module = sqlite_module()
        dim = int(matrix.shape[1]) if matrix is not None else pending_dim
        backend = "none"
        if dim:
            backend = "vec0" if vec_available(conn) else "numpy"
        conn.isolation_level = None  # explicit BEGIN/COMMIT below; no implicit transactions
        conn.execute("BEGIN")
        for statement in _schema(tokenizer).split(";"):
            if statement.strip():
                conn.execute(statement)
        try:
            conn.executemany(
                "INSERT INTO seeds (rid, id, kind, text, day, path) VALUES (?,?,?,?,?,?)",
                (
                    (rid, row.id, row.kind, row.text, row.day, row.path)
                    for rid, row in enumerate(items, start=1)
                ),
            )
        except module.IntegrityError as exc:
            raise SeedIndexError(f"seed ids must be unique and not empty: {exc}") from None
        conn.executemany(
            "INSERT INTO seeds_fts (rowid, text) VALUES (?, ?)",
            ((rid, segment_cjk(row.text)) for rid, row in enumerate(items, start=1)),
        )
        if dim:
            _create_vectors(conn, backend, dim)
        if matrix is not None:
            _insert_vectors(
                conn, backend, ((rid, row.kind) for rid, row in enumerate(items, start=1)), matrix
            )
        elif dim:
            conn.execute("INSERT INTO pending (rid) SELECT rid FROM seeds")
        meta = {
            "schema": SCHEMA_VERSION,
            "tokenizer": tokenizer,
            "backend": backend,
            "dim": str(dim or 0),
            "model_id": model_id or "",
            "rows": str(len(items)),
            "fts_text": FTS_TEXT,
        }
        conn.executemany("INSERT INTO meta (key, value) VALUES (?,?)", meta.items())
        conn.execute("COMMIT")
        # Merge the FTS b-trees into one: fewer segments per query term.
        conn.execute("INSERT INTO seeds_fts (seeds_fts) VALUES ('optimize')")

    @staticmethod
    def add_vectors(path: str | Path, rids: Sequence[int], vectors: npt.ArrayLike) -> int:
        """Give the pending rows `rids` of the unpublished index at `path` their vectors
        (one per rid, in order), in one transaction; returns how many rows are still
        pending. Rows that are no longer pending (removed meanwhile) are skipped."""
        matrix = np.ascontiguousarray(vectors, dtype=np.float32)
        conn = connect(path)
        try:
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            backend, dim = meta.get("backend", "none"), int(meta.get("dim", "0"))
            if backend == "none" or matrix.shape != (len(rids), dim):
                raise SeedIndexError(
                    f"{path}: index for vectors {backend!r} of dim {dim}; "
                    f"cannot add vectors of shape {matrix.shape} for {len(rids)} rows"
                )
            if backend == "vec0" and not vec_available(conn):
                raise SeedIndexError(f"{path}: sqlite-vec cannot be loaded to add vectors")
            if not np.isfinite(matrix).all():
                raise SeedIndexError("vectors contain NaN or infinity; re-embed the texts")
            conn.isolation_level = None
            conn.execute("BEGIN")
            kinds = _pending_kinds(conn, rids)
            keep = [i for i, rid in enumerate(rids) if rid in kinds]
            _insert_vectors(conn, backend, ((rids[i], kinds[rids[i]]) for i in keep), matrix[keep])
            conn.executemany("DELETE FROM pending WHERE rid = ?", ((rids[i],) for i in keep))
            left = int(conn.execute("SELECT count(*) FROM pending").fetchone()[0])
            conn.execute("COMMIT")
            return left
        finally:
            conn.close()

    @staticmethod
    def pending_rows(path: str | Path) -> list[tuple[int, str, str | None]]:
        """The rows of the index at `path` still waiting for a vector: (rid, text, day)."""
        conn = connect(path, readonly=True)
        try:
            if not has_table(conn, "pending"):
                return []
            rows = conn.execute(
                "SELECT s.rid, s.text, s.day FROM pending p JOIN seeds s ON s.rid = p.rid"
                " ORDER BY s.rid"
            ).fetchall()
            return [(int(rid), str(text), day) for rid, text, day in rows]
        finally:
            conn.close()

    @staticmethod
    def patch(
        path: str | Path,
        remove_paths: Iterable[str],
        rows: Sequence[SeedRow],
        vectors: npt.ArrayLike | None = None,
    ) -> list[str]:
        """Replace, in the index file at `path`, every seed of the files `remove_paths` with
        `rows` (and their `vectors`, one per row); returns the ids removed.

        For an unpublished copy of an index (an incremental build): it writes in place, in
        one transaction. The index must have been built with vectors exactly when `vectors`
        is given.
        """
        conn = connect(path)
        try:
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            backend = meta.get("backend", "none")
            # FTS5 deletes need the text exactly as it was inserted.
            fts_text = segment_cjk if meta.get("fts_text") == FTS_TEXT else str
            matrix = None if vectors is None else np.asarray(vectors, dtype=np.float32)
            dim = int(meta.get("dim", "0"))
            wanted = (len(rows), dim) if backend != "none" else None
            given = None if matrix is None else matrix.shape
            if rows and given != wanted:
                raise SeedIndexError(
                    f"{path}: built with vectors {backend!r} of dim {dim}; cannot patch it "
                    f"with {'no vectors' if given is None else f'vectors of shape {given}'}"
                )
            if backend == "vec0" and not vec_available(conn):
                raise SeedIndexError(f"{path}: sqlite-vec cannot be loaded to patch the index")
            has_pending = has_table(conn, "pending")
            conn.isolation_level = None
            conn.execute("BEGIN")
            removed: list[str] = []
            for source in dict.fromkeys(remove_paths):
                found = conn.execute(
                    "SELECT rid, id, text FROM seeds WHERE path = ?", (source,)
                ).fetchall()
                for rid, seed_id, text in found:
                    conn.execute(
                        "INSERT INTO seeds_fts (seeds_fts, rowid, text) VALUES ('delete', ?, ?)",
                        (rid, fts_text(text)),
                    )
                    conn.execute("DELETE FROM seeds WHERE rid = ?", (rid,))
                    if has_pending:
                        conn.execute("DELETE FROM pending WHERE rid = ?", (rid,))
                    if backend == "vec0":
                        conn.execute("DELETE FROM seeds_vec WHERE rid = ?", (rid,))
                    elif backend == "numpy":
                        conn.execute("DELETE FROM seeds_vec_blob WHERE rid = ?", (rid,))
                    removed.append(seed_id)
            start = int(conn.execute("SELECT coalesce(max(rid), 0) FROM seeds").fetchone()[0]) + 1
            for rid, row in enumerate(rows, start=start):
                if row.kind not in KINDS:
                    raise SeedIndexError(f"seed {row.id!r} has kind {row.kind!r}")
                conn.execute(
                    "INSERT INTO seeds (rid, id, kind, text, day, path) VALUES (?,?,?,?,?,?)",
                    (rid, row.id, row.kind, row.text, row.day, row.path),
                )
                conn.execute(
                    "INSERT INTO seeds_fts (rowid, text) VALUES (?, ?)", (rid, fts_text(row.text))
                )
                if matrix is not None and backend != "none":
                    vec = matrix[rid - start].tobytes()
                    if backend == "vec0":
                        conn.execute(
                            "INSERT INTO seeds_vec (rid, kind, embedding) VALUES (?,?,?)",
                            (rid, row.kind, vec),
                        )
                    else:
                        conn.execute(
                            "INSERT INTO seeds_vec_blob (rid, embedding) VALUES (?,?)", (rid, vec)
                        )
            total = conn.execute("SELECT count(*) FROM seeds").fetchone()[0]
            conn.execute("UPDATE meta SET value = ? WHERE key = 'rows'", (str(total),))
            conn.execute("COMMIT")
            return removed
        finally:
            conn.close()

    # -- reading

    @classmethod
    def open(cls, path: str | Path) -> SeedIndex:
        """Open the index at `path` read-only."""
        path = Path(path)
        if not path.is_file():
            raise SeedIndexError(f"no seed index at {path}; run graphmem index")
        conn = connect(path, readonly=True)
        try:
            # The file is never written after its rename, so mapping it is safe; it cuts
            # exact KNN over 100k x 384 from ~70 ms to ~42 ms (fewer read() calls).
            conn.execute(f"PRAGMA mmap_size={MMAP_BYTES}")
            return cls(conn, path)
        except SeedIndexError:
            conn.close()
            raise
        except Exception as exc:  # not SQLite, or not ours
            conn.close()
            raise SeedIndexError(f"{path} is not a seed index ({exc}); rebuild the index") from None

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    def __enter__(self) -> SeedIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __len__(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM seeds").fetchone()[0])

    def coverage(self) -> tuple[int, int]:
        """(rows with a vector, rows): below 1 while a progressive index is still
        embedding (see graphmem.index.vectorfill); (0, rows) without vectors at all."""
        total = len(self)
        if self.backend == "none":
            return 0, total
        if not has_table(self.conn, "pending"):
            return total, total
        waiting = int(self.conn.execute("SELECT count(*) FROM pending").fetchone()[0])
        return total - waiting, total

    @staticmethod
    def _kind_filter(kinds: set[str] | frozenset[str] | None, column: str) -> tuple[str, list[str]]:
        if kinds is None:
            return "", []
        ordered = sorted(kinds)
        return f" AND {column} IN ({','.join('?' * len(ordered))})", ordered

    def lexical(
        self, query: str, k: int, kinds: set[str] | frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        """The `k` best items for `query` by bm25 over an OR of its content words.

        Scores are ``-bm25`` (higher is better). User text never reaches FTS5 unquoted,
        so punctuation and operators in it cannot cause a syntax error.
        """
        expression = match_expression(query)
        if expression is None or k <= 0 or kinds == set():
            return []
        where, args = self._kind_filter(kinds, "s.kind")
        rows = self.conn.execute(
            "SELECT s.id, bm25(seeds_fts) AS r FROM seeds_fts JOIN seeds s ON s.rid = seeds_fts.rowid"
            f" WHERE seeds_fts MATCH ?{where} ORDER BY r LIMIT ?",
            [expression, *args, k],
        ).fetchall()
        return [(str(id_), -float(score)) for id_, score in rows]

    def vector(
        self, qvec: npt.ArrayLike, k: int, kinds: set[str] | frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        """The `k` items nearest to `qvec` by cosine; scores are similarities in [-1, 1].

        Returns ``[]`` when the index has no vectors or sqlite-vec is missing (see
        :attr:`notice`). A kind filter is applied inside the KNN search, so it still
        returns up to `k` items of the wanted kinds.
        """
        if self.backend == "none" or k <= 0 or kinds == set():
            return []
        query = np.ascontiguousarray(qvec, dtype=np.float32).reshape(-1)
        if query.shape[0] != self.dim:
            raise SeedIndexError(
                f"query vector has {query.shape[0]} dimensions, the index has {self.dim}; "
                f"embed the query with the index's model ({self.model_id or 'unknown'})"
            )
        if not np.isfinite(query).all() or not np.any(query):
            return []
        if self.backend == "numpy":
            return self._vector_numpy(query, k, kinds)
        if self.notice is not None:  # built with vec0, which is missing here
            return []
        self._searches += 1
        if self._searches >= IN_MEMORY_AFTER or self._matrix is not None:
            # A process that keeps asking (the MCP server, watch, a benchmark) holds the
            # vectors in memory: sqlite-vec's exact KNN reads all of them on every search
            # (87 ms at 100k x 384), a matrix product takes 8 ms. One-shot commands (the
            # CLI) never pay the ~1.7 s load.
            return self._vector_numpy(query, k, kinds)
        where, args = self._kind_filter(kinds, "kind")
        rows = self.conn.execute(
            "WITH knn AS (SELECT rid, distance FROM seeds_vec"
            f" WHERE embedding MATCH ? AND k = ?{where})"
            " SELECT s.id, knn.distance FROM knn JOIN seeds s ON s.rid = knn.rid"
            " ORDER BY knn.distance",
            [query.tobytes(), min(k, MAX_K), *args],
        ).fetchall()
        return [(str(id_), 1.0 - float(distance)) for id_, distance in rows]

    def _vector_numpy(
        self, query: npt.NDArray[np.float32], k: int, kinds: set[str] | frozenset[str] | None
    ) -> list[tuple[str, float]]:
        if self._matrix is None:
            table = "seeds_vec" if self.backend == "vec0" else "seeds_vec_blob"
            rows = self.conn.execute(
                f"SELECT s.id, s.kind, b.embedding FROM {table} b"
                " JOIN seeds s ON s.rid = b.rid ORDER BY b.rid"
            ).fetchall()
            ids = [str(r[0]) for r in rows]
            codes = np.array([_KIND_CODES[r[1]] for r in rows], dtype=np.int64)
            raw = np.frombuffer(b"".join(r[2] for r in rows), dtype=np.float32)
            raw = raw.reshape(len(rows), self.dim)
            norms = np.linalg.norm(raw, axis=1, keepdims=True)
            unit = (raw / np.where(norms == 0, 1, norms)).astype(np.float32)
            self._matrix = (unit, codes, ids)
        matrix, codes, ids = self._matrix
        sims = matrix @ (query / np.linalg.norm(query))
        if kinds is not None:
            wanted = [_KIND_CODES[kind] for kind in kinds if kind in _KIND_CODES]
            sims = np.where(np.isin(codes, wanted), sims, -np.inf)
        k = min(k, int(np.isfinite(sims).sum()))
        if k <= 0:
            return []
        return [(ids[i], float(sims[i])) for i in top_k(sims, k)]

    def texts(self, ids: Iterable[str]) -> dict[str, SeedRow]:
        """The rows of those `ids` that are in the index."""
        wanted = list(dict.fromkeys(ids))
        found: dict[str, SeedRow] = {}
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            for id_, kind, text, day, path in self.conn.execute(
                f"SELECT id, kind, text, day, path FROM seeds WHERE id IN ({marks})", chunk
            ):
                found[id_] = SeedRow(id=id_, kind=kind, text=text, day=day, path=path)
        return found

    def vectors(self, ids: Iterable[str]) -> dict[str, npt.NDArray[np.float32]]:
        """The stored embeddings of those `ids` (empty when the index has none)."""
        if self.backend == "none" or (self.notice is not None and self.backend == "vec0"):
            return {}
        wanted = list(dict.fromkeys(ids))
        table = "seeds_vec" if self.backend == "vec0" else "seeds_vec_blob"
        found: dict[str, npt.NDArray[np.float32]] = {}
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            for id_, blob in self.conn.execute(
                f"SELECT s.id, v.embedding FROM seeds s JOIN {table} v ON v.rid = s.rid"
                f" WHERE s.id IN ({marks})",
                chunk,
            ):
                found[id_] = np.frombuffer(blob, dtype=np.float32)
        return found

    def lexical_scores(self, query: str, ids: Iterable[str]) -> dict[str, float]:
        """``-bm25`` of `query` for those `ids` that match it at all (others are absent)."""
        expression = match_expression(query)
        wanted = list(dict.fromkeys(ids))
        if expression is None or not wanted:
            return {}
        found: dict[str, float] = {}
        for start in range(0, len(wanted), _CHUNK):
            chunk = wanted[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            for id_, score in self.conn.execute(
                "SELECT s.id, bm25(seeds_fts) FROM seeds_fts JOIN seeds s ON s.rid = seeds_fts.rowid"
                f" WHERE seeds_fts MATCH ? AND s.id IN ({marks})",
                [expression, *chunk],
            ):
                found[str(id_)] = -float(score)
        return found
