// node --test integrations/openclaw/test/*.test.js : the agent tools against a fake `graphmem`
// (a small Node script written per test), so the real argv, exit codes and --json
// envelopes are exercised with no Python, no OpenClaw and no network.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import plugin from "../index.js";
import { INSTALL_HINT, resolvePluginSettings } from "../src/graphmem.js";
import { GraphmemMemoryManager } from "../src/manager.js";
import {
  buildRetainBullet,
  classifyError,
  coreFileState,
  filterPacketsByEntity,
  formatStatusLines,
  mentionOf,
  shapeOpinions,
  shapeReflect,
} from "../src/mapping.js";
import {
  GRAPHMEM_TOOL_SPECS,
  buildPromptSection,
  createGraphmemTool,
  createMemoryGetTool,
  createMemorySearchTool,
} from "../src/tools.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const MANIFEST = JSON.parse(await fs.readFile(path.join(HERE, "..", "openclaw.plugin.json"), "utf8"));

// ---- a fake graphmem: answers by verb from a JSON table, logs each argv ----------------
const FAKE = `
const fs = require("node:fs");
const argv = process.argv.slice(2);
fs.appendFileSync(process.env.GM_LOG, JSON.stringify(argv) + "\\n");
const table = JSON.parse(fs.readFileSync(process.env.GM_TABLE, "utf8"));
const i = argv.indexOf("--workspace");
const rest = i >= 0 ? argv.slice(i + 2) : argv;
const key = rest[0] === "core" ? "core " + rest[1] : rest[0] === "about" ? "about " + rest[1] : rest[0];
const hit = table[key] ?? table[rest[0]] ?? { code: 1, stdout: { error: "fake graphmem: no answer for " + key, hint: null } };
process.stdout.write(typeof hit.stdout === "string" ? hit.stdout : JSON.stringify(hit.stdout));
if (hit.stderr) process.stderr.write(hit.stderr);
process.exitCode = hit.code ?? 0;
`;

const CARD = { slug: "peter", name: "Peter", kind: "person", aliases: ["Pete", "P."], current_facts: [] };
const PACKETS = [
  { id: "f1", kind: "world", timestamp: "2025-11-15..", entities: ["Peter", "Porto"], content: "Lives in Porto.", source: "memory.md#L6", score: 4.2 },
  { id: "f2", kind: "world", timestamp: "2025-12-06", entities: ["Andy"], content: "Andy has a cat.", source: "memory/2025-12-06.md#L3", score: 3.1 },
  { id: "f3", kind: "opinion", timestamp: "2025-10-10", entities: ["pete"], content: "Prefers voice notes.", source: "memory/2025-10-10.md#L11", score: 2.0, confidence: 0.9 },
];
const OPINIONS = [
  {
    id: "o1", statement: "Prefers voice notes.", entities: ["Peter"], confidence: 0.9, stated_confidence: 0.8,
    last_updated: "2025-12-06", superseded_by: null, status: null, source: "memory/2025-10-10.md#L11",
    evidence_for: [{ source: "memory/2025-12-06.md#L3" }], evidence_against: [], history: [{ day: "2025-12-06", delta: 0.1 }],
  },
];
const TABLE = {
  recall: { stdout: PACKETS },
  "about Peter": { stdout: CARD },
  "about Nobody": { code: 1, stdout: { error: "no entity named 'Nobody'", hint: "see `graphmem entities`" } },
  timeline: { stdout: { entity: "peter", name: "Peter", events: [{ id: "f1", kind: "world", text: "Moved.", source: "memory/2025-11-15.md#L12", when: "2025-11-15" }] } },
  opinions: { stdout: OPINIONS },
  retain: { stdout: { path: "memory/2025-12-12.md", line: 14, id: "f9", source: "memory/2025-12-12.md#L14", notice: null, warnings: [], generation: "gen-000003" } },
  retract: {
    code: 1,
    stdout: { error: "memory/2025-11-15.md#L1: line 1 holds no fact or opinion bullet (only typed bullets and memory.md lines can be replaced or retracted); nothing was written", hint: null },
  },
  reflect: {
    stdout: {
      since: "2025-12-05", now: "2025-12-12", dry_run: true, now_from: "newest log",
      moves: [{ opinion: "o1", old: 0.8, new: 0.9, relation: "supports", reason: "done again" }],
      pages: [{ path: "bank/entities/Peter.md", changed: true, reason: null, diff: "--- a\n+++ b\n+x\n" }, { path: "bank/world.md", changed: false, reason: null, diff: "" }],
    },
  },
  "core list": { stdout: [{ number: 1, action: "add", source: "MEMORY.md", old: null, new: "- Andy has a cat.", evidence: ["memory/2025-12-06.md#L3"], reason: "stated 2 times" }] },
  "core apply": { stdout: { applied: 1, path: "MEMORY.md", diff: "+- Andy has a cat." } },
  status: { stdout: { workspace: "/ws", generation: "gen-000003", counts: {}, files: 1, degraded: [] } },
};

