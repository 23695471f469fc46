"""Parsed files + extraction results -> the rows of the graph. Pure: no database here.

Two steps. :func:`compile_file` makes every row that depends only on one file and the
entity table (its nodes, mentions, reading order, seed texts). The cross-file passes then
read every file's typed bullets: EVIDENCE (:func:`fact_evidence`), supersession and
opinion evolution (:func:`cross_links`), entity statistics (:func:`entity_rows`). A full
build runs both over every file (:func:`compile_workspace`); an incremental one
(graphmem.index.delta) runs the first on the changed files and the second from kept state, and
must give the same rows.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from graphmem.compile import opinions, stance, supersede, verdicts
from graphmem.compile.explicit import apply_retractions, find_explicit, merge_supersessions
from graphmem.compile.opinions import EvidenceIn, Link, OpinionIn, OpinionState, evaluate, names_in
from graphmem.compile.places import home_places
from graphmem.compile.supersede import KINDS as SUPERSEDE_KINDS
from graphmem.compile.supersede import LOG as SUPERSEDE_LOG
from graphmem.compile.supersede import FactIn, Supersession, find_supersessions
from graphmem.extract import mood as mood_module
from graphmem.extract.crosslingual import document_gloss
from graphmem.extract.declared import (  # re-exported: the compiled rows are built from them
    BlockExtras as BlockExtras,
)
from graphmem.extract.declared import (
    EntityInfo as EntityInfo,
)
from graphmem.extract.declared import (
    alias_slugs as alias_slugs,
)
from graphmem.extract.declared import (
    declare as declare,
)
from graphmem.extract.declared import (
    declared_entities as declared_entities,
)
from graphmem.extract.declared import (
    page_aliases as page_aliases,
)
from graphmem.extract.mood import mood
from graphmem.parse.blocks import Block, ParsedFile
from graphmem.parse.names import normalize_text, slugify
from graphmem.store.beside import Later
from graphmem.store.ontology import node_columns, rel_columns
from graphmem.text.fold import fold
from graphmem.text.stopwords import content_words

#: Node and relationship tables with their columns, from ontology/schema.cypher.
NODE_COLUMNS = node_columns()
REL_COLUMNS = rel_columns()

_CITE = re.compile(r"\bmemory/(\d{4}-\d{2}-\d{2}[^\s)\]]*?\.md)")
#: A retain bullet's evidence: at most this many same-day passages sharing an entity.
EVIDENCE_PER_FACT = 5
#: A passage of free text longer than this is no dated statement that ends a fact's value
#: (a chat log with no sentence ends is one passage, megabytes long): supersession, whose
#: patterns would read all of it, skips it. The dev workspaces' longest is 431 characters.
LONGEST_STATEMENT = 4096


@dataclass(frozen=True)
class SourceInfo:
    """The file-level facts the graph's Source node records."""

    path: str
    content_hash: str
    size: int


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


@dataclass(frozen=True)
class FactRef:
    """A typed bullet (fact or opinion) as the cross-file passes see it."""

    path: str
    role: str
    day: date | None
    block: Block
    slugs: frozenset[str]
    #: Validity as the text states it, before any supersession closes it.
    valid_from: date | None
    valid_to: date | None

    @property
    def table(self) -> str:
        return _table(self.block)


@dataclass
class FileRows:
    """One file compiled on its own: every row that depends only on the file and the
    entity table, plus what the cross-file passes need from it."""

    path: str
    role: str
    day: date | None
    nodes: dict[str, list[dict[str, object]]]
    rels: dict[tuple[str, str, str], list[dict[str, object]]]
    seed_text: dict[str, str]
    #: Typed bullets, in file order.
    facts: list[FactRef]
    #: Passages (id, entity slugs), in reading order: what EVIDENCE links point at.
    passages: list[tuple[str, frozenset[str]]]
    #: Entity slug -> blocks of this file that mention it.
    mentions: Counter[str]
    #: Passages as opinion evidence (reflection reads free text too), in reading order.
    texts: list[FactRef] = field(default_factory=list)


