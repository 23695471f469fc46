// The MemorySearchManager OpenClaw asks the memory-slot owner for, backed by graphmem.
import fs from "node:fs/promises";
import path from "node:path";
import os from "node:os";

import {
  aboutArgs,
  coreArgs,
  graphmemJson,
  opinionsArgs,
  recallArgs,
  reflectArgs,
  retainArgs,
  retractArgs,
  runGraphmem,
  timelineArgs,
} from "./graphmem.js";
import { mcpClientFor, recallToolArgs } from "./mcp.js";
import {
  coreFileNames,
  coreFileState,
  filterPacketsByEntity,
  parseCitation,
  recallToResults,
  statusToProviderStatus,
  triggerCandidates,
} from "./mapping.js";

const DEFAULT_READ_LINES = 200;

/** OpenClaw's per-search deadline channel (a symbol-keyed option; see the memory host SDK). */
function deadlineControl(opts) {
  for (const key of Object.getOwnPropertySymbols(opts ?? {})) {
    if (key.description === "openclaw.memory-search-deadline-control") {
      const control = opts[key];
      if (control && typeof control.report === "function") return control;
    }
  }
  return null;
}

/** `work`, or a rejection as soon as `signal` aborts (the work itself runs on). */
export function abortable(work, signal) {
  if (!signal) return work;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error("memory search aborted"));
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}
const MAX_READ_CHARS = 40_000;

/** The agent's workspace: plugin override, else OpenClaw's own resolution. */
export function resolveWorkspace({ settings, cfg, agentId, runtime }) {
  if (settings.workspace) return path.resolve(settings.workspace);
  try {
    // (a registration that does not activate plugins, as `openclaw status` makes, may hand
    // over a runtime whose every property access throws)
    const resolver = runtime?.agent?.resolveAgentWorkspaceDir;
    const dir = typeof resolver === "function" ? resolver(cfg ?? {}, agentId ?? "main") : null;
    if (typeof dir === "string" && dir) return dir;
  } catch {
    // fall through to the configured or documented default
  }
  const configured = cfg?.agents?.defaults?.workspace;
  if (typeof configured === "string" && configured.trim()) {
    const p = configured.trim();
    return p.startsWith("~/") ? path.join(os.homedir(), p.slice(2)) : path.resolve(p);
  }
  return path.join(os.homedir(), ".openclaw", "workspace");
}

/** Accepts `memory/x.md`, `memory/x.md#L5-L9` and absolute paths inside the workspace. */
export function resolveReadTarget(workspaceDir, relPath, from, lines) {
  const cite = parseCitation(String(relPath ?? "").trim());
  if (!cite || !cite.path) throw new Error("memory_get needs a path such as memory/2025-11-27.md#L12-L15");
  const abs = path.resolve(workspaceDir, cite.path);
  const rel = path.relative(workspaceDir, abs);
  if (rel.startsWith("..") || path.isAbsolute(rel)) {
    throw new Error(`${cite.path} is outside the memory workspace ${workspaceDir}`);
  }
  if (!rel.toLowerCase().endsWith(".md")) throw new Error(`${rel} is not a Markdown memory file`);
  if (rel.split(path.sep).includes(".memory")) throw new Error(`${rel} is graphmem's derived index, not memory`);
  let start = Number.isInteger(from) && from >= 1 ? from : null;
  let count = Number.isInteger(lines) && lines >= 1 ? lines : null;
  if (start === null && cite.startLine !== null) {
    start = cite.startLine;
    if (count === null) count = cite.endLine - cite.startLine + 1;
  }
  return { abs, rel: rel.split(path.sep).join("/"), from: start ?? 1, lines: count ?? DEFAULT_READ_LINES };
}

