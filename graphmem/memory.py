"""``graphmem.Memory``: the library's front door, and the one path the CLI and the MCP
server take.

A :class:`Memory` names a workspace and keeps, for as long as it lives, the settings and one
open index (graph, seed index, the query embedder once loaded). It notices when an ``index``
(its own, after a retain, or another process's) publishes a new generation and reopens
on the next call, so a long-lived one (an agent, ``graphmem serve``) always answers from the
newest index without paying to open it per question.

Everything returned is a plain frozen dataclass (with ``to_dict()`` for JSON); every
failure is a :class:`~graphmem.errors.GraphmemError` whose message says what to do.

Threads: every call holds one lock, so calls from several threads run one after another,
never at once; a single Memory is therefore safe to share, but it answers one question at
a time. For parallel reads, open one Memory per thread (readers never block each other,
and never block an ``index``); writes (index, retain, reflect, merge) are serialised across
processes by the index's own lock anyway.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphmem.config import ConfigError, Settings, resolve_settings
from graphmem.config.presets import RecallConfig
from graphmem.errors import (
    ArgumentError,
    EmptyWorkspaceError,
    GraphmemError,
    NotIndexedError,
    QueryError,
    ReadOnlyError,
    WorkspaceError,
)
from graphmem.extract.timex import parse_window
from graphmem.parse.blocks import Notice
from graphmem.parse.workspace import discover
from graphmem.recall.about import EntityCard, Line, entity_card
from graphmem.recall.about import timeline as entity_timeline
from graphmem.recall.engine import KINDS, Recaller, RecallOptions
from graphmem.recall.packets import Packet, RecallResult
from graphmem.recall.understand import clip_question
from graphmem.store.current import current_generation as current_generation  # re-exported
from graphmem.store.current import open_graph as open_graph  # re-exported
from graphmem.store.db import Rows
from graphmem.store.layout import Store
from graphmem.store.queries import NamedQuery, parameters
from graphmem.store.queries import get as get_query
from graphmem.store.readonly import check_read_only

if TYPE_CHECKING:
    # Imported where used: a recall or `about` never needs the indexer (compile, delta,
    # opinions), networkx (export) or the bank writer, and importing them costs a cold
    # CLI call ~0.3 s CPU.
    from graphmem.edit.init import InitReport
    from graphmem.edit.merge import MergeResult
    from graphmem.edit.retain import RetainResult
    from graphmem.export.files import ExportReport
    from graphmem.index.build import IndexReport, Progress
    from graphmem.reflect.core import Applied, CoreProposal
    from graphmem.reflect.run import OpinionView, OpinionWhy, ReflectReport

#: Where graphmem looks for notes, for messages about an empty workspace.
LOOKED_FOR = "MEMORY.md (or memory.md), USER.md, SOUL.md, memory/*.md, bank/**/*.md"

Day = str | date | None


@dataclass(frozen=True)
class Timeline:
    """Every dated statement that mentions one entity, oldest first."""

    entity: str  # the slug
    name: str
    events: tuple[Line, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "entity": self.entity,
            "name": self.name,
            "events": [e.to_dict() for e in self.events],
        }


@dataclass(frozen=True)
class EntitySummary:
    """One entity as ``graphmem entities`` lists it."""

    slug: str
    name: str
    kind: str | None
    aliases: tuple[str, ...]
    mentions: int
    first_seen: date | None
    last_seen: date | None
    page: str | None

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "slug": self.slug,
            "name": self.name,
            "kind": self.kind,
            "aliases": list(self.aliases),
            "mentions": self.mentions,
            "first_seen": self.first_seen.isoformat() if self.first_seen else None,
            "last_seen": self.last_seen.isoformat() if self.last_seen else None,
            "page": self.page,
        }


def empty_notice(workspace: Path) -> str:
    """What to say about a workspace without notes."""
    return f"no Markdown notes in {workspace} (looked for {LOOKED_FOR})"


class Memory:
    """One workspace's memory: index it, ask it, add to it.

    ``Memory("~/notes")`` resolves settings as the CLI does (argument > ``GRAPHMEM_*``
    environment > the workspace's ``graphmem.toml`` > defaults); ``Memory.open(settings)``
    takes a :class:`~graphmem.config.Settings` you built. Use it as a context manager, or
    call :meth:`close`, to release the open index.

    `today` supplies the day retain writes to and relative days count from (a test hook).
    With `index_if_missing`, the first read of a workspace that was never indexed indexes it
    (the MCP server does this: an agent has no other way to build it); otherwise reads
    raise :class:`~graphmem.errors.NotIndexedError`.
    """

    def __init__(
        self,
        workspace: str | Path | None = None,
        *,
        settings: Settings | None = None,
        today: Callable[[], date] = date.today,
        index_if_missing: bool = False,
    ) -> None:
        if settings is not None and workspace is not None:
            raise ArgumentError("workspace", "pass a workspace or settings, not both")
        self.settings = settings if settings is not None else resolve_settings(workspace)
        self.today = today
        self.index_if_missing = index_if_missing
        self._lock = threading.RLock()
        self._recaller: Recaller | None = None
        self._embedder: Any = None
        self._notices: list[str] = []

    @classmethod
    def open(cls, settings: Settings, **options: Any) -> Memory:
        """A Memory on already-resolved settings (see the class for `options`)."""
        return cls(settings=settings, **options)

    @property
    def workspace(self) -> Path:
        """The workspace folder (absolute)."""
        return self.settings.workspace

    def __repr__(self) -> str:
        return f"Memory({str(self.workspace)!r})"

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the open index and the loaded models (a later call opens them again)."""
        with self._lock:
            self._drop_reader()
            self._embedder = None

    def _drop_reader(self) -> None:
        """Close the open index, keeping a loaded query model for the next one: the model
        does not depend on the generation, and loading it costs most of an open."""
        if self._recaller is not None:
            recaller, self._recaller = self._recaller, None
            self._embedder = recaller._embedder or self._embedder
            recaller.close()

    # ------------------------------------------------------------------ the open index

    def _check_workspace(self) -> None:
        if not self.workspace.is_dir():
            raise WorkspaceError(
                f"workspace {self.workspace} does not exist",
                hint="pass --workspace DIR or set GRAPHMEM_WORKSPACE (`graphmem init` makes one)",
            )

    def _reader(self) -> Recaller:
        """The open index for the generation CURRENT names now, (re)opened as needed."""
        self._check_workspace()
        store = Store(self.settings.memory_dir)
        if store.current() is None:
            if self.index_if_missing:
                from graphmem.index.build import index_workspace

                report = index_workspace(self.settings)
                self._notices.append(
                    empty_notice(self.workspace)
                    if report.files == 0
                    else "no index existed; built one on first use"
                )
            elif not discover(self.workspace, self.settings.extra_paths)[0]:
                raise EmptyWorkspaceError(
                    empty_notice(self.workspace),
                    hint="write a daily log such as memory/2025-11-27.md, or retain a bullet",
                )
        for attempt in range(3):
            current = store.current()
            if current is None:
                raise NotIndexedError(str(self.workspace))
            if self._recaller is not None and self._recaller.generation == current:
                return self._recaller
            self._drop_reader()
            try:
                self._recaller = Recaller(self.settings, current)
            except GraphmemError:
                # An index may have published and collected that generation just now.
                if attempt == 2 or store.current() == current:
                    raise
                continue
            if self._embedder is not None and self._recaller.seeds.backend != "none":
                self._recaller._embedder, self._recaller._embedder_loaded = self._embedder, True
            return self._recaller
        raise AssertionError("unreachable")

    def _release_if_stale(self) -> None:
        """After a write: let go of an old generation now, so the next publish may
        collect it (the next read opens the new one)."""
        if self._recaller is not None and (
            Store(self.settings.memory_dir).current() != self._recaller.generation
        ):
            self._drop_reader()

    # ------------------------------------------------------------------ arguments

    def _now(self, now: Day, name: str = "now") -> date:
        if now is None or (isinstance(now, str) and not now.strip()):
            return self.today()
        if isinstance(now, date):
            return now
        try:
            return date.fromisoformat(now.strip()[:10])
        except ValueError:
            raise ArgumentError(name, f"{now!r} is not an ISO date (YYYY-MM-DD)") from None

    @staticmethod
    def _day(value: Day, now: date, name: str, *, end: bool = False) -> date | None:
        if value is None or isinstance(value, date):
            return value
        if not value.strip():
            return None
        try:
            return parse_window(value, now, end=end)
        except ValueError as exc:
            raise ArgumentError(name, str(exc)) from None

    def _window(
        self, since: Day, until: Day, now: date, *, since_name: str = "since"
    ) -> tuple[date | None, date | None]:
        start = self._day(since, now, since_name)
        end = self._day(until, now, "until", end=True)
        if start is not None and end is not None and start > end:
            raise ArgumentError(
                since_name,
                f"{since_name} ({start.isoformat()}) is after until ({end.isoformat()}), "
                "so nothing can match",
                hint="swap them, or drop one",
            )
        return start, end

    def _recall_config(self, preset: str | None, config: RecallConfig | None) -> RecallConfig:
        if config is not None:
            return config
        if preset is None:
            return self.settings.recall
        try:
            return resolve_settings(self.workspace, env={}, recall_preset=preset).recall
        except ConfigError as exc:
            raise ArgumentError("preset", str(exc)) from None

    # ------------------------------------------------------------------ reading

    def recall(
        self,
        question: str,
        k: int = 10,
        since: Day = None,
        until: Day = None,
        *,
        as_of: Day = None,
        kind: str | Iterable[str] | None = None,
        budget: int | None = None,
        now: Day = None,
        preset: str | None = None,
        config: RecallConfig | None = None,
    ) -> list[Packet]:
        """The best cited packets for `question`, best first.

        `since`/`until`/`as_of` take ``30d``, ``2w``, ``6m``, ``1y``, ``yesterday``, an ISO
        day or a :class:`~datetime.date`, counted back from `now` (default today); `as_of`
        leaves out facts superseded by that day. `kind` keeps only world, experience,
        observation, opinion or log packets; `budget` stops at about that many tokens.
        """
        return self.recall_result(
            question,
            k,
            since,
            until,
            as_of=as_of,
            kind=kind,
            budget=budget,
            now=now,
            preset=preset,
            config=config,
        ).packets

    def recall_result(
        self,
        question: str,
        k: int = 10,
        since: Day = None,
        until: Day = None,
        *,
        as_of: Day = None,
        kind: str | Iterable[str] | None = None,
        budget: int | None = None,
        now: Day = None,
        preset: str | None = None,
        config: RecallConfig | None = None,
    ) -> RecallResult:
        """Like :meth:`recall`, with what the question was understood to be about (its
        entities and time) and notices (e.g. "embeddings off: lexical + graph recall")."""
        if not question or not question.strip():
            raise ArgumentError("question", "the question is empty; ask something in words")
        if k < 1:
            raise ArgumentError("k", f"k must be at least 1, not {k}")
        if budget is not None and budget < 1:
            raise ArgumentError("budget", f"budget must be at least 1 token, not {budget}")
        question, clipped = clip_question(question)
        kinds = frozenset([kind] if isinstance(kind, str) else kind) if kind else None
        if kinds and not kinds <= set(KINDS):
            bad = ", ".join(sorted(kinds - set(KINDS)))
            raise ArgumentError("kind", f"unknown kind {bad}; choose from {', '.join(KINDS)}")
        with self._lock:
            today = self._now(now)
            start, end = self._window(since, until, today)
            moved = None
            newest = self._newest_log_day() if now is None and start is not None else None
            if newest is not None and start is not None and newest < start:
                counted = self._day(since, newest, "since")
                if counted != start:  # a relative window (30d) that today's clock leaves empty
                    today, moved = newest, newest
                    start, end = self._window(since, until, today)
            options = RecallOptions(
                k=k,
                now=today,
                since=start,
                until=end,
                as_of=self._day(as_of, today, "as_of", end=True),
                kinds=kinds,
                budget=budget,
                config=self._recall_config(preset, config),
            )
            result = self._reader().recall(question, options)
            notices, self._notices = (*self._notices, *result.notices), []
            notices += (clipped,) if clipped else ()
            if moved is not None:
                notices += (
                    f"no log in the {since} before today: the window counts back from the "
                    f"newest log, {moved.isoformat()} (pass --now DAY to choose)",
                )
            return RecallResult(
                packets=result.packets,
                entities=result.entities,
                time=result.time,
                kinds=result.kinds,
                notices=tuple(dict.fromkeys(notices)),
            )

    def about(self, name: str, *, now: Day = None) -> EntityCard:
        """Everything known about one entity: aliases, current facts (what holds at `now`,
        default today: states, not trips, events or plans), what changed, opinions, recent
        events, related entities. Unknown names raise
        :class:`~graphmem.recall.about.UnknownEntityError` with close matches."""
        when = self._now(now)
        with self._lock:
            return entity_card(self._reader().graph, name, now=when)

    def timeline(
        self, name: str, since: Day = None, until: Day = None, *, now: Day = None
    ) -> Timeline:
        """Dated statements mentioning `name`, oldest first, within [since, until]."""
        with self._lock:
            start, end = self._window(since, until, self._now(now))
            entity, lines = entity_timeline(self._reader().graph, name, start, end)
            return Timeline(entity["slug"], entity["name"], tuple(lines))

    def opinions(self, entity: str | None = None) -> list[OpinionView]:
        """Every opinion (or those about `entity`) with its confidence, evidence for and
        against, and history."""
        from graphmem.reflect.run import opinions as list_opinions

        with self._lock:
            return list_opinions(self._reader().graph, entity, self.workspace)

    def why(self, opinion: str) -> OpinionWhy:
        """Why an opinion stands where it does: each move with its delta, reason and the
        line it came from. `opinion`: its id, its citation (``memory/2026-03-11.md#L16``)
        or words only its statement holds."""
        from graphmem.reflect.run import explain, find_opinion

        return explain(find_opinion(self.opinions(), opinion), self.workspace)

    def entities(self) -> list[EntitySummary]:
        """Every entity, most mentioned first."""
        with self._lock:
            rows = self._reader().graph.run("entity/list").dicts()
        return [
            EntitySummary(
                slug=r["slug"],
                name=r["name"],
                kind=r["kind"],
                aliases=tuple(r["aliases"] or ()),
                mentions=int(r["mentions"] or 0),
                first_seen=r["first_seen"],
                last_seen=r["last_seen"],
                page=r["page"],
            )
            for r in rows
        ]

    def status(self) -> Status:
        """Counts, freshness against the workspace's files, warnings, degraded features."""
        with self._lock:
            self._check_workspace()
            return status(self.settings)  # the module's function (below)

    def cypher(
        self, statement: str, params: dict[str, Any] | None = None, *, write: bool = False
    ) -> Rows:
        """Run your own Cypher; read-only unless `write` (writes last until the next index).

        Every ``$name`` the statement uses must be in `params` and nothing else may be:
        a missing parameter is an error, never an unfiltered answer.
        """
        params = dict(params or {})
        if not statement.strip():
            raise ArgumentError("statement", "the Cypher statement is empty")
        used, given = parameters(statement), set(params)
        if used != given:
            parts = []
            if missing := sorted(used - given):
                parts.append("missing " + ", ".join(f"${p}" for p in missing))
            if extra := sorted(given - used):
                parts.append("unknown " + ", ".join(f"${p}" for p in extra))
            raise QueryError(
                f"cypher: {'; '.join(parts)}",
                hint="give each $name the statement uses as --param name=VALUE",
            )
        with self._lock:
            self._check_workspace()
            if write:
                self._drop_reader()  # a writer cannot open the database beside our reader
            return run_cypher(self.settings, statement, params, write=write)

    def query(
        self, name: str, params: dict[str, Any] | None = None, *, write: bool = False
    ) -> Rows:
        """Run a named query from queries/ (``graphmem query --list``) with exactly its
        parameters. A query that writes (the ``delta/`` steps, say) runs only with `write`,
        as :meth:`cypher` does; its writes last until the next index."""
        params = dict(params or {})
        query = get_query(name)
        query.check(params)
        if query.writes and not write:
            raise ReadOnlyError(
                f"query {name} writes to the graph; refused without write",
                hint="pass --write if you mean it; its writes last until the next index",
            )
        with self._lock:
            if query.writes:
                self._check_workspace()
                self._drop_reader()
                return run_named(self.settings, name, params, write=True)
            return self._reader().graph.run(name, **params)

    def export(self, fmt: str = "graphml", out: str | Path = "graphmem-export") -> ExportReport:
        """Write the graph as GraphML (Gephi, yEd), ``cypher`` (CSVs + load scripts for
        Neo4j/Memgraph/Kùzu) or ``csv`` into the folder `out`."""
        from graphmem.export.files import FORMATS, export_graph

        if fmt not in FORMATS:
            raise ArgumentError(
                "format", f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}"
            )
        with self._lock:
            return export_graph(self._reader().graph, fmt, Path(out))  # type: ignore[arg-type]

    # ------------------------------------------------------------------ writing

    def init(self) -> InitReport:
        """Lay out the workspace (``memory/``, ``bank/entities/``, ``memory.md``, a README
        of the syntax) where missing; never overwrites a file."""
        from graphmem.edit.init import init_workspace

        return init_workspace(self.workspace)

    def index(
        self,
        *,
        force: bool = False,
        progress: Progress | None = None,
        on_wait: Callable[[str], None] | None = None,
    ) -> IndexReport:
        """Bring the index up to date with the Markdown (incremental, atomic); `force`
        rebuilds it from Markdown alone. While another process writes the index this waits
        for it (bounded), telling `on_wait` once."""
        from graphmem.index.build import index_workspace

        with self._lock:
            self._check_workspace()
            try:
                return index_workspace(
                    self.settings, force=force, progress=progress, on_wait=on_wait
                )
            finally:
                self._release_if_stale()

    def retain(
        self,
        bullet: str,
        *,
        today: Day = None,
        replaces: str | None = None,
        on_wait: Callable[[str], None] | None = None,
    ) -> RetainResult:
        """Append one typed bullet (``W|B|O|O(c=0.8)|S @Entity: text``, a leading ``- ``
        is fine) to the Retain section of today's log, then re-index (waiting, bounded, for
        another writer; `on_wait` hears of it). A malformed bullet raises
        :class:`~graphmem.errors.BulletError` and nothing is written.

        `replaces` (``memory/2025-11-27.md#L12``) names the fact it replaces: the bullet
        ends in ``(replaces ...)`` and the index ends the old fact (never deletes it)."""
        from graphmem.edit.retain import retain as do_retain

        with self._lock:
            self._check_workspace()
            try:
                return do_retain(
                    self.settings,
                    bullet,
                    today=self._now(today, "today"),
                    replaces=replaces,
                    on_wait=on_wait,
                )
            finally:
                self._release_if_stale()

    def retract(self, source: str, *, reason: str | None = None, today: Day = None) -> RetainResult:
        """Write a dated retraction of the fact or opinion at `source` (``path#L12``) into
        today's Retain section, then re-index: a fact ends today, an opinion is marked
        retracted with the line as evidence. Nothing is deleted."""
        from graphmem.edit.retain import retract as do_retract

        with self._lock:
            self._check_workspace()
            try:
                return do_retract(
                    self.settings, source, reason=reason, today=self._now(today, "today")
                )
            finally:
                self._release_if_stale()

    def reflect(self, since: Day = "7d", *, dry_run: bool = True, now: Day = None) -> ReflectReport:
        """The confidence moves whose evidence is dated in [since, now], and the bank pages
        regenerated from the graph (hand edits kept). By default a dry run: pages' diffs
        are reported and nothing is written; pass ``dry_run=False`` to write them."""
        from graphmem.reflect.run import reflect as run_reflect

        with self._lock:
            self._check_workspace()
            today = self._now(now)
            start = self._day(since, today, "since")
            if start is None:
                raise ArgumentError("since", "reflect needs a start day (7d, 2025-11-01, ...)")
            if start > today:
                raise ArgumentError(
                    "since", f"since ({start.isoformat()}) is after now ({today.isoformat()})"
                )
            now_from = "given" if now is not None else "today"
            newest = self._newest_log_day()
            if now is None and newest is not None and newest < start:
                # The clock's window holds no log: count back from the newest one instead.
                today, now_from = newest, "newest log"
                start = self._day(since, today, "since") or today
            try:
                report = run_reflect(self.settings, start, today, dry_run=dry_run)
            finally:
                self._release_if_stale()
            return replace(report, now_from=now_from)

    def _newest_log_day(self) -> date | None:
        """The newest ``memory/YYYY-MM-DD.md`` day (None without a dated log)."""
        days = []
        for path in (self.workspace / "memory").glob("*.md"):
            try:
                days.append(date.fromisoformat(path.stem))
            except ValueError:
                continue
        return max(days, default=None)

    def core_proposals(self) -> list[CoreProposal]:
        """The numbered core-memory proposals (stale ``memory.md`` lines with what
        superseded them, durable facts to add), as ``bank/proposals.md`` lists them."""
        from graphmem.reflect.core import list_proposals

        with self._lock:
            return list_proposals(self._reader().graph, self.settings.workspace)

    def core_apply(self, number: int, *, dry_run: bool = False) -> Applied:
        """Apply core proposal `number` as a minimal, atomic edit of the core file, then
        re-index; with `dry_run` only return the diff."""
        from graphmem.reflect.core import core_apply

        with self._lock:
            self._check_workspace()
            self._drop_reader()
            try:
                return core_apply(self.settings, number, dry_run=dry_run)
            finally:
                self._release_if_stale()

    def merge(self, keep: str, alias: str) -> MergeResult:
        """Record entity `alias` as an alias of `keep` on keep's bank page, then re-index."""
        from graphmem.edit.merge import merge_entities

        with self._lock:
            self._check_workspace()
            self._drop_reader()
            try:
                return merge_entities(self.settings, keep, alias)
            finally:
                self._release_if_stale()

    def watch(
        self,
        *,
        interval: float = 1.0,
        debounce: float = 1.0,
        on_index: Callable[[IndexReport], None] | None = None,
        on_busy: Callable[[str], None] | None = None,
        on_deleted: Callable[[list[str]], None] | None = None,
        on_changed: Callable[[list[str]], None] | None = None,
        stop: threading.Event | None = None,
    ) -> None:
        """Index now and after every quiet change until `stop` is set (or Ctrl-C);
        `on_deleted` and `on_changed` hear which files disappeared and which are new or
        changed, before each index that follows."""
        from graphmem.index.watch import watch as run_watch

        with self._lock:
            self._check_workspace()
            self.close()
            run_watch(
                self.settings,
                interval=interval,
                debounce=debounce,
                on_index=on_index,
                on_busy=on_busy,
                on_deleted=on_deleted,
                on_changed=on_changed,
                stop=stop,
            )


