#!/usr/bin/env python3
"""Cold CLI commands with and without a resident ``graphmem daemon``, on an indexed workspace.

Usage::

    python bench/resident.py WS --questions FILE.jsonl --now 2026-06-12 [--runs 20] [--edits 5]
    python bench/resident.py WS --now 2016-06-01          # questions built as perf.py does

For each mode (``standalone``: ``GRAPHMEM_RESIDENT=off``; ``resident``: a daemon started
for WS, waited on until its index and model are loaded, stopped at the end; ``auto``:
``GRAPHMEM_RESIDENT=on`` and no daemon, so the first cold call answers in-process and
starts one in the background that later calls use once it is warm, stopped at the end)
it measures:

* cold CLI recall: ``graphmem --workspace WS recall Q --k 10 --json --now DAY`` as a fresh
  process, `--runs` questions: wall time, the process's own CPU (``wait4``), the daemon's
  CPU for that call (``/proc/PID/stat``), and their sum;
* one-day incremental from the CLI: append one line to the middle daily log, then
  ``graphmem --workspace WS index -q``, `--edits` times: the same four figures;
* whether each recall printed the same bytes as the other mode (the outputs are compared);
* in ``auto`` mode, the first call's wall time apart, and how many calls the daemon served.

The 1-minute load average is recorded before and after each mode. Models follow the
environment and the workspace's config, as a user's CLI would (``GRAPHMEM_*``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from datetime import date
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from perf import (  # bench/ is not a package: found through sys.path
    append_to_mid_log,
    build_questions,
    run_child,
    summary_ms,
)


def ping(workspace: Path) -> dict[str, Any] | None:
    """The daemon's answer for `workspace` (imported here: ``--modes standalone`` also
    measures commits that have no daemon)."""
    from graphmem.surfaces.daemon.protocol import socket_path
    from graphmem.surfaces.daemon.server import ping as ping_socket

    return ping_socket(socket_path(str(workspace)))


TICKS = os.sysconf("SC_CLK_TCK")


def graphmem_command() -> list[str]:
    """``python -m graphmem``: the graphmem this interpreter imports (an installed script
    may predate the entry point that asks a daemon first)."""
    return [sys.executable, "-m", "graphmem"]


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) process `pid` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def start_daemon(workspace: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """``graphmem daemon`` for `workspace`, once its index and models are loaded."""
    proc = subprocess.Popen(
        [*graphmem_command(), "--workspace", str(workspace), "daemon", "--idle", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        answer = ping(workspace)
        # warm, and (a daemon that reports it) with its NER pipeline loaded too: the
        # resident figures are those of a daemon that has finished warming up
        if answer is not None and answer.get("warm") and answer.get("ner", True):
            return proc
        if proc.poll() is not None:
            raise RuntimeError(f"the daemon exited with {proc.returncode}")
        time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the daemon did not answer within 600 s")


def stop_any(workspace: Path, env: dict[str, str]) -> None:
    """Stop the daemon of `workspace`, if one runs (``graphmem daemon --stop``)."""
    cmd = [*graphmem_command(), "--workspace", str(workspace), "daemon", "--stop"]
    subprocess.run(cmd, env=env, capture_output=True, check=False, timeout=120)


def timed_command(
    cmd: Sequence[str], env: dict[str, str], daemon: int | None
) -> tuple[bytes, float, float, float]:
    """stdout, wall s, the process's CPU s, the daemon's CPU s during it."""
    before = proc_cpu(daemon) if daemon else 0.0
    out, wall, usage = run_child(cmd, env, what=" ".join(cmd[-4:]))
    after = proc_cpu(daemon) if daemon else 0.0
    return out, wall, usage.ru_utime + usage.ru_stime, after - before


def summary(walls: list[float], own: list[float], daemon: list[float]) -> dict[str, Any]:
    """p50/p95 of each figure, in ms."""
    return {
        "wall_ms": summary_ms(walls),
        "cpu_ms": summary_ms(own),
        "daemon_cpu_ms": summary_ms(daemon),
        "total_cpu_ms": summary_ms([a + b for a, b in zip(own, daemon, strict=True)]),
    }


@contextlib.contextmanager
def mode_env(
    workspace: Path, resident: bool, env: dict[str, str] | None, mode: str = ""
) -> Iterator[tuple[dict[str, str], int | None]]:
    """The environment of one mode, and the pid of its daemon (started and stopped here;
    in ``auto`` mode a client starts it, and it is stopped here)."""
    env = dict(os.environ if env is None else env)
    env.pop("GRAPHMEM_RESIDENT", None)
    if mode == "auto":
        env["GRAPHMEM_RESIDENT"] = "on"
        try:
            yield env, None
        finally:
            stop_any(workspace, env)
        return
    if not resident:
        env["GRAPHMEM_RESIDENT"] = "off"
        yield env, None
        return
    proc = start_daemon(workspace, env)
    try:
        yield env, proc.pid
    finally:
        proc.terminate()
        proc.wait(120)


def measure_recall(
    workspace: Path,
    questions: Sequence[str],
    now: date,
    runs: int,
    env: dict[str, str],
    pid: int | None,
    auto: bool = False,
) -> tuple[dict[str, Any], list[bytes]]:
    """`runs` cold CLI recalls: the figures and each one's stdout (in `auto` mode also the
    first call's wall time, the later calls' figures, and how many the daemon served)."""
    base = [*graphmem_command(), "--workspace", str(workspace), "recall"]
    outputs: list[bytes] = []
    walls: list[float] = []
    own: list[float] = []
    spent: list[float] = []
    for i in range(runs):
        cmd = [
            *base,
            questions[i % len(questions)],
            "--k",
            "10",
            "--json",
            "--now",
            now.isoformat(),
        ]
        # auto mode: the daemon a client started, once it answers
        daemon = pid if pid is not None or not auto else (ping(workspace) or {}).get("pid")
        out, wall, cpu, dcpu = timed_command(cmd, env, daemon)
        outputs.append(out)
        walls.append(wall)
        own.append(cpu)
        spent.append(dcpu)
    figures = summary(walls, own, spent)
    if auto and runs > 1:
        figures["first_wall_ms"] = round(walls[0] * 1000)
        figures["later"] = summary(walls[1:], own[1:], spent[1:])
        figures["served"] = int((ping(workspace) or {}).get("commands", 0))
    return figures, outputs


def measure_edits(
    workspace: Path, edits: int, env: dict[str, str], pid: int | None
) -> dict[str, Any]:
    """`edits` times: append a line to the middle day's log, then ``graphmem index -q``."""
    walls: list[float] = []
    own: list[float] = []
    spent: list[float] = []
    for _ in range(edits):
        append_to_mid_log(workspace)
        cmd = [*graphmem_command(), "--workspace", str(workspace), "index", "-q"]
        _, wall, cpu, dcpu = timed_command(cmd, env, pid)
        walls.append(wall)
        own.append(cpu)
        spent.append(dcpu)
    return summary(walls, own, spent)


