"""Reliability: SIGKILL mid-index, readers and writers at the same time, read-only Cypher.

Everything runs for real: the ``graphmem`` CLI in a subprocess, Kùzu and SQLite in tmp_path.

Kill points are events, not delays, so every run kills at the same place: a small driver
(:data:`DRIVER`) runs the CLI's own ``main()`` and stops itself with SIGSTOP at one named point
of the index run (e.g. halfway through the bulk load, or after ``meta.json`` is written but
before ``CURRENT`` is replaced); the test waits for the stop and then SIGKILLs it (or SIGCONTs
it, to hold an index mid-build while readers work). The default run kills at three points;
``-m slow`` kills at every point of both a ``--force`` and an incremental run, kills the plain
``graphmem`` command when its new ``graph.kuzu`` appears, and kills after delays spread over a
measured run (those may land anywhere, and every landing must be just as harmless).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, settings_for
from typer.testing import CliRunner

from graphmem.config import Settings
from graphmem.errors import IndexLockedError
from graphmem.index.build import index_workspace
from graphmem.memory import current_generation, run_cypher, status
from graphmem.recall.engine import Recaller, RecallOptions, recall
from graphmem.store.layout import KEEP_PREVIOUS
from graphmem.surfaces.cli import app

ENV = {
    "GRAPHMEM_NER_MODEL": "none",
    "GRAPHMEM_EMBED_MODEL": "none",
    "GRAPHMEM_BUFFER_POOL_MB": "64",
}
#: Hang guard for anything that waits on a subprocess; never a performance assertion.
HANG = 300.0
QUESTION = "where does Peter live"
NOW = date(2025, 12, 12)
CITATION = re.compile(r"^memory/\d{4}-\d{2}-\d{2}\.md#L\d+(-L\d+)?$")
EDITED = "memory/2025-12-12.md"
EDIT = "- W @Peter: Peter adopted a cat called Biscuit on Dec 12, 2025.\n"

DRIVER = r'''
"""Run graphmem's CLI; stop (SIGSTOP) at the named point of an index run, so a test can
kill or resume the process exactly there."""
import os
import signal
import sys
from pathlib import Path

POINT = os.environ["GM_STOP_AT"]
MARKER = Path(os.environ["GM_MARKER"])


def stop(name):
    if name == POINT:
        MARKER.write_text(f"{os.getpid()}\n")
        os.kill(os.getpid(), signal.SIGSTOP)


def wrap(owner, attr, before=None, after=None):
    original = getattr(owner, attr)  # AttributeError: the hook point moved; fail loudly

    def hooked(*args, **kwargs):
        if before:
            before(*args, **kwargs)
        result = original(*args, **kwargs)
        if after:
            after(*args, **kwargs)
        return result

    setattr(owner, attr, hooked)


import graphmem.store.cache
import graphmem.store.db
import graphmem.index.delta
import graphmem.index.build
import graphmem.search.seeds
import graphmem.store.layout

copies = []


def nth_copy(*args, **kwargs):
    copies.append(args)
    if len(copies) == 3:  # Source and Entity are loaded, Fact is next
        stop("mid-load")


def named(path):
    return os.path.basename(os.fspath(path))


real_replace = os.replace


def replace(src, dst, *args, **kwargs):
    if named(dst) == "CURRENT":
        stop("current-tmp")  # the new CURRENT is written to its temporary file, not renamed
    return real_replace(src, dst, *args, **kwargs)


wrap(graphmem.store.cache.FileCache, "commit", before=lambda *a, **k: stop("cache-commit"))
wrap(graphmem.store.layout.Store, "new_generation", after=lambda *a, **k: stop("new-gen"))
wrap(graphmem.store.db.Graph, "copy_csv", before=nth_copy)
wrap(graphmem.index.build, "build_seeds", before=lambda *a, **k: stop("graph-built"))
# The incremental path (graphmem.index.delta) reaches the same points its own way.
wrap(graphmem.index.delta, "add_rows", before=lambda *a, **k: stop("mid-load"))
wrap(graphmem.search.seeds.SeedIndex, "patch", before=lambda *a, **k: stop("graph-built"))
publishing = []


def publish(*args, **kwargs):
    stop("seeds-built")
    publishing.append(True)


wrap(graphmem.store.layout.Store, "publish", before=publish)
wrap(
    graphmem.store.layout,
    "write_atomic",
    before=lambda path, data: stop("meta-written") if named(path) == "CURRENT" else None,
)
os.replace = replace
wrap(
    graphmem.store.layout.Store,
    "collect_garbage",
    before=lambda *a, **k: stop("published") if publishing else None,
)

from graphmem.surfaces.cli import main

sys.argv = ["graphmem", *sys.argv[1:]]
main()
'''

#: Named stop points, in the order an index run reaches them.
POINTS = (
    "cache-commit",  # parsed and extracted; the cache transaction is not committed yet
    "new-gen",  # the new generation's folder exists, empty
    "mid-load",  # graph.kuzu open for writing: two tables loaded (full), old rows deleted (delta)
    "graph-built",  # graph complete and closed; seeds.sqlite not built (full) or not patched
    "seeds-built",  # graph and seeds complete, no meta.json
    "meta-written",  # meta.json written, CURRENT still names the old generation
    "current-tmp",  # the new CURRENT written to a temporary file, not yet renamed
    "published",  # CURRENT names the new generation; old ones not collected yet
)
AFTER_PUBLISH = {"published"}


# ----------------------------------------------------------------------------- helpers


def cli_env() -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("GRAPHMEM_") or k == "GRAPHMEM_RESIDENT"
    }
    return {**env, **ENV}


def graphmem_command() -> list[str]:
    """The installed console script (the thing users run), else ``python -m graphmem``."""
    script = shutil.which("graphmem")
    return [script] if script else [sys.executable, "-m", "graphmem"]


def run_cli(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*graphmem_command(), "--workspace", str(root), *args],
        env=cli_env(),
        capture_output=True,
        text=True,
        timeout=HANG,
    )


def _clean(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _clean(v)) for k, v in value.items() if not k.startswith("_")))
    if isinstance(value, list):
        return tuple(_clean(v) for v in value)
    return value


def counts(settings: Settings) -> dict[str, int]:
    """Rows per node label and per relationship label."""
    rows = run_cypher(settings, "MATCH (n) RETURN label(n), count(*)").rows
    rows += run_cypher(settings, "MATCH ()-[r]->() RETURN label(r), count(*)").rows
    return dict(sorted((str(k), int(v)) for k, v in rows))


def snapshot(settings: Settings) -> dict[str, Any]:
    """Everything the current generation holds, free of Kùzu's internal ids: per-label counts,
    every node's properties, every relationship (label, ends, properties), every seed row."""
    nodes = run_cypher(settings, "MATCH (n) RETURN n").rows
    key = "coalesce({0}.id, {0}.slug, {0}.path)"
    rels = run_cypher(
        settings,
        f"MATCH (a)-[r]->(b) RETURN label(r), label(a), {key.format('a')}, "
        f"label(b), {key.format('b')}, r",
    ).rows
    seeds_path = current_generation(settings).seeds
    with sqlite3.connect(f"file:{seeds_path}?mode=ro", uri=True) as conn:
        seeds = conn.execute("SELECT id, kind, text, day, path FROM seeds ORDER BY id").fetchall()
    return {
        "counts": counts(settings),
        "nodes": sorted(repr((row[0]["_label"], _clean(row[0]))) for row in nodes),
        "rels": sorted(repr(_clean(row)) for row in rels),
        "seeds": seeds,
    }


