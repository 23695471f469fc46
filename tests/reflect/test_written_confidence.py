"""An opinion shows the confidence its line writes beside the clamped one it evolves from."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import WriteFiles
from typer.testing import CliRunner

from graphmem.surfaces.cli import app

ENV = {
    "GRAPHMEM_NER_MODEL": "none",
    "GRAPHMEM_EMBED_MODEL": "none",
    "GRAPHMEM_BUFFER_POOL_MB": "64",
}

LOG = """\
# 2026-04-08

## Retain
- O(c=1.3) @Sur: Sur's deliveries will be a mess for the first few months.
- O(c=85%) @Sur: Sur's beans are worth the price.
- O(c=-0.2) @Sur: Sur will open a Lisbon warehouse.
- O @Sur: Sur answers email quickly.
"""

REGISTO = """\
# 2026-04-09

## Reter
- O(c=2) @Sur: A Sur vai subir os preços antes do verão.
"""


def _opinions(root: Path, *args: str) -> tuple[str, str]:
    runner = CliRunner()
    out = runner.invoke(app, ["-w", str(root), "index"], env=ENV)
    assert out.exit_code == 0, out.stderr
    out = runner.invoke(app, ["-w", str(root), "opinions", *args], env=ENV)
    assert out.exit_code == 0, out.stderr
    return out.stdout, out.stderr


def test_json_shows_written_and_clamped_confidence(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "bank/entities/Sur.md": "# Sur\nKind: org\n\nCoffee importer.\n",
            "memory/2026-04-08.md": LOG,
            "memory/2026-04-09.md": REGISTO,
        }
    )
    stdout, _ = _opinions(root, "--json")
    by_line = {o["source"]: o for o in json.loads(stdout)}
    mess = by_line["memory/2026-04-08.md#L4"]
    assert (mess["written_confidence"], mess["stated_confidence"], mess["clamped"]) == (
        1.3,
        1.0,
        True,
    )
    worth = by_line["memory/2026-04-08.md#L5"]
    assert (worth["written_confidence"], worth["clamped"]) == (0.85, False)
    below = by_line["memory/2026-04-08.md#L6"]
    assert (below["written_confidence"], below["stated_confidence"], below["clamped"]) == (
        -0.2,
        0.0,
        True,
    )
    unstated = by_line["memory/2026-04-08.md#L7"]
    assert (unstated["written_confidence"], unstated["clamped"]) == (None, False)
    precos = by_line["memory/2026-04-09.md#L4"]  # a Portuguese day, its own Retain heading
    assert (precos["written_confidence"], precos["stated_confidence"], precos["clamped"]) == (
        2.0,
        1.0,
        True,
    )


def test_table_and_why_say_what_was_written(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {"bank/entities/Sur.md": "# Sur\nKind: org\n\n", "memory/2026-04-08.md": LOG}
    )
    table, _ = _opinions(root)
    assert "written 1.3, clamped to 1" in table
    assert "written 0.85" not in table  # in range: nothing to say
    why, _ = _opinions(root, "--why", "memory/2026-04-08.md#L4")
    assert "stated 1.00 (written 1.3, clamped)" in why


def test_a_crlf_file_still_names_the_written_line(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "bank/entities/Sur.md": "# Sur\nKind: org\n\n",
            "memory/2026-04-08.md": LOG.replace("\n", "\r\n").encode(),
        }
    )
    stdout, _ = _opinions(root, "--json")
    by_line = {o["source"]: o for o in json.loads(stdout)}
    assert by_line["memory/2026-04-08.md#L4"]["written_confidence"] == 1.3
