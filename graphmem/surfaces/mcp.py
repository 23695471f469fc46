"""``graphmem serve``: the memory as Model Context Protocol tools over stdio.

One :class:`graphmem.Memory` (the path the CLI and Python callers take too) holds the
workspace's settings and one open index for the life of the server, reopened when an
``index`` (ours after a retain, or any other process's) publishes a new generation. Every
call that touches the index runs on one dedicated worker thread, one at a time; the event
loop stays free to answer pings and cancellations meanwhile.

Nothing here prints: on the stdio transport stdout is the wire. (The SDK also points fd 1 at
stderr while it serves, so stray output from a library cannot corrupt a frame.)
"""

from __future__ import annotations

import contextlib
import inspect
import re
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import date
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Literal, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from pydantic import Field
from typing_extensions import TypedDict  # pydantic needs it for TypedDict on Python < 3.12

from graphmem import __version__
from graphmem.config import Settings, resolve_settings
from graphmem.edit.retain import EXPECTED, RetainResult
from graphmem.errors import ArgumentError, GraphmemError
from graphmem.memory import Memory
from graphmem.parse.workspace import NotRegularFile, read_regular

T = TypeVar("T")

#: The most lines one ``memory_get`` returns; ask again with ``start_line`` for more.
MAX_GET_LINES = 400
_ANCHOR = re.compile(r"^(?P<path>.*?)#L(?P<start>\d+)(?:-L?(?P<end>\d+))?$")

INSTRUCTIONS = f"""\
graphmem is this user's long-term memory: Markdown notes (daily logs in memory/YYYY-MM-DD.md,
entity pages in bank/entities/) compiled into a knowledge graph. Use memory_recall to answer
questions about people, projects, places, preferences and what happened when; every result
cites exact lines (memory/2025-11-27.md#L12-L15) that memory_get opens. Use memory_about for
everything known about one entity, memory_timeline for what happened to it in order, and
memory_retain to save one new durable fact as `{EXPECTED}`
(W world fact, B something you did, O opinion with confidence c, S summary; `replaces` names
the fact it replaces), memory_retract when a fact or opinion no longer holds, and
memory_core_list / memory_core_apply to keep the core memory file current."""

Kind = Literal["world", "experience", "observation", "opinion", "log"]
WhenParam = Annotated[
    str | None,
    Field(
        description="A day: ISO date (2025-09-01), duration back from now (30d, 2w, 6m, 1y) "
        "or a phrase (yesterday, last week, November 2025)."
    ),
]
NameParam = Annotated[
    str, Field(description="Entity name, slug or alias, e.g. 'Peter', 'Pete' or '@peter'.")
]


class RecallOutput(TypedDict):
    """What ``memory_recall`` returns."""

    packets: list[dict[str, Any]]
    entities: list[str]
    time: str | None
    notices: list[str]


class TimelineOutput(TypedDict):
    """What ``memory_timeline`` returns."""

    entity: str
    events: list[dict[str, Any]]


class RetainOutput(TypedDict):
    """What ``memory_retain`` returns."""

    path: str
    line: int
    id: str
    source: str
    notice: str | None


class CoreOutput(TypedDict):
    """What ``memory_core_list`` returns."""

    proposals: list[dict[str, Any]]


class CoreApplyOutput(TypedDict):
    """What ``memory_core_apply`` returns."""

    proposal: dict[str, Any]
    diff: str
    dry_run: bool


def _retained(result: RetainResult) -> RetainOutput:
    return {
        "path": result.path,
        "line": result.line,
        "id": result.id,
        "source": result.source,
        "notice": "; ".join([*result.warnings, *([result.notice] if result.notice else [])])
        or None,
    }


class GetOutput(TypedDict):
    """What ``memory_get`` returns."""

    path: str
    start_line: int
    end_line: int
    total_lines: int
    text: str


