// `openclaw memory status|index|search`, answered by graphmem. Same flags as
// memory-core's namespace where they mean the same thing.
import { formatSearchLines, formatStatusLines, memoryCoreEnabled } from "./mapping.js";

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
  return {
    ok: false,
    agentId,
    error: {
      type: err?.name === "GraphmemUnavailableError" ? "graphmem_unavailable" : "cli_error",
      message: err instanceof Error ? err.message : String(err),
      ...(err?.hint ? { hint: err.hint } : {}),
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
        `  openclaw ${name} search "where does Peter live?" --max-results 5\n`,
    );

  memory
    .command("status")
    .description("Show graphmem's index status for each agent workspace")
    .option("--agent <id>", "Agent id (default: all configured agents)")
    .option("--json", "Print JSON")
    .option("--deep", "Also probe embeddings (same as plain status for graphmem)")
    .option("--index", "Reindex first if the index is stale")
    .option("--verbose", "Verbose output", false)
    .action(async (opts) => {
      const cfg = deps.getConfig();
      const ids = opts.agent ? [opts.agent] : listAgentIds(cfg);
      const all = [];
      for (const agentId of ids) {
        const manager = deps.getManager(cfg, agentId);
        try {
          let status = await manager.refreshStatus();
          if (opts.index && status.dirty) {
            await manager.sync({});
            status = await manager.refreshStatus();
          }
          all.push({ agentId, status });
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

  memory.action(() => {
    memory.outputHelp();
  });
}
