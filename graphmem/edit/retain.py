"""Retain: append one typed bullet to today's daily log, then re-index.

The only library call besides bank regeneration that writes Markdown, and it says so: the
bullet lands under the day's ``## Retain`` heading (any accepted language), the rest of the
file keeps its exact bytes (line endings, invalid UTF-8, trailing whitespace), and the write
is atomic. The bullet is checked with the same parser the indexer uses, before anything is
written, so what retain accepts is exactly what ``index`` reads as a typed fact.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from graphmem.config import Settings
from graphmem.errors import BulletError, GraphmemError, IndexLockedError, WorkspaceError
from graphmem.index.build import IndexReport, index_workspace
from graphmem.parse.blocks import Block
from graphmem.parse.links import read_link

# The heading and fence patterns are the parser's own, so "where is the Retain section"
# is answered exactly as the indexer answers it.
from graphmem.parse.parser import (
    FENCE,
    RETAIN_HEADINGS,
    file_role,
    front_matter,
    heading,
    parse,
)
from graphmem.parse.textio import newline_of
from graphmem.parse.workspace import NotRegularFile, read_regular
from graphmem.recall.packets import source_ref
from graphmem.store.layout import write_atomic

#: The bullet form, shown in every error.
EXPECTED = "W|B|O|O(c=0.8)|S @Entity: text"
EXAMPLE = "O(c=0.9) @Peter: Prefers concise replies"
#: Serialises read-modify-write of daily logs across processes (CLI and MCP server).
RETAIN_LOCK = "retain.lock"


@dataclass(frozen=True)
class RetainResult:
    """Where the bullet went and what the re-index did."""

    #: Workspace-relative POSIX path, e.g. ``memory/2025-12-13.md``.
    path: str
    #: 1-based line number of the new bullet.
    line: int
    #: The block's stable id (what recall packets and the graph call it).
    id: str
    #: The parsed bullet as the indexer sees it.
    block: Block
    #: The re-index run; None when not asked for or when another process held the index.
    report: IndexReport | None = None
    #: Why the index was not brought up to date, if it was not.
    notice: str | None = None
    #: Things about the bullet worth fixing that did not stop it being saved.
    warnings: tuple[str, ...] = ()
    #: The line as written, without its ``- ``: ``W @Peter: Lives in Vienna.``
    text: str = ""

    @property
    def source(self) -> str:
        """The citation of the new bullet: ``memory/2025-12-13.md#L4``."""
        return source_ref(self.path, self.line, self.line)


def _problem(bullet: str, reason: str) -> BulletError:
    return BulletError(
        f"malformed Retain bullet {bullet!r}: {reason}. "
        f"Expected one line `{EXPECTED}`, e.g. `{EXAMPLE}`; nothing was written"
    )


def check_bullet(bullet: str, path: str) -> str:
    """The bullet's line text (without ``- ``) if it parses as exactly one typed bullet of a
    Retain section of `path` with no warnings; :class:`BulletError` otherwise."""
    text = bullet.strip()
    if not text:
        raise _problem(bullet, "it is empty")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # a shell argument with invalid UTF-8 (surrogateescape)
        raise _problem(
            bullet, f"it is not valid UTF-8 text (character {exc.start + 1} is an invalid byte)"
        ) from None
    if control := next((ch for ch in text if ord(ch) < 32 and ch not in "\t\n\r"), None):
        # A NUL would make the whole daily log read as binary and drop out of the index.
        raise _problem(bullet, f"it holds the control character {control!r}")
    lines = text.splitlines()
    if len(lines) > 1:
        raise _problem(bullet, f"a Retain bullet is one line, this has {len(lines)}")
    if text.startswith("- "):
        text = text[2:].strip()
    parsed = parse(path, f"## Retain\n- {text}\n")
    if parsed.warnings:
        # The parser's notices end in what the indexer does about it ("; indexed as log
        # text"), which is not what happens here: nothing is written.
        reasons = "; ".join(w.message.split("; ")[0] for w in parsed.warnings)
        raise _problem(bullet, reasons)
    typed = [b for b in parsed.blocks if not b.is_passage]
    if len(parsed.blocks) != 1 or len(typed) != 1:
        raise _problem(bullet, "it is not a typed bullet")
    return text


