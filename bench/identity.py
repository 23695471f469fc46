"""Dump what graphmem produces on the sample and the Clawd-style dev sets, and compare dumps.

A refactoring that only moves code must not change a single output. This script records,
for ``fixtures/sample`` and copies of ``../shared/bench/clawd-dev/ws`` and ``cafe/ws``:

- every table of the published index (``tests/snapshot.py``'s :func:`take`: every graph
  label's rows, the seed index's tables, the content part of ``meta.json``),
- the top 25 recall packets (source, kind, score) of every question of the two dev sets,
  asked at its ``asked_at``,
- the opinions after ``reflect --since 400d`` at each set's reflection day, with their
  confidence, status and evidence,

through the library's one facade (:class:`graphmem.memory.Memory`), whose import path does
not move. Models as by default (embeddings and NER on when installed).

    python bench/identity.py dump before.json
    python bench/identity.py compare before.json after.json     # exit 1 when they differ
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))  # snapshot.py, the tests' table reader

from snapshot import take  # noqa: E402

from graphmem.memory import Memory  # noqa: E402

#: set -> (workspace, questions file or None, reflection day)
SETS = {
    "sample": ("fixtures/sample", None, "2025-12-15"),
    "clawd-dev": ("clawd-dev/ws", "clawd-dev/questions.jsonl", "2026-06-12"),
    "cafe": ("cafe/ws", "cafe/questions.jsonl", "2026-09-28"),
}


def _shared() -> Path:
    for up in HERE.parents:
        if (up / "shared" / "bench").is_dir():
            return up / "shared" / "bench"
    raise SystemExit("identity: ../shared/bench not found beside the checkout")


def _plain(value: Any) -> Any:
    """JSON-able and order-free (tables are multisets: rows sorted by their JSON)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, str | int | bool) or value is None:
        return value
    return str(value)


def dump_set(name: str, scratch: Path) -> dict[str, Any]:
    """Index a fresh copy of one set and read back everything it produces."""
    ws_rel, questions_rel, reflect_day = SETS[name]
    source = REPO / ws_rel if name == "sample" else _shared() / ws_rel
    ws = scratch / name
    shutil.copytree(source, ws)
    out: dict[str, Any] = {}
    with Memory(ws) as memory:
        memory.index(force=True)
        snap = take(memory.settings)
        out["tables"] = {
            table: sorted(json.dumps(_plain(r), sort_keys=True) for r in rows)
            for table, rows in sorted(snap.tables.items())
        }
        if questions_rel:
            qfile = _shared() / questions_rel
            recall: dict[str, Any] = {}
            for line in qfile.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                q = json.loads(line)
                packets = memory.recall(q["question"], 25, now=q["asked_at"][:10])
                recall[q["id"]] = [[p.source, p.kind, round(p.score, 6)] for p in packets]
            out["recall"] = recall
        memory.reflect("400d", dry_run=False, now=reflect_day)
        out["opinions"] = sorted(
            json.dumps(_plain(o.to_dict()), sort_keys=True) for o in memory.opinions()
        )
    return out


def compare(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Human-readable differences between two dumps ([] when identical)."""
    problems: list[str] = []
    for name in sorted(set(a) | set(b)):
        if name not in a or name not in b:
            problems.append(f"{name}: only in one dump")
            continue
        for part in sorted(set(a[name]) | set(b[name])):
            left, right = a[name].get(part), b[name].get(part)
            if left == right:
                continue
            if isinstance(left, dict) and isinstance(right, dict):
                for key in sorted(set(left) | set(right)):
                    if left.get(key) != right.get(key):
                        problems.append(f"{name}/{part}/{key}: differs")
            else:
                problems.append(f"{name}/{part}: differs")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump", help="index the sets and write everything they produce")
    d.add_argument("out", type=Path)
    d.add_argument("--sets", default=",".join(SETS))
    c = sub.add_parser("compare", help="compare two dumps; exit 1 when they differ")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    args = ap.parse_args()
    if args.cmd == "dump":
        scratch = Path(tempfile.mkdtemp(prefix="gm-identity-"))
        result = {name: dump_set(name, scratch) for name in args.sets.split(",")}
        args.out.write_text(json.dumps(result, ensure_ascii=False, indent=0), encoding="utf-8")
        shutil.rmtree(scratch, ignore_errors=True)
        print(f"identity: wrote {args.out}")
        return 0
    a = json.loads(args.a.read_text(encoding="utf-8"))
    b = json.loads(args.b.read_text(encoding="utf-8"))
    problems = compare(a, b)
    for p in problems[:200]:
        print(p)
    print("identical" if not problems else f"{len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
