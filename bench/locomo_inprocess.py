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
from dataclasses import replace
from pathlib import Path

# clawd_inprocess puts ../shared/bench (recall_eval) on the path and holds the shared steps.
from clawd_inprocess import add_settings_args, ask, ev, graphmem_settings

from graphmem.config.presets import preset
from graphmem.index.build import index_workspace
from graphmem.recall.engine import Recaller

KS, NDCG_K, BUDGETS = [5, 10, 25], 10, [25, 100]
CATEGORIES = {1: "1 multi-hop", 2: "2 temporal", 3: "3 open-domain", 4: "4 single-hop"}
EXCLUDED = "5 adversarial (excluded)"


def category_label(raw: object) -> str:
    """LoCoMo's category number as a row label (5 is excluded from overall), or the
    category itself (LongMemEval's question types)."""
    text = str(raw)
    return CATEGORIES.get(int(text), EXCLUDED) if text.isdigit() else text


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("root", type=Path)
    add_settings_args(ap)
    ap.add_argument("--only", default="", help="comma-separated workspace names")
    ap.add_argument("--skip", default="", help="comma-separated workspace names")
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
        settings = graphmem_settings(
            ws,
            None if args.embed == "none" else args.embed,
            None if args.ner == "none" else args.ner,
        )
        index_workspace(settings)
        with Recaller(settings) as recaller:
            for q in ev.load_questions(ws, None):
                result, sources, took = ask(recaller, ws, q, config, args.depth)
                latencies.append(took)
                evidence = [ev.parse_source(e, ws) for e in q["evidence"]]
                scores = ev.score_question(evidence, sources, KS, NDCG_K, BUDGETS)
                raw = str(q["category"])  # LoCoMo's numbers, or LongMemEval's question types
                cat = int(raw) if raw.isdigit() else raw
                label = category_label(raw)
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
