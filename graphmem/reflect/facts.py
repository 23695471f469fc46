"""What the bank pages and the core-memory proposals are both made from: the graph's
facts, opinions and evidence, read once (:func:`load`), and the durable facts the core file
lacks (:func:`durable_facts`). ``graphmem.reflect.bank`` writes the pages from them and
``graphmem.reflect.core`` proposes core edits from them; neither imports the other's reading.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from graphmem.extract.aspect import aspect
from graphmem.extract.mood import mood
from graphmem.parse.names import normalize_text
from graphmem.recall.packets import source_ref
from graphmem.store.db import Graph
from graphmem.text.fold import fold

#: Proposals consider facts about this many of the most-mentioned entities.
TOP_ENTITIES = 10
#: Word-set overlap (Jaccard) at which two statements count as the same claim.
SAME_CLAIM = 0.4
_WORD = re.compile(r"\w+")


# ---------------------------------------------------------------- graph data


@dataclass
class _Data:
    """What the pages are made of, read once with named queries."""

    entities: list[dict[str, Any]]
    days: dict[str, int]
    facts: dict[str, dict[str, Any]]
    fact_entities: dict[str, list[dict[str, Any]]]
    replaced: dict[str, list[dict[str, Any]]]  # older fact id -> its SUPERSEDES links
    opinions: dict[str, dict[str, Any]]
    opinion_entities: dict[str, list[dict[str, Any]]]
    evidence: dict[str, list[tuple[str, str, dict[str, Any]]]]  # id -> (relation, source, row)


def _grouped(rows: Iterable[dict[str, Any]], key: str) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        out[row[key]].append(row)
    return out


def _load(graph: Graph) -> _Data:
    facts = {r["id"]: r for r in graph.run("bank/facts").dicts()}
    opinions = {r["id"]: r for r in graph.run("bank/opinions").dicts()}
    ids = sorted(opinions)
    evidence: dict[str, list[tuple[str, str, dict[str, Any]]]] = defaultdict(list)
    if ids:
        for r in graph.run("recall/opinion_evidence", ids=ids).dicts():
            node = facts.get(r["evidence"]) or opinions.get(r["evidence"])
            if node is not None:
                evidence[r["opinion"]].append((r["relation"].lower(), _source(node), r))
        links = graph.run("recall/evidence", ids=ids).dicts()
        passages = {
            r["id"]: r
            for r in graph.run(
                "recall/passages_by_ids", ids=sorted({x["passage"] for x in links})
            ).dicts()
        }
        for r in links:
            if r["claim"] in opinions and r["passage"] in passages:
                evidence[r["claim"]].append(("evidence", _source(passages[r["passage"]]), r))
    return _Data(
        entities=sorted(graph.run("entity/list").dicts(), key=lambda r: r["slug"]),
        days={r["slug"]: int(r["days"]) for r in graph.run("bank/entity_days").dicts()},
        facts=facts,
        fact_entities=_grouped(graph.run("bank/fact_entities").dicts(), "id"),
        replaced=_grouped(graph.run("bank/supersedes").dicts(), "older"),
        opinions=opinions,
        opinion_entities=_grouped(graph.run("bank/opinion_entities").dicts(), "id"),
        evidence=dict(evidence),
    )


def load(graph: Graph) -> _Data:
    """What the bank pages and the core proposals are made from, read from `graph` once."""
    return _load(graph)


def _source(row: dict[str, Any]) -> str:
    return source_ref(row["path"], row["line_start"], row["line_end"])


def _order(row: dict[str, Any]) -> tuple[bool, date, str, int]:
    """Undated (curated) statements first, then by day, path and line."""
    day = row.get("day")
    return (day is not None, day or date.min, row["path"], row["line_start"])


def _clean(text: str, limit: int | None = None) -> str:
    """One line of text that cannot open an HTML comment (and so cannot fake a marker)."""
    flat = " ".join(text.split()).replace("<!--", "&lt;!--").replace("-->", "--&gt;")
    if limit is not None and len(flat) > limit:
        flat = flat[:limit].rsplit(" ", 1)[0] + "…"
    return flat


def _words(text: str) -> set[str]:
    return {w for w in _WORD.findall(fold(text)) if len(w) > 2}


def _similar(a: set[str], b: set[str]) -> bool:
    return bool(a and b) and len(a & b) / len(a | b) >= SAME_CLAIM


def _values(text: str) -> set[str]:
    """The value-like words of a statement: numbers and capitalised words after its first."""
    found = _WORD.findall(text)[1:]
    return {fold(w) for w in found if w[0].isdigit() or w[0].isupper()}


def _restates(a: set[str], b: set[str]) -> bool:
    """Whether two similar statements say the same thing: not when each holds a value the
    other lacks ("Oat milk is Oatly, 36 L" vs "now Alpro, 40 L" is a change, not a repeat)."""
    return not (a - b and b - a)


@dataclass(frozen=True)
class Durable:
    """A durable fact the core file does not hold yet, and why it deserves a place."""

    #: The statement (the latest wording; a bank page's when one restates it).
    text: str
    #: The names of the entities it is about (subject or explicit @mention), subject first.
    names: tuple[str, ...]
    #: Citations of every statement of it, oldest first.
    evidence: tuple[str, ...]
    #: On how many distinct days it was stated.
    days: int
    #: The slugs of every entity it mentions.
    slugs: tuple[str, ...]
    #: Sort key: the rank of its most-mentioned entity, then the statement's order.
    key: tuple[int, tuple[bool, date, str, int]]


def durable_facts(data: _Data, memory: str) -> list[Durable]:
    """World facts about the most-mentioned entities that are current, open-ended, a state
    (no plan, trip or conditional), stated on two or more days (or in two files), and not
    in the core file (`memory`, its text) yet; in rank order."""
    ranked = sorted(data.entities, key=lambda e: (-int(e["mentions"] or 0), e["slug"]))
    rank = {e["slug"]: i for i, e in enumerate(ranked[:TOP_ENTITIES])}
    cands = [
        f
        for i, f in sorted(data.facts.items())
        if f["kind"] == "world"
        and i not in data.replaced
        and f["valid_to"] is None
        and not (f["valid_from"] and f["day"] and f["valid_from"] > f["day"])
        and f["path"] not in ("memory.md", "MEMORY.md")
        and any(e["slug"] in rank for e in data.fact_entities.get(i, []))
        # a plan, a trip or a conditional is no durable state
        and mood(f["text"]) is None
        and aspect(f["text"], f["day"]) == "state"
    ]
    words = {f["id"]: _words(f["text"]) for f in cands}
    values = {f["id"]: _values(f["text"]) for f in cands}
    parent = {f["id"]: f["id"] for f in cands}

    def root(i: str) -> str:
        while parent[i] != i:
            i = parent[i]
        return i

    for n, a in enumerate(cands):  # union statements of one claim about a shared entity
        ents_a = {e["slug"] for e in data.fact_entities.get(a["id"], [])}
        for b in cands[n + 1 :]:
            shared = ents_a & {e["slug"] for e in data.fact_entities.get(b["id"], [])}
            if (
                shared
                and _similar(words[a["id"]], words[b["id"]])
                and _restates(values[a["id"]], values[b["id"]])
            ):
                parent[root(b["id"])] = root(a["id"])
    clusters: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for f in cands:
        clusters[root(f["id"])].append(f)
    core = normalize_text(memory)
    core_lines = [_words(line) for line in memory.splitlines() if line.strip()]
    items: list[Durable] = []
    for members in clusters.values():
        members.sort(key=_order)
        days = {m["day"] for m in members if m["day"]}
        if len(days) < 2 and len({m["path"] for m in members}) < 2:
            continue
        if any(
            normalize_text(m["text"]) in core
            or any(_similar(words[m["id"]], c) for c in core_lines)
            for m in members
        ):
            continue
        curated = [m for m in members if m["origin"] == "bank"]
        best = (curated or members)[-1]  # a bank page's wording is already a summary
        ents = data.fact_entities.get(best["id"], [])
        named = [e for e in ents if e["how"] in ("subject", "explicit")]
        named.sort(key=lambda e: e["how"] != "subject")
        first = min(rank[e["slug"]] for e in ents if e["slug"] in rank) if ents else TOP_ENTITIES
        items.append(
            Durable(
                _clean(best["text"]),
                tuple(e["name"] for e in named),
                tuple(_source(m) for m in members),
                len(days),
                tuple(sorted({e["slug"] for e in ents})),
                (first, _order(best)),
            )
        )
    return sorted(items, key=lambda d: d.key)
