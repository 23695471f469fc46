// memory_search and memory_get, with memory-core's names and parameters plus
// graphmem's time and kind filters.

const SEARCH_PARAMETERS = {
  type: "object",
  properties: {
    query: { type: "string" },
    maxResults: { type: "integer", minimum: 1 },
    minScore: { type: "number" },
    corpus: { type: "string", enum: ["memory", "wiki", "all", "sessions"] },
    since: { type: "string", description: "Only memories since: 30d, 2w, 2025-11-01" },
    until: { type: "string", description: "Only memories until this day" },
    kind: { type: "string", enum: ["world", "experience", "opinion", "observation", "log"] },
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
  "narrow by time or kind. graphmem does not search session transcripts or the wiki (use wiki_search). " +
  "If the response has disabled=true, tell the user and include the error and hint.";

const GET_DESCRIPTION =
  "Exact excerpt read from a memory Markdown file in the workspace; accepts a memory_search citation " +
  "(memory/2025-11-27.md#L12-L15) or path plus from/lines. status=ok means the excerpt was read; " +
  "status=not_found means the file does not exist; status=error means the read failed.";

function jsonResult(payload) {
  return { content: [{ type: "text", text: JSON.stringify(payload, null, 2) }], details: payload };
}

export function unavailablePayload(err) {
  return {
    results: [],
    disabled: true,
    unavailable: true,
    provider: "graphmem",
    error: err instanceof Error ? err.message : String(err),
    ...(err?.hint ? { action: err.hint } : {}),
  };
}

export function createMemorySearchTool(getManager) {
  return {
    label: "Memory Search",
    name: "memory_search",
    description: SEARCH_DESCRIPTION,
    parameters: SEARCH_PARAMETERS,
    async execute(_toolCallId, params, signal) {
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
          kind: params?.kind,
          signal,
        });
        return jsonResult({ results, provider: "graphmem", citations: "on", mode: "graphmem" });
      } catch (err) {
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
export function buildPromptSection({ availableTools }) {
  const hasSearch = availableTools?.has?.("memory_search");
  const hasGet = availableTools?.has?.("memory_get");
  if (!hasSearch && !hasGet) return [];
  const guidance = hasSearch
    ? `Before answering anything about prior work, decisions, dates, people, preferences, or todos: run memory_search` +
      `${hasGet ? "; use memory_get on a result's citation to read the surrounding lines" : ""}. ` +
      "If low confidence after search, say you checked."
    : "Before answering anything about prior work that points to a specific memory file: run memory_get.";
  return [
    "## Memory Recall",
    guidance,
    "Results come from graphmem: prefer a current world fact over a superseded one, and state an opinion's confidence.",
    "Report unavailable recall to the user, including the returned error and action.",
    "Citations: include Source: <path#line> when it helps the user verify memory snippets.",
    "",
  ];
}
