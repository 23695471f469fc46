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
  if (packet.superseded_by) result.supersededBy = packet.superseded_by;
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
  const core = gm.coreFile;
  if (core) {
    lines.push(`  core file: ${core.file ?? "none"}${core.note ? ` (${core.note})` : ""}`);
    if (core.warning) lines.push(`  WARNING:   ${core.warning}`);
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

// ---- the agent tools beyond search/get: pure parts -------------------------------

/** Bullet prefix for each kind an agent can store (graphmem's Retain syntax). */
export const RETAIN_PREFIX = { world: "W", experience: "B", opinion: "O", summary: "S" };

/** A mention token graphmem reads: `@Name` is one word, so inner spaces become hyphens. */
export function mentionOf(name) {
  return String(name ?? "")
    .trim()
    .replace(/^@+/, "")
    .replace(/\s+/g, "-");
}

/**
 * `memory_store` fields -> one Retain bullet (`O(c=0.8) @Peter @Porto: text`).
 * Throws an Error with `code: "BAD_INPUT"` and a `hint` when a field cannot be written.
 */
export function buildRetainBullet({ text, entities, kind = "world", confidence } = {}) {
  const bad = (message, hint) => Object.assign(new Error(message), { code: "BAD_INPUT", hint });
  const body = String(text ?? "").replace(/\s+/g, " ").trim();
  if (!body) throw bad("memory_store needs text: the fact, event, opinion or summary in one sentence.");
  const prefix = RETAIN_PREFIX[kind];
  if (!prefix) throw bad(`unknown kind ${JSON.stringify(kind)}`, "kind is one of world, experience, opinion, summary.");
  const names = (Array.isArray(entities) ? entities : typeof entities === "string" ? [entities] : [])
    .map(mentionOf)
    .filter(Boolean);
  if (names.length === 0) {
    throw bad("memory_store needs at least one entity the memory is about.", 'Pass entities, e.g. ["Peter"] or ["Peter", "Porto"].');
  }
  let head = prefix;
  if (kind === "opinion" && confidence !== undefined && confidence !== null) {
    const c = Number(confidence);
    if (!Number.isFinite(c) || c < 0 || c > 1) throw bad("confidence must be a number from 0 to 1.", "e.g. 0.8 for fairly sure.");
    head = `O(c=${Math.round(c * 100) / 100})`;
  }
  return `${head} ${names.map((n) => `@${n}`).join(" ")}: ${body}`;
}

/** Names an entity card answers to (`graphmem about --json`): name, slug and aliases, lower-cased. */
export function entityNames(card) {
  const names = new Set();
  for (const n of [card?.name, card?.slug, ...(Array.isArray(card?.aliases) ? card.aliases : [])]) {
    if (typeof n === "string" && n.trim()) names.add(n.trim().toLowerCase());
  }
  return names;
}

/** Keep the recall packets that mention the entity (by any of its names), at most k of them. */
export function filterPacketsByEntity(packets, card, k) {
  if (!Array.isArray(packets)) return [];
  const names = entityNames(card);
  const kept = packets.filter(
    (p) => Array.isArray(p?.entities) && p.entities.some((e) => typeof e === "string" && names.has(e.trim().toLowerCase())),
  );
  return Number.isInteger(k) && k > 0 ? kept.slice(0, k) : kept;
}

/** `graphmem opinions --json` for an agent: the statement and confidence, plus the evidence when `why`. */
export function shapeOpinions(list, { why = false } = {}) {
  if (!Array.isArray(list)) return [];
  return list.map((o) => {
    const out = {
      id: o.id,
      statement: o.statement,
      confidence: o.confidence,
      entities: o.entities ?? [],
      citation: o.source,
      lastUpdated: o.last_updated ?? null,
    };
    if (o.stated_confidence !== undefined && o.stated_confidence !== o.confidence) out.statedConfidence = o.stated_confidence;
    if (o.status) out.status = o.status;
    if (o.superseded_by) out.supersededBy = o.superseded_by;
    if (why) {
      out.evidenceFor = o.evidence_for ?? [];
      out.evidenceAgainst = o.evidence_against ?? [];
      out.history = o.history ?? [];
    }
    return out;
  });
}

const MAX_DIFF_CHARS = 4000;

/** `graphmem reflect --json` for an agent: every confidence move; pages without diffs unless asked. */
export function shapeReflect(out, { includeDiffs = false } = {}) {
  const pages = Array.isArray(out?.pages) ? out.pages : [];
  return {
    since: out?.since ?? null,
    now: out?.now ?? null,
    dryRun: Boolean(out?.dry_run),
    moves: Array.isArray(out?.moves) ? out.moves : [],
    pagesChanged: pages.filter((p) => p.changed).length,
    pages: pages.map((p) => {
      const page = { path: p.path, changed: Boolean(p.changed) };
      if (p.reason) page.reason = p.reason;
      if (includeDiffs && typeof p.diff === "string" && p.diff) {
        page.diff = p.diff.length > MAX_DIFF_CHARS ? `${p.diff.slice(0, MAX_DIFF_CHARS)}\n... (cut)` : p.diff;
      }
      return page;
    }),
  };
}

/**
 * Any failure of a graphmem call -> { code, error, action } an agent can act on. graphmem's
 * own hints name CLI commands and environment variables; inside OpenClaw the fix is a tool
 * or an `openclaw` command, so known failures get the OpenClaw wording.
 */
export function classifyError(err, tool = "memory") {
  const message = err instanceof Error ? err.message : String(err);
  const hint = typeof err?.hint === "string" && err.hint ? err.hint : null;
  const out = (code, action) => ({ code, error: message, ...(action ? { action } : {}) });
  if (err?.code === "GRAPHMEM_NOT_FOUND" || err?.name === "GraphmemUnavailableError") return out("GRAPHMEM_NOT_FOUND", hint);
  if (err?.code === "GRAPHMEM_TIMEOUT") return out("GRAPHMEM_TIMEOUT", hint);
  if (err?.code === "BAD_INPUT") return out("BAD_INPUT", hint);
  if (/workspace .* does not exist/.test(message)) {
    return out(
      "NO_WORKSPACE",
      "Point OpenClaw at the memory folder: openclaw config set agents.defaults.workspace DIR " +
        "(or plugins.entries.graphmem.config.workspace), then run openclaw memory index.",
    );
  }
  if (/no Markdown notes in/.test(message)) {
    return out("EMPTY_WORKSPACE", "Nothing is remembered yet: store a first memory with memory_store, or write memory/YYYY-MM-DD.md.");
  }
  if (/no index\b|not indexed|index .*(missing|none)/i.test(message)) {
    return out("NO_INDEX", "Build the index: openclaw memory index (the CLI: graphmem --workspace DIR index).");
  }
  if (/no entity named/.test(message)) {
    return out(
      "UNKNOWN_ENTITY",
      "Check the name: an entity's name, slug or alias works (e.g. Pete for Peter). Find names with memory_search, or leave the entity out.",
    );
  }
  if (/malformed Retain bullet/.test(message)) {
    return out(
      "BAD_INPUT",
      "Nothing was written. Pass kind (world | experience | opinion | summary), entities (names, e.g. [\"Peter\"]) and one line of text.",
    );
  }
  if (/holds no fact or opinion|no fact or opinion/.test(message) || (tool === "memory_forget" && /nothing was written/.test(message))) {
    return out(
      "NOT_RETRACTABLE",
      "Nothing was written. Pass the citation of a fact or opinion (kind world, experience, opinion or observation) " +
        "from memory_search, e.g. memory/2025-11-27.md#L12; a log line cannot be retracted.",
    );
  }
  if (/Invalid value for --(since|until|as-of|now|today)/.test(message)) {
    return out("BAD_INPUT", "Dates take 30d, 2w, 6m, 1y, yesterday or YYYY-MM-DD.");
  }
  if (/Invalid value for --kind/.test(message)) {
    return out("BAD_INPUT", "kind is one or more of world, experience, observation, opinion, log.");
  }
  if (err?.exitCode === 2) return out("BAD_INPUT", hint && !/--help/.test(hint) ? hint : "Check the tool's parameters against its schema.");
  return out("GRAPHMEM_ERROR", hint);
}

/**
 * OpenClaw's root memory file: `MEMORY.md` is canonical (loaded at session start, where
 * dreaming and `doctor` look), `memory.md` legacy. graphmem indexes either as the core file.
 * `names` are the workspace's top-level entries, exact case. Returns what to tell the user.
 */
export function coreFileState(names) {
  const set = new Set(Array.isArray(names) ? names : []);
  const canonical = set.has("MEMORY.md");
  const legacy = set.has("memory.md");
  if (canonical && legacy) {
    return {
      file: "MEMORY.md",
      files: ["MEMORY.md", "memory.md"],
      warning:
        "both MEMORY.md and legacy memory.md exist: OpenClaw loads only MEMORY.md; graphmem indexes both (nothing is " +
        "lost) and its core proposals edit MEMORY.md. Merge memory.md into MEMORY.md (`openclaw doctor --fix` keeps a " +
        "backup), delete memory.md, then `openclaw memory index`.",
    };
  }
  if (canonical) return { file: "MEMORY.md", files: ["MEMORY.md"] };
  if (legacy) {
    return {
      file: "memory.md",
      files: ["memory.md"],
      warning:
        "memory.md is OpenClaw's legacy name (doctor: \"Memory system not found in workspace\"): rename it to MEMORY.md " +
        "(graphmem reads either), then `openclaw memory index`.",
    };
  }
  return { file: null, files: [], note: "no MEMORY.md yet (optional; graphmem indexes memory/*.md and bank/ without it)" };
}

/** The core files graphmem indexes that `names` (a folder's entries, exact case) holds, in order. */
export function coreFileNames(names) {
  const set = new Set(Array.isArray(names) ? names : []);
  return ["MEMORY.md", "memory.md", "USER.md"].filter((n) => set.has(n));
}

const BULLET = /^\s*(?:[-*+]|\d{1,9}[.)])\s+/u;
const TYPED = /^(?:[WBS]|O(?:\([^)\n]{0,40}\))?)\s+(?=@)/u;
const MENTION = /@([\p{L}\p{N}_][\p{L}\p{N}_'.-]{0,80})/gu;
const LABEL = /^([\p{L}][\p{L}\p{N} _-]{0,40}):\s/u;
const WORDS = /[\p{L}\p{N}_]+/gu;

/**
 * Active Memory trigger candidates from the core files' lines: each line that names someone
 * or something (an @mention, a known entity's name or alias, or a "Label:" prefix) becomes a
 * MemorySearchResult whose `triggers` are those names, `;`-separated (all of an entity's
 * aliases, so "Pete" triggers Peter's lines). `files`: [{ path, text }]; `entities`:
 * `graphmem entities --json`. Curated by the owner, so eligible for automatic injection.
 */
export function triggerCandidates(files, entities = []) {
  const byWord = new Map();
  const multi = [];
  for (const e of Array.isArray(entities) ? entities : []) {
    const names = [e?.name, ...(Array.isArray(e?.aliases) ? e.aliases : [])].filter((n) => typeof n === "string" && n.trim());
    if (names.length === 0) continue;
    for (const n of names) {
      const words = n.toLowerCase().match(WORDS) ?? [];
      if (words.length === 1) byWord.set(words[0], names);
      else if (words.length > 1) multi.push([n.toLowerCase(), names]);
    }
  }
  const out = [];
  for (const { path, text } of files) {
    const lines = String(text ?? "").split("\n");
    lines.forEach((raw, i) => {
      const line = raw.trim();
      if (!line || line.startsWith("#") || line.startsWith("<!--")) return;
      let body = line.replace(BULLET, "");
      body = body.replace(TYPED, "");
      const triggers = new Set();
      for (const m of body.matchAll(MENTION)) {
        const name = m[1].replace(/[.'-]+$/u, "");
        if (name) triggers.add(name);
        const known = byWord.get(name.toLowerCase());
        if (known) known.forEach((n) => triggers.add(n));
      }
      for (const w of body.toLowerCase().match(WORDS) ?? []) {
        const known = byWord.get(w);
        if (known) known.forEach((n) => triggers.add(n));
      }
      const lower = body.toLowerCase();
      for (const [name, names] of multi) if (lower.includes(name)) names.forEach((n) => triggers.add(n));
      const label = body.startsWith("@") ? null : LABEL.exec(body);
      if (label) triggers.add(label[1].trim());
      if (triggers.size === 0) return;
      const n = i + 1;
      out.push({
        path,
        startLine: n,
        endLine: n,
        score: 1,
        snippet: body,
        source: "memory",
        citation: `${path}#L${n}`,
        triggers: [...triggers].join(";"),
        provenance: { originClass: "owner", sessionKind: "interactive" },
      });
    });
  }
  return out;
}

/** `memory.citations`: "on", "off" or "auto" (the default; anything else is auto). */
export function citationsModeOf(cfg) {
  const mode = cfg?.memory?.citations;
  return mode === "on" || mode === "off" ? mode : "auto";
}

/**
 * Whether a search's results carry citations, as memory-core decides: always with "on",
 * never with "off"; with "auto" in a direct chat, not in a group or channel session.
 */
export function includeCitations(mode, sessionKey) {
  if (mode === "on") return true;
  if (mode === "off") return false;
  const rest = typeof sessionKey === "string" ? sessionKey.toLowerCase().split(":").slice(2) : [];
  return !(rest.includes("channel") || rest.includes("group"));
}

/** Results as the agent sees them: with "Source: path#Lx" under each snippet, or with no citation at all. */
export function presentResults(results, include) {
  return results.map((r) => {
    if (include) return { ...r, snippet: `${r.snippet.trimEnd()}\n\nSource: ${r.citation}` };
    const { citation: _citation, ...rest } = r;
    return rest;
  });
}
