// Pure translations between graphmem's JSON and OpenClaw's memory contracts.
// No I/O here, so `node --test` can check them without OpenClaw or graphmem.

/** graphmem cites `memory/2025-11-27.md#L12` or `#L12-L15`; no backtracking-prone regex. */
export function parseCitation(source) {
  if (typeof source !== "string" || source.length === 0) return null;
  const hash = source.lastIndexOf("#L");
  if (hash < 0) return { path: source, startLine: null, endLine: null };
  const path = source.slice(0, hash);
  const range = source.slice(hash + 2);
  const dash = range.indexOf("-");
  const first = dash < 0 ? range : range.slice(0, dash);
  let second = dash < 0 ? first : range.slice(dash + 1);
  if (second.startsWith("L")) second = second.slice(1);
  const startLine = toLine(first);
  const endLine = toLine(second);
  if (startLine === null || endLine === null) return { path: source, startLine: null, endLine: null };
  return { path, startLine: Math.min(startLine, endLine), endLine: Math.max(startLine, endLine) };
}

function toLine(text) {
  if (text.length === 0 || text.length > 9) return null;
  for (const ch of text) if (ch < "0" || ch > "9") return null;
  const n = Number(text);
  return n >= 1 ? n : null;
}

/** The same `path#Lx` / `path#Lx-Ly` form OpenClaw's memory-core uses for citations. */
export function formatCitation(path, startLine, endLine) {
  if (startLine === null || startLine === undefined) return path;
  return startLine === endLine ? `${path}#L${startLine}` : `${path}#L${startLine}-L${endLine}`;
}

/**
 * One graphmem recall packet -> one OpenClaw MemorySearchResult.
 *
 * OpenClaw's result type reserves `source` for the corpus ("memory" | "sessions"),
 * so graphmem's cited source moves to `citation` (and `path`/`startLine`/`endLine`);
 * graphmem's own fields ride along under their names.
 */
export function packetToResult(packet) {
  const cite = parseCitation(packet?.source);
  if (!cite || cite.startLine === null) return null;
  const kind = typeof packet.kind === "string" ? packet.kind : "log";
  const timestamp = typeof packet.timestamp === "string" ? packet.timestamp : null;
  const content = typeof packet.content === "string" ? packet.content : "";
  const result = {
    path: cite.path,
    startLine: cite.startLine,
    endLine: cite.endLine,
    score: typeof packet.score === "number" ? packet.score : 0,
    snippet: formatSnippet({ kind, timestamp, content, confidence: packet.confidence }),
    source: "memory",
    citation: formatCitation(cite.path, cite.startLine, cite.endLine),
    kind,
    timestamp,
    entities: Array.isArray(packet.entities) ? packet.entities : [],
    content,
  };
  if (typeof packet.confidence === "number") result.confidence = packet.confidence;
  if (Array.isArray(packet.evidence)) result.evidence = packet.evidence;
  if (Array.isArray(packet.via)) result.via = packet.via;
  if (typeof packet.id === "string") result.id = packet.id;
  return result;
}

/** `[opinion c=0.98 2025-10-10] Prefers concise replies…`: what a model reads first. */
export function formatSnippet({ kind, timestamp, content, confidence }) {
  const tags = [kind];
  if (typeof confidence === "number") tags.push(`c=${confidence.toFixed(2)}`);
  if (timestamp) tags.push(timestamp);
  return `[${tags.join(" ")}] ${content}`;
}

/** graphmem `recall --json` output (a list) -> ranked OpenClaw results. */
export function recallToResults(packets, { minScore } = {}) {
  if (!Array.isArray(packets)) return [];
  const out = [];
  for (const packet of packets) {
    const result = packetToResult(packet);
    if (!result) continue;
    if (typeof minScore === "number" && result.score < minScore) continue;
    out.push(result);
  }
  return out;
}

const CHUNK_NODES = ["Fact", "Opinion", "Passage"];

/**
 * graphmem `status --json` -> OpenClaw MemoryProviderStatus. The SDK types
 * `backend` as the literal "builtin"; `provider: "graphmem"` says who answers.
 */
