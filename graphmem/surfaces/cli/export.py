"""``export`` and ``push``: copies of the graph for other tools."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from graphmem.surfaces.cli.common import (
    JsonOpt,
    WorkspaceOpt,
    _echo_json,
    app,
    guarded,
    memory,
    settings,
)

if TYPE_CHECKING:
    pass


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
