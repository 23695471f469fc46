"""Scale-out: push compiled workspaces into one shared FalkorDB graph.

``push`` sends a workspace's graph (incrementally, hash-diffed against what the server
holds), ``connection`` talks to the server (the only module importing ``falkordb``),
``dialect`` holds the push protocol in FalkorDB's Cypher, ``rows`` builds and diffs the rows,
and ``server`` starts a local ``redis-server`` with the FalkorDB module for tests and trials.
The cross-workspace queries are ``queries/team/*.cypher`` with their ``*.falkordb.cypher``
variants. Needs the ``scaleout`` extra: ``pip install "graphmem[scaleout]"``.
"""

from graphmem.export.falkordb.errors import ScaleoutError

__all__ = ["ScaleoutError"]