let dir;
let settings;
let log;

before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "gm-oc-tools-"));
  const bin = path.join(dir, "graphmem");
  await fs.writeFile(bin, `#!${process.execPath}\n${FAKE}`, { mode: 0o755 });
  log = path.join(dir, "argv.log");
  await fs.writeFile(path.join(dir, "table.json"), JSON.stringify(TABLE));
  settings = resolvePluginSettings({ command: bin, env: { GM_LOG: log, GM_TABLE: path.join(dir, "table.json") }, transport: "cli" });
});

after(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function argvLog() {
  const text = await fs.readFile(log, "utf8").catch(() => "");
  return text.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

async function resetLog() {
  await fs.rm(log, { force: true });
}

const manager = () => new GraphmemMemoryManager({ settings, workspaceDir: "/ws", agentId: "main" });
const tool = (name) => createGraphmemTool(GRAPHMEM_TOOL_SPECS.find((s) => s.name === name), manager);

// ---- schemas -----------------------------------------------------------------------

test("every tool has a JSON schema an LLM can fill: an object, described, closed, required fields declared", () => {
  const all = [createMemorySearchTool(manager), createMemoryGetTool(manager), ...GRAPHMEM_TOOL_SPECS.map((s) => createGraphmemTool(s, manager))];
  for (const t of all) {
    assert.match(t.name, /^memory_[a-z]+$/, t.name);
    assert.ok(t.description.length > 60, `${t.name} has a description`);
    assert.equal(typeof t.execute, "function");
    const p = t.parameters;
    assert.equal(p.type, "object", t.name);
    assert.equal(p.additionalProperties, false, `${t.name} rejects unknown fields`);
    for (const r of p.required ?? []) assert.ok(r in p.properties, `${t.name}: required ${r} is a property`);
    for (const [key, prop] of Object.entries(p.properties)) {
      assert.ok(["string", "integer", "number", "boolean", "array"].includes(prop.type), `${t.name}.${key} has a plain type`);
      assert.equal(prop.anyOf, undefined, `${t.name}.${key}: no anyOf (some providers reject it)`);
      if (prop.type === "array") assert.ok(prop.items?.type, `${t.name}.${key} says what its items are`);
    }
  }
  const search = createMemorySearchTool(manager).parameters.properties;
  for (const key of ["since", "until", "asOf", "kind", "entity"]) assert.ok(search[key], `memory_search filters by ${key}`);
  assert.deepEqual(search.kind.items.enum, ["world", "experience", "opinion", "observation", "log"]);
  assert.deepEqual(tool("memory_store").parameters.required, ["text", "entities"]);
  assert.deepEqual(tool("memory_store").parameters.properties.kind.enum, ["world", "experience", "opinion", "summary"]);
  assert.deepEqual(tool("memory_forget").parameters.required, ["citation"]);
  assert.equal(tool("memory_opinions").parameters.properties.why.type, "boolean");
});

test("the manifest declares every registered tool, reads as replay-safe and writes as side-effecting", () => {
  const names = ["memory_search", "memory_get", ...GRAPHMEM_TOOL_SPECS.map((s) => s.name)];
  assert.deepEqual(MANIFEST.contracts.tools, names);
  for (const spec of GRAPHMEM_TOOL_SPECS) {
    const meta = MANIFEST.toolMetadata[spec.name];
    if (spec.sideEffecting) assert.equal(meta?.sideEffecting, true, spec.name);
    else assert.equal(meta?.replaySafe, true, spec.name);
  }
  const seen = [];
  plugin.register({
    pluginConfig: {},
    config: { plugins: { entries: { "memory-core": { enabled: false } } } },
    logger: {},
    runtime: {},
    registerMemoryCapability: () => {},
    registerTool: (factory, opts) => seen.push([opts.names[0], factory({ agentId: "main" }).name]),
    registerCli: () => {},
  });
  assert.deepEqual(seen.map(([declared]) => declared), names);
  for (const [declared, built] of seen) assert.equal(built, declared, "each factory builds the tool it declares");
});

test("the prompt section names the extra tools only when they are available", () => {
  const few = buildPromptSection({ availableTools: new Set(["memory_search"]) }).join("\n");
  assert.doesNotMatch(few, /memory_store|memory_about/);
  const all = buildPromptSection({ availableTools: new Set(["memory_search", "memory_get", ...GRAPHMEM_TOOL_SPECS.map((s) => s.name)]) }).join("\n");
  assert.match(all, /memory_about, memory_timeline, memory_opinions/);
  assert.match(all, /memory_store/);
  assert.match(all, /memory_forget/);
});

// ---- what each tool runs -----------------------------------------------------------

test("each tool runs its graphmem verb with --json and the workspace", async () => {
  const calls = [
    ["memory_about", { name: "Peter", now: "2025-12-15" }, ["about", "Peter", "--json", "--now", "2025-12-15"]],
    ["memory_timeline", { name: "Peter", since: "30d", until: "2025-12-01" }, ["timeline", "Peter", "--json", "--since", "30d", "--until", "2025-12-01"]],
    ["memory_opinions", { entity: "Peter", why: true }, ["opinions", "--json", "--entity", "Peter"]],
    ["memory_store", { text: "Bought a road bike.", entities: ["Peter"] }, ["retain", "W @Peter: Bought a road bike.", "--json"]],
    [
      "memory_store",
      { text: "Prefers tea", entities: ["Peter", "Jardim de São Lázaro"], kind: "opinion", confidence: 0.75, replaces: "memory.md#L9" },
      ["retain", "O(c=0.75) @Peter @Jardim-de-São-Lázaro: Prefers tea", "--json", "--replaces", "memory.md#L9"],
    ],
    ["memory_reflect", { since: "7d", dryRun: true }, ["reflect", "--json", "--since", "7d", "--dry-run"]],
    ["memory_core", { action: "list" }, ["core", "list", "--json"]],
    ["memory_core", { action: "apply", number: 1, dryRun: true }, ["core", "apply", "1", "--json", "--dry-run"]],
  ];
  for (const [name, params, expected] of calls) {
    await resetLog();
    const out = await tool(name).execute("t", params);
    assert.equal(out.details.ok, true, `${name}: ${JSON.stringify(out.details)}`);
    const [argv] = await argvLog();
    assert.deepEqual(argv, ["--workspace", "/ws", ...expected], name);
  }
});

test("tool results: store returns the new citation, opinions explain why only when asked, reflect hides diffs", async () => {
  const stored = (await tool("memory_store").execute("t", { text: "x", entities: ["Peter"], kind: "experience" })).details;
  assert.equal(stored.stored, "B @Peter: x");
  assert.equal(stored.citation, "memory/2025-12-12.md#L14");

  const plain = (await tool("memory_opinions").execute("t", {})).details;
  assert.equal(plain.count, 1);
  assert.equal(plain.opinions[0].confidence, 0.9);
  assert.equal(plain.opinions[0].statedConfidence, 0.8);
  assert.equal(plain.opinions[0].citation, "memory/2025-10-10.md#L11");
  assert.equal(plain.opinions[0].evidenceFor, undefined);
  const why = (await tool("memory_opinions").execute("t", { why: true })).details;
  assert.deepEqual(why.opinions[0].evidenceFor, [{ source: "memory/2025-12-06.md#L3" }]);
  assert.deepEqual(why.opinions[0].history, [{ day: "2025-12-06", delta: 0.1 }]);

  const reflect = (await tool("memory_reflect").execute("t", { dryRun: true })).details;
  assert.equal(reflect.dryRun, true);
  assert.equal(reflect.pagesChanged, 1);
  assert.equal(reflect.moves.length, 1);
  assert.equal(reflect.pages[0].diff, undefined);
  const diffs = (await tool("memory_reflect").execute("t", { dryRun: true, includeDiffs: true })).details;
  assert.match(diffs.pages[0].diff, /\+x/);

  const timeline = (await tool("memory_timeline").execute("t", { name: "Peter" })).details;
  assert.equal(timeline.events[0].source, "memory/2025-11-15.md#L12");
});

test("memory_search passes asOf/kind/budget and filters by entity through its aliases", async () => {
  await resetLog();
  const search = createMemorySearchTool(manager);
  const out = (await search.execute("t", { query: "where does he live", asOf: "2025-10-01", kind: ["world", "opinion"], budget: 500, maxResults: 2 })).details;
  assert.equal(out.results.length, 3, "the fake returns 3; no entity filter");
  assert.deepEqual((await argvLog())[0], [
    "--workspace", "/ws", "recall", "where does he live", "--k", "2", "--json", "--as-of", "2025-10-01", "--kind", "world", "--kind", "opinion", "--budget", "500",
  ]);

  await resetLog();
  const byEntity = (await search.execute("t", { query: "what about him", entity: "Peter", maxResults: 5 })).details;
  assert.deepEqual(byEntity.results.map((r) => r.citation), ["memory.md#L6", "memory/2025-10-10.md#L11"], "Peter and his alias pete, not Andy");
  const [about, recall] = await argvLog();
  assert.deepEqual(about, ["--workspace", "/ws", "about", "Peter", "--json"]);
  assert.equal(recall[recall.indexOf("--k") + 1], "50", "asks for more candidates than it keeps");
});

// ---- error mapping -----------------------------------------------------------------

test("graphmem's errors come back with a code and an action an agent can follow", async () => {
  const unknown = (await tool("memory_about").execute("t", { name: "Nobody" })).details;
  assert.equal(unknown.ok, false);
  assert.equal(unknown.code, "UNKNOWN_ENTITY");
  assert.match(unknown.error, /no entity named 'Nobody'/);
  assert.match(unknown.action, /name, slug or alias/);
  assert.equal(unknown.disabled, undefined, "a bad name does not disable memory");
  const badEntity = (await createMemorySearchTool(manager).execute("t", { query: "q", entity: "Nobody" })).details;
  assert.equal(badEntity.code, "UNKNOWN_ENTITY");
  assert.equal(badEntity.ok, false);
  assert.equal(badEntity.disabled, undefined, "memory_search: a bad parameter is not disabled memory");

  const forget = (await tool("memory_forget").execute("t", { citation: "memory/2025-11-15.md#L1" })).details;
  assert.equal(forget.code, "NOT_RETRACTABLE");
  assert.match(forget.action, /citation of a fact or opinion/);

  const bad = (await tool("memory_store").execute("t", { text: "x", entities: [] })).details;
  assert.equal(bad.code, "BAD_INPUT");
  assert.match(bad.action, /entities/);
  const apply = (await tool("memory_core").execute("t", { action: "apply" })).details;
  assert.equal(apply.code, "BAD_INPUT");
  assert.match(apply.action, /action=list/);
});

test("classifyError: each known failure maps to its code and OpenClaw's fix, unknown ones keep graphmem's hint", () => {
  const e = (message, extra = {}) => Object.assign(new Error(message), extra);
  const cases = [
    [e("graphmem recall: workspace /x does not exist", { hint: "pass --workspace DIR or set GRAPHMEM_WORKSPACE" }), "NO_WORKSPACE", /openclaw config set agents\.defaults\.workspace/],
    [e("graphmem recall: no Markdown notes in /x (looked for memory.md)"), "EMPTY_WORKSPACE", /memory_store/],
    [e("graphmem about: no index in /x/.memory yet", { hint: "run `graphmem --workspace /x index`" }), "NO_INDEX", /openclaw memory index/],
    [e("graphmem retain: malformed Retain bullet 'X @P: y': unknown prefix 'X'; nothing was written"), "BAD_INPUT", /kind \(world/],
    [e("graphmem recall: Invalid value for --since: 'blah' is not a time window", { exitCode: 2 }), "BAD_INPUT", /30d, 2w/],
    [e("graphmem recall: Invalid value for --kind: unknown kind foo", { exitCode: 2 }), "BAD_INPUT", /world, experience/],
    [e("graphmem recall did not finish within 10 ms", { code: "GRAPHMEM_TIMEOUT", hint: "Raise timeoutMs" }), "GRAPHMEM_TIMEOUT", /timeoutMs/],
    [e("graphmem reflect: something new", { hint: "do the thing" }), "GRAPHMEM_ERROR", /do the thing/],
  ];
  for (const [err, code, action] of cases) {
    const got = classifyError(err);
    assert.equal(got.code, code, err.message);
    assert.match(got.action, action, err.message);
    assert.doesNotMatch(got.action, /GRAPHMEM_WORKSPACE/, "the plugin always passes --workspace, so that variable is no fix");
  }
  assert.equal(classifyError(e("plain")).action, undefined, "no hint, no made-up action");
});

test("pure helpers: retain bullets, mentions, entity filter, opinion and reflect shapes", () => {
  assert.equal(buildRetainBullet({ text: "  Lives in\nPorto. ", entities: ["@Peter"] }), "W @Peter: Lives in Porto.");
  assert.equal(buildRetainBullet({ text: "t", entities: "Peter", kind: "summary" }), "S @Peter: t");
  assert.equal(buildRetainBullet({ text: "t", entities: ["P"], kind: "opinion" }), "O @P: t");
  assert.throws(() => buildRetainBullet({ text: "t", entities: ["P"], kind: "opinion", confidence: 2 }), /confidence/);
  assert.throws(() => buildRetainBullet({ text: "t", entities: ["P"], kind: "fact" }), (err) => err.code === "BAD_INPUT" && /world, experience/.test(err.hint));
  assert.throws(() => buildRetainBullet({ text: " ", entities: ["P"] }), /needs text/);
  assert.equal(mentionOf(" New  York "), "New-York");
  assert.deepEqual(filterPacketsByEntity(PACKETS, CARD, 1).map((p) => p.id), ["f1"]);
  assert.deepEqual(filterPacketsByEntity(null, CARD, 1), []);
  assert.deepEqual(shapeOpinions(null), []);
  assert.deepEqual(shapeReflect({}).pages, []);
});

// ---- graphmem missing ---------------------------------------------------------------

test("graphmem missing: every tool degrades to disabled with the install-from-a-clone fix, nothing throws", async () => {
  const missing = resolvePluginSettings({ command: path.join(dir, "no-such-graphmem"), transport: "cli" });
  const gone = () => new GraphmemMemoryManager({ settings: missing, workspaceDir: "/ws", agentId: "main" });
  assert.match(INSTALL_HINT, /pip install -e \/path\/to\/graphmem/);
  assert.doesNotMatch(INSTALL_HINT, /pip install graphmem\b/, "no package index has graphmem");
  const params = {
    memory_about: { name: "Peter" },
    memory_timeline: { name: "Peter" },
    memory_opinions: {},
    memory_store: { text: "x", entities: ["Peter"] },
    memory_forget: { citation: "memory.md#L6" },
    memory_reflect: {},
    memory_core: { action: "list" },
  };
  for (const spec of GRAPHMEM_TOOL_SPECS) {
    const out = (await createGraphmemTool(spec, gone).execute("t", params[spec.name])).details;
    assert.equal(out.ok, false, spec.name);
    assert.equal(out.disabled, true, spec.name);
    assert.equal(out.code, "GRAPHMEM_NOT_FOUND", spec.name);
    assert.match(out.error, /not installed or not on PATH/, spec.name);
    assert.match(out.action, /pip install -e/, spec.name);
    assert.match(out.action, /plugins\.entries\.graphmem\.config\.command/, spec.name);
  }
  const search = (await createMemorySearchTool(gone).execute("t", { query: "q" })).details;
  assert.equal(search.disabled, true);
  assert.equal(search.code, "GRAPHMEM_NOT_FOUND");
  assert.deepEqual(search.results, []);
  assert.match(search.action, /pip install -e/);
  // memory_get reads Markdown itself, so it still works without graphmem.
  const ws = await fs.mkdtemp(path.join(os.tmpdir(), "gm-oc-ws-"));
  await fs.writeFile(path.join(ws, "MEMORY.md"), "# Memory\n- Peter lives in Porto.\n");
  const got = (await createMemoryGetTool(() => new GraphmemMemoryManager({ settings: missing, workspaceDir: ws, agentId: "main" })).execute("t", { path: "MEMORY.md#L2" })).details;
  assert.equal(got.status, "ok");
  assert.equal(got.text, "- Peter lives in Porto.");
  await fs.rm(ws, { recursive: true, force: true });
});

// ---- OpenClaw's workspace conventions ------------------------------------------------

test("MEMORY.md is the core file; legacy memory.md and a split pair are reported with the fix", async () => {
  assert.deepEqual(coreFileState(["MEMORY.md", "memory"]), { file: "MEMORY.md", files: ["MEMORY.md"] });
  const legacy = coreFileState(["memory.md"]);
  assert.equal(legacy.file, "memory.md");
  assert.match(legacy.warning, /rename it to MEMORY\.md/);
  const split = coreFileState(["MEMORY.md", "memory.md"]);
  assert.equal(split.file, "MEMORY.md");
  assert.match(split.warning, /openclaw doctor --fix/);
  assert.equal(coreFileState([]).file, null);

  const ws = await fs.mkdtemp(path.join(os.tmpdir(), "gm-oc-core-"));
  await fs.writeFile(path.join(ws, "MEMORY.md"), "# Memory\n");
  await fs.writeFile(path.join(ws, "memory.md"), "# Memory (old)\n");
  const m = () => new GraphmemMemoryManager({ settings, workspaceDir: ws, agentId: "main" });
  const listed = (await createGraphmemTool(GRAPHMEM_TOOL_SPECS.find((s) => s.name === "memory_core"), m).execute("t", { action: "list" })).details;
  assert.equal(listed.coreFile, "MEMORY.md");
  assert.match(listed.warning, /both MEMORY\.md and legacy memory\.md/);
  const status = await m().refreshStatus();
  const lines = formatStatusLines("main", status).join("\n");
  assert.match(lines, /core file: MEMORY\.md/);
  assert.match(lines, /WARNING: {3}both MEMORY\.md/);
  await fs.rm(ws, { recursive: true, force: true });
});

// ---- `openclaw memory recall|about|timeline|opinions|retain|forget|reflect` ------------

class FakeCommand {
  constructor(name) {
    this.name = name;
    this.subs = new Map();
    this.values = {};
  }
  command(name) {
    const sub = new FakeCommand(name);
    this.subs.set(name, sub);
    return sub;
  }
  description() { return this; }
  argument() { return this; }
  addHelpText() { return this; }
  option(flags, _desc, _parse, fallback) {
    const long = flags.split(/[ ,]+/).find((f) => f.startsWith("--")).slice(2);
    const key = long.replace(/-([a-z])/g, (_m, c) => c.toUpperCase());
    if (fallback !== undefined) this.values[key] = fallback;
    return this;
  }
  action(fn) { this.fn = fn; return this; }
  outputHelp() {}
  opts() { return this.values; }
  async run(positional, values = {}) {
    Object.assign(this.values, values);
    await this.fn(...positional, this.values, this);
  }
}

async function captureStdout(fn) {
  const write = process.stdout.write;
  let out = "";
  process.stdout.write = (chunk) => ((out += chunk), true);
  const code = process.exitCode;
  try {
    await fn();
  } finally {
    process.stdout.write = write;
  }
  const exit = process.exitCode;
  process.exitCode = code;
  return { out, exit };
}

test("the CLI verbs run graphmem's own commands (its text, or its JSON with --json) and map failures", async () => {
  const { registerGraphmemMemoryCli } = await import("../src/cli.js");
  const root = new FakeCommand("openclaw");
  registerGraphmemMemoryCli(root, { getConfig: () => ({}), getManager: () => manager() }, "memory");
  const memory = root.subs.get("memory");
  for (const verb of ["status", "index", "search", "recall", "about", "timeline", "opinions", "retain", "forget", "reflect"]) {
    assert.ok(memory.subs.has(verb), `openclaw memory ${verb}`);
  }
  const cases = [
    ["recall", ["where does Peter live?"], { k: 25, since: "30d" }, ["recall", "where does Peter live?", "--k", "25", "--since", "30d"]],
    ["about", ["Peter"], { json: true }, ["about", "Peter", "--json"]],
    ["timeline", ["Peter"], { since: "2025-11-01" }, ["timeline", "Peter", "--since", "2025-11-01"]],
    ["opinions", [], { entity: "Peter", json: true }, ["opinions", "--json", "--entity", "Peter"]],
    ["retain", ["W @Peter: x"], {}, ["retain", "W @Peter: x"]],
    ["forget", ["memory.md#L6"], { reason: "moved" }, ["retract", "memory.md#L6", "--reason", "moved"], 1], // the fake refuses it
    ["reflect", [], { since: "7d", dryRun: true }, ["reflect", "--since", "7d", "--dry-run"]],
  ];
  for (const [verb, positional, values, expected, exitCode] of cases) {
    await resetLog();
    const fresh = new FakeCommand("openclaw");
    registerGraphmemMemoryCli(fresh, { getConfig: () => ({}), getManager: () => manager() }, "memory");
    const { exit } = await captureStdout(() => fresh.subs.get("memory").subs.get(verb).run(positional, values));
    assert.equal(exit, exitCode, `openclaw memory ${verb} exits ${exitCode ?? 0}`);
    assert.deepEqual((await argvLog())[0], ["--workspace", "/ws", ...expected], `openclaw memory ${verb}`);
  }
  const about = new FakeCommand("openclaw");
  registerGraphmemMemoryCli(about, { getConfig: () => ({}), getManager: () => manager() }, "memory");
  const { out, exit } = await captureStdout(() => about.subs.get("memory").subs.get("about").run(["Nobody"], { json: true }));
  assert.equal(exit, 1);
  const failed = JSON.parse(out);
  assert.equal(failed.error.code, "UNKNOWN_ENTITY");
  assert.match(failed.error.hint, /name, slug or alias/);
});