class Tools:
    """The tools' bodies: one long-lived :class:`graphmem.Memory` (which keeps the open
    index and reopens it on a new generation), its answers shaped as the tools' outputs.
    Called from the server's one worker thread."""

    def __init__(self, settings: Settings, today: Callable[[], date] = date.today) -> None:
        self.settings = settings
        self.today = today
        # The server indexes a never-indexed workspace on first use: an agent talking to
        # it has no other way to build it.
        self.memory = Memory.open(settings, today=today, index_if_missing=True)

    def close(self) -> None:
        """Release the open index."""
        self.memory.close()

    # ------------------------------------------------------------------ tools

    def recall(
        self,
        query: str,
        k: int = 10,
        since: str | None = None,
        until: str | None = None,
        as_of: str | None = None,
        kind: list[str] | None = None,
        budget: int | None = None,
        now: str | None = None,
    ) -> RecallOutput:
        """Recall packets for `query`; see the ``memory_recall`` tool."""
        result = self.memory.recall_result(
            query, k, since, until, as_of=as_of, kind=kind, budget=budget, now=now
        )
        return {
            "packets": [p.to_dict() for p in result.packets],
            "entities": list(result.entities),
            "time": result.time,
            "notices": list(result.notices),
        }

    def about(self, name: str) -> dict[str, Any]:
        """The entity card of `name`."""
        return self.memory.about(name).to_dict()

    def timeline(
        self, name: str, since: str | None = None, until: str | None = None
    ) -> TimelineOutput:
        """Dated events mentioning `name`, oldest first."""
        tl = self.memory.timeline(name, since, until)
        return {"entity": tl.entity, "events": [x.to_dict() for x in tl.events]}

    def opinions(self, entity: str | None = None, why: str | None = None) -> dict[str, Any]:
        """Opinions with confidence and evidence, or one opinion's moves explained."""
        if why is not None:
            return self.memory.why(why).to_dict()
        return {"opinions": [v.to_dict() for v in self.memory.opinions(entity)]}

    def retain(self, bullet: str, replaces: str | None = None) -> RetainOutput:
        """Append `bullet` to today's log and re-index."""
        return _retained(self.memory.retain(bullet, replaces=replaces))

    def retract(self, source: str, reason: str | None = None) -> RetainOutput:
        """Write a dated retraction of the line at `source` and re-index."""
        return _retained(self.memory.retract(source, reason=reason))

    def core_list(self) -> CoreOutput:
        """The numbered core-memory proposals."""
        return {"proposals": [p.to_dict() for p in self.memory.core_proposals()]}

    def core_apply(self, number: int, dry_run: bool = False) -> CoreApplyOutput:
        """Apply core proposal `number` (or only show its diff)."""
        applied = self.memory.core_apply(number, dry_run=dry_run)
        return {"proposal": applied.proposal.to_dict(), "diff": applied.diff, "dry_run": dry_run}

    def get(
        self, path: str, start_line: int | None = None, end_line: int | None = None
    ) -> GetOutput:
        """Lines of a workspace Markdown file; see the ``memory_get`` tool."""
        rel, anchor_start, anchor_end = _split_anchor(path)
        file = _workspace_file(self.settings.workspace, rel)
        try:
            data = read_regular(file).removeprefix(b"\xef\xbb\xbf")
        except NotRegularFile:  # a FIFO or a device: reading it could block forever
            raise ToolError(f"{rel!r} is not a regular file; it is not read") from None
        text = data.decode("utf-8", errors="replace").replace("\r\n", "\n").replace("\r", "\n")
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()  # the final newline ends the last line; it does not start another
        total = len(lines)
        start = start_line if start_line is not None else anchor_start or 1
        if end_line is not None:
            end = end_line
        elif start_line is None and anchor_start is not None:
            end = anchor_end or anchor_start
        else:
            end = total
        if start < 1 or (start > total and total > 0):
            raise ToolError(f"start_line {start} is outside {rel} (lines 1-{total})")
        if end < start:
            raise ToolError(f"end_line {end} is before start_line {start}")
        end = min(end, total, start + MAX_GET_LINES - 1)
        return {
            "path": rel,
            "start_line": start,
            "end_line": end,
            "total_lines": total,
            "text": "\n".join(lines[start - 1 : end]),
        }

    def status(self) -> dict[str, Any]:
        """Index freshness, counts, warnings and degraded features."""
        st = self.memory.status()
        return {
            "workspace": st.workspace,
            "generation": st.generation,
            "built_at": st.built_at,
            "fresh": st.fresh,
            "files": st.files,
            "counts": dict(st.counts),
            "stale": list(st.stale),
            "new": list(st.new),
            "deleted": list(st.deleted),
            "warnings": [str(w) for w in st.warnings],
            "degraded": list(st.degraded),
            "index_seconds": st.index_seconds,
            "index_mode": st.index_mode,
        }


