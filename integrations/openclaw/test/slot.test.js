// node --test integrations/openclaw/test/*.test.js : the memory slot's wider contract
// (citations, search options, Active Memory trigger candidates, auto-recall, auto-capture,
// `memory status --fix`, the package's file list) against a fake `graphmem`, no network.
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import plugin from "../index.js";
import { captureCandidates, captureStatement, recallContext, recallQuery } from "../src/auto.js";
import { fixWorkspace } from "../src/cli.js";
import { resolvePluginSettings } from "../src/graphmem.js";
import { GraphmemMemoryManager } from "../src/manager.js";
import { includeCitations, triggerCandidates } from "../src/mapping.js";
import { buildPromptSection, createMemorySearchTool } from "../src/tools.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(HERE, "..");

const FAKE = `
const fs = require("node:fs");
const argv = process.argv.slice(2);
fs.appendFileSync(process.env.GM_LOG, JSON.stringify(argv) + "\\n");
const table = JSON.parse(fs.readFileSync(process.env.GM_TABLE, "utf8"));
const rest = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === "--workspace" || argv[i] === "--extra-path") i++;
  else rest.push(argv[i]);
}
const hit = table[rest[0]] ?? { code: 1, stdout: { error: "fake graphmem: no answer for " + rest[0] } };
process.stdout.write(JSON.stringify(hit.stdout));
process.exitCode = hit.code ?? 0;
`;
const PACKETS = [
  { id: "f1", kind: "world", timestamp: null, entities: ["Peter", "Porto"], content: "Lives in Porto.", source: "MEMORY.md#L3", score: 4.2 },
  { id: "f2", kind: "opinion", timestamp: "2025-10-10", entities: ["Peter"], content: "Prefers voice notes.", source: "memory/2025-10-10.md#L11", score: 2.0, confidence: 0.9 },
];
const TABLE = {
  recall: { stdout: PACKETS },
  entities: { stdout: [{ slug: "peter", name: "Peter", aliases: ["Pete"], mentions: 9 }, { slug: "ana", name: "Ana", aliases: [], mentions: 2 }] },
  retain: { stdout: { path: "memory/2025-12-12.md", line: 4, source: "memory/2025-12-12.md#L4", warnings: [] } },
  status: { stdout: { workspace: "/ws", generation: "gen-000001", counts: {}, files: 1, fresh: true, degraded: [] } },
  index: { stdout: {} },
};

let dir;
let ws;
let settings;
let log;

before(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "gm-oc-slot-"));
  ws = path.join(dir, "ws");
  await fs.mkdir(ws);
  await fs.writeFile(
    path.join(ws, "MEMORY.md"),
    "# Memory\n\n- W @Peter @Porto: Lives in Porto since Nov 15, 2025.\n- Timezone: Europe/Lisbon.\n- Drinks green tea.\n",
  );
  await fs.writeFile(path.join(ws, "USER.md"), "# User\n\n- A irmã Ana mora em Braga.\n");
  const bin = path.join(dir, "graphmem");
  await fs.writeFile(bin, `#!${process.execPath}\n${FAKE}`, { mode: 0o755 });
  log = path.join(dir, "argv.log");
  await fs.writeFile(path.join(dir, "table.json"), JSON.stringify(TABLE));
  settings = { command: bin, env: { GM_LOG: log, GM_TABLE: path.join(dir, "table.json") }, transport: "cli" };
});

