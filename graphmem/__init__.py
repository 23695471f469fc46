"""graphmem: an offline knowledge-graph memory for AI agents.

Markdown in the workspace is the source of truth; graphmem compiles it into an embedded
Kùzu property graph plus a SQLite seed index under ``WORKSPACE/.memory/``.

The library's entry point is :class:`graphmem.Memory`::

    from graphmem import Memory

    with Memory("~/.openclaw/workspace") as mem:
        mem.index()
        for packet in mem.recall("what did we decide about the relay db?", k=10, since="30d"):
            print(packet.source, packet.content)
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

# numpy's OpenBLAS splits even one question's products over every core, and on a busy
# machine the threads wait for each other: a 10k x 384 similarity took 12.0 ms on two
# threads and 0.9 ms on one (a 150 x 510 product 25.9 ms against 0.4 ms; 2 cores, load 3).
# Read when numpy is first imported, so it holds for the CLI, the daemon and the MCP
# server; a caller's own setting wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"

__all__ = ["GraphmemError", "Memory", "__version__"]

if TYPE_CHECKING:
    from graphmem.errors import GraphmemError
    from graphmem.memory import Memory


def __getattr__(name: str) -> Any:
    # Lazy, so `import graphmem.errors` or `graphmem --version` does not load Kùzu, SQLite
    # and numpy.
    if name == "Memory":
        from graphmem.memory import Memory

        return Memory
    if name == "GraphmemError":
        from graphmem.errors import GraphmemError

        return GraphmemError
    raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