@dataclass
class CrossLinks:
    """What the cross-file passes derive from every typed bullet of the workspace."""

    supersessions: list[Supersession]
    #: Fact id -> the end of validity a newer fact imposes (earlier than the stated one).
    closed: dict[str, date]
    links: list[Link]
    #: Opinion id -> its evolved columns (confidence, superseded, last_updated, history).
    opinions: dict[str, dict[str, object]]
    #: (newer, older, day) between opinions.
    opinion_supersedes: list[tuple[str, str, date | None]]
    #: The passages of free text supersession found a claim or a typed value in: the only
    #: ones a later, incremental, pass has to read again (graphmem.compile.supersede).
    bearing: frozenset[str] = frozenset()


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
    return compile_workspace(files, sources, extras, entities)[0]


def compile_workspace(
    files: Iterable[ParsedFile],
    sources: Mapping[str, SourceInfo],
    extras: Mapping[str, BlockExtras] | None = None,
    entities: dict[str, EntityInfo] | None = None,
    fork: bool = True,
) -> tuple[GraphData, list[FileRows], CrossLinks]:
    """:func:`compile_graph`, also returning each file's rows and the cross-file links
    (what an incremental index keeps to redo only the part an edit touches). `fork`: see
    :func:`cross_links`."""
    files = list(files)
    extras = extras or {}
    known = entities if entities is not None else declared_entities(files)
    aliases = alias_slugs(files)
    per_file = [compile_file(pf, sources.get(pf.path), extras, known, aliases) for pf in files]
    data = GraphData()
    for fr in per_file:
        for table, rows in fr.nodes.items():
            data.nodes[table].extend(rows)
        for key, rels in fr.rels.items():
            data.rels[key].extend(rels)
        data.seed_text.update(fr.seed_text)
    facts = [ref for fr in per_file for ref in fr.facts]
    passages = {fr.path: fr.passages for fr in per_file}
    day_words = DayWords(passages, data.seed_text)
    for ref in facts:
        for passage, how in fact_evidence(ref, passages, day_words):
            data.add_rel("EVIDENCE", (ref.table, ref.block.id), ("Passage", passage), how=how)
    texts = [ref for fr in per_file for ref in fr.texts]
    cross = cross_links(facts, known, aliases, texts=texts, fork=fork)
    _apply_cross(data, cross, facts)
    data.nodes["Entity"] = entity_rows(known, ((fr.day, fr.mentions) for fr in per_file))
    return data, per_file, cross


