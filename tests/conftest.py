"""Shared fixtures: real workspaces in tmp_path, real Kùzu and SQLite underneath."""

from __future__ import annotations

import contextlib
import itertools
import os
import shutil
import signal
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from graphmem.config import MODEL_CACHE_ENV, Settings, resolve_settings

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

# No `graphmem` process a test starts asks for, or starts, a resident daemon, unless the test
# says so (tests/surfaces/test_resident.py); _no_stray_daemons sweeps up after those.
os.environ["GRAPHMEM_RESIDENT"] = "off"

WriteFiles = Callable[[dict[str, str | bytes]], Path]


@pytest.fixture(autouse=True, scope="session")
def _shared_model_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The tests share one per-user model cache among themselves (subprocesses inherit
    the variable; :func:`settings_for` reads it) and never write the user's ~/.cache."""
    before = os.environ.get(MODEL_CACHE_ENV)
    os.environ[MODEL_CACHE_ENV] = str(tmp_path_factory.mktemp("shared-models"))
    yield
    if before is None:
        os.environ.pop(MODEL_CACHE_ENV, None)
    else:
        os.environ[MODEL_CACHE_ENV] = before


def stray_daemons(under: Path) -> list[int]:
    """Pids of ``graphmem daemon`` processes serving a workspace under `under`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().decode("utf-8", "replace").split("\0")
        except OSError:
            continue
        if "graphmem" not in argv or "daemon" not in argv:
            continue
        for flag, value in itertools.pairwise(argv):
            if flag in ("-w", "--workspace") and Path(value).is_relative_to(under):
                found.append(int(entry.name))
    return found


@pytest.fixture(autouse=True, scope="session")
def _no_stray_daemons(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """At the end of the session, stop any daemon still serving a test's workspace."""
    yield
    base = tmp_path_factory.getbasetemp().resolve()
    for pid in stray_daemons(base):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)


@pytest.fixture
def make_workspace(tmp_path: Path) -> WriteFiles:
    """Write {relative path: text or bytes} into a fresh workspace and return its root."""
    root = tmp_path / "ws"

    def write(files: dict[str, str | bytes]) -> Path:
        for rel, content in files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
        root.mkdir(parents=True, exist_ok=True)
        return root

    return write


def settings_for(root: Path, **overrides: object) -> Settings:
    """Settings for a test workspace: small buffer pool, no heavy models unless asked."""
    base: dict[str, object] = {"buffer_pool_mb": 64, "ner_model": None, "embed_model": None}
    base.update(overrides)
    # the session's model cache (a fresh interpreter a test starts may not have it)
    cache = os.environ.get(MODEL_CACHE_ENV)
    env = {MODEL_CACHE_ENV: cache} if cache is not None else {}
    return replace(resolve_settings(root, env=env), **base)  # type: ignore[arg-type]


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    """A private copy of fixtures/sample (tests may index and edit it)."""
    dest = tmp_path / "sample"
    shutil.copytree(FIXTURES / "sample", dest, ignore=shutil.ignore_patterns(".memory"))
    return dest


def italian_log(lines: int) -> str:
    """A daily log of `lines` short Italian list items, each dated "ieri" (the day before)
    by dateparser alone: the time grammar does not read Italian (graphmem.extract.timex_fallback)."""
    return "".join(f"- ieri sono andato con Marco al mare, giro {i}.\n" for i in range(lines))