export async function readMemoryFile(workspaceDir, params) {
  const target = resolveReadTarget(workspaceDir, params.relPath, params.from, params.lines);
  let text;
  try {
    const real = await fs.realpath(target.abs);
    const realWs = await fs.realpath(workspaceDir);
    if (path.relative(realWs, real).startsWith("..")) {
      throw new Error(`${target.rel} links outside the memory workspace`);
    }
    text = await fs.readFile(real, "utf8");
  } catch (err) {
    if (err && err.code === "ENOENT") return { status: "not_found", text: "", path: target.rel };
    throw err;
  }
  const all = text.split("\n");
  const begin = Math.min(target.from - 1, all.length);
  let slice = all.slice(begin, begin + target.lines).join("\n");
  let truncated = begin + target.lines < all.length;
  if (slice.length > MAX_READ_CHARS) {
    slice = slice.slice(0, MAX_READ_CHARS);
    truncated = true;
  }
  const shown = slice.split("\n").length;
  const result = { status: "ok", text: slice, path: target.rel, from: target.from, lines: shown };
  if (truncated) {
    result.truncated = true;
    result.nextFrom = target.from + shown;
  }
  return result;
}

export class GraphmemMemoryManager {
  /** `useMcp`: answer searches from a long-lived `graphmem serve` (gateway) instead of one CLI run each. */
  constructor({ settings, workspaceDir, agentId, useMcp = false }) {
    this.settings = settings;
    this.useMcp = useMcp;
    this.workspaceDir = workspaceDir;
    this.agentId = agentId;
    this.lastStatus = null;
    this.lastError = null;
  }

  /** Fetch `graphmem status --json` so the synchronous status() has something to say. */
  async refreshStatus() {
    const gm = await graphmemJson(this.settings, this.workspaceDir, ["status", "--json"]);
    const status = statusToProviderStatus(gm, { workspaceDir: this.workspaceDir, command: this.settings.command });
    status.custom.graphmem.coreFile = await this.coreFile();
    this.lastStatus = status;
    return this.lastStatus;
  }

  /**
   * graphmem recall -> OpenClaw results. `entity` keeps the results that mention it (by name,
   * slug or alias): graphmem's recall has no entity filter, so the plugin resolves the name
   * with `about` and asks recall for more candidates than it returns.
   */
  async search(query, opts = {}) {
    // graphmem indexes the workspace's memory files, not session transcripts: a search of
    // `sessions` only has nothing to say (as memory-core's, with sessions off).
    if (Array.isArray(opts.sources) && opts.sources.length > 0 && !opts.sources.includes("memory")) return [];
    opts.signal?.throwIfAborted?.();
    const k = Number.isInteger(opts.maxResults) && opts.maxResults > 0 ? opts.maxResults : this.settings.maxResults;
    const card = opts.entity ? await this.about(opts.entity, { now: opts.now }) : null;
    const want = card ? Math.min(1000, Math.max(k * 5, 50)) : k;
    let packets;
    if (this.useMcp && !opts.lexicalOnly) {
      const client = mcpClientFor(this.settings, this.workspaceDir);
      // Starting `graphmem serve` (loading its models) is not search time: the caller's
      // deadline pauses while it starts, as for memory-core's cold local embedding service.
      const control = deadlineControl(opts);
      const cold = !client.ready;
      if (cold) control?.report("pause");
      try {
        await abortable(client.start(), opts.signal);
      } finally {
        if (cold) control?.report("resume");
      }
      const out = await abortable(client.callTool("memory_recall", recallToolArgs(query, { ...opts, k: want })), opts.signal);
      packets = out?.packets;
    } else {
      const args = recallArgs(query, {
        k: want,
        preset: opts.lexicalOnly ? "lexical" : (opts.preset ?? this.settings.preset),
        since: opts.since,
        until: opts.until,
        asOf: opts.asOf,
        kind: opts.kind,
        budget: opts.budget,
        now: opts.now,
      });
      packets = await graphmemJson(this.settings, this.workspaceDir, args, { signal: opts.signal });
    }
    if (card) packets = filterPacketsByEntity(packets, card, k);
    return recallToResults(packets, { minScore: opts.minScore });
  }

