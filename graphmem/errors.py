"""Errors graphmem raises. Every message says what went wrong and what to do about it."""

from __future__ import annotations


class GraphmemError(Exception):
    """Root of every error the library raises on purpose.

    `message` says what went wrong; `hint`, when given, what to do about it. ``str()`` joins
    them ("no index yet; run `graphmem index`"); ``graphmem --json`` prints them apart.
    """

    def __init__(self, message: str = "", *, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}; {self.hint}" if self.hint else self.message


class WorkspaceError(GraphmemError):
    """The workspace folder is missing or unusable."""


class NotIndexedError(GraphmemError):
    """A read command ran before any index exists."""

    def __init__(self, workspace: str) -> None:
        super().__init__(
            f"no index in {workspace}/.memory yet",
            hint=f"run `graphmem --workspace {workspace} index`",
        )


class IndexLockedError(GraphmemError):
    """Another process holds the writer lock."""


class QueryError(GraphmemError):
    """A named query is unknown, was called with the wrong parameters, or failed in Kùzu."""


class ReadOnlyError(QueryError):
    """A write was attempted through a read-only connection."""


class BulletError(GraphmemError):
    """A Retain bullet given on the command line is malformed."""


class EmptyWorkspaceError(WorkspaceError):
    """The workspace holds no Markdown notes that graphmem reads."""


class ArgumentError(GraphmemError):
    """A value passed to a library call cannot be used (a bad day, an empty question).

    `param` names the argument ("since"), so the CLI can name its flag (``--since``).
    """

    def __init__(self, param: str, message: str, *, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.param = param
