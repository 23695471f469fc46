"""The layout of ``WORKSPACE/.memory/``: generations, the CURRENT pointer, the writer lock.

Kùzu lets no other process open a database that one process has open for writing, readers
included. So the indexer never writes the database readers use: it builds a complete new
generation (``gen-000042/`` holding ``graph.kuzu``, ``seeds.sqlite`` and ``meta.json``) and
then atomically replaces the ``CURRENT`` file that names it. Readers open whatever CURRENT
names, read-only. A crash at any point leaves CURRENT naming the previous, complete
generation; the half-built one is removed by the next index.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graphmem.errors import IndexLockedError

CURRENT = "CURRENT"
LOCK = "lock"
CACHE = "cache.sqlite"
GRAPH = "graph.kuzu"
SEEDS = "seeds.sqlite"
META = "meta.json"
#: Seconds a writer waits for another before giving up (the CLI's index and retain).
WRITER_WAIT_S = 600.0
_POLL_S = 0.1
#: Old generations kept after a swap, so a reader that just read CURRENT can still open its one.
KEEP_PREVIOUS = 1


@dataclass(frozen=True)
class Generation:
    """One complete, immutable build of the index."""

    path: Path

    @property
    def name(self) -> str:
        """e.g. ``gen-000042``."""
        return self.path.name

    @property
    def graph(self) -> Path:
        """The Kùzu database file."""
        return self.path / GRAPH

    @property
    def seeds(self) -> Path:
        """The SQLite seed index."""
        return self.path / SEEDS

    def meta(self) -> dict[str, Any]:
        """What the build recorded about itself."""
        try:
            return json.loads((self.path / META).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}


def fsync_path(path: Path) -> None:
    """fsync a file or a folder (a folder: so a rename in it is durable)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Write `path` so that a crash leaves either the old or the new content, never a mix."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    fsync_path(path.parent)


class Store:
    """The ``.memory/`` folder of one workspace."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def current(self) -> Generation | None:
        """The generation CURRENT names, if it is complete."""
        try:
            name = (self.root / CURRENT).read_text(encoding="utf-8").strip()
        except OSError:
            return None
        gen = Generation(self.root / name)
        return gen if name and (gen.path / META).exists() else None

    def new_generation(self) -> Generation:
        """A fresh, empty generation folder (numbered after every existing one)."""
        self.root.mkdir(parents=True, exist_ok=True)
        numbers = [int(p.name[4:]) for p in self.root.glob("gen-*") if p.name[4:].isdigit()]
        gen = Generation(self.root / f"gen-{max(numbers, default=0) + 1:06d}")
        gen.path.mkdir()
        return gen

    def publish(self, gen: Generation, meta: dict[str, Any]) -> None:
        """Finish `gen` (write its meta) and make it CURRENT, atomically; the first publish
        also writes ``.memory/.gitignore``, so ``git add .`` in a workspace leaves the
        derived index out."""
        ignore = self.root / ".gitignore"
        if not ignore.exists():
            write_atomic(ignore, b"# graphmem's derived index: rebuilt by `graphmem index`.\n*\n")
        write_atomic(gen.path / META, json.dumps(meta, indent=1, sort_keys=True).encode())
        fsync_path(gen.path)
        write_atomic(self.root / CURRENT, f"{gen.name}\n".encode())
        self.collect_garbage()

    def collect_garbage(self) -> None:
        """Remove half-built generations and all but the newest :data:`KEEP_PREVIOUS` old ones."""
        current = self.current()
        gens = sorted(p for p in self.root.glob("gen-*") if p.is_dir())
        keep: set[Path] = set()
        if current is not None:
            keep.add(current.path)
            older = [p for p in gens if p.name < current.name and (p / META).exists()]
            keep.update(older[-KEEP_PREVIOUS:])
        for path in gens:
            if path not in keep:
                shutil.rmtree(path, ignore_errors=True)
        for tmp in self.root.glob(".*.tmp"):  # write_atomic's leftovers from a killed writer
            tmp.unlink(missing_ok=True)

    @contextlib.contextmanager
    def writer_lock(
        self, wait: float = 0.0, on_wait: Callable[[str], None] | None = None
    ) -> Iterator[float]:
        """Hold the writer lock, waiting up to `wait` seconds for another writer to finish;
        yields the seconds waited. Past the bound, raise :class:`IndexLockedError`.

        `on_wait` hears once, when the wait begins, who holds the lock. An ``flock`` is
        released by the kernel when its holder dies, so a killed indexer never leaves a
        stale lock behind; readers never take it.
        """
        self.root.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.root / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        started, told = time.monotonic(), False
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as exc:
                    if exc.errno not in (errno.EAGAIN, errno.EACCES):
                        raise
                holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
                waited = time.monotonic() - started
                if waited >= wait:
                    raise IndexLockedError(
                        f"another graphmem process (pid {holder}) is writing {self.root}"
                        + (f" (waited {waited:.0f} s)" if wait else "")
                        + "; wait for it to finish and run the command again"
                    ) from None
                if on_wait is not None and not told:
                    told = True
                    on_wait(
                        f"another graphmem process (pid {holder}) is writing {self.root}; "
                        f"waiting for it (up to {wait:.0f} s)"
                    )
                time.sleep(min(_POLL_S, max(0.0, wait - waited)))
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            yield time.monotonic() - started
        finally:
            os.close(fd)
