// OpenClaw memory plugin: graphmem owns plugins.slots.memory.
//
// Plain ESM with no imports from OpenClaw: the entry object is what
// `definePluginEntry` from openclaw/plugin-sdk/plugin-entry returns, so the
// plugin installs from a path with no dependencies to resolve.
import fs from "node:fs/promises";
import path from "node:path";

import { captureCandidates, captureStatement, recallContext, recallQuery } from "./src/auto.js";
import { registerGraphmemMemoryCli } from "./src/cli.js";
import { memoryExtraPaths, resolvePluginSettings } from "./src/graphmem.js";
import { MEMORY_CORE_WARNING, buildRetainBullet, citationsModeOf, includeCitations, memoryCoreEnabled } from "./src/mapping.js";
import { closeAllMcpClients } from "./src/mcp.js";
import { GraphmemMemoryManager, resolveWorkspace } from "./src/manager.js";
import {
  GRAPHMEM_TOOL_SPECS,
  buildPromptSection,
  createGraphmemTool,
  createMemoryGetTool,
  createMemorySearchTool,
} from "./src/tools.js";

const PLUGIN_ID = "graphmem";

const FLUSH_TARGET = "Store durable memories only in memory/YYYY-MM-DD.md (create memory/ if needed).";
const FLUSH_APPEND = "If memory/YYYY-MM-DD.md already exists, APPEND new content only and do not overwrite existing entries.";
const FLUSH_READ_ONLY =
  "Treat workspace bootstrap/reference files such as MEMORY.md, DREAMS.md, SOUL.md, and AGENTS.md as read-only during this flush; never overwrite, replace, or edit them.";
const FLUSH_FORMAT =
  "Write durable facts as typed bullets under a '## Retain' heading, one per line: " +
  "'- W @Entity: world fact', '- B @Entity: what you did (first person)', " +
  "'- O(c=0.8) @Entity: opinion with confidence', '- S @Entity: summary'. graphmem indexes them.";

function localDate(nowMs, timeZone) {
  try {
    const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
      new Date(nowMs),
    );
    if (/^\d{4}-\d{2}-\d{2}$/.test(parts)) return parts;
  } catch {
    // unknown time zone: fall back to UTC
  }
  return new Date(nowMs).toISOString().slice(0, 10);
}

/** Pre-compaction flush: memory-core's plan, asking for graphmem's Retain bullets. */
export function buildFlushPlan({ cfg, nowMs } = {}) {
  const defaults = cfg?.agents?.defaults?.compaction?.memoryFlush;
  if (defaults?.enabled === false) return null;
  const day = localDate(nowMs ?? Date.now(), cfg?.agents?.defaults?.userTimezone);
  const fill = (text) => text.replaceAll("YYYY-MM-DD", day);
  return {
    softThresholdTokens: Number.isInteger(defaults?.softThresholdTokens) ? defaults.softThresholdTokens : 4000,
    forceFlushTranscriptBytes: 2 * 1024 * 1024,
    reserveTokensFloor: 20000,
    model: typeof defaults?.model === "string" && defaults.model.trim() ? defaults.model.trim() : undefined,
    prompt: fill(["Pre-compaction memory flush.", FLUSH_TARGET, FLUSH_READ_ONLY, FLUSH_APPEND, FLUSH_FORMAT, "If nothing to store, reply with NO_REPLY."].join(" ")),
    systemPrompt: fill(
      ["Pre-compaction memory flush turn.", "The session is near auto-compaction; capture durable memories to disk.", FLUSH_TARGET, FLUSH_READ_ONLY, FLUSH_APPEND, FLUSH_FORMAT, "You may reply, but usually NO_REPLY is correct."].join(" "),
    ),
    relativePath: `memory/${day}.md`,
  };
}