def _retain_section(lines: list[bytes]) -> tuple[int, int] | None:
    """(heading index, end index) of the last Retain section in `lines`, if any.

    The section ends before the next heading of the same or a higher level; headings inside
    code fences and front matter are not headings, as in the parser.
    """
    text = [ln.decode("utf-8", errors="replace").rstrip("\r\n") for ln in lines]
    if text:
        text[0] = text[0].removeprefix("\ufeff")
    _, start = front_matter(text)
    found: tuple[int, int] | None = None
    open_section: tuple[int, int] | None = None  # (heading index, level)
    fence: str | None = None
    for i in range(start, len(text)):
        line = text[i]
        if fence is not None:
            if line.strip().startswith(fence):
                fence = None
            continue
        if m := FENCE.match(line):
            fence = m.group(1)
            continue
        if found_heading := heading(line):
            level, title = found_heading
            if open_section is not None and level <= open_section[1]:
                found, open_section = (open_section[0], i), None
            if title.rstrip(":").strip().casefold() in RETAIN_HEADINGS:
                open_section = (i, level)
    if open_section is not None:
        found = (open_section[0], len(text))
    return found


def insert_bullet(data: bytes, bullet: str, day: date) -> tuple[bytes, int]:
    """`data` (a daily log's bytes, possibly empty) with ``- bullet`` added to its Retain
    section, and the bullet's 1-based line number. Every other byte is kept."""
    item = f"- {bullet}".encode()
    if not data:
        eol = b"\n"
        return eol.join([f"# {day.isoformat()}".encode(), b"", b"## Retain", item, b""]), 4
    eol = newline_of(data).encode()
    lines = data.splitlines(keepends=True)
    section = _retain_section(lines)
    if section is None:
        head = data if data.endswith((b"\n", b"\r")) else data + eol
        tail = lines[-1] if lines[-1].strip() else b""
        gap = eol if tail else b""  # a blank line before the new heading
        return head + gap + b"## Retain" + eol + item + eol, len(lines) + (2 if tail else 1) + 1
    heading, end = section
    last = heading
    for i in range(heading + 1, end):
        if lines[i].strip():
            last = i
    before = lines[: last + 1]
    if not before[-1].endswith((b"\n", b"\r")):
        before[-1] += eol
    return b"".join([*before, item + eol, *lines[last + 1 :]]), last + 2


