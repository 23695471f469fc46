"""Parsed files + extraction results -> the rows of the graph. Pure: no database here.

The whole graph is compiled from the (cached) per-file results on every index, so cross-file
facts (entities, supersession, evidence) are always consistent, and an incremental index
equals a clean rebuild by construction.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date

from graphmem.blocks import Block, ParsedFile
from graphmem.entities import Mention
from graphmem.names import slugify
from graphmem.ontology import node_columns, rel_columns
from graphmem.opinions import EvidenceIn, OpinionIn, evaluate
from graphmem.supersede import KINDS as SUPERSEDE_KINDS
from graphmem.supersede import FactIn, Supersession, find_supersessions

#: Node and relationship tables with their columns, from ontology/schema.cypher.
NODE_COLUMNS = node_columns()
REL_COLUMNS = rel_columns()

_CITE = re.compile(r"\bmemory/(\d{4}-\d{2}-\d{2}[^\s)\]]*?\.md)")
#: A retain bullet's evidence: at most this many same-day passages sharing an entity.
EVIDENCE_PER_FACT = 5


@dataclass(frozen=True)
class BlockExtras:
    """What extraction adds to a block beyond the parser's explicit mentions."""

    mentions: tuple[Mention, ...] = ()
    valid_from: date | None = None
    valid_to: date | None = None
    speaker: str | None = None


@dataclass(frozen=True)
class SourceInfo:
    """The file-level facts the graph's Source node records."""

    path: str
    content_hash: str
    size: int


@dataclass
class EntityInfo:
    """An entity as compiled: declaration plus what mentions it."""

    slug: str
    name: str
    kind: str | None = None
    aliases: tuple[str, ...] = ()
    declared: bool = False
    page: str | None = None
    days: list[date] = field(default_factory=list)
    mentions: int = 0


