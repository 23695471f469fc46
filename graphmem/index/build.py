"""Index a workspace: discover, parse (only what changed), compile, build a generation, swap.

Reading, parsing, extraction and embedding are cached per file content hash. With
embeddings on, the first generation is published before its texts are embedded (lexical +
graph, plus the vectors the cache already holds); graphmem.index.vectorfill then fills in the
rest, publishing as it goes, and any later index resumes a fill a killed run left. When a few
files changed, the published generation is copied and patched (graphmem.index.delta: a "delta",
equal to a clean rebuild; a new name re-reads the few files that name it); otherwise, or
when a known entity's names change, the graph is compiled from every file's cached result
and bulk-loaded into a new generation (a "full" build). Either way the new generation is
published atomically. Indexing twice changes nothing: the second run sees identical hashes
and returns without building.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any

from graphmem import __version__
from graphmem.compile.rows import GraphData, SourceInfo, clear_caches, compile_workspace
from graphmem.config import Settings
from graphmem.errors import WorkspaceError
from graphmem.extract.stage import Extractor, extract
from graphmem.index.delta import (
    IndexState,
    NotIncremental,
    Plan,
    apply_delta,
    load_state,
    names_any,
    plan,
    save_state,
    state_of,
)
from graphmem.index.load import load_graph
from graphmem.index.seedstage import build_seeds, seed_vectors
from graphmem.index.timing import Laps
from graphmem.parse.blocks import Notice, ParsedFile
from graphmem.parse.parser import parse
from graphmem.parse.workspace import SourceFile, discover, read_text
from graphmem.search.seeds import SeedIndex
from graphmem.store.cache import FileCache, code_version
from graphmem.store.db import Graph
from graphmem.store.layout import CACHE, WRITER_WAIT_S, Generation, Store
from graphmem.store.ontology import schema_hash

PIPELINE_VERSION = code_version(
    "parse/blocks",
    "parse/parser",
    "parse/workspace",
    "parse/names",
    "text/fold",
    "parse/sentences",
    "parse/textio",
)
#: The code that turns parsed files into a generation: a change rebuilds it (from the caches).
COMPILE_VERSION = code_version(
    "compile/rows",
    "compile/supersede",
    "compile/opinions",
    "compile/counts",
    "compile/places",
    "extract/stage",
    "extract/declared",
    "extract/exonyms",
    "extract/timex",
    "extract/timewords",
    "extract/mood",
    "extract/dating",
    "extract/attributive",
    "extract/timex_fallback",
    "extract/slots",
    "compile/stance",
    "compile/verdicts",
    "extract/crosslingual",
    "models/crosslingual.tsv",
    "text/stopwords",
    "text/stem",
    "extract/entities",
    "index/load",
    "index/seedstage",
    "search/seeds",
    "search/projection",
    "search/windows",
)

Progress = Callable[[str, int, int], None]
#: A full build with at least this many texts for NER to run publishes first without them.
NER_DEFER_MIN = 64


@dataclass(frozen=True)
class IndexReport:
    """What an index run did."""

    generation: str | None
    changed: bool
    files: int
    parsed: int
    removed: int
    counts: dict[str, int] = field(default_factory=dict)
    warnings: tuple[Notice, ...] = ()
    degraded: tuple[str, ...] = ()
    seconds: float = 0.0
    #: Seconds per stage: discover, parse, ner, extract (the rest of extraction), compile,
    #: graph (bulk load), seeds (FTS + embeddings); for a delta: discover, parse, delta.
    timings: dict[str, float] = field(default_factory=dict)
    #: "unchanged" (nothing to do), "delta" (the published generation copied and patched;
    #: see graphmem.index.delta) or "full" (compiled and loaded from every file's cached result).
    mode: str = "full"
    #: How much of the published generation has vectors (graphmem.search.coverage.Coverage as
    #: meta.json keeps it); None without embeddings.
    vectors: dict[str, int] | None = None
    #: NER's state ("done", "pending": the generation is published and NER still runs, "off")
    #: and how many blocks took their spans from the file cache, the text cache, a model run.
    ner: dict[str, Any] = field(default_factory=dict)


def fingerprint_of(files: list[SourceFile], settings: Settings) -> dict[str, object]:
    from graphmem.search.embed import model_fingerprint

    return {
        "schema": schema_hash(),
        "pipeline": PIPELINE_VERSION,
        "compile": COMPILE_VERSION,
        "ner_model": settings.ner_model,
        "embed_model": settings.embed_model,
        # which model that name is now: a new package version or onnx coming or going
        # changes the vectors, so the index is rebuilt and every text embedded again
        "embedder": model_fingerprint(settings.embed_model),
        "files": {f.path: f.content_hash for f in files},
    }


def index_workspace(
    settings: Settings,
    *,
    force: bool = False,
    progress: Progress | None = None,
    wait: float = WRITER_WAIT_S,
    on_wait: Callable[[str], None] | None = None,
) -> IndexReport:
    """Bring ``.memory/`` up to date with the workspace's Markdown.

    `force` re-reads every file and rebuilds from Markdown alone (the embedding cache, a pure
    function of text, is still used). While another process writes the index this one
    waits for it up to `wait` seconds (telling `on_wait` once), then raises
    :class:`~graphmem.errors.IndexLockedError`.
    """
    started = time.perf_counter()
    root = settings.workspace
    if not root.is_dir():
        raise WorkspaceError(
            f"workspace {root} does not exist; pass --workspace DIR or set GRAPHMEM_WORKSPACE"
        )
    store = Store(settings.memory_dir)
    with store.writer_lock(wait, on_wait):
        said = _retire_workspace_model(settings)
        built_with = _model_if_changed(store.current(), settings)
        report = _index(settings, store, force, progress, started)
        now = _vectors_model(store.current()) if built_with and report.changed else None
        if built_with and now and now != built_with:
            said.append(
                f"embedding model changed ({built_with} -> {now}): the index was rebuilt and "
                "every text embedded again with the new model"
            )
    if not said:
        return report
    # Said once, to this run: not kept in meta.json as the generation's degraded features.
    return replace(report, degraded=(*report.degraded, *said))


def _retire_workspace_model(settings: Settings) -> list[str]:
    """Remove the model copy an older graphmem kept in ``.memory/models`` once the per-user
    cache holds the model (graphmem.search.embed.retire_workspace_copy)."""
    from graphmem.search.embed import model_places, retire_workspace_copy

    cache, workspace = model_places(settings)
    if workspace is None or not workspace.is_dir():
        return []
    notice = retire_workspace_copy(cache, workspace)
    return [notice] if notice else []


def _model_if_changed(gen: Generation | None, settings: Settings) -> str | None:
    """The id of the model that made `gen`'s vectors when the model the settings name may
    differ from it (what `gen` recorded is not what is installed now), else None: the seed
    index is read only then."""
    from graphmem.search.embed import model_fingerprint

    if gen is None:
        return None
    recorded = (gen.meta().get("fingerprint") or {}).get("embedder", "")
    if recorded == model_fingerprint(settings.embed_model):
        return None
    return _vectors_model(gen)


def _vectors_model(gen: Generation | None) -> str | None:
    """The id of the model that made `gen`'s vectors (its seed index records it)."""
    if gen is None:
        return None
    try:
        with SeedIndex.open(gen.seeds) as seeds:
            return seeds.model_id if seeds.backend != "none" else None
    except Exception:  # unreadable or from another version: a full build follows anyway
        return None