export function statusToProviderStatus(gm, { workspaceDir, command }) {
  const counts = gm && typeof gm.counts === "object" && gm.counts ? gm.counts : {};
  const degraded = Array.isArray(gm?.degraded) ? gm.degraded.map(String) : [];
  const embeddingsOff = degraded.some((d) => /embed|vector/i.test(d));
  const chunks = CHUNK_NODES.reduce((sum, label) => sum + (Number(counts[label]) || 0), 0);
  const changed = [gm?.stale, gm?.new, gm?.deleted].reduce(
    (n, list) => n + (Array.isArray(list) ? list.length : 0),
    0,
  );
  const indexed = typeof gm?.generation === "string";
  return {
    backend: "builtin",
    provider: "graphmem",
    model: embeddingsOff ? "lexical+graph (no embeddings)" : "graphmem (FTS5 + MiniLM + graph)",
    files: Number(gm?.files) || 0,
    chunks,
    dirty: !indexed || gm?.fresh === false || changed > 0,
    workspaceDir: gm?.workspace ?? workspaceDir,
    dbPath: `${gm?.workspace ?? workspaceDir}/.memory`,
    sources: ["memory"],
    sourceCounts: [{ source: "memory", files: Number(gm?.files) || 0, chunks }],
    fts: { enabled: true, available: indexed },
    vector: { enabled: !embeddingsOff, available: indexed && !embeddingsOff },
    custom: {
      graphmem: {
        command,
        generation: gm?.generation ?? null,
        builtAt: gm?.built_at ?? null,
        counts,
        stale: gm?.stale ?? [],
        new: gm?.new ?? [],
        deleted: gm?.deleted ?? [],
        warnings: gm?.warnings ?? [],
        degraded,
        indexMode: gm?.index_mode ?? null,
        indexSeconds: gm?.index_seconds ?? null,
      },
    },
  };
}

export const MEMORY_CORE_WARNING =
  "memory-core is enabled, so OpenClaw serves ITS memory_search, memory_get and `openclaw memory` " +
  "(the builtin index), not graphmem's. Run: openclaw config set plugins.entries.memory-core.enabled false";

/** Whether memory-core is loaded beside the slot owner (it then wins the tool and CLI names). */
export function memoryCoreEnabled(cfg) {
  return cfg?.plugins?.entries?.["memory-core"]?.enabled !== false;
}

/**
 * Whether memory-core still dreams beside the slot owner. OpenClaw 2026.9.6 loads it
 * (and lets it claim `openclaw memory`) unless plugins.entries.memory-core.enabled is false.
 */
export function memoryCoreLoaded(cfg) {
  const entry = cfg?.plugins?.entries?.["memory-core"];
  if (entry?.enabled === false) return false;
  return entry?.config?.dreaming?.enabled !== false;
}

/** Human lines for `openclaw memory status` (one agent). */
export function formatStatusLines(agentId, status, { memoryCoreEnabled = false } = {}) {
  const gm = status.custom?.graphmem ?? {};
  const counts = gm.counts ?? {};
  const lines = [
    `Memory (${agentId}): graphmem`,
    `  workspace: ${status.workspaceDir}`,
    `  command:   ${gm.command}`,
  ];
  if (!gm.generation) {
    lines.push("  index:     none yet (run: openclaw memory index)");
  } else {
    const state = status.dirty ? "stale (run: openclaw memory index)" : "fresh";
    lines.push(`  index:     ${gm.generation}, built ${gm.builtAt}, ${state}`);
    lines.push(
      `  files:     ${status.files}; ${counts.Entity ?? 0} entities, ${counts.Fact ?? 0} facts, ` +
        `${counts.Opinion ?? 0} opinions, ${counts.Passage ?? 0} passages`,
    );
  }
  for (const [label, list] of [
    ["changed", gm.stale],
    ["new", gm.new],
    ["deleted", gm.deleted],
  ]) {
    if (Array.isArray(list) && list.length > 0) lines.push(`  ${label}:   ${list.join(", ")}`);
  }
  lines.push(`  search:    ${status.model}`);
  if (Array.isArray(gm.degraded) && gm.degraded.length > 0) {
    lines.push(`  degraded:  ${gm.degraded.join("; ")}`);
  }
  if (Array.isArray(gm.warnings) && gm.warnings.length > 0) {
    lines.push(`  warnings:  ${gm.warnings.length} (graphmem --workspace ${status.workspaceDir} status)`);
  }
  if (memoryCoreEnabled) {
    lines.push("  dreaming:  memory-core's, running beside graphmem as a sidecar");
    lines.push(`  WARNING:   ${MEMORY_CORE_WARNING}`);
  } else {
    lines.push("  dreaming:  off (it is memory-core's, which is disabled; graphmem's counterpart is `graphmem reflect`)");
  }
  return lines;
}

/** Human lines for `openclaw memory search`. */
export function formatSearchLines(results) {
  if (results.length === 0) return ["No matches."];
  const lines = [];
  for (const r of results) {
    lines.push(`${r.score.toFixed(3)} ${r.citation}`);
    lines.push(`  ${r.snippet}`);
    lines.push("");
  }
  return lines;
}