def _split_anchor(path: str) -> tuple[str, int | None, int | None]:
    """``memory/x.md#L12-L15`` -> (``memory/x.md``, 12, 15)."""
    if m := _ANCHOR.match(path.strip()):
        end = int(m["end"]) if m["end"] else None
        return m["path"], int(m["start"]), end
    return path.strip(), None, None


def _workspace_file(workspace: Path, rel: str) -> Path:
    """The Markdown file `rel` names inside `workspace`, or a :class:`ToolError` saying why
    not. Absolute paths, ``..`` and symlinks that leave the workspace are refused."""
    if not rel:
        raise ToolError("path is empty; pass a workspace path like memory/2025-11-27.md#L12")
    if "\x00" in rel:
        raise ToolError(f"{rel!r} holds a NUL character; pass a workspace path")
    posix = PurePosixPath(rel.replace("\\", "/"))
    if posix.is_absolute() or Path(rel).is_absolute() or re.match(r"^[A-Za-z]:", rel):
        raise ToolError(f"{rel!r} is absolute; pass a path relative to the workspace")
    if ".." in posix.parts:
        raise ToolError(f"{rel!r} leaves the workspace ('..' is not allowed)")
    if posix.suffix.lower() != ".md":
        raise ToolError(f"{rel!r} is not a Markdown (.md) file; only workspace notes can be read")
    root = workspace.resolve()
    target = (root / posix).resolve()
    if not target.is_relative_to(root):
        raise ToolError(f"{rel!r} resolves outside the workspace (a symlink?); refused")
    if not target.is_file():
        raise ToolError(f"{rel!r} does not exist in the workspace")
    return target


# ---------------------------------------------------------------------- the server


class _Worker:
    """One thread that owns every database handle; calls run on it one at a time."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphmem")

    def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run `fn` on the worker thread and wait; library errors become tool errors."""
        try:
            return self._pool.submit(fn, *args, **kwargs).result()
        except ArgumentError as exc:
            raise ToolError(f"{exc.param}: {exc}") from exc
        except GraphmemError as exc:
            raise ToolError(str(exc)) from exc

    def shutdown(self) -> None:
        """Stop the thread once queued calls finish."""
        self._pool.shutdown(wait=True)


READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)


