// A minimal MCP stdio client for `graphmem serve`: one long-lived server per
// workspace keeps graphmem's models and open index warm, so a gateway's
// memory_search costs a recall, not a Python start-up (measured in the note).
import { spawn } from "node:child_process";

import { GraphmemCommandError, globalArgs, notFoundMessage } from "./graphmem.js";

const PROTOCOL_VERSION = "2025-11-25";
const clients = new Map();

export class McpClient {
  constructor(settings, workspace) {
    this.settings = settings;
    this.workspace = workspace;
    this.nextId = 1;
    this.pending = new Map();
    this.buffer = "";
    this.ready = null;
    this.child = null;
    this.stderrTail = "";
  }

  start() {
    if (this.ready) return this.ready;
    const argv = [...globalArgs(this.settings, this.workspace), "serve"];
    const child = spawn(this.settings.command, argv, {
      env: { ...process.env, ...this.settings.env },
      stdio: ["pipe", "pipe", "pipe"],
      windowsHide: true,
    });
    this.child = child;
    // A one-shot CLI process must be able to exit while the server idles, but not while a
    // request is in flight: hold() refs the child and its pipes per pending request.
    this.setRef(false);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk) => this.onData(chunk));
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-2000);
    });
    this.ready = new Promise((resolve, reject) => {
      child.once("error", (err) => {
        const e = err.code === "ENOENT" || err.code === "EACCES" ? notFoundMessage(this.settings.command) : err;
        this.fail(e);
        reject(e);
      });
      child.once("exit", (code) => {
        const last = this.stderrTail.trim().split("\n").pop() || `exit code ${code}`;
        this.fail(new GraphmemCommandError(`graphmem serve stopped: ${last}`));
      });
      this.request("initialize", {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "openclaw-graphmem", version: "0.1.0" },
      })
        .then(() => {
          this.notify("notifications/initialized", {});
          resolve();
        })
        .catch(reject);
    });
    return this.ready;
  }

  setRef(on) {
    const child = this.child;
    if (!child) return;
    for (const handle of [child, child.stdin, child.stdout, child.stderr]) {
      if (on) handle?.ref?.();
      else handle?.unref?.();
    }
  }

  onData(chunk) {
    this.buffer += chunk;
    let nl = this.buffer.indexOf("\n");
    while (nl >= 0) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (line) this.onMessage(line);
      nl = this.buffer.indexOf("\n");
    }
  }

  onMessage(line) {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      return;
    }
    if (msg.id === undefined || !this.pending.has(msg.id)) return;
    const { resolve, reject, timer } = this.pending.get(msg.id);
    clearTimeout(timer);
    this.pending.delete(msg.id);
    if (this.pending.size === 0) this.setRef(false);
    if (msg.error) reject(new GraphmemCommandError(`graphmem serve: ${msg.error.message ?? "error"}`));
    else resolve(msg.result);
  }

  write(obj) {
    this.child.stdin.write(`${JSON.stringify(obj)}\n`);
  }

  request(method, params, timeoutMs = this.settings.timeoutMs) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        if (this.pending.size === 0) this.setRef(false);
        reject(new GraphmemCommandError(`graphmem serve: ${method} did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
      timer.unref?.();
      this.pending.set(id, { resolve, reject, timer });
      this.setRef(true);
      this.write({ jsonrpc: "2.0", id, method, params });
    });
  }

  notify(method, params) {
    this.write({ jsonrpc: "2.0", method, params });
  }

  fail(err) {
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(err);
    }
    this.pending.clear();
    clients.delete(clientKey(this.settings, this.workspace));
  }

  /** tools/call; returns the tool's structured content. */
  async callTool(name, args) {
    await this.start();
    const result = await this.request("tools/call", { name, arguments: args });
    if (result?.isError) {
      const text = result.content?.map((c) => c.text ?? "").join(" ").trim();
      throw new GraphmemCommandError(`graphmem ${name}: ${text || "error"}`);
    }
    if (result?.structuredContent) return result.structuredContent;
    const text = result?.content?.find((c) => c.type === "text")?.text;
    return text ? JSON.parse(text) : null;
  }

  close() {
    clients.delete(clientKey(this.settings, this.workspace));
    this.child?.kill();
  }
}

function clientKey(settings, workspace) {
  return JSON.stringify([settings.command, settings.args, workspace, settings.extraPaths ?? []]);
}

/** One server per (command, workspace), shared by every caller in this process. */
export function mcpClientFor(settings, workspace) {
  const key = clientKey(settings, workspace);
  let client = clients.get(key);
  if (!client) {
    client = new McpClient(settings, workspace);
    clients.set(key, client);
  }
  return client;
}

export function closeAllMcpClients() {
  for (const client of [...clients.values()]) client.close();
}

/** `memory_recall` arguments from an OpenClaw search (graphmem's MCP names). */
export function recallToolArgs(query, { k, since, until, asOf, kind, budget, now } = {}) {
  const args = { query, k };
  if (since) args.since = since;
  if (until) args.until = until;
  if (asOf) args.as_of = asOf;
  const kinds = Array.isArray(kind) ? kind.filter(Boolean) : kind ? [kind] : [];
  if (kinds.length) args.kind = kinds;
  if (Number.isInteger(budget) && budget > 0) args.budget = budget;
  if (now) args.now = now;
  return args;
}
