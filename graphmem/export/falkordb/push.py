"""Push a workspace's compiled graph into a shared FalkorDB graph, incrementally.

A push reads the local graph (the current generation of ``.memory/``), asks the server for
the ``id -> hash`` of every node and relationship it holds for the workspace, and sends only
the difference, in batches of ``UNWIND $rows``: relationships that went away are deleted,
then nodes that went away (with whatever still hangs on them), then new and changed nodes,
then new and changed relationships. Each row carries its hash, written in the same statement
as its properties, so the server's manifest always matches its content: a push that dies
half-way leaves a graph the next push repairs, and a push from another machine is correct.
Reading those hashes back is skipped when the local copy of the last push's manifest is one
the server's workspace record still vouches for (:mod:`graphmem.export.falkordb.manifest`).

The server graph is derived, like ``.memory/``: ``force`` deletes the workspace's part of it
and sends everything again. A changed ontology forces that too.
"""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from graphmem.config import Settings
from graphmem.export.falkordb import dialect, manifest
from graphmem.export.falkordb.connection import Server, check_url
from graphmem.export.falkordb.errors import ScaleoutError
from graphmem.export.falkordb.rows import LocalGraph, diff, read_local
from graphmem.export.files import schema_tables
from graphmem.store.current import open_graph
from graphmem.store.layout import Store
from graphmem.store.ontology import schema_hash

Progress = Callable[[str, int, int], None]
DEFAULT_GRAPH = "graphmem"
DEFAULT_BATCH = 1000
WIPE_BATCH = 10_000


@dataclass(frozen=True)
class KindPush:
    """What a push did to one node label or relationship type."""

    kind: str
    local: int  # rows in the local graph
    sent: int  # rows created or replaced on the server
    new: int  # of `sent`, rows the server did not hold
    deleted: int
    unchanged: int


