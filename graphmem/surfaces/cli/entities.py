"""``entities`` and ``entities merge``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from graphmem.surfaces.cli.common import (
    JsonOpt,
    WorkspaceOpt,
    _echo_json,
    _width,
    app,
    guarded,
    memory,
    settings,
)

if TYPE_CHECKING:
    pass


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
