"""Score graphmem recall on the four dev sets in one run, with bm25 from the same run.

The sets are ../shared/bench's clawd-dev, cafe, locomo (the five dev conversations) and
longmemeval (the dev split, a stratified first --lme questions). Each workspace is built in a
scratch directory (the Markdown plus questions.jsonl, which graphmem does not index: it reads
memory.md, SOUL.md, memory/**.md and bank/**.md only), indexed in-process as
clawd_inprocess.py / locomo_inprocess.py do, and asked every question at its asked_at; bm25 is
recall_eval.py's FTS5 baseline (one line per result) over the same files. Scoring is
recall_eval.score_question's; stale@10 is clawd_inprocess.stale_hit's (any must_not line in
the top 10) for both retrievers. One table: R@25ln per set and per category for graphmem
and bm25, as_of stale@10 where a set has as_of questions, and the macro mean over the sets.

    python bench/devsets.py                                   # all four, LongMemEval 12 of 60
    python bench/devsets.py --lme 60 --json /tmp/dev.json     # the full LongMemEval dev split
    python bench/devsets.py --keep /tmp/dv                    # keep the indexed workspaces ...
    python bench/devsets.py --reuse /tmp/dv                   # ... and ask them again, no index

Nothing is downloaded: the models are graphmem's local ones (--embed, --ner as in the
in-process harnesses).
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import redirect_stdout
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SETS = ("clawd-dev", "cafe", "locomo", "longmemeval")
RETRIEVERS = ("graphmem", "bm25")
METRIC = "recall@25ln"
LOCOMO_CONVERSATIONS = ["0", "1", "2", "3", "4"]  # locomo-dev.json's five (conv-26 ... conv-43)
LME_DEFAULT = 12
NOT_COUNTED = " (not in overall)"


# --------------------------------------------------------------------------- pure helpers


def pick_lme(ids: Sequence[str], type_of: dict[str, str], n: int) -> list[str]:
    """The first `n` ids, round-robin over the question types in their first-seen order
    (dev_ids.txt lists ten of each type in a block, so its head alone would be one type)."""
    queues: dict[str, list[str]] = {}
    for qid in ids:
        queues.setdefault(type_of[qid], []).append(qid)
    picked: list[str] = []
    while len(picked) < min(n, len(ids)):
        for queue in queues.values():
            if queue and len(picked) < n:
                picked.append(queue.pop(0))
    return picked


def _mean(values: Iterable[float]) -> float | None:
    vals = list(values)
    return sum(vals) / len(vals) if vals else None


def _mean_scores(rows: list[dict[str, float]]) -> dict[str, float]:
    out: dict[str, float] = {"n": len(rows)}
    for key in rows[0] if rows else ():
        out[key] = sum(r[key] for r in rows) / len(rows)
    return out


def summarise(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Per set: n, each retriever's mean scores overall and per category, and stale@10 per
    category (over the questions with must_not); then the macro mean of the sets' R@25ln.

    A record is one question: ``set``, ``category`` (a row label), ``counted`` (False for
    LoCoMo's adversarial category, which stays out of the set's overall), and per retriever
    ``scores[name]`` (recall_eval.score_question's dict) and ``stale[name]`` (bool or None).
    """
    sets: dict[str, Any] = {}
    for name in dict.fromkeys(r["set"] for r in records):
        rows = [r for r in records if r["set"] == name]
        counted = [r for r in rows if r["counted"]]
        cats = sorted({r["category"] for r in rows})
        entry: dict[str, Any] = {"n": len(counted), "questions": len(rows), "retrievers": {}}
        for ret in RETRIEVERS:
            stale: dict[str, dict[str, float]] = {}
            for cat in cats:
                hits = [r["stale"][ret] for r in rows if r["category"] == cat]
                marks = [1.0 if h else 0.0 for h in hits if h is not None]
                if marks:
                    stale[cat] = {"n": len(marks), "rate": sum(marks) / len(marks)}
            entry["retrievers"][ret] = {
                "overall": _mean_scores([r["scores"][ret] for r in counted]),
                "categories": {
                    cat: _mean_scores([r["scores"][ret] for r in rows if r["category"] == cat])
                    for cat in cats
                },
                "stale_at_10": stale,
            }
        entry["excluded"] = sorted({r["category"] for r in rows if not r["counted"]})
        sets[name] = entry
    macro = {
        ret: _mean(s["retrievers"][ret]["overall"][METRIC] for s in sets.values() if s["n"])
        for ret in RETRIEVERS
    }
    as_of = {
        ret: _mean(
            s["retrievers"][ret]["stale_at_10"]["as_of"]["rate"]
            for s in sets.values()
            if "as_of" in s["retrievers"][ret]["stale_at_10"]
        )
        for ret in RETRIEVERS
    }
    return {"sets": sets, "macro": {METRIC: macro, "as_of_stale_at_10": as_of}}


