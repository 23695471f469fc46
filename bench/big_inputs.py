"""The big-input figures of issue 31: one daily log of N MB (one repeated chat line, or
varied lines), indexed from scratch with the models off or on; wall and CPU seconds.

    nice -n 5 python bench/big_inputs.py --mb 50 --models off
    nice -n 5 python bench/big_inputs.py --mb 50 --models on --varied
    nice -n 5 python bench/big_inputs.py --opinions 20000 --models off [--varied]

CPU counts this process and its forked children (a full build runs parts beside itself).
The workspace is made in a temporary folder and removed afterwards.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

LINE = "23:11 peter: we should move the standup to 10, the tram is always late on Mondays\n"
WORDS = "tram standup Lisbon Porto coffee relay billing Marta Andy deploy atlas castle".split()


def write_log(path: Path, mb: float, varied: bool) -> int:
    """A log of `mb` MiB at `path`; its size in bytes."""
    target = int(mb * 1024 * 1024)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        out.write("# 2025-12-01\n\n")
        size, i = 0, 0
        while size < target:
            if varied:
                a, b = WORDS[i % len(WORDS)], WORDS[(i * 7 + 3) % len(WORDS)]
                line = f"{i // 60 % 24:02d}:{i % 60:02d} peter: {a} then {b} number {i}\n"
            else:
                line = LINE
            out.write(line)
            size += len(line)
            i += 1
    return path.stat().st_size


def write_opinions(path: Path, n: int, varied: bool) -> int:
    """`n` opinion bullets about Peter in one Retain section; their size in bytes."""
    import random

    rng = random.Random(1)
    forms = ("Prefers {} over {}.", "Likes {} and {}.", "Hates {}.", "Thinks {} beats {}.")
    lines = ["# 2025-12-01", "", "## Retain"]
    for i in range(n):
        if varied:
            text = rng.choice(forms).format(*rng.sample(WORDS, 2))
        else:
            text = f"Prefers option {i} for the weekly report."
        lines.append(f"- O(c=0.{i % 9 + 1}) @Peter: {text}")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path.stat().st_size


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=50.0)
    parser.add_argument("--models", choices=("off", "on"), default="off")
    parser.add_argument("--varied", action="store_true", help="distinct lines, not one line")
    parser.add_argument(
        "--opinions",
        type=int,
        default=0,
        help="instead of a chat log: this many `O(c=…) @Peter` bullets in one Retain section "
        "(--varied: drawn from three dozen words, so that each shares words with many)",
    )
    args = parser.parse_args()
    if args.models == "off":
        os.environ["GRAPHMEM_NER_MODEL"] = "none"
        os.environ["GRAPHMEM_EMBED_MODEL"] = "none"
    from graphmem.config import resolve_settings
    from graphmem.index.build import index_workspace

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        log = root / "memory" / "2025-12-01.md"
        if args.opinions:
            size = write_opinions(log, args.opinions, args.varied)
        else:
            size = write_log(log, args.mb, args.varied)
        settings = resolve_settings(root)
        wall, used = time.perf_counter(), cpu()
        report = index_workspace(settings)
        out = {
            "mb": round(size / 1024 / 1024, 1),
            "opinions": args.opinions,
            "models": args.models,
            "varied": args.varied,
            "wall_s": round(time.perf_counter() - wall, 1),
            "cpu_s": round(cpu() - used, 1),
            "timings": report.timings,
            "counts": report.counts,
            "warnings": [str(w) for w in report.warnings][:3],
            "degraded": list(report.degraded),
        }
    json.dump(out, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