def _index(
    settings: Settings,
    store: Store,
    force: bool,
    progress: Progress | None,
    started: float,
) -> IndexReport:
    """index_workspace's work, under the writer lock."""
    root = settings.workspace
    lap = Laps()
    timings = lap.timings
    files, notices = discover(root, settings.extra_paths)
    lap("discover")
    fingerprint = fingerprint_of(files, settings)
    current = store.current()
    if current is not None and not force:
        meta = current.meta()
        if meta.get("fingerprint") == fingerprint:
            store.collect_garbage()  # a build killed since the last publish left debris
            unchanged = IndexReport(
                generation=current.name,
                changed=False,
                files=len(files),
                parsed=0,
                removed=0,
                counts=meta.get("counts", {}),
                warnings=tuple(Notice(**w) for w in meta.get("warnings", [])),
                degraded=tuple(meta.get("degraded", [])),
                seconds=time.perf_counter() - started,
                mode="unchanged",
                vectors=meta.get("vectors"),
            )
            return _finish_vectors(settings, store, unchanged, progress, started)
    hashes = {f.path: f.content_hash for f in files}
    key = {k: v for k, v in fingerprint.items() if k != "files"}
    fallback: tuple[str, ...] = ()
    if current is not None and not force:
        state = load_state(current, key)
        work = plan(state, hashes) if state is not None else None
        if state is not None and work is not None:
            try:
                report = _delta(settings, store, current, state, work, files, notices,
                                fingerprint, progress, timings, started)  # fmt: skip
            except NotIncremental:
                report = None
            except Exception as exc:  # a bug must not cost the user their index
                report = None
                fallback = (f"incremental index failed ({exc}); rebuilt in full",)
            if report is not None:
                return _finish_vectors(settings, store, report, progress, started)
            for stage in [k for k in timings if k != "discover"]:
                del timings[stage]  # the full build's stages, not the failed delta's
            lap.restart()
    report = _full(settings, store, files, notices, fingerprint, fallback, force, progress,
                   started, lap, defer_ner=True)  # fmt: skip
    if report.ner.get("state") == "pending":
        # Recall answers from the generation just published; NER's names come in the next.
        lap = Laps({"discover": timings["discover"], "first_publish": round(report.seconds, 4)})
        first = report
        report = _full(settings, store, files, notices, fingerprint, fallback, False, progress,
                       started, lap, defer_ner=False)  # fmt: skip
        report = replace(report, parsed=first.parsed, removed=first.removed)
    return _finish_vectors(settings, store, report, progress, started)


