"""Fuzzed workspaces: mutated fixture files, indexed end to end (real Kùzu and SQLite).

Each example copies a few files of ``fixtures/sample`` and ``fixtures/bad`` to their own
paths (or to another day's log), mutates their bytes the ways the hostile-input audit did
(long names, long blank runs, NUL and invalid UTF-8, CR and CRLF endings, a BOM, fences,
quotes and backslashes for the CSV load, headings and prefixes) and indexes the workspace
with NER and embeddings off; mutations also flip bits, insert huge lines and nest lists
hundreds deep. It must not raise, and every file it leaves out of the graph must have a
warning naming it; every warning names a file of the workspace and a line inside it (0 = the
whole file).

The parser alone gets the same mutated files many more times: each file is read the way the
index reads it and parsed, and the editor's reading (graphmem.parse.textio) gives back its
bytes unchanged; every case must finish within the bound the linear-cost tests use for
1 MB of a worst case (a minute), so a super-linear path fails instead of hanging.
Deterministic (``derandomize``); the long runs (10,000 parser cases) are ``slow``.
"""

from __future__ import annotations

import hashlib
import tempfile
import threading
from pathlib import Path

import pytest
from conftest import FIXTURES, settings_for
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from graphmem.index.build import index_workspace
from graphmem.memory import run_cypher
from graphmem.parse.parser import parse
from graphmem.parse.textio import Lines
from graphmem.parse.workspace import SourceFile, read_text

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
#: Huge lines: one long line of words, of blanks, of one character, of mentions.
HUGE = [
    b"- W @Peter: " + b"word " * 40_000 + b"\n",
    b"\t" * 100_000 + b"x\n",
    b"a" * 200_000,
    b"@Peter " * 20_000 + b"\n",
    b"23:11 peter: late again\n" * 5_000,
]
PATHS = ["memory/2025-11-27.md", "memory/2025-13-01.md", "memory/notes/x.md", "SOUL.md"]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """One fixture file's bytes with a few insertions, deletions and ending changes."""
    _, data = draw(st.sampled_from(SOURCES))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(data)))
        op = draw(
            st.sampled_from(
                ["insert", "insert", "delete", "flip", "huge", "deep", "endings", "bom"]
            )
        )
        if op == "insert":
            data = data[:at] + draw(st.sampled_from(INSERTS)) + data[at:]
        elif op == "delete":
            data = data[:at] + data[at + draw(st.integers(1, 64)) :]
        elif op == "flip":
            if data:
                at = min(at, len(data) - 1)
                data = (
                    data[:at] + bytes([data[at] ^ (1 << draw(st.integers(0, 7)))]) + data[at + 1 :]
                )
        elif op == "huge":
            data = data[:at] + draw(st.sampled_from(HUGE)) + data[at:]
        elif op == "deep":
            depth = draw(st.integers(1, 400))
            item = draw(st.sampled_from([b"- W @Peter: deep", b"- note", b"1. x", b"> - y"]))
            nested = b"".join(b"  " * d + item + b"\n" for d in range(depth))
            data = data[:at] + b"\n" + nested + data[at:]
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


# ----------------------------------------------------------------------------- the parser

#: Seconds a case may take: the linear-cost tests' bound for 1 MB of a worst case.
CASE_BOUND_S = 60.0
FILES = st.tuples(st.sampled_from(PATHS + [rel for rel, _ in SOURCES]), mutated())


def parse_case(rel: str, data: bytes) -> None:
    """Read `data` as the index reads a file at `rel`, parse it, and check the editor's
    reading keeps its bytes; within :data:`CASE_BOUND_S`."""
    failure: list[BaseException] = []

    def work() -> None:
        try:
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "f.md"
                path.write_bytes(data)
                digest = hashlib.sha256(data).hexdigest()
                text, notices = read_text(SourceFile(rel, path, digest, len(data)), 1 << 20)
                for n in notices:
                    assert n.path == rel
                if text is not None:
                    pf = parse(rel, text)
                    lines = text.count("\n") + text.count("\r") - text.count("\r\n") + 1
                    for b in pf.blocks:
                        assert 1 <= b.line_start <= b.line_end <= lines, (b, lines)
                    for w in pf.warnings:
                        assert 0 <= w.line <= lines, (w, lines)
            assert Lines.decode(data).encode() == data
        except BaseException as exc:  # reported in the test's thread
            failure.append(exc)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(CASE_BOUND_S)
    assert not worker.is_alive(), f"{rel}: a case took over {CASE_BOUND_S:.0f} s"
    if failure:
        raise failure[0]


@settings(
    max_examples=150,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(FILES)
def test_fuzzed_files_parse_and_keep_their_bytes(case: tuple[str, bytes]) -> None:
    parse_case(*case)


@pytest.mark.slow
@settings(
    max_examples=10_000,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(FILES)
def test_fuzzed_files_parse_many(case: tuple[str, bytes]) -> None:
    parse_case(*case)
