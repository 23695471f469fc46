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
  constructor(message, { hint, exitCode } = {}) {
    super(message);
    this.name = "GraphmemCommandError";
    this.hint = hint;
    this.exitCode = exitCode;
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
  };
}

export function expandHome(p) {
  if (p === "~") return os.homedir();
  if (p.startsWith("~/")) return `${os.homedir()}${p.slice(1)}`;
  return p;
}

function notFoundMessage(command) {
  return new GraphmemUnavailableError(`graphmem is not installed or not on PATH (tried \`${command}\`).`, {
    hint:
      "Install it (pip install graphmem, or pip install -e . in its repository) or set " +
      "plugins.entries.graphmem.config.command to the graphmem executable, e.g. " +
      "~/.venvs/graphmem/bin/graphmem.",
    code: "GRAPHMEM_NOT_FOUND",
  });
}

/** Run `graphmem --workspace WS ...args`; resolves { stdout, stderr }. */
export function runGraphmem(settings, workspace, args, { timeoutMs, signal } = {}) {
  const argv = [...settings.args, "--workspace", workspace, ...args];
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

/** Arguments of `graphmem recall` for one OpenClaw search. */
export function recallArgs(query, { k, preset, since, until, kind, now } = {}) {
  const args = ["recall", query, "--k", String(k), "--json"];
  if (preset) args.push("--preset", preset);
  if (since) args.push("--since", since);
  if (until) args.push("--until", until);
  if (kind) args.push("--kind", kind);
  if (now) args.push("--now", now);
  return args;
}
