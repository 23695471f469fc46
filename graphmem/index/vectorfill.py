"""Progressive embeddings: publish lexical + graph first, then fill in the vectors.

Embedding is most of a first index with embeddings on (100k items: ~15 minutes against
~16 s for everything else). So a full build publishes its generation as soon as the graph,
FTS5 and projection are written, with every text the embedding cache already knows given
its vector and the rest *pending* (the seed index's ``pending`` table, the windows'
``windows_pending``). :func:`fill` then embeds the pending texts, newest day first, then
the windows, and publishes a copy of the generation with the new vectors every so often
(after :data:`FIRST_PUBLISH_S`, then at doubling intervals, and at the end). Recall works
on every one of those generations: vector search covers the rows that have a vector.

Nothing is lost when the run is killed: every batch of vectors is committed to the
embedding cache as it is made, so the next ``index`` (which resumes any generation with
pending rows) puts them in at once and embeds only the rest. When the fill is complete the
generation equals one built with all vectors at once (tests/index/test_vectorfill.py).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from graphmem.search.coverage import count_rows, coverage
from graphmem.search.seeds import SeedIndex, connect
from graphmem.search.windows import fill_windows, pending_windows
from graphmem.store.layout import META, Generation, Store

if TYPE_CHECKING:
    from graphmem.search.embed import Embedder, EmbeddingCache, ModelIdentity

Progress = Callable[[str, int, int], None]

#: Seconds of embedding before the first generation with new vectors is published; each
#: later one waits twice as long as the one before, up to :data:`MAX_PUBLISH_S`. A publish
#: copies the generation (at 100k items ~50 MB of graph, up to ~400 MB of seeds).
FIRST_PUBLISH_S = 20.0
MAX_PUBLISH_S = 160.0
#: Texts per embedding call (each call commits its vectors to the cache); the embedder
#: sorts each call's texts by length, so a larger call pads less.
CHUNK = 512


@dataclass
class _Todo:
    """What is still to embed: rows (rid) and windows (key), each with its text."""

    rows: list[tuple[int, str]]
    windows: list[tuple[int, str]]

    @classmethod
    def of(cls, seeds: Any) -> _Todo:
        rows = SeedIndex.pending_rows(seeds)
        rows.sort(key=lambda r: (r[2] or "", r[0]), reverse=True)  # newest day first
        return cls([(rid, text) for rid, text, _ in rows], pending_windows(seeds))

    def texts(self) -> list[str]:
        return [t for _, t in self.rows] + [t for _, t in self.windows]


def fill_from_cache(seeds: Any, embedder: Embedder | ModelIdentity, cache: EmbeddingCache) -> int:
    """Give every pending row and window of the unpublished seed index `seeds` the vector
    the cache already holds for its text; returns how many got one. Only the model's id and
    dimension are read: `embedder` may be a :class:`graphmem.search.embed.ModelIdentity`."""
    todo = _Todo.of(seeds)
    found = cache.get(embedder.model_id, todo.texts(), embedder.dim)
    return _apply(seeds, todo, found, embedder.dim)


def _apply(seeds: Any, todo: _Todo, found: dict[str, Any], dim: int) -> int:
    rows = [(rid, found[t]) for rid, t in todo.rows if t in found]
    windows = [(key, found[t]) for key, t in todo.windows if t in found]
    if rows:
        SeedIndex.add_vectors(seeds, [r for r, _ in rows], _stack([v for _, v in rows], dim))
    if windows:
        fill_windows(seeds, [k for k, _ in windows], _stack([v for _, v in windows], dim))
    return len(rows) + len(windows)


def _stack(vectors: Sequence[Any], dim: int) -> Any:
    return np.vstack(vectors).astype(np.float32) if vectors else np.zeros((0, dim), np.float32)


def fill(
    store: Store,
    embedder: Embedder,
    cache: EmbeddingCache,
    progress: Progress | None = None,
    extra_meta: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> int:
    """Embed what the current generation still lacks, publishing copies of it as vectors
    arrive (see the module docstring); returns how many texts were embedded. The caller
    holds the writer lock."""
    from graphmem.search.embed import embed_cached

    gen = store.current()
    if gen is None:
        return 0
    todo = _Todo.of(gen.seeds)
    texts = list(dict.fromkeys(todo.texts()))  # each distinct text once
    if not texts:
        return 0
    found = cache.get(embedder.model_id, texts, embedder.dim)
    missing = [t for t in texts if t not in found]
    embedded = 0
    interval, last = FIRST_PUBLISH_S, time.perf_counter()
    if found:  # vectors a killed run already paid for: in at once
        gen = _publish_copy(store, gen, todo, found, embedder.dim, extra_meta)
        todo = _Todo.of(gen.seeds)
        found = {}
    # the progress line says which: items first, then windows
    windows = {t for _, t in todo.windows}
    for start in range(0, len(missing), CHUNK):
        if progress:
            stage = "windows" if missing[start] in windows else "embed"
            progress(stage, start, len(missing))
        batch = missing[start : start + CHUNK]
        vectors = embed_cached(embedder, batch, cache)
        found.update(zip(batch, vectors, strict=True))
        embedded += len(batch)
        now = time.perf_counter()
        if now - last >= interval or start + CHUNK >= len(missing):
            gen = _publish_copy(store, gen, todo, found, embedder.dim, extra_meta)
            todo, found = _Todo.of(gen.seeds), {}
            interval, last = min(2 * interval, MAX_PUBLISH_S), time.perf_counter()
    if progress:
        progress("embed", len(missing), len(missing))
    return embedded


def _publish_copy(
    store: Store,
    gen: Generation,
    todo: _Todo,
    found: dict[str, Any],
    dim: int,
    extra_meta: Callable[[dict[str, Any]], dict[str, Any]] | None,
) -> Generation:
    """A copy of `gen` with the vectors in `found` added, published; returns it."""
    new = store.new_generation()
    try:
        for item in sorted(gen.path.iterdir()):
            if item.name == META or not item.is_file():
                continue
            # copy2 keeps the graph's mtime: the kept delta state names it by (size, mtime)
            shutil.copy2(item, new.path / item.name)
        _apply(new.seeds, todo, found, dim)
        meta = gen.meta()
        cov = coverage(new.seeds)
        meta["vectors"] = cov.to_meta() if cov else None
        if extra_meta is not None:
            meta = extra_meta(meta)
    except BaseException:
        shutil.rmtree(new.path, ignore_errors=True)
        raise
    store.publish(new, meta)
    return new


def pending_count(seeds: Any) -> int:
    """Rows plus windows of the seed index file `seeds` still waiting for a vector."""
    conn = connect(seeds, readonly=True)
    try:
        return count_rows(conn, "pending") + count_rows(conn, "windows_pending")
    finally:
        conn.close()