def assert_recall_answers(settings: Settings) -> None:
    result = recall(settings, QUESTION, RecallOptions(now=NOW))
    cited = [p.source for p in result.packets if CITATION.match(p.source)]
    assert cited, [p.source for p in result.packets]


def generation_dirs(root: Path) -> list[Path]:
    return sorted(p for p in (root / ".memory").glob("gen-*") if p.is_dir())


def assert_only_complete_generations(root: Path) -> None:
    """Half-built generations are gone; at most KEEP_PREVIOUS old ones are kept."""
    gens = generation_dirs(root)
    assert all((g / "meta.json").exists() for g in gens), [g.name for g in gens]
    assert len(gens) <= 1 + KEEP_PREVIOUS, [g.name for g in gens]


def edit(root: Path) -> None:
    with (root / EDITED).open("a", encoding="utf-8") as fh:
        fh.write(EDIT)


@dataclass(frozen=True)
class Refs:
    """A copy of fixtures/sample indexed once, and clean-rebuild snapshots to compare with."""

    template: Path
    driver: Path
    original: dict[str, Any]
    edited: dict[str, Any]

    def copy(self, dest: Path) -> Path:
        shutil.copytree(self.template, dest, symlinks=True)
        return dest


@pytest.fixture(scope="module")
def refs(tmp_path_factory: pytest.TempPathFactory) -> Refs:
    base = tmp_path_factory.mktemp("reliability")
    ignore = shutil.ignore_patterns(".memory")
    template = base / "indexed"
    shutil.copytree(FIXTURES / "sample", template, ignore=ignore)
    index_workspace(settings_for(template))
    edited = base / "edited"
    shutil.copytree(FIXTURES / "sample", edited, ignore=ignore)
    edit(edited)
    index_workspace(settings_for(edited))
    driver = base / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    return Refs(template, driver, snapshot(settings_for(template)), snapshot(settings_for(edited)))


