"""Find and read the workspace's Markdown files, safely.

Symlinks that leave the workspace are not followed, binary files are skipped, anything that
is not a regular file (a FIFO, a socket, a device) is skipped without being opened for a
blocking read, invalid UTF-8 is decoded with replacement characters; each of these leaves a
:class:`Notice`.

The workspace's top holds the core file, ``MEMORY.md`` (OpenClaw's name; ``memory.md`` is the
legacy one), ``USER.md`` (who the user is) and ``SOUL.md``. When both ``MEMORY.md`` and
``memory.md`` exist (a case-sensitive file system), both are indexed, so nothing is lost, with a
notice naming both: ``MEMORY.md`` wins as the file ``graphmem core`` edits and reflect reads, and
``memory.md`` is for merging into it. Settings' ``extra_paths`` add Markdown from elsewhere, indexed
as undated notes, cited by their workspace-relative path when inside the workspace and by their
absolute path when not.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from graphmem.config import MEMORY_DIR
from graphmem.parse.blocks import Notice

#: Top-level files that are indexed (compared lower-cased); everything else indexed lives in
#: memory/ and bank/, or in the settings' extra paths.
TOP_FILES = {"memory.md", "user.md", "soul.md"}
TOP_DIRS = ("memory", "bank")
#: The core file, as OpenClaw names it, and the legacy name it replaced.
CORE_FILE = "MEMORY.md"
LEGACY_CORE_FILE = "memory.md"
#: OpenClaw's bootstrap files: a workspace with one of them at its top is OpenClaw's.
OPENCLAW_FILES = ("AGENTS.md", "SOUL.md", "USER.md", "IDENTITY.md", "TOOLS.md", "HEARTBEAT.md")
#: The notice when both core files exist.
BOTH_CORE = (
    "both MEMORY.md and memory.md exist: both are indexed; MEMORY.md is the core file "
    "(graphmem core edits it), so merge memory.md into it and delete memory.md"
)
_SNIFF = 8192


@dataclass(frozen=True)
class SourceFile:
    """One file to index: its workspace-relative POSIX path, bytes' hash and size."""

    path: str
    abspath: Path
    content_hash: str
    size: int


class NotRegularFile(OSError):
    """A path names a FIFO, a socket, a device or a folder: reading it could block forever."""

    def __init__(self, path: Path, kind: str) -> None:
        super().__init__(f"{path} is {kind}")
        #: What it is, in words (see :func:`kind_of`).
        self.kind = kind


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words (``a FIFO``, ``a socket``, ...)."""
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


def read_regular(path: Path) -> bytes:
    """The bytes of the regular file at `path`, following symlinks.

    The file is opened non-blocking and checked with ``fstat`` before any read, so a FIFO
    or a device put in its place (even between a check and the open) raises
    :class:`NotRegularFile` at once instead of blocking.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegularFile(path, kind_of(mode))
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    finally:
        os.close(fd)


def _inside(root: Path, target: Path) -> bool:
    try:
        target.resolve().relative_to(root)
    except (ValueError, OSError, RuntimeError):
        return False
    return True


def _irregular(path: Path) -> str | None:
    """None for a regular file (after symlinks), else what it is; a dangling link is None
    (the read reports it)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else kind_of(mode)


def is_openclaw_workspace(root: Path) -> bool:
    """Whether OpenClaw laid out `root`: one of its bootstrap files is at the top."""
    try:
        names = {entry.name for entry in root.iterdir()}
    except OSError:
        return False
    return any(name in names for name in OPENCLAW_FILES)


def _folders(
    base: Path, seen_dirs: set[tuple[int, int]], escapes: Callable[[Path], bool]
) -> Iterator[tuple[Path, list[str] | None]]:
    """Each folder under `base` once, symlinks followed, with its file names sorted; a folder
    seen already (a loop, or one indexed already) or that `escapes` is given None and not
    entered. Hidden folders and .memory are skipped; a folder that cannot be stat'ed too."""
    for dirpath, dirnames, filenames in os.walk(base, followlinks=True):
        here = Path(dirpath)
        try:
            st = here.stat()
        except OSError:
            dirnames[:] = []
            continue
        if (st.st_dev, st.st_ino) in seen_dirs or escapes(here):
            dirnames[:] = []
            yield here, None
            continue
        seen_dirs.add((st.st_dev, st.st_ino))
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != MEMORY_DIR)
        yield here, sorted(filenames)


