"""``graphmem daemon``: keep one workspace's index, models and imports warm for the CLI.

The daemon runs the real CLI (the Click command its starter hands it, built from
:data:`graphmem.surfaces.cli.app`) for each client, one command at a
time, with the client's arguments, working folder, terminal size and stream encodings,
and with stdout and stderr going back to the client frame by frame; so what a client
prints is what the same command run in-process prints. Its :class:`~graphmem.memory.Memory`
stays open between commands and reopens by itself when an ``index`` (any process's)
publishes a new generation.

It declines (and the client runs the command itself) when another command is running,
when the client's ``GRAPHMEM_*``, ``TZ`` or ``HOME`` differ from its own, when the command
is not one it runs, or when the client runs other code (and it stops when its own code
changed on disk: it is stale). It stops after `idle` seconds without a command, on
SIGTERM/SIGINT, on ``graphmem daemon --stop``, and when its socket file is removed or
replaced; it removes its socket when it stops. It holds an exclusive ``flock`` on
``.memory/resident.lock`` for its whole life (handed over by the client that started it,
:func:`graphmem.surfaces.daemon.client.start_daemon`), so one workspace never has two.

It warms up in the order a user waits for: the CLI and the index and query model first
(then it answers: ``warm``), the NER pipeline after (``ner``; an ``index`` waits for it).
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import signal
import socket
import struct
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from typing import Any

from graphmem.config import Settings
from graphmem.errors import GraphmemError, WorkspaceError
from graphmem.memory import Memory
from graphmem.search import seeds
from graphmem.surfaces import state
from graphmem.surfaces.daemon.client import DEFAULT_IDLE, connect, start_daemon, target
from graphmem.surfaces.daemon.protocol import (
    ERR,
    OUT,
    PER_REQUEST,
    ProtocolError,
    address,
    code_stamp,
    lock_path,
    receive_json,
    relevant_env,
    send,
    send_json,
    socket_path,
)

#: How often the accept loop looks at the clock and at its socket file.
TICK = 0.5
#: Seconds a connected client has to send its request.
REQUEST_TIMEOUT = 10.0
_PEERCRED = struct.Struct("3i")  # struct ucred: pid, uid, gid


class DaemonError(GraphmemError):
    """A daemon cannot start here (one already runs, or the socket cannot be made)."""


class ResidentMemory(Memory):
    """A :class:`Memory` that a command's ``with`` block leaves open for the next one."""

    def __exit__(self, *exc: object) -> None:
        return None


class _Sink(io.RawIOBase):
    """One of the client's streams: every write becomes a frame, in order. A client that
    hung up makes later writes vanish rather than fail the command (an index finishes)."""

    def __init__(self, conn: socket.socket, kind: bytes, tty: bool) -> None:
        self.conn, self.kind, self.tty, self.gone = conn, kind, tty, False

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return self.tty

    def write(self, data: Any) -> int:
        payload = bytes(data)
        if payload and not self.gone:
            try:
                send(self.conn, self.kind, payload)
            except OSError:
                self.gone = True
        return len(payload)


def _sink(conn: socket.socket, kind: bytes, tty: object) -> Any:
    # Any: TextIOWrapper's stubs want a buffered stream; a raw one works (writes go through).
    return _Sink(conn, kind, bool(tty))


def ping(path: str, timeout: float = 2.0) -> dict[str, Any] | None:
    """The answer of the daemon at `path` to a ping, or None when none answers."""
    sock = connect(path, timeout)
    if sock is None:
        return None
    with sock:
        try:
            send_json(sock, {"ping": True})
            return receive_json(sock)
        except (OSError, ProtocolError):
            return None


def stop(settings: Settings, timeout: float = 10.0) -> int | None:
    """Ask the workspace's daemon to stop; its pid, or None when none was running."""
    path = socket_path(str(settings.workspace))
    sock = connect(path, timeout)
    if sock is None:
        return None
    with sock:
        try:
            send_json(sock, {"stop": True})
            answer = receive_json(sock)
        except (OSError, ProtocolError):
            return None
    deadline = time.monotonic() + timeout
    while os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.05)
    return int(answer.get("pid", 0)) or None