def measure_modes(
    workspace: Path,
    questions: Sequence[str],
    now: date,
    runs: int,
    edits: int,
    modes: Sequence[str] = ("standalone", "resident"),
    env: dict[str, str] | None = None,
) -> list[dict[str, Any]]:
    """Each mode's recalls, all on the same index (so their outputs compare), then each
    mode's edits, each mode with a daemon of its own (started anew)."""
    rows: list[dict[str, Any]] = []
    for mode in modes:
        load = os.getloadavg()[0]
        with mode_env(workspace, mode == "resident", env, mode) as (menv, pid):
            auto = mode == "auto"
            recall, outputs = measure_recall(workspace, questions, now, runs, menv, pid, auto)
        rows.append(
            {
                "mode": mode,
                "recall": recall,
                "outputs": [o.decode("utf-8", "replace") for o in outputs],
                "load_avg_1m": [round(load, 2), round(os.getloadavg()[0], 2)],
            }
        )
    for row in rows:
        mode = row["mode"]
        with mode_env(workspace, mode == "resident", env, mode) as (menv, pid):
            if mode == "auto":  # the first edit runs in-process and starts the daemon
                first = measure_edits(workspace, 1, menv, None)
                daemon = (ping(workspace) or {}).get("pid")
                row["incremental_first"] = first
                row["incremental"] = measure_edits(workspace, edits, menv, daemon)
            else:
                row["incremental"] = measure_edits(workspace, edits, menv, pid)
    return rows


def runs_of(row: dict[str, Any]) -> int:
    return len(row["outputs"])


def questions_from(path: Path) -> list[str]:
    """The ``question`` of every line of a JSONL file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line)["question"] for line in lines if line.strip()]


def main(argv: Sequence[str] | None = None) -> int:
    """Measure both modes; print a table, write JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("workspace", type=Path, help="an indexed workspace (it gets edited)")
    ap.add_argument("--questions", type=Path, help="JSONL with a 'question' field")
    ap.add_argument("--now", type=date.fromisoformat, required=True)
    ap.add_argument("--runs", type=int, default=20, help="cold recall processes per mode")
    ap.add_argument("--edits", type=int, default=5, help="one-day index runs per mode")
    ap.add_argument("--modes", default="standalone,resident")
    ap.add_argument("--out", type=Path)
    args = ap.parse_args(argv)
    workspace = args.workspace.resolve()
    qs = questions_from(args.questions) if args.questions else build_questions(workspace, 50)
    rows = measure_modes(workspace, qs, args.now, args.runs, args.edits, args.modes.split(","))
    for row in rows[1:]:
        pairs = zip(rows[0]["outputs"], row["outputs"], strict=True)
        same = sum(a == b for a, b in pairs)
        print(
            f"recall outputs identical in {rows[0]['mode']} and {row['mode']}: "
            f"{same} of {len(row['outputs'])}"
        )
    print(
        "| mode | load before / after | recall wall p50 / p95 ms | recall CPU p50 / p95 ms"
        " (client + daemon) | incr. wall p50 / p95 ms | incr. CPU p50 / p95 ms (client + daemon) |"
    )
    print("|---|---|---|---|---|---|")
    for r in rows:
        rec, inc = r["recall"], r["incremental"]

        def pair(s: dict[str, float]) -> str:
            return f"{s['p50']:.0f} / {s['p95']:.0f}"

        print(
            f"| {r['mode']} | {r['load_avg_1m'][0]} / {r['load_avg_1m'][1]} "
            f"| {pair(rec['wall_ms'])} | {pair(rec['total_cpu_ms'])} "
            f"({pair(rec['cpu_ms'])} + {pair(rec['daemon_cpu_ms'])}) "
            f"| {pair(inc['wall_ms'])} | {pair(inc['total_cpu_ms'])} "
            f"({pair(inc['cpu_ms'])} + {pair(inc['daemon_cpu_ms'])}) |"
        )
    for r in rows:
        if "first_wall_ms" in r["recall"]:
            later = r["recall"]["later"]["wall_ms"]
            print(
                f"{r['mode']}: first call {r['recall']['first_wall_ms']} ms wall; later calls "
                f"p50 / p95 {later['p50']:.0f} / {later['p95']:.0f} ms; "
                f"{r['recall']['served']} of {runs_of(r) - 1} later calls served by the daemon"
            )
    if args.out:
        args.out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