# ---------------------------------------------------------------------------- read helpers
# Library calls behind the CLI's read commands without a Memory: open the current graph,
# status, Cypher. Readers open the generation CURRENT names, read-only, so they never wait
# for (or block) a running ``index``: that one is writing a new generation beside it.
@dataclass(frozen=True)
class Status:
    """What ``graphmem status`` reports."""

    workspace: str
    generation: str | None
    built_at: str | None
    counts: dict[str, int] = field(default_factory=dict)
    files: int = 0
    stale: tuple[str, ...] = ()
    new: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    warnings: tuple[Notice, ...] = ()
    degraded: tuple[str, ...] = ()
    index_seconds: float | None = None
    #: How the last index was built: "full" or "delta" (a patched copy of the one before).
    index_mode: str | None = None
    #: How much of the index has vectors (items, of, windows, windows_pending); None
    #: without embeddings. Below complete while a progressive index is still embedding.
    vectors: dict[str, int] | None = None
    #: NER's state ("done", "pending" while an index still runs it, "off") and where the
    #: blocks' spans came from (file_cached, text_cached, run, skipped).
    ner: dict[str, Any] = field(default_factory=dict)

    @property
    def fresh(self) -> bool:
        """True when the index matches every file in the workspace."""
        return self.generation is not None and not (self.stale or self.new or self.deleted)


