"""The database layer: the only module that imports ``kuzu``.

Every engine error comes out as a :class:`QueryError` naming the query. Databases are opened
with an explicit buffer pool (Kùzu's default reserves ~80% of RAM) and a bounded
``max_db_size`` (the default reserves ~8 TB of virtual memory).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import kuzu

from graphmem.errors import QueryError, ReadOnlyError
from graphmem.store.ontology import schema_statements
from graphmem.store.queries import NamedQuery, get

MAX_DB_SIZE = 1 << 40  # 1 TiB of address space: plenty, and far below the 8 TB default


@dataclass(frozen=True)
class Rows:
    """A query result: column names and rows of plain Python values."""

    columns: list[str]
    rows: list[list[Any]]

    def dicts(self) -> list[dict[str, Any]]:
        """Rows as dicts keyed by column name."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]


class Graph:
    """An open Kùzu database with one connection."""

    def __init__(self, path: Path, *, read_only: bool, buffer_pool_mb: int = 256) -> None:
        self.path = path
        self.read_only = read_only
        try:
            self._db = kuzu.Database(
                str(path),
                read_only=read_only,
                buffer_pool_size=buffer_pool_mb * 1024 * 1024,
                max_db_size=MAX_DB_SIZE,
            )
            self._conn = kuzu.Connection(self._db)
        except RuntimeError as exc:
            raise QueryError(f"cannot open the graph at {path}: {exc}") from exc
        #: Named queries prepared once on a read-only graph (a prepare is ~5 ms of Kùzu's
        #: planner; recall runs the same few queries for every question). A writer's are
        #: not kept: a schema change would leave them planned against the old catalog.
        self._prepared: dict[str, kuzu.PreparedStatement] = {}

    @classmethod
    def create(cls, path: Path, buffer_pool_mb: int = 256) -> Graph:
        """A new database at `path` with the ontology applied."""
        graph = cls(path, read_only=False, buffer_pool_mb=buffer_pool_mb)
        for statement in schema_statements():
            graph.execute(statement, name="ontology")
        return graph

    def close(self) -> None:
        """Close the connection and database (checkpointing a writer's WAL)."""
        self._prepared.clear()  # freed before the connection they were prepared on
        self._conn.close()
        self._db.close()

    def __enter__(self) -> Graph:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def execute(
        self,
        text: str | kuzu.PreparedStatement,
        params: dict[str, Any] | None = None,
        name: str = "cypher",
    ) -> Rows:
        """Run one statement (text, or one `prepare` made); engine errors become
        :class:`QueryError`."""
        failure: str | None = None
        try:
            results = self._conn.execute(text, params or {})
        except RuntimeError as exc:
            failure = str(exc)
        except UnicodeDecodeError as exc:
            # Kùzu quoted bytes of a binary file in its message (LOAD FROM a binary).
            failure = _undecodable(exc)
        if failure is not None:
            # Raised outside the except block on purpose: a traceback chained to Kùzu's
            # error keeps its half-made result alive past close(), and freeing it then
            # crashes the process.
            if "read-only" in failure:
                raise ReadOnlyError(
                    f"{name}: the graph is open read-only; pass --write to change it "
                    "(changes last until the next index)"
                )
            raise QueryError(f"{name}: {failure}")
        # Several statements in one string give a list; it must stay referenced while the
        # last result is read (dropping it frees the results underneath: a segfault).
        result = results[-1] if isinstance(results, list) else results
        columns = result.get_column_names()
        rows: list[list[Any]] = []
        try:
            while result.has_next():
                rows.append(cast(list[Any], result.get_next()))
        except RuntimeError as exc:
            failure = str(exc)
        except UnicodeDecodeError as exc:
            failure = _undecodable(exc)
        if failure is not None:
            raise QueryError(f"{name}: {failure}")
        return Rows(columns, rows)

    def run(self, name: str, /, **params: Any) -> Rows:
        """Run the named query from queries/ with exactly its parameters."""
        query: NamedQuery = get(name)
        query.check(params)
        if not self.read_only:
            return self.execute(query.text, params, name=name)
        prepared = self._prepared.get(name)
        if prepared is None:
            try:
                with warnings.catch_warnings():
                    # 0.11.3 (the last release: Kùzu is archived) deprecates a separate
                    # prepare in favour of execute(), which plans the query every time.
                    warnings.simplefilter("ignore", DeprecationWarning)
                    prepared = self._conn.prepare(query.text)
            except RuntimeError as exc:
                raise QueryError(f"{name}: {exc}") from None
            if not prepared.is_success():
                raise QueryError(f"{name}: {prepared.get_error_message()}")
            self._prepared[name] = prepared
        return self.execute(prepared, params, name=name)

    def copy_csv(self, table: str, csv_path: Path, pair: tuple[str, str] | None = None) -> None:
        """Bulk-load a CSV (header row, stdlib csv quoting) into a node or relationship table."""
        # The stdlib csv module's dialect, spelled out: with Kùzu's default (a backslash
        # escape, chosen per file) "\\" in a quoted field read back as "\" and a NUL broke
        # the file; "neither QUOTE nor ESCAPE is proceeded by ESCAPE" is about that escape.
        options = ["header=true", "parallel=false", "auto_detect=false", "delim=','"]
        options += ["quote='\"'", "escape='\"'"]
        if pair:
            options += [f"from='{pair[0]}'", f"to='{pair[1]}'"]
        path = csv_path.as_posix().replace("'", "\\'")
        self.execute(f"COPY `{table}` FROM '{path}' ({', '.join(options)})", name=f"copy {table}")

    def begin(self) -> None:
        """Start an explicit transaction."""
        self.execute("BEGIN TRANSACTION", name="begin")

    def commit(self) -> None:
        """Commit the explicit transaction."""
        self.execute("COMMIT", name="commit")

    def stream(self, text: str, params: dict[str, Any] | None = None) -> Iterator[list[Any]]:
        """Yield rows one by one (for large exports)."""
        results = self._conn.execute(text, params or {})
        result = results[-1] if isinstance(results, list) else results
        while result.has_next():
            yield cast(list[Any], result.get_next())


def _undecodable(exc: UnicodeDecodeError) -> str:
    """Kùzu's message (or value) that was not UTF-8, readable, with what to check."""
    raw = exc.object if isinstance(exc.object, bytes) else bytes(exc.object)
    text = raw.decode("utf-8", errors="replace").splitlines()
    first = text[0][:200] if text else ""
    return f"{first} (the data is not UTF-8 text: is the file binary?)"
