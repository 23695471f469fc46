// node --test integrations/openclaw/test/*.test.js : the pure parts of the plugin, no OpenClaw needed.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";

import plugin, { buildFlushPlan } from "../index.js";
import { commandError, recallArgs, resolvePluginSettings, runGraphmem } from "../src/graphmem.js";
import { readMemoryFile } from "../src/manager.js";
import { formatStatusLines, memoryCoreEnabled, memoryCoreLoaded, parseCitation, recallToResults, statusToProviderStatus } from "../src/mapping.js";
import { recallToolArgs } from "../src/mcp.js";
import { createMemorySearchTool } from "../src/tools.js";

// Two packets as `graphmem recall --json` prints them (fixtures/sample).
const PACKETS = [
  {
    id: "fa8d918f424984b2",
    kind: "world",
    timestamp: "2025-11-15..",
    entities: ["Peter", "Porto", "Lisbon"],
    content: "Lives in Porto since Nov 15, 2025 (Lisbon before that, from Sep 6, 2025).",
    source: "memory.md#L6",
    score: 3.438519,
    via: ["lexical#1", "vector#3"],
  },
  {
    id: "o6be3c6a71089cce",
    kind: "opinion",
    timestamp: "2025-10-10",
    entities: ["Peter", "WhatsApp"],
    content: "Prefers concise replies on WhatsApp; anything long belongs in a file.",
    source: "memory/2025-10-10.md#L11-L12",
    score: 1.2,
    confidence: 0.97,
    evidence: ["memory/2025-10-08.md#L13"],
  },
];

test("citations parse to path and line range", () => {
  assert.deepEqual(parseCitation("memory/2025-11-27.md#L12"), { path: "memory/2025-11-27.md", startLine: 12, endLine: 12 });
  assert.deepEqual(parseCitation("memory/2025-11-27.md#L12-L15"), { path: "memory/2025-11-27.md", startLine: 12, endLine: 15 });
  assert.deepEqual(parseCitation("memory/x.md#L9-5"), { path: "memory/x.md", startLine: 5, endLine: 9 });
  assert.equal(parseCitation("bank/world.md").startLine, null);
  assert.equal(parseCitation("a.md#Lfoo").startLine, null);
  assert.equal(parseCitation(""), null);
});

test("graphmem packets become OpenClaw results that keep citation, kind, score and confidence", () => {
  const [fact, opinion] = recallToResults(PACKETS);
  assert.equal(fact.path, "memory.md");
  assert.equal(fact.startLine, 6);
  assert.equal(fact.endLine, 6);
  assert.equal(fact.citation, "memory.md#L6");
  assert.equal(fact.source, "memory", "OpenClaw's corpus field, not graphmem's citation");
  assert.equal(fact.kind, "world");
  assert.equal(fact.score, 3.438519);
  assert.match(fact.snippet, /^\[world 2025-11-15\.\.\] Lives in Porto/);
  assert.deepEqual(fact.entities, ["Peter", "Porto", "Lisbon"]);
  assert.equal(opinion.citation, "memory/2025-10-10.md#L11-L12");
  assert.equal(opinion.confidence, 0.97);
  assert.match(opinion.snippet, /^\[opinion c=0\.97 2025-10-10\]/);
  assert.deepEqual(opinion.evidence, ["memory/2025-10-08.md#L13"]);
});

test("minScore filters and packets without line anchors are dropped", () => {
  assert.equal(recallToResults(PACKETS, { minScore: 2 }).length, 1);
  assert.equal(recallToResults([{ kind: "log", source: "memory.md", score: 1 }]).length, 0);
  assert.deepEqual(recallToResults({ error: "x" }), []);
});