after(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function argvLog() {
  const text = await fs.readFile(log, "utf8").catch(() => "");
  return text.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

const manager = () => new GraphmemMemoryManager({ settings: resolvePluginSettings(settings), workspaceDir: ws, agentId: "main" });

test("memory.citations: on adds 'Source:' to each snippet, off drops every citation, auto hides them in groups", async () => {
  const run = async (citations, sessionKey) =>
    (await createMemorySearchTool(manager, { getConfig: () => ({ memory: { citations } }), sessionKey }).execute("t", { query: "Peter" })).details;
  const on = await run("on");
  assert.equal(on.citations, "on");
  assert.equal(on.results[0].citation, "MEMORY.md#L3");
  assert.match(on.results[0].snippet, /\n\nSource: MEMORY\.md#L3$/);
  const off = await run("off");
  assert.equal(off.citations, "off");
  assert.equal(off.results.length, 2);
  for (const r of off.results) {
    assert.equal(r.citation, undefined);
    assert.doesNotMatch(r.snippet, /Source:/);
  }
  assert.equal((await run(undefined, "agent:main:main")).citations, "auto");
  assert.equal((await run(undefined, "agent:main:main")).results[0].citation, "MEMORY.md#L3", "auto: a direct chat cites");
  assert.equal((await run(undefined, "agent:main:telegram:group:42")).results[0].citation, undefined, "auto: a group does not");
  assert.equal(includeCitations("auto", "agent:main:discord:channel:1"), false);
  const off_prompt = buildPromptSection({ availableTools: new Set(["memory_search"]), citationsMode: "off" }).join("\n");
  assert.match(off_prompt, /Citations are disabled/);
  assert.doesNotMatch(buildPromptSection({ availableTools: new Set(["memory_search"]) }).join("\n"), /disabled/);
});

test("search options: sources without memory find nothing, an aborted signal stops the search, sessionKey is accepted", async () => {
  assert.deepEqual(await manager().search("Peter", { sources: ["sessions"] }), []);
  assert.equal((await manager().search("Peter", { sources: ["memory", "sessions"], sessionKey: "agent:main:main" })).length, 2);
  const aborted = AbortSignal.abort(new Error("caller gave up"));
  await assert.rejects(manager().search("Peter", { signal: aborted }), /caller gave up/);
  const tool = createMemorySearchTool(manager, { getConfig: () => ({}) });
  await assert.rejects(tool.execute("t", { query: "Peter" }, aborted), /caller gave up/, "an aborted call is not 'memory disabled'");
});

test("Active Memory trigger candidates: core-file lines, triggered by the names they mention and their aliases", async () => {
  const found = await manager().listTriggerCandidates({});
  const byLine = Object.fromEntries(found.map((c) => [`${c.path}#L${c.startLine}`, c]));
  const porto = byLine["MEMORY.md#L3"];
  assert.ok(porto, JSON.stringify(found));
  assert.deepEqual(porto.triggers.split(";").sort(), ["Pete", "Peter", "Porto"]);
  assert.equal(porto.snippet, "@Peter @Porto: Lives in Porto since Nov 15, 2025.");
  assert.equal(porto.source, "memory");
  assert.equal(porto.provenance.originClass, "owner", "curated by the owner: eligible for automatic injection");
  assert.equal(byLine["MEMORY.md#L4"].triggers, "Timezone", "a 'Label:' line triggers on its label");
  assert.equal(byLine["MEMORY.md#L5"], undefined, "a line naming nothing triggers nothing");
  assert.equal(byLine["USER.md#L3"].triggers, "Ana", "USER.md counts, in Portuguese too");
  assert.equal((await manager().listTriggerCandidates({ limit: 1 })).length, 1);
  // without an index (graphmem entities fails) the names as written still trigger
  const bare = triggerCandidates([{ path: "MEMORY.md", text: "- O(c=0.9) @Andy: Loves the rain.\n" }]);
  assert.equal(bare[0].triggers, "Andy");
  assert.equal(bare[0].snippet, "@Andy: Loves the rain.");
});

function registered(pluginConfig) {
  const hooks = {};
  plugin.register({
    pluginConfig,
    config: { plugins: { entries: { "memory-core": { enabled: false } } } },
    logger: { warn() {} },
    runtime: {},
    on: (name, handler) => (hooks[name] = handler),
    registerMemoryCapability() {},
    registerTool() {},
    registerCli() {},
  });
  return hooks;
}

test("auto-recall and auto-capture are off unless asked for", () => {
  assert.deepEqual(Object.keys(registered(settings)), []);
  const s = resolvePluginSettings({});
  assert.equal(s.autoRecall, false);
  assert.equal(s.autoCapture, false);
  assert.deepEqual(Object.keys(registered({ ...settings, autoRecall: true, autoCapture: true })).sort(), ["agent_end", "before_prompt_build"]);
});

test("auto-recall puts graphmem's cited results for the user's message into the turn", async () => {
  const hooks = registered({ ...settings, workspace: ws, autoRecall: true });
  const out = await hooks.before_prompt_build({ prompt: "old", currentUserMessage: "  where does   Peter live? ", messages: [] }, { agentId: "main" });
  assert.match(out.prependContext, /^<relevant-memories>/);
  assert.match(out.prependContext, /- \[world\] Lives in Porto\. \(Source: MEMORY\.md#L3\)/);
  const recall = (await argvLog()).filter((a) => a.includes("recall")).at(-1);
  assert.ok(recall.includes("where does Peter live?") && recall.includes("3"), JSON.stringify(recall));
  assert.equal(await hooks.before_prompt_build({ prompt: "", messages: [] }, {}), undefined, "no message, no recall");
  assert.equal(recallQuery({ prompt: "x".repeat(50) }, 10), "x".repeat(10));
  assert.equal(recallContext([]), null);
});

test("auto-capture writes 'remember ...' and preferences as Retain bullets through graphmem retain, once", async () => {
  const hooks = registered({ ...settings, workspace: ws, autoCapture: true });
  const messages = [
    { role: "user", content: "Remember that my sister Ana lives in Braga." },
    { role: "assistant", content: [{ type: "text", text: "Noted, I will remember that." }] },
    { role: "user", content: [{ type: "text", text: "Eu prefiro chá verde a café." }] },
    { role: "user", content: "What's the weather?" },
  ];
  await fs.rm(log, { force: true });
  await hooks.agent_end({ success: true, messages }, { agentId: "main" });
  const retains = (await argvLog()).filter((a) => a.includes("retain")).map((a) => a[a.indexOf("retain") + 1]);
  assert.deepEqual(retains, ["W @User: My sister Ana lives in Braga.", "O(c=0.8) @User: Eu prefiro chá verde a café."]);
  await hooks.agent_end({ success: true, messages }, { agentId: "main" });
  assert.equal((await argvLog()).filter((a) => a.includes("retain")).length, 2, "a message is captured once");
  // what is not the user's own words is never captured
  assert.deepEqual(captureCandidates([{ role: "user", content: "<relevant-memories>\nremember that x\n</relevant-memories>" }]), []);
  assert.deepEqual(captureCandidates([{ role: "user", content: `remember that ${"x".repeat(600)}` }]), []);
  assert.equal(captureCandidates(Array.from({ length: 5 }, (_, i) => ({ role: "user", content: `remember that fact ${i}` }))).length, 3);
  assert.equal(captureStatement("Lembra-te que o Peter mudou-se para o Porto."), "O Peter mudou-se para o Porto.");
});

test("memory status --fix renames a lone legacy memory.md to MEMORY.md, and leaves a pair alone", async () => {
  const a = await fs.mkdtemp(path.join(os.tmpdir(), "gm-oc-fix-"));
  await fs.writeFile(path.join(a, "memory.md"), "- Drinks tea.\n");
  assert.match((await fixWorkspace(a))[0], /renamed memory\.md to MEMORY\.md/);
  assert.deepEqual(await fs.readdir(a), ["MEMORY.md"]);
  assert.deepEqual(await fixWorkspace(a), []);
  await fs.writeFile(path.join(a, "memory.md"), "- Old.\n");
  if ((await fs.readdir(a)).length === 2) assert.deepEqual(await fixWorkspace(a), [], "merging two files is the user's call");
  await fs.rm(a, { recursive: true, force: true });
});

test("package.json lists only files that exist, and the manifest's schema takes every setting", async () => {
  const pkg = JSON.parse(await fs.readFile(path.join(ROOT, "package.json"), "utf8"));
  for (const entry of pkg.files) await fs.access(path.join(ROOT, entry));
  const manifest = JSON.parse(await fs.readFile(path.join(ROOT, "openclaw.plugin.json"), "utf8"));
  const known = Object.keys(manifest.configSchema.properties);
  for (const key of ["autoRecall", "autoCapture", "captureEntity", "captureMaxChars", "recallMaxChars", "autoRecallMaxResults"]) {
    assert.ok(known.includes(key), key);
  }
});

test("OpenClaw's memory.search.extraPaths reach graphmem as --extra-path, defaults' and the agent's own", async () => {
  const { globalArgs, memoryExtraPaths } = await import("../src/graphmem.js");
  const cfg = {
    memory: { search: { extraPaths: ["~/notes", { path: "docs", pattern: "**/*.md" }, "  "] } },
    agents: { list: [{ id: "main", memory: { search: { extraPaths: ["/srv/wiki", "docs"] } } }] },
  };
  const extra = memoryExtraPaths(cfg, "main");
  assert.deepEqual(extra, [path.join(os.homedir(), "notes"), "docs", "/srv/wiki"]);
  assert.deepEqual(memoryExtraPaths({}, "main"), []);
  assert.deepEqual(globalArgs({ args: [], extraPaths: ["docs"] }, "/ws"), ["--workspace", "/ws", "--extra-path", "docs"]);
  await fs.rm(log, { force: true });
  await new GraphmemMemoryManager({ settings: { ...resolvePluginSettings(settings), extraPaths: extra }, workspaceDir: ws, agentId: "main" }).search("Peter");
  const argv = (await argvLog())[0];
  assert.deepEqual(argv.slice(0, 8), ["--workspace", ws, "--extra-path", extra[0], "--extra-path", "docs", "--extra-path", "/srv/wiki"]);
});

test("`openclaw memory triggers MESSAGE` lists the lines a message would trigger", async () => {
  const { matchTriggers } = await import("../src/cli.js");
  const found = await manager().listTriggerCandidates({});
  assert.deepEqual(matchTriggers(found, "How is Pete doing?").map((c) => c.citation), ["MEMORY.md#L3"]);
  assert.deepEqual(matchTriggers(found, "Como está a Ana?").map((c) => c.citation), ["USER.md#L3"]);
  assert.deepEqual(matchTriggers(found, "Nothing here"), []);
});