  /**
   * Active Memory's quick trigger step: the curated lines of the core files (MEMORY.md,
   * legacy memory.md, USER.md), each with the names it mentions (and their aliases) as
   * trigger phrases, so a message naming Peter or Pete injects what MEMORY.md says of him.
   */
  async listTriggerCandidates(opts = {}) {
    const limit = Math.max(1, Math.min(512, Math.floor(opts?.limit ?? 512)));
    const files = [];
    for (const name of coreFileNames(await fs.readdir(this.workspaceDir).catch(() => []))) {
      const text = await fs.readFile(path.join(this.workspaceDir, name), "utf8").catch(() => null);
      if (text !== null) files.push({ path: name, text });
    }
    if (files.length === 0) return [];
    let entities = [];
    try {
      const out = await graphmemJson(this.settings, this.workspaceDir, ["entities", "--json"]);
      entities = Array.isArray(out) ? out : Array.isArray(out?.entities) ? out.entities : [];
    } catch {
      // no index yet: the names as written still trigger
    }
    return triggerCandidates(files, entities).slice(0, limit);
  }

  // The other graphmem verbs, one CLI run each with --json.
  async about(name, { now } = {}) {
    return await graphmemJson(this.settings, this.workspaceDir, aboutArgs(name, { now }));
  }

  async timeline(name, opts = {}) {
    return await graphmemJson(this.settings, this.workspaceDir, timelineArgs(name, opts));
  }

  async opinions(opts = {}) {
    return await graphmemJson(this.settings, this.workspaceDir, opinionsArgs(opts));
  }

  async retain(bullet, opts = {}) {
    return await graphmemJson(this.settings, this.workspaceDir, retainArgs(bullet, opts));
  }

  async retract(source, opts = {}) {
    return await graphmemJson(this.settings, this.workspaceDir, retractArgs(source, opts));
  }

  async reflect(opts = {}) {
    return await graphmemJson(this.settings, this.workspaceDir, reflectArgs(opts), { timeoutMs: this.settings.indexTimeoutMs });
  }

  async core(action, opts = {}) {
    return await graphmemJson(this.settings, this.workspaceDir, coreArgs(action, opts));
  }

  /** Which root memory file the workspace has (MEMORY.md canonical, memory.md legacy). */
  async coreFile() {
    const names = await fs.readdir(this.workspaceDir).catch(() => []);
    return coreFileState(names);
  }

  async readFile(params) {
    return await readMemoryFile(this.workspaceDir, params);
  }

  status() {
    if (this.lastStatus) return this.lastStatus;
    return {
      backend: "builtin",
      provider: "graphmem",
      workspaceDir: this.workspaceDir,
      dbPath: `${this.workspaceDir}/.memory`,
      sources: ["memory"],
      ...(this.lastError ? { lastSyncError: this.lastError } : {}),
      custom: { graphmem: { command: this.settings.command } },
    };
  }

  /** `graphmem index` (incremental; `force` rebuilds). */
  async sync(params = {}) {
    const args = ["index"];
    if (params.force) args.push("--force");
    try {
      const { stdout, stderr } = await runGraphmem(this.settings, this.workspaceDir, args, {
        timeoutMs: this.settings.indexTimeoutMs,
      });
      this.lastError = null;
      return { stdout: stdout.trim(), stderr: stderr.trim() };
    } catch (err) {
      this.lastError = err instanceof Error ? err.message : String(err);
      throw err;
    }
  }

  getCachedEmbeddingAvailability() {
    const vector = this.lastStatus?.vector;
    return vector ? { ok: Boolean(vector.enabled), checked: true, cached: true } : null;
  }

  async probeEmbeddingAvailability() {
    const status = await this.refreshStatus();
    const ok = Boolean(status.vector?.enabled);
    return ok ? { ok, checked: true } : { ok, checked: true, error: "graphmem runs without embeddings" };
  }

  async probeVectorAvailability() {
    const status = await this.refreshStatus();
    return Boolean(status.vector?.available);
  }

  async close() {}
}