def build_server(settings: Settings, today: Callable[[], date] = date.today) -> MCPServer:
    """An MCP server exposing the workspace's memory as ``memory_*`` tools.

    `today` supplies the day retain writes to and relative dates count from (a test hook).
    """
    memory = Tools(settings, today)
    worker = _Worker()

    @contextlib.asynccontextmanager
    async def lifespan(_: MCPServer) -> AsyncIterator[None]:
        try:
            yield
        finally:
            worker.call(memory.close)
            worker.shutdown()

    server: MCPServer = MCPServer(
        "graphmem",
        title="graphmem memory",
        instructions=INSTRUCTIONS,
        version=__version__,
        lifespan=lifespan,
        log_level="WARNING",
    )

    # The SDK runs these (sync) functions on its own worker threads; each hands the work to
    # the one thread that owns the index handles. Their docstrings are the tool
    # descriptions agents read.

    def memory_recall(
        query: Annotated[
            str, Field(description="The question in plain words, e.g. 'where does Peter live'.")
        ],
        k: Annotated[int, Field(ge=1, le=1000, description="How many results at most.")] = 10,
        since: WhenParam = None,
        until: WhenParam = None,
        as_of: Annotated[
            str | None,
            Field(
                description="What was true on this day (same forms as since): facts "
                "superseded by then are left out."
            ),
        ] = None,
        kind: Annotated[
            list[Kind] | None,
            Field(
                description="Only these kinds: world (facts), experience (what the agent did), "
                "observation (summaries), opinion (with confidence), log (raw notes)."
            ),
        ] = None,
        budget: Annotated[
            int | None,
            Field(ge=1, description="Stop adding results at about this many tokens."),
        ] = None,
        now: Annotated[
            str | None,
            Field(description="Reference day (YYYY-MM-DD) for relative dates; default today."),
        ] = None,
    ) -> RecallOutput:
        """Search the user's memory and return the best cited facts for a question.

        Use for anything about people, projects, places, preferences, decisions or past
        events. Each packet has kind, timestamp, entities, content, a score and `source`
        (e.g. memory/2025-11-27.md#L12-L15: open it with memory_get); opinions carry a
        confidence and evidence; `superseded_by` marks a fact a newer one replaced.
        `entities` and `time` show what the question was understood to be about.
        """
        return worker.call(
            memory.recall, query, k, since, until, as_of, list(kind) if kind else None, budget, now
        )

    def memory_about(name: NameParam) -> dict[str, Any]:
        """Everything known about one entity (person, place, project, ...), with sources.

        Returns its name, kind and aliases, current facts, superseded facts (what changed
        and when), opinions with confidence and evidence, recent events and related
        entities. An unknown name is an error that suggests close matches.
        """
        return worker.call(memory.about, name)

    def memory_timeline(
        name: NameParam, since: WhenParam = None, until: WhenParam = None
    ) -> TimelineOutput:
        """Every dated statement that mentions an entity, oldest first.

        Each event has kind, text, `source` (openable with memory_get) and `when`.
        """
        return worker.call(memory.timeline, name, since, until)

    def memory_opinions(
        entity: Annotated[
            str | None, Field(description="Only opinions about this entity (a name or alias).")
        ] = None,
        why: Annotated[
            str | None,
            Field(
                description="Explain one opinion instead: its citation "
                "('memory/2026-03-11.md#L16'), id, or words only its statement holds."
            ),
        ] = None,
    ) -> dict[str, Any]:
        """What the user's memory believes, how firmly, and why.

        Without `why`: every opinion (statement, confidence now and as stated, status such as
        confirmed / refuted / retracted / superseded, evidence for and against as citations).
        With `why`: one opinion and each move of its confidence, with the delta, the reason
        and the text of the line it came from. An unknown or ambiguous `why` is an error that
        lists the candidates.
        """
        return worker.call(memory.opinions, entity, why)

    def memory_retain(
        bullet: Annotated[
            str,
            Field(
                description=f"One line `{EXPECTED}`: W world fact, B what you (the agent) "
                "did, in the first person, O opinion with optional confidence c in [0,1], "
                "S summary; @Entity names who or what it is about. "
                "E.g. 'W @Peter: Moved to Porto on Nov 15, 2025.'"
            ),
        ],
        replaces: Annotated[
            str | None,
            Field(
                description="The fact this one replaces, as a recall result cites it "
                "('memory/2025-11-27.md#L12'): the old fact ends, nothing is deleted."
            ),
        ] = None,
    ) -> RetainOutput:
        """Save one durable fact to today's daily log and update the index at once.

        The bullet goes under the Retain heading of memory/YYYY-MM-DD.md, where the user
        can read and edit it, and the next memory_recall finds it.

        Keep it to one self-contained line. A malformed bullet is refused with the reason
        and nothing is written. Returns the file, line, block id and citation.
        """
        return worker.call(memory.retain, bullet, replaces)

    def memory_retract(
        source: Annotated[
            str,
            Field(
                description="The fact or opinion line to retract, as a recall result cites "
                "it: 'memory/2025-11-27.md#L12'."
            ),
        ],
        reason: Annotated[
            str | None, Field(description="Why it no longer holds, one line.")
        ] = None,
    ) -> RetainOutput:
        """Retract a fact or opinion that no longer holds: writes a dated line
        `- S @Entity: retracted: REASON (retracts PATH#Ln)` to today's log and re-indexes.

        Nothing is deleted: a retracted fact ends today, a retracted opinion is marked
        retracted with this line as evidence. To state a new value instead, use
        memory_retain with `replaces`."""
        return worker.call(memory.retract, source, reason)

    def memory_core_list() -> CoreOutput:
        """Proposed edits of the core memory file (memory.md / MEMORY.md), numbered: stale
        lines with the newer line that supersedes them, and durable facts to add, each
        with its evidence (citations)."""
        return worker.call(memory.core_list)

    def memory_core_apply(
        number: Annotated[int, Field(ge=1, description="The proposal's number.")],
        dry_run: Annotated[
            bool, Field(description="Only return the diff; change nothing.")
        ] = False,
    ) -> CoreApplyOutput:
        """Apply one core-memory proposal as a minimal edit of the core file (every other
        byte kept, atomic), then re-index. Returns the diff."""
        return worker.call(memory.core_apply, number, dry_run)

    def memory_get(
        path: Annotated[
            str,
            Field(
                description="A workspace Markdown path, optionally with a line anchor: "
                "'memory/2025-11-27.md', 'memory/2025-11-27.md#L12' or '...#L12-L15' "
                "(the `source` of a recall result)."
            ),
        ],
        start_line: Annotated[
            int | None, Field(ge=1, description="First line (1-based); overrides the anchor.")
        ] = None,
        end_line: Annotated[
            int | None, Field(ge=1, description="Last line, inclusive; default the anchor's.")
        ] = None,
    ) -> GetOutput:
        """Read lines of a Markdown note in the workspace, e.g. to open a citation.

        Without an anchor or lines, returns the file from the top (at most 400 lines; use
        start_line to read on). Only .md files inside the workspace can be read.
        """
        return worker.call(memory.get, path, start_line, end_line)

    def memory_status() -> dict[str, Any]:
        """Is the memory index fresh? Counts, files changed since the last index, input
        warnings (file:line: problem) and degraded features (e.g. embeddings off)."""
        return worker.call(memory.status)

    WRITES = ToolAnnotations(
        read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
    )
    tools: list[tuple[Callable[..., Any], ToolAnnotations]] = [
        (memory_recall, READ_ONLY),
        (memory_about, READ_ONLY),
        (memory_timeline, READ_ONLY),
        (memory_opinions, READ_ONLY),
        (memory_retain, WRITES),
        (memory_retract, WRITES),
        (memory_core_list, READ_ONLY),
        (memory_core_apply, WRITES),
        (memory_get, READ_ONLY),
        (memory_status, READ_ONLY),
    ]
    for fn, hints in tools:
        server.add_tool(fn, description=inspect.cleandoc(fn.__doc__ or ""), annotations=hints)
    return server


def serve_stdio(settings: Settings) -> None:
    """Serve the memory over stdin/stdout until the client disconnects."""
    build_server(settings).run("stdio")


def main() -> None:
    """Entry point: settings from ``GRAPHMEM_*`` environment variables, then serve stdio."""
    serve_stdio(resolve_settings())


if __name__ == "__main__":
    main()
