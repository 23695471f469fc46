"""Incremental index: copy the published generation and change only what an edit touched.

A full build compiles every file and bulk-loads a new graph; at ten years of logs that takes
seconds even when one line changed. The delta path instead

1. re-reads only the files whose content hash changed (or that appeared or vanished);
2. recomputes the entity table from every file's kept contribution; when it changed (a new
   ``@Name`` or chat speaker, a name no file uses any more), the files whose text holds one
   of the names that changed are re-read as well (only they can mention it differently),
   the cross-file passes are redone, and the new entities are added. It gives up (a full
   build follows) when a known entity's name, kind, aliases or page changed, or too many
   files name the changed entities;
3. compiles the changed files on their own (graphmem.compile.rows.compile_file), then redoes the
   cross-file passes from every file's kept bullets: supersession over all world facts,
   opinion evolution for the opinions about an entity the edit touched, EVIDENCE of bullets
   that cite a changed log, entity mention counts;
4. copies the published generation, deletes the changed files' nodes with their edges, adds
   their new rows and applies the cross-file differences, in the graph (one transaction),
   the seed index and its projection. The caller publishes it like any build.

The result equals a clean rebuild: tests/index/test_delta.py compares every node, relationship,
seed and projection row. What the next delta needs is kept in the generation as
:data:`STATE_FILE`.
"""

from __future__ import annotations

import os
import pickle
import shutil
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from pathlib import Path

import numpy as np
import numpy.typing as npt

from graphmem.compile.opinions import Sentence, reached_through, sentences_of
from graphmem.compile.rows import (
    NODE_COLUMNS,
    CrossLinks,
    DayWords,
    EntityInfo,
    FactRef,
    FileRows,
    GraphData,
    SourceInfo,
    bullet_row,
    cited_files,
    compile_file,
    cross_links,
    cross_rels,
    entity_rows,
    fact_evidence,
    find_fact_supersessions,
    finish_row,
    opinion_surfaces,
    page_aliases,
    text_evidence,
)
from graphmem.extract.entities import Mention
from graphmem.extract.stage import (
    Extractor,
    FileEntities,
    block_extras,
    entity_table,
    file_entities,
)
from graphmem.index.load import add_rows, remove_nodes, remove_rel_statement
from graphmem.index.seedstage import embed_texts, seed_rows, split_vectors
from graphmem.index.timing import Laps
from graphmem.parse.blocks import Notice, ParsedFile
from graphmem.parse.names import name_probe, normalize_text
from graphmem.search.projection import Projection, patch_projection
from graphmem.search.seeds import SeedIndex, connect
from graphmem.search.windows import windows_of, write_windows
from graphmem.store.db import Graph
from graphmem.store.layout import Generation
from graphmem.text.fold import fold

STATE_FILE = "state.pickle"
#: Bumped when the layout of the kept state, or of what a delta patches, changes (an older
#: state means a full build). 4: the seed index holds windows; 6: the cross links keep
#: the passages supersession reads (CrossLinks.bearing).
STATE_VERSION = 6
#: More changed files than this: a full build.
MAX_CHANGED_FILES = 32
#: A graph file this many times larger than after the last full build: a full build.
MAX_GROWTH = 1.5

#: (vectors or None, model id, texts embedded now, degraded notice) for new seed texts.
Vectorizer = Callable[
    [Sequence[str]], tuple[npt.NDArray[np.float32] | None, str | None, int, str | None]
]
#: The unchanged files whose text holds one of the given probes (see :func:`name_probes`),
#: parsed: the files a change of the entity table may re-match.
Widen = Callable[[frozenset[str]], Sequence[ParsedFile]]
#: Entity columns a delta can update in place; a change to any other column is a full build.
COUNT_COLUMNS = ("mentions", "first_seen", "last_seen")
#: A cross-file relationship: (rel, from table, to table, from key, to key, properties).
RelKey = tuple[str, str, str, str, str, tuple[tuple[str, object], ...]]


