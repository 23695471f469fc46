"""The ``graphmem`` command line: each command parses arguments, makes one library call,
and renders. The only module that imports typer."""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Callable, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Annotated, Any

import typer

from graphmem.config import Settings, resolve_settings
from graphmem.errors import GraphmemError

app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    help="Offline knowledge-graph memory for AI agents: Markdown in, cited recall out.",
    pretty_exceptions_enable=False,
)


class _State:
    settings: Settings | None = None


state = _State()


@app.callback()
def _main(
    workspace: Annotated[
        Path | None,
        typer.Option(
            "--workspace",
            "-w",
            help="Workspace folder (default: $GRAPHMEM_WORKSPACE, else ~/.openclaw/workspace).",
        ),
    ] = None,
) -> None:
    try:
        state.settings = resolve_settings(workspace)
    except GraphmemError as exc:
        raise fail(str(exc)) from None


def settings() -> Settings:
    """The settings resolved by the callback (or from the environment)."""
    return state.settings or resolve_settings()


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print an error for a person and exit non-zero."""
    typer.echo(f"graphmem: {message}", err=True)
    return typer.Exit(code)


def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Turn library errors into one clear line on stderr and exit code 1."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GraphmemError as exc:
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


@app.command()
@guarded
def index(
    force: Annotated[
        bool, typer.Option("--force", help="Re-read every file and rebuild from Markdown alone.")
    ] = False,
) -> None:
    """Compile the workspace's Markdown into the graph (incremental; atomic)."""
    from graphmem.index import index_workspace

    s = settings()
    progress = _progress_bar() if sys.stderr.isatty() else None
    report = index_workspace(s, force=force, progress=progress)
    if progress:
        typer.echo("", err=True)
    for warning in report.warnings if report.changed else ():
        typer.echo(f"warning: {warning}", err=True)
    for notice in report.degraded:
        typer.echo(f"notice: {notice}", err=True)
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