test("graphmem status maps to OpenClaw's provider status", () => {
  const gm = {
    workspace: "/ws",
    generation: "gen-000003",
    built_at: "2026-12-01T07:57:43+00:00",
    counts: { Entity: 31, Fact: 87, Opinion: 24, Passage: 225 },
    files: 60,
    stale: ["memory/2025-11-15.md"],
    new: [],
    deleted: [],
    warnings: [],
    degraded: [],
    fresh: false,
  };
  const status = statusToProviderStatus(gm, { workspaceDir: "/ws", command: "graphmem" });
  assert.equal(status.provider, "graphmem");
  assert.equal(status.files, 60);
  assert.equal(status.chunks, 87 + 24 + 225);
  assert.equal(status.dirty, true);
  assert.equal(status.vector.enabled, true);
  const lines = formatStatusLines("main", status).join("\n");
  assert.match(lines, /gen-000003/);
  assert.match(lines, /stale \(run: openclaw memory index\)/);
  assert.match(lines, /changed: {3}memory\/2025-11-15\.md/);
  assert.match(lines, /dreaming: {2}off/);
  const beside = formatStatusLines("main", status, { memoryCoreEnabled: true }).join("\n");
  assert.match(beside, /dreaming: {2}memory-core's, running beside graphmem/);
  assert.match(beside, /WARNING: .*plugins\.entries\.memory-core\.enabled false/);

  const none = statusToProviderStatus({ generation: null, counts: {}, files: 0, degraded: ["embeddings: none"] }, { workspaceDir: "/ws", command: "g" });
  assert.equal(none.dirty, true);
  assert.equal(none.vector.enabled, false);
  assert.match(formatStatusLines("main", none).join("\n"), /none yet \(run: openclaw memory index\)/);
});

test("memory-core counts as enabled unless explicitly disabled", () => {
  assert.equal(memoryCoreEnabled({}), true);
  assert.equal(memoryCoreEnabled({ plugins: { entries: { "memory-core": { config: { dreaming: { enabled: false } } } } } }), true);
  assert.equal(memoryCoreEnabled({ plugins: { entries: { "memory-core": { enabled: false } } } }), false);
});

test("memory-core counts as dreaming unless disabled or its dreaming is off", () => {
  assert.equal(memoryCoreLoaded({}), true);
  assert.equal(memoryCoreLoaded({ plugins: { entries: { "memory-core": { enabled: false } } } }), false);
  assert.equal(memoryCoreLoaded({ plugins: { entries: { "memory-core": { config: { dreaming: { enabled: false } } } } } }), false);
});

test("recall arguments carry k, filters and the preset", () => {
  assert.deepEqual(recallArgs("q", { k: 5, preset: "lexical", since: "30d", kind: "opinion" }), [
    "recall", "q", "--k", "5", "--json", "--preset", "lexical", "--since", "30d", "--kind", "opinion",
  ]);
  assert.deepEqual(recallToolArgs("q", { k: 5, since: "30d", kind: "world" }), { query: "q", k: 5, since: "30d", kind: ["world"] });
});

test("settings default to graphmem on PATH and expand ~", () => {
  const s = resolvePluginSettings(undefined);
  assert.equal(s.command, "graphmem");
  assert.equal(s.maxResults, 10);
  assert.equal(s.transport, "auto");
  assert.equal(resolvePluginSettings({ command: "~/bin/graphmem" }).command, path.join(os.homedir(), "bin/graphmem"));
});

test("graphmem errors: JSON error envelopes and plain stderr both become one message", () => {
  const a = commandError("recall", 1, '{"error": "no index yet", "hint": "run graphmem index"}', "");
  assert.equal(a.message, "graphmem recall: no index yet");
  assert.equal(a.hint, "run graphmem index");
  const b = commandError("recall", 1, "", "warning\ngraphmem: no index in /ws/.memory yet; run `graphmem index`\n");
  assert.equal(b.message, "graphmem: no index in /ws/.memory yet; run `graphmem index`");
});

test("a missing graphmem executable is reported with the fix, and the tool degrades", async () => {
  const settings = resolvePluginSettings({ command: "/nonexistent/graphmem" });
  await assert.rejects(runGraphmem(settings, "/tmp", ["status", "--json"]), (err) => {
    assert.equal(err.name, "GraphmemUnavailableError");
    assert.match(err.message, /not installed or not on PATH \(tried `\/nonexistent\/graphmem`\)/);
    assert.match(err.hint, /plugins\.entries\.graphmem\.config\.command/);
    return true;
  });
  const failing = { search: async () => runGraphmem(settings, "/tmp", ["recall", "q", "--json"]) };
  const tool = createMemorySearchTool(() => failing);
  const out = await tool.execute("t1", { query: "where does Peter live?" });
  assert.equal(out.details.disabled, true);
  assert.match(out.details.error, /not installed/);
  assert.match(out.details.action, /config\.command/);
});

test("memory_get reads cited lines inside the workspace only", async () => {
  const ws = await fs.mkdtemp(path.join(os.tmpdir(), "gm-oc-"));
  await fs.mkdir(path.join(ws, "memory"));
  await fs.writeFile(path.join(ws, "memory", "2025-11-27.md"), "# day\n\nline 3\nline 4\nline 5\n");
  const got = await readMemoryFile(ws, { relPath: "memory/2025-11-27.md#L3-L4" });
  assert.deepEqual({ status: got.status, text: got.text, from: got.from }, { status: "ok", text: "line 3\nline 4", from: 3 });
  assert.equal(got.nextFrom, 5);
  assert.equal((await readMemoryFile(ws, { relPath: "memory/2025-01-01.md" })).status, "not_found");
  await assert.rejects(readMemoryFile(ws, { relPath: "../etc/passwd.md" }), /outside the memory workspace/);
  await assert.rejects(readMemoryFile(ws, { relPath: "questions.jsonl" }), /not a Markdown memory file/);
});

test("the entry object is a memory plugin and the flush plan targets today's log", () => {
  assert.equal(plugin.id, "graphmem");
  assert.equal(plugin.kind, "memory");
  assert.equal(typeof plugin.register, "function");
  const plan = buildFlushPlan({ cfg: {}, nowMs: Date.UTC(2025, 10, 27, 12) });
  assert.equal(plan.relativePath, "memory/2025-11-27.md");
  assert.match(plan.prompt, /## Retain/);
  assert.equal(buildFlushPlan({ cfg: { agents: { defaults: { compaction: { memoryFlush: { enabled: false } } } } } }), null);
});

test("register() wires the capability, every tool and both CLI roots", () => {
  const seen = { tools: [], cli: [], capability: null, warnings: [] };
  plugin.register({
    pluginConfig: {},
    config: {},
    logger: { warn: (m) => seen.warnings.push(m) },
    runtime: {},
    registerMemoryCapability: (c) => (seen.capability = c),
    registerTool: (_factory, opts) => seen.tools.push(...opts.names),
    registerCli: (_fn, opts) => seen.cli.push(...opts.descriptors.map((d) => d.name)),
  });
  assert.deepEqual(seen.tools, [
    "memory_search", "memory_get", "memory_about", "memory_timeline", "memory_opinions",
    "memory_store", "memory_forget", "memory_reflect", "memory_core",
  ]);
  assert.deepEqual(seen.cli, ["memory", "graphmem"]);
  assert.equal(typeof seen.capability.runtime.getMemorySearchManager, "function");
  assert.equal(seen.capability.deterministicRecallToolName, "memory_search");
  assert.match(seen.warnings[0], /memory-core is enabled/, "an enabled memory-core would shadow the tools");
});