@dataclass
class FileState:
    """What one indexed file leaves for the next incremental index."""

    content_hash: str
    role: str
    day: date | None
    #: The file's typed bullets (a pickled list of FactRef): most deltas never read the
    #: bullets of unchanged files, and unpickling ten years of them costs ~0.1 s.
    packed_facts: bytes
    #: The daily logs its bullets cite.
    cites: frozenset[str]
    mentions: Counter[str]
    entities: FileEntities
    warnings: tuple[Notice, ...]
    #: The file's passages as opinion evidence (a pickled list of FactRef).
    packed_texts: bytes = b""
    #: Those passages in which supersession found a claim or a typed value: the only ones
    #: it reads again while the entity table stays (CrossLinks.bearing).
    bearing: tuple[FactRef, ...] = ()
    #: The days of its passages (a sentence is a twin only of items of its own day).
    text_days: frozenset[date | None] = frozenset()

    @classmethod
    def of(
        cls,
        content_hash: str,
        fr: FileRows,
        entities: FileEntities,
        warnings: tuple[Notice, ...],
        bearing: frozenset[str],
    ) -> FileState:
        return cls(
            content_hash,
            fr.role,
            fr.day,
            pickle.dumps(fr.facts, protocol=pickle.HIGHEST_PROTOCOL),
            frozenset(c for ref in fr.facts for c in cited_files(ref)),
            fr.mentions,
            entities,
            warnings,
            pickle.dumps(fr.texts, protocol=pickle.HIGHEST_PROTOCOL),
            tuple(ref for ref in fr.texts if ref.block.id in bearing),
            frozenset(ref.day for ref in fr.texts),
        )

    @cached_property
    def facts(self) -> list[FactRef]:
        facts: list[FactRef] = pickle.loads(self.packed_facts)
        return facts

    @cached_property
    def texts(self) -> list[FactRef]:
        texts: list[FactRef] = pickle.loads(self.packed_texts) if self.packed_texts else []
        return texts

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k not in ("facts", "texts")}


@dataclass
class IndexState:
    """Everything a delta needs besides the changed files themselves."""

    version: int
    #: The build fingerprint without its file hashes (schema, code and model versions).
    key: dict[str, object]
    #: Path -> state, in discovery order.
    files: dict[str, FileState]
    entities: dict[str, EntityInfo]
    aliases: dict[str, str]
    cross: CrossLinks
    #: Entity slug -> its row as loaded.
    entity_rows: dict[str, dict[str, object]]
    #: The relationships `cross` makes, as loaded.
    rels: set[RelKey]
    #: (size, mtime) of the graph file as published: anything else means someone wrote to it
    #: (``cypher --write``), and a copy would carry that write into the next generation.
    graph_stamp: tuple[int, int] = (0, 0)
    #: Size of the graph file the last full build wrote. Kùzu appends pages on every
    #: in-place change (~0.6 MB per one-day delta at 100k items, 50 MB), so a graph grown
    #: past :data:`MAX_GROWTH` times that is rebuilt in full, which compacts it.
    full_bytes: int = 0


def state_of(
    key: dict[str, object],
    per_file: Sequence[FileRows],
    parsed: Sequence[ParsedFile],
    hashes: Mapping[str, str],
    inputs: Sequence[FileEntities],
    entities: dict[str, EntityInfo],
    cross: CrossLinks,
    entity_table_rows: Iterable[dict[str, object]],
) -> IndexState:
    """The state a full build leaves (per_file, parsed and inputs in one file order)."""
    files = {
        fr.path: FileState.of(hashes[fr.path], fr, fe, pf.warnings, cross.bearing)
        for fr, pf, fe in zip(per_file, parsed, inputs, strict=True)
    }
    tables = {ref.block.id: ref.table for fr in per_file for ref in fr.facts}
    return IndexState(
        STATE_VERSION,
        key,
        files,
        entities,
        page_aliases(fe.page for fe in inputs if fe.page is not None),
        cross,
        {str(row["slug"]): row for row in entity_table_rows},
        _rel_set(cross_rels(cross, tables)),
    )


def graph_stamp(path: Path) -> tuple[int, int]:
    """(size, mtime in ns) of a graph file."""
    st = os.stat(path)
    return st.st_size, st.st_mtime_ns


def save_state(gen: Generation, state: IndexState, *, full: bool) -> None:
    """Keep `state` in the (unpublished, closed) generation; `full` after a full build."""
    state.graph_stamp = graph_stamp(gen.graph)
    if full:
        state.full_bytes = state.graph_stamp[0]
    with (gen.path / STATE_FILE).open("wb") as fh:
        pickle.dump(state, fh, protocol=pickle.HIGHEST_PROTOCOL)


def load_state(gen: Generation, key: dict[str, object]) -> IndexState | None:
    """The state kept in `gen`, if it is there, readable, built with the same `key`, and
    its graph is as published.

    The file lives in the workspace's own ``.memory/`` and only graphmem writes it; anything
    unexpected about it means a full build, never an error.
    """
    try:
        with (gen.path / STATE_FILE).open("rb") as fh:
            state = pickle.load(fh)
        stamp = graph_stamp(gen.graph)
    except Exception:  # missing, truncated, or written by another graphmem version
        return None
    if not isinstance(state, IndexState) or state.version != STATE_VERSION:
        return None
    if state.key != key or state.graph_stamp != stamp:
        return None
    return state


@dataclass(frozen=True)
class Plan:
    """The files a delta re-reads and the files it forgets."""

    changed: tuple[str, ...]
    removed: tuple[str, ...]