def _extra_files(
    root: Path, extra: Path, taken: set[str], seen_dirs: set[tuple[int, int]]
) -> tuple[list[tuple[Path, str]], list[Notice]]:
    """The Markdown files of one extra path (a file or a folder), with their cited names."""

    def cited(path: Path) -> str:
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            return path.as_posix()

    if not extra.exists():
        return [], [Notice(cited(extra), 0, "extra path does not exist; skipped")]
    if not extra.is_dir():
        if not extra.name.lower().endswith(".md"):
            return [], [Notice(cited(extra), 0, "extra path is not a Markdown file; skipped")]
        if (kind := _irregular(extra)) is not None:
            return [], [Notice(cited(extra), 0, f"{kind}, not a regular file; skipped")]
        return ([(extra, cited(extra))] if cited(extra) not in taken else []), []
    found: list[tuple[Path, str]] = []
    notices: list[Notice] = []
    for here, filenames in _folders(extra, seen_dirs, lambda _: False):
        for name in filenames or ():  # None: a loop, or a folder indexed already
            path = here / name
            rel = cited(path)
            if name.startswith(".") or not name.lower().endswith(".md") or rel in taken:
                continue
            if (kind := _irregular(path)) is not None:
                notices.append(Notice(rel, 0, f"{kind}, not a regular file; skipped"))
                continue
            found.append((path, rel))
    return found, notices


def discover(root: Path, extra_paths: Iterable[Path] = ()) -> tuple[list[SourceFile], list[Notice]]:
    """Every indexable file under `root` and in `extra_paths`, sorted by path, and notices
    about skipped ones."""
    root = root.resolve()
    found: list[tuple[Path, str]] = []
    notices: list[Notice] = []
    for entry in sorted(root.iterdir()) if root.is_dir() else []:
        if entry.name.lower() not in TOP_FILES:
            continue
        if entry.is_symlink() and not _inside(root, entry):
            # As under memory/ and bank/: a link out of the workspace is never followed.
            notices.append(Notice(entry.name, 0, "symlink leaves the workspace; not followed"))
        elif (kind := _irregular(entry)) is not None:
            notices.append(Notice(entry.name, 0, f"{kind}, not a regular file; skipped"))
        else:
            found.append((entry, entry.name))
    # One set over the whole walk, holding the root itself: a link back to the root or to
    # another indexed folder is a loop, not a second copy of the workspace.
    root_stat = root.stat()
    seen_dirs: set[tuple[int, int]] = {(root_stat.st_dev, root_stat.st_ino)}
    for top in TOP_DIRS:
        base = root / top
        if not base.is_dir():
            continue
        for here, filenames in _folders(base, seen_dirs, lambda d: not _inside(root, d)):
            rel = here.relative_to(root).as_posix()
            if filenames is None:
                notices.append(
                    Notice(rel, 0, "symlinked folder leaves the workspace or loops; not followed")
                )
                continue
            for name in filenames:
                if name.startswith("."):
                    continue
                path = here / name
                relp = f"{rel}/{name}"
                if os.path.islink(path) and not _inside(root, path):
                    notices.append(Notice(relp, 0, "symlink leaves the workspace; not followed"))
                    continue
                if not name.lower().endswith(".md"):
                    notices.append(Notice(relp, 0, "not a Markdown file; skipped"))
                    continue
                if (kind := _irregular(path)) is not None:
                    notices.append(Notice(relp, 0, f"{kind}, not a regular file; skipped"))
                    continue
                found.append((path, relp))
    names = {rel for _, rel in found}
    if CORE_FILE in names and LEGACY_CORE_FILE in names:
        notices.append(Notice(LEGACY_CORE_FILE, 0, BOTH_CORE))
    for extra in extra_paths:
        more, said = _extra_files(root, extra, names, seen_dirs)
        found.extend(more)
        names.update(rel for _, rel in more)
        notices.extend(said)
    files: list[SourceFile] = []
    for path, rel in found:
        try:
            data = read_regular(path)
        except NotRegularFile as exc:  # swapped in since the walk looked
            notices.append(Notice(rel, 0, f"{exc.kind}, not a regular file; skipped"))
            continue
        except OSError as exc:
            notices.append(Notice(rel, 0, f"cannot be read ({exc.strerror}); skipped"))
            continue
        files.append(SourceFile(rel, path, hashlib.sha256(data).hexdigest(), len(data)))
    files.sort(key=lambda f: f.path)
    return files, notices


def read_text(source: SourceFile, large_file_bytes: int) -> tuple[str | None, list[Notice]]:
    """The file's text, or None for a binary file, with notices about what was odd."""
    try:
        data = read_regular(source.abspath)
    except NotRegularFile as exc:
        return None, [Notice(source.path, 0, f"{exc.kind}, not a regular file; skipped")]
    notices: list[Notice] = []
    if b"\x00" in data[:_SNIFF]:
        return None, [Notice(source.path, 0, "binary content (NUL bytes); skipped")]
    if len(data) > large_file_bytes:
        mib = len(data) / (1024 * 1024)
        notices.append(
            Notice(
                source.path, 0, f"large file ({mib:.1f} MiB); indexed, but consider splitting it"
            )
        )
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8"), notices
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        notices.append(
            Notice(source.path, line, "invalid UTF-8; decoded with replacement characters (U+FFFD)")
        )
        return data.decode("utf-8", errors="replace"), notices