class Daemon:
    """The resident process of one workspace (see the module)."""

    def __init__(
        self,
        settings: Settings,
        command: Callable[[], Any],
        idle: float = DEFAULT_IDLE,
        lock_fd: int | None = None,
    ) -> None:
        # A one-shot process searches vectors with sqlite-vec; from the third search on one
        # open index SeedIndex switches to a numpy matrix, whose float32 sums differ in the
        # last digits. The daemon keeps sqlite-vec, so its scores and ties are the CLI's.
        seeds.IN_MEMORY_AFTER = sys.maxsize
        self.settings = settings
        self.workspace = str(settings.workspace)
        self.path = socket_path(self.workspace)
        self.idle = idle
        self.stamp = code_stamp()
        self.env = self._compared(relevant_env(os.environ))
        self.busy = threading.Lock()
        self.stopping = threading.Event()
        self.warm = threading.Event()  # set once the index and query model are loaded
        self.ner = threading.Event()  # set once the NER pipeline is loaded (or is off)
        self.last = time.monotonic()
        self.memory: ResidentMemory | None = None
        self.commands = 0
        self._sock: socket.socket | None = None
        self._make_command = command  # builds the CLI's Click command, once
        self._click: Any = None
        self._inode: int | None = None
        self._lock_fd: int | None = None
        self._inherited_lock = lock_fd

    @staticmethod
    def _compared(env: dict[str, str]) -> dict[str, str]:
        return {k: v for k, v in env.items() if k not in PER_REQUEST}

    # ------------------------------------------------------------------ the socket

    def bind(self) -> None:
        """Create the socket (mode 0600), replacing a stale one; raise
        :class:`DaemonError` when a daemon already answers there."""
        if not os.path.isdir(self.workspace):
            raise DaemonError(
                f"workspace {self.workspace} does not exist",
                hint="pass --workspace DIR or set GRAPHMEM_WORKSPACE",
            )
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        self._lock()
        if os.path.lexists(self.path):
            answer = ping(self.path)
            if answer is not None:
                raise DaemonError(
                    f"a graphmem daemon (pid {answer.get('pid')}) already serves {self.workspace}",
                    hint="stop it with `graphmem daemon --stop`",
                )
            st = os.lstat(self.path)
            if st.st_uid != os.getuid():
                raise DaemonError(f"{self.path} belongs to another user; remove it")
            os.unlink(self.path)  # stale: its daemon died without cleaning up
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        where, fd = address(self.path)
        umask = os.umask(0o177)  # the socket file is created 0600, never wider
        try:
            sock.bind(where)
        except OSError as exc:
            sock.close()
            raise DaemonError(f"cannot listen on {self.path}: {exc}") from None
        finally:
            os.umask(umask)
            if fd is not None:
                os.close(fd)
        os.chmod(self.path, 0o600)
        sock.listen(16)
        sock.settimeout(TICK)
        self._sock, self._inode = sock, os.stat(self.path).st_ino

    def _lock(self) -> None:
        """Hold the workspace's daemon lock (the one the starting client handed over, when
        it is that file), or raise :class:`DaemonError`: another daemon holds it."""
        path = lock_path(self.workspace)
        fd = self._inherited_lock
        if fd is not None:
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(path))
            except OSError:
                same = False
            if not same:
                fd = None
        if fd is None:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            except OSError as exc:
                raise DaemonError(f"cannot open {path}: {exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a no-op on the handed-over one
        except OSError:
            os.close(fd)
            answer = ping(self.path)
            who = f" (pid {answer.get('pid')})" if answer else ""
            raise DaemonError(
                f"a graphmem daemon{who} already serves {self.workspace} (or is starting)",
                hint="stop it with `graphmem daemon --stop`",
            ) from None
        os.set_inheritable(fd, False)
        self._lock_fd = fd

    def _socket_is_ours(self) -> bool:
        try:
            return os.stat(self.path).st_ino == self._inode
        except OSError:
            return False

    def close(self) -> None:
        """Remove the socket (if it is still ours) and release the index."""
        if self._sock is not None:
            if self._socket_is_ours():
                with contextlib.suppress(OSError):
                    os.unlink(self.path)
            self._sock.close()
            self._sock = None
        if self.memory is not None:
            self.memory.close()
            self.memory = None
        if self._lock_fd is not None:  # last: a new daemon may start once the socket is gone
            os.close(self._lock_fd)
            self._lock_fd = None

    # ------------------------------------------------------------------ the loop

    def serve(self) -> None:
        """Answer clients until idle, stopped or orphaned; then clean up."""
        if self._sock is None:
            self.bind()
        assert self._sock is not None
        try:
            while not self.stopping.is_set():
                try:
                    conn, _ = self._sock.accept()
                except TimeoutError:
                    idle_for = time.monotonic() - self.last
                    if self.idle and idle_for > self.idle and not self.busy.locked():
                        break
                    if not self._socket_is_ours():
                        break  # .memory/ was deleted, or another daemon took over
                    continue
                except OSError:
                    break
                threading.Thread(target=self._handle, args=(conn,), daemon=True).start()
        finally:
            with self.busy:  # let a running command finish before the index closes
                self.close()

    def _handle(self, conn: socket.socket) -> None:
        with conn:
            try:
                creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _PEERCRED.size)
                if _PEERCRED.unpack(creds)[1] != os.getuid():
                    return  # another user: say nothing
                conn.settimeout(REQUEST_TIMEOUT)
                req = receive_json(conn)
                if req.get("ping"):
                    send_json(conn, self.describe())
                elif req.get("stop"):
                    send_json(conn, {"pid": os.getpid()})
                    self.stopping.set()
                else:
                    self._command(conn, req)
            except (OSError, ProtocolError):
                pass

    def describe(self) -> dict[str, Any]:
        """What ``--status`` and a ping report."""
        return {
            "pid": os.getpid(),
            "workspace": self.workspace,
            "commands": self.commands,
            "warm": self.warm.is_set(),
            "ner": self.ner.is_set(),
            "idle_timeout": self.idle,
            "idle_for": round(time.monotonic() - self.last, 1),
        }

    def decline_reason(self, req: dict[str, Any]) -> str | None:
        """Why the daemon will not run `req` (None: it will)."""
        argv = req.get("argv")
        if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
            return "bad request"
        found = target(argv)
        if found is None:  # the client's own reading: never `watch`, `daemon`, ...
            return "not a command the daemon runs"
        if req.get("stamp") != self.stamp:
            return "other code"
        if req.get("workspace") != self.workspace or not self._serves(found[1], req):
            return "another workspace"
        env = req.get("env")
        if not isinstance(env, dict) or self._compared(env) != self.env:
            return "another environment"
        return None

    def _serves(self, named: str | None, req: dict[str, Any]) -> bool:
        """Whether the ``--workspace`` the request's argv names (if any; relative to the
        client's folder) is this daemon's own: the ``workspace`` field alone proves nothing."""
        if named is None:
            return True
        cwd = req.get("cwd")
        base = cwd if isinstance(cwd, str) else "/"
        path = os.path.join(base, os.path.expanduser(named))
        return os.path.realpath(path) == os.path.realpath(self.workspace)

    def _command(self, conn: socket.socket, req: dict[str, Any]) -> None:
        why = self.decline_reason(req)
        if why is not None:
            send_json(conn, {"decline": why})
            if why == "other code" and code_stamp() != self.stamp:
                self.stopping.set()  # its own code changed on disk: let a new daemon start
            return
        if not self.busy.acquire(blocking=False):
            send_json(conn, {"decline": "busy"})
            return
        try:
            self.last = time.monotonic()
            conn.settimeout(None)
            send_json(conn, {"run": True})
            code = self.run(conn, req)
            self.commands += 1
            send_json(conn, {"exit": code})
        finally:
            self.last = time.monotonic()
            self.busy.release()

    # ------------------------------------------------------------------ one command

    def keep(self, settings: Settings) -> Memory:
        """The Memory a command gets: the resident one for this workspace and settings
        (made anew when the settings changed, e.g. graphmem.toml), else a plain one."""
        if os.path.realpath(settings.workspace) != os.path.realpath(self.workspace):
            # A request's environment or argv named another workspace: a daemon serves
            # its own and refuses the rest (the client runs those itself).
            raise WorkspaceError(
                f"this graphmem daemon serves {self.workspace}, not {settings.workspace}; "
                "it runs no command for another workspace",
                hint="run the command with GRAPHMEM_RESIDENT=off, or start a daemon there",
            )
        if self.memory is None or self.memory.settings != settings:
            if self.memory is not None:
                self.memory.close()
            self.memory = ResidentMemory(settings=settings)
        return self.memory

    def command(self) -> Any:
        """The CLI as a Click command, built once (by the `command` it was given:
        :func:`graphmem.surfaces.cli.click_command`)."""
        if self._click is None:
            self._click = self._make_command()
        return self._click

    def run(self, conn: socket.socket, req: dict[str, Any]) -> int:
        """Run the CLI on the request's arguments, its output going to `conn`."""
        (out_enc, out_err), (err_enc, err_err) = req["encoding"]
        tty_out, tty_err = req["tty"]
        # write_through: each write is a frame at once, so stdout and stderr keep their order.
        out = io.TextIOWrapper(_sink(conn, OUT, tty_out), out_enc, out_err, write_through=True)
        err = io.TextIOWrapper(_sink(conn, ERR, tty_err), err_enc, err_err, write_through=True)
        env = {k: req["env"].get(k) for k in PER_REQUEST}
        env |= {"COLUMNS": str(req["columns"]), "LINES": str(req["lines"])}
        if (target(req["argv"]) or ("",))[0] == "index":
            self.ner.wait()  # the pipeline is loading (see warm): load it once, not twice
        with _redirected(out, err, req["cwd"], env):
            state.reset(keep=self.keep)
            try:
                self.command().main(args=req["argv"], prog_name=req["prog"], standalone_mode=True)
                code = 0
            except SystemExit as exc:
                code = _exit_code(exc.code, err)
            except Exception:
                # What Python prints for an uncaught exception, and its exit code.
                traceback.print_exc(file=err)
                code = 1
            finally:
                state.reset()
        return code


