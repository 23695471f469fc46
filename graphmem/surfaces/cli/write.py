"""``retain`` and ``retract``: one typed bullet into a log, or out of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from graphmem.surfaces.cli.common import (
    JsonOpt,
    WorkspaceOpt,
    _echo_json,
    _say_waiting,
    app,
    guarded,
    memory,
)

if TYPE_CHECKING:
    from graphmem.edit.retain import RetainResult


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