def plan(state: IndexState, hashes: Mapping[str, str]) -> Plan | None:
    """Which files changed since `state`; None when a full build is the better choice: many
    files changed, or deltas have grown the graph file (see IndexState.full_bytes)."""
    if state.graph_stamp[0] > MAX_GROWTH * state.full_bytes:
        return None
    changed = tuple(
        p for p, h in hashes.items() if p not in state.files or state.files[p].content_hash != h
    )
    removed = tuple(p for p in state.files if p not in hashes)
    if len(changed) + len(removed) > MAX_CHANGED_FILES:
        return None
    return Plan(changed, removed)


class NotIncremental(Exception):
    """This edit cannot be applied as a delta; the caller builds in full. Says why."""


@dataclass(frozen=True)
class DeltaResult:
    """What a delta built."""

    state: IndexState
    warnings: tuple[Notice, ...]
    counts: dict[str, int]
    embedded: int
    notice: str | None


def apply_delta(
    *,
    state: IndexState,
    work: Plan,
    parsed: Sequence[ParsedFile],
    hashes: Mapping[str, str],
    sizes: Mapping[str, int],
    extractor: Extractor,
    previous: Generation,
    gen: Generation,
    vectorize: Vectorizer,
    buffer_pool_mb: int,
    previous_counts: Mapping[str, int],
    laps: Laps | None = None,
    widen: Widen | None = None,
) -> DeltaResult:
    """Build `gen` as `previous` plus the changed files `parsed` (in file order).

    `hashes` and `sizes` cover every file of the workspace, in discovery order. When the
    edit changes the entity table, `widen` gives the unchanged files naming the changed
    entities, which are then compiled again too; without it, or when that cannot be done
    incrementally, raises :class:`NotIncremental`.
    """
    order = list(hashes)
    lap = laps if laps is not None else Laps()
    lap.restart()
    edit = _read(state, work, parsed, order, extractor, widen)
    rows = _compile(edit, hashes, sizes, extractor)
    lap("extract")
    crossed = _redo_cross(state, order, edit, rows)
    lap("cross")
    data = _new_rows(state, order, rows, crossed.cross, previous)
    people = _entity_changes(state, order, rows, edit.entities)
    data.nodes["Entity"] = people.added
    diff = _differences(state, crossed, rows, data)
    lap("compile")
    removed = _patch_graph(previous, gen, buffer_pool_mb, crossed.gone, people, diff, data)
    counts = Counter(dict(previous_counts))
    counts.update(data.counts())
    counts.subtract(removed)
    counts_out = {k: n for k, n in counts.items() if n or k in NODE_COLUMNS}
    lap("graph")
    embedded, notice = _patch_seeds(previous, gen, vectorize, crossed.gone, data, diff, people)
    lap("seeds")
    new_state = _next_state(state, order, hashes, edit, rows, crossed, people)
    warnings = tuple(w for f in new_state.files.values() for w in f.warnings)
    return DeltaResult(new_state, warnings, counts_out, embedded, notice)


@dataclass(frozen=True)
class _Read:
    """The edit as read: the files to compile again and the entity table they make."""

    work: Plan
    #: Path -> the file parsed: the changed ones, and when the table changed, then the
    #: unchanged files naming the entities that changed.
    changed: dict[str, ParsedFile]
    #: The same files in file order.
    parsed: Sequence[ParsedFile]
    #: Path -> its entity inputs, for the files in `changed`.
    inputs: dict[str, FileEntities]
    ner: dict[str, list[Mention]]
    entities: dict[str, EntityInfo]
    aliases: dict[str, str]
    table_changed: bool


def _read(
    state: IndexState,
    work: Plan,
    parsed: Sequence[ParsedFile],
    order: Sequence[str],
    extractor: Extractor,
    widen: Widen | None,
) -> _Read:
    """The entity table after the edit, and the files it makes a delta compile again."""
    changed = {pf.path: pf for pf in parsed}
    ner = extractor.ner_spans(parsed, None)
    fresh = {pf.path: file_entities(pf, ner) for pf in parsed}
    inputs = [fresh[p] if p in changed else state.files[p].entities for p in order]
    entities = entity_table(inputs)
    aliases = page_aliases(fe.page for fe in inputs if fe.page is not None)
    table_changed = entities != state.entities or aliases != state.aliases
    if table_changed:
        if widen is None:
            raise NotIncremental("the entity table changed")
        probes = name_probes(state.entities, entities, state.aliases, aliases)
        more = [pf for pf in widen(probes) if pf.path not in changed and pf.path in state.files]
        if len(changed) + len(work.removed) + len(more) > MAX_CHANGED_FILES:
            raise NotIncremental(f"{len(more)} more files name the entities that changed")
        ner.update(extractor.ner_spans(more, None))
        for pf in more:
            changed[pf.path] = pf
            fresh[pf.path] = state.files[pf.path].entities  # same bytes, same names
        parsed = [changed[p] for p in order if p in changed]
        work = Plan(tuple(p for p in order if p in changed), work.removed)
    return _Read(work, changed, parsed, fresh, ner, entities, aliases, table_changed)


