"""``recall``, ``about`` and ``timeline``: the reading commands."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any

import typer

from graphmem.surfaces.cli.common import (
    JsonOpt,
    WorkspaceOpt,
    _echo_wrapped,
    _width,
    app,
    guarded,
    memory,
)

if TYPE_CHECKING:
    pass


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
    _print_lines("Upcoming", card.upcoming)
    _print_lines("Timeline (events, trips, plans, ended states)", card.timeline)
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
