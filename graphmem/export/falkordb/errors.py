"""The errors of the scale-out path."""

from __future__ import annotations

from graphmem.errors import GraphmemError


class ScaleoutError(GraphmemError):
    """A push or a server query failed: no client, no server, or the server refused."""