def _exit_code(code: object, err: io.TextIOBase) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    err.write(f"{code}\n")
    return 1


@contextlib.contextmanager
def _redirected(
    out: io.TextIOWrapper[Any], err: io.TextIOWrapper[Any], cwd: str, env: dict[str, str | None]
) -> Iterator[None]:
    """The process's streams, folder and those environment values, for one command (the
    daemon runs one at a time)."""
    saved_streams = sys.stdout, sys.stderr
    saved_env = {k: os.environ.get(k) for k in env}
    saved_cwd = os.getcwd()
    try:
        os.chdir(cwd)
        for key, value in env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        sys.stdout, sys.stderr = out, err
        yield
    finally:
        with contextlib.suppress(Exception):
            out.flush()
            err.flush()
        sys.stdout, sys.stderr = saved_streams
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        os.chdir(saved_cwd)


def warm(daemon: Daemon) -> None:
    """Build the CLI, open the index and load the query model now, so the first ``recall``
    is fast; then, with the daemon already answering, load the NER pipeline (spaCy: ~1.5 s
    and ~150 MB, kept by :class:`~graphmem.extract.entities.NerModel` for the indexes that
    follow) so the first ``index`` is fast too. Commands that arrive during the first part
    find the daemon busy and run in-process; an ``index`` during the second waits for it."""
    try:
        with daemon.busy, contextlib.suppress(GraphmemError):
            daemon.command()
            daemon.keep(daemon.settings).recall("graphmem", k=1)
    finally:
        daemon.warm.set()
    try:
        with contextlib.suppress(GraphmemError):
            import graphmem.index.build  # noqa: F401  (the first `index` then skips ~0.3 s of imports)
            from graphmem.extract.entities import NerModel

            NerModel.load(daemon.settings.ner_model)
    finally:
        daemon.ner.set()