@dataclass
class GraphData:
    """Rows for every table, as dicts keyed by column name (rels: ``from``/``to`` too)."""

    nodes: dict[str, list[dict[str, object]]] = field(
        default_factory=lambda: {table: [] for table in NODE_COLUMNS}
    )
    #: (rel table, from table, to table) -> rows
    rels: dict[tuple[str, str, str], list[dict[str, object]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    #: What the seed index searches for each fact, opinion and passage: its text, led by
    #: the names of the entities a bullet's ``@Name:`` head mentions.
    seed_text: dict[str, str] = field(default_factory=dict)

    def add_rel(
        self, rel: str, src: tuple[str, str], dst: tuple[str, str], **props: object
    ) -> None:
        """Add one relationship from (table, key) to (table, key)."""
        self.rels[(rel, src[0], dst[0])].append({"from": src[1], "to": dst[1], **props})

    def counts(self) -> dict[str, int]:
        """Rows per node table and per relationship table."""
        out = {table: len(rows) for table, rows in self.nodes.items()}
        for (rel, _, _), rows in self.rels.items():
            out[rel] = out.get(rel, 0) + len(rows)
        return out


def _table(block: Block) -> str:
    if block.kind == "opinion":
        return "Opinion"
    return "Passage" if block.is_passage else "Fact"


def alias_slugs(files: Iterable[ParsedFile]) -> dict[str, str]:
    """slugify(name or alias) -> the slug of the bank page that declares it.

    ``@nas01`` resolves to ``atlas`` when atlas's page lists nas01 as an alias.
    """
    out: dict[str, str] = {}
    for pf in files:
        if pf.entity is not None:
            for name in (pf.entity.name, *pf.entity.aliases):
                out.setdefault(slugify(name), pf.entity.slug)
    for pf in files:  # a page's own slug always wins over another page's alias
        if pf.entity is not None:
            out[pf.entity.slug] = pf.entity.slug
    return out


def declared_entities(files: Iterable[ParsedFile]) -> dict[str, EntityInfo]:
    """Entities declared by bank pages and explicit ``@mentions``, by slug."""
    files = list(files)
    aliases = alias_slugs(files)
    entities: dict[str, EntityInfo] = {}
    surfaces: dict[str, Counter[str]] = defaultdict(Counter)
    for pf in files:
        if pf.entity is not None:
            page = pf.entity
            info = entities.setdefault(page.slug, EntityInfo(page.slug, page.name))
            info.name, info.kind, info.page, info.declared = page.name, page.kind, pf.path, True
            info.aliases = tuple(dict.fromkeys((*info.aliases, *page.aliases)))
        for block in pf.blocks:
            for name in block.mentions:
                slug = slugify(name)
                surfaces[aliases.get(slug, slug)][name] += 1
    for slug, counter in surfaces.items():
        if slug in entities:
            extra = [s for s in counter if s.lower() != entities[slug].name.lower() and s != slug]
            entities[slug].aliases = tuple(dict.fromkeys((*entities[slug].aliases, *extra)))
            continue
        # The most frequent spelling names it; "The-Castle" reads as "The Castle".
        best = max(sorted(counter), key=lambda s: counter[s])
        name = best.replace("-", " ") if "-" in best and best[:1].isupper() else best
        spellings = tuple(s for s in sorted(counter) if s != name)
        entities[slug] = EntityInfo(slug, name, aliases=spellings, declared=True)
    return entities


def compile_graph(
    files: Iterable[ParsedFile],
    sources: Mapping[str, SourceInfo],
    extras: Mapping[str, BlockExtras] | None = None,
    entities: dict[str, EntityInfo] | None = None,
) -> GraphData:
    """Compile parsed files (plus extraction results keyed by block id) into graph rows.

    `entities` are the known entities (declared ones plus promoted NER names); mentions of
    any other slug are dropped, except explicit ``@mentions``, which always declare.
    """
    files = list(files)
    extras = extras or {}
    known = entities if entities is not None else declared_entities(files)
    # Fresh counters: the caller's entity table is not mutated.
    entities = {slug: replace(e, days=[], mentions=0) for slug, e in known.items()}
    aliases = alias_slugs(files)
    data = GraphData()
    passages_by_file: dict[str, list[tuple[Block, set[str]]]] = defaultdict(list)
    facts: list[tuple[ParsedFile, Block, set[str]]] = []

    for pf in files:
        info = sources.get(pf.path)
        data.nodes["Source"].append(
            {
                "path": pf.path,
                "role": pf.role,
                "day": pf.day,
                "content_hash": info.content_hash if info else None,
                "size": info.size if info else None,
                "blocks": len(pf.blocks),
            }
        )
        if pf.entity is not None:
            data.add_rel("IN", ("Entity", pf.entity.slug), ("Source", pf.path))
        for block in pf.blocks:
            table = _table(block)
            extra = extras.get(block.id, BlockExtras())
            slugs = _block_mentions(block, aliases, extra, entities, data, table)
            for slug in slugs:
                ent = entities[slug]
                ent.mentions += 1
                if pf.day:
                    ent.days.append(pf.day)
            data.nodes[table].append(_node_row(pf, block, extra))
            data.seed_text[block.id] = _seed_text(block, entities)
            data.add_rel("IN", (table, block.id), ("Source", pf.path))
            if block.kind == "opinion":
                for slug in slugs:
                    data.add_rel("ABOUT", ("Opinion", block.id), ("Entity", slug))
            if block.is_passage:
                previous = passages_by_file[pf.path]
                if previous:
                    data.add_rel("NEXT", ("Passage", previous[-1][0].id), ("Passage", block.id))
                previous.append((block, slugs))
            else:
                facts.append((pf, block, slugs))

    _evidence(data, facts, passages_by_file)
    changes = _supersede(data, facts, entities, aliases)
    _evolve_opinions(data, facts, changes, aliases)
    for ent in entities.values():
        if not ent.declared and ent.mentions == 0:
            continue  # garbage-collect: an undeclared name nobody mentions any more
        data.nodes["Entity"].append(
            {
                "slug": ent.slug,
                "name": ent.name,
                "kind": ent.kind,
                "aliases": list(ent.aliases),
                "declared": ent.declared,
                "page": ent.page,
                "mentions": ent.mentions,
                "first_seen": min(ent.days) if ent.days else None,
                "last_seen": max(ent.days) if ent.days else None,
            }
        )
    return data


def _block_mentions(
    block: Block,
    aliases: Mapping[str, str],
    extra: BlockExtras,
    entities: dict[str, EntityInfo],
    data: GraphData,
    table: str,
) -> set[str]:
    found: dict[str, str] = {}
    for name in block.mentions:
        slug = slugify(name)
        found.setdefault(aliases.get(slug, slug), "explicit")
    for m in extra.mentions:
        if m.slug in entities:
            found.setdefault(m.slug, m.source)
    for slug, how in found.items():
        data.add_rel("MENTIONS", (table, block.id), ("Entity", slug), how=how)
    return set(found)


def _seed_text(block: Block, entities: Mapping[str, EntityInfo]) -> str:
    if block.is_passage or not block.mentions:
        return block.text
    lowered = block.text.casefold()
    names = []
    for name in block.mentions:
        info = entities.get(slugify(name))
        shown = info.name if info else name
        if shown.casefold() not in lowered:
            names.append(shown)
    return f"{', '.join(names)}: {block.text}" if names else block.text


def _node_row(pf: ParsedFile, block: Block, extra: BlockExtras) -> dict[str, object]:
    common = {
        "id": block.id,
        "day": pf.day,
        "path": pf.path,
        "line_start": block.line_start,
        "line_end": block.line_end,
        "origin": block.origin,
        "heading": block.heading,
    }
    if block.kind == "opinion":
        return {
            **common,
            "statement": block.text,
            "confidence": block.confidence,
            "stated_confidence": block.confidence,
            "last_updated": pf.day,
            "superseded": False,
        }
    row: dict[str, object] = {
        **common,
        "text": block.text,
        "valid_from": extra.valid_from or pf.day,
        "valid_to": extra.valid_to,
    }
    if block.is_passage:
        row["speaker"] = extra.speaker
    else:
        row["kind"] = block.kind
    return row


def _supersede(
    data: GraphData,
    facts: list[tuple[ParsedFile, Block, set[str]]],
    entities: Mapping[str, EntityInfo],
    aliases: Mapping[str, str],
) -> list[Supersession]:
    """SUPERSEDES edges between world facts, and the older fact's validity closed."""
    rows = {str(r["id"]): r for r in data.nodes["Fact"]}
    inputs = [
        FactIn(
            id=block.id,
            text=block.text,
            day=pf.day,
            valid_from=rows[block.id]["valid_from"],  # type: ignore[arg-type]
            entities=tuple(_ordered_slugs(block, slugs, aliases)),
            kind=block.kind,
        )
        for pf, block, slugs in facts
        if block.kind in SUPERSEDE_KINDS and block.id in rows
    ]
    surfaces: dict[str, str] = {}
    for ent in entities.values():
        for name in (ent.name, *ent.aliases):
            surfaces.setdefault(name.casefold(), ent.slug)
    changes = find_supersessions(inputs, surfaces)
    for change in changes:
        data.add_rel(
            "SUPERSEDES",
            ("Fact", change.newer),
            ("Fact", change.older),
            day=change.day,
            cue=change.cue,
        )
        older = rows[change.older]
        end = older.get("valid_to")
        if end is None or end > change.day:  # type: ignore[operator]
            older["valid_to"] = change.day
    return changes


def _evolve_opinions(
    data: GraphData,
    facts: list[tuple[ParsedFile, Block, set[str]]],
    changes: list[Supersession],
    aliases: Mapping[str, str],
) -> None:
    """SUPPORTS / CONTRADICTS edges into opinions, their confidence moved along them, the
    history of each move, and SUPERSEDES between opinions (see graphmem.opinions)."""
    rows = {str(r["id"]): r for r in data.nodes["Opinion"]}

    # The rules compare what a bullet is about: its explicit @mentions (through aliases) when
    # it has any. Names found in its text are what it talks about ("off Docker"): the rules
    # must see those as words, not as its subject.
    def about(block: Block, slugs: set[str]) -> tuple[str, ...]:
        explicit = [aliases.get(slugify(n), slugify(n)) for n in block.mentions]
        kept = tuple(dict.fromkeys(s for s in explicit if s in slugs))
        return kept or tuple(sorted(slugs))

    opinions = [
        OpinionIn(block.id, block.text, pf.day, block.confidence, about(block, slugs))
        for pf, block, slugs in facts
        if block.kind == "opinion"
    ]
    evidence = [
        EvidenceIn(block.id, block.kind, block.text, pf.day, about(block, slugs))
        for pf, block, slugs in facts
        if block.kind != "opinion"
    ]
    tables = {block.id: _table(block) for _, block, _ in facts}
    links, states = evaluate(opinions, evidence, supersessions=changes)
    for link in links:
        rel = "SUPPORTS" if link.relation == "supports" else "CONTRADICTS"
        data.add_rel(
            rel,
            (tables[link.evidence], link.evidence),
            ("Opinion", link.opinion),
            weight=link.weight,
            day=link.day,
            reason=link.reason,
        )
    for opinion_id, state in states.items():
        row = rows[opinion_id]
        row["confidence"] = state.confidence
        row["superseded"] = state.superseded_by is not None
        if state.history:
            days = [m.day for m in state.history if m.day is not None]
            row["last_updated"] = max(days) if days else row["last_updated"]
            row["history"] = json.dumps(
                [
                    {
                        "day": m.day.isoformat() if m.day else None,
                        "old": m.old,
                        "new": m.new,
                        "evidence": m.evidence,
                        "relation": m.relation,
                        "reason": m.reason,
                    }
                    for m in state.history
                ],
                ensure_ascii=False,
            )
        if state.superseded_by is not None:
            newer = rows[state.superseded_by]
            data.add_rel(
                "SUPERSEDES",
                ("Opinion", state.superseded_by),
                ("Opinion", opinion_id),
                day=newer["day"],
                cue="opinion contradicted by a newer opinion",
            )


def _ordered_slugs(block: Block, slugs: set[str], aliases: Mapping[str, str]) -> list[str]:
    """The block's entities, explicit @mentions first in the order written."""
    first = [aliases.get(slugify(name), slugify(name)) for name in block.mentions]
    return list(dict.fromkeys([s for s in first if s in slugs] + sorted(slugs)))


def _evidence(
    data: GraphData,
    facts: list[tuple[ParsedFile, Block, set[str]]],
    passages_by_file: Mapping[str, list[tuple[Block, set[str]]]],
) -> None:
    """EVIDENCE edges: a bullet -> passages of files it cites, and same-day passages
    that share one of its entities (the narrative the bullet distils)."""
    for pf, block, slugs in facts:
        table = _table(block)
        linked: set[str] = set()
        for cited in _CITE.findall(block.text):
            for passage, p_slugs in passages_by_file.get(f"memory/{cited}", []):
                if (not slugs or slugs & p_slugs) and passage.id not in linked:
                    data.add_rel(
                        "EVIDENCE", (table, block.id), ("Passage", passage.id), how="cites"
                    )
                    linked.add(passage.id)
        if pf.role != "daily" or not slugs:
            continue
        same_day = [p for p, p_slugs in passages_by_file.get(pf.path, []) if slugs & p_slugs]
        for passage in same_day[:EVIDENCE_PER_FACT]:
            if passage.id not in linked:
                data.add_rel("EVIDENCE", (table, block.id), ("Passage", passage.id), how="same-day")
                linked.add(passage.id)