def _num(value: float | None) -> str:
    return f"{value:8.3f}" if value is not None else f"{'—':>8}"


def _delta(a: float | None, b: float | None) -> str:
    return f"{a - b:+8.3f}" if a is not None and b is not None else f"{'':>8}"


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def _category_label(cat: str, entry: dict[str, Any]) -> str:
    counted = cat not in entry["excluded"] or "exclude" in cat  # LoCoMo's label says so
    return f"  {cat}" + ("" if counted else NOT_COUNTED)


def format_table(summary: dict[str, Any], set_titles: dict[str, str] | None = None) -> str:
    """The one table: R@25ln per set and category for graphmem and bm25, as_of stale@10
    where a set has as_of questions with must_not, and the macro mean over the sets."""
    titles = set_titles or {}
    labels = [titles.get(name, name) for name in summary["sets"]] + [
        _category_label(cat, entry)
        for entry in summary["sets"].values()
        for cat in entry["retrievers"]["graphmem"]["categories"]
    ]
    w = max([34, *map(len, labels)])
    head = f"{'set / category':{w}} {'n':>5} {'graphmem':>8} {'bm25':>8} {'Δ':>8}"
    lines = ["R@25ln (recall within 25 cited lines; stale@10: lower is better)", head]
    lines.append("-" * len(head))
    for name, entry in summary["sets"].items():
        gm, bm = entry["retrievers"]["graphmem"], entry["retrievers"]["bm25"]
        a, b = gm["overall"].get(METRIC), bm["overall"].get(METRIC)
        title = titles.get(name, name)
        lines.append(f"{title:{w}} {entry['n']:>5} {_num(a)} {_num(b)} {_delta(a, b)}")
        for cat, scores in gm["categories"].items():
            a, b = scores.get(METRIC), bm["categories"][cat].get(METRIC)
            label = _category_label(cat, entry)
            lines.append(f"{label:{w}} {int(scores['n']):>5} {_num(a)} {_num(b)} {_delta(a, b)}")
        if "as_of" in gm["stale_at_10"]:
            a_st, b_st = gm["stale_at_10"]["as_of"], bm["stale_at_10"]["as_of"]
            lines.append(
                f"{'  as_of stale@10':{w}} {int(a_st['n']):>5} {_num(a_st['rate'])} "
                f"{_num(b_st['rate'])} {_delta(a_st['rate'], b_st['rate'])}"
            )
    lines.append("-" * len(head))
    macro = summary["macro"][METRIC]
    scored = sum(1 for s in summary["sets"].values() if s["n"])
    lines.append(
        f"{f'macro mean R@25ln ({scored} set{_s(scored)})':{w}} {'':>5} {_num(macro['graphmem'])} "
        f"{_num(macro['bm25'])} {_delta(macro['graphmem'], macro['bm25'])}"
    )
    stale = summary["macro"]["as_of_stale_at_10"]
    if stale["graphmem"] is not None:
        with_as_of = sum(
            1 for s in summary["sets"].values() if "as_of" in s["retrievers"]["bm25"]["stale_at_10"]
        )
        lines.append(
            f"{f'mean as_of stale@10 ({with_as_of} set{_s(with_as_of)})':{w}} {'':>5} {_num(stale['graphmem'])} "
            f"{_num(stale['bm25'])} {_delta(stale['graphmem'], stale['bm25'])}"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- provenance


def commit_of(path: Path) -> str:
    """Short commit of the checkout holding `path`, marked when it has uncommitted changes."""
    try:
        head = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(path), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"unknown (not a git checkout: {path})"
    return head + (" + uncommitted changes" if dirty else "")


def index_seconds(timings: list[dict[str, Any]]) -> str:
    """A set's indexing seconds, "reused" when no workspace of it was indexed."""
    spent = [t["index_s"] for t in timings if t["index_s"] is not None]
    if not spent:
        return "reused"
    return f"{sum(spent):.0f}" + (" (some reused)" if len(spent) < len(timings) else "")


def load_text() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


# --------------------------------------------------------------------------- workspaces


def _copy_writable(src: Path, dst: Path) -> None:
    """Copy a read-only tree (../shared is) so that .memory/ can be written into it."""
    shutil.copytree(src, dst, copy_function=shutil.copyfile)
    for dirpath, _dirs, _files in os.walk(dst):
        os.chmod(dirpath, 0o755)


def build_clawd(shared: Path, name: str, dest: Path) -> list[Path]:
    """clawd-dev / cafe as clawd_inprocess.py expects them: ws/ plus questions.jsonl."""
    _copy_writable(shared / name / "ws", dest)
    shutil.copyfile(shared / name / "questions.jsonl", dest / "questions.jsonl")
    return [dest]


def build_locomo(shared: Path, dest: Path) -> list[Path]:
    import locomo_to_workspace  # ../shared/bench, on the path through clawd_inprocess

    with redirect_stdout(io.StringIO()):
        locomo_to_workspace.main(
            [str(shared / "locomo" / "locomo-dev.json"), str(dest), *LOCOMO_CONVERSATIONS]
        )
    return sorted(d for d in dest.iterdir() if (d / "questions.jsonl").is_file())


def lme_types(tgz: Path) -> dict[str, str]:
    """Question type of every workspace in lme-dev.tgz (from its questions.jsonl)."""
    types: dict[str, str] = {}
    with tarfile.open(tgz) as tar:
        for member in tar:
            parts = member.name.split("/")
            if len(parts) == 3 and parts[2] == "questions.jsonl":
                fh = tar.extractfile(member)
                assert fh is not None
                first = fh.read().decode("utf-8").splitlines()[0]
                types[parts[1]] = str(json.loads(first)["category"])
    return types


def build_lme(shared: Path, dest: Path, ids: list[str]) -> list[Path]:
    """Extract only the picked workspaces of lme-dev.tgz into dest/<question_id>/."""
    wanted = set(ids)
    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(shared / "longmemeval" / "lme-dev.tgz") as tar:
        members = []
        for member in tar.getmembers():
            parts = member.name.split("/", 2)
            if len(parts) >= 2 and parts[1] in wanted:
                members.append(member.replace(name="/".join(parts[1:])))
        tar.extractall(dest, members=members, filter="data")
    return [dest / qid for qid in ids]


# --------------------------------------------------------------------------- the run


def score_workspace(
    set_name: str,
    ws: Path,
    *,
    config: Any,
    embed: str | None,
    ner: str | None,
    depth: int,
    reuse: bool,
    label: Callable[[object], str],
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Index `ws` (unless reused and indexed), ask each question of graphmem and of bm25."""
    from clawd_inprocess import BUDGETS, KS, NDCG_K, ask, ev, graphmem_settings, stale_hit

    from graphmem.index.build import index_workspace
    from graphmem.parse.workspace import discover
    from graphmem.recall.engine import Recaller
    from graphmem.store.layout import Store

    indexed = sorted(f.path for f in discover(ws)[0])
    leaked = [p for p in indexed if not p.lower().endswith(".md")]
    if leaked:  # never: graphmem indexes Markdown only; questions and answers are JSON
        raise SystemExit(f"{ws}: would index non-Markdown files {leaked}")
    settings = graphmem_settings(ws, embed, ner)
    index_s: float | None = None
    if not (reuse and Store(settings.memory_dir).current() is not None):
        started = time.perf_counter()
        index_workspace(settings)
        index_s = time.perf_counter() - started
    bm25 = ev.FtsRetriever("line", False, 400, 80)
    bm25.index(ws)
    records: list[dict[str, Any]] = []
    latencies: list[float] = []
    with Recaller(settings) as recaller:
        for q in ev.load_questions(ws, None):
            _result, sources, took = ask(recaller, ws, q, config, depth)
            latencies.append(took)
            baseline = bm25.search(ws, q["question"], depth, {"asked_at": q["asked_at"]})
            evidence = [ev.parse_source(e, ws) for e in q["evidence"]]
            category = label(q["category"])
            records.append(
                {
                    "set": set_name,
                    "workspace": ws.name,
                    "id": q["id"],
                    "category": category,
                    "counted": str(q["category"]) != "5",  # LoCoMo's adversarial questions
                    "scores": {
                        "graphmem": ev.score_question(evidence, sources, KS, NDCG_K, BUDGETS),
                        "bm25": ev.score_question(evidence, baseline, KS, NDCG_K, BUDGETS),
                    },
                    "stale": {
                        "graphmem": stale_hit(q, sources, ws),
                        "bm25": stale_hit(q, baseline, ws),
                    },
                }
            )
    bm25.close()
    timing = {
        "index_s": None if index_s is None else round(index_s, 2),
        "files": len(indexed),
        "questions": len(records),
        "recall_ms_p50": round(statistics.median(latencies) * 1000, 1) if latencies else None,
    }
    return records, timing


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated, of " + ", ".join(SETS))
    ap.add_argument(
        "--lme",
        type=int,
        default=LME_DEFAULT,
        help=f"LongMemEval questions, 2 per type at 12 (default {LME_DEFAULT}; 60: the dev split)",
    )
    ap.add_argument("--json", type=Path, help="write every number (and each question's) here")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--keep", type=Path, help="build the workspaces in this new directory")
    where.add_argument(
        "--reuse",
        type=Path,
        help="a --keep directory: its indexed workspaces are asked again without indexing "
        "(missing ones are built there)",
    )
    ap.add_argument("--bench", type=Path, help="the shared bench directory (default: found)")
    sys.path.insert(0, str(HERE))
    from clawd_inprocess import add_settings_args

    add_settings_args(ap)
    ap.add_argument("--depth", type=int, default=100, help="results asked of each retriever")
    args = ap.parse_args(argv)

    chosen = [s for s in args.sets.split(",") if s]
    unknown = sorted(set(chosen) - set(SETS))
    if unknown:
        ap.error(f"unknown sets {unknown}; choose from {', '.join(SETS)}")

    sys.path.insert(0, str(HERE))
    import clawd_inprocess  # puts ../shared/bench on the path
    from locomo_inprocess import category_label

    import graphmem
    from graphmem.config.presets import preset

    shared = args.bench or clawd_inprocess.SHARED
    if shared is None or not (shared / "recall_eval.py").is_file():
        ap.error("no shared bench directory with recall_eval.py found; pass --bench DIR")
    if args.bench:
        sys.path.insert(0, str(shared))
    config = preset(args.preset)
    for item in args.set:
        key, _, value = item.partition("=")
        config = replace(config, **{key: ast.literal_eval(value)})
    embed = None if args.embed == "none" else args.embed
    ner = None if args.ner == "none" else args.ner

    if args.keep and args.keep.exists() and any(args.keep.iterdir()):
        ap.error(f"--keep {args.keep} is not empty; pass it as --reuse, or a new directory")
    scratch = args.reuse or args.keep
    temporary = scratch is None
    root = Path(tempfile.mkdtemp(prefix="devsets-")) if scratch is None else scratch
    root.mkdir(parents=True, exist_ok=True)

    repo = Path(graphmem.__file__).resolve().parent.parent
    load_start = load_text()
    started = time.perf_counter()
    print(
        f"graphmem dev sets — commit {commit_of(repo)} ({repo}), "
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, load {load_start} (1/5/15 min)"
    )
    print(
        f"preset {args.preset}{' ' + ' '.join(args.set) if args.set else ''}, embed {embed}, "
        f"ner {ner}, depth {args.depth}; bm25: recall_eval FTS5, one line per result; "
        f"workspaces in {root}{' (reused)' if args.reuse else ''}",
        flush=True,
    )

    lme_ids: list[str] = []
    lme_total = 0
    if "longmemeval" in chosen:
        all_ids = (shared / "longmemeval" / "dev_ids.txt").read_text(encoding="utf-8").split()
        lme_total = len(all_ids)
        lme_ids = pick_lme(all_ids, lme_types(shared / "longmemeval" / "lme-dev.tgz"), args.lme)

    records: list[dict[str, Any]] = []
    timings: dict[str, list[dict[str, Any]]] = {}
    try:
        for name in chosen:
            dest = root / name
            if name in ("clawd-dev", "cafe"):
                workspaces = [dest] if dest.exists() else build_clawd(shared, name, dest)
            elif name == "locomo":
                workspaces = (
                    sorted(d for d in dest.iterdir() if (d / "questions.jsonl").is_file())
                    if dest.exists()
                    else build_locomo(shared, dest)
                )
            else:
                missing = [qid for qid in lme_ids if not (dest / qid).exists()]
                if missing:
                    build_lme(shared, dest, missing)
                workspaces = [dest / qid for qid in lme_ids]
            for ws in workspaces:
                rows, timing = score_workspace(
                    name,
                    ws,
                    config=config,
                    embed=embed,
                    ner=ner,
                    depth=args.depth,
                    reuse=args.reuse is not None,
                    label=category_label,
                )
                records += rows
                timings.setdefault(name, []).append({"workspace": ws.name, **timing})
                index = "reused" if timing["index_s"] is None else f"{timing['index_s']:.1f} s"
                print(
                    f"  {name}/{ws.name}: index {index}, {timing['questions']} questions, "
                    f"recall p50 {timing['recall_ms_p50']} ms",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        if temporary:
            shutil.rmtree(root, ignore_errors=True)

    summary = summarise(records)
    titles = {"locomo": "locomo (categories 1-4)"}
    if "longmemeval" in chosen:
        titles["longmemeval"] = f"longmemeval ({len(lme_ids)} of {lme_total})"
    print()
    print(format_table(summary, titles))
    wall = time.perf_counter() - started
    index_total = sum(t["index_s"] or 0 for ts in timings.values() for t in ts)
    print()
    print(
        "index s per set: "
        + ", ".join(f"{name} {index_seconds(ts)}" for name, ts in timings.items())
        + f"; wall {wall / 60:.1f} min (index {index_total / 60:.1f}); "
        f"load {load_start} at start, {load_text()} at end"
    )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "commit": commit_of(repo),
                    "checkout": str(repo),
                    "when_utc": datetime.now(UTC).isoformat(timespec="seconds"),
                    "load_start": load_start,
                    "load_end": load_text(),
                    "wall_s": round(wall, 1),
                    "settings": {
                        "preset": args.preset,
                        "set": args.set,
                        "embed": embed,
                        "ner": ner,
                        "depth": args.depth,
                        "bm25": "recall_eval FtsRetriever, line, unicode61",
                    },
                    "longmemeval_ids": lme_ids,
                    "timings": timings,
                    **summary,
                    "questions": records,
                },
                indent=1,
                ensure_ascii=False,
            )
            + "\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
