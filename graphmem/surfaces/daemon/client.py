"""Ask a running ``graphmem daemon`` to run a command, else say to run it in-process (the
first step of the ``graphmem`` entry point, :mod:`graphmem.surfaces.entry`).

Only the standard library is imported before a daemon answers, so a delegated command
costs the interpreter's start-up, a connect and the daemon's work. Anything unusual
(``--help``, a command the daemon does not run, no socket, a socket of another user, a
daemon that is busy, runs other code or another environment) falls back to the ordinary
in-process CLI, which prints exactly what the daemon would have.

When no daemon ran the command, the ``graphmem`` script runs it in-process and then
(:func:`start_after`) starts one in the background for the workspace, so the next command
is fast: the way ssh-agent or gpg-agent are started by their first client. At most one
daemon per workspace is ever started: the client that starts one takes an exclusive
``flock`` on ``.memory/resident.lock`` and hands it to the daemon, which holds it for its
whole life; a client that finds it taken starts nothing.

``GRAPHMEM_RESIDENT`` chooses: ``on`` (the default: ask a daemon, start one after a cold
command), ``manual`` (ask a running daemon, never start one), ``off`` (neither).
``GRAPHMEM_RESIDENT_IDLE`` is the seconds without a command after which a daemon a client
started stops (default 900).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import stat
import sys
from collections.abc import Sequence
from typing import Any

from graphmem.surfaces.daemon.protocol import (
    COMMANDS,
    ERR,
    JSON,
    LOG_NAME,
    MEMORY_DIR,
    OUT,
    ProtocolError,
    address,
    code_stamp,
    lock_path,
    receive,
    relevant_env,
    send_json,
    socket_path,
)

#: Seconds to wait for the daemon to accept and say whether it runs the command. Generous:
#: on a loaded machine the daemon's thread may wait for a core; it answers before any work.
ANSWER_TIMEOUT = 5.0
OFF = {"0", "off", "no", "none", "false"}
MANUAL = "manual"
#: Seconds without a command after which a daemon a client started stops, unless
#: ``GRAPHMEM_RESIDENT_IDLE`` says otherwise (``graphmem daemon --idle``'s default too).
DEFAULT_IDLE = 900.0
MODE_ENV = "GRAPHMEM_RESIDENT"
IDLE_ENV = "GRAPHMEM_RESIDENT_IDLE"
DEFAULT_WORKSPACE = "~/.openclaw/workspace"  # graphmem.config.DEFAULT_WORKSPACE (a test checks)


def mode(env: dict[str, str] | os._Environ[str]) -> str:
    """``off``, ``manual`` or ``on``: what ``GRAPHMEM_RESIDENT`` asks for (unset or any other
    value: ``on``)."""
    value = env.get(MODE_ENV, "").strip().lower()
    if value in OFF:
        return "off"
    return MANUAL if value == MANUAL else "on"


def idle_seconds(env: dict[str, str] | os._Environ[str]) -> float:
    """``GRAPHMEM_RESIDENT_IDLE`` as seconds (0: never stop), else :data:`DEFAULT_IDLE`."""
    try:
        idle = float(env.get(IDLE_ENV, ""))
    except ValueError:
        return DEFAULT_IDLE
    return idle if idle >= 0 and idle == idle and idle != float("inf") else DEFAULT_IDLE


def target(argv: Sequence[str]) -> tuple[str, str | None] | None:
    """The command and the ``--workspace`` value `argv` names, as the CLI would read them
    (after the command wins over before it), or None when it is not one a daemon runs.

    A misreading is harmless: the daemon parses the line itself and runs a command for
    another workspace like a standalone process would (fresh, then closed)."""
    workspace: str | None = None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("-w", "--workspace"):
            if i + 1 >= len(argv):
                return None
            workspace, i = argv[i + 1], i + 2
        elif arg.startswith("--workspace="):
            workspace, i = arg.partition("=")[2], i + 1
        elif arg.startswith("-"):
            return None  # --help, --version, or a usage error: in-process
        else:
            break
    if i >= len(argv) or argv[i] not in COMMANDS:
        return None
    command, rest = argv[i], argv[i + 1 :]
    if "--help" in rest:
        return None
    j = 0
    while j < len(rest) and rest[j] != "--":
        if rest[j] in ("-w", "--workspace") and j + 1 < len(rest):
            workspace, j = rest[j + 1], j + 2
            continue
        if rest[j].startswith("--workspace="):
            workspace = rest[j].partition("=")[2]
        j += 1
    return command, workspace


def resolve_workspace(workspace: str | None, env: dict[str, str] | os._Environ[str]) -> str:
    """The workspace folder as :func:`graphmem.config.resolve_settings` resolves it."""
    if workspace is None:
        workspace = env.get("GRAPHMEM_WORKSPACE") or DEFAULT_WORKSPACE
    return os.path.realpath(os.path.expanduser(workspace))


def program_name() -> str:
    """The name usage messages use, as Click derives it (``graphmem``, ``python -m
    graphmem``)."""
    main_module = sys.modules.get("__main__")
    path = sys.argv[0] if sys.argv and sys.argv[0] else "graphmem"
    package = getattr(main_module, "__package__", None)
    if not package:
        return os.path.basename(path)
    name = os.path.splitext(os.path.basename(path))[0]
    module = package if name == "__main__" else f"{package}.{name}"
    return f"python -m {module.lstrip('.')}"


def terminal_size(fallback: tuple[int, int] = (100, 24)) -> tuple[int, int]:
    """``shutil.get_terminal_size(fallback)``, the size ``recall`` renders for, without
    importing shutil (~20 ms of a delegated call: it pulls in bz2, lzma, fnmatch)."""
    sizes = []
    for name in ("COLUMNS", "LINES"):
        try:
            sizes.append(int(os.environ[name]))
        except (KeyError, ValueError):
            sizes.append(0)
    columns, lines = sizes
    if columns <= 0 or lines <= 0:
        try:
            size = os.get_terminal_size(sys.__stdout__.fileno())  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            size = os.terminal_size(fallback)
        columns = columns if columns > 0 else size.columns or fallback[0]
        lines = lines if lines > 0 else size.lines or fallback[1]
    return columns, lines


def _stream_info(stream: Any) -> tuple[bool, str, str] | None:
    if stream is None or not hasattr(stream, "buffer"):
        return None
    try:
        tty = stream.isatty()
    except (OSError, ValueError):
        return None
    return tty, str(stream.encoding), str(stream.errors)


def connect(path: str, timeout: float = 1.0) -> socket.socket | None:
    """A connection to the daemon listening at `path`, or None (no daemon, a stale socket,
    or a socket this user does not own)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISSOCK(st.st_mode) or st.st_uid != os.getuid():
        return None
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    fd: int | None = None
    try:
        where, fd = address(path)
        sock.connect(where)
    except OSError:  # refused (stale socket), vanished, timed out
        sock.close()
        return None
    finally:
        if fd is not None:
            os.close(fd)
    return sock