@contextlib.contextmanager
def _retain_lock(settings: Settings) -> Iterator[None]:
    """Hold an exclusive lock while a daily log is read, changed and written.

    Two retains racing (the CLI and the MCP server, say) would otherwise both read the old
    file and the second write would drop the first bullet. The wait is short: the critical
    section is one small file. Separate from the index's writer lock, which fails fast.
    """
    settings.memory_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(settings.memory_dir / RETAIN_LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _target(settings: Settings, rel: str) -> Path:
    """The file to write; a symlink is followed only while it stays inside the workspace."""
    path = settings.workspace / rel
    if path.is_symlink():
        resolved = path.resolve()
        if not resolved.is_relative_to(settings.workspace.resolve()):
            raise WorkspaceError(
                f"{rel} is a symlink leaving the workspace; retain will not write through it"
            )
        return resolved
    return path


def retain(
    settings: Settings,
    bullet: str,
    *,
    today: date,
    reindex: bool = True,
    on_wait: Callable[[str], None] | None = None,
    replaces: str | None = None,
) -> RetainResult:
    """Append `bullet` (``W|B|O|O(c=0.8)|S @Entity: text``, with or without ``- ``) to the
    Retain section of ``memory/<today>.md`` and, when `reindex`, bring the index up to date.

    `replaces` (``memory/2025-11-27.md#L12``) names the fact the bullet replaces: the bullet
    is written with ``(replaces memory/2025-11-27.md#L12)`` at its end, which the index reads
    as a SUPERSEDES edge (graphmem.compile.explicit); the old line stays, closed.

    Raises :class:`BulletError` for a malformed or multi-line bullet, or a `replaces` that
    names no fact line, before writing anything. Once the bullet is written nothing raises:
    an index that fails says so in `notice`. The same bullet already in today's Retain
    section is not written again (a retry is safe).
    """
    _check_workspace(settings)
    rel = f"memory/{today.isoformat()}.md"
    text = check_bullet(bullet, rel)
    if replaces is not None:
        target = find_line(settings, replaces)
        if target.block.kind == "opinion":
            raise BulletError(
                f"{replaces} is an opinion; an opinion is not replaced but retracted "
                "(`graphmem retract`) or answered by a new O bullet; nothing was written"
            )
        _, then, _ = file_role(target.path)
        if then is not None and then > today:
            raise BulletError(
                f"{replaces} is dated {then.isoformat()}, after {today.isoformat()}: a bullet "
                "replaces only an older line; nothing was written"
            )
        if read_link(text) is not None:
            raise BulletError(f"the bullet already ends in a link: {text!r}; nothing was written")
        text = check_bullet(f"{text.rstrip()} (replaces {target.source})", rel)
    return _write(settings, rel, text, today, reindex, on_wait)


def _check_workspace(settings: Settings) -> None:
    if not settings.workspace.is_dir():
        raise WorkspaceError(
            f"workspace {settings.workspace} does not exist; "
            "pass --workspace DIR or set GRAPHMEM_WORKSPACE"
        )


def _write(
    settings: Settings,
    rel: str,
    text: str,
    today: date,
    reindex: bool,
    on_wait: Callable[[str], None] | None = None,
) -> RetainResult:
    """Write the checked bullet `text` into `rel`'s Retain section and re-index (waiting,
    bounded, for another writer; `on_wait` hears of it)."""
    with _retain_lock(settings):
        path = _target(settings, rel)
        if path.exists() and not path.is_file():
            raise WorkspaceError(f"{rel} exists but is not a file; retain will not touch it")
        try:
            old = read_regular(path) if path.exists() else b""
        except NotRegularFile:  # swapped for a FIFO or a device since the check above
            raise WorkspaceError(f"{rel} is not a regular file; retain will not touch it") from None
        if b"\x00" in old:
            raise WorkspaceError(f"{rel} holds binary data; retain will not append to it")
        if (line := existing_bullet(old, text)) is not None:
            # The same bullet already sits in today's Retain section: an agent retrying
            # after a timeout (or a crash between write and index) must not duplicate it.
            new, repeat = (
                old,
                f"already retained at {source_ref(rel, line, line)}; not written again",
            )
        else:
            new, line = insert_bullet(old, text, today)
            repeat = None
        block = _block_at(rel, new, line)
        if block is None:
            # The file's surroundings (an unclosed code fence, say) would swallow the
            # bullet; writing it anyway would store a fact the index never sees.
            raise BulletError(
                f"{rel}: the bullet would not read as a Retain fact at line {line} "
                "(is a code fence left open above it?); fix the file, nothing was written"
            )
        if repeat is None:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, new)
    report: IndexReport | None = None
    problem: str | None = None
    if reindex:
        # The bullet is saved: from here on nothing may report failure, or the caller
        # retries and the log collects copies. Whatever stops the index becomes a notice.
        try:
            report = index_workspace(settings, on_wait=on_wait)
        except IndexLockedError as exc:
            problem = f"saved, but the index was not updated: {exc}"
        except Exception as exc:  # the bullet is written: say so, then why the index is not
            reason = str(exc) if isinstance(exc, GraphmemError) else f"{type(exc).__name__}: {exc}"
            problem = (
                f"saved, but the index was not updated ({(reason or '?').splitlines()[0]}); "
                "run `graphmem index` once the problem is fixed"
            )
    notice = "; ".join(n for n in (repeat, problem) if n) or None
    warnings: tuple[str, ...] = ()
    if not block.mentions:
        warnings = (
            "the bullet names no @entity, so `about` and entity recall will not find it; "
            f"say who or what it is about, e.g. `{EXAMPLE}`",
        )
    return RetainResult(rel, line, block.id, block, report, notice, warnings, text)