def _compile(
    edit: _Read, hashes: Mapping[str, str], sizes: Mapping[str, int], extractor: Extractor
) -> dict[str, FileRows]:
    """The files to compile again, each on its own (graphmem.compile.rows.compile_file)."""
    extras = block_extras(edit.parsed, extractor, edit.entities, edit.ner, narrow=True)
    return {
        p: compile_file(pf, SourceInfo(p, hashes[p], sizes[p]), extras, edit.entities, edit.aliases)
        for p, pf in edit.changed.items()
    }


@dataclass(frozen=True)
class _Crossed:
    """The cross-file passes after the edit."""

    #: The files whose old nodes go (changed or removed), and those nodes' ids.
    gone: list[str]
    dead: set[str]
    #: Every typed bullet after the edit, in file order (empty when nothing was redone).
    facts: list[FactRef]
    cross: CrossLinks
    #: The relationships `cross` makes.
    made: set[RelKey]


def _redo_cross(
    state: IndexState, order: Sequence[str], edit: _Read, rows: Mapping[str, FileRows]
) -> _Crossed:
    """Supersession and opinion evolution again, where the edit reaches (see _cross)."""
    gone = [p for p in (*edit.work.changed, *edit.work.removed) if p in state.files]
    dead = {  # deleted with their edges (a passage may be a SUPERSEDES source)
        ref.block.id for p in gone for ref in (*state.files[p].facts, *state.files[p].texts)
    }
    edited = _changed_bullets(state, (*edit.work.changed, *edit.work.removed), rows)
    if not edited and not edit.table_changed:  # the passes read nothing that changed
        return _Crossed(gone, dead, [], state.cross, state.rels)
    facts = [ref for p in order for ref in (rows[p].facts if p in rows else state.files[p].facts)]
    cross = _cross(
        state,
        facts,
        _Texts(state, rows, order),
        edited,
        edit.entities,
        edit.aliases,
        _Edit(rows, gone, edit.table_changed),
    )
    made = _rel_set(cross_rels(cross, {ref.block.id: ref.table for ref in facts}))
    return _Crossed(gone, dead, facts, cross, made)


def _new_rows(
    state: IndexState,
    order: Sequence[str],
    rows: Mapping[str, FileRows],
    cross: CrossLinks,
    previous: Generation,
) -> GraphData:
    """The changed files' rows, finished with the cross-file results, and their evidence."""
    data = GraphData()
    for p in order:
        if p in rows:
            for table, table_rows in rows[p].nodes.items():
                data.nodes[table].extend(table_rows)
            for rel_key, rels in rows[p].rels.items():
                data.rels[rel_key].extend(rels)
            data.seed_text.update(rows[p].seed_text)
    for table in ("Fact", "Opinion"):
        for row in data.nodes[table]:
            finish_row(row, table, cross)
    _evidence(data, state, rows, order, previous)
    return data


@dataclass(frozen=True)
class _People:
    """The entity rows after the edit, against those loaded."""

    #: Slug -> row, every entity.
    rows: dict[str, dict[str, object]]
    added: list[dict[str, object]]
    forgotten: list[str]
    #: (slug, mentions, first_seen, last_seen) of the entities whose counts moved.
    recounted: list[dict[str, object]]


def _entity_changes(
    state: IndexState,
    order: Sequence[str],
    rows: Mapping[str, FileRows],
    entities: Mapping[str, EntityInfo],
) -> _People:
    """Entities: the same table (or only new names), other counts."""
    mentions = [
        (rows[p].day, rows[p].mentions)
        if p in rows
        else (state.files[p].day, state.files[p].mentions)
        for p in order
    ]
    new = {str(r["slug"]): r for r in entity_rows(entities, mentions)}
    renamed = [
        s for s, r in new.items()
        if s in state.entity_rows and _identity(state.entity_rows[s]) != _identity(r)
    ]  # fmt: skip
    if renamed:
        raise NotIncremental(f"entity {renamed[0]!r} changed its name, kind, aliases or page")
    recounted = [
        {k: r[k] for k in ("slug", *COUNT_COLUMNS)}
        for s, r in new.items()
        if s in state.entity_rows and state.entity_rows[s] != r
    ]
    return _People(
        new,
        [r for s, r in new.items() if s not in state.entity_rows],
        [s for s in state.entity_rows if s not in new],
        recounted,
    )


@dataclass(frozen=True)
class _Differences:
    """Cross-file differences among the bullets that stay."""

    #: Relationships to delete (between nodes that stay).
    unlink: list[RelKey]
    #: Rows of kept facts whose end of validity moved, of kept opinions that evolved.
    closed: list[dict[str, object]]
    evolved: list[dict[str, object]]


