"""``watch``, ``serve`` and ``daemon``: the long-running processes."""

from __future__ import annotations

import json
import signal
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer

from graphmem.surfaces.cli.common import (
    JsonOpt,
    WorkspaceOpt,
    _echo_json,
    _index_dict,
    _plain,
    app,
    click_command,
    guarded,
    memory,
    settings,
)

if TYPE_CHECKING:
    pass


@app.command()
@guarded
def watch(
    interval: Annotated[
        float, typer.Option(min=0.05, metavar="SECONDS", help="Seconds between checks.")
    ] = 1.0,
    debounce: Annotated[
        float,
        typer.Option(
            min=0.0, metavar="SECONDS", help="Quiet seconds after a change before indexing."
        ),
    ] = 1.0,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print one JSON object a line per event.")
    ] = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Re-index whenever the workspace's Markdown changes (incremental); Ctrl-C stops.

    Each warning about the input is printed once, when it first appears.

    Example: graphmem watch --interval 2
    """
    shown: set[str] = set()

    def emit(event: str, text: str, err: bool = False, **data: Any) -> None:
        if json_out:
            typer.echo(json.dumps(_plain({"event": event, **data}), ensure_ascii=False))
        else:
            typer.echo(text, err=err)

    def stamp() -> str:
        return datetime.now().strftime("%H:%M:%S")

    touched: list[str] = []

    def report(r: Any) -> None:
        new = [str(w) for w in r.warnings if str(w) not in shown]
        shown.update(new)
        if r.changed:
            what = ", ".join(touched) if touched else f"{r.parsed} file" + "s" * (r.parsed != 1)
            gone = f", {r.removed} removed" if r.removed else ""
            emit(
                "indexed",
                f"{stamp()} indexed {what}{gone} in {r.seconds:.2f}s -> {r.generation}",
                **_index_dict(r),
                paths=list(touched),
            )
            touched.clear()
        else:
            emit(
                "up-to-date",
                f"{stamp()} up to date ({r.files} files); watching {mem.workspace}",
                files=r.files,
                generation=r.generation,
            )
        for w in new:
            emit("warning", f"warning: {w}", err=True, warning=w)

    def deleted(paths: list[str]) -> None:
        emit("deleted", f"{stamp()} deleted: {', '.join(paths)}", paths=paths)

    def stop_on_term(signum: int, frame: object) -> None:
        raise KeyboardInterrupt  # a service manager's stop: finish like Ctrl-C

    previous = signal.signal(signal.SIGTERM, stop_on_term)
    with memory(workspace) as mem:
        try:
            mem.watch(
                interval=interval,
                debounce=debounce,
                on_index=report,
                on_busy=lambda msg: emit("busy", f"busy: {msg}", err=True, message=msg),
                on_deleted=deleted,
                on_changed=lambda paths: touched.extend(paths),
            )
        except KeyboardInterrupt:
            emit("stopped", "stopped")
        finally:
            signal.signal(signal.SIGTERM, previous)


@app.command()
@guarded
def serve(workspace: WorkspaceOpt = None) -> None:
    """Run the MCP server on stdio, for agents (its stdout is the protocol: no --json).

    Tools: memory_recall, memory_about, memory_timeline, memory_retain, memory_retract,
    memory_get, memory_status, memory_core_list, memory_core_apply.

    Example: graphmem -w ~/notes serve
    """
    from graphmem.surfaces.mcp import serve_stdio

    serve_stdio(settings(workspace))


@app.command()
@guarded
def daemon(
    idle: Annotated[
        float,
        typer.Option(
            min=0.0, metavar="SECONDS", help="Stop after this long without a command (0: never)."
        ),
    ] = 900.0,
    background: Annotated[
        bool, typer.Option("--background", help="Start it in the background and return.")
    ] = False,
    stop: Annotated[bool, typer.Option("--stop", help="Stop the workspace's daemon.")] = False,
    show: Annotated[bool, typer.Option("--status", help="Say whether one is running.")] = False,
    lock_fd: Annotated[int | None, typer.Option("--lock-fd", hidden=True)] = None,
    json_out: JsonOpt = False,
    workspace: WorkspaceOpt = None,
) -> None:
    """Keep the index and models loaded, so later commands answer fast.

    `recall`, `about`, `timeline`, `status` and `index` go through it when it runs; without
    one they run in-process, with the same output, and then start one in the background
    (GRAPHMEM_RESIDENT=on, the default; `manual`: never start one; `off`: never use one).

    Example: graphmem daemon --background
    """
    from graphmem.surfaces.daemon import server

    s = settings(workspace)
    if stop:
        pid = server.stop(s)
        if json_out:
            _echo_json({"stopped": pid is not None, "pid": pid})
        else:
            typer.echo(f"stopped pid {pid}" if pid else f"no graphmem daemon serves {s.workspace}")
        return
    if show:
        info = server.ping(server.socket_path(str(s.workspace)))
        if json_out:
            _echo_json({"running": info is not None} | (info or {}))
        elif info is None:
            typer.echo(f"no graphmem daemon serves {s.workspace}")
        else:
            typer.echo(
                f"running: pid {info['pid']}, {info['commands']} command(s), idle for "
                f"{info['idle_for']}s (stops after {info['idle_timeout']:g}s)"
            )
        return
    if background:
        pid = server.start_background(s, idle)
        if json_out:
            _echo_json({"running": True, "pid": pid})
        else:
            typer.echo(f"graphmem daemon pid {pid} serves {s.workspace} (idle timeout {idle:g}s)")
        return

    def ready(d: Any) -> None:
        message = f"graphmem daemon pid {d.describe()['pid']} serves {s.workspace} on {d.path}"
        if json_out:
            typer.echo(json.dumps({"event": "ready", "pid": d.describe()["pid"], "socket": d.path}))
        else:
            typer.echo(f"{message} (idle timeout {idle:g}s; Ctrl-C stops)", err=True)

    done = server.run_daemon(s, click_command, idle, on_ready=ready, lock_fd=lock_fd)
    if json_out:
        typer.echo(json.dumps({"event": "stopped", "commands": done.commands}))
    else:
        typer.echo(f"graphmem daemon stopped after {done.commands} command(s)", err=True)