/** memory.md / MEMORY.md and memory/*.md, as memory-core lists them for memory-wiki's bridge mode. */
async function listWorkspaceArtifacts(workspaceDir, agentIds) {
  const out = [];
  const top = await fs.readdir(workspaceDir, { withFileTypes: true }).catch(() => []);
  for (const entry of top) {
    if (entry.isFile() && (entry.name === "MEMORY.md" || entry.name === "memory.md")) {
      out.push({ kind: "memory-root", workspaceDir, relativePath: entry.name, absolutePath: path.join(workspaceDir, entry.name), agentIds, contentType: "markdown" });
    }
  }
  const daily = await fs.readdir(path.join(workspaceDir, "memory"), { withFileTypes: true }).catch(() => []);
  for (const entry of daily.filter((e) => e.isFile() && e.name.endsWith(".md")).sort((a, b) => a.name.localeCompare(b.name))) {
    const relativePath = `memory/${entry.name}`;
    out.push({ kind: "daily-note", workspaceDir, relativePath, absolutePath: path.join(workspaceDir, relativePath), agentIds, contentType: "markdown" });
  }
  return out;
}

/** Whether this process is the gateway (where the hooks run), not a one-shot `openclaw` command. */
function inGateway() {
  return process.argv.slice(2).includes("gateway");
}

function agentIdsOf(cfg) {
  const agents = cfg?.agents;
  if (agents?.entries && typeof agents.entries === "object" && !Array.isArray(agents.entries)) {
    const ids = Object.keys(agents.entries);
    if (ids.length) return ids;
  }
  if (Array.isArray(agents?.list)) {
    const ids = agents.list.map((a) => a?.id).filter(Boolean);
    if (ids.length) return ids;
  }
  return ["main"];
}