def request(argv: Sequence[str], workspace: str) -> dict[str, Any] | None:
    """What the daemon needs to run `argv` as this process would, or None when this
    process's streams are unusual (no stdout, not text)."""
    out, err = _stream_info(sys.stdout), _stream_info(sys.stderr)
    if out is None or err is None:
        return None
    try:
        cwd = os.getcwd()
    except OSError:
        return None
    columns, lines = terminal_size()
    return {
        "argv": list(argv),
        "prog": program_name(),
        "cwd": cwd,
        "workspace": workspace,
        "env": relevant_env(os.environ),
        "stamp": code_stamp(),
        "tty": [out[0], err[0]],
        "encoding": [[out[1], out[2]], [err[1], err[2]]],
        "columns": columns,
        "lines": lines,
    }


def delegate(argv: Sequence[str]) -> int | None:
    """Run `argv` in a daemon for its workspace: its exit code, or None when no daemon ran
    it (the caller then runs it in-process)."""
    if mode(os.environ) == "off":
        return None
    found = target(argv)
    if found is None:
        return None
    workspace = resolve_workspace(found[1], os.environ)
    sock = connect(socket_path(workspace))
    if sock is None:
        return None
    with sock:
        message = request(argv, workspace)
        if message is None:
            return None
        try:
            send_json(sock, message)
            sock.settimeout(ANSWER_TIMEOUT)
            kind, payload = receive(sock)
            answer = json.loads(payload) if kind == JSON else {}
        except (OSError, ProtocolError, ValueError):
            return None
        if not answer.get("run"):
            return None  # declined: busy, another environment, other code
        sock.settimeout(None)
        try:
            return _relay(sock)
        except _Lost:
            return None