def _full(
    settings: Settings,
    store: Store,
    files: list[SourceFile],
    notices: list[Notice],
    fingerprint: dict[str, object],
    fallback: tuple[str, ...],
    force: bool,
    progress: Progress | None,
    started: float,
    lap: Laps,
    *,
    defer_ner: bool,
) -> IndexReport:
    """A full build, published. With `defer_ner`, when NER has at least `NER_DEFER_MIN`
    texts to run, the generation is built without them and published marked pending (its
    fingerprint too, so a run killed before NER finished rebuilds); the caller then builds
    again, NER running."""
    timings = lap.timings
    hashes = {f.path: f.content_hash for f in files}
    key = {k: v for k, v in fingerprint.items() if k != "files"}
    cache = FileCache(settings.memory_dir / CACHE)
    try:
        parsed, reparsed, warnings = _parse_all(files, cache, settings, force, progress)
        removed = cache.retain_only(f.path for f in files)
        lap("parse")
        extractor = Extractor(cache, hashes, settings.ner_model, force=force, fork=settings.fork)
        if defer_ner:
            extractor.defer_ner = NER_DEFER_MIN
        extraction = extract(parsed, extractor, progress)
        cache.commit()
        # Dating's warnings (a spent dateparser budget) join each file's parse warnings:
        # the delta state keeps them for files a later delta does not re-read.
        parsed = extractor.with_warnings(parsed)
        warnings = [w for pf in parsed for w in pf.warnings]
    finally:
        cache.close()
    lap("extract")
    timings["ner"] = round(extraction.ner_seconds, 4)
    ner_state = _ner_meta(settings, extraction.ner_counts)
    timings["extract"] = round(timings["extract"] - extraction.ner_seconds, 4)
    sources = {f.path: SourceInfo(f.path, f.content_hash, f.size) for f in files}
    if progress:
        progress("compile", 0, 1)
    data, per_file, cross = compile_workspace(
        parsed, sources, extraction.extras, extraction.entities, fork=settings.fork
    )
    if ner_state["state"] == "pending":
        key = {**key, "ner_model": f"{settings.ner_model} (pending)"}
    state = state_of(
        key, per_file, parsed, hashes, extraction.inputs, extraction.entities, cross,
        data.nodes["Entity"],
    )  # fmt: skip
    degraded = extraction.notices
    # What compiled the rows is not needed to load them: the parsed blocks, their
    # extraction and the per-file rows (hundreds of MB at 100k items) are freed before
    # Kùzu's load and the seed index come on top.
    del parsed, per_file, extraction, extractor
    clear_caches()
    lap("compile")
    gen = store.new_generation()
    if progress:
        progress("graph", 0, 1)
    with Graph.create(gen.graph, build_pool_mb(settings, data)) as graph:
        refused = load_graph(graph, data, gen.path / "load")
    (gen.path / "load").rmdir()
    if progress:
        progress("graph", 1, 1)
    lap("graph")
    embedded, embed_notice = build_seeds(settings, data, gen.seeds, progress)
    save_state(gen, state, full=True)
    lap("seeds")
    report = IndexReport(
        generation=gen.name,
        changed=True,
        files=len(files),
        parsed=reparsed,
        removed=removed,
        counts=data.counts(),
        warnings=tuple(notices) + tuple(warnings) + tuple(refused),
        degraded=degraded + ((embed_notice,) if embed_notice else ()) + fallback,
        seconds=time.perf_counter() - started,
        timings=timings,
        ner=ner_state,
    )
    if ner_state["state"] == "pending":
        # a run killed before NER finished must not find this generation up to date
        fingerprint = {**fingerprint, "ner_model": f"{settings.ner_model} (pending)"}
    return _publish(store, gen, report, fingerprint, embedded)


