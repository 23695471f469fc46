#!/usr/bin/env python3
"""Where a full index's time and memory go, stage by stage, in one process.

Usage::

    python bench/stage_profile.py WORKSPACE [--out prof.json] [--stop-after-texts N]

Runs :func:`index_workspace` (``force=True``, ``.memory/`` removed first unless
``--keep-memory``; the models are the package defaults or the caller's ``GRAPHMEM_*``)
with a progress callback that stamps every change of stage (parse, ner, extract, compile,
graph, seeds, embed, windows) with wall and CPU seconds (this process, all threads), and a
thread that reads ``/proc/self/status`` every 50 ms, so each stage gets its CPU, wall, the
RSS when it began and ended and its peak. The embedder's batches are timed by part:
tokenizing (``encode_batch`` and the id arrays), the onnxruntime run, the pooling; with the
batch shapes, so the padding share (padded tokens over all tokens) is known.
``--stop-after-texts N`` ends the run once the vector fill has embedded N texts (the
progress callback raises), for a sample of a fill too long to wait for.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import threading
import time
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

import graphmem.search.embed as embed_mod
from graphmem.config import resolve_settings
from graphmem.index.build import index_workspace


class Stop(Exception):
    """Raised from the progress callback to end a sampled run."""


def _rss_mb() -> tuple[float, float]:
    rss = hwm = 0.0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1]) / 1024
        elif line.startswith("VmHWM:"):
            hwm = int(line.split()[1]) / 1024
    return rss, hwm


class Stages:
    """Stage stamps and the RSS sampler."""

    def __init__(self, stop_after: int | None) -> None:
        self.t0 = time.perf_counter()
        self.c0 = time.process_time()
        self.stage = "start"
        self.rows: list[dict[str, Any]] = []
        self.peak: dict[str, float] = {}
        self.stop_after = stop_after
        self._begin("start")
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _begin(self, stage: str) -> None:
        rss, _ = _rss_mb()
        self.stage = stage
        self.rows.append(
            {
                "stage": stage,
                "t": time.perf_counter() - self.t0,
                "cpu": time.process_time() - self.c0,
                "rss_mb": round(rss, 1),
            }
        )
        self.peak[stage] = max(self.peak.get(stage, 0.0), rss)

    def _sample(self) -> None:
        while not self._done.wait(0.05):
            rss, _ = _rss_mb()
            stage = self.stage
            self.peak[stage] = max(self.peak.get(stage, 0.0), rss)

    #: A stage reported done as (stage, 1, 1) hands over to what index.py runs next
    #: without a progress call of its own.
    AFTER: ClassVar[dict[str, str]] = {"graph": "seeds", "seeds": "state, publish, model load"}

    def __call__(self, stage: str, done: int, total: int) -> None:
        if total == 1 and done == 1 and stage in self.AFTER:
            self._begin(self.AFTER[stage])
            return
        if stage != self.stage:
            self._begin(stage)
        if (
            self.stop_after is not None
            and stage in ("embed", "windows")
            and done >= self.stop_after
        ):
            raise Stop(f"stopped after {done} texts")

    def finish(self) -> list[dict[str, Any]]:
        self._begin("end")
        self._done.set()
        self._thread.join()
        out = []
        for a, b in zip(self.rows, self.rows[1:], strict=False):
            out.append(
                {
                    "stage": a["stage"],
                    "wall_s": round(b["t"] - a["t"], 3),
                    "cpu_s": round(b["cpu"] - a["cpu"], 3),
                    "rss_start_mb": a["rss_mb"],
                    "rss_end_mb": b["rss_mb"],
                    "rss_peak_mb": round(self.peak.get(a["stage"], 0.0), 1),
                }
            )
        return out


class BatchTimer:
    """Wraps ``OrtEmbedder._run``: wall and CPU per part of every batch."""

    def __init__(self) -> None:
        self.parts = {k: [0.0, 0.0] for k in ("tokenize", "ort", "pool")}
        self.batches = 0
        self.texts = 0
        self.tokens = 0
        self.padded = 0

    def install(self) -> None:
        timer = self

        def _run(self: Any, texts: list[str]) -> Any:
            w, c = time.perf_counter(), time.process_time()
            encoded = self._tokenizer.encode_batch(texts)
            ids = np.array([e.ids for e in encoded], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
            w1, c1 = time.perf_counter(), time.process_time()
            feed = {"input_ids": ids}
            if "attention_mask" in self._inputs:
                feed["attention_mask"] = mask
            if "token_type_ids" in self._inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = self._session.run(None, feed)[0]
            w2, c2 = time.perf_counter(), time.process_time()
            summed = np.sum(hidden, axis=1, where=mask[:, :, None].astype(bool), dtype=np.float64)
            pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
            norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            out = (pooled / norms).astype(np.float32)
            w3, c3 = time.perf_counter(), time.process_time()
            for key, dw, dc in (
                ("tokenize", w1 - w, c1 - c),
                ("ort", w2 - w1, c2 - c1),
                ("pool", w3 - w2, c3 - c2),
            ):
                timer.parts[key][0] += dw
                timer.parts[key][1] += dc
            timer.batches += 1
            timer.texts += len(texts)
            timer.tokens += int(mask.sum())
            timer.padded += int(mask.size)
            return out

        embed_mod.OrtEmbedder._run = _run  # type: ignore[method-assign]

    def summary(self) -> dict[str, Any]:
        return {
            "batches": self.batches,
            "texts": self.texts,
            "real_tokens": self.tokens,
            "padded_tokens": self.padded,
            "padding_share": round(1 - self.tokens / self.padded, 3) if self.padded else None,
            "parts": {
                k: {"wall_s": round(v[0], 3), "cpu_s": round(v[1], 3)}
                for k, v in self.parts.items()
            },
        }


def main(argv: list[str] | None = None) -> int:
    """Run one profiled full index; print and write the JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("workspace", type=Path)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--keep-memory", action="store_true")
    ap.add_argument("--stop-after-texts", type=int)
    args = ap.parse_args(argv)
    if not args.keep_memory:
        shutil.rmtree(args.workspace / ".memory", ignore_errors=True)
    settings = resolve_settings(args.workspace, env=dict(os.environ))
    timer = BatchTimer()
    timer.install()
    load = os.getloadavg()[0]
    stages = Stages(args.stop_after_texts)
    stopped = None
    try:
        report = index_workspace(settings, force=True, progress=stages)
        timings: dict[str, float] | None = dict(report.timings)
    except Stop as exc:
        stopped, timings = str(exc), None
    rows = stages.finish()
    _, hwm = _rss_mb()
    result = {
        "workspace": str(args.workspace),
        "ner_model": settings.ner_model,
        "embed_model": settings.embed_model,
        "threads": embed_mod.threads(),
        "load_avg_1m": [round(load, 2), round(os.getloadavg()[0], 2)],
        "stopped": stopped,
        "peak_rss_mb": round(hwm, 1),
        "stages": rows,
        "embedder": timer.summary(),
        "report_timings": timings,
    }
    text = json.dumps(result, indent=1)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
