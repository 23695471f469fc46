"""Run one pure computation in a forked child while this process goes on with another.

A full build is single-threaded Python. On a machine with a second core, two of its parts
run half beside it: the extract stage dates half the files in a child (graphmem.extract.stage),
and supersession runs in a child while the parent prepares opinion evolution, which needs
its edges only at the end (graphmem.compile.rows). The inputs are the parent's memory, shared
copy-on-write; the result comes back pickled through a pipe. The answer is the function's
own either way: where there is no fork, where this process runs other threads (forking
those is unsafe: the resident daemon), with one CPU, or when the child fails, the parent
computes it itself. ``Settings.fork`` (``GRAPHMEM_FORK=0``) switches it off; whoever holds
the settings passes it down as ``beside``.
"""

from __future__ import annotations

import os
import pickle
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Later(Generic[T]):
    """The result of `work`, computed beside this process or, failing that, in it."""

    def __init__(self, work: Callable[[], T], beside: bool = True) -> None:
        self._work = work
        self._pid = 0
        self._read = -1
        self._done = False
        self._value: T | None = None
        if beside and _may_fork():
            self._start()

    def _start(self) -> None:
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: compute, write, leave without running any cleanup
            code = 1
            try:
                os.close(read)
                data = pickle.dumps(self._work(), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write, "wb") as out:
                    out.write(data)
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        self._pid, self._read = pid, read

    def get(self) -> T:
        """The result (waits for the child)."""
        if not self._done:
            self._value = self._collect() if self._pid else self._work()
            self._done = True
        return self._value  # type: ignore[return-value]

    def _collect(self) -> T:
        with os.fdopen(self._read, "rb") as inp:
            data = inp.read()
        _, status = os.waitpid(self._pid, 0)
        if status != 0 or not data:
            return self._work()  # the child failed: the same work, here
        value: T = pickle.loads(data)
        return value


def _may_fork() -> bool:
    return hasattr(os, "fork") and threading.active_count() == 1 and (os.cpu_count() or 1) > 1
