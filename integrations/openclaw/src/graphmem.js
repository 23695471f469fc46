// Runs the graphmem CLI and reads its --json output. One process per call:
// graphmem publishes its index atomically, so concurrent readers are safe.
import { execFile } from "node:child_process";
import os from "node:os";

export class GraphmemUnavailableError extends Error {
  constructor(message, { hint, code } = {}) {
    super(message);
    this.name = "GraphmemUnavailableError";
    this.hint = hint;
    this.code = code ?? "GRAPHMEM_UNAVAILABLE";
  }
}

export class GraphmemCommandError extends Error {
  constructor(message, { hint, exitCode, code } = {}) {
    super(message);
    this.name = "GraphmemCommandError";
    this.hint = hint ?? undefined;
    this.exitCode = exitCode;
    if (code) this.code = code;
  }
}

/** Plugin config with defaults applied (`plugins.entries.graphmem.config`). */
export function resolvePluginSettings(raw) {
  const cfg = raw && typeof raw === "object" ? raw : {};
  const command = expandHome(typeof cfg.command === "string" && cfg.command.trim() ? cfg.command.trim() : "graphmem");
  return {
    command,
    args: Array.isArray(cfg.args) ? cfg.args.map(String) : [],
    workspace: typeof cfg.workspace === "string" && cfg.workspace.trim() ? expandHome(cfg.workspace.trim()) : null,
    maxResults: Number.isInteger(cfg.maxResults) && cfg.maxResults > 0 ? cfg.maxResults : 10,
    preset: typeof cfg.preset === "string" ? cfg.preset : null,
    timeoutMs: Number.isInteger(cfg.timeoutMs) ? cfg.timeoutMs : 60_000,
    indexTimeoutMs: Number.isInteger(cfg.indexTimeoutMs) ? cfg.indexTimeoutMs : 1_800_000,
    env: cfg.env && typeof cfg.env === "object" ? cfg.env : {},
    // auto: the gateway's tools keep one `graphmem serve` per workspace; `openclaw memory` runs the CLI.
    transport: cfg.transport === "cli" || cfg.transport === "mcp" ? cfg.transport : "auto",
    // opt-in, as memory-lancedb's: recall before each prompt, capture "remember ..." after each turn
    autoRecall: cfg.autoRecall === true,
    autoRecallMaxResults: Number.isInteger(cfg.autoRecallMaxResults) && cfg.autoRecallMaxResults > 0 ? cfg.autoRecallMaxResults : 3,
    autoRecallMinScore: typeof cfg.autoRecallMinScore === "number" ? cfg.autoRecallMinScore : undefined,
    recallMaxChars: Number.isInteger(cfg.recallMaxChars) && cfg.recallMaxChars >= 100 ? cfg.recallMaxChars : 1000,
    autoCapture: cfg.autoCapture === true,
    captureEntity: typeof cfg.captureEntity === "string" && cfg.captureEntity.trim() ? cfg.captureEntity.trim() : "User",
    captureMaxChars: Number.isInteger(cfg.captureMaxChars) && cfg.captureMaxChars >= 100 ? cfg.captureMaxChars : 500,
    captureTriggers: Array.isArray(cfg.captureTriggers) ? cfg.captureTriggers.map(String) : [],
  };
}

export function expandHome(p) {
  if (p === "~") return os.homedir();
  if (p.startsWith("~/")) return `${os.homedir()}${p.slice(1)}`;
  return p;
}

/** What to do when the graphmem executable cannot be started. No package index has graphmem. */
export const INSTALL_HINT =
  "graphmem installs from a clone of its repository (no package index has it): " +
  "python3 -m venv ~/.venvs/graphmem && ~/.venvs/graphmem/bin/pip install -e /path/to/graphmem, then " +
  "openclaw config set plugins.entries.graphmem.config.command ~/.venvs/graphmem/bin/graphmem " +
  "(or put graphmem on the gateway's PATH) and restart the gateway.";

export function notFoundMessage(command) {
  return new GraphmemUnavailableError(`graphmem is not installed or not on PATH (tried \`${command}\`).`, {
    hint: INSTALL_HINT,
    code: "GRAPHMEM_NOT_FOUND",
  });
}

/**
 * OpenClaw's `memory.search.extraPaths` (and the agent's own), as graphmem's repeatable
 * `--extra-path`: each string or `{ path }` (a `pattern` is not applied: graphmem indexes
 * every Markdown file under the path), `~` expanded; relative ones graphmem resolves
 * against the workspace, as OpenClaw does.
 */
export function memoryExtraPaths(cfg, agentId) {
  const agents = cfg?.agents;
  const entry =
    (agents?.entries && typeof agents.entries === "object" ? agents.entries[agentId] : null) ??
    (Array.isArray(agents?.list) ? agents.list.find((a) => a?.id === agentId) : null);
  const all = [...(cfg?.memory?.search?.extraPaths ?? []), ...(entry?.memory?.search?.extraPaths ?? [])];
  const out = [];
  for (const item of all) {
    const raw = typeof item === "string" ? item : typeof item?.path === "string" ? item.path : "";
    const p = raw.trim();
    if (p && !out.includes(expandHome(p))) out.push(expandHome(p));
  }
  return out;
}