def _differences(
    state: IndexState, crossed: _Crossed, rows: Mapping[str, FileRows], data: GraphData
) -> _Differences:
    """What changed among the bullets that stay; the new relationships go into `data`."""
    made, dead, cross = crossed.made, crossed.dead, crossed.cross
    unlink = [r for r in state.rels - made if r[3] not in dead and r[4] not in dead]
    for rel, src, dst, a, b, props in sorted(made, key=repr):
        if (rel, src, dst, a, b, props) not in state.rels or a in dead or b in dead:
            data.rels[(rel, src, dst)].append({"from": a, "to": b, **dict(props)})
    new_ids = {ref.block.id for fr in rows.values() for ref in fr.facts}
    kept = [ref for ref in crossed.facts if ref.block.id not in new_ids]
    closed = [
        bullet_row(ref, cross) for ref in kept
        if ref.table == "Fact"
        and state.cross.closed.get(ref.block.id) != cross.closed.get(ref.block.id)
    ]  # fmt: skip
    evolved = [
        bullet_row(ref, cross) for ref in kept
        if ref.table == "Opinion"
        and state.cross.opinions.get(ref.block.id) != cross.opinions.get(ref.block.id)
    ]  # fmt: skip
    return _Differences(unlink, closed, evolved)


def _patch_graph(
    previous: Generation,
    gen: Generation,
    buffer_pool_mb: int,
    gone: Sequence[str],
    people: _People,
    diff: _Differences,
    data: GraphData,
) -> Counter[str]:
    """The graph: a copy of the published one, changed in one transaction. Returns the
    nodes and relationships removed, by table."""
    shutil.copyfile(previous.graph, gen.graph)
    removed: Counter[str] = Counter()
    with Graph(gen.graph, read_only=False, buffer_pool_mb=buffer_pool_mb) as graph:
        graph.begin()
        for p in gone:
            for table in ("Fact", "Opinion", "Passage", "Source"):
                removed += remove_nodes(graph, table, "path", p)
        for slug in people.forgotten:
            removed += remove_nodes(graph, "Entity", "slug", slug)
        for rel, src, dst, a, b, _ in diff.unlink:
            found = graph.execute(remove_rel_statement(rel, src, dst), {"a": a, "b": b}).rows
            removed[rel] += int(found[0][0])
        for row in diff.closed:
            graph.run("delta/set_fact_validity", id=row["id"], valid_to=row["valid_to"])
        for row in diff.evolved:
            graph.run(
                "delta/set_opinion_state",
                **{k: row[k] for k in ("id", "confidence", "superseded", "last_updated")},
                history=row.get("history"),
            )
        for row in people.recounted:
            graph.run("delta/set_entity_mentions", **row)
        add_rows(graph, data)
        graph.commit()
    return removed


def _patch_seeds(
    previous: Generation,
    gen: Generation,
    vectorize: Vectorizer,
    gone: Sequence[str],
    data: GraphData,
    diff: _Differences,
    people: _People,
) -> tuple[int, str | None]:
    """The seed index and its projection: a copy, patched. Returns (texts embedded now,
    degraded notice)."""
    shutil.copyfile(previous.seeds, gen.seeds)
    new_seeds, new_windows = seed_rows(data), windows_of(data)
    vectors, _, embedded, notice = vectorize(embed_texts(new_seeds, new_windows))
    row_vectors, window_vectors = split_vectors(vectors, len(new_seeds))
    try:
        removed_ids = SeedIndex.patch(gen.seeds, gone, new_seeds, row_vectors)
    except Exception as exc:  # built with other vectors (model now missing, or back)
        raise NotIncremental(f"the seed index cannot be patched: {exc}") from None
    write_windows(gen.seeds, new_windows, window_vectors, gone)
    projected = GraphData()
    projected.nodes["Fact"] = [*data.nodes["Fact"], *diff.closed]
    projected.nodes["Opinion"] = [*data.nodes["Opinion"], *diff.evolved]
    projected.nodes["Passage"] = data.nodes["Passage"]
    for rel_key, rels in data.rels.items():
        if rel_key[0] in ("MENTIONS", "NEXT", "EVIDENCE", "SUPERSEDES"):
            projected.rels[rel_key] = rels
    names = {s: str(r["name"]) for s, r in people.rows.items()}
    unlinked = [(a, b) for rel, _, _, a, b, _ in diff.unlink if rel == "SUPERSEDES"]
    patch_projection(gen.seeds, removed_ids, projected, names, unlinked)
    return embedded, notice


def _next_state(
    state: IndexState,
    order: Sequence[str],
    hashes: Mapping[str, str],
    edit: _Read,
    rows: Mapping[str, FileRows],
    crossed: _Crossed,
    people: _People,
) -> IndexState:
    """What the next delta starts from."""
    bearing = crossed.cross.bearing
    files = {
        p: FileState.of(hashes[p], rows[p], edit.inputs[p], edit.changed[p].warnings, bearing)
        if p in rows
        else state.files[p]
        for p in order
    }  # fmt: skip
    return IndexState(
        STATE_VERSION, state.key, files, edit.entities, edit.aliases, crossed.cross,
        people.rows, crossed.made, full_bytes=state.full_bytes,
    )  # fmt: skip


