"""The ``graphmem`` command line: each command parses arguments, makes one
:class:`graphmem.Memory` call, and renders. The only module that imports typer.

Conventions: ``--workspace/-w`` goes before or after the command name; ``--json`` on every
command prints machine output, and with it errors are JSON on stdout too
(``{"error": ..., "hint": ...}``) with the same exit codes: 1 for a failure, 2 for a usage
error.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import os
import signal
import sys
from collections.abc import Callable, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

from graphmem import __version__
from graphmem.config import Settings, resolve_settings
from graphmem.errors import ArgumentError, GraphmemError

if TYPE_CHECKING:
    from graphmem.edit.retain import RetainResult
    from graphmem.memory import Memory
    from graphmem.reflect.run import OpinionWhy


# ----------------------------------------------------------------------------- help and errors


def _plain_metavars() -> None:
    """Help in the usual form: ``QUESTION`` and ``--k N``, not ``{question} <str>``,
    ``<bool>`` or ``<list[str]>`` (Typer 0.29's defaults)."""
    option_type = TyperOption.display_type_rich

    def argument_usage(self: TyperArgument) -> str:
        name = self.metavar or (self.name or "").upper()
        name = name if self.required else f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    def option_display(self: TyperOption, ctx: Any) -> str | None:
        if self.is_flag and self.metavar is None:
            return None
        return option_type(self, ctx)

    TyperArgument._usage_display_name = argument_usage  # type: ignore[method-assign]
    TyperArgument.display_type_rich = lambda self, ctx: None  # type: ignore[method-assign]
    TyperOption.display_type_rich = option_display  # type: ignore[method-assign]


_plain_metavars()


def _width() -> int:
    """Columns to render for: $COLUMNS, else the terminal's (stdout's, or stderr's when the
    output is piped to `head` or `less` from a terminal), else 100."""
    if os.environ.get("COLUMNS", "").isdigit():
        return max(40, int(os.environ["COLUMNS"]))
    for stream in (sys.stdout, sys.stderr):
        try:
            return max(40, os.get_terminal_size(stream.fileno()).columns)
        except (AttributeError, OSError, ValueError):
            continue
    return 100


def _json_error(message: str, hint: str | None) -> None:
    typer.echo(json.dumps({"error": message, "hint": hint}, ensure_ascii=False, indent=2))


class _Group(TyperGroup):
    """With ``--json`` anywhere on the line, usage errors (a bad flag, a missing argument)
    come out as JSON too, with click's exit code."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        if "--json" not in argv or not standalone_mode:
            return super().main(argv, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(argv, prog_name, complete_var, False, **extra)
        except typer.Abort:
            _json_error("aborted", None)
            sys.exit(1)
        except Exception as exc:
            # click's ClickException (UsageError, BadParameter, ...), without importing click.
            if not (hasattr(exc, "exit_code") and hasattr(exc, "format_message")):
                raise
            ctx = getattr(exc, "ctx", None)
            path = ctx.command_path if ctx is not None else "graphmem"
            _json_error(exc.format_message(), f"see `{path} --help`")
            sys.exit(exc.exit_code)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    cls=_Group,
    no_args_is_help=True,
    # --install-completion / --show-completion for bash, zsh, fish and PowerShell.
    add_completion=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Offline knowledge-graph memory for AI agents: Markdown in, cited recall out.",
    pretty_exceptions_enable=False,
)


class _State:
    settings: Settings | None = None
    #: Set by a resident process (``graphmem daemon``): the Memory to reuse for settings.
    keep: Callable[[Settings], Memory] | None = None


state = _State()

WorkspaceOpt = Annotated[
    Path | None,
    typer.Option(
        "--workspace",
        "-w",
        metavar="DIR",
        help="Workspace folder (default: $GRAPHMEM_WORKSPACE, else ~/.openclaw/workspace).",
    ),
]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"graphmem {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    workspace: WorkspaceOpt = None,
    version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_version, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    try:
        state.settings = resolve_settings(workspace)
    except GraphmemError as exc:
        raise fail(str(exc)) from None


def settings(workspace: Path | None = None) -> Settings:
    """The settings: `workspace` given after the command name wins over the one before it
    (resolved by the callback) and the environment."""
    if workspace is not None:
        state.settings = resolve_settings(workspace)
    return state.settings or resolve_settings()


def memory(workspace: Path | None = None) -> Memory:
    """The :class:`Memory` a command works through."""
    from graphmem.memory import Memory

    if state.keep is not None:
        return state.keep(settings(workspace))
    return Memory.open(settings(workspace))


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print an error for a person and exit non-zero."""
    typer.echo(f"graphmem: {message}", err=True)
    return typer.Exit(code)


#: Library argument names -> the flags that carry them.
_FLAGS = {
    "as_of": "--as-of",
    "question": "QUESTION",
    "statement": "STATEMENT",
    "format": "--format",
    "workspace": "--workspace",
}


def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Library errors become one clear line on stderr and exit code 1 (with ``--json``: a
    JSON object on stdout); a bad argument value is a usage error naming its flag (exit 2)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ArgumentError as exc:
            flag = _FLAGS.get(exc.param, "--" + exc.param.replace("_", "-"))
            raise typer.BadParameter(str(exc), param_hint=flag) from None
        except GraphmemError as exc:
            if kwargs.get("json_out"):
                _json_error(exc.message, exc.hint)
                raise typer.Exit(1) from None
            raise fail(str(exc)) from None

    return wrapper


# ----------------------------------------------------------------------------- rendering


def _plain(value: Any) -> Any:
    if isinstance(value, date | datetime):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _cell(value: Any, width: int = 80) -> str:
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        return ", ".join(_cell(v, width) for v in value)
    text = str(_plain(value)).replace("\n", " ⏎ ")
    return text if len(text) <= width else text[: width - 1] + "…"


def render_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], width: int = 80) -> str:
    """A plain aligned text table."""
    cells = [[_cell(v, width) for v in row] for row in rows]
    widths = [max([len(c)] + [len(r[i]) for r in cells]) for i, c in enumerate(columns)]
    line = "  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True))
    out = [line.rstrip(), "  ".join("-" * w for w in widths)]
    out += ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    return "\n".join(out)