def run_daemon(
    settings: Settings,
    command: Callable[[], Any],
    idle: float = DEFAULT_IDLE,
    on_ready: Any = None,
    lock_fd: int | None = None,
) -> Daemon:
    """Serve `settings`' workspace until idle or stopped (SIGTERM and SIGINT stop it
    cleanly), running the Click command `command()` builds for each client; the finished
    :class:`Daemon`. `on_ready(daemon)` is called once it listens; `lock_fd` is the lock
    the client that started it handed over."""
    daemon = Daemon(settings, command, idle, lock_fd)
    daemon.bind()

    def on_signal(signum: int, frame: object) -> None:
        daemon.stopping.set()

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        threading.Thread(target=warm, args=(daemon,), daemon=True).start()
        if on_ready is not None:
            on_ready(daemon)
        daemon.serve()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        daemon.close()
    return daemon


def start_background(settings: Settings, idle: float = DEFAULT_IDLE, wait: float = 120.0) -> int:
    """Start ``graphmem daemon`` for `settings`' workspace as a detached process (its
    stderr in ``.memory/resident.log``) and return its pid once it answers; the pid of one
    that runs, or that another process is starting, if there is one."""
    workspace = str(settings.workspace)
    path = socket_path(workspace)
    if (answer := ping(path)) is not None:
        return int(answer["pid"])
    if not os.path.isdir(workspace):
        raise DaemonError(
            f"workspace {workspace} does not exist",
            hint="pass --workspace DIR or set GRAPHMEM_WORKSPACE",
        )
    os.makedirs(os.path.dirname(path), exist_ok=True)
    proc = start_daemon(workspace, idle)  # None: another process holds the lock
    log = os.path.join(os.path.dirname(path), "resident.log")
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if (answer := ping(path)) is not None and answer.get("warm"):
            return int(answer["pid"])
        if proc is not None and proc.poll() is not None:
            raise DaemonError(f"the daemon exited at once (code {proc.returncode}); see {log}")
        time.sleep(0.05)
    raise DaemonError(f"the daemon did not answer within {wait:g}s; see {log}")