@dataclass(frozen=True)
class PushReport:
    """The outcome of :func:`push_workspace`."""

    workspace: str
    target: str
    graph: str
    generation: str
    forced: bool
    reason: str  # why everything was sent ("" for an incremental push)
    removed: int  # nodes a full push deleted first (their relationships went with them)
    kinds: tuple[KindPush, ...]
    batches: int
    seconds: float
    manifest: str  # where the server's hashes came from: server, cache (vouched for) or none
    phases: dict[str, float]  # seconds: manifest (reading the server's hashes), delete, nodes, rels

    @property
    def sent(self) -> int:
        """Rows created or replaced, over all kinds."""
        return sum(k.sent for k in self.kinds)

    @property
    def deleted(self) -> int:
        """Rows deleted, over all kinds."""
        return sum(k.deleted for k in self.kinds)

    @property
    def changed(self) -> bool:
        """Whether the push changed anything on the server."""
        return bool(self.sent or self.deleted)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-able form (the CLI's ``--json``)."""
        data = asdict(self)
        data["kinds"] = {
            k.kind: {f: v for f, v in asdict(k).items() if f != "kind"} for k in self.kinds
        }
        data.update(sent=self.sent, deleted=self.deleted, changed=self.changed)
        return data


def _batches(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _origin(settings: Settings) -> str:
    return f"{socket.gethostname()}:{settings.workspace.resolve()}"


def ensure_indexes(server: Server) -> None:
    """Create the push's indexes on the graph unless they exist."""
    tables, pairs = schema_tables()
    for statement in dialect.index_statements(tables, pairs):
        try:
            server.execute(statement, name="create index")
        except ScaleoutError as exc:
            if not dialect.already_indexed(str(exc)):
                raise


def remove_workspace(server: Server, workspace: str) -> int:
    """Delete every node (and so relationship) of `workspace` from the graph; return the count."""
    tables, _ = schema_tables()
    removed = 0
    for table in tables:
        while True:
            rows = server.execute(
                dialect.wipe(table.name),
                {"workspace": workspace, "limit": WIPE_BATCH},
                name=f"remove {table.name}",
            )
            count = int(rows.rows[0][0]) if rows.rows else 0
            removed += count
            if count < WIPE_BATCH:
                break
    server.execute(dialect.META_DELETE, {"workspace": workspace}, name="remove workspace record")
    return removed


def _remote(server: Server, text: str, workspace: str, kind: str) -> dict[str, str]:
    rows = server.execute(text, {"workspace": workspace}, name=f"manifest {kind}", read_only=True)
    return {str(k): str(h) for k, h in rows.rows}


def push_graph(
    server: Server,
    local: LocalGraph,
    workspace: str,
    *,
    origin: str,
    generation: str,
    force: bool = False,
    claim: bool = False,
    batch_size: int = DEFAULT_BATCH,
    progress: Progress | None = None,
    cache: Path | None = None,
) -> PushReport:
    """Make the server's part of `workspace` equal `local`; see the module docstring.

    `origin` names where the workspace lives (host and folder): a push refuses to overwrite
    a workspace of the same name pushed from elsewhere unless `claim` (an explicit name).
    `cache` is the file of the local manifest copy (see :mod:`graphmem.export.falkordb.manifest`).
    """
    if batch_size < 1:
        raise ScaleoutError("batch size must be at least 1")
    if not workspace.strip():
        raise ScaleoutError("the workspace needs a name in the graph", hint="pass --as NAME")
    started = time.perf_counter()
    tables, pairs = schema_tables()
    by_name = {t.name: t for t in tables}
    ensure_indexes(server)
    meta = server.execute(dialect.META_GET, {"workspace": workspace}, name="workspace record")
    reason = "--force" if force else ""
    vouched: str | None = None  # the digest the server vouches for, if it is clean
    if meta.rows:
        their_origin, their_schema, their_digest, state = meta.rows[0]
        vouched = their_digest if state == "clean" else None
        if their_origin != origin and not claim:
            raise ScaleoutError(
                f"workspace {workspace!r} on the server was pushed from {their_origin}",
                hint=f"name this one with --as NAME (or --as {workspace} to replace it)",
            )
        if their_schema != schema_hash() and not force:
            reason = "the ontology changed since the last push"
    if reason:
        server.execute(dialect.META_PUSHING, {"workspace": workspace, "origin": origin})
    removed = remove_workspace(server, workspace) if reason else 0
    phases: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(phase: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        phases[phase] = round(now - clock, 3)
        clock = now

    manifests = {kind: local.manifest(kind) for kind in [*local.nodes, *local.rels]}
    rel_types = list(dict.fromkeys(p.rel for p in pairs))
    cached = manifest.load(cache, vouched) if cache and vouched and not reason else None

    def remote(kind: str, text: str) -> dict[str, str]:
        if reason:
            return {}
        if cached is not None:
            return cached.get(kind, {})
        return _remote(server, text, workspace, kind)

    node_diffs = {
        t.name: diff(manifests.get(t.name, {}), remote(t.name, dialect.node_manifest(t)))
        for t in tables
    }
    rel_diffs = {
        r: diff(manifests.get(r, {}), remote(r, dialect.rel_manifest(r))) for r in rel_types
    }
    lap("manifest")

    batches = 0
    params = {"workspace": workspace}
    changes = any(d.send or d.delete for d in [*node_diffs.values(), *rel_diffs.values()])
    if changes and not reason:
        server.execute(dialect.META_PUSHING, {"workspace": workspace, "origin": origin})

    def send(text: str, rows: Sequence[Any], stage: str, name: str, key: str = "rows") -> int:
        nonlocal batches
        done = 0
        for chunk in _batches(rows, batch_size):
            result = server.execute(text, {**params, key: list(chunk)}, name=name)
            batches += 1
            done += len(chunk)
            if key == "rows" and result.rows and int(result.rows[0][0]) != len(chunk):
                raise ScaleoutError(
                    f"{name}: the server took {result.rows[0][0]} of {len(chunk)} rows (an end "
                    "node is missing)",
                    hint="run push --force",
                )
            if progress:
                progress(stage, done, len(rows))
        return done

    for rel, d in rel_diffs.items():
        send(dialect.rel_delete(rel), d.delete, f"delete {rel}", f"delete {rel}", key="ids")
    for table in tables:
        d = node_diffs[table.name]
        send(
            dialect.node_delete(table),
            d.delete,
            f"delete {table.name}",
            f"delete {table.name}",
            key="ids",
        )
    lap("delete")
    for table in tables:
        wanted = set(node_diffs[table.name].send)
        rows = [
            dialect.node_param(r, workspace)
            for r in local.nodes.get(table.name, [])
            if wanted and r.key in wanted
        ]
        send(dialect.node_upsert(table), rows, table.name, f"push {table.name}")
    lap("nodes")
    by_pair: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for rel, d in rel_diffs.items():
        wanted = set(d.send)
        for r in local.rels.get(rel, []) if wanted else []:
            if r.rid in wanted:
                key = (r.pair.rel, r.pair.src, r.pair.dst)
                by_pair.setdefault(key, []).append(dialect.rel_param(r, workspace))
    for pair in pairs:
        stage = f"{pair.rel} {pair.src}->{pair.dst}"
        rows = by_pair.get((pair.rel, pair.src, pair.dst), [])
        send(dialect.rel_upsert(pair, by_name), rows, stage, f"push {stage}")
    lap("rels")

    kinds = [
        KindPush(kind, len(manifests.get(kind, {})), len(d.send), d.new, len(d.delete), d.unchanged)
        for kind, d in [*node_diffs.items(), *rel_diffs.items()]
    ]
    counts = {k.kind: k.local for k in kinds}
    value = manifest.digest(manifests)
    server.execute(
        dialect.META_SET,
        {
            "workspace": workspace,
            "origin": origin,
            "schema": schema_hash(),
            "generation": generation,
            "pushed_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "counts": json.dumps(counts, sort_keys=True),
            "digest": value,
        },
        name="workspace record",
    )
    if cache:
        manifest.save(cache, manifests, value)
    return PushReport(
        workspace=workspace,
        target=server.url,
        graph=server.graph_name,
        generation=generation,
        forced=bool(reason),
        reason=reason,
        removed=removed,
        kinds=tuple(kinds),
        batches=batches,
        seconds=round(time.perf_counter() - started, 3),
        manifest="none" if reason else "cache" if cached is not None else "server",
        phases=phases,
    )


def push_workspace(
    settings: Settings,
    to: str,
    *,
    graph: str = DEFAULT_GRAPH,
    name: str | None = None,
    force: bool = False,
    batch_size: int = DEFAULT_BATCH,
    progress: Progress | None = None,
) -> PushReport:
    """Push the workspace's current index to the FalkorDB server at `to` (``redis://HOST:PORT``),
    into `graph`, as workspace `name` (default: the workspace folder's name)."""
    check_url(to)  # before the local read: a typo fails at once
    generation = Store(settings.memory_dir).current()
    with open_graph(settings) as local_graph:
        local = read_local(local_graph)
    workspace = name or settings.workspace.resolve().name
    with Server(to, graph) as server:
        return push_graph(
            server,
            local,
            workspace,
            origin=_origin(settings),
            generation=generation.name if generation else "",
            force=force,
            claim=name is not None,
            batch_size=batch_size,
            progress=progress,
            cache=manifest.cache_path(settings.memory_dir, server.url, graph, workspace),
        )