def render_rows(columns: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str) -> str:
    """Rows as a table, JSON (list of objects) or CSV."""
    if fmt == "json":
        data = [dict(zip(columns, _plain(list(r)), strict=True)) for r in rows]
        return json.dumps(data, ensure_ascii=False, indent=2)
    if fmt == "csv":
        buf = io.StringIO()
        writer = csv.writer(buf)
        writer.writerow(columns)
        for r in rows:
            writer.writerow([_cell(v, 10**9) for v in r])
        return buf.getvalue().rstrip("\n")
    return render_table(columns, rows)


def _format(json_out: bool, csv_out: bool) -> str:
    if json_out and csv_out:
        raise typer.BadParameter("choose one of --json and --csv")
    return "json" if json_out else "csv" if csv_out else "table"


JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]
CsvOpt = Annotated[bool, typer.Option("--csv", help="Print CSV.")]


# ----------------------------------------------------------------------------- commands


def _echo_json(data: Any) -> None:
    typer.echo(json.dumps(_plain(data), ensure_ascii=False, indent=2))


def _index_dict(report: Any) -> dict[str, Any]:
    return {
        "generation": report.generation,
        "changed": report.changed,
        "mode": report.mode,
        "files": report.files,
        "parsed": report.parsed,
        "removed": report.removed,
        "counts": dict(report.counts),
        "warnings": [str(w) for w in report.warnings],
        "degraded": list(report.degraded),
        "seconds": round(report.seconds, 3),
    }


@app.command()
@guarded
def init(json_out: JsonOpt = False, workspace: WorkspaceOpt = None) -> None:
    """Start a workspace: memory/, bank/entities/, memory.md and a README of the syntax.

    Never overwrites a file that is there. Example: graphmem -w ~/notes init
    """
    report = memory(workspace).init()
    if json_out:
        _echo_json({"workspace": report.workspace, "created": report.created, "kept": report.kept})
        return
    for path in report.created:
        typer.echo(f"created {path}")
    for path in report.kept:
        typer.echo(f"kept    {path} (already there)")
    typer.echo(f"next: write memory/YYYY-MM-DD.md, then graphmem -w {report.workspace} index")


@app.command()
@guarded
def index(
    force: Annotated[
        bool, typer.Option("--force", help="Re-read every file and rebuild from Markdown alone.")
    ] = False,
    json_out: JsonOpt = False,
    workspace: WorkspaceOpt = None,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet", "-q", help="No progress line and no summary (warnings still print)."
        ),
    ] = False,
) -> None:
    """Compile the workspace's Markdown into the graph (incremental; atomic).

    Example: graphmem -w ~/notes index
    """
    from graphmem.index.progress import ProgressLine
    from graphmem.memory import empty_notice

    with memory(workspace) as mem:
        terminal = sys.stderr.isatty() and not json_out and not quiet
        progress = ProgressLine(sys.stderr) if terminal else None
        try:
            report = mem.index(force=force, progress=progress, on_wait=_say_waiting)
        finally:
            if progress:
                progress.clear()
        empty = empty_notice(mem.workspace) if report.files == 0 else None
    if json_out:
        _echo_json(_index_dict(report) | {"notice": empty})
        return
    for warning in report.warnings if report.changed else ():
        typer.echo(f"warning: {warning}", err=True)
    for notice in report.degraded:
        typer.echo(f"notice: {notice}", err=True)
    if empty:
        typer.echo(f"notice: {empty}", err=True)
    if quiet:
        return
    if not report.changed:
        typer.echo(f"up to date ({report.files} files, {report.generation})")
        return
    counts = report.counts
    typer.echo(
        f"indexed {report.files} files ({report.parsed} parsed, {report.removed} removed, "
        f"{'incremental' if report.mode == 'delta' else 'full build'}) in "
        f"{report.seconds:.2f}s -> {report.generation}: "
        + ", ".join(
            f"{counts.get(table, 0)} {noun}"
            for table, noun in (
                ("Entity", "entities"),
                ("Fact", "facts"),
                ("Opinion", "opinions"),
                ("Passage", "passages"),
            )
        )
        + (f"; {len(report.warnings)} warnings" if report.warnings else "")
    )


