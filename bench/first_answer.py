#!/usr/bin/env python3
"""How soon a CLI ``graphmem index`` answers: the full index from the CLI, watched.

Usage::

    python bench/first_answer.py WORKSPACE "a question" --now 2023-10-22 [--out run.json]

Runs ``graphmem --workspace WORKSPACE index -q`` (standalone, ``GRAPHMEM_RESIDENT=off``,
the package defaults or whatever ``GRAPHMEM_*`` the caller set) in a child process and,
while it runs, polls the workspace's ``CURRENT``: at the first generation published (and
each later one until an answer comes) it runs one cold ``graphmem recall QUESTION --json``
beside the index. It prints, as JSON: the index's wall and CPU seconds and peak RSS
(from ``wait4``), when the first generation was published, when the first recall
returned results (seconds since the index started) and what that recall cost, a
timeline of the child's CPU / RSS / threads with each generation's vector share, and the
stage timings and NER counts of the last generation's meta.json (each generation in the
timeline says whether NER was pending in it). CPU seconds and peak RSS include the index's
forked children (NER beside the first build, dating): Linux counts a reaped child's time
and the larger peak in the parent's ``wait4``. ``.memory/`` is removed first unless
``--keep-memory``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from perf import BASE, Variant, _cli_answers, graphmem_command, proc_sample

from graphmem.config import resolve_settings
from graphmem.store.layout import Store


class _CallerEnv(Variant):
    """The caller's own ``GRAPHMEM_*`` (defaults when none), resident lookup off."""

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env["GRAPHMEM_RESIDENT"] = "off"
        return env


def watch(workspace: Path, question: str, now: date, poll_s: float = 0.25) -> dict[str, Any]:
    """Run the CLI index of `workspace`, watched (see the module docstring)."""
    variant = _CallerEnv(BASE.name, None, None)
    store = Store(resolve_settings(workspace, env={}).memory_dir)
    cmd = [*graphmem_command(), "--workspace", str(workspace), "index", "-q"]
    first_publish = first_answer = None
    first_cli = None
    seen: str | None = None
    timeline: list[dict[str, Any]] = []
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=variant.env())
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            sample = proc_sample(proc.pid)
            if sample is not None:
                sample["t"] = round(time.perf_counter() - started, 2)
                gen = store.current()
                if gen is not None and gen.path.name != seen:
                    seen = gen.path.name
                    sample["generation"] = seen
                    sample["vectors"] = gen.meta().get("vectors")
                    sample["ner"] = (gen.meta().get("ner") or {}).get("state")
                    if first_publish is None:
                        first_publish = sample["t"]
                    if first_answer is None:
                        cli = _cli_answers(workspace, variant, question, now)
                        if cli is not None:
                            first_answer = round(time.perf_counter() - started, 2)
                            first_cli = cli
                timeline.append(sample)
            time.sleep(poll_s)
        wall = time.perf_counter() - started
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"index failed:\n{err.read().decode(errors='replace')}")
    if first_answer is None:
        first_cli = _cli_answers(workspace, variant, question, now)
        first_answer = round(time.perf_counter() - started, 2) if first_cli else None
    final = store.current()
    meta = final.meta() if final is not None else {}
    return {
        "command": cmd,
        "load_avg_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "wall_s": round(wall, 3),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
        "user_s": round(usage.ru_utime, 3),
        "sys_s": round(usage.ru_stime, 3),
        "max_rss_mb": round(usage.ru_maxrss / 1024, 1),
        "first_publish_s": first_publish,
        "first_answer_s": first_answer,
        "first_answer_cli": first_cli,
        "mode": meta.get("mode"),
        "counts": meta.get("counts"),
        "vectors": meta.get("vectors"),
        "timings": meta.get("timings"),
        "ner": meta.get("ner"),
        "timeline": timeline,
    }


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, run, print (and write) the JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("workspace", type=Path)
    ap.add_argument("question")
    ap.add_argument("--now", type=date.fromisoformat, required=True)
    ap.add_argument("--keep-memory", action="store_true", help="do not remove .memory/ first")
    ap.add_argument("--out", type=Path, help="also write the JSON here")
    args = ap.parse_args(argv)
    if not args.keep_memory:
        shutil.rmtree(args.workspace / ".memory", ignore_errors=True)
    result = watch(args.workspace, args.question, args.now)
    text = json.dumps(result, indent=1)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