def name_probes(
    before: Mapping[str, EntityInfo],
    after: Mapping[str, EntityInfo],
    aliases_before: Mapping[str, str],
    aliases_after: Mapping[str, str],
) -> frozenset[str]:
    """What a file must contain to be matched differently after the entity table changed
    from `before` to `after`: the first run of letters and digits (folded) of every name,
    slug and alias of each entity that appeared, vanished or changed. A file whose
    lower-cased or folded text holds none of them cannot name those entities."""
    slugs = {s for s in before.keys() | after.keys() if before.get(s) != after.get(s)}
    moved = {a for a in aliases_before.keys() | aliases_after.keys()
             if aliases_before.get(a) != aliases_after.get(a)}  # fmt: skip
    names = set(moved)
    for table in (before, after):
        for slug in slugs:
            if (ent := table.get(slug)) is not None:
                names.update((ent.name, ent.slug, *ent.aliases))
    return frozenset(p for p in map(name_probe, names) if p)


def names_any(text: str, probes: frozenset[str]) -> bool:
    """Whether `text` may name an entity with one of `probes` (see :func:`name_probes`)."""
    low = text.lower()
    if any(p in low for p in probes):
        return True
    return not text.isascii() and any(p in fold(text) for p in probes)


def _identity(row: Mapping[str, object]) -> dict[str, object]:
    return {k: v for k, v in row.items() if k not in COUNT_COLUMNS}


class _Texts:
    """Every file's passages after the edit, unpickled only where a pass needs them: a
    one-day edit reads the changed files' and the bearing ones (FileState.bearing)."""

    def __init__(
        self, state: IndexState, rows: Mapping[str, FileRows], order: Sequence[str]
    ) -> None:
        self.state, self.rows, self.order = state, rows, order

    def of(self, path: str) -> list[FactRef]:
        """The passages of one file."""
        return self.rows[path].texts if path in self.rows else self.state.files[path].texts

    def bearing(self, path: str) -> Sequence[FactRef]:
        """The passages of one file supersession has to read: all of a changed file's."""
        return self.rows[path].texts if path in self.rows else self.state.files[path].bearing

    def dated(self, days: set[date | None]) -> list[str]:
        """The files with a passage of one of `days`, in file order."""
        return [
            p for p in self.order
            if p in self.rows or not self.state.files[p].text_days.isdisjoint(days)
        ]  # fmt: skip

    @cached_property
    def every(self) -> list[FactRef]:
        """Every passage, in file order."""
        return [t for p in self.order for t in self.of(p)]


@dataclass(frozen=True)
class _Edit:
    """What the cross-file passes need to know of the edit itself."""

    #: The files compiled again, by path.
    rows: Mapping[str, FileRows]
    #: The files whose old rows go (changed or removed).
    gone: Sequence[str]
    table_changed: bool


def _cross(
    state: IndexState,
    facts: list[FactRef],
    texts: _Texts,
    edited: list[FactRef],
    entities: Mapping[str, EntityInfo],
    aliases: Mapping[str, str],
    edit: _Edit,
) -> CrossLinks:
    """The cross-file links after the edit; `edited` are the bullets, before and after, of
    the files whose bullets changed (see :func:`_changed_bullets`).

    They depend on each bullet's text, day, stated confidence, validity and entities, in
    file order, never on its lines: when no file's bullets changed in those, nothing
    changed (the caller keeps the old links). Otherwise supersession is found again over
    every bullet, but over only those passages of free text that can take part (the
    `bearing` ones, graphmem.compile.supersede, plus the changed files'), and opinions are evolved
    again where the changed bullets, changed sentences or changed supersessions reach
    (their entities); the rest keep their links.
    """
    bearing: set[str] = set()
    if _same_claims(state, texts, entities, aliases, edit):
        supersessions = list(state.cross.supersessions)
        bearing = set(state.cross.bearing)
    else:
        # A passage outside the compiled files holds no changed name (the widened files are
        # all that do, see name_probes), so it holds the claims it held: the bearing ones
        # suffice, also when the entity table changed.
        scan = [t for p in texts.order for t in texts.bearing(p)]
        supersessions = find_fact_supersessions(facts, entities, aliases, scan, bearing=bearing)
    touched = _reached(state, facts, texts, edited, entities, edit)
    before = {(s.newer, s.older, s.day, s.cue) for s in state.cross.supersessions}
    after = {(s.newer, s.older, s.day, s.cue) for s in supersessions}
    if before != after and touched is not None:
        by_id = {ref.block.id: ref for f in state.files.values() for ref in (*f.facts, *f.texts)}
        by_id.update((ref.block.id, ref) for ref in facts)
        by_id.update((ref.block.id, ref) for ref in texts.every)  # a sentence may supersede
        for newer, older, _, _ in before ^ after:
            for fid in (newer, older):
                if fid in by_id:
                    touched |= by_id[fid].slugs
    fresh = cross_links(
        facts,
        entities,
        aliases,
        supersessions=supersessions,
        opinions_of=touched,
        texts=texts.every if touched is None or touched else [],
    )
    alive = {ref.block.id for ref in facts}
    redone = set(fresh.opinions)
    opinions = {
        oid: cols
        for oid, cols in state.cross.opinions.items()
        if oid in alive and oid not in redone
    }
    opinions.update(fresh.opinions)
    links = [lk for lk in state.cross.links if lk.opinion not in redone and lk.opinion in alive]
    links += fresh.links
    supersedes = [s for s in state.cross.opinion_supersedes if s[1] not in redone and s[1] in alive]
    supersedes += fresh.opinion_supersedes
    return CrossLinks(supersessions, fresh.closed, links, opinions, supersedes, frozenset(bearing))


