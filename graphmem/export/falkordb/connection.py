"""A connection to a FalkorDB server: the only module that imports ``falkordb``.

Server errors come out as :class:`ScaleoutError` naming the statement, like the Kùzu layer's
:class:`~graphmem.errors.QueryError`. Values come back as plain Python (dates as
``datetime.date``), so server rows compare directly with :class:`graphmem.store.db.Rows`.
"""

from __future__ import annotations

from types import TracebackType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from graphmem.export.falkordb.errors import ScaleoutError
from graphmem.store.db import Rows
from graphmem.store.queries import variant

DIALECT = "falkordb"
SCHEMES = ("redis", "rediss", "falkor", "falkors")


def public_url(url: str) -> str:
    """`url` without its password (for reports and errors)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def check_url(url: str) -> None:
    """Refuse a target that is not ``redis://HOST:PORT`` (or rediss/falkor/falkors)."""
    parts = urlsplit(url)
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise ScaleoutError(
            f"push target {url!r} is not a server URL", hint="give one like redis://127.0.0.1:6379"
        )


class Server:
    """One graph on a FalkorDB server (many workspaces share it)."""

    def __init__(self, url: str, graph: str) -> None:
        check_url(url)
        try:
            from falkordb import FalkorDB
        except ImportError as exc:
            raise ScaleoutError(
                "the FalkorDB client is not installed", hint='pip install "graphmem[scaleout]"'
            ) from exc
        self.url = public_url(url)
        self.graph_name = graph
        try:
            self._db = FalkorDB.from_url(url)
            self._db.connection.ping()
        except Exception as exc:  # redis raises its own ConnectionError, not the builtin
            raise ScaleoutError(
                f"cannot reach a FalkorDB server at {self.url}: {exc}",
                hint="start one, or check --to (README, 'Scale-out')",
            ) from None
        self._graph = self._db.select_graph(graph)

    def close(self) -> None:
        """Close the connection pool."""
        self._db.connection.close()

    def __enter__(self) -> Server:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def execute(
        self,
        text: str,
        params: dict[str, Any] | None = None,
        name: str = "cypher",
        *,
        read_only: bool = False,
    ) -> Rows:
        """Run one statement on the graph; server errors become :class:`ScaleoutError`."""
        call = self._graph.ro_query if read_only else self._graph.query
        try:
            result = call(text, params or None)
        except Exception as exc:
            raise ScaleoutError(f"{name} on {self.url} graph {self.graph_name}: {exc}") from None
        columns = [str(h[1]) for h in result.header]
        return Rows(columns, [list(row) for row in result.result_set])

    def run(self, name: str, /, **params: Any) -> Rows:
        """Run a named query as this server's dialect has it (``<name>.falkordb.cypher`` where
        it differs from the Kùzu text), read-only, with exactly its parameters."""
        query = variant(name, DIALECT)
        query.check(params)
        return self.execute(query.text, params, name=name, read_only=True)

    def memory(self) -> dict[str, Any]:
        """Server memory: ``used_memory`` (INFO memory, bytes) and the graph's own breakdown
        (``GRAPH.MEMORY USAGE``, MB)."""
        try:
            info = self._db.connection.info("memory")
        except Exception as exc:
            raise ScaleoutError(f"memory of {self.url}: {exc}") from None
        try:
            usage = self._db.connection.execute_command("GRAPH.MEMORY", "USAGE", self.graph_name)
        except Exception:  # the graph does not exist yet ("empty key")
            usage = {}
        # RESP2 answers a flat [key, value, ...] list, RESP3 a map.
        if isinstance(usage, dict):
            pairs = dict(usage)
        else:
            pairs = dict(zip(usage[::2], usage[1::2], strict=True))
        return {
            "used_memory": int(info["used_memory"]),
            "used_memory_peak": int(info["used_memory_peak"]),
            "graph_mb": pairs,
        }

    def cpu_seconds(self) -> float:
        """CPU seconds the server process has used so far (INFO cpu: user + system)."""
        try:
            info = self._db.connection.info("cpu")
        except Exception as exc:
            raise ScaleoutError(f"cpu of {self.url}: {exc}") from None
        return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])
