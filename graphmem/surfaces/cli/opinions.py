"""``opinions`` and ``reflect``: the opinion bank and the window's moves."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from graphmem.surfaces.cli.common import (
    JsonOpt,
    WorkspaceOpt,
    _echo_json,
    _echo_wrapped,
    _width,
    app,
    guarded,
    memory,
)

if TYPE_CHECKING:
    from graphmem.reflect.run import OpinionWhy


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
