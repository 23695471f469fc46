// `openclaw memory status|index|search`, answered by graphmem. Same flags as
// memory-core's namespace where they mean the same thing.
import fs from "node:fs/promises";
import path from "node:path";

import {
  aboutArgs,
  opinionsArgs,
  recallArgs,
  reflectArgs,
  retainArgs,
  retractArgs,
  runGraphmem,
  timelineArgs,
} from "./graphmem.js";
import { classifyError, formatSearchLines, formatStatusLines, memoryCoreEnabled } from "./mapping.js";

/** Agent ids from `agents.entries` (object) or `agents.list` (array); else "main". */
export function listAgentIds(cfg) {
  const agents = cfg?.agents;
  if (agents?.entries && typeof agents.entries === "object" && !Array.isArray(agents.entries)) {
    const ids = Object.keys(agents.entries);
    if (ids.length > 0) return ids;
  }
  if (Array.isArray(agents?.list)) {
    const ids = agents.list.map((a) => a?.id).filter((id) => typeof id === "string" && id);
    if (ids.length > 0) return ids;
  }
  return ["main"];
}

export function defaultAgentId(cfg) {
  const agents = cfg?.agents;
  if (Array.isArray(agents?.list)) {
    const marked = agents.list.find((a) => a?.default === true && typeof a.id === "string");
    if (marked) return marked.id;
  }
  if (agents?.entries && typeof agents.entries === "object") {
    for (const [id, entry] of Object.entries(agents.entries)) if (entry?.default === true) return id;
  }
  return listAgentIds(cfg)[0];
}