def _finish_vectors(
    settings: Settings,
    store: Store,
    report: IndexReport,
    progress: Progress | None,
    started: float,
) -> IndexReport:
    """Embed what the published generation still lacks (graphmem.index.vectorfill), publishing
    as vectors arrive; `report` updated to the last generation published."""
    from graphmem.index.vectorfill import fill, pending_count

    gen = store.current()
    if gen is None or not pending_count(gen.seeds):
        return report
    from graphmem.index.seedstage import EMBED_CACHE, query_embedder
    from graphmem.search.embed import EmbeddingCache

    if progress:  # a first load on this machine quantizes the model: seconds, not silent
        progress("model", 0, 1)
    embedder, notice = query_embedder(settings)
    if progress:
        progress("model", 1, 1)
    if embedder is None:  # the model went missing since the build: recall says how much is in
        return replace(report, degraded=(*report.degraded, *((notice,) if notice else ())))
    fill_started = time.perf_counter()
    timings = dict(report.timings)

    def stamp(meta: dict[str, Any]) -> dict[str, Any]:
        timings["vectors"] = round(time.perf_counter() - fill_started, 4)
        meta["timings"] = timings
        meta["seconds"] = round(time.perf_counter() - started, 3)
        return meta

    with EmbeddingCache.open(settings.memory_dir / EMBED_CACHE) as cache:
        embedded = fill(store, embedder, cache, progress, stamp)
    final = store.current()
    meta = final.meta() if final is not None else {}
    return replace(
        report,
        generation=final.name if final is not None else report.generation,
        changed=report.changed or embedded > 0,
        seconds=time.perf_counter() - started,
        timings=timings,
        vectors=meta.get("vectors"),
    )


def _ner_meta(settings: Settings, counts: dict[str, int]) -> dict[str, Any]:
    """What meta.json says of NER: its state and where the blocks' spans came from."""
    state = "pending" if counts.get("pending") else "done" if settings.ner_model else "off"
    return {"state": state, **counts}


def describe_ner(ner: dict[str, Any]) -> str:
    """``status``'s line: NER's state and where the blocks' spans came from."""
    state = str(ner.get("state", "done"))
    if state == "off":
        return "off"
    parts = [
        f"{ner[key]:,} {what}"
        for key, what in (
            ("pending", "texts pending"),
            ("run", "texts run"),
            ("text_cached", "blocks from the text cache"),
            ("file_cached", "from the file cache"),
            ("skipped", "skipped (no name to find)"),
        )
        if ner.get(key)
    ]
    line = "pending: the index answers, NER's names arrive next" if state == "pending" else state
    return line + (f" ({', '.join(parts)})" if parts else "")


def _publish(
    store: Store,
    gen: Generation,
    report: IndexReport,
    fingerprint: dict[str, object],
    embedded: int,
) -> IndexReport:
    """Write `gen`'s meta.json from `report`, make it CURRENT; returns `report`."""
    from graphmem.search.coverage import coverage
    from graphmem.search.embed import CACHE_NOTICE

    cov = coverage(gen.seeds)
    vectors = cov.to_meta() if cov is not None else None
    # Where the model was found is this run's news, not the generation's (it is said again
    # whenever the model loads from elsewhere): a later run with a writable cache must not
    # repeat it.
    degraded = [d for d in report.degraded if not d.startswith(CACHE_NOTICE)]
    store.publish(
        gen,
        {
            "fingerprint": fingerprint,
            "version": __version__,
            "built_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "counts": report.counts,
            "warnings": [w.__dict__ for w in report.warnings],
            "degraded": degraded,
            "seconds": round(report.seconds, 3),
            "reparsed": report.parsed,
            "embedded": embedded,
            "timings": report.timings,
            "mode": report.mode,
            "vectors": vectors,
            "ner": report.ner,
        },
    )
    return replace(report, vectors=vectors)