def compile_file(
    pf: ParsedFile,
    info: SourceInfo | None,
    extras: Mapping[str, BlockExtras],
    entities: Mapping[str, EntityInfo],
    aliases: Mapping[str, str],
) -> FileRows:
    """The rows of one file that depend on nothing but it and the entity table."""
    out = FileRows(
        pf.path, pf.role, pf.day, {t: [] for t in ("Source", "Fact", "Opinion", "Passage")},
        defaultdict(list), {}, [], [], Counter(),
    )  # fmt: skip

    def rel(name: str, src: tuple[str, str], dst: tuple[str, str], **props: object) -> None:
        out.rels[(name, src[0], dst[0])].append({"from": src[1], "to": dst[1], **props})

    out.nodes["Source"].append(
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
        rel("IN", ("Entity", pf.entity.slug), ("Source", pf.path))
    previous: str | None = None
    for block in pf.blocks:
        table = _table(block)
        extra = extras.get(block.id, BlockExtras())
        found = _block_mentions(
            block, aliases, extra, entities, pf.entity.slug if pf.entity else None
        )
        for slug, how in found.items():
            rel("MENTIONS", (table, block.id), ("Entity", slug), how=how)
        slugs = frozenset(found)
        out.mentions.update(slugs)
        row = _node_row(pf.path, pf.day, block, extra)
        out.nodes[table].append(row)
        out.seed_text[block.id] = _seed_text(block, entities)
        rel("IN", (table, block.id), ("Source", pf.path))
        if block.kind == "opinion":
            for slug in found:
                rel("ABOUT", ("Opinion", block.id), ("Entity", slug))
        if block.is_passage:
            if previous is not None:
                rel("NEXT", ("Passage", previous), ("Passage", block.id))
            previous = block.id
            out.passages.append((block.id, slugs))
            page = frozenset({pf.entity.slug}) if pf.entity is not None else frozenset()
            out.texts.append(FactRef(pf.path, pf.role, pf.day, block, slugs | page, None, None))
        else:
            valid_from = row.get("valid_from") if table == "Fact" else pf.day
            valid_to = row.get("valid_to") if table == "Fact" else None
            out.facts.append(
                FactRef(pf.path, pf.role, pf.day, block, slugs, valid_from, valid_to)  # type: ignore[arg-type]
            )
    return out


def entity_rows(
    entities: Mapping[str, EntityInfo],
    mentions: Iterable[tuple[date | None, Mapping[str, int]]],
) -> list[dict[str, object]]:
    """Entity rows from the entity table and each file's (day, mentions per slug).

    An undeclared name that nothing mentions any more is left out (garbage-collected).
    """
    count: Counter[str] = Counter()
    first: dict[str, date] = {}
    last: dict[str, date] = {}
    for day, per_slug in mentions:
        for slug, n in per_slug.items():
            if slug not in entities:
                continue
            count[slug] += n
            if day is not None and n:
                first[slug] = min(first.get(slug, day), day)
                last[slug] = max(last.get(slug, day), day)
    return [
        {
            "slug": ent.slug,
            "name": ent.name,
            "kind": ent.kind,
            "aliases": list(ent.aliases),
            "declared": ent.declared,
            "page": ent.page,
            "mentions": count[slug],
            "first_seen": first.get(slug),
            "last_seen": last.get(slug),
        }
        for slug, ent in entities.items()
        if ent.declared or count[slug]
    ]


def _block_mentions(
    block: Block,
    aliases: Mapping[str, str],
    extra: BlockExtras,
    entities: Mapping[str, EntityInfo],
    page: str | None = None,
) -> dict[str, str]:
    """Entity slug -> how the block mentions it (subject, page, explicit, gazetteer,
    speaker, ner, pronoun). ``subject``: the bullet's head names it; ``page``: the block is on the
    entity's own bank page; both mean the block is *about* the entity."""
    found: dict[str, str] = {}
    if page is not None:
        found[page] = "page"
    for name in block.subject:
        slug = slugify(name)
        found.setdefault(aliases.get(slug, slug), "subject")
    for name in block.mentions:
        slug = slugify(name)
        found.setdefault(aliases.get(slug, slug), "explicit")
    for m in extra.mentions:
        if m.slug in entities:
            found.setdefault(m.slug, m.source)
    return found


def _seed_text(block: Block, entities: Mapping[str, EntityInfo]) -> str:
    """What FTS5 and the embedder see of a block: its text, after the names its @mentions
    stand for when the text does not spell them, and with English glosses when it is
    written in another language (crosslingual.document_gloss), so that an English question
    finds a French, Portuguese, German, Spanish or Chinese line."""
    text = document_gloss(block.text)
    if block.is_passage or not block.mentions:
        return text
    lowered = block.text.casefold()
    names = []
    for name in block.mentions:
        info = entities.get(slugify(name))
        shown = info.name if info else name
        if shown.casefold() not in lowered:
            names.append(shown)
    return f"{', '.join(names)}: {text}" if names else text


def _node_row(path: str, day: date | None, block: Block, extra: BlockExtras) -> dict[str, object]:
    common = {
        "id": block.id,
        "day": day,
        "path": path,
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
            "last_updated": day,
            "superseded": False,
        }
    row: dict[str, object] = {
        **common,
        "text": block.text,
        "valid_from": extra.valid_from or day,
        "valid_to": extra.valid_to,
    }
    if block.is_passage:
        row["speaker"] = extra.speaker
    else:
        row["kind"] = block.kind
    return row


def bullet_row(ref: FactRef, cross: CrossLinks) -> dict[str, object]:
    """The finished row of a typed bullet: as compiled, then closed or evolved by `cross`."""
    row = _node_row(
        ref.path, ref.day, ref.block, BlockExtras(valid_from=ref.valid_from, valid_to=ref.valid_to)
    )
    return finish_row(row, ref.table, cross)


def finish_row(row: dict[str, object], table: str, cross: CrossLinks) -> dict[str, object]:
    """Apply `cross` to a compiled Fact or Opinion row in place (and return it): a fact's
    validity closed by a newer one, an opinion's evolved confidence and history."""
    if table == "Fact":
        closed = cross.closed.get(str(row["id"]))
        if closed is not None:
            row["valid_to"] = closed
    elif table == "Opinion":
        row.update(cross.opinions.get(str(row["id"]), {}))
    return row


def fact_evidence(
    ref: FactRef,
    passages: Mapping[str, list[tuple[str, frozenset[str]]]],
    words: DayWords | None = None,
) -> list[tuple[str, str]]:
    """A bullet's EVIDENCE links as (passage id, how): passages of files it cites, then
    the same-day passages that say what it distils.

    With `words` (the passages' content words, :class:`DayWords`), the same-day passages
    are the ones sharing the most words with the bullet (at least two, or one and an
    entity): a bullet is most often the day's sentence that states it, restated. Without
    words, or when no passage shares enough words, passages sharing one of its entities
    count, in reading order.
    """
    out: list[tuple[str, str]] = []
    linked: set[str] = set()
    for path in cited_files(ref):
        for passage, p_slugs in passages.get(path, []):
            if (not ref.slugs or ref.slugs & p_slugs) and passage not in linked:
                out.append((passage, "cites"))
                linked.add(passage)
    if ref.role != "daily":
        return out
    day = passages.get(ref.path, [])
    same_day: list[str] = []
    if words is not None:
        postings = words.of(ref.path)
        shared: Counter[int] = Counter()
        for word in content_words(ref.block.text):
            shared.update(postings.get(word, ()))
        scored = []
        for order, count in shared.items():
            passage, p_slugs = day[order]
            entity = bool(ref.slugs & p_slugs)
            if count >= 2 or entity:
                scored.append((-(count + entity), order, passage))
        same_day = [p for _, _, p in sorted(scored)]
    if not same_day and ref.slugs:
        same_day = [p for p, p_slugs in day if ref.slugs & p_slugs]
    for passage in same_day[:EVIDENCE_PER_FACT]:
        if passage not in linked:
            out.append((passage, "same-day"))
            linked.add(passage)
    return out


#: A word in more of a day's passages than this tells no passage apart (a hostile file of
#: 20,000 lines sharing one word must not cost 20,000 x 20,000 comparisons).
MAX_WORD_PASSAGES = 50


class DayWords:
    """Per daily file, content word -> the positions of its passages holding it, built on
    first use and once per compile run; words in too many passages are left out."""

    def __init__(
        self, passages: Mapping[str, list[tuple[str, frozenset[str]]]], texts: Mapping[str, str]
    ) -> None:
        self._passages = passages
        self._texts = texts
        self._by_path: dict[str, dict[str, tuple[int, ...]]] = {}

    def of(self, path: str) -> dict[str, tuple[int, ...]]:
        found = self._by_path.get(path)
        if found is None:
            postings: dict[str, list[int]] = defaultdict(list)
            for order, (passage, _) in enumerate(self._passages.get(path, [])):
                for word in content_words(self._texts.get(passage, "")):
                    postings[word].append(order)
            found = {w: tuple(o) for w, o in postings.items() if len(o) <= MAX_WORD_PASSAGES}
            self._by_path[path] = found
        return found


def cited_files(ref: FactRef) -> list[str]:
    """The daily logs a bullet cites (``memory/2025-11-27.md``), in the order written."""
    return [f"memory/{cited}" for cited in _CITE.findall(ref.block.text)]


def cross_links(
    facts: list[FactRef],
    entities: Mapping[str, EntityInfo],
    aliases: Mapping[str, str],
    *,
    supersessions: list[Supersession] | None = None,
    opinions_of: set[str] | None = None,
    texts: list[FactRef] | None = None,
    fork: bool = True,
) -> CrossLinks:
    """Supersession between world facts, then opinion evolution (graphmem.compile.opinions).

    `supersessions` skips finding them again (and leaves `bearing` empty). `opinions_of`
    limits evolution to the opinions that mention one of those slugs ("" stands for the
    opinions naming no entity), plus what bears on them: the rest keep what a previous run
    found, which the caller merges (see graphmem.index.delta). `fork`: whether finding
    supersessions may run in a forked child beside the evolution (graphmem.store.beside).
    """
    bearing: set[str] = set()
    if supersessions is None:
        # beside the evolution's preparation, which needs the edges only at its end
        found = Later(
            lambda: _supersessions_and_bearing(facts, entities, aliases, texts or []), beside=fork
        )
        links, states, days = _evolve_opinions(
            facts, lambda: found.get()[0], aliases, opinions_of, texts or [], entities
        )
        supersessions, bearing = found.get()
    else:
        links, states, days = _evolve_opinions(
            facts, supersessions, aliases, opinions_of, texts or [], entities
        )
    closed: dict[str, date] = {}
    for change in supersessions:
        end = closed.get(change.older)
        if end is None or end > change.day:
            closed[change.older] = change.day
    base = {ref.block.id: ref.valid_to for ref in facts}
    closed = {
        fid: day
        for fid, day in closed.items()
        if base.get(fid) is None or base[fid] > day  # type: ignore[operator]
    }
    opinions: dict[str, dict[str, object]] = {}
    supersedes: list[tuple[str, str, date | None]] = []
    for opinion_id, state in states.items():
        cols: dict[str, object] = {
            "confidence": state.confidence,
            "superseded": state.superseded_by is not None,
            "last_updated": days[opinion_id],
            "history": None,
        }
        if state.history:
            at = _ending_at(state)
            moved = [m.day for m in state.history if m.day is not None]
            cols["last_updated"] = max(moved) if moved else days[opinion_id]
            cols["history"] = json.dumps(
                [
                    {
                        "day": m.day.isoformat() if m.day else None,
                        "old": m.old,
                        "new": m.new,
                        "evidence": m.evidence,
                        "relation": m.relation,
                        "reason": m.reason,
                        "source": m.source,
                        **({"ending": state.status} if n == at else {}),
                    }
                    for n, m in enumerate(state.history)
                ],
                ensure_ascii=False,
            )
        opinions[opinion_id] = cols
        if state.superseded_by is not None:
            supersedes.append((state.superseded_by, opinion_id, days[state.superseded_by]))
    return CrossLinks(supersessions, closed, links, opinions, supersedes, frozenset(bearing))


def _ending_at(state: OpinionState) -> int | None:
    """The index of the move that ended the opinion (None: it is open). Found once per
    opinion: looking it up per move was quadratic in a long history (100k: 25 s)."""
    if not state.status:
        return None
    if state.ended_by:
        for i, m in enumerate(state.history):
            if m.source == state.ended_by:
                return i
    return len(state.history) - 1


def cross_rels(
    cross: CrossLinks, tables: Mapping[str, str]
) -> dict[tuple[str, str, str], list[dict[str, object]]]:
    """The relationships of `cross`: SUPERSEDES, SUPPORTS, CONTRADICTS.

    `tables` maps a bullet id to its table (Fact or Opinion)."""
    out: dict[tuple[str, str, str], list[dict[str, object]]] = defaultdict(list)
    for change in cross.supersessions:
        # the newer side is a bullet, or else a sentence of free text (a Passage)
        newer = "Fact" if change.newer in tables else "Passage"
        out[("SUPERSEDES", newer, "Fact")].append(
            {"from": change.newer, "to": change.older, "day": change.day, "cue": change.cue}
        )
    for link in cross.links:
        if link.evidence not in tables:
            continue  # a sentence of free text: cited in the opinion's history only
        rel = "SUPPORTS" if link.relation == "supports" else "CONTRADICTS"
        out[(rel, tables[link.evidence], "Opinion")].append(
            {
                "from": link.evidence,
                "to": link.opinion,
                "weight": link.weight,
                "day": link.day,
                "reason": link.reason,
            }
        )
    for newer, older, day in cross.opinion_supersedes:
        out[("SUPERSEDES", "Opinion", "Opinion")].append(
            {"from": newer, "to": older, "day": day, "cue": OPINION_SUPERSEDED}
        )
    return out


OPINION_SUPERSEDED = "opinion contradicted by a newer opinion"


def _apply_cross(data: GraphData, cross: CrossLinks, facts: list[FactRef]) -> None:
    """Close superseded facts, evolve opinions and add the cross-file relationships."""
    for table in ("Fact", "Opinion"):
        for row in data.nodes[table]:
            finish_row(row, table, cross)
    tables = {ref.block.id: ref.table for ref in facts}
    for key, rows in cross_rels(cross, tables).items():
        data.rels[key].extend(rows)


def _supersessions_and_bearing(
    facts: list[FactRef],
    entities: Mapping[str, EntityInfo],
    aliases: Mapping[str, str],
    texts: Sequence[FactRef],
) -> tuple[list[Supersession], set[str]]:
    bearing: set[str] = set()
    return find_fact_supersessions(facts, entities, aliases, texts, bearing=bearing), bearing


def find_fact_supersessions(
    facts: list[FactRef],
    entities: Mapping[str, EntityInfo],
    aliases: Mapping[str, str],
    texts: Sequence[FactRef] = (),
    *,
    bearing: set[str] | None = None,
) -> list[Supersession]:
    """SUPERSEDES between world facts, and from a dated sentence of free text that ends a
    fact's value ("from today Joana is the tech lead", graphmem.compile.supersede). `bearing`
    receives the ids of the passages that can take part (see find_supersessions)."""

    def fact_in(ref: FactRef) -> FactIn:
        slugs = tuple(_ordered_slugs(ref.block, ref.slugs, aliases))
        return FactIn(ref.block.id, ref.block.text, ref.day, ref.valid_from, slugs, ref.block.kind)

    # A plan or a hypothetical states no state: it neither ends one nor is ended. A dated
    # first-person bullet ("- B @rook: I moved the backups from B2 to Hetzner") ends no
    # value, but dates the undated lines still writing the one it left.
    plain_facts = [
        ref
        for ref in facts
        if (
            ref.block.kind in SUPERSEDE_KINDS
            or (ref.block.kind == "experience" and ref.day is not None)
        )
        and mood(ref.block.text) is None
    ]
    inputs = [fact_in(ref) for ref in plain_facts if ref.block.kind in SUPERSEDE_KINDS]
    told = [fact_in(ref) for ref in plain_facts if ref.block.kind == "experience"]
    dated = [
        FactIn(ref.block.id, ref.block.text, ref.day, None, tuple(sorted(ref.slugs)), SUPERSEDE_LOG)
        for ref in texts
        if ref.day is not None and ref.role == "daily" and len(ref.block.text) <= LONGEST_STATEMENT
    ]
    moods = [mood(f.text) is None for f in dated]
    inputs += [f for f, plain in zip(dated, moods, strict=True) if plain]
    # a conditional sentence states no value, but still dates a number it writes
    said = [f for f, plain in zip(dated, moods, strict=True) if not plain]
    surfaces: dict[str, str] = {}
    for ent in entities.values():
        for name in (ent.name, *ent.aliases):
            surfaces.setdefault(name.casefold(), ent.slug)
    found = find_supersessions(inputs, surfaces, bearing=bearing, said=said, told=told)
    # what a bullet says outright ("(replaces memory/D.md#L12)") beats what a rule guessed
    return merge_supersessions(found, find_explicit(facts))


def _evolve_opinions(
    facts: list[FactRef],
    changes: list[Supersession] | Callable[[], list[Supersession]],
    aliases: Mapping[str, str],
    opinions_of: set[str] | None,
    texts: list[FactRef] | None = None,
    entities: Mapping[str, EntityInfo] | None = None,
) -> tuple[list[Link], dict[str, OpinionState], dict[str, date | None]]:
    """SUPPORTS / CONTRADICTS links into opinions, their confidence moved along them, and
    each opinion's day (see graphmem.compile.opinions)."""

    # The rules compare what a bullet is about: its explicit @mentions (through aliases) when
    # it has any. Names found in its text are what it talks about ("off Docker"): the rules
    # must see those as words, not as its subject.
    def about(ref: FactRef) -> tuple[str, ...]:
        explicit = [aliases.get(slugify(n), slugify(n)) for n in ref.block.mentions]
        kept = tuple(dict.fromkeys(s for s in explicit if s in ref.slugs))
        return kept or tuple(sorted(ref.slugs))

    def cite(ref: FactRef) -> str:
        a, b = ref.block.line_start, ref.block.line_end
        return f"{ref.path}#L{a}" + (f"-L{b}" if b > a else "")

    days = {ref.block.id: ref.day for ref in facts if ref.block.kind == "opinion"}
    if opinions_of is not None and not opinions_of:
        return [], {}, days  # an edit no opinion can hear of
    opinions = [
        OpinionIn(
            ref.block.id, ref.block.text, ref.day, ref.block.confidence, about(ref), cite(ref)
        )
        for ref in facts
        if ref.block.kind == "opinion"
    ]
    evidence = [
        EvidenceIn(
            ref.block.id, ref.block.kind, ref.block.text, ref.day, about(ref), source=cite(ref)
        )
        for ref in facts
        if ref.block.kind != "opinion"
    ]
    evidence += text_evidence(texts or [])
    surfaces = opinion_surfaces(entities or {}, texts or [])
    if opinions_of is None:
        links, states = evaluate(opinions, evidence, supersessions=changes, surfaces=surfaces)
        links, states = apply_retractions(links, states, find_explicit(facts).retractions)
        return links, states, days
    # Only the opinions about `opinions_of` (or naming one of them), with everything that
    # can bear on them: items about one of their entities (as evaluate sees it: those the
    # item's words name too), every passage of a day and file where one is (a pronoun
    # reaches back across passages), and items whose words on the same day would be merged
    # with one of those (evaluate keeps the first of such twins).
    items: list[OpinionIn | EvidenceIn] = [*opinions, *evidence]
    said = names_in((o.statement for o in opinions), surfaces)
    reach = {o.id: frozenset(o.entities) | n for o, n in zip(opinions, said, strict=True)}
    # "" stands for the opinions naming no entity (see graphmem.index.delta)
    anyone = frozenset({""})
    wanted = {
        o.id
        for o in opinions
        if opinions_of & (reach[o.id] if o.entities else reach[o.id] | anyone)
    }
    related = {e for o in opinions if o.id in wanted for e in reach[o.id]}
    # below, an item's reach only meets `related`: names are looked up where one can be
    named = names_in((e.text for e in evidence), surfaces, only=related)
    reach.update((e.id, frozenset(e.entities) | n) for e, n in zip(evidence, named, strict=True))
    near = [i for i in items if related & reach[i.id]]
    runs = {(i.path, i.day) for i in near if isinstance(i, EvidenceIn) and i.kind == "log"}
    near_days = {i.day for i in near}
    keys = {_twin_key(i) for i in near}

    def keep(item: OpinionIn | EvidenceIn) -> bool:
        if related & reach[item.id] or item.id in wanted:
            return True
        if isinstance(item, EvidenceIn) and item.kind == "log" and (item.path, item.day) in runs:
            return True
        return item.day in near_days and _twin_key(item) in keys

    keep_o = [o for o in opinions if keep(o)]
    keep_e = [e for e in evidence if keep(e)]
    links, states = evaluate(keep_o, keep_e, supersessions=changes, surfaces=surfaces, aim=opinions)
    links = [lk for lk in links if lk.opinion in wanted]
    states = {k: v for k, v in states.items() if k in wanted}
    links, states = apply_retractions(links, states, find_explicit(facts).retractions)
    return links, states, days


def text_evidence(texts: Iterable[FactRef]) -> list[EvidenceIn]:
    """Passages of free text as opinion evidence, judged sentence by sentence; an entity
    page's prose and memory.md count undated, other undated text not at all."""
    return [
        EvidenceIn(
            ref.block.id,
            "log",
            ref.block.text,
            ref.day,
            tuple(sorted(ref.slugs)),
            path=ref.path,
            line_start=ref.block.line_start,
            curated=ref.role in ("entity", "core"),
            line_end=ref.block.line_end,
        )
        for ref in texts
        if ref.day is not None or ref.role in ("entity", "core")
    ]


def opinion_surfaces(
    entities: Mapping[str, EntityInfo], texts: Iterable[FactRef] = ()
) -> dict[str, str]:
    """Folded name or alias -> slug: how opinion evolution finds who a sentence names; with
    the passages of the entity pages in `texts`, an entity's home place names it too
    (graphmem.compile.places: "the Seville delivery" is the Seville importer's)."""
    surfaces: dict[str, str] = {}
    for ent in entities.values():
        for name in (ent.name, *ent.aliases):
            surfaces.setdefault(fold(name), ent.slug)
    surfaces.update(home_places(entities, texts))
    return surfaces


def _twin_key(item: OpinionIn | EvidenceIn) -> tuple[date | None, str]:
    """What graphmem.compile.opinions.evaluate merges on: the same words on the same day."""
    text = item.statement if isinstance(item, OpinionIn) else item.text
    return item.day, normalize_text(text)


def _ordered_slugs(block: Block, slugs: frozenset[str], aliases: Mapping[str, str]) -> list[str]:
    """The block's entities, explicit @mentions first in the order written."""
    first = [aliases.get(slugify(name), slugify(name)) for name in block.mentions]
    return list(dict.fromkeys([s for s in first if s in slugs] + sorted(slugs)))


def clear_caches() -> None:
    """Empty the memo caches of the cross-file passes (per text: readings, cue scopes, stems,
    folds). One compile fills them, up to 65,536 entries each, and nothing reads them again
    before the next compile: at 100k items they held ~100 MB through the graph load, the
    seed index and the vector fill. Only speed depends on them."""
    for module in (stance, opinions, verdicts, supersede, mood_module):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
