// The agent tools: memory_search and memory_get with memory-core's names and
// parameters (plus graphmem's filters), and one tool for each other graphmem
// capability: about, timeline, opinions, store (retain), forget (retract),
// reflect and core. Each calls the graphmem CLI with --json; each failure comes
// back as { ok: false, code, error, action } with what to do next.
import {
  buildRetainBullet,
  citationsModeOf,
  classifyError,
  includeCitations,
  presentResults,
  shapeOpinions,
  shapeReflect,
} from "./mapping.js";

const WHEN = "30d, 2w, 6m, 1y, yesterday or YYYY-MM-DD";
const KINDS = ["world", "experience", "opinion", "observation", "log"];

const SEARCH_PARAMETERS = {
  type: "object",
  properties: {
    query: { type: "string" },
    maxResults: { type: "integer", minimum: 1 },
    minScore: { type: "number" },
    corpus: { type: "string", enum: ["memory", "wiki", "all", "sessions"] },
    since: { type: "string", description: `Only memories from this day on: ${WHEN}` },
    until: { type: "string", description: `Only memories up to this day: ${WHEN}` },
    asOf: { type: "string", description: `What was true on this day (${WHEN}): facts superseded by then are left out` },
    kind: {
      type: "array",
      items: { type: "string", enum: KINDS },
      description: "Only these kinds: world (facts), experience (what the agent did), opinion, observation (summaries), log (raw notes)",
    },
    entity: { type: "string", description: "Only memories that mention this entity (a name, slug or alias, e.g. Peter)" },
    budget: { type: "integer", minimum: 1, description: "Stop adding results at about this many tokens" },
  },
  required: ["query"],
  additionalProperties: false,
};

const GET_PARAMETERS = {
  type: "object",
  properties: {
    path: { type: "string", description: "memory/2025-11-27.md, or a citation memory/2025-11-27.md#L12-L15" },
    from: { type: "integer", minimum: 1 },
    lines: { type: "integer", minimum: 1 },
    corpus: { type: "string", enum: ["memory", "wiki", "all"] },
  },
  required: ["path"],
  additionalProperties: false,
};

const SEARCH_DESCRIPTION =
  "Mandatory recall step: search the agent's memory (MEMORY.md/memory.md, memory/*.md daily logs, bank/ pages) " +
  "with graphmem before answering questions about prior work, decisions, dates, people, preferences, or todos. " +
  "Each result is one cited fact, opinion or log line: kind (world|experience|opinion|observation|log), " +
  "timestamp, entities, score, and citation path#Lx-Ly; opinions carry confidence. Use since/until/kind to " +
  "narrow by time or kind, asOf for what was true on a past day, entity for one person/place/project. graphmem does not search session transcripts or the wiki (use wiki_search). " +
  "If the response has disabled=true, tell the user and include the error and action; " +
  "if it has ok=false, fix the parameters as its action says and search again.";

const GET_DESCRIPTION =
  "Exact excerpt read from a memory Markdown file in the workspace; accepts a memory_search citation " +
  "(memory/2025-11-27.md#L12-L15) or path plus from/lines. status=ok means the excerpt was read; " +
  "status=not_found means the file does not exist; status=error means the read failed.";

function jsonResult(payload) {
  return { content: [{ type: "text", text: JSON.stringify(payload, null, 2) }], details: payload };
}

/** Failures that are the call's, not memory's: the agent fixes its parameters and tries again. */
const CALLER_ERRORS = new Set(["BAD_INPUT", "UNKNOWN_ENTITY"]);

/**
 * memory_search's failure: memory-core's `disabled` shape (graphmem cannot answer), with
 * graphmem's code and action; a bad parameter is not reported as disabled memory.
 */
export function unavailablePayload(err) {
  const { code, error, action } = classifyError(err, "memory_search");
  const down = !CALLER_ERRORS.has(code);
  return {
    results: [],
    ...(down ? { disabled: true, unavailable: true } : { ok: false }),
    provider: "graphmem",
    code,
    error,
    ...(action ? { action } : {}),
  };
}

