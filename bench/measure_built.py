#!/usr/bin/env python3
"""perf.py's measures after the full build, on a workspace that is already indexed.

Usage::

    python bench/measure_built.py WORKSPACE [--queries 50] [--cli-runs 10] [--out run.json]
        [--complete-with-random-vectors]

For a workspace whose full index is too slow to wait for (100k items with embeddings on a
shared machine), a copy of it taken mid-fill (``cp -a``: the delta state names files by
size and mtime) can be measured here: the one-day, new-@Name and new-speaker edits in a
child (:func:`perf.run_index_child`), the one-day and new-@Name edits from the CLI
(:func:`perf.run_cli_index`), in-process hybrid recall against the FTS5 floor, and cold CLI
recall: the same functions perf.py runs after its full index, with embeddings on (the
package's MiniLM).

``--complete-with-random-vectors`` first gives every row and window still pending a
pseudo-random unit vector (seeded by its text) and publishes that as a new generation, so
that vector search covers every item as after a finished fill. **Those vectors carry no
meaning**: the recall latencies are of the right amount of vector data, the answers are
not graphmem's. Nothing here measures quality.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import perf

from graphmem.config import resolve_settings
from graphmem.index import vectorfill
from graphmem.store.layout import Store


def complete_with_random(workspace: Path, dim: int = 384) -> dict[str, Any] | None:
    """Publish a copy of the current generation with a random unit vector for every
    pending row and window; its meta.json "vectors"."""
    store = Store(resolve_settings(workspace, env={}).memory_dir)
    with store.writer_lock():
        gen = store.current()
        if gen is None:
            raise SystemExit(f"{workspace} is not indexed")
        todo = vectorfill._Todo.of(gen.seeds)
        found: dict[str, Any] = {}
        for text in dict.fromkeys(todo.texts()):
            seed = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")
            v = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
            found[text] = v / np.linalg.norm(v)
        new = vectorfill._publish_copy(store, gen, todo, found, dim, None)
        return new.meta().get("vectors")


def main(argv: list[str] | None = None) -> int:
    """Run the measures; print and write the JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("workspace", type=Path)
    ap.add_argument("--queries", type=int, default=50)
    ap.add_argument("--cli-runs", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--complete-with-random-vectors", action="store_true")
    args = ap.parse_args(argv)
    ws: Path = args.workspace
    variant = perf.EMBED
    settings = variant.settings(ws)
    result: dict[str, Any] = {"workspace": str(ws), "load_avg_1m": [os.getloadavg()[0]]}

    def save(step: str) -> None:
        print(f"measure_built: {step} (load {os.getloadavg()[0]:.1f})", file=sys.stderr)
        if args.out:
            args.out.write_text(json.dumps(result, indent=1, default=str) + "\n")

    if args.complete_with_random_vectors:
        result["random_vectors"] = complete_with_random(ws)
        save("random vectors published")
    now = perf.last_day(ws)
    questions = perf.build_questions(ws, args.queries, seed=args.seed)
    result["now"] = now.isoformat()
    result["questions"] = questions
    recall, recall_cpu, recaller = perf.measure_recall(settings, questions, now)
    fts = perf.measure_fts(settings, questions)
    result.update(
        recall_ms=recall,
        recall_cpu_ms=recall_cpu,
        recaller=recaller,
        fts_ms=fts,
        recall_over_fts_p95=round(recall["p95"] / fts["p95"], 1) if fts["p95"] else None,
        recall_over_fts_p50=round(recall["p50"] / fts["p50"], 1) if fts["p50"] else None,
    )
    save("in-process recall and FTS5")
    cli, cli_cpu = perf.measure_cli(ws, variant, questions, now, args.cli_runs)
    result.update(cli_recall_ms=cli, cli_recall_cpu_ms=cli_cpu)
    save("cold CLI recall")
    result["cli_incremental"] = perf.run_cli_index(ws, variant, perf.append_to_mid_log)
    save("CLI one-day edit")
    result["cli_new_name"] = perf.run_cli_index(ws, variant, perf.append_other_name)
    save("CLI new @Name")
    for key, edit in (("new_name", perf.append_new_name), ("new_speaker", perf.append_new_speaker)):
        edit(ws)
        run = perf.run_index_child(ws, variant, force=False)
        result[key] = {
            "s": round(run.seconds, 3),
            "cpu_s": round(run.cpu, 3),
            "wall_s": round(run.wall, 3),
            "max_rss_mb": run.max_rss_mb,
            "mode": run.report["mode"],
            "timings": run.report["timings"],
        }
        save(key)
    result["load_avg_1m"].append(os.getloadavg()[0])
    save("done")
    print(json.dumps({k: v for k, v in result.items() if k != "questions"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