def existing_bullet(data: bytes, text: str) -> int | None:
    """The 1-based line of ``- text`` in the Retain section of `data`, if it is there."""
    if not data:
        return None
    lines = data.splitlines(keepends=True)
    section = _retain_section(lines)
    if section is None:
        return None
    item = f"- {text}".encode()
    for i in range(section[0] + 1, section[1]):
        if lines[i].strip() == item:
            return i + 1
    return None


def _block_at(rel: str, data: bytes, line: int) -> Block | None:
    """The typed Retain block the indexer will read at `line` of `data`, if any."""
    text = data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    for block in parse(rel, text).blocks:
        if block.line_start == line and not block.is_passage and block.origin == "retain":
            return block if block.line_end == line else None
    return None


@dataclass(frozen=True)
class Line:
    """A typed bullet found by its citation: where it is and what the parser reads there."""

    path: str
    block: Block

    @property
    def source(self) -> str:
        """Its citation, first line only: ``memory/2025-11-27.md#L12``."""
        return f"{self.path}#L{self.block.line_start}"


def find_line(settings: Settings, source: str) -> Line:
    """The typed bullet (fact or opinion) at `source` (``path#L12`` or ``path#L12-L13``,
    workspace-relative); :class:`BulletError` saying what is there when it is none."""
    path, sep, lines = source.strip().partition("#L")
    first = lines.split("-")[0]
    if not sep or not path or not first.isdigit():
        raise BulletError(
            f"{source!r} is not a line citation; expected PATH#Ln, e.g. memory/2025-11-27.md#L12"
        )
    rel = Path(path).as_posix()
    target = settings.workspace / rel
    if rel.startswith(("/", "..")) or ".." in Path(rel).parts or not target.is_file():
        raise BulletError(f"{source}: no such file in the workspace; nothing was written")
    line = int(first)
    data = target.read_bytes().removeprefix(b"\xef\xbb\xbf")
    for block in parse(rel, data.decode("utf-8", errors="replace")).blocks:
        if not block.is_passage and block.line_start <= line <= block.line_end:
            return Line(rel, block)
    raise BulletError(
        f"{source}: line {line} holds no fact or opinion bullet (only typed bullets and "
        "memory.md lines can be replaced or retracted); nothing was written"
    )


def retraction_bullet(target: Line, reason: str | None) -> str:
    """The retraction line for `target`: ``S @Peter: retracted: REASON (retracts path#Ln)``;
    without a reason it quotes the retracted text."""
    who = " ".join(f"@{m}" for m in (target.block.subject or target.block.mentions[:1]))
    said = " ".join((reason or "").split()) or f"“{_clip(target.block.text)}” no longer holds"
    return f"S {who + ': ' if who else ''}retracted: {said} (retracts {target.source})"


def _clip(text: str, limit: int = 100) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def retract(
    settings: Settings,
    source: str,
    *,
    today: date,
    reason: str | None = None,
    reindex: bool = True,
) -> RetainResult:
    """Write a dated retraction of the fact or opinion at `source` into today's Retain
    section (see :func:`retraction_bullet`) and re-index: a fact ends today (valid_to), an
    opinion is marked retracted with the line as its evidence. Nothing is deleted."""
    _check_workspace(settings)
    rel = f"memory/{today.isoformat()}.md"
    target = find_line(settings, source)
    if reason is not None and ("\n" in reason or "\r" in reason):
        raise BulletError("a retraction reason is one line; nothing was written")
    text = check_bullet(retraction_bullet(target, reason), rel)
    return _write(settings, rel, text, today, reindex)