class _Lost(Exception):
    """The daemon went away before it wrote anything."""


def _relay(sock: socket.socket) -> int:
    """Copy the daemon's output to ours, in order, until it says how the command ended."""
    wrote = False
    try:
        while True:
            kind, payload = receive(sock)
            if kind == OUT or kind == ERR:
                stream = sys.stdout if kind == OUT else sys.stderr
                stream.buffer.write(payload)
                stream.buffer.flush()
                wrote = True
            elif kind == JSON:
                return int(json.loads(payload).get("exit", 1))
    except KeyboardInterrupt:
        sys.stderr.write("\nAborted!\n")
        return 1
    except (OSError, ProtocolError, ValueError) as exc:
        if not wrote:
            # Nothing shown yet: the caller runs the command in-process instead. Only
            # reached when the daemon dies mid-command, which an index survives (atomic).
            raise _Lost from exc
        sys.stderr.write(f"graphmem: the resident process stopped mid-command ({exc})\n")
        return 1


# ----------------------------------------------------------------------------- starting one


def take_lock(workspace: str) -> int | None:
    """An fd holding the exclusive lock of `workspace`'s daemon, or None when a daemon
    holds it (it runs, or is starting) or the index folder is missing or unwritable."""
    try:
        fd = os.open(lock_path(workspace), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def start_daemon(workspace: str, idle: float) -> Any:
    """Start ``graphmem daemon`` for `workspace` (a resolved path whose index folder exists)
    as a detached process whose stderr goes to ``.memory/resident.log``, handing it the
    lock; its ``subprocess.Popen``, or None when a daemon holds the lock already."""
    fd = take_lock(workspace)
    if fd is None:
        return None
    try:
        import subprocess

        cmd = [sys.executable, "-m", "graphmem", "daemon", "-w", workspace]
        cmd += ["--idle", repr(float(idle)), "--lock-fd", str(fd)]
        with open(os.path.join(workspace, MEMORY_DIR, LOG_NAME), "ab") as log:
            return subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                start_new_session=True,
                pass_fds=(fd,),
            )
    finally:
        os.close(fd)  # the daemon holds the lock now (the same open file), or nobody does


def start_after(argv: Sequence[str]) -> None:
    """After `argv` ran in-process: start a daemon for its workspace in the background when
    ``GRAPHMEM_RESIDENT`` is ``on``, the command is one a daemon runs and the workspace has
    an index folder; never when one runs or is starting. Never raises."""
    if mode(os.environ) != "on":
        return
    found = target(argv)
    if found is None:
        return
    workspace = resolve_workspace(found[1], os.environ)
    if not os.path.isdir(os.path.join(workspace, MEMORY_DIR)):
        return  # nothing indexed: nothing to keep warm (and no folder made for the lock)
    with contextlib.suppress(Exception):
        sys.stdout.flush()  # the answer is shown before anything else happens
        sys.stderr.flush()
        start_daemon(workspace, idle_seconds(os.environ))
