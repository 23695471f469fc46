"""Library calls behind the CLI's read commands: open the current graph, status, Cypher.

Readers open the generation CURRENT names, read-only, so they never wait for (or block) a
running ``index``: that one is writing a new generation beside it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graphmem.config import Settings
from graphmem.errors import ReadOnlyError
from graphmem.index.build import fingerprint_of
from graphmem.parse.blocks import Notice
from graphmem.parse.workspace import discover
from graphmem.store.current import current_generation as current_generation  # re-exported
from graphmem.store.current import open_graph
from graphmem.store.db import Rows
from graphmem.store.layout import Store
from graphmem.store.queries import NamedQuery, get
from graphmem.store.readonly import check_read_only


@dataclass(frozen=True)
class Status:
    """What ``graphmem status`` reports."""

    workspace: str
    generation: str | None
    built_at: str | None
    counts: dict[str, int] = field(default_factory=dict)
    files: int = 0
    stale: tuple[str, ...] = ()
    new: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    warnings: tuple[Notice, ...] = ()
    degraded: tuple[str, ...] = ()
    index_seconds: float | None = None
    #: How the last index was built: "full" or "delta" (a patched copy of the one before).
    index_mode: str | None = None
    #: How much of the index has vectors (items, of, windows, windows_pending); None
    #: without embeddings. Below complete while a progressive index is still embedding.
    vectors: dict[str, int] | None = None

    @property
    def fresh(self) -> bool:
        """True when the index matches every file in the workspace."""
        return self.generation is not None and not (self.stale or self.new or self.deleted)


def status(settings: Settings) -> Status:
    """Counts, freshness against the workspace's files, warnings and degraded features."""
    gen = Store(settings.memory_dir).current()
    files, _ = (
        discover(settings.workspace, settings.extra_paths)
        if settings.workspace.is_dir()
        else ([], [])
    )
    if gen is None:
        return Status(
            str(settings.workspace), None, None, files=len(files), new=tuple(f.path for f in files)
        )
    meta = gen.meta()
    indexed: dict[str, str] = meta.get("fingerprint", {}).get("files", {})
    now = fingerprint_of(files, settings)["files"]
    assert isinstance(now, dict)
    return Status(
        workspace=str(settings.workspace),
        generation=gen.name,
        built_at=meta.get("built_at"),
        counts=meta.get("counts", {}),
        files=len(files),
        stale=tuple(p for p, h in now.items() if p in indexed and indexed[p] != h),
        new=tuple(p for p in now if p not in indexed),
        deleted=tuple(p for p in indexed if p not in now),
        warnings=tuple(Notice(**w) for w in meta.get("warnings", [])),
        degraded=tuple(meta.get("degraded", [])),
        index_seconds=meta.get("seconds"),
        index_mode=meta.get("mode", "full"),
        vectors=meta.get("vectors"),
    )


def run_cypher(
    settings: Settings, text: str, params: dict[str, Any] | None = None, *, write: bool = False
) -> Rows:
    """Run the user's own Cypher; the graph is opened read-only unless `write`."""
    if not write:
        # Kùzu's read-only mode still lets COPY TO, EXPORT and LOAD FROM reach the disk.
        check_read_only(text)
    with open_graph(settings, write=write) as graph:
        return graph.execute(text, params or {}, name="cypher")


def run_named(
    settings: Settings, name: str, params: dict[str, Any], *, write: bool = False
) -> Rows:
    """Run a named query from queries/; one that writes runs only with `write`."""
    query: NamedQuery = get(name)
    query.check(params)
    if query.writes and not write:
        raise ReadOnlyError(f"query {name} writes to the graph; refused without write=True")
    with open_graph(settings, write=query.writes) as graph:
        return graph.run(name, **params)
