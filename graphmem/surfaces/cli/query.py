"""``cypher`` and ``query``: your own Cypher, the named queries."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING, Annotated, Any

import typer

from graphmem.surfaces.cli.common import (
    CsvOpt,
    JsonOpt,
    WorkspaceOpt,
    _format,
    app,
    guarded,
    memory,
    render_rows,
    render_table,
)

if TYPE_CHECKING:
    pass


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
