"""Fuzzed workspaces: mutated fixture files, indexed end to end (real Kùzu and SQLite).

Each example copies a few files of ``fixtures/sample`` and ``fixtures/bad`` to their own
paths (or to another day's log), mutates their bytes the ways the hostile-input audit did
(long names, long blank runs, NUL and invalid UTF-8, CR and CRLF endings, a BOM, fences,
quotes and backslashes for the CSV load, headings and prefixes) and indexes the workspace
with NER and embeddings off. It must not raise, and every file it leaves out of the graph
must have a warning naming it; every warning names a file of the workspace and a line
inside it (0 = the whole file). Deterministic (``derandomize``); the long run is ``slow``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from conftest import FIXTURES, settings_for
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from graphmem.api import run_cypher
from graphmem.index.build import index_workspace

SOURCES = sorted(
    (p.relative_to(FIXTURES / top).as_posix(), p.read_bytes())
    for top in ("sample", "bad")
    for p in (FIXTURES / top).rglob("*")
    if p.is_file() and ".memory" not in p.parts
)
INSERTS = [
    b"\x00", b"\xff\xfe", b"\xef\xbb\xbf", b"\r", b"\r\n", b"\n\n", b"```\n", b"~~~",
    b"\n## Retain\n", b"\n# H" + b" \t" * 300 + b"x\n", b"- O(c=" + b" " * 300 + b"x) @Peter: y\n",
    b"- W @" + b"A" * 600 + b": long name\n", b"Aliases: " + b"Q" * 300 + b"\n", b"\\\\,\\\"\"",
    b"'", b'"', b"{", b"[", b"]", b",", b"@", b"@@", b"- W @Peter:", b"<!-- graphmem:begin -->",
    b"<!-- graphmem:end -->", b"---\n", b"\t", " \u00a0\u2028".encode(), "年月日".encode(),
    b"Peter " * 100, b"moved to Lisbon from Porto " * 20, b"2025-02-30", b"Nov 27 \xe2\x80\x93 Dec 1",
]  # fmt: skip
PATHS = ["memory/2025-11-27.md", "memory/2025-13-01.md", "memory/notes/x.md", "SOUL.md"]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """One fixture file's bytes with a few insertions, deletions and ending changes."""
    _, data = draw(st.sampled_from(SOURCES))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(data)))
        op = draw(st.sampled_from(["insert", "insert", "delete", "endings", "bom"]))
        if op == "insert":
            data = data[:at] + draw(st.sampled_from(INSERTS)) + data[at:]
        elif op == "delete":
            data = data[:at] + data[at + draw(st.integers(1, 64)) :]
        elif op == "endings":
            data = data.replace(b"\n", draw(st.sampled_from([b"\r\n", b"\r"])))
        else:
            data = b"\xef\xbb\xbf" + data
    return data


WORKSPACES = st.dictionaries(
    st.one_of(st.sampled_from([rel for rel, _ in SOURCES]), st.sampled_from(PATHS)),
    mutated(),
    min_size=1,
    max_size=4,
)


def check(files: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        for rel, data in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_bytes(data)
        config = settings_for(root)
        report = index_workspace(config)  # must not raise
        lines = {rel: data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n") + 1
                 for rel, data in files.items()}  # fmt: skip
        for w in report.warnings:
            assert w.path in lines, (w, sorted(lines))
            assert 0 <= w.line <= lines[w.path], (w, lines[w.path])
        indexed = {r[0] for r in run_cypher(config, "MATCH (s:Source) RETURN s.path").rows}
        warned = {w.path for w in report.warnings}
        markdown = {rel for rel in files if rel.lower().endswith(".md")}
        assert markdown - indexed <= warned, (markdown - indexed, report.warnings)


#: Workspaces that broke the index before issue 16 (every later run replays them).
KNOWN_BAD: list[dict[str, bytes]] = [
    {"memory/2025-11-27.md": b"## Retain\n- W @" + b"A" * 3000 + b": long name.\n"},
    {"bank/entities/Peter.md": b"# Peter\nAliases: Pete, {x, 'a, b'\n", "memory.md": b"- Peter\n"},
    {"memory.md": b"- W @Peter: caf\xe9 \\\\, x\r- W @Peter: " + b"Peter " * 2000 + b"\r"},
]


@example(KNOWN_BAD[0])
@example(KNOWN_BAD[1])
@example(KNOWN_BAD[2])
@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(WORKSPACES)
def test_fuzzed_workspaces_index_with_a_warning_for_everything_skipped(
    files: dict[str, bytes],
) -> None:
    check(files)


@pytest.mark.slow
@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(WORKSPACES)
def test_fuzzed_workspaces_many(files: dict[str, bytes]) -> None:
    check(files)