def _delta(
    settings: Settings,
    store: Store,
    current: Generation,
    state: IndexState,
    work: Plan,
    files: list[SourceFile],
    notices: list[Notice],
    fingerprint: dict[str, object],
    progress: Progress | None,
    timings: dict[str, float],
    started: float,
) -> IndexReport:
    """The incremental index (graphmem.index.delta): raises NotIncremental when it cannot apply."""
    lap = Laps(timings)
    hashes = {f.path: f.content_hash for f in files}
    todo = [f for f in files if f.path in set(work.changed)]
    cache = FileCache(settings.memory_dir / CACHE)
    gen: Generation | None = None
    try:
        parsed, reparsed, _ = _parse_all(todo, cache, settings, False, progress)
        lap("parse")
        gen = store.new_generation()
        extractor = Extractor(cache, hashes, settings.ner_model, fork=settings.fork)
        parsed = extractor.with_warnings(parsed)  # apply_delta keeps each file's warnings
        lap("extract")

        def vectorize(texts: Sequence[str]) -> tuple[Any, str | None, int, str | None]:
            if not texts:
                return None, None, 0, None
            return seed_vectors(settings, texts)

        def widen(probes: frozenset[str]) -> list[ParsedFile]:
            more = files_naming(files, probes, set(work.changed), settings.large_file_bytes)
            return extractor.with_warnings(_parse_all(more, cache, settings, False, None)[0])

        result = apply_delta(
            state=state,
            work=work,
            parsed=parsed,
            hashes=hashes,
            sizes={f.path: f.size for f in files},
            extractor=extractor,
            previous=current,
            gen=gen,
            vectorize=vectorize,
            buffer_pool_mb=settings.buffer_pool_mb,
            previous_counts=current.meta().get("counts", {}),
            laps=lap,
            widen=widen,
        )
        removed = cache.retain_only(f.path for f in files)
        cache.commit()
        save_state(gen, result.state, full=False)
        clear_caches()  # the cross-file passes' memo caches (see graphmem.compile.rows)
        lap("state")
    except BaseException:
        if gen is not None:
            shutil.rmtree(gen.path, ignore_errors=True)
        raise
    finally:
        cache.close()
    kept = [d for d in current.meta().get("degraded", []) if not d.startswith("incremental")]
    notices_now = [*extractor.notices, *([result.notice] if result.notice else [])]
    report = IndexReport(
        generation=gen.name,
        changed=True,
        files=len(files),
        parsed=reparsed,
        removed=removed,
        counts=result.counts,
        warnings=tuple(notices) + result.warnings,
        degraded=tuple(dict.fromkeys((*kept, *notices_now))),
        seconds=time.perf_counter() - started,
        timings=timings,
        mode="delta",
        ner=_ner_meta(settings, extractor.ner_counts),
    )
    return _publish(store, gen, report, fingerprint, result.embedded)


def files_naming(
    files: Sequence[SourceFile], probes: frozenset[str], skip: set[str], large_file_bytes: int
) -> list[SourceFile]:
    """The files (other than `skip`) whose text holds one of `probes`
    (graphmem.index.delta.name_probes): those a change of the entity table may re-match."""
    out = []
    for source in files:
        if source.path in skip:
            continue
        text, _ = read_text(source, large_file_bytes)
        if text is not None and names_any(text, probes):
            out.append(source)
    return out


def build_pool_mb(settings: Settings, data: GraphData) -> int:
    """The buffer pool for building a generation: the configured one, or more when the
    text is large. Kùzu's bulk load of a table needs several times its text in the pool
    (a 50 MB log failed at 64 and 128 MiB and loaded at 256); readers keep the configured
    size."""
    text = sum(
        len(str(row.get("text") or row.get("statement") or ""))
        for rows in data.nodes.values()
        for row in rows
    )
    return max(settings.buffer_pool_mb, 64 + 6 * text // (1024 * 1024))


def _parse_all(
    files: list[SourceFile],
    cache: FileCache,
    settings: Settings,
    force: bool,
    progress: Progress | None,
) -> tuple[list[ParsedFile], int, list[Notice]]:
    parsed: list[ParsedFile] = []
    warnings: list[Notice] = []
    reparsed = 0
    for i, source in enumerate(files):
        if progress:
            progress("parse", i, len(files))
        cached = (
            None
            if force
            else cache.get(source.path, "parse", source.content_hash, PIPELINE_VERSION)
        )
        if cached is not None:
            pf = ParsedFile.from_json(cached)
        else:
            text, read_notices = read_text(source, settings.large_file_bytes)
            if text is None:
                pf = ParsedFile(
                    path=source.path, role="note", day=None, warnings=tuple(read_notices)
                )
            else:
                pf = parse(source.path, text)
                pf = ParsedFile(
                    path=pf.path,
                    role=pf.role,
                    day=pf.day,
                    blocks=pf.blocks,
                    entity=pf.entity,
                    warnings=tuple(read_notices) + pf.warnings,
                )
            cache.put(source.path, "parse", source.content_hash, PIPELINE_VERSION, pf.to_json())
            reparsed += 1
        parsed.append(pf)
        warnings.extend(pf.warnings)
    if progress:
        progress("parse", len(files), len(files))
    return parsed, reparsed, warnings