/** graphmem's global arguments: the workspace and the extra paths. */
export function globalArgs(settings, workspace) {
  const extra = Array.isArray(settings.extraPaths) ? settings.extraPaths.flatMap((p) => ["--extra-path", p]) : [];
  return [...settings.args, "--workspace", workspace, ...extra];
}

/** Run `graphmem --workspace WS ...args`; resolves { stdout, stderr }. */
export function runGraphmem(settings, workspace, args, { timeoutMs, signal } = {}) {
  const argv = [...globalArgs(settings, workspace), ...args];
  return new Promise((resolve, reject) => {
    execFile(
      settings.command,
      argv,
      {
        timeout: timeoutMs ?? settings.timeoutMs,
        maxBuffer: 64 * 1024 * 1024,
        env: { ...process.env, ...settings.env },
        signal,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (!error) {
          resolve({ stdout, stderr });
          return;
        }
        if (error.code === "ENOENT" || error.code === "EACCES") {
          reject(notFoundMessage(settings.command));
          return;
        }
        if (error.killed || error.signal === "SIGTERM") {
          reject(
            new GraphmemCommandError(`graphmem ${args[0]} did not finish within ${timeoutMs ?? settings.timeoutMs} ms`, {
              hint: "Raise plugins.entries.graphmem.config.timeoutMs (indexTimeoutMs for index).",
              code: "GRAPHMEM_TIMEOUT",
            }),
          );
          return;
        }
        reject(commandError(args[0], error.code, stdout, stderr));
      },
    );
  });
}

/** graphmem prints `{"error", "hint"}` with --json on newer versions, else one line on stderr. */
export function commandError(verb, exitCode, stdout, stderr) {
  const parsed = tryJson(stdout);
  if (parsed && typeof parsed === "object" && typeof parsed.error === "string") {
    return new GraphmemCommandError(`graphmem ${verb}: ${parsed.error}`, { hint: parsed.hint, exitCode });
  }
  const lines = String(stderr || stdout || "")
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  const last = lines.length > 0 ? lines[lines.length - 1] : `exit code ${exitCode}`;
  return new GraphmemCommandError(last.startsWith("graphmem") ? last : `graphmem ${verb}: ${last}`, { exitCode });
}

export function tryJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export async function graphmemJson(settings, workspace, args, opts) {
  const { stdout } = await runGraphmem(settings, workspace, args, opts);
  const data = tryJson(stdout);
  if (data === null) {
    throw new GraphmemCommandError(`graphmem ${args[0]} printed no JSON: ${stdout.slice(0, 200)}`);
  }
  return data;
}

function kindsOf(kind) {
  if (Array.isArray(kind)) return kind.filter((k) => typeof k === "string" && k);
  return typeof kind === "string" && kind ? [kind] : [];
}

/** Arguments of `graphmem recall` for one OpenClaw search. `kind` is one kind or a list. */
export function recallArgs(query, { k, preset, since, until, asOf, kind, budget, now } = {}) {
  const args = ["recall", query, "--k", String(k), "--json"];
  if (preset) args.push("--preset", preset);
  if (since) args.push("--since", since);
  if (until) args.push("--until", until);
  if (asOf) args.push("--as-of", asOf);
  for (const one of kindsOf(kind)) args.push("--kind", one);
  if (Number.isInteger(budget) && budget > 0) args.push("--budget", String(budget));
  if (now) args.push("--now", now);
  return args;
}

// One builder per graphmem verb the agent tools call; every one asks for --json.
export function aboutArgs(name, { now } = {}) {
  return ["about", name, "--json", ...(now ? ["--now", now] : [])];
}

export function timelineArgs(name, { since, until, now } = {}) {
  const args = ["timeline", name, "--json"];
  if (since) args.push("--since", since);
  if (until) args.push("--until", until);
  if (now) args.push("--now", now);
  return args;
}

export function opinionsArgs({ entity } = {}) {
  return ["opinions", "--json", ...(entity ? ["--entity", entity] : [])];
}

export function retainArgs(bullet, { replaces, today } = {}) {
  const args = ["retain", bullet, "--json"];
  if (replaces) args.push("--replaces", replaces);
  if (today) args.push("--today", today);
  return args;
}

export function retractArgs(source, { reason, today } = {}) {
  const args = ["retract", source, "--json"];
  if (reason) args.push("--reason", reason);
  if (today) args.push("--today", today);
  return args;
}

export function reflectArgs({ since, dryRun, now } = {}) {
  const args = ["reflect", "--json"];
  if (since) args.push("--since", since);
  if (dryRun) args.push("--dry-run");
  if (now) args.push("--now", now);
  return args;
}

export function coreArgs(action, { number, dryRun } = {}) {
  if (action === "apply") return ["core", "apply", String(number), "--json", ...(dryRun ? ["--dry-run"] : [])];
  return ["core", "list", "--json"];
}
