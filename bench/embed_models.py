"""Speed of the embedding models on real text: load, one query, and indexing throughput.

    python bench/embed_models.py --models minilm-int8,e5-small \
        --texts ../shared/bench/clawd-dev/ws --texts /tmp/locomo/conv-30 --queries 30

For each model, in a fresh child process each (so loading is cold and nothing is shared):
load time, the first query, the median of the next `--queries` queries (questions from
the workspace's questions.jsonl, else its first lines), and texts/s embedding the seed
texts graphmem indexes for that workspace (facts, opinions, passages and windows), in the
order and batches the index uses. Prints one JSON object per (model, workspace).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def child(model: str, root: Path, queries: int) -> dict[str, object]:
    import shutil
    import tempfile
    from dataclasses import replace

    from graphmem.config import resolve_settings
    from graphmem.index import seedstage
    from graphmem.index.build import index_workspace
    from graphmem.search.embed import embed_queries, load_embedder

    # The texts an index embeds: index a scratch copy without embeddings and keep what
    # seed_vectors was given (rows, then windows).
    texts: list[str] = []
    original = seedstage.seed_vectors

    def capture(settings: object, given: list[str], *a: object, **k: object) -> object:
        texts.extend(given)
        return original(settings, given, *a, **k)  # type: ignore[arg-type]

    seedstage.seed_vectors = capture  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp) / "ws"
        shutil.copytree(root, scratch, ignore=shutil.ignore_patterns(".memory"))
        settings = replace(resolve_settings(scratch, env={}), ner_model=None, embed_model=None)
        index_workspace(settings)
    seedstage.seed_vectors = original  # type: ignore[assignment]
    qfile = root / "questions.jsonl"
    if qfile.is_file():
        asked = [json.loads(line)["question"] for line in qfile.open(encoding="utf-8")]
    else:
        asked = texts
    started = time.perf_counter()
    embedder, notice = load_embedder(model)
    load_s = time.perf_counter() - started
    if embedder is None:
        return {"model": model, "workspace": root.name, "notice": notice}
    started = time.perf_counter()
    embed_queries(embedder, [asked[0]])
    first_ms = (time.perf_counter() - started) * 1000
    took = []
    for question in asked[1 : queries + 1]:
        started = time.perf_counter()
        embed_queries(embedder, [question])
        took.append((time.perf_counter() - started) * 1000)
    started = time.perf_counter()
    for start in range(0, len(texts), 256):  # embed_cached's batches
        embedder.embed(texts[start : start + 256])
    index_s = time.perf_counter() - started
    return {
        "model": model,
        "workspace": root.name,
        "threads": os.environ.get("OMP_NUM_THREADS"),
        "load_s": round(load_s, 2),
        "first_query_ms": round(first_ms, 1),
        "query_p50_ms": round(statistics.median(took), 1) if took else None,
        "texts": len(texts),
        "mean_chars": round(sum(map(len, texts)) / max(1, len(texts))),
        "index_s": round(index_s, 1),
        "texts_per_s": round(len(texts) / index_s, 1) if index_s else None,
        "load_avg": os.getloadavg()[0],
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", default="minilm-int8,e5-small")
    ap.add_argument("--texts", action="append", type=Path, required=True, help="a workspace")
    ap.add_argument("--queries", type=int, default=30)
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], Path(args.child[1]), args.queries)))
        return 0
    for root in args.texts:
        for model in args.models.split(","):
            cmd = [sys.executable, __file__, "--texts", str(root), "--queries", str(args.queries)]
            out = subprocess.run(
                [*cmd, "--child", model, str(root)], capture_output=True, text=True, check=False
            )
            print(out.stdout.strip() or out.stderr.strip()[-500:], flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