def _same_claims(
    state: IndexState,
    texts: _Texts,
    entities: Mapping[str, EntityInfo],
    aliases: Mapping[str, str],
    edit: _Edit,
) -> bool:
    """Whether supersession would read the same input as before: the same entity table,
    the same bullets in every field it reads, and the same passages holding a claim or a
    value (found by reading only the changed files' passages). The other passages change
    nothing there (see graphmem.compile.supersede.find_supersessions), so the edges and
    the bearing passages stay; a one-line note in a log costs no pass over the workspace."""
    if edit.table_changed or set(edit.rows) != set(edit.gone):
        return False
    for p in edit.rows:
        old, new = state.files[p].facts, edit.rows[p].facts
        if [_read_by_supersession(r) for r in old] != [_read_by_supersession(r) for r in new]:
            return False
    mine = [t for p in edit.rows for t in texts.of(p)]
    found: set[str] = set()
    find_fact_supersessions([], entities, aliases, mine, bearing=found)
    before = [_read_by_supersession(t) for p in edit.rows for t in state.files[p].bearing]
    return before == [_read_by_supersession(t) for t in mine if t.block.id in found]


def _read_by_supersession(ref: FactRef) -> tuple[object, ...]:
    """What supersession reads of a bullet or a passage (graphmem.compile.rows.find_fact_supersessions)."""
    b = ref.block
    return (b.id, b.kind, b.text, b.mentions, ref.day, ref.role, ref.slugs, ref.valid_from)


def _reached(
    state: IndexState,
    facts: list[FactRef],
    texts: _Texts,
    edited: list[FactRef],
    entities: Mapping[str, EntityInfo],
    edit: _Edit,
) -> set[str] | None:
    """The entities whose opinions the edit's bullets and sentences may move ("" stands for
    the opinions naming no entity; see compile.cross_links), before supersession; None:
    every opinion (a changed rule naming no one, which any permission hears).

    When only free text changed (same bullets, same entity table, no file added or
    removed), that is what the changed sentences are about: an opinion reaches a sentence
    only through those (opinions.reached_through). A changed sentence no opinion can reach
    moves nothing, unless it has a twin (the same words on the same day, which evaluate
    counts once): then the twins' entities too. For anything else: every entity an edited
    item names, before or after (an item unchanged in every field the passes read, lines
    included, bears on nothing new), or a bullet twin of a changed sentence names."""
    broad = {""} | _changed_slugs(edited)
    if (
        edit.table_changed
        or any(p not in state.files for p in edit.rows)
        or any(
            p not in edit.rows
            or [_essence(r) for r in state.files[p].facts]
            != [_essence(r) for r in edit.rows[p].facts]
            for p in edit.gone
        )
    ):
        return broad
    # the entity pages' passages only (an entity's home place names it): not every file's
    pages = {e.page for e in entities.values() if e.page}
    surfaces = opinion_surfaces(
        entities, [t for p in texts.order if p in pages for t in texts.of(p)]
    )
    old = sentences_of(text_evidence(t for p in edit.gone for t in state.files[p].texts), surfaces)
    new = sentences_of(text_evidence(t for p in edit.gone for t in edit.rows[p].texts), surfaces)
    gone, came = set(old) - set(new), set(new) - set(old)
    touched: set[str] = set()
    for sentence in gone | came:
        through = reached_through(sentence)
        if "" in through:
            return None
        if sentence.item.day is None:
            return broad  # curated text
        touched |= through
    days = {s.item.day for s in gone | came}
    others = [
        t for p in texts.dated(days) if p not in edit.rows for t in texts.of(p) if t.day in days
    ]
    around = sentences_of(text_evidence(others), surfaces) if others else []
    for changed, world in ((gone, [*old, *around]), (came, [*new, *around])):
        twins = _twins(changed, world, facts)
        if twins is None:
            return broad
        if "" in twins:
            return None
        touched |= twins
    return touched