export default {
  id: PLUGIN_ID,
  name: "graphmem memory",
  description: "memory_search, memory_get, graphmem's about/timeline/opinions/store/forget/reflect/core tools and `openclaw memory`, answered by graphmem",
  kind: "memory",
  register(api) {
    const settings = () => resolvePluginSettings(api.pluginConfig);
    const liveConfig = () => {
      try {
        return (api.runtime?.config?.current ? api.runtime.config.current() : api.config) ?? {};
      } catch {
        return api.config ?? {};
      }
    };
    // Measured on 2026.9.6: an enabled memory-core registers memory_search, memory_get and the
    // `memory` CLI before this plugin does, and OpenClaw keeps the first registration.
    // (api.config, not the runtime: some registration modes hand plugins an unavailable runtime.)
    if (memoryCoreEnabled(api.config)) api.logger?.warn?.(`graphmem: ${MEMORY_CORE_WARNING}`);
    const managerFor = (cfg, agentId, { longLived = false } = {}) => {
      const s = { ...settings(), extraPaths: memoryExtraPaths(cfg, agentId ?? "main") };
      return new GraphmemMemoryManager({
        settings: s,
        agentId,
        useMcp: s.transport === "mcp" || (s.transport === "auto" && longLived),
        workspaceDir: resolveWorkspace({ settings: s, cfg, agentId, runtime: api.runtime }),
      });
    };

    api.registerMemoryCapability({
      deterministicRecallToolName: "memory_search",
      supportsPrivateTranscriptRecall: false,
      promptBuilder: (params) => buildPromptSection(params),
      flushPlanResolver: (params) => buildFlushPlan(params),
      runtime: {
        async getMemorySearchManager(params) {
          try {
            const manager = managerFor(params.cfg, params.agentId, { longLived: params.purpose !== "cli" && params.purpose !== "status" });
            if (params.purpose === "status" || params.inspectSources) await manager.refreshStatus();
            return { manager, debug: { backend: "builtin", purpose: params.purpose ?? "default" } };
          } catch (err) {
            return { manager: null, error: err instanceof Error ? `${err.message}${err.hint ? ` ${err.hint}` : ""}` : String(err) };
          }
        },
        resolveMemoryBackendConfig() {
          return { backend: "builtin" };
        },
        async closeAllMemorySearchManagers() {
          closeAllMcpClients();
        },
        async closeMemorySearchManager() {},
      },
      publicArtifacts: {
        async listArtifacts({ cfg }) {
          const s = settings();
          const byWorkspace = new Map();
          for (const agentId of agentIdsOf(cfg)) {
            const ws = resolveWorkspace({ settings: s, cfg, agentId, runtime: api.runtime });
            byWorkspace.set(ws, [...(byWorkspace.get(ws) ?? []), agentId]);
          }
          const all = [];
          for (const [ws, ids] of byWorkspace) all.push(...(await listWorkspaceArtifacts(ws, ids)));
          return all;
        },
      },
    });

    const toolManager = (ctx) => () => {
      const cfg = (ctx?.getRuntimeConfig?.() ?? ctx?.runtimeConfig ?? ctx?.config ?? liveConfig()) || {};
      return managerFor(cfg, ctx?.agentId ?? "main", { longLived: true });
    };
    const toolConfig = (ctx) => () => (ctx?.getRuntimeConfig?.() ?? ctx?.runtimeConfig ?? ctx?.config ?? liveConfig()) || {};
    api.registerTool(
      (ctx) => createMemorySearchTool(toolManager(ctx), { getConfig: toolConfig(ctx), sessionKey: ctx?.sessionKey }),
      { names: ["memory_search"] },
    );
    api.registerTool((ctx) => createMemoryGetTool(toolManager(ctx)), { names: ["memory_get"] });
    // about, timeline, opinions, store, forget, reflect, core: one CLI run each, --json.
    for (const spec of GRAPHMEM_TOOL_SPECS) {
      api.registerTool((ctx) => createGraphmemTool(spec, toolManager(ctx)), { names: [spec.name] });
    }

    // Auto-recall (opt-in): graphmem's top results for the user's message join the turn's context.
    // Needs plugins.entries.graphmem.hooks.allowConversationAccess true (a non-bundled plugin).
    if (typeof api.on === "function" && settings().autoRecall) {
      if (inGateway()) api.logger?.info?.("graphmem: auto-recall on (before_prompt_build)");
      api.on("before_prompt_build", async (event, ctx) => {
        const s = settings();
        const query = recallQuery(event, s.recallMaxChars);
        if (query.length < 3) return undefined;
        try {
          const manager = managerFor(liveConfig(), ctx?.agentId ?? "main", { longLived: true });
          const results = await manager.search(query, { maxResults: s.autoRecallMaxResults, minScore: s.autoRecallMinScore, sessionKey: ctx?.sessionKey });
          const citations = includeCitations(citationsModeOf(liveConfig()), ctx?.sessionKey);
          const context = recallContext(results, { maxChars: s.recallMaxChars, citations });
          return context ? { prependContext: context } : undefined;
        } catch (err) {
          api.logger?.warn?.(`graphmem auto-recall: ${err instanceof Error ? err.message : String(err)}`);
          return undefined;
        }
      });
    }
    // Auto-capture (opt-in): a user message that asks to be remembered becomes a Retain bullet
    // written by `graphmem retain` into today's log, so Markdown stays the source of truth.
    if (typeof api.on === "function" && settings().autoCapture) {
      if (inGateway()) api.logger?.info?.("graphmem: auto-capture on (agent_end -> graphmem retain)");
      const seen = new Set();
      api.on("agent_end", async (event, ctx) => {
        if (event?.success === false) return;
        const s = settings();
        const picked = captureCandidates(event?.messages, { maxChars: s.captureMaxChars, seen, extraTriggers: s.captureTriggers });
        if (picked.length === 0) return;
        const manager = managerFor(liveConfig(), ctx?.agentId ?? "main");
        for (const { text, kind } of picked) {
          seen.add(text);
          try {
            const bullet = buildRetainBullet({ text: captureStatement(text), entities: [s.captureEntity], kind, confidence: kind === "opinion" ? 0.8 : undefined });
            await manager.retain(bullet);
          } catch (err) {
            api.logger?.warn?.(`graphmem auto-capture: ${err instanceof Error ? err.message : String(err)}`);
          }
        }
        if (seen.size > 500) seen.clear();
      });
    }

    // Two roots: `memory` (memory-core's name, free once memory-core is disabled) and
    // `graphmem` (always free). OpenClaw rejects a registration whose root is taken, so
    // each root is its own registration.
    for (const root of ["memory", "graphmem"]) {
      api.registerCli(
        async ({ program, config }) => {
          registerGraphmemMemoryCli(program, { getConfig: () => config ?? liveConfig(), getManager: managerFor }, root);
        },
        { descriptors: [{ name: root, description: "Search, inspect and reindex memory with graphmem", hasSubcommands: true }] },
      );
    }
  },
};
