"""``core list`` and ``core apply``: proposals for the core file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from graphmem.surfaces.cli.common import (
    JsonOpt,
    WorkspaceOpt,
    _echo_json,
    app,
    guarded,
    memory,
)

if TYPE_CHECKING:
    pass


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