/** Any other tool's failure. `disabled` only when graphmem itself cannot run. */
export function errorPayload(err, tool) {
  const { code, error, action } = classifyError(err, tool);
  return { ok: false, tool, code, error, ...(action ? { action } : {}), ...(code === "GRAPHMEM_NOT_FOUND" ? { disabled: true } : {}) };
}

/**
 * `context`: { getConfig() -> OpenClaw config (for memory.citations), sessionKey } from the
 * tool factory's context; citations follow memory.citations as memory-core's do.
 */
export function createMemorySearchTool(getManager, context = {}) {
  return {
    label: "Memory Search",
    name: "memory_search",
    description: SEARCH_DESCRIPTION,
    parameters: SEARCH_PARAMETERS,
    async execute(_toolCallId, params, signal) {
      let cfg = {};
      try {
        cfg = context.getConfig?.() ?? {};
      } catch {
        // no config: citations stay on their default
      }
      const citations = citationsModeOf(cfg);
      if (params?.corpus === "sessions" || params?.corpus === "wiki") {
        return jsonResult({
          results: [],
          provider: "graphmem",
          warning: `graphmem does not index ${params.corpus === "wiki" ? "the wiki (use wiki_search)" : "session transcripts"}.`,
        });
      }
      try {
        const results = await getManager().search(String(params?.query ?? ""), {
          maxResults: params?.maxResults,
          minScore: params?.minScore,
          since: params?.since,
          until: params?.until,
          asOf: params?.asOf,
          kind: params?.kind,
          entity: params?.entity,
          budget: params?.budget,
          sessionKey: context.sessionKey,
          sources: ["memory"],
          signal,
        });
        const shown = presentResults(results, includeCitations(citations, context.sessionKey));
        return jsonResult({ results: shown, provider: "graphmem", citations, mode: "graphmem" });
      } catch (err) {
        if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("memory_search aborted");
        return jsonResult(unavailablePayload(err));
      }
    },
  };
}

export function createMemoryGetTool(getManager) {
  return {
    label: "Memory Get",
    name: "memory_get",
    description: GET_DESCRIPTION,
    parameters: GET_PARAMETERS,
    async execute(_toolCallId, params) {
      const relPath = String(params?.path ?? "");
      try {
        return jsonResult(await getManager().readFile({ relPath, from: params?.from, lines: params?.lines }));
      } catch (err) {
        return jsonResult({
          path: relPath,
          text: "",
          status: "error",
          code: err?.code ?? "MEMORY_READ_FAILED",
          error: err instanceof Error ? err.message : String(err),
        });
      }
    },
  };
}

/** The "## Memory Recall" system-prompt section, as memory-core writes it, with graphmem's citations. */
export function buildPromptSection({ availableTools, citationsMode }) {
  const hasSearch = availableTools?.has?.("memory_search");
  const hasGet = availableTools?.has?.("memory_get");
  if (!hasSearch && !hasGet) return [];
  const guidance = hasSearch
    ? `Before answering anything about prior work, decisions, dates, people, preferences, or todos: run memory_search` +
      `${hasGet ? "; use memory_get on a result's citation to read the surrounding lines" : ""}. ` +
      "If low confidence after search, say you checked."
    : "Before answering anything about prior work that points to a specific memory file: run memory_get.";
  const has = (name) => availableTools?.has?.(name);
  const extra = [];
  const reads = ["memory_about", "memory_timeline", "memory_opinions"].filter(has);
  if (reads.length) extra.push(`For one person, place or project use ${reads.join(", ")} (entity card, dated history, opinions with evidence).`);
  if (has("memory_store")) extra.push("To remember something durable, call memory_store (kind, entities, text); to correct a fact, pass replaces.");
  if (has("memory_forget")) extra.push("To forget a fact that no longer holds, call memory_forget with its citation (a dated retraction; nothing is deleted).");
  return [
    "## Memory Recall",
    guidance,
    ...extra,
    "Results come from graphmem: prefer a current world fact over a superseded one, and state an opinion's confidence.",
    "Report unavailable recall to the user, including the returned error and action.",
    citationsMode === "off"
      ? "Citations are disabled: do not mention file paths or line numbers in replies unless the user explicitly asks."
      : "Citations: include Source: <path#line> when it helps the user verify memory snippets.",
    "",
  ];
}

