"""Build a generation's seed index: FTS5 over every fact, opinion and passage, plus their
embeddings (from the per-text cache, so unchanged text is never embedded twice)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from graphmem.compile import GraphData
from graphmem.config import Settings
from graphmem.projection import write_projection
from graphmem.seeds import SeedIndex, SeedRow

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
    """Write the seed index to `target`; returns (texts embedded now, degraded notice)."""
    rows = seed_rows(data)
    vectors = None
    model_id = None
    embedded = 0
    notice: str | None = None
    if settings.embed_model is None:
        notice = "embeddings off (embed_model is none); recall is lexical + graph only"
    else:
        from graphmem.embed import EmbeddingCache, embed_cached, load_embedder

        embedder, notice = load_embedder(settings.embed_model, settings.memory_dir / "models")
        if embedder is not None:
            with EmbeddingCache.open(settings.memory_dir / EMBED_CACHE) as cache:
                texts = [r.text for r in rows]
                before = len(cache)
                if progress:
                    progress("embed", 0, 1)
                vectors = embed_cached(embedder, texts, cache)
                embedded = len(cache) - before
                cache.prune(embedder.model_id, texts)
                if progress:
                    progress("embed", 1, 1)
            model_id = embedder.model_id
    SeedIndex.build(target, rows, vectors, model_id=model_id).close()
    write_projection(target, data)
    return embedded, notice
