"""graphmem.store.beside: supersession computed in a forked child gives the build the
same answer as computing it in-process."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from conftest import settings_for
from snapshot import assert_same, take

from graphmem.index.build import index_workspace
from graphmem.store.beside import ENV, Later

FORKS = hasattr(os, "fork") and (os.cpu_count() or 1) > 1 and threading.active_count() == 1


@pytest.mark.skipif(not FORKS, reason="no fork, one CPU, or other threads in this process")
def test_the_work_runs_in_a_child_and_its_result_comes_back() -> None:
    later = Later(lambda: (os.getpid(), {"edges": [1, 2, 3]}))
    pid, value = later.get()
    assert pid != os.getpid() and value == {"edges": [1, 2, 3]}
    assert later.get() is later.get()  # asked once


def test_without_fork_the_work_runs_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "0")
    assert Later(os.getpid).get() == os.getpid()


def test_with_other_threads_running_nothing_is_forked() -> None:
    """Forking a process with threads (the resident daemon) is unsafe: it computes here."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert Later(os.getpid).get() == os.getpid()
    finally:
        stop.set()
        other.join()


def test_a_child_that_fails_leaves_the_work_to_this_process() -> None:
    parent = os.getpid()

    def work() -> int:
        if os.getpid() != parent:
            os._exit(3)  # the child dies without an answer
        return 42

    assert Later(work).get() == 42


def test_a_failure_of_the_work_itself_is_raised_here() -> None:
    def work() -> int:
        raise ValueError("bad input")

    with pytest.raises(ValueError, match="bad input"):
        Later(work).get()


@pytest.mark.skipif(not FORKS, reason="no fork, one CPU, or other threads in this process")
def test_a_full_build_with_supersession_beside_equals_one_without(
    sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import shutil

    import graphmem.compile.rows as rows

    children: list[int] = []
    find = rows._supersessions_and_bearing

    def spy(*args: object, **kwargs: object) -> object:
        children.append(os.getpid())
        return find(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rows, "_supersessions_and_bearing", spy)
    alone = tmp_path / "alone"
    shutil.copytree(sample, alone)
    index_workspace(settings_for(sample))
    forked = list(children)
    monkeypatch.setenv(ENV, "0")
    index_workspace(settings_for(alone))
    assert forked == [] and children == [os.getpid()]  # the child's call is not seen here
    assert_same(take(settings_for(sample)), take(settings_for(alone)), "beside vs in-process")


@pytest.mark.skipif(not FORKS, reason="no fork, one CPU, or other threads in this process")
def test_dating_half_the_files_beside_gives_the_datings_and_notices_of_one_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The extract stage dates half the uncached files in a child: each file's datings,
    warnings and notices are those of dating them all here."""
    from conftest import FIXTURES

    from graphmem.extract import stage
    from graphmem.parse.parser import parse
    from graphmem.store.cache import FileCache

    files = sorted(p for p in FIXTURES.glob("*/**/*.md") if ".memory" not in p.parts)
    parsed = [
        parse(p.relative_to(FIXTURES).as_posix().split("/", 1)[1], p.read_text(errors="replace"))
        for p in files
    ]
    parsed += [  # Italian is dated by dateparser (the fallback), in the child too
        parse(f"memory/2025-10-{d:02d}.md", "Domani andiamo a Roma; ieri pioveva.\n")
        for d in (1, 2)
    ]
    parsed = list({pf.path: pf for pf in parsed}.values())  # bad/ and sample/ share paths
    monkeypatch.setattr(stage, "DATE_AHEAD_MIN", 1)

    def dated(fork: str, name: str) -> tuple[list[object], list[str]]:
        monkeypatch.setenv(ENV, fork)
        cache = FileCache(tmp_path / f"{name}.sqlite")
        try:
            ex = stage.Extractor(cache, {pf.path: pf.path for pf in parsed}, None)
            ex.date_ahead(parsed)
            assert len(ex._dated) == len(parsed)
            out = [(ex.times(pf), ex.warnings[pf.path]) for pf in parsed]
            return out, list(ex.notices)
        finally:
            cache.close()

    assert dated("1", "beside") == dated("0", "here")
