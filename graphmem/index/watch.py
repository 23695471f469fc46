"""``graphmem watch``: re-index when the workspace's Markdown changes.

Polling, not inotify: it needs no extra dependency, works on every filesystem (network
mounts, containers), and a stat of a few thousand files a second costs little. A change is
indexed once the files have been quiet for `debounce` seconds, so a burst of saves (an
editor's write-rename, a git checkout) costs one incremental index.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from graphmem.config import MEMORY_DIR, Settings
from graphmem.errors import IndexLockedError
from graphmem.index.build import IndexReport, index_workspace
from graphmem.parse.workspace import TOP_DIRS, TOP_FILES

Snapshot = dict[str, tuple[int, int]]


def snapshot(root: Path, extra_paths: Iterable[Path] = ()) -> Snapshot:
    """(mtime_ns, size) of every file index would look at, by relative path (an extra
    path's files by their absolute path)."""
    out: Snapshot = {}
    for extra in extra_paths:
        walked = os.walk(extra) if extra.is_dir() else [(str(extra.parent), [], [extra.name])]
        _stat_files(walked, out, lambda path: path.as_posix())
    for entry in root.iterdir() if root.is_dir() else []:
        if entry.name.lower() in TOP_FILES and entry.is_file():
            st = entry.stat()
            out[entry.name] = (st.st_mtime_ns, st.st_size)
    for top in TOP_DIRS:
        _stat_files(os.walk(root / top), out, lambda path: path.relative_to(root).as_posix())
    return out


def _stat_files(
    walked: Iterable[tuple[str, list[str], list[str]]],
    out: Snapshot,
    key: Callable[[Path], str],
) -> None:
    """Add (mtime_ns, size) of every file of an os.walk to `out` under `key(path)`; hidden
    folders and .memory are not entered, a file gone meanwhile is left out."""
    for dirpath, dirnames, filenames in walked:
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d != MEMORY_DIR]
        for name in filenames:
            path = Path(dirpath) / name
            try:
                st = path.stat()
            except OSError:
                continue
            out[key(path)] = (st.st_mtime_ns, st.st_size)


def watch(
    settings: Settings,
    *,
    interval: float = 1.0,
    debounce: float = 1.0,
    on_index: Callable[[IndexReport], None] | None = None,
    on_busy: Callable[[str], None] | None = None,
    on_deleted: Callable[[list[str]], None] | None = None,
    on_changed: Callable[[list[str]], None] | None = None,
    stop: threading.Event | None = None,
) -> None:
    """Index now, then again after every quiet change, until `stop` is set (or Ctrl-C).

    `on_deleted` hears the Markdown files that disappeared, and `on_changed` the ones
    that are new or changed, just before the index that reads them.
    """
    stop = stop or threading.Event()
    seen = snapshot(settings.workspace, settings.extra_paths)
    report = index_workspace(settings)
    if on_index:
        on_index(report)
    indexed = seen  # the files the last index saw
    changed_at: float | None = None
    while not stop.wait(interval):
        now = snapshot(settings.workspace, settings.extra_paths)
        if now != seen:
            seen, changed_at = now, time.monotonic()
            continue
        if changed_at is None or time.monotonic() - changed_at < debounce:
            continue
        gone = sorted(p for p in indexed.keys() - seen.keys() if p.lower().endswith(".md"))
        touched = sorted(
            p for p, stat in seen.items() if p.lower().endswith(".md") and indexed.get(p) != stat
        )
        try:
            report = index_workspace(settings)
        except IndexLockedError as exc:
            if on_busy:
                on_busy(str(exc))
            continue  # another writer is busy; try again on the next quiet tick
        changed_at, indexed = None, seen
        if gone and on_deleted:
            on_deleted(gone)
        if touched and on_changed:
            on_changed(touched)
        if on_index:
            on_index(report)
