"""A FIFO, a socket or a device named ``*.md`` in memory/ or bank/ never hangs a command.

Each is skipped with a warning naming it, by ``index``, ``status``, ``retain`` and the MCP
server's ``memory_status`` / ``memory_retain``. Everything runs for real: the CLI in a
subprocess (with a timeout: a hang fails the test instead of the run), Kùzu and SQLite in
tmp_path. The device is a character device like ``/dev/null``; making one needs root, so
that case is skipped for other users.
"""

from __future__ import annotations

import os
import shutil
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest
from conftest import ROOT
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

#: A bound for each command: a hang fails here; no command comes near it when it works.
BOUND = 120.0
ENV = {
    "GRAPHMEM_NER_MODEL": "none",
    "GRAPHMEM_EMBED_MODEL": "none",
    "GRAPHMEM_BUFFER_POOL_MB": "64",
}


def _env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("GRAPHMEM_") or k == "GRAPHMEM_RESIDENT"
    }
    return {**env, **ENV}


def _cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = shutil.which("graphmem")
    command = [script] if script else [sys.executable, "-m", "graphmem"]
    return subprocess.run(
        [*command, "--workspace", str(root), *args],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=BOUND,
        stdin=subprocess.DEVNULL,
    )


def _make_socket(path: Path) -> socket.socket:
    """A listening Unix socket at `path` (bound under a short name, then moved there:
    socket paths are limited to about 100 bytes)."""
    short = Path(f"/tmp/gm-sock-{os.getpid()}")
    short.unlink(missing_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(short))
    sock.listen(1)
    os.rename(short, path)
    return sock


def _plant(folder: Path) -> Iterator[tuple[str, socket.socket | None]]:
    """Put a FIFO, a socket and (as root) a character device in `folder`; yield the
    workspace-relative names, each with the socket to close (if any)."""
    folder.mkdir(parents=True, exist_ok=True)
    top = folder.name
    os.mkfifo(folder / "2025-12-01.md")
    yield f"{top}/2025-12-01.md", None
    yield f"{top}/sock.md", _make_socket(folder / "sock.md")
    if os.geteuid() == 0:
        os.mknod(folder / "dev.md", stat.S_IFCHR | 0o600, os.makedev(1, 3))
        yield f"{top}/dev.md", None


@pytest.fixture(params=["memory", "bank"])
def hostile(request: pytest.FixtureRequest, sample: Path) -> Iterator[tuple[Path, list[str]]]:
    """The sample workspace with irregular files planted in memory/ or bank/."""
    planted = list(_plant(sample / request.param))
    yield sample, [name for name, _ in planted]
    for _, sock in planted:
        if sock is not None:
            sock.close()


def _assert_named(output: str, names: list[str]) -> None:
    for name in names:
        assert any(name in line and "not a regular file" in line for line in output.splitlines()), (
            name,
            output,
        )


def test_index_status_and_retain_skip_irregular_files_with_a_warning(
    hostile: tuple[Path, list[str]],
) -> None:
    root, names = hostile
    done = _cli(root, "index")
    assert done.returncode == 0, done.stderr
    _assert_named(done.stdout + done.stderr, names)
    answer = _cli(root, "recall", "where does Peter live")
    assert answer.returncode == 0 and "memory/" in answer.stdout, answer.stdout

    status = _cli(root, "status")
    assert status.returncode == 0, status.stderr

    kept = _cli(root, "retain", "W @Peter: Peter keeps a FIFO on his desk.")
    assert kept.returncode == 0, kept.stderr
    assert "not updated" not in kept.stdout + kept.stderr
    for name in names:  # nothing was written into (or instead of) the planted files
        assert not (root / name).is_file() or (root / name).is_symlink()


def test_the_mcp_server_answers_beside_a_fifo(sample: Path, tmp_path: Path) -> None:
    for top in ("memory", "bank"):
        (sample / top).mkdir(exist_ok=True)
        os.mkfifo(sample / top / "pipe.md")
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", "from graphmem.surfaces.mcp import main; main()"],
        env={"GRAPHMEM_WORKSPACE": str(sample), **ENV},
        cwd=str(ROOT),
    )
    results: dict[str, object] = {}

    async def main() -> None:
        with (tmp_path / "err.log").open("w", encoding="utf-8") as err, anyio.fail_after(BOUND):
            async with (
                stdio_client(params, errlog=err) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                status = await session.call_tool("memory_status", {})
                saved = await session.call_tool(
                    "memory_retain", {"bullet": "W @Peter: Peter tried a named pipe."}
                )
                results["status"], results["saved"] = status, saved

    anyio.run(main)
    status, saved = results["status"], results["saved"]
    assert not getattr(status, "is_error", True), status
    assert not getattr(saved, "is_error", True), saved
    content = getattr(saved, "structured_content", None)
    assert isinstance(content, dict) and content["notice"] is None, content


def test_a_fifo_swapped_in_after_discovery_is_not_read(sample: Path) -> None:
    """Between the walk and the read a file may be replaced by a FIFO: the read does not
    block (opened non-blocking, checked before reading) and warns instead."""
    import threading

    from graphmem.parse.workspace import discover, read_text

    files, _ = discover(sample)
    source = next(f for f in files if f.path.startswith("memory/"))
    source.abspath.unlink()
    os.mkfifo(source.abspath)
    out: list[object] = []
    worker = threading.Thread(target=lambda: out.append(read_text(source, 1 << 20)), daemon=True)
    worker.start()
    worker.join(BOUND)
    assert out, "read_text blocked on a FIFO"
    text, notices = out[0]  # type: ignore[misc]
    assert text is None
    assert [(n.path, n.message) for n in notices] == [
        (source.path, "a FIFO (named pipe), not a regular file; skipped")
    ]
