"""The published generation: what readers open. Readers open the generation CURRENT
names, read-only, so they never wait for (or block) a running ``index``: that one is
writing a new generation beside it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from graphmem.config import Settings
from graphmem.errors import NotIndexedError, QueryError
from graphmem.store.db import Graph
from graphmem.store.layout import Generation, Store


@contextlib.contextmanager
def open_graph(settings: Settings, *, write: bool = False) -> Iterator[Graph]:
    """The current generation's graph; read-only unless `write`."""
    store = Store(settings.memory_dir)
    for attempt in range(3):
        gen = store.current()
        if gen is None:
            raise NotIndexedError(str(settings.workspace))
        try:
            graph = Graph(gen.graph, read_only=not write, buffer_pool_mb=settings.buffer_pool_mb)
            break
        except QueryError:
            # An index may have published and collected this generation just now.
            if attempt == 2 or store.current() == gen:
                raise
    try:
        yield graph
    finally:
        graph.close()


def current_generation(settings: Settings) -> Generation:
    """The published generation, or :class:`NotIndexedError`."""
    gen = Store(settings.memory_dir).current()
    if gen is None:
        raise NotIndexedError(str(settings.workspace))
    return gen