def _progress_bar() -> Callable[[str, int, int], None]:
    last: dict[str, int] = {}

    def show(stage: str, done: int, total: int) -> None:
        if total and (done == total or done - last.get(stage, -100) >= max(1, total // 50)):
            last[stage] = done
            filled = int(30 * done / total)
            sys.stderr.write(f"\r{stage:<6} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total}")
            sys.stderr.flush()

    return show


@app.command()
@guarded
def status(json_out: JsonOpt = False) -> None:
    """Counts, freshness, what is degraded and why, and the last index's warnings."""
    from graphmem.api import status as get_status

    st = get_status(settings())
    if json_out:
        data = _plain(st.__dict__ | {"fresh": st.fresh, "warnings": [str(w) for w in st.warnings]})
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    typer.echo(f"workspace  {st.workspace}")
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
    typer.echo(f"files      {st.files} ({fresh})")
    counts = ", ".join(f"{v} {k}" for k, v in sorted(st.counts.items()))
    typer.echo(f"graph      {counts}")
    for notice in st.degraded:
        typer.echo(f"degraded   {notice}")
    if not st.degraded:
        typer.echo("degraded   nothing: NER and embeddings are on")
    typer.echo(f"warnings   {len(st.warnings)}")
    for w in st.warnings:
        typer.echo(f"  {w}")


@app.command()
@guarded
def cypher(
    statement: Annotated[str, typer.Argument(help="A Cypher statement.")],
    param: Annotated[
        list[str] | None, typer.Option("--param", "-p", help="A $parameter as key=value.")
    ] = None,
    write: Annotated[
        bool, typer.Option("--write", help="Allow writes (they last until the next index).")
    ] = False,
    json_out: JsonOpt = False,
    csv_out: CsvOpt = False,
) -> None:
    """Run your own Cypher against the graph (read-only unless --write)."""
    from graphmem.api import run_cypher

    fmt = _format(json_out, csv_out)
    rows = run_cypher(settings(), statement, parse_params(param or []), write=write)
    typer.echo(render_rows(rows.columns, rows.rows, fmt))


def parse_params(items: Sequence[str]) -> dict[str, Any]:
    """``key=value`` pairs; integers, floats and ISO dates are converted."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"{item!r}: expected key=value")
        out[key.strip()] = _convert(value)
    return out


def _convert(value: str) -> Any:
    for conv in (int, float, date.fromisoformat):
        try:
            return conv(value)
        except ValueError:
            continue
    return value


@app.command()
@guarded
def query(
    name: Annotated[str | None, typer.Argument(help="A named query, e.g. entity/facts.")] = None,
    param: Annotated[
        list[str] | None, typer.Option("--param", "-p", help="A $parameter as key=value.")
    ] = None,
    list_: Annotated[bool, typer.Option("--list", help="List the named queries.")] = False,
    json_out: JsonOpt = False,
    csv_out: CsvOpt = False,
) -> None:
    """Run a named query from queries/ (see --list)."""
    from graphmem.api import run_named
    from graphmem.queries import catalog

    fmt = _format(json_out, csv_out)
    if list_ or name is None:
        rows = [
            [q.name, " ".join(f"${p}" for p in sorted(q.params)), q.description]
            for q in catalog().values()
        ]
        typer.echo(render_rows(["name", "params", "description"], rows, fmt))
        return
    result = run_named(settings(), name, parse_params(param or []))
    typer.echo(render_rows(result.columns, result.rows, fmt))


def _day_option(value: str | None, now: date, name: str, *, end: bool = False) -> date | None:
    from graphmem.timex import parse_window

    if value is None:
        return None
    try:
        return parse_window(value, now, end=end)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint=name) from None


def _now(value: str | None) -> date:
    if value is None:
        return date.today()
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        raise typer.BadParameter(
            f"{value!r} is not an ISO date (YYYY-MM-DD)", param_hint="--now"
        ) from None


KINDS = ("world", "experience", "observation", "opinion", "log")


@app.command()
@guarded
def recall(
    question: Annotated[str, typer.Argument(help="What you want to remember, in plain words.")],
    k: Annotated[int, typer.Option("--k", min=1, max=1000, help="How many results.")] = 10,
    since: Annotated[
        str | None,
        typer.Option(help="Only from this day on: 30d, 2w, 6m, 1y, yesterday or YYYY-MM-DD."),
    ] = None,
    until: Annotated[
        str | None, typer.Option(help="Only up to this day (same forms as --since).")
    ] = None,
    as_of: Annotated[
        str | None,
        typer.Option("--as-of", help="What was true on this day: superseded facts are left out."),
    ] = None,
    kind: Annotated[
        list[str] | None,
        typer.Option(
            "--kind", help="Only these kinds: world, experience, observation, opinion, log."
        ),
    ] = None,
    budget: Annotated[
        int | None, typer.Option(min=1, help="Pack results until about this many tokens.")
    ] = None,
    now: Annotated[
        str | None, typer.Option(help="Reference date for relative times (default: today).")
    ] = None,
    preset: Annotated[
        str | None,
        typer.Option(
            help="Recall preset: default, lexical, precise, broad, or one of your config file's."
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> None:
    """Find the memories that answer a question, with exact sources."""
    from graphmem.config import ConfigError
    from graphmem.recall import RecallOptions
    from graphmem.recall import recall as run_recall

    today = _now(now)
    kinds = frozenset(kind) if kind else None
    if kinds and not kinds <= set(KINDS):
        raise typer.BadParameter(f"choose from {', '.join(KINDS)}", param_hint="--kind")
    s = settings()
    if preset is not None:
        try:
            s = resolve_settings(s.workspace, recall_preset=preset)
        except ConfigError as exc:
            raise typer.BadParameter(str(exc), param_hint="--preset") from None
    config = s.recall
    options = RecallOptions(
        k=k,
        now=today,
        since=_day_option(since, today, "--since"),
        until=_day_option(until, today, "--until", end=True),
        as_of=_day_option(as_of, today, "--as-of", end=True),
        kinds=kinds,
        budget=budget,
        config=config,
    )
    result = run_recall(s, question, options)
    for notice in result.notices:
        typer.echo(f"notice: {notice}", err=True)
    if json_out:
        typer.echo(json.dumps([p.to_dict() for p in result.packets], ensure_ascii=False, indent=2))
        return
    rows = [
        [
            i,
            f"{p.score:.3f}",
            p.kind,
            p.timestamp or "",
            p.source,
            (f"[c={p.confidence:.2f}] " if p.confidence is not None else "") + p.content,
            ", ".join(p.entities),
        ]
        for i, p in enumerate(result.packets, start=1)
    ]
    typer.echo(
        render_table(
            ["#", "score", "kind", "when", "source", "content", "entities"], rows, width=70
        )
    )


def _print_lines(title: str, lines: Sequence[Any]) -> None:
    if not lines:
        return
    typer.echo(f"\n{title}")
    for line in lines:
        conf = f"[c={line.confidence:.2f}] " if line.confidence is not None else ""
        when = f"{line.when}  " if line.when else ""
        typer.echo(f"  - {when}{conf}{line.text.splitlines()[0][:160]}  ({line.source})")
        if line.note:
            typer.echo(f"      {line.note}")
        for ev in line.evidence[:6]:
            typer.echo(f"      evidence: {ev}")


@app.command()
@guarded
def about(
    name: Annotated[str, typer.Argument(help="An entity's name, slug or alias (e.g. Pete).")],
    json_out: JsonOpt = False,
) -> None:
    """Entity card: aliases, current facts, superseded history, opinions, recent events, related."""
    from graphmem.about import open_card

    card = open_card(settings(), name)
    if json_out:
        typer.echo(json.dumps(card.to_dict(), ensure_ascii=False, indent=2))
        return
    kind = f" ({card.kind})" if card.kind else ""
    typer.echo(f"{card.name}{kind}")
    if card.aliases:
        typer.echo(f"aliases: {', '.join(card.aliases)}")
    seen = f"{card.first_seen} .. {card.last_seen}" if card.first_seen else "undated only"
    typer.echo(f"{card.mentions} mentions, {seen}" + (f"; page {card.page}" if card.page else ""))
    _print_lines("Current facts", card.current)
    _print_lines("What changed (superseded)", card.history)
    _print_lines("Opinions", card.opinions)
    _print_lines("Recent", card.recent)
    if card.related:
        typer.echo("\nRelated: " + ", ".join(f"{n} ({c})" for _, n, c in card.related))


@app.command()
@guarded
def timeline(
    name: Annotated[str, typer.Argument(help="An entity's name, slug or alias.")],
    since: Annotated[str | None, typer.Option(help="From this day (30d, 2025-09-01, ...).")] = None,
    until: Annotated[str | None, typer.Option(help="Up to this day.")] = None,
    now: Annotated[str | None, typer.Option(help="Reference date for relative days.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Everything dated that mentions an entity, oldest first."""
    from graphmem.about import timeline as get_timeline
    from graphmem.api import open_graph

    today = _now(now)
    with open_graph(settings()) as graph:
        entity, lines = get_timeline(
            graph,
            name,
            _day_option(since, today, "--since"),
            _day_option(until, today, "--until", end=True),
        )
    if json_out:
        typer.echo(
            json.dumps(
                {"entity": entity["slug"], "events": [x.to_dict() for x in lines]},
                ensure_ascii=False,
                indent=2,
            )
        )
        return
    typer.echo(f"{entity['name']}: {len(lines)} dated mentions")
    for line in lines:
        typer.echo(
            f"{line.when or '':<24} {line.kind:<11} {line.text.splitlines()[0][:110]}  ({line.source})"
        )


@app.command()
@guarded
def retain(
    bullet: Annotated[str, typer.Argument(help="One typed bullet: W|B|O|O(c=0.8)|S @Entity: text")],
    today: Annotated[
        str | None, typer.Option(help="The day's log to append to (default: today).")
    ] = None,
) -> None:
    """Append a validated bullet to today's ## Retain section, then re-index that file."""
    from graphmem.retain import retain as do_retain

    result = do_retain(settings(), bullet, today=_now(today))
    if result.notice:
        typer.echo(f"notice: {result.notice}", err=True)
    typer.echo(f"retained at {result.source}")


@app.command()
@guarded
def opinions(
    entity: Annotated[str | None, typer.Option(help="Only opinions about this entity.")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Opinions: statement, confidence, last update, evidence for and against, history."""
    from graphmem.api import open_graph
    from graphmem.reflect import opinions as list_opinions

    with open_graph(settings()) as graph:
        views = list_opinions(graph, entity)
    if json_out:
        typer.echo(json.dumps([v.to_dict() for v in views], ensure_ascii=False, indent=2))
        return
    for v in views:
        stated = (
            f" (stated {v.stated:.2f})" if v.stated is not None and v.stated != v.confidence else ""
        )
        gone = f"  [superseded by {v.superseded_by}]" if v.superseded_by else ""
        typer.echo(f"{v.confidence:.2f}{stated}  {v.statement.splitlines()[0]}{gone}")
        typer.echo(
            f"      {', '.join(v.entities)} · {v.source} · updated {v.last_updated or 'never'}"
        )
        for ev in v.supports:
            typer.echo(f"      + {ev}")
        for ev in v.contradicts:
            typer.echo(f"      - {ev}")


@app.command()
@guarded
def reflect(
    since: Annotated[
        str, typer.Option(help="Window of new evidence: 7d, 30d, 2025-11-01, ...")
    ] = "7d",
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Show confidence moves and page diffs; write nothing.")
    ] = False,
    now: Annotated[
        str | None, typer.Option(help="Reference date for --since (default today).")
    ] = None,
) -> None:
    """Update beliefs from the window's evidence and regenerate bank/ (hand edits kept)."""
    from graphmem.reflect import reflect as run_reflect

    today = _now(now)
    start = _day_option(since, today, "--since")
    assert start is not None
    report = run_reflect(settings(), start, today, dry_run=dry_run)
    typer.echo(
        f"confidence moves from evidence dated {report.since} .. {report.now}: {len(report.moves)}"
    )
    for view, move in report.moves:
        typer.echo(
            f"  {move['old']:.2f} -> {move['new']:.2f}  {view.statement.splitlines()[0][:70]}"
            f"  ({move['relation']}: {move['reason']}; {move['day']})"
        )
    changed = [p for p in report.pages if p.changed]
    skipped = [p for p in report.pages if p.reason]
    verb = "would change" if dry_run else "changed"
    typer.echo(f"bank pages {verb}: {len(changed)}")
    for page in changed:
        typer.echo(page.diff if dry_run else f"  {page.path}")
    for page in skipped:
        typer.echo(f"  left alone: {page.path}: {page.reason}", err=True)


@app.command()
@guarded
def watch(
    interval: Annotated[float, typer.Option(min=0.05, help="Seconds between checks.")] = 1.0,
    debounce: Annotated[
        float, typer.Option(min=0.0, help="Quiet seconds after a change before indexing.")
    ] = 1.0,
) -> None:
    """Re-index whenever the workspace's Markdown changes (incremental); Ctrl-C stops."""
    from graphmem.watch import watch as run_watch

    def report(r: Any) -> None:
        stamp = datetime.now().strftime("%H:%M:%S")
        if r.changed:
            typer.echo(
                f"{stamp} indexed {r.parsed} changed file(s) in {r.seconds:.2f}s -> {r.generation}"
            )
            for w in r.warnings:
                typer.echo(f"warning: {w}", err=True)
        else:
            typer.echo(f"{stamp} up to date ({r.files} files); watching {settings().workspace}")

    try:
        run_watch(
            settings(),
            interval=interval,
            debounce=debounce,
            on_index=report,
            on_busy=lambda msg: typer.echo(f"busy: {msg}", err=True),
        )
    except KeyboardInterrupt:
        typer.echo("stopped")


@app.command()
@guarded
def serve() -> None:
    """Run the MCP server on stdio (tools: memory_recall, memory_about, memory_timeline,
    memory_retain, memory_get, memory_status)."""
    from graphmem.mcp_server import serve_stdio

    serve_stdio(settings())


@app.command()
@guarded
def export(
    fmt: Annotated[
        str,
        typer.Option("--format", help="graphml (Gephi, yEd), cypher (CSVs + load scripts) or csv."),
    ] = "graphml",
    out: Annotated[Path, typer.Option("--out", help="Folder to write into.")] = Path(
        "graphmem-export"
    ),
) -> None:
    """Export the graph for Gephi/yEd (GraphML) or a Neo4j/Memgraph/Kùzu server (CSV + Cypher)."""
    from graphmem.api import open_graph
    from graphmem.export import FORMATS, export_graph

    if fmt not in FORMATS:
        raise typer.BadParameter(f"choose from {', '.join(FORMATS)}", param_hint="--format")
    with open_graph(settings()) as graph:
        report = export_graph(graph, fmt, out)  # type: ignore[arg-type]
    total = sum(report.counts.values())
    typer.echo(f"wrote {len(report.files)} files to {report.out} ({total} nodes and relationships)")


config_app = typer.Typer(no_args_is_help=True, help="Show the resolved configuration.")
app.add_typer(config_app, name="config")


@config_app.command("show")
@guarded
def config_show(json_out: JsonOpt = False) -> None:
    """Every setting with its value and where it came from (flag > env > file > default)."""
    from dataclasses import asdict

    s = settings()
    values = {
        "workspace": str(s.workspace),
        "buffer_pool_mb": s.buffer_pool_mb,
        "ner_model": s.ner_model,
        "embed_model": s.embed_model,
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
    no_args_is_help=False, help="List entities, or merge two into one (edits a bank page)."
)
app.add_typer(entities_app, name="entities")


@entities_app.callback(invoke_without_command=True)
@guarded
def entities(ctx: typer.Context, json_out: JsonOpt = False) -> None:
    """Entities with kind, aliases, mention counts and first/last day seen."""
    if ctx.invoked_subcommand is not None:
        return
    from graphmem.api import run_named

    rows = run_named(settings(), "entity/list", {})
    columns = ["slug", "name", "kind", "aliases", "mentions", "first_seen", "last_seen", "page"]
    picked = [[r[c] for c in columns] for r in rows.dicts()]
    typer.echo(render_rows(columns, picked, "json" if json_out else "table"))


@entities_app.command("merge")
@guarded
def entities_merge(
    keep: Annotated[str, typer.Argument(help="The entity to keep (name, slug or alias).")],
    alias: Annotated[str, typer.Argument(help="The entity that becomes its alias.")],
) -> None:
    """Record B as an alias of A on A's bank page, then re-index."""
    from graphmem.merge import merge_entities

    result = merge_entities(settings(), keep, alias)
    if result.added:
        typer.echo(f"{result.page}: added alias {', '.join(result.added)}; re-indexed")
    else:
        typer.echo(f"{result.page} already lists them; nothing to change")


def main() -> None:
    """Entry point of the ``graphmem`` script."""
    app()