def _state(pid: int) -> str:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return "?"
    return stat.rsplit(")", 1)[1].split()[0]


@contextmanager
def stopped_index(
    refs: Refs, root: Path, point: str, *args: str
) -> Iterator[subprocess.Popen[str]]:
    """``graphmem index ARGS`` held (SIGSTOPped) at `point`; killed on the way out if alive."""
    if not Path(f"/proc/{os.getpid()}/stat").exists():
        pytest.skip("needs /proc to see that the index process has stopped")
    marker = root.parent / f"{root.name}.{point}.stopped"
    proc = subprocess.Popen(
        [sys.executable, str(refs.driver), "--workspace", str(root), "index", *args],
        env={**cli_env(), "GM_STOP_AT": point, "GM_MARKER": str(marker)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + HANG
        while not (marker.exists() and _state(proc.pid) in {"T", "t"}):
            if proc.poll() is not None:
                out, err = proc.communicate()
                pytest.fail(f"index exited ({proc.returncode}) before {point!r}:\n{out}\n{err}")
            if time.monotonic() > deadline:
                pytest.fail(f"index never reached {point!r}")
            time.sleep(0.005)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        if proc.stdout is not None and not proc.stdout.closed:
            proc.communicate(timeout=HANG)
        proc.wait(timeout=HANG)


def resume(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    proc.send_signal(signal.SIGCONT)
    out, err = proc.communicate(timeout=HANG)
    return proc.returncode, out, err


# ----------------------------------------------------------------------------- crash safety

DEFAULT_KILLS = {("mid-load", "force"), ("meta-written", "edit"), ("published", "edit")}
KILLS = [
    pytest.param(point, mode, marks=() if (point, mode) in DEFAULT_KILLS else pytest.mark.slow)
    for point in POINTS
    for mode in ("force", "edit")
]


@pytest.mark.parametrize(("point", "mode"), KILLS)
def test_sigkill_mid_index_leaves_the_old_or_the_new_index(
    refs: Refs, tmp_path: Path, point: str, mode: str
) -> None:
    root = refs.copy(tmp_path / "ws")
    settings = settings_for(root)
    old = status(settings).generation
    if mode == "edit":
        edit(root)
    args = ("--force",) if mode == "force" else ()
    with stopped_index(refs, root, point, *args) as proc:
        proc.kill()
        proc.wait(timeout=HANG)
    expected = refs.edited if mode == "edit" else refs.original

    # Readers see a complete index: the old one before CURRENT is replaced, the new one after.
    st = status(settings)
    assert st.generation is not None
    if point in AFTER_PUBLISH:
        assert st.generation != old and snapshot(settings) == expected
    else:
        assert st.generation == old and snapshot(settings) == refs.original
    assert_recall_answers(settings)

    # The same command again completes, and equals a clean rebuild.
    index_workspace(settings, force=mode == "force")
    assert snapshot(settings) == expected
    assert status(settings).fresh
    assert_only_complete_generations(root)


@pytest.mark.slow
def test_sigkill_of_the_graphmem_command_when_its_new_graph_appears(
    refs: Refs, tmp_path: Path
) -> None:
    root = refs.copy(tmp_path / "ws")
    settings = settings_for(root)
    old = {p.name for p in generation_dirs(root)}
    proc = subprocess.Popen(
        [*graphmem_command(), "--workspace", str(root), "index", "--force"],
        env=cli_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + HANG
        while proc.poll() is None and time.monotonic() < deadline:
            if any((p / "graph.kuzu").exists() for p in generation_dirs(root) if p.name not in old):
                break
            time.sleep(0.002)
        proc.kill()
    finally:
        proc.communicate(timeout=HANG)
    assert status(settings).generation is not None
    assert snapshot(settings) == refs.original  # old or new: a --force of unchanged files
    assert_recall_answers(settings)
    done = run_cli(root, "index", "--force")
    assert done.returncode == 0, done.stderr
    assert snapshot(settings) == refs.original
    assert_only_complete_generations(root)


@pytest.fixture(scope="module")
def index_seconds(refs: Refs, tmp_path_factory: pytest.TempPathFactory) -> float:
    """How long one ``graphmem index --force`` of the sample takes here (to spread kills)."""
    root = refs.copy(tmp_path_factory.mktemp("measure") / "ws")
    started = time.monotonic()
    assert run_cli(root, "index", "--force").returncode == 0
    return time.monotonic() - started


@pytest.mark.slow
@pytest.mark.parametrize("fraction", [0.15, 0.3, 0.45, 0.6, 0.75, 0.9])
def test_sigkill_after_a_delay_leaves_a_consistent_index(
    refs: Refs, tmp_path: Path, index_seconds: float, fraction: float
) -> None:
    """Delays land anywhere (startup, parse, load, publish); every landing must be harmless."""
    root = refs.copy(tmp_path / "ws")
    edit(root)
    settings = settings_for(root)
    proc = subprocess.Popen(
        [*graphmem_command(), "--workspace", str(root), "index"],
        env=cli_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(index_seconds * fraction)
        proc.kill()
    finally:
        proc.communicate(timeout=HANG)
    assert snapshot(settings) in (refs.original, refs.edited)
    assert_recall_answers(settings)
    index_workspace(settings)
    assert snapshot(settings) == refs.edited


def test_a_plain_index_after_a_killed_force_removes_the_half_built_generation(
    refs: Refs, tmp_path: Path
) -> None:
    root = refs.copy(tmp_path / "ws")
    with stopped_index(refs, root, "mid-load", "--force") as proc:
        proc.kill()
        proc.wait(timeout=HANG)
    report = index_workspace(settings_for(root))
    assert not report.changed
    assert_only_complete_generations(root)


# ----------------------------------------------------------------------------- concurrency


def test_while_an_index_builds_readers_answer_and_a_second_index_waits_for_it(
    refs: Refs, tmp_path: Path
) -> None:
    root = refs.copy(tmp_path / "ws")
    edit(root)
    settings = settings_for(root)
    old = status(settings).generation
    with stopped_index(refs, root, "mid-load") as proc:
        # The writer holds the lock and has its new graph open for writing...
        building = [p for p in generation_dirs(root) if p.name != old]
        assert len(building) == 1 and (building[0] / "graph.kuzu").exists()
        # ...readers answer from the old generation...
        assert status(settings).generation == old
        assert snapshot(settings) == refs.original
        assert_recall_answers(settings)
        # ...a second writer waits for it, saying so (command); past its bound it gives up
        # with a clear message (library)...
        second = subprocess.Popen(
            [*graphmem_command(), "--workspace", str(root), "index", "--force"],
            env=cli_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert second.stderr is not None
        told = second.stderr.readline()
        assert f"another graphmem process (pid {proc.pid}) is writing" in told, told
        assert "waiting for it (up to" in told
        assert second.poll() is None  # still queued behind the first writer
        with pytest.raises(IndexLockedError, match=rf"pid {proc.pid}\) is writing"):
            index_workspace(settings, wait=0.2)
        code, _, err = resume(proc)
    assert code == 0, err
    assert status(settings).generation == building[0].name
    # ...and once the first is done, the second runs and succeeds.
    _, rest = second.communicate(timeout=HANG)
    assert second.returncode == 0, rest
    assert "Traceback" not in rest
    assert status(settings).generation > building[0].name
    assert snapshot(settings) == refs.edited
    assert_only_complete_generations(root)


def test_two_indexes_started_together_leave_one_consistent_index(
    refs: Refs, tmp_path: Path
) -> None:
    root = refs.copy(tmp_path / "ws")
    edit(root)
    procs = [
        subprocess.Popen(
            [*graphmem_command(), "--workspace", str(root), "index", *args],
            env=cli_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for args in ((), ("--force",))
    ]
    results = [(p, *p.communicate(timeout=HANG)) for p in procs]
    for proc, _, err in results:  # the later one waits for the first, then runs
        assert proc.returncode == 0, err
        assert "Traceback" not in err
    assert snapshot(settings_for(root)) == refs.edited
    assert_only_complete_generations(root)


def test_an_open_reader_survives_its_generation_being_collected(refs: Refs, tmp_path: Path) -> None:
    """A long-lived reader (an MCP server, a benchmark) keeps answering across two publishes,
    the second of which deletes the generation it has open."""
    root = refs.copy(tmp_path / "ws")
    settings = settings_for(root)
    with Recaller(settings) as reader:
        before = reader.recall(QUESTION, RecallOptions(now=NOW))
        index_workspace(settings, force=True)
        index_workspace(settings, force=True)
        assert not reader.generation.path.exists()
        after = reader.recall(QUESTION, RecallOptions(now=NOW))
    assert [p.id for p in after.packets] == [p.id for p in before.packets]


# ----------------------------------------------------------------------------- read-only


@pytest.fixture(scope="module")
def readonly_ws(refs: Refs, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One indexed copy, with an FTS index (made with --write) for DROP_FTS_INDEX to target."""
    root = refs.copy(tmp_path_factory.mktemp("readonly") / "ws")
    made = run_cli(root, "cypher", "--write", "CALL CREATE_FTS_INDEX('Passage', 'ptext', ['text'])")
    assert made.returncode == 0, made.stderr
    (root.parent / "entities.csv").write_text(
        "slug,name,kind,aliases,declared,page,mentions,first_seen,last_seen\n"
        "zz,Zz,thing,[],false,,0,,\n",
        encoding="utf-8",
    )
    return root


def generation_files(settings: Settings) -> dict[str, str]:
    gen = current_generation(settings)
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(gen.path.iterdir())}


WRITES = [
    "CALL CREATE_FTS_INDEX('Fact', 'ftext', ['text'])",
    "CALL DROP_FTS_INDEX('Passage', 'ptext')",
    "CREATE (:Entity {slug: 'zz', name: 'Zz'})",
    "MERGE (e:Entity {slug: 'zz'}) RETURN e.slug",
    "MATCH (e:Entity {slug: 'peter'}) SET e.name = 'Mallory'",
    "MATCH (e:Entity) DETACH DELETE e",
    "MATCH (:Fact)-[r:MENTIONS]->() DELETE r",
    "COPY Entity FROM '{csv}' (header=true)",
    "CREATE NODE TABLE Evil(id INT64 PRIMARY KEY)",
    "DROP TABLE NEXT",
    "ALTER TABLE Entity ADD evil INT64",
    "UNWIND [1, 2] AS i CREATE (:Passage {id: 'p' + CAST(i AS STRING)})",
]


def cli(root: Path, *args: str) -> tuple[int, str, str]:
    """The CLI in-process (Typer's runner): fast enough to try every statement."""
    result = CliRunner().invoke(app, ["--workspace", str(root), *args], env=ENV)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("statement", WRITES)
def test_cypher_without_write_cannot_change_the_graph(readonly_ws: Path, statement: str) -> None:
    settings = settings_for(readonly_ws)
    before = counts(settings)
    files = generation_files(settings)
    statement = statement.replace("{csv}", str(readonly_ws.parent / "entities.csv"))
    code, _, err = cli(readonly_ws, "cypher", statement)
    assert code == 1, err
    assert "read-only" in err and "--write" in err
    assert counts(settings) == before
    assert generation_files(settings) == files
    indexes = run_cypher(settings, "CALL SHOW_INDEXES() RETURN index_name").rows
    assert indexes == [["ptext"]]


def test_the_graphmem_command_refuses_a_write_without_write(readonly_ws: Path) -> None:
    settings = settings_for(readonly_ws)
    before = snapshot(settings)
    done = run_cli(readonly_ws, "cypher", "MATCH (e:Entity) DETACH DELETE e")
    assert done.returncode == 1 and "read-only" in done.stderr and "Traceback" not in done.stderr
    assert snapshot(settings) == before


def test_cypher_with_several_read_statements_answers_the_last(readonly_ws: Path) -> None:
    done = run_cli(
        readonly_ws,
        "cypher",
        "MATCH (n) RETURN count(n); MATCH (e:Entity) RETURN count(e) AS n",
        "--json",
    )
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert done.stdout.strip().startswith("[") and '"n": 15' in done.stdout


def test_cypher_checkpoint_without_write_leaves_the_index_usable(
    refs: Refs, tmp_path: Path
) -> None:
    root = refs.copy(tmp_path / "ws")
    settings = settings_for(root)
    files = generation_files(settings)
    done = run_cli(root, "cypher", "CHECKPOINT")
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr
    assert generation_files(settings) == files
    assert_recall_answers(settings)


def test_a_write_in_an_explicit_transaction_is_refused_without_a_crash(
    refs: Refs, tmp_path: Path
) -> None:
    root = refs.copy(tmp_path / "ws")
    settings = settings_for(root)
    before = counts(settings)
    done = run_cli(root, "cypher", "BEGIN TRANSACTION; MATCH (e:Entity) DETACH DELETE e; COMMIT")
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert "read-only" in done.stderr
    assert counts(settings) == before


def workspace_files(root: Path) -> dict[str, tuple[str, int, int]]:
    """Every file outside .memory: content hash, mtime (ns) and mode."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if rel.parts[0] == ".memory" or not path.is_file():
            continue
        st = path.stat()
        out[rel.as_posix()] = (
            hashlib.sha256(path.read_bytes()).hexdigest(),
            st.st_mtime_ns,
            st.st_mode,
        )
    return out


def test_index_recall_about_status_never_write_markdown(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURES / "sample", root, ignore=shutil.ignore_patterns(".memory"))
    before = workspace_files(root)
    runner = CliRunner()
    commands = [
        ["index", "--force"],
        ["index"],
        ["recall", QUESTION, "--now", NOW.isoformat()],
        ["recall", "what does Peter think about phone calls", "--json"],
        ["about", "Peter"],
        ["about", "Pete", "--json"],
        ["timeline", "warelay"],
        ["status"],
        ["status", "--json"],
        ["query", "entity/facts", "--param", "slug=peter"],
        ["cypher", "MATCH (f:Fact) RETURN f.path, f.line_start LIMIT 5"],
    ]
    for args in commands:
        result = runner.invoke(app, ["--workspace", str(root), *args], env=ENV)
        assert result.exit_code == 0, (args, result.output, result.exception)
    assert workspace_files(root) == before
