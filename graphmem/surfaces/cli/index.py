"""``init``, ``index`` and ``status``: make and inspect the index."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from graphmem.surfaces.cli.common import (
    JsonOpt,
    WorkspaceOpt,
    _echo_json,
    _index_dict,
    _say_waiting,
    app,
    guarded,
    memory,
)

if TYPE_CHECKING:
    pass


@app.command()
@guarded
def init(json_out: JsonOpt = False, workspace: WorkspaceOpt = None) -> None:
    """Start a workspace: memory/, bank/entities/, the core file and a README of the syntax.

    The core file is MEMORY.md in a workspace OpenClaw laid out (AGENTS.md, SOUL.md, ...),
    else memory.md; one already there is kept.

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
        extra = [str(p) for p in mem.settings.extra_paths]
    if json_out:
        data = st.__dict__ | {
            "fresh": st.fresh,
            "warnings": [str(w) for w in st.warnings],
            "notice": empty,
            "extra_paths": extra,
        }
        _echo_json(data)
        return
    typer.echo(f"workspace  {st.workspace}")
    if extra:
        typer.echo(f"extra      {', '.join(extra)} (counted in files)")
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
        from graphmem.search.coverage import describe

        typer.echo(f"vectors    {describe(st.vectors)}")
    if st.ner:
        from graphmem.index.build import describe_ner

        typer.echo(f"ner        {describe_ner(st.ner)}")
    for notice in st.degraded:
        typer.echo(f"degraded   {notice}")
    if not st.degraded:
        typer.echo("degraded   nothing: NER and embeddings are on")
    typer.echo(f"warnings   {len(st.warnings)}")
    for w in st.warnings:
        typer.echo(f"  {w}")
