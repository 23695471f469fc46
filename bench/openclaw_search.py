#!/usr/bin/env python3
"""Ask a running OpenClaw gateway's ``memory_search`` tool; print cited sources as JSON.

The ``--cmd`` of ``recall_eval.py --retriever cmd`` for OpenClaw, whichever plugin owns its
memory slot (graphmem, or OpenClaw's builtin memory-core)::

    python3 bench/openclaw_search.py --port 18911 --token T --agent conv-26 --k 100 "question"

The agent id defaults to the workspace directory's name (``--ws``), so one gateway serves one
agent per LoCoMo conversation. Output: ``[{"path", "start_line", "end_line", "score"}]`` in
rank order. OpenClaw's own result objects are not passed through unchanged because they carry
``source: "memory"`` (the corpus), which ``recall_eval.py`` would read as the cited path.
Stdlib only.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("query")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--token", required=True)
    ap.add_argument("--agent", help="agent id (default: the name of --ws)")
    ap.add_argument("--ws", help="workspace directory; its name is the agent id")
    ap.add_argument("--k", type=int, default=25)
    ap.add_argument("--timeout", type=float, default=120.0)
    args = ap.parse_args()
    agent = args.agent or (Path(args.ws).name if args.ws else "main")
    body = {
        "tool": "memory_search",
        "agentId": agent,
        "args": {"query": args.query, "maxResults": args.k, "minScore": 0},
    }
    req = urllib.request.Request(
        f"http://127.0.0.1:{args.port}/tools/invoke",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {args.token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(req, timeout=args.timeout) as resp:
            payload = json.load(resp)
    except urllib.error.HTTPError as exc:
        print(f"gateway HTTP {exc.code}: {exc.read()[:300]!r}", file=sys.stderr)
        return 1
    details = (payload.get("result") or {}).get("details") or {}
    if details.get("disabled") or details.get("error"):
        print(f"memory_search unavailable: {details.get('error')}", file=sys.stderr)
        return 1
    out = [
        {
            "path": r["path"],
            "start_line": r["startLine"],
            "end_line": r["endLine"],
            "score": r.get("score"),
        }
        for r in details.get("results", [])
        if r.get("path") and r.get("startLine")
    ]
    json.dump(out, sys.stdout)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