@app.command()
@guarded
def status(json_out: JsonOpt = False, workspace: WorkspaceOpt = None) -> None:
    """Counts, freshness, what is degraded and why, and the last index's warnings.

    Example: graphmem status --json
    """
    from graphmem.memory import empty_notice

    with memory(workspace) as mem:
        st = mem.status()
        empty = empty_notice(mem.workspace) if st.files == 0 else None
    if json_out:
        data = st.__dict__ | {
            "fresh": st.fresh,
            "warnings": [str(w) for w in st.warnings],
            "notice": empty,
        }
        _echo_json(data)
        return
    typer.echo(f"workspace  {st.workspace}")
    if empty:
        typer.echo(f"files      0: {empty}")
    if st.generation is None:
        typer.echo(f"index      none yet ({st.files} files waiting); run `graphmem index`")
        return
    how = "incrementally" if st.index_mode == "delta" else "in full"
    typer.echo(f"index      {st.generation}, built {how} {st.built_at} in {st.index_seconds}s")
    fresh = (
        "fresh"
        if st.fresh
        else (
            f"stale: {len(st.stale)} changed, {len(st.new)} new, {len(st.deleted)} deleted file(s); "
            "run `graphmem index`"
        )
    )
    if not empty:
        typer.echo(f"files      {st.files} ({fresh})")
    counts = ", ".join(f"{v} {k}" for k, v in sorted(st.counts.items()))
    typer.echo(f"graph      {counts}")
    if st.vectors:
        from graphmem.index.vectorfill import describe

        typer.echo(f"vectors    {describe(st.vectors)}")
    for notice in st.degraded:
        typer.echo(f"degraded   {notice}")
    if not st.degraded:
        typer.echo("degraded   nothing: NER and embeddings are on")
    typer.echo(f"warnings   {len(st.warnings)}")
    for w in st.warnings:
        typer.echo(f"  {w}")


ParamOpt = Annotated[
    list[str] | None,
    typer.Option("--param", "-p", metavar="KEY=VALUE", help="A $parameter as key=value."),
]


