"""User bytes: every command that edits Markdown keeps the page's line endings and BOM.

`textio.Lines` is the one reader/writer; the end-to-end tests run retain, entities merge,
the bank's block merge (what reflect writes) and watch on CRLF, CR-only and BOM pages.
"""

from __future__ import annotations

import threading
from datetime import date

import pytest
from conftest import WriteFiles, settings_for

from graphmem.edit.merge import merge_entities
from graphmem.edit.retain import retain
from graphmem.index.build import index_workspace
from graphmem.index.watch import watch
from graphmem.parse.textio import Lines, newline_of
from graphmem.reflect.bank import merge_block

BOM = b"\xef\xbb\xbf"
STYLES = {"crlf": b"\r\n", "cr": b"\r", "lf": b"\n"}


def page(lines: list[str], eol: bytes, bom: bool = False) -> bytes:
    return (BOM if bom else b"") + b"".join(ln.encode() + eol for ln in lines)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"a",
        b"a\n",
        b"a\r\nb\rc\n",
        BOM + b"x\r\ny",
        b"caf\xe9\r\r",
        b"\n",
        b"a\x0cb\x85\n",
        BOM,
    ],
)
def test_lines_round_trip_every_byte(data: bytes) -> None:
    assert Lines.decode(data).encode() == data


def test_an_added_line_takes_the_first_ending_and_ends_an_open_last_line() -> None:
    lines = Lines.decode(b"a\rb")
    lines.insert(2, "c")
    assert lines.encode() == b"a\rb\rc\r"
    assert newline_of(b"x\r\ny\n") == "\r\n" and newline_of("none") == "\n"


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("bom", [False, True])
def test_retain_keeps_the_logs_endings_and_bom(
    make_workspace: WriteFiles, style: str, bom: bool
) -> None:
    eol = STYLES[style]
    old = page(
        ["# 2025-11-27", "", "Coffee with @Peter.", "", "## Retain", "- W @Peter: x"], eol, bom
    )
    root = make_workspace({"memory/2025-11-27.md": old})
    result = retain(
        settings_for(root), "W @Peter: Moved to Porto", today=date(2025, 11, 27), reindex=False
    )
    new = (root / "memory/2025-11-27.md").read_bytes()
    assert new == old + b"- W @Peter: Moved to Porto" + eol
    assert result.line == 7


@pytest.mark.parametrize(("style", "bom"), [("crlf", False), ("cr", True), ("lf", True)])
def test_entities_merge_keeps_the_pages_endings_and_bom(
    make_workspace: WriteFiles, style: str, bom: bool
) -> None:
    eol = STYLES[style]
    root = make_workspace(
        {
            "memory/2025-11-01.md": "## Retain\n- W @Petey: Bought a bike.\n- W @Peter: Porto.\n",
            "bank/entities/Peter.md": page(["# Peter", "Aliases: Pete  ", "", "Dev."], eol, bom),
        }
    )
    index_workspace(settings_for(root))
    merge_entities(settings_for(root), "Peter", "Petey")
    new = (root / "bank/entities/Peter.md").read_bytes()
    assert new == page(["# Peter", "Aliases: Pete, Petey  ", "", "Dev."], eol, bom)


def test_entities_merge_inserts_a_line_in_the_pages_style_and_keeps_invalid_bytes(
    make_workspace: WriteFiles,
) -> None:
    root = make_workspace(
        {
            "memory/2025-11-01.md": "## Retain\n- W @Petey: Bought a bike.\n- W @Peter: Porto.\n",
            "bank/entities/Peter.md": b"# Peter\rCaf\xe9 owner.\r",
        }
    )
    index_workspace(settings_for(root))
    merge_entities(settings_for(root), "Peter", "Petey")
    assert (root / "bank/entities/Peter.md").read_bytes() == (
        b"# Peter\rAliases: Petey\rCaf\xe9 owner.\r"
    )


@pytest.mark.parametrize("style", STYLES)
def test_the_generated_block_follows_the_pages_endings(style: str) -> None:
    eol = STYLES[style].decode()
    block = "<!-- graphmem:begin x -->\nnew\n<!-- graphmem:end -->\n"
    appended, _ = merge_block(f"\ufeff# Peter{eol}Hand notes.{eol}", block)
    assert appended == f"\ufeff# Peter{eol}Hand notes.{eol}{eol}{block.replace(chr(10), eol)}"
    replaced, _ = merge_block(appended.replace("new", "old"), block)
    assert replaced == appended


def test_watch_leaves_every_page_byte_for_byte(make_workspace: WriteFiles) -> None:
    files = {
        "memory/2025-11-27.md": page(["## Retain", "- W @Peter: x"], b"\r\n", bom=True),
        "bank/entities/Peter.md": page(["# Peter", "Aliases: Pete"], b"\r"),
    }
    root = make_workspace(files)
    stop = threading.Event()
    reports: list[object] = []

    def on_index(report: object) -> None:
        reports.append(report)
        stop.set()

    watch(settings_for(root), interval=0.05, on_index=on_index, stop=stop)
    assert reports
    for rel, data in files.items():
        assert (root / rel).read_bytes() == data
