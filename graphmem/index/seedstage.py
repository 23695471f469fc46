"""Build a generation's seed index: FTS5 over every fact, opinion and passage, their
embeddings and those of their windows (from the per-text cache, so unchanged text is never
embedded twice)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from graphmem.compile.rows import GraphData
from graphmem.config import Settings
from graphmem.search.projection import write_projection
from graphmem.search.seeds import SeedIndex, SeedRow
from graphmem.search.windows import Window, windows_of, write_windows

Progress = Callable[[str, int, int], None]
EMBED_CACHE = "embeddings.sqlite"


def seed_rows(data: GraphData) -> list[SeedRow]:
    """One row per searchable node, in a stable order."""
    rows: list[SeedRow] = []
    for table in ("Fact", "Opinion", "Passage"):
        for node in data.nodes[table]:
            kind = {"Opinion": "opinion", "Passage": "log"}.get(table) or str(node["kind"])
            day = node.get("day")
            rows.append(
                SeedRow(
                    id=str(node["id"]),
                    kind=kind,
                    text=data.seed_text.get(str(node["id"]), ""),
                    day=day.isoformat() if day else None,  # type: ignore[attr-defined]
                    path=str(node["path"]),
                )
            )
    return rows


def build_seeds(
    settings: Settings, data: GraphData, target: Path, progress: Progress | None = None
) -> tuple[int, str | None]:
    """Write the seed index to `target`; returns (texts embedded now, degraded notice).

    With embeddings on, nothing is embedded here: every text the embedding cache knows gets
    its vector, the others are left pending for graphmem.index.vectorfill (a progressive build).
    """
    rows, windows = seed_rows(data), windows_of(data)
    embedder, notice = _model_of(settings)
    if embedder is not None:  # on, perhaps with a notice (say, the model kept elsewhere)
        notice = getattr(embedder, "notice", None) or notice
    else:
        SeedIndex.build(target, rows).close()
        write_projection(target, data)
        write_windows(target, windows, None)
        return 0, notice
    from graphmem.index.vectorfill import fill_from_cache
    from graphmem.search.embed import EmbeddingCache

    SeedIndex.build(target, rows, model_id=embedder.model_id, dim=embedder.dim).close()
    write_projection(target, data)
    write_windows(target, windows, None, pending=True)
    with EmbeddingCache.open(settings.memory_dir / EMBED_CACHE) as cache:
        cache.prune(embedder.model_id, embed_texts(rows, windows))  # a full build sees all
        fill_from_cache(target, embedder, cache)
    if progress:
        progress("seeds", 1, 1)
    return 0, notice


def _model_of(settings: Settings) -> tuple[Any, str | None]:
    """What the seed index is built for: the bundled model's identity when its files check
    out (no session: nothing is embedded here), else the loaded embedder or why not."""
    if settings.embed_model is not None:
        from graphmem.search.embed import model_identity, model_places

        identity = model_identity(settings.embed_model, *model_places(settings))
        if identity is not None:
            return identity, None
    return query_embedder(settings)


def query_embedder(settings: Settings) -> tuple[Any, str | None]:
    """The workspace's embedder (loaded once per process), or (None, why not)."""
    if settings.embed_model is None:
        return None, "embeddings off (embed_model is none); recall is lexical + graph only"
    from graphmem.search.embed import load_embedder, model_places

    return load_embedder(settings.embed_model, *model_places(settings))


def embed_texts(rows: Sequence[SeedRow], windows: Sequence[Window]) -> list[str]:
    """What to embed, in one call through the cache: the rows' texts, then the windows'."""
    return [r.text for r in rows] + [w.text for w in windows]


def split_vectors(
    vectors: npt.NDArray[np.float32] | None, rows: int
) -> tuple[npt.NDArray[np.float32] | None, npt.NDArray[np.float32] | None]:
    """The vectors of :func:`embed_texts` as (the rows', the windows')."""
    if vectors is None:
        return None, None
    return vectors[:rows], vectors[rows:]


def seed_vectors(
    settings: Settings,
    texts: Sequence[str],
    progress: Progress | None = None,
    *,
    prune: bool = False,
) -> tuple[npt.NDArray[np.float32] | None, str | None, int, str | None]:
    """Embeddings of `texts` through the per-text cache: (vectors or None when embeddings
    are off, model id, texts embedded now, degraded notice). `prune` drops cached texts
    that are not among `texts` (a full build sees every text)."""
    if settings.embed_model is None:
        return None, None, 0, "embeddings off (embed_model is none); recall is lexical + graph only"
    from graphmem.search.embed import EmbeddingCache, embed_cached

    embedder, notice = query_embedder(settings)
    if embedder is None:
        return None, None, 0, notice
    with EmbeddingCache.open(settings.memory_dir / EMBED_CACHE) as cache:
        before = len(cache)
        if progress:
            progress("embed", 0, 1)
        vectors = embed_cached(embedder, texts, cache)
        embedded = len(cache) - before
        if prune:
            cache.prune(embedder.model_id, texts)
        if progress:
            progress("embed", 1, 1)
    return vectors, embedder.model_id, embedded, notice