// ---- graphmem's other capabilities --------------------------------------------------

const NAME = { type: "string", minLength: 1, description: "An entity's name, slug or alias, e.g. Peter or Pete" };
const NOW = { type: "string", description: "Reference day (YYYY-MM-DD) for relative dates; default today" };
const CITATION = { type: "string", minLength: 1, description: "A citation from memory_search, e.g. memory/2025-11-27.md#L12" };

/** Tool specs: name, label, description, JSON-schema parameters and what to run. */
export const GRAPHMEM_TOOL_SPECS = [
  {
    name: "memory_about",
    label: "Memory About",
    sideEffecting: false,
    description:
      "Everything remembered about one entity (person, place, project, org, tool): its kind and aliases, " +
      "current facts, what changed and when (superseded facts), opinions with confidence, recent events and " +
      "related entities, each with a citation path#Lx-Ly. Use for 'who is X', 'what do we know about X', " +
      "'where does X live now'. An unknown name fails with code UNKNOWN_ENTITY.",
    parameters: {
      type: "object",
      properties: { name: NAME, now: NOW },
      required: ["name"],
      additionalProperties: false,
    },
    run: async (m, p) => ({ ok: true, ...(await m.about(String(p.name), { now: p.now })) }),
  },
  {
    name: "memory_timeline",
    label: "Memory Timeline",
    sideEffecting: false,
    description:
      "Every dated memory that mentions an entity, oldest first (kind, text, citation, day). Use for " +
      "'what happened with X', 'when did X ...', or the history of a project. since/until narrow the window.",
    parameters: {
      type: "object",
      properties: {
        name: NAME,
        since: { type: "string", description: `From this day on: ${WHEN}` },
        until: { type: "string", description: `Up to this day: ${WHEN}` },
        now: NOW,
      },
      required: ["name"],
      additionalProperties: false,
    },
    run: async (m, p) => ({ ok: true, ...(await m.timeline(String(p.name), { since: p.since, until: p.until, now: p.now })) }),
  },
  {
    name: "memory_opinions",
    label: "Memory Opinions",
    sideEffecting: false,
    description:
      "Opinions and preferences held in memory, each with its confidence (0-1), last update and citation. " +
      "entity narrows to one person or thing; why=true adds the evidence for and against and the confidence " +
      "history, to explain why a belief is held.",
    parameters: {
      type: "object",
      properties: {
        entity: { type: "string", description: "Only opinions about this entity (name, slug or alias)" },
        why: { type: "boolean", description: "Include evidence for/against and history (default false)" },
      },
      additionalProperties: false,
    },
    run: async (m, p) => {
      const opinions = shapeOpinions(await m.opinions({ entity: p.entity }), { why: p.why === true });
      return { ok: true, count: opinions.length, opinions };
    },
  },
  {
    name: "memory_store",
    label: "Memory Store",
    sideEffecting: true,
    description:
      "Remember something durable: appends one typed bullet to today's daily log (memory/YYYY-MM-DD.md, " +
      "under ## Retain) and re-indexes it, so Markdown stays the source of truth. kind: world (a fact), " +
      "experience (what you, the agent, did; first person), opinion (a preference or belief, with confidence), " +
      "summary. entities: who or what it is about. To correct an old fact, pass its citation as replaces: " +
      "the old fact ends, nothing is deleted. Returns the new memory's citation.",
    parameters: {
      type: "object",
      properties: {
        text: { type: "string", minLength: 1, description: "One sentence, e.g. 'Prefers voice notes over calls.'" },
        entities: {
          type: "array",
          items: { type: "string", minLength: 1 },
          minItems: 1,
          description: 'Who or what it is about, e.g. ["Peter"] or ["Peter", "Porto"]',
        },
        kind: { type: "string", enum: ["world", "experience", "opinion", "summary"], description: "Default world" },
        confidence: { type: "number", minimum: 0, maximum: 1, description: "For an opinion: how sure, 0-1 (e.g. 0.8)" },
        replaces: { ...CITATION, description: "Citation of the fact this one replaces, e.g. memory/2025-11-27.md#L12" },
      },
      required: ["text", "entities"],
      additionalProperties: false,
    },
    run: async (m, p) => {
      const bullet = buildRetainBullet({ text: p.text, entities: p.entities, kind: p.kind ?? "world", confidence: p.confidence });
      const out = await m.retain(bullet, { replaces: p.replaces });
      return { ok: true, stored: bullet, citation: out?.source, ...out };
    },
  },
  {
    name: "memory_forget",
    label: "Memory Forget",
    sideEffecting: true,
    description:
      "Forget a fact or opinion that no longer holds: writes a dated retraction into today's daily log and " +
      "re-indexes, so recall stops returning it (nothing is deleted; the Markdown keeps the history). " +
      "Find the citation with memory_search first. To replace a fact with a new value, use memory_store with " +
      "replaces instead.",
    parameters: {
      type: "object",
      properties: {
        citation: CITATION,
        reason: { type: "string", description: "Why it no longer holds, e.g. 'moved to Vienna'" },
      },
      required: ["citation"],
      additionalProperties: false,
    },
    run: async (m, p) => {
      const out = await m.retract(String(p.citation).trim(), { reason: p.reason });
      return { ok: true, retracted: String(p.citation).trim(), citation: out?.source, ...out };
    },
  },
  {
    name: "memory_reflect",
    label: "Memory Reflect",
    sideEffecting: true,
    description:
      "Consolidate memory: update opinions' confidence from the window's new evidence and regenerate the " +
      "bank/ pages (hand edits kept). Returns each confidence move with its reason and the pages changed. " +
      "dryRun=true shows what would change and writes nothing. Use periodically (e.g. since 7d), not per turn.",
    parameters: {
      type: "object",
      properties: {
        since: { type: "string", description: `Window of new evidence: ${WHEN} (default 7d)` },
        dryRun: { type: "boolean", description: "Show the changes, write nothing (default false)" },
        includeDiffs: { type: "boolean", description: "Include each page's diff (default false)" },
        now: NOW,
      },
      additionalProperties: false,
    },
    run: async (m, p) => ({
      ok: true,
      ...shapeReflect(await m.reflect({ since: p.since, dryRun: p.dryRun === true, now: p.now }), { includeDiffs: p.includeDiffs === true }),
    }),
  },
  {
    name: "memory_core",
    label: "Memory Core",
    sideEffecting: true,
    description:
      "The core memory file (MEMORY.md, or legacy memory.md) loaded at session start: action=list shows " +
      "numbered proposals (stale lines with what superseded them, durable facts worth adding), each with " +
      "evidence; action=apply with number edits the file minimally and re-indexes (dryRun=true prints the diff).",
    parameters: {
      type: "object",
      properties: {
        action: { type: "string", enum: ["list", "apply"] },
        number: { type: "integer", minimum: 1, description: "The proposal's number from action=list" },
        dryRun: { type: "boolean", description: "apply: show the diff, change nothing" },
      },
      required: ["action"],
      additionalProperties: false,
    },
    run: async (m, p) => {
      const core = typeof m.coreFile === "function" ? await m.coreFile() : null;
      const about = core ? { coreFile: core.file, ...(core.warning ? { warning: core.warning } : {}) } : {};
      if (p.action === "apply") {
        if (!Number.isInteger(p.number)) {
          throw Object.assign(new Error("action=apply needs number"), { code: "BAD_INPUT", hint: "Run action=list first and pass a proposal's number." });
        }
        return { ok: true, ...about, ...(await m.core("apply", { number: p.number, dryRun: p.dryRun === true })) };
      }
      const proposals = await m.core("list");
      return { ok: true, ...about, count: Array.isArray(proposals) ? proposals.length : 0, proposals };
    },
  },
];

export const GRAPHMEM_TOOL_NAMES = GRAPHMEM_TOOL_SPECS.map((t) => t.name);

/** One agent tool from its spec; `getManager` is called per execution (the config may change). */
export function createGraphmemTool(spec, getManager) {
  return {
    label: spec.label,
    name: spec.name,
    description: spec.description,
    parameters: spec.parameters,
    async execute(_toolCallId, params) {
      try {
        return jsonResult(await spec.run(getManager(), params ?? {}));
      } catch (err) {
        return jsonResult(errorPayload(err, spec.name));
      }
    },
  };
}