def status(settings: Settings) -> Status:
    """Counts, freshness against the workspace's files, warnings and degraded features."""
    gen = Store(settings.memory_dir).current()
    files, _ = (
        discover(settings.workspace, settings.extra_paths)
        if settings.workspace.is_dir()
        else ([], [])
    )
    if gen is None:
        return Status(
            str(settings.workspace), None, None, files=len(files), new=tuple(f.path for f in files)
        )
    from graphmem.index.build import fingerprint_of  # the indexer: only status needs it

    meta = gen.meta()
    indexed: dict[str, str] = meta.get("fingerprint", {}).get("files", {})
    now = fingerprint_of(files, settings)["files"]
    assert isinstance(now, dict)
    return Status(
        workspace=str(settings.workspace),
        generation=gen.name,
        built_at=meta.get("built_at"),
        counts=meta.get("counts", {}),
        files=len(files),
        stale=tuple(p for p, h in now.items() if p in indexed and indexed[p] != h),
        new=tuple(p for p in now if p not in indexed),
        deleted=tuple(p for p in indexed if p not in now),
        warnings=tuple(Notice(**w) for w in meta.get("warnings", [])),
        degraded=tuple(meta.get("degraded", [])),
        index_seconds=meta.get("seconds"),
        index_mode=meta.get("mode", "full"),
        vectors=meta.get("vectors"),
        ner=meta.get("ner") or {},
    )


def run_cypher(
    settings: Settings, text: str, params: dict[str, Any] | None = None, *, write: bool = False
) -> Rows:
    """Run the user's own Cypher; the graph is opened read-only unless `write`."""
    if not write:
        # Kùzu's read-only mode still lets COPY TO, EXPORT and LOAD FROM reach the disk.
        check_read_only(text)
    with open_graph(settings, write=write) as graph:
        return graph.execute(text, params or {}, name="cypher")


def run_named(
    settings: Settings, name: str, params: dict[str, Any], *, write: bool = False
) -> Rows:
    """Run a named query from queries/; one that writes runs only with `write`."""
    query: NamedQuery = get_query(name)
    query.check(params)
    if query.writes and not write:
        raise ReadOnlyError(f"query {name} writes to the graph; refused without write=True")
    with open_graph(settings, write=query.writes) as graph:
        return graph.run(name, **params)