def _twins(
    changed: set[Sentence], world: Sequence[Sentence], facts: Sequence[FactRef]
) -> set[str] | None:
    """The entities through which opinions reach the twins of the changed sentences (other
    sentences of `world` with the same words on the same day): opinions.evaluate keeps only
    the first of such twins, so a change may hand the place to another. None: a bullet is
    a twin (its reach is not a sentence's; the caller falls back to the broad set)."""
    if not changed:
        return set()
    keys = {(s.item.day, normalize_text(s.item.text)) for s in changed}
    days = {day for day, _ in keys}
    if any((ref.day, normalize_text(ref.block.text)) in keys for ref in facts if ref.day in days):
        return None
    reach: set[str] = set()
    for s in world:
        if s not in changed and (s.item.day, normalize_text(s.item.text)) in keys:
            reach |= reached_through(s)
    return reach


def _changed_slugs(edited: Sequence[FactRef]) -> set[str]:
    """The entities of the items in `edited` (before and after an edit, see
    :func:`_changed_bullets`) that are not the same on both sides in every field the
    cross-file passes read."""
    seen = Counter(_essence(ref) for ref in edited)
    return {slug for ref in edited if seen[_essence(ref)] == 1 for slug in ref.slugs}


def _changed_bullets(
    state: IndexState, paths: Sequence[str], rows: Mapping[str, FileRows]
) -> list[FactRef]:
    """The bullets, before and after, of those files whose bullets changed in what the
    cross-file passes read (empty: nothing they read changed)."""
    out: list[FactRef] = []
    for p in paths:
        old = [*state.files[p].facts, *state.files[p].texts] if p in state.files else []
        new = [*rows[p].facts, *rows[p].texts] if p in rows else []
        if [_essence(r) for r in old] != [_essence(r) for r in new]:
            out += [*old, *new]
    return out


def _essence(ref: FactRef) -> tuple[object, ...]:
    """What the cross-file passes read of a bullet, lines included: an opinion's history
    cites its evidence as path#Lx-Ly."""
    b = ref.block
    return (b.id, b.kind, b.text, b.mentions, b.confidence, ref.day, ref.role, ref.slugs,
            ref.valid_from, ref.valid_to, b.line_start, b.line_end)  # fmt: skip


def _evidence(
    data: GraphData,
    state: IndexState,
    rows: Mapping[str, FileRows],
    order: Sequence[str],
    previous: Generation,
) -> None:
    """EVIDENCE of the changed files' bullets, and of bullets elsewhere citing a changed log
    (their links into it went with its old passages)."""
    passages = {p: fr.passages for p, fr in rows.items()}
    cited = {c for fr in rows.values() for ref in fr.facts for c in cited_files(ref)}
    present = set(order)
    unchanged = {c for c in cited if c not in rows and c in state.files and c in present}
    passages.update(_passages_of(previous.seeds, sorted(unchanged)))
    day_words = DayWords(passages, data.seed_text)
    for fr in rows.values():
        for ref in fr.facts:
            for passage, how in fact_evidence(ref, passages, day_words):
                data.add_rel("EVIDENCE", (ref.table, ref.block.id), ("Passage", passage), how=how)
    edited = {p: fr.passages for p, fr in rows.items()}
    for p in order:
        if p in rows or not state.files[p].cites.intersection(edited):
            continue
        for ref in state.files[p].facts:
            if any(c in edited for c in cited_files(ref)):
                for passage, how in fact_evidence(ref, edited):
                    data.add_rel(
                        "EVIDENCE", (ref.table, ref.block.id), ("Passage", passage), how=how
                    )


def _passages_of(seeds: Path, paths: Sequence[str]) -> dict[str, list[tuple[str, frozenset[str]]]]:
    """The passages (id, entity slugs) of unchanged files, in reading order, from the
    published projection."""
    out: dict[str, list[tuple[str, frozenset[str]]]] = {}
    if not paths:
        return out
    conn = connect(seeds, readonly=True)
    try:
        for path in paths:
            ids = [
                row[0]
                for row in conn.execute(
                    "SELECT id FROM seeds WHERE path = ? AND kind = 'log' ORDER BY rid", (path,)
                )
            ]
            slugs: dict[str, set[str]] = {i: set() for i in ids}
            for pid, slug, _, _ in Projection(conn).mentions(ids):
                slugs[pid].add(slug)
            out[path] = [(i, frozenset(slugs[i])) for i in ids]
    finally:
        conn.close()
    return out


def _rel_set(rels: Mapping[tuple[str, str, str], list[dict[str, object]]]) -> set[RelKey]:
    return {
        (rel, src, dst, str(r["from"]), str(r["to"]),
         tuple(sorted((k, v) for k, v in r.items() if k not in ("from", "to"))))
        for (rel, src, dst), rows in rels.items()
        for r in rows
    }  # fmt: skip