@app.command()
@guarded
def cypher(
    statement: Annotated[str, typer.Argument(metavar="STATEMENT", help="A Cypher statement.")],
    param: ParamOpt = None,
    write: Annotated[
        bool, typer.Option("--write", help="Allow writes (they last until the next index).")
    ] = False,
    json_out: JsonOpt = False,
    csv_out: CsvOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Run your own Cypher against the graph (read-only unless --write).

    Example: graphmem cypher "MATCH (e:Entity) RETURN e.name LIMIT 5" --csv
    """
    fmt = _format(json_out, csv_out)
    with memory(workspace) as mem:
        rows = mem.cypher(statement, parse_params(param or []), write=write)
    typer.echo(render_rows(rows.columns, rows.rows, fmt))


def _say_waiting(message: str) -> None:
    """Tell the user, on stderr, that this command waits for another writer."""
    typer.echo(f"notice: {message}", err=True)


def parse_params(items: Sequence[str]) -> dict[str, Any]:
    """``key=value`` pairs; integers, floats and ISO dates are converted."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"{item!r}: expected key=value", param_hint="--param")
        out[key.strip().removeprefix("$")] = _convert(value)
    return out


def _convert(value: str) -> Any:
    for conv in (int, float, date.fromisoformat):
        try:
            return conv(value)
        except ValueError:
            continue
    return value


def _query_list(fmt: str) -> str:
    from graphmem.store.queries import FOR_PEOPLE, INTERNAL_STAGES, listing, stage_of

    queries = listing()
    if fmt != "table":
        rows = [
            [
                q.name,
                " ".join(f"${p}" for p in sorted(q.params)),
                q.description,
                "people" if stage_of(q.name) in FOR_PEOPLE else "internal",
                stage_of(q.name),
            ]
            for q in queries
        ]
        return render_rows(["name", "params", "description", "audience", "stage"], rows, fmt)

    def table(qs: Sequence[Any]) -> str:
        rows = [[q.name, " ".join(f"${p}" for p in sorted(q.params)), q.description] for q in qs]
        return render_table(["name", "params", "description"], rows)

    out = ["Queries to run yourself (graphmem query NAME --param key=value):", ""]
    out.append(table([q for q in queries if stage_of(q.name) in FOR_PEOPLE]))
    out += ["", "Internal queries, the steps of graphmem's own commands, by stage:"]
    for stage, used_by in INTERNAL_STAGES.items():
        qs = [q for q in queries if stage_of(q.name) == stage]
        if qs:
            out += ["", f"{stage}/ (run by {used_by}):", table(qs)]
    return "\n".join(out)


@app.command()
@guarded
def query(
    name: Annotated[
        str | None, typer.Argument(metavar="NAME", help="A named query, e.g. entity/facts.")
    ] = None,
    param: ParamOpt = None,
    list_: Annotated[bool, typer.Option("--list", help="List the named queries.")] = False,
    write: Annotated[
        bool,
        typer.Option("--write", help="Allow a query that writes (it lasts until the next index)."),
    ] = False,
    json_out: JsonOpt = False,
    csv_out: CsvOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Run a named query from queries/ (see --list); one that writes needs --write.

    Example: graphmem query entity/facts --param slug=peter
    """
    fmt = _format(json_out, csv_out)
    if list_ or name is None:
        typer.echo(_query_list(fmt))
        return
    with memory(workspace) as mem:
        result = mem.query(name, parse_params(param or []), write=write)
    typer.echo(render_rows(result.columns, result.rows, fmt))


KINDS = ("world", "experience", "observation", "opinion", "log")
DayOpt = Annotated[
    str | None,
    typer.Option(
        metavar="DAY", help="Only from this day on: 30d, 2w, 6m, 1y, yesterday or YYYY-MM-DD."
    ),
]
UntilOpt = Annotated[
    str | None,
    typer.Option(metavar="DAY", help="Only up to this day (same forms as --since)."),
]
NowOpt = Annotated[
    str | None,
    typer.Option(metavar="DAY", help="Reference date for relative days (default: today)."),
]


@app.command()
@guarded
def recall(
    question: Annotated[
        str,
        typer.Argument(metavar="QUESTION", help="What you want to remember, in plain words."),
    ],
    k: Annotated[
        int, typer.Option("--k", "-k", min=1, max=1000, metavar="N", help="How many results.")
    ] = 10,
    since: DayOpt = None,
    until: UntilOpt = None,
    as_of: Annotated[
        str | None,
        typer.Option(
            "--as-of",
            metavar="DAY",
            help="What was true on this day: superseded facts are left out.",
        ),
    ] = None,
    kind: Annotated[
        list[str] | None,
        typer.Option(
            "--kind",
            metavar="KIND",
            help="Only these kinds: world, experience, observation, opinion, log.",
        ),
    ] = None,
    budget: Annotated[
        int | None,
        typer.Option(min=1, metavar="TOKENS", help="Pack results until about this many tokens."),
    ] = None,
    now: NowOpt = None,
    preset: Annotated[
        str | None,
        typer.Option(
            metavar="NAME",
            help="Recall preset: default, lexical, precise, broad, or one of your config file's.",
        ),
    ] = None,
    json_out: JsonOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Find the memories that answer a question, with exact sources.

    Example: graphmem recall "where does Peter live?" --k 25 --since 30d
    """
    from graphmem.surfaces.render import render_packets

    with memory(workspace) as mem:
        result = mem.recall_result(
            question,
            k,
            since,
            until,
            as_of=as_of,
            kind=kind,
            budget=budget,
            now=now,
            preset=preset,
        )
    for notice in result.notices:
        typer.echo(f"notice: {notice}", err=True)
    if json_out:
        typer.echo(json.dumps([p.to_dict() for p in result.packets], ensure_ascii=False, indent=2))
        return
    typer.echo(render_packets(result.packets, _width()))
    if not result.packets:
        # No match is an answer, not a failure (exit 0, as `gh search` does): say what to try.
        hint = "try other words, a wider window (--since), or --preset broad"
        if not any(mem.workspace.glob("memory/*.md")) and not any(mem.workspace.glob("*.md")):
            hint = "the workspace has no Markdown yet: `graphmem init` lays it out"
        typer.echo(f"hint: {hint}; `graphmem status` shows what the index holds", err=True)


def _echo_wrapped(text: str, indent: str, first: str | None = None) -> None:
    """Print `text` wrapped between words at the terminal's width (nothing cut)."""
    from graphmem.surfaces.render import wrap

    for line in wrap(text, _width(), indent, first):
        typer.echo(line)


def _print_lines(title: str, lines: Sequence[Any]) -> None:
    if not lines:
        return
    typer.echo(f"\n{title}")
    for line in lines:
        conf = f"[c={line.confidence:.2f}] " if line.confidence is not None else ""
        when = f"{line.when}  " if line.when else ""
        text = " ".join(line.text.split())
        _echo_wrapped(f"{when}{conf}{text}  ({line.source})", "    ", "  - ")
        if line.note:
            _echo_wrapped(line.note, "        ", "      ")
        for ev in line.evidence[:6]:
            _echo_wrapped(f"evidence: {ev}", "        ", "      ")


NameArg = Annotated[
    str, typer.Argument(metavar="NAME", help="An entity's name, slug or alias (e.g. Pete).")
]


@app.command()
@guarded
def about(
    name: NameArg, now: NowOpt = None, json_out: JsonOpt = False, workspace: WorkspaceOpt = None
) -> None:
    """Entity card: aliases, current facts, what changed, opinions, recent events.

    Current facts are those that hold at --now (default today); related entities close it.

    Example: graphmem about Pete --now 2025-12-15
    """
    with memory(workspace) as mem:
        card = mem.about(name, now=now)
    if json_out:
        typer.echo(json.dumps(card.to_dict(), ensure_ascii=False, indent=2))
        return
    kind = f" ({card.kind})" if card.kind else ""
    typer.echo(f"{card.name}{kind}")
    if card.aliases:
        _echo_wrapped(f"aliases: {', '.join(card.aliases)}", "  ")
    seen = f"{card.first_seen} .. {card.last_seen}" if card.first_seen else "undated only"
    typer.echo(f"{card.mentions} mentions, {seen}" + (f"; page {card.page}" if card.page else ""))
    _print_lines("Current facts", card.current)
    _print_lines("What changed (superseded)", card.history)
    _print_lines("Opinions", card.opinions)
    _print_lines("Recent", card.recent)
    if card.related:
        typer.echo("")
        _echo_wrapped("Related: " + ", ".join(f"{n} ({c})" for _, n, c in card.related), "  ")


@app.command()
@guarded
def timeline(
    name: NameArg,
    since: DayOpt = None,
    until: UntilOpt = None,
    now: NowOpt = None,
    json_out: JsonOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Everything dated that mentions an entity, oldest first.

    Example: graphmem timeline Peter --since 2025-09-01
    """
    with memory(workspace) as mem:
        tl = mem.timeline(name, since, until, now=now)
    if json_out:
        typer.echo(json.dumps(tl.to_dict(), ensure_ascii=False, indent=2))
        return
    typer.echo(f"{tl.name}: {len(tl.events)} dated mentions")
    from graphmem.surfaces.render import kind_label

    when_w = max([len(line.when or "") for line in tl.events] + [10])
    for line in tl.events:
        lead = f"{line.when or '':<{when_w}}  {kind_label(line.kind, line.source):<11} "
        text = " ".join(line.text.split())
        _echo_wrapped(f"{text}  ({line.source})", " " * len(lead), lead)


# A bullet may start with "- " and hold an "h" ("- W @Peter: Bought…"): click would read
# it as a bundle of short flags, -h among them, so here only --help asks for help.
@app.command(context_settings={"ignore_unknown_options": True, "help_option_names": ["--help"]})
@guarded
def retain(
    bullet: Annotated[
        str,
        typer.Argument(
            metavar="BULLET",
            help="One typed bullet: W|B|O|O(c=0.8)|S @Entity: text (a leading '- ' is fine).",
        ),
    ],
    today: Annotated[
        str | None,
        typer.Option(metavar="DAY", help="The day's log to append to (default: today)."),
    ] = None,
    replaces: Annotated[
        str | None,
        typer.Option(
            metavar="PATH#Ln",
            help="The fact this bullet replaces (e.g. memory/2025-11-27.md#L12): the bullet "
            "ends in '(replaces PATH#Ln)' and the old fact ends; nothing is deleted.",
        ),
    ] = None,
    json_out: JsonOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Append a validated bullet to today's ## Retain section, then re-index that file.

    Example: graphmem retain "O(c=0.8) @Peter: Prefers voice notes"
    """
    with memory(workspace) as mem:
        result = mem.retain(bullet, today=today, replaces=replaces, on_wait=_say_waiting)
    _echo_retained(result, json_out, "retained")


@app.command()
@guarded
def retract(
    source: Annotated[
        str,
        typer.Argument(
            metavar="SOURCE",
            help="The fact or opinion line to retract, e.g. memory/2025-11-27.md#L12.",
        ),
    ],
    reason: Annotated[
        str | None,
        typer.Option(metavar="TEXT", help="Why it no longer holds (default: quotes the line)."),
    ] = None,
    today: Annotated[
        str | None,
        typer.Option(metavar="DAY", help="The day's log to write to (default: today)."),
    ] = None,
    json_out: JsonOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Write a dated retraction of a fact or opinion line, then re-index (nothing deleted).

    Example: graphmem retract memory/2025-11-27.md#L12 --reason "moved to Vienna"
    """
    with memory(workspace) as mem:
        result = mem.retract(source, reason=reason, today=today)
    _echo_retained(result, json_out, "retraction written", show=True)


def _echo_retained(result: RetainResult, json_out: bool, what: str, show: bool = False) -> None:
    if json_out:
        _echo_json(
            {
                "path": result.path,
                "line": result.line,
                "id": result.id,
                "source": result.source,
                "notice": result.notice,
                "warnings": list(result.warnings),
                "generation": result.report.generation if result.report else None,
            }
        )
        return
    for warning in result.warnings:
        typer.echo(f"warning: {warning}", err=True)
    if result.notice:
        typer.echo(f"notice: {result.notice}", err=True)
    typer.echo(f"{what} at {result.source}" + (f": - {result.text}" if show else ""))


@app.command()
@guarded
def opinions(
    entity: Annotated[
        str | None, typer.Option(metavar="NAME", help="Only opinions about this entity.")
    ] = None,
    why: Annotated[
        str | None,
        typer.Option(
            metavar="OPINION",
            help="Explain one opinion: every move with its delta, reason and cited line. "
            "OPINION: its citation (memory/2026-03-11.md#L16), id, or words of it.",
        ),
    ] = None,
    json_out: JsonOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Opinions: statement, confidence, last update, evidence for and against, history.

    Example: graphmem opinions --entity Peter
    Example: graphmem opinions --why memory/2026-03-11.md#L16
    """
    if why is not None:
        with memory(workspace) as mem:
            explained = mem.why(why)
        if json_out:
            typer.echo(json.dumps(explained.to_dict(), ensure_ascii=False, indent=2))
        else:
            _echo_why(explained)
        return
    with memory(workspace) as mem:
        views = mem.opinions(entity)
    if json_out:
        typer.echo(json.dumps([v.to_dict() for v in views], ensure_ascii=False, indent=2))
        return
    for v in views:
        stated = (
            f" (stated {v.stated:.2f})" if v.stated is not None and v.stated != v.confidence else ""
        )
        if v.clamped:
            stated = f" (written {v.written:g}, clamped to {v.stated:g})"
        gone = f"  [superseded by {v.superseded_by}]" if v.superseded_by else ""
        gone = f"  [{v.status}]{gone}" if v.status and v.status != "superseded" else gone
        head = f"{v.confidence:.2f}{stated}  "
        _echo_wrapped(f"{' '.join(v.statement.split())}{gone}", "      ", head)
        _echo_wrapped(
            f"{', '.join(v.entities)} · {v.source} · updated {v.last_updated or 'never'}",
            "        ",
            "      ",
        )
        for ev in v.supports:
            _echo_wrapped(f"+ {ev}", "          ", "      ")
        for ev in v.contradicts:
            _echo_wrapped(f"- {ev}", "          ", "      ")


def _echo_why(explained: OpinionWhy) -> None:
    v = explained.opinion
    stated = "none (default)" if v.stated is None else f"{v.stated:.2f}"
    stated += f" (written {v.written:g}, clamped)" if v.clamped else ""
    status = f" [{v.status}]" if v.status else ""
    _echo_wrapped(" ".join(v.statement.split()), "  ", "")
    typer.echo(f"  {v.source} · stated {stated} → now {v.confidence:.2f}{status}")
    if v.superseded_by:
        typer.echo(f"  superseded by {v.superseded_by}")
    if not explained.moves:
        typer.echo("  no move: no later evidence about its holder and topic was found")
        return
    for m in explained.moves:
        sign = "+" if m["relation"] == "supports" else "-"
        ending = f" [{m['ending']}]" if m.get("ending") else ""
        head = f"{sign} {m.get('day') or 'undated'}  {m['old']:.2f} → {m['new']:.2f} ({m['delta']:+.2f})"
        typer.echo(f"  {head}  {m['relation']}: {m['reason']}{ending}")
        typer.echo(f"      {m['source']}")
        if m["text"]:
            _echo_wrapped(f"“{m['text']}”", "        ", "      ")


@app.command()
@guarded
def reflect(
    since: Annotated[
        str, typer.Option(metavar="DAY", help="Window of new evidence: 7d, 30d, 2025-11-01, ...")
    ] = "7d",
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show confidence moves and page diffs; write nothing.")
    ] = False,
    now: Annotated[
        str | None,
        typer.Option(metavar="DAY", help="Reference date for --since (default today)."),
    ] = None,
    json_out: JsonOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Update beliefs from the window's evidence and regenerate bank/ (hand edits kept).

    Example: graphmem reflect --since 7d --dry-run
    """
    with memory(workspace) as mem:
        report = mem.reflect(since, dry_run=dry_run, now=now)
    changed = [p for p in report.pages if p.changed]
    skipped = [p for p in report.pages if p.reason]
    if json_out:
        _echo_json(
            {
                "since": report.since,
                "now": report.now,
                "dry_run": report.dry_run,
                "now_from": report.now_from,
                "moves": [
                    {"opinion": view.id, "statement": view.statement, "source": view.source}
                    | dict(move)
                    for view, move in report.moves
                ],
                "pages": [
                    {"path": p.path, "changed": p.changed, "reason": p.reason, "diff": p.diff}
                    for p in report.pages
                    if p.changed or p.reason
                ],
            }
        )
        return
    if report.now_from == "newest log":
        typer.echo(
            f"note: no log in the {since} before today; the window counts back from the newest"
            f" log, {report.now} (pass --now DAY to choose)",
            err=True,
        )
    typer.echo(
        f"confidence moves from evidence dated {report.since} .. {report.now}: {len(report.moves)}"
    )
    from graphmem.surfaces.render import wrap

    width = _width()
    for view, move in report.moves:
        why = " ".join(str(x) for x in (move["relation"], move.get("source")) if x)
        why += f": {move['reason']}" if move.get("reason") else ""
        why += f"; {move['day']}" if move.get("day") else " (undated)"
        head = f"  {move['old']:.2f} -> {move['new']:.2f}  "
        for line in wrap(" ".join(view.statement.split()), width, " " * len(head), head):
            typer.echo(line)
        for line in wrap(f"({why})", width, " " * len(head)):
            typer.echo(line)
    verb = "would change" if dry_run else "changed"
    typer.echo(f"bank pages {verb}: {len(changed)}")
    for page in changed:
        typer.echo(page.diff if dry_run else f"  {page.path}")
    for page in skipped:
        typer.echo(f"  left alone: {page.path}: {page.reason}", err=True)


@app.command()
@guarded
def watch(
    interval: Annotated[
        float, typer.Option(min=0.05, metavar="SECONDS", help="Seconds between checks.")
    ] = 1.0,
    debounce: Annotated[
        float,
        typer.Option(
            min=0.0, metavar="SECONDS", help="Quiet seconds after a change before indexing."
        ),
    ] = 1.0,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print one JSON object a line per event.")
    ] = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Re-index whenever the workspace's Markdown changes (incremental); Ctrl-C stops.

    Each warning about the input is printed once, when it first appears.

    Example: graphmem watch --interval 2
    """
    shown: set[str] = set()

    def emit(event: str, text: str, err: bool = False, **data: Any) -> None:
        if json_out:
            typer.echo(json.dumps(_plain({"event": event, **data}), ensure_ascii=False))
        else:
            typer.echo(text, err=err)

    def stamp() -> str:
        return datetime.now().strftime("%H:%M:%S")

    touched: list[str] = []

    def report(r: Any) -> None:
        new = [str(w) for w in r.warnings if str(w) not in shown]
        shown.update(new)
        if r.changed:
            what = ", ".join(touched) if touched else f"{r.parsed} file" + "s" * (r.parsed != 1)
            gone = f", {r.removed} removed" if r.removed else ""
            emit(
                "indexed",
                f"{stamp()} indexed {what}{gone} in {r.seconds:.2f}s -> {r.generation}",
                **_index_dict(r),
                paths=list(touched),
            )
            touched.clear()
        else:
            emit(
                "up-to-date",
                f"{stamp()} up to date ({r.files} files); watching {mem.workspace}",
                files=r.files,
                generation=r.generation,
            )
        for w in new:
            emit("warning", f"warning: {w}", err=True, warning=w)

    def deleted(paths: list[str]) -> None:
        emit("deleted", f"{stamp()} deleted: {', '.join(paths)}", paths=paths)

    def stop_on_term(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # a service manager's stop: finish like Ctrl-C

    previous = signal.signal(signal.SIGTERM, stop_on_term)
    with memory(workspace) as mem:
        try:
            mem.watch(
                interval=interval,
                debounce=debounce,
                on_index=report,
                on_busy=lambda msg: emit("busy", f"busy: {msg}", err=True, message=msg),
                on_deleted=deleted,
                on_changed=lambda paths: touched.extend(paths),
            )
        except KeyboardInterrupt:
            emit("stopped", "stopped")
        finally:
            signal.signal(signal.SIGTERM, previous)


@app.command()
@guarded
def serve(workspace: WorkspaceOpt = None) -> None:
    """Run the MCP server on stdio, for agents (its stdout is the protocol: no --json).

    Tools: memory_recall, memory_about, memory_timeline, memory_retain, memory_retract,
    memory_get, memory_status, memory_core_list, memory_core_apply.

    Example: graphmem -w ~/notes serve
    """
    from graphmem.surfaces.mcp import serve_stdio

    serve_stdio(settings(workspace))


@app.command()
@guarded
def daemon(
    idle: Annotated[
        float,
        typer.Option(
            min=0.0, metavar="SECONDS", help="Stop after this long without a command (0: never)."
        ),
    ] = 900.0,
    background: Annotated[
        bool, typer.Option("--background", help="Start it in the background and return.")
    ] = False,
    stop: Annotated[bool, typer.Option("--stop", help="Stop the workspace's daemon.")] = False,
    show: Annotated[bool, typer.Option("--status", help="Say whether one is running.")] = False,
    json_out: JsonOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Keep the index and models loaded, so later commands answer fast.

    `recall`, `about`, `timeline`, `status` and `index` go through it when it runs; without
    one they run in-process, with the same output.

    Example: graphmem daemon --background
    """
    from graphmem.surfaces.daemon import server

    s = settings(workspace)
    if stop:
        pid = server.stop(s)
        if json_out:
            _echo_json({"stopped": pid is not None, "pid": pid})
        else:
            typer.echo(f"stopped pid {pid}" if pid else f"no graphmem daemon serves {s.workspace}")
        return
    if show:
        info = server.ping(server.socket_path(str(s.workspace)))
        if json_out:
            _echo_json({"running": info is not None} | (info or {}))
        elif info is None:
            typer.echo(f"no graphmem daemon serves {s.workspace}")
        else:
            typer.echo(
                f"running: pid {info['pid']}, {info['commands']} command(s), idle for "
                f"{info['idle_for']}s (stops after {info['idle_timeout']:g}s)"
            )
        return
    if background:
        pid = server.start_background(s, idle)
        if json_out:
            _echo_json({"running": True, "pid": pid})
        else:
            typer.echo(f"graphmem daemon pid {pid} serves {s.workspace} (idle timeout {idle:g}s)")
        return

    def ready(d: Any) -> None:
        message = f"graphmem daemon pid {d.describe()['pid']} serves {s.workspace} on {d.path}"
        if json_out:
            typer.echo(json.dumps({"event": "ready", "pid": d.describe()["pid"], "socket": d.path}))
        else:
            typer.echo(f"{message} (idle timeout {idle:g}s; Ctrl-C stops)", err=True)

    done = server.run_daemon(s, idle, on_ready=ready)
    if json_out:
        typer.echo(json.dumps({"event": "stopped", "commands": done.commands}))
    else:
        typer.echo(f"graphmem daemon stopped after {done.commands} command(s)", err=True)


@app.command()
@guarded
def export(
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            metavar="FORMAT",
            help="graphml (Gephi, yEd), cypher (CSVs + load scripts) or csv.",
        ),
    ] = "graphml",
    out: Annotated[
        Path,
        typer.Option(
            "--out", metavar="DIR", help="Folder to write into (graphml: or a .graphml file)."
        ),
    ] = Path("graphmem-export"),
    json_out: JsonOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Export the graph for Gephi/yEd (GraphML) or a Neo4j/Memgraph/Kùzu server (CSV + Cypher).

    Example: graphmem export --format graphml --out graph
    """
    with memory(workspace) as mem:
        report = mem.export(fmt, out)
    total = sum(report.counts.values())
    if json_out:
        _echo_json(
            {
                "format": report.format,
                "out": str(report.out),
                "counts": dict(report.counts),
                "files": [str(f) for f in report.files],
            }
        )
        return
    files = f"{len(report.files)} file" + ("" if len(report.files) == 1 else "s")
    typer.echo(f"wrote {files} to {report.out} ({total} nodes and relationships)")


# ----------------------------------------------------------------------------- push (scale-out)


@app.command()
@guarded
def push(
    to: Annotated[
        str,
        typer.Option(
            "--to",
            metavar="URL",
            envvar="GRAPHMEM_PUSH_TO",
            help="The FalkorDB server, e.g. redis://:PASSWORD@127.0.0.1:6379 "
            "(or $GRAPHMEM_PUSH_TO, which keeps a password off the command line).",
        ),
    ],
    graph: Annotated[
        str,
        typer.Option("--graph", metavar="NAME", help="The server graph many workspaces share."),
    ] = "graphmem",
    as_name: Annotated[
        str | None,
        typer.Option(
            "--as",
            metavar="NAME",
            help="This workspace's name in the graph (default: its folder's name); naming it "
            "explicitly also takes over a name pushed from another folder or machine.",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Delete this workspace's part and send it all again.")
    ] = False,
    batch: Annotated[
        int, typer.Option("--batch", min=1, metavar="N", help="Rows per UNWIND batch.")
    ] = 1000,
    json_out: JsonOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Push the compiled graph into a shared FalkorDB graph (incremental: only what changed).

    Example: graphmem push --to redis://127.0.0.1:6379
    """
    from graphmem.export.falkordb.push import push_workspace
    from graphmem.index.progress import ProgressLine

    progress = ProgressLine(sys.stderr) if sys.stderr.isatty() and not json_out else None
    try:
        report = push_workspace(
            settings(workspace),
            to,
            graph=graph,
            name=as_name,
            force=force,
            batch_size=batch,
            progress=progress,
        )
    finally:
        if progress:
            progress.clear()
    if json_out:
        _echo_json(report.as_dict())
        return
    where = f"{report.target} graph {report.graph} as {report.workspace!r}"
    if not report.changed:
        typer.echo(f"up to date: {where} ({report.generation}), {report.seconds:.2f}s")
        return
    kinds = ", ".join(
        f"{k.kind} +{k.sent}/-{k.deleted}" for k in report.kinds if k.sent or k.deleted
    )
    typer.echo(
        f"pushed {report.generation} to {where}"
        + (f" (full: {report.reason})" if report.reason else "")
        + f": {report.sent} sent, {report.deleted} deleted in {report.batches} batches, "
        f"{report.seconds:.2f}s ({kinds})"
    )


config_app = typer.Typer(
    no_args_is_help=True,
    help="Show the resolved configuration.\n\nExample: graphmem config show",
)
app.add_typer(config_app, name="config")


@config_app.command("show")
@guarded
def config_show(json_out: JsonOpt = False, workspace: WorkspaceOpt = None) -> None:
    """Every setting with its value and where it came from (flag > env > file > default).

    Example: graphmem config show --json
    """
    from dataclasses import asdict

    s = settings(workspace)
    values = {
        "workspace": str(s.workspace),
        "buffer_pool_mb": s.buffer_pool_mb,
        "ner_model": s.ner_model,
        "embed_model": s.embed_model,
        "model_cache": str(s.model_cache) if s.model_cache is not None else None,
        "large_file_bytes": s.large_file_bytes,
        "recall_preset": s.recall_preset,
        "recall": asdict(s.recall),
    }
    if json_out:
        data = {k: {"value": v, "from": s.origins.get(k, "default")} for k, v in values.items()}
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    for key, value in values.items():
        if key == "recall":
            typer.echo(f"recall ({s.origins.get('recall', 'preset ' + s.recall_preset)}):")
            for k, v in value.items():  # type: ignore[attr-defined]
                typer.echo(f"  {k:<22} {v}")
            continue
        typer.echo(f"{key:<24} {value!s:<32} from {s.origins.get(key, 'default')}")


entities_app = typer.Typer(
    no_args_is_help=False,
    help="List entities, or merge two into one (edits a bank page).\n\n"
    "Example: graphmem entities merge Peter Pete",
)
app.add_typer(entities_app, name="entities")


@entities_app.callback(invoke_without_command=True)
@guarded
def entities(ctx: typer.Context, json_out: JsonOpt = False, workspace: WorkspaceOpt = None) -> None:
    """Entities with kind, aliases, mention counts and first/last day seen.

    Example: graphmem entities --json
    """
    if ctx.invoked_subcommand is not None:
        if workspace is not None:
            settings(workspace)
        return
    with memory(workspace) as mem:
        found = mem.entities()
    if json_out:
        _echo_json([e.to_dict() for e in found])
        return
    from graphmem.surfaces.render import render_entities

    rows = [(e.name, e.kind, e.mentions, e.first_seen, e.last_seen, e.aliases) for e in found]
    typer.echo(render_entities(rows, _width()))


@entities_app.command("merge")
@guarded
def entities_merge(
    keep: Annotated[
        str, typer.Argument(metavar="KEEP", help="The entity to keep (name, slug or alias).")
    ],
    alias: Annotated[
        str, typer.Argument(metavar="ALIAS", help="The entity that becomes its alias.")
    ],
    json_out: JsonOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Record B as an alias of A on A's bank page, then re-index.

    Example: graphmem entities merge Peter Pete
    """
    with memory(workspace) as mem:
        result = mem.merge(keep, alias)
    if json_out:
        _echo_json(
            {
                "page": result.page,
                "added": list(result.added),
                "generation": result.report.generation,
            }
        )
        return
    if result.added:
        typer.echo(f"{result.page}: added alias {', '.join(result.added)}; re-indexed")
    else:
        typer.echo(f"{result.page} already lists them; nothing to change")


core_app = typer.Typer(
    no_args_is_help=True,
    help="Core memory (memory.md / MEMORY.md): list reflect's proposals, apply one.\n\n"
    "Example: graphmem core apply 1 --dry-run",
)
app.add_typer(core_app, name="core")


@core_app.command("list")
@guarded
def core_list(json_out: JsonOpt = False, workspace: WorkspaceOpt = None) -> None:
    """Numbered proposals: stale core lines with what superseded them, durable facts to add.

    Example: graphmem core list
    """
    with memory(workspace) as mem:
        found = mem.core_proposals()
    if json_out:
        _echo_json([p.to_dict() for p in found])
        return
    if not found:
        typer.echo("no core proposals")
    for p in found:
        cites = ", ".join(p.evidence)
        if p.action == "update":
            typer.echo(f"{p.number}. update {p.source}: {p.old.strip()}")
        else:
            typer.echo(f"{p.number}. add to {p.source}:")
        typer.echo(f"   -> {p.new.strip()}")
        typer.echo(f"   evidence: {cites} ({p.reason})")


@core_app.command("apply")
@guarded
def core_apply(
    number: Annotated[int, typer.Argument(metavar="N", help="The proposal's number (core list).")],
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print the diff; change nothing.")
    ] = False,
    json_out: JsonOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Apply proposal N as a minimal, atomic edit of the core file, then re-index.

    Example: graphmem core apply 1 --dry-run
    """
    with memory(workspace) as mem:
        applied = mem.core_apply(number, dry_run=dry_run)
    if json_out:
        _echo_json(
            {
                **applied.proposal.to_dict(),
                "diff": applied.diff,
                "dry_run": applied.dry_run,
                "generation": applied.index.generation if applied.index else None,
            }
        )
        return
    typer.echo(applied.diff, nl=False)
    if not dry_run:
        typer.echo(f"applied proposal {number} to {applied.proposal.path}; re-indexed")


def click_command() -> Any:
    """The app as a Click command. ``app()`` builds this from the Typer signatures on every
    call (~70 ms); ``graphmem daemon``, which runs many commands, builds it once."""
    return typer.main.get_command(app)


def main() -> None:
    """Entry point of the ``graphmem`` script."""
    app()
