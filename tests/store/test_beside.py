"""graphmem.store.beside: work done in a forked child gives the answer of doing it here.

The tests that need a fork run in a fresh interpreter: earlier tests leave threads in this
one (an embedder's thread pool), and with other threads running nothing is forked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, settings_for
from snapshot import assert_same, take

from graphmem.config import resolve_settings
from graphmem.index.build import index_workspace
from graphmem.store.beside import Later

FORKS = hasattr(os, "fork") and (os.cpu_count() or 1) > 1
needs_fork = pytest.mark.skipif(not FORKS, reason="no os.fork, or one CPU")


def fresh_python(code: str, **env: str) -> object:
    """Run `code` in a new interpreter (tests/ and the repository on its path); returns
    the JSON it prints last."""
    base = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("GRAPHMEM_") or k == "GRAPHMEM_RESIDENT"
    }
    paths = os.pathsep.join([str(ROOT / "tests"), str(ROOT)])
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=base | {"PYTHONPATH": paths, "GRAPHMEM_NER_MODEL": "none"} | env,
        cwd=ROOT,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@needs_fork
def test_the_work_runs_in_a_child_and_its_result_comes_back() -> None:
    code = """
import json, os
from graphmem.store.beside import Later
later = Later(lambda: (os.getpid(), {"edges": [1, 2, 3]}))
pid, value = later.get()
print(json.dumps([pid != os.getpid(), value, later.get() is later.get()]))
"""
    assert fresh_python(code) == [True, {"edges": [1, 2, 3]}, True]


def test_without_fork_the_work_runs_here(tmp_path: Path) -> None:
    fork = resolve_settings(tmp_path, env={"GRAPHMEM_FORK": "0"}).fork
    assert Later(os.getpid, beside=fork).get() == os.getpid()


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


@needs_fork
def test_a_full_build_with_supersession_beside_equals_one_without(
    sample: Path, tmp_path: Path
) -> None:
    """A fresh interpreter builds `sample` with supersession in a child (a spy there sees
    its call only in the child); this one builds a copy in-process; the two are equal."""
    import shutil

    alone = tmp_path / "alone"
    shutil.copytree(sample, alone)
    code = f"""
import json, os
import graphmem.compile.rows as rows
from conftest import settings_for
from graphmem.index.build import index_workspace
where = []
find = rows._supersessions_and_bearing
def spy(*a, **k):
    where.append(os.getpid())
    return find(*a, **k)
rows._supersessions_and_bearing = spy
index_workspace(settings_for({str(sample)!r}))
print(json.dumps(where))
"""
    assert fresh_python(code) == []  # the child's call is not seen in its parent
    index_workspace(settings_for(alone, fork=False))
    assert_same(take(settings_for(sample)), take(settings_for(alone)), "beside vs in-process")


@needs_fork
def test_dating_half_the_files_beside_gives_the_datings_and_notices_of_one_process(
    tmp_path: Path,
) -> None:
    """The extract stage dates half the uncached files in a child: each file's datings,
    warnings and notices are those of dating them all here."""
    code = f"""
import json, os
from pathlib import Path
from graphmem.config import resolve_settings
from graphmem.extract import stage
from graphmem.parse.parser import parse
from graphmem.store.cache import FileCache
root = Path({str(FIXTURES)!r})
files = sorted(p for p in root.glob("*/**/*.md") if ".memory" not in p.parts)
parsed = [parse(p.relative_to(root).as_posix().split("/", 1)[1], p.read_text(errors="replace"))
          for p in files]
parsed += [parse(f"memory/2025-10-{{d:02d}}.md", "Domani andiamo a Roma; ieri pioveva.\\n")
           for d in (1, 2)]  # Italian is dated by dateparser (the fallback), in the child too
parsed = list({{pf.path: pf for pf in parsed}}.values())  # bad/ and sample/ share paths
stage.DATE_AHEAD_MIN = 1
here = []
dating = stage._dating
def spy(pf):
    here.append(pf.path)
    return dating(pf)
stage._dating = spy
cache = FileCache(Path({str(tmp_path)!r}) / (os.environ["GRAPHMEM_FORK"] + ".sqlite"))
fork = resolve_settings(root).fork  # GRAPHMEM_FORK, as a command reads it
ex = stage.Extractor(cache, {{pf.path: pf.path for pf in parsed}}, None, fork=fork)
ex.date_ahead(parsed)
assert len(ex._dated) == len(parsed)
out = [[repr(sorted(ex.times(pf).items())), repr(ex.warnings[pf.path])] for pf in parsed]
cache.close()
print(json.dumps([out, ex.notices, len(here), len(parsed)]))
"""
    beside, alone = fresh_python(code, GRAPHMEM_FORK="1"), fresh_python(code, GRAPHMEM_FORK="0")
    assert isinstance(beside, list) and isinstance(alone, list)
    assert beside[:2] == alone[:2]
    assert alone[2] == alone[3] and beside[2] == beside[3] // 2  # the child dated the rest
