"""What every command shares: the Typer app and its help, the settings and the Memory a
command works through, errors as text or JSON, tables and CSV."""

from __future__ import annotations

import csv
import functools
import io
import json
import os
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
from graphmem.surfaces.state import state

if TYPE_CHECKING:
    from graphmem.memory import Memory


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
    extra_path: Annotated[
        list[Path] | None,
        typer.Option(
            "--extra-path",
            metavar="PATH",
            help="Also index this file or folder's Markdown as undated notes (repeatable; "
            "default: $GRAPHMEM_EXTRA_PATHS, else the config's extra_paths).",
        ),
    ] = None,
) -> None:
    state.extra_paths = extra_path or None
    try:
        state.settings = resolve_settings(workspace, extra_paths=state.extra_paths)
    except GraphmemError as exc:
        raise fail(str(exc)) from None


def settings(workspace: Path | None = None) -> Settings:
    """The settings: `workspace` given after the command name wins over the one before it
    (resolved by the callback) and the environment."""
    if workspace is not None:
        state.settings = resolve_settings(workspace, extra_paths=state.extra_paths)
    return state.settings or resolve_settings(extra_paths=state.extra_paths)


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
        "timings": dict(report.timings),
        "ner": dict(report.ner),
    }


def _say_waiting(message: str) -> None:
    """Tell the user, on stderr, that this command waits for another writer."""
    typer.echo(f"notice: {message}", err=True)


def _echo_wrapped(text: str, indent: str, first: str | None = None) -> None:
    """Print `text` wrapped between words at the terminal's width (nothing cut)."""
    from graphmem.surfaces.render import wrap

    for line in wrap(text, _width(), indent, first):
        typer.echo(line)


def click_command() -> Any:
    """The app as a Click command. ``app()`` builds this from the Typer signatures on every
    call (~70 ms); ``graphmem daemon``, which runs many commands, builds it once."""
    return typer.main.get_command(app)