function positiveInt(flag) {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer.`);
    return n;
  };
}

function finiteNumber(flag) {
  return (value) => {
    const n = Number(value);
    if (!Number.isFinite(n)) throw new Error(`${flag} must be a finite number.`);
    return n;
  };
}

function failure(err, agentId) {
  const { code, action } = classifyError(err);
  const hint = action ?? err?.hint;
  return {
    ok: false,
    agentId,
    error: {
      type: err?.name === "GraphmemUnavailableError" ? "graphmem_unavailable" : "cli_error",
      code,
      message: err instanceof Error ? err.message : String(err),
      ...(hint ? { hint } : {}),
    },
  };
}

function reportFailure(err, agentId, json) {
  process.exitCode = 1;
  if (json) {
    process.stdout.write(`${JSON.stringify(failure(err, agentId), null, 2)}\n`);
    return;
  }
  process.stderr.write(`memory (${agentId}): ${err instanceof Error ? err.message : String(err)}\n`);
  if (err?.hint) process.stderr.write(`  ${err.hint}\n`);
}

/**
 * `memory status --fix`: a lone legacy memory.md becomes MEMORY.md (OpenClaw's canonical
 * name; nothing else changes, and nothing is renamed when both exist: that merge is the
 * user's, see the status warning). Returns what it did, in words.
 */
export async function fixWorkspace(workspaceDir) {
  const names = await fs.readdir(workspaceDir).catch(() => null);
  if (names === null) return [];
  if (names.includes("memory.md") && !names.includes("MEMORY.md")) {
    await fs.rename(path.join(workspaceDir, "memory.md"), path.join(workspaceDir, "MEMORY.md"));
    return ["renamed memory.md to MEMORY.md (OpenClaw's core file name)"];
  }
  return [];
}

/**
 * @param program commander root (`openclaw`)
 * @param deps { getManager(cfg, agentId), getConfig() }
 * @param name root command: "memory", or "graphmem" (always free, even when memory-core claims "memory")
 */
export function registerGraphmemMemoryCli(program, deps, name = "memory") {
  const memory = program
    .command(name)
    .description("Search, inspect and reindex memory with graphmem")
    .addHelpText(
      "after",
      "\nAnswered by graphmem (the graphmem plugin owns plugins.slots.memory).\n" +
        `Examples:\n  openclaw ${name} status\n  openclaw ${name} index --force\n` +
        `  openclaw ${name} search "where does Peter live?" --max-results 5\n` +
        `  openclaw ${name} recall "where does Peter live?" --k 25 --since 30d\n` +
        `  openclaw ${name} about Pete\n  openclaw ${name} reflect --since 7d --dry-run\n`,
    );

  memory
    .command("status")
    .description("Show graphmem's index status for each agent workspace")
    .option("--agent <id>", "Agent id (default: all configured agents)")
    .option("--json", "Print JSON")
    .option("--deep", "Also probe embeddings (same as plain status for graphmem)")
    .option("--index", "Reindex first if the index is stale")
    .option("--fix", "Repair what graphmem can: rename a lone legacy memory.md to MEMORY.md, reindex a stale or missing index")
    .option("--verbose", "Verbose output", false)
    .action(async (opts) => {
      const cfg = deps.getConfig();
      const ids = opts.agent ? [opts.agent] : listAgentIds(cfg);
      const all = [];
      for (const agentId of ids) {
        const manager = deps.getManager(cfg, agentId);
        try {
          const fixed = opts.fix ? await fixWorkspace(manager.workspaceDir) : [];
          let status = await manager.refreshStatus();
          if ((opts.index || opts.fix) && (status.dirty || fixed.length > 0)) {
            await manager.sync({});
            status = await manager.refreshStatus();
            if (opts.fix) fixed.push("reindexed (openclaw memory index)");
          }
          all.push({ agentId, status, ...(opts.fix ? { fixed } : {}) });
          if (!opts.json && opts.fix) {
            process.stdout.write(fixed.length ? fixed.map((f) => `fixed: ${f}\n`).join("") : "fixed: nothing to fix\n");
          }
          if (!opts.json) {
            const lines = formatStatusLines(agentId, status, { memoryCoreEnabled: memoryCoreEnabled(cfg) });
            process.stdout.write(`${lines.join("\n")}\n`);
          }
        } catch (err) {
          if (opts.json) all.push(failure(err, agentId));
          reportFailure(err, agentId, false);
        }
      }
      if (opts.json) process.stdout.write(`${JSON.stringify(all, null, 2)}\n`);
    });

  memory
    .command("index")
    .description("Index the workspace Markdown with graphmem (incremental)")
    .option("--agent <id>", "Agent id (default: all configured agents)")
    .option("--force", "Rebuild the whole index", false)
    .option("--verbose", "Verbose output", false)
    .action(async (opts) => {
      const cfg = deps.getConfig();
      const ids = opts.agent ? [opts.agent] : listAgentIds(cfg);
      for (const agentId of ids) {
        const manager = deps.getManager(cfg, agentId);
        try {
          if (opts.verbose) process.stdout.write(`memory (${agentId}): graphmem index ${manager.workspaceDir}\n`);
          const { stdout, stderr } = await manager.sync({ force: Boolean(opts.force) });
          if (stderr && opts.verbose) process.stderr.write(`${stderr}\n`);
          process.stdout.write(`memory (${agentId}): ${stdout || "indexed"}\n`);
        } catch (err) {
          reportFailure(err, agentId, false);
        }
      }
    });

  memory
    .command("search")
    .description("Search memory with graphmem recall (cited path#Lx-Ly)")
    .argument("[query]", "Search query")
    .option("--query <text>", "Search query (alternative to the positional argument)")
    .option("--agent <id>", "Agent id (default: default agent)")
    .option("--max-results <n>", "Max results", positiveInt("--max-results"))
    .option("--min-score <n>", "Minimum graphmem score", finiteNumber("--min-score"))
    .option("--since <when>", "graphmem: only memories since (30d, 2025-11-01)")
    .option("--until <when>", "graphmem: only memories until")
    .option("--kind <kind>", "graphmem: world | experience | opinion | observation | log")
    .option("--now <date>", "graphmem: resolve relative dates against this day")
    .option("--json", "Print JSON")
    .action(async (queryArg, opts) => {
      const query = opts.query ?? queryArg;
      const cfg = deps.getConfig();
      const agentId = opts.agent ?? defaultAgentId(cfg);
      if (!query || !String(query).trim()) {
        reportFailure(new Error("Missing search query. Provide a positional query or use --query <text>."), agentId, opts.json);
        return;
      }
      const manager = deps.getManager(cfg, agentId);
      try {
        const results = await manager.search(String(query), {
          maxResults: opts.maxResults,
          minScore: opts.minScore,
          since: opts.since,
          until: opts.until,
          kind: opts.kind,
          now: opts.now,
        });
        if (opts.json) {
          process.stdout.write(`${JSON.stringify({ results, provider: "graphmem" }, null, 2)}\n`);
        } else {
          process.stdout.write(`${formatSearchLines(results).join("\n")}\n`);
        }
      } catch (err) {
        reportFailure(err, agentId, opts.json);
      }
    });

  // graphmem's other verbs, as the seeds show them (`openclaw memory recall "…" --k 25 --since 30d`,
  // `openclaw memory reflect --since 7d`): graphmem's own output, or its JSON with --json.
  const collect = (value, list) => [...(list ?? []), value];
  const passthrough = (build) => async (...argv) => {
    const command = argv[argv.length - 1];
    const opts = command.opts();
    const positional = argv.slice(0, -2);
    const cfg = deps.getConfig();
    const agentId = opts.agent ?? defaultAgentId(cfg);
    const manager = deps.getManager(cfg, agentId);
    let args = build(...positional, opts);
    if (!opts.json) args = args.filter((a) => a !== "--json");
    try {
      const { stdout, stderr } = await runGraphmem(manager.settings, manager.workspaceDir, args, {
        timeoutMs: args[0] === "reflect" ? manager.settings.indexTimeoutMs : undefined,
      });
      if (stderr && opts.verbose) process.stderr.write(stderr);
      process.stdout.write(stdout.endsWith("\n") || !stdout ? stdout : `${stdout}\n`);
    } catch (err) {
      reportFailure(err, agentId, opts.json);
    }
  };
  const common = (cmd) => cmd.option("--agent <id>", "Agent id (default: default agent)").option("--json", "Print JSON").option("--verbose", "Show graphmem's stderr", false);

  common(
    memory
      .command("recall")
      .description("graphmem recall: the memories that answer a question, cited (filters: time, as-of, kind, entity)")
      .argument("<question>", "What you want to remember, in plain words")
      .option("-k, --k <n>", "How many results", positiveInt("--k"), 10)
      .option("--since <day>", "Only from this day on: 30d, 2w, 6m, 1y, yesterday or YYYY-MM-DD")
      .option("--until <day>", "Only up to this day")
      .option("--as-of <day>", "What was true on this day")
      .option("--kind <kind>", "Only this kind (repeatable): world, experience, observation, opinion, log", collect)
      .option("--entity <name>", "Only memories that mention this entity (name or alias)")
      .option("--budget <tokens>", "Pack results until about this many tokens", positiveInt("--budget"))
      .option("--now <day>", "Reference day for relative dates")
      .option("--preset <name>", "Recall preset: default, lexical, precise, broad"),
  ).action(async (question, opts) => {
    const cfg = deps.getConfig();
    const agentId = opts.agent ?? defaultAgentId(cfg);
    const manager = deps.getManager(cfg, agentId);
    if (!opts.entity) {
      await passthrough((q, o) =>
        recallArgs(q, { k: o.k, since: o.since, until: o.until, asOf: o.asOf, kind: o.kind, budget: o.budget, now: o.now, preset: o.preset }),
      )(question, opts, { opts: () => opts });
      return;
    }
    // graphmem's recall has no entity filter: the plugin's (about + a wider recall, filtered).
    try {
      const results = await manager.search(String(question), { maxResults: opts.k, since: opts.since, until: opts.until, asOf: opts.asOf, kind: opts.kind, entity: opts.entity, budget: opts.budget, now: opts.now, preset: opts.preset });
      process.stdout.write(opts.json ? `${JSON.stringify({ results, provider: "graphmem" }, null, 2)}\n` : `${formatSearchLines(results).join("\n")}\n`);
    } catch (err) {
      reportFailure(err, agentId, opts.json);
    }
  });

  common(
    memory
      .command("about")
      .description("graphmem about: an entity's card (aliases, current facts, what changed, opinions, events)")
      .argument("<name>", "An entity's name, slug or alias")
      .option("--now <day>", "Reference day (default today)"),
  ).action(passthrough((name, o) => aboutArgs(name, { now: o.now })));

  common(
    memory
      .command("timeline")
      .description("graphmem timeline: everything dated that mentions an entity, oldest first")
      .argument("<name>", "An entity's name, slug or alias")
      .option("--since <day>", "From this day on")
      .option("--until <day>", "Up to this day")
      .option("--now <day>", "Reference day for relative dates"),
  ).action(passthrough((name, o) => timelineArgs(name, o)));

  common(
    memory
      .command("opinions")
      .description("graphmem opinions: confidence, last update, evidence for and against, history")
      .option("--entity <name>", "Only opinions about this entity"),
  ).action(passthrough((o) => opinionsArgs({ entity: o.entity })));

  common(
    memory
      .command("retain")
      .description("graphmem retain: append a typed bullet to today's ## Retain, then re-index")
      .argument("<bullet>", "W|B|O|O(c=0.8)|S @Entity: text")
      .option("--replaces <citation>", "The fact this bullet replaces (path#Ln)"),
  ).action(passthrough((bullet, o) => retainArgs(bullet, { replaces: o.replaces })));

  common(
    memory
      .command("forget")
      .description("graphmem retract: a dated retraction of a fact or opinion line (nothing deleted)")
      .argument("<citation>", "The line to retract, e.g. memory/2025-11-27.md#L12")
      .option("--reason <text>", "Why it no longer holds"),
  ).action(passthrough((citation, o) => retractArgs(citation, { reason: o.reason })));

  common(
    memory
      .command("reflect")
      .description("graphmem reflect: update beliefs from the window's evidence and regenerate bank/")
      .option("--since <day>", "Window of new evidence (default 7d)")
      .option("--dry-run", "Show the changes, write nothing", false)
      .option("--now <day>", "Reference day for --since"),
  ).action(passthrough((o) => reflectArgs({ since: o.since, dryRun: o.dryRun, now: o.now })));

  common(
    memory
      .command("triggers")
      .description("Active Memory's trigger candidates: the core-file lines a message naming someone injects")
      .argument("[message]", "Only the lines this message would trigger (it names one of their triggers)"),
  ).action(async (message, opts) => {
    const cfg = deps.getConfig();
    const agentId = opts.agent ?? defaultAgentId(cfg);
    try {
      const all = await deps.getManager(cfg, agentId).listTriggerCandidates({});
      const shown = message ? matchTriggers(all, message) : all;
      if (opts.json) {
        process.stdout.write(`${JSON.stringify({ candidates: shown, provider: "graphmem" }, null, 2)}\n`);
        return;
      }
      if (shown.length === 0) process.stdout.write("No trigger candidates.\n");
      for (const c of shown) process.stdout.write(`${c.citation}  [${c.triggers}]\n  ${c.snippet}\n`);
    } catch (err) {
      reportFailure(err, agentId, opts.json);
    }
  });

  memory.action(() => {
    memory.outputHelp();
  });
}

/** The candidates one of whose trigger phrases `message` contains as whole words (case-insensitive). */
export function matchTriggers(candidates, message) {
  const words = new Set(String(message).toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
  return candidates.filter((c) =>
    String(c.triggers ?? "")
      .split(";")
      .some((phrase) => {
        const need = phrase.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
        return need.length > 0 && need.every((w) => words.has(w));
      }),
  );
}
