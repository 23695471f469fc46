"""A resident process the ``graphmem`` command reuses: ``graphmem daemon``.

A cold ``graphmem recall`` spends ~1 s of CPU before it answers: importing typer, numpy,
Kùzu and onnxruntime, compiling the time grammar, creating the model session, opening the
index. ``graphmem daemon`` pays that once and keeps it: it listens on a Unix socket in the
workspace's index folder (``.memory/resident.sock``, mode 0600, its owner's connections
only) and runs the same CLI commands in its own process for the ``graphmem`` processes that
ask, sending back their exact stdout and stderr bytes and exit code. The client side
(:mod:`graphmem.surfaces.daemon.client`) imports nothing heavy: when no daemon answers, declines
or is busy, the command runs in-process as it always did, so the CLI stays correct and
standalone.

The protocol, on one connection per command (``frame`` below):

- client → daemon: one JSON frame ``{"argv", "prog", "cwd", "env", "stamp", "tty",
  "columns", "lines", "encoding"}``;
- daemon → client: ``{"run": true}`` (it runs the command now) or ``{"decline": why}``
  (the client runs it itself); after ``run``, stdout (``o``) and stderr (``e``) frames in
  the order they were written, then ``{"exit": code}``.

A frame is one type byte, a 4-byte big-endian length and the payload (JSON for ``j``).
This module is shared by both sides and imports only the standard library.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import sys
from typing import Any

#: The socket's name inside the index folder.
SOCKET_NAME = "resident.sock"
#: The file a daemon holds an exclusive ``flock`` on for its whole life, from the moment a
#: client decides to start it: two cold clients never start two daemons for one workspace.
LOCK_NAME = "resident.lock"
#: The daemon's stderr, when a client or ``--background`` started it.
LOG_NAME = "resident.log"
#: The index folder inside a workspace (graphmem.config.MEMORY_DIR; not imported, to keep
#: the client's imports small; a test checks they agree).
MEMORY_DIR = ".memory"
#: Commands a daemon runs. The rest always run in-process.
COMMANDS = frozenset({"recall", "about", "timeline", "status", "index"})
#: Environment variables that change what a command does: the daemon declines a client
#: whose values differ from its own, except for PER_REQUEST ones, which it takes from the
#: client for the one command (GRAPHMEM_RESIDENT and GRAPHMEM_RESIDENT_IDLE only say whether
#: to ask or start a daemon, and when it stops).
ENV_PREFIX = "GRAPHMEM_"
ENV_NAMES = ("TZ", "HOME")
PER_REQUEST = ("GRAPHMEM_WORKSPACE",)
IGNORED = ("GRAPHMEM_RESIDENT", "GRAPHMEM_RESIDENT_IDLE")
#: AF_UNIX paths longer than this are reached through /proc/self/fd (Linux: 108 bytes).
MAX_SUN_PATH = 100

JSON, OUT, ERR = b"j", b"o", b"e"
_HEADER = struct.Struct(">cI")
#: Largest frame accepted (a request, or one write of output).
MAX_FRAME = 64 * 2**20


class ProtocolError(Exception):
    """The other side sent something that is not a frame, or hung up mid-frame."""


def socket_path(workspace: str) -> str:
    """The socket of the daemon for `workspace` (an absolute, resolved path)."""
    return os.path.join(workspace, MEMORY_DIR, SOCKET_NAME)


def lock_path(workspace: str) -> str:
    """The lock file of the daemon for `workspace`."""
    return os.path.join(workspace, MEMORY_DIR, LOCK_NAME)


def relevant_env(env: dict[str, str] | os._Environ[str]) -> dict[str, str]:
    """The environment variables whose values the daemon and the client must share."""
    return {
        k: v
        for k, v in env.items()
        if (k.startswith(ENV_PREFIX) or k in ENV_NAMES) and k not in IGNORED
    }


def code_stamp() -> str:
    """What identifies the code a process runs: the interpreter, graphmem's folder and the
    size and mtime of each of its Python files. A daemon started before an upgrade or an
    edit declines (and stops) rather than answer with old code."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parts = [os.path.realpath(sys.executable), root]
    subpackages = sorted(
        entry.path
        for entry in os.scandir(root)
        if entry.is_dir() and os.path.exists(os.path.join(entry.path, "__init__.py"))
    )
    for folder in (root, *subpackages):
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.endswith(".py"):
                st = entry.stat()
                parts.append(f"{entry.name}:{st.st_size}:{st.st_mtime_ns}")
    return "|".join(parts)


def address(path: str) -> tuple[str, int | None]:
    """An address `connect`/`bind` accept for `path`, and a folder fd to close afterwards.

    Linux limits an AF_UNIX path to 108 bytes; a deeper workspace is reached through
    ``/proc/self/fd/N/resident.sock`` with N an open fd of the socket's folder.
    """
    if len(os.fsencode(path)) <= MAX_SUN_PATH:
        return path, None
    fd = os.open(os.path.dirname(path), os.O_RDONLY | os.O_DIRECTORY)
    return f"/proc/self/fd/{fd}/{os.path.basename(path)}", fd


def send(sock: socket.socket, kind: bytes, payload: bytes) -> None:
    """Send one frame."""
    sock.sendall(_HEADER.pack(kind, len(payload)) + payload)


def send_json(sock: socket.socket, data: dict[str, Any]) -> None:
    """Send one JSON frame."""
    send(sock, JSON, json.dumps(data, ensure_ascii=False).encode("utf-8"))


def _exactly(sock: socket.socket, n: int) -> bytes:
    chunks: list[bytes] = []
    left = n
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            raise ProtocolError("connection closed mid-frame" if chunks or n else "closed")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def receive(sock: socket.socket) -> tuple[bytes, bytes]:
    """One frame: (kind, payload)."""
    header = sock.recv(_HEADER.size, socket.MSG_WAITALL)
    if len(header) != _HEADER.size:
        raise ProtocolError("connection closed")
    kind, size = _HEADER.unpack(header)
    if size > MAX_FRAME:
        raise ProtocolError(f"frame of {size} bytes")
    return kind, _exactly(sock, size)


def receive_json(sock: socket.socket) -> dict[str, Any]:
    """One JSON frame."""
    kind, payload = receive(sock)
    if kind != JSON:
        raise ProtocolError(f"expected a JSON frame, got {kind!r}")
    try:
        data = json.loads(payload)
    except ValueError as exc:
        raise ProtocolError(f"bad JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ProtocolError("expected a JSON object")
    return data
