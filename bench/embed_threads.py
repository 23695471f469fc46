#!/usr/bin/env python3
"""MiniLM throughput by onnxruntime thread settings, on the texts an index embeds.

Usage::

    python bench/embed_threads.py GEN_SEEDS_SQLITE MODEL_DIR [--rows 256] [--windows 24]

Takes pending texts from a first-publish generation's ``seeds.sqlite`` (rows still waiting
for a vector, then pending windows: what the vector fill embeds), and embeds them with
graphmem's own ``OrtEmbedder`` batching, once per configuration: intra-op threads 1 or 2,
thread spinning on (onnxruntime's default) or off, the CPU memory arena on (default) or off
(``--configs "2,0,1,1;2,0,0,1"``), the graph graphmem keeps (1), the packaged one (0) or
another graph of the same model (2, ``--model PATH``, e.g. a dynamically quantized one; its
vectors are compared with the kept graph's: cosine min and mean). Each configuration runs in a fresh
child process (``--child``), one warm-up batch first; prints wall and CPU seconds (the
child's, all threads), tokens (non-padding), tokens per CPU second and the child's peak RSS,
as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

#: (intra-op threads, spinning, arena, graph): graph 1 is the optimized graph graphmem keeps
#: in the model folder, loaded with optimization off (what the index runs); 0 is the
#: packaged model.onnx optimized at ORT_ENABLE_ALL in the session (nothing saved).
CONFIGS = [(2, 1, 1, 1), (2, 0, 1, 1), (1, 1, 1, 1), (1, 0, 1, 1)]


def texts_of(seeds: Path, rows: int, windows: int) -> list[str]:
    """Pending row texts (up to `rows`) then pending window texts (up to `windows`)."""
    conn = sqlite3.connect(f"file:{seeds}?mode=ro", uri=True)
    try:
        out = [
            r[0]
            for r in conn.execute(
                "SELECT text FROM seeds WHERE rid IN (SELECT rid FROM pending) LIMIT ?", (rows,)
            )
        ]
        out += [r[0] for r in conn.execute("SELECT text FROM windows_pending LIMIT ?", (windows,))]
    finally:
        conn.close()
    return out


def child(
    model_dir: Path, texts: list[str], threads: int, spinning: int, arena: int = 1, graph: int = 1
) -> dict[str, object]:
    """Embed `texts` with one session configuration; the figures."""
    import onnxruntime as ort

    from graphmem.search import embed

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", str(spinning))
    options.enable_cpu_mem_arena = bool(arena)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if graph == 1:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        model = model_dir / embed.OPTIMIZED.format(version=ort.__version__)
    elif graph == 2:  # another graph of the same model (e.g. quantized), --model
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        model = Path(os.environ["EMBED_THREADS_MODEL"])
    else:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        model = model_dir / "model.onnx"
    session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    embedder = embed.OrtEmbedder(session, embed._tokenizer(model_dir), "bench", 384)
    embedder.embed(texts[:8])  # warm-up
    reference = None
    if graph == 2:  # agreement with the graph graphmem runs, on every text
        options1 = ort.SessionOptions()
        options1.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        kept = model_dir / embed.OPTIMIZED.format(version=ort.__version__)
        base = ort.InferenceSession(str(kept), options1, providers=["CPUExecutionProvider"])
        reference = embed.OrtEmbedder(base, embed._tokenizer(model_dir), "bench", 384).embed(texts)
    tokens = sum(sum(e.attention_mask) for e in embedder._tokenizer.encode_batch(texts))
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    started = time.perf_counter()
    vectors = embedder.embed(texts)
    wall = time.perf_counter() - started
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return {
        "threads": threads,
        "spinning": spinning,
        "arena": arena,
        "graph": {1: "kept optimized, opt off", 2: "--model, ORT_ENABLE_ALL"}.get(
            graph, "model.onnx, ORT_ENABLE_ALL"
        ),
        "cosine_to_kept_min": None
        if reference is None
        else round(float(np.min(np.sum(vectors * reference, axis=1))), 5),
        "cosine_to_kept_mean": None
        if reference is None
        else round(float(np.mean(np.sum(vectors * reference, axis=1))), 5),
        "peak_rss_mb": round(r1.ru_maxrss / 1024, 1),
        "peak_rss_before_session_mb": round(rss_before, 1),
        "texts": len(texts),
        "tokens": tokens,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "tokens_per_cpu_s": round(tokens / cpu, 1),
        "tokens_per_wall_s": round(tokens / wall, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """Run every configuration in a child; print one JSON line each."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("seeds", type=Path)
    ap.add_argument("model_dir", type=Path)
    ap.add_argument("--rows", type=int, default=256)
    ap.add_argument("--windows", type=int, default=24)
    ap.add_argument("--model", type=Path, help="the graph for GRAPH 2")
    ap.add_argument("--child", nargs=4, type=int, metavar=("THREADS", "SPINNING", "ARENA", "GRAPH"))
    ap.add_argument(
        "--configs",
        help="THREADS,SPINNING,ARENA,GRAPH separated by ';' (default: 4 configs, see CONFIGS)",
    )
    args = ap.parse_args(argv)
    if args.model:
        os.environ["EMBED_THREADS_MODEL"] = str(args.model)
    texts = texts_of(args.seeds, args.rows, args.windows)
    if args.child:
        print(json.dumps(child(args.model_dir, texts, *args.child)))
        return 0
    configs = CONFIGS
    if args.configs:
        configs = [tuple(int(x) for x in c.split(",")) for c in args.configs.split(";")]
    for threads, spinning, arena, graph in configs:
        cmd = [sys.executable, __file__, str(args.seeds), str(args.model_dir)]
        cmd += ["--rows", str(args.rows), "--windows", str(args.windows)]
        cmd += ["--child", str(threads), str(spinning), str(arena), str(graph)]
        load = os.getloadavg()[0]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        row = json.loads(out)
        row["load_avg_1m"] = [round(load, 2), round(os.getloadavg()[0], 2)]
        print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
