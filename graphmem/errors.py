"""Errors graphmem raises. Every message says what went wrong and what to do about it."""

from __future__ import annotations


class GraphmemError(Exception):
    """Root of every error the library raises on purpose."""


class WorkspaceError(GraphmemError):
    """The workspace folder is missing or unusable."""


class NotIndexedError(GraphmemError):
    """A read command ran before any index exists."""

    def __init__(self, workspace: str) -> None:
        super().__init__(
            f"no index in {workspace}/.memory yet; run `graphmem --workspace {workspace} index`"
        )


class IndexLockedError(GraphmemError):
    """Another process holds the writer lock."""


class QueryError(GraphmemError):
    """A named query is unknown, was called with the wrong parameters, or failed in Kùzu."""


class ReadOnlyError(QueryError):
    """A write was attempted through a read-only connection."""


class BulletError(GraphmemError):
    """A Retain bullet given on the command line is malformed."""
