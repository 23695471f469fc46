"""The README documents every command and option, and every command's help shows an
example (in the manner of sqlite-utils' tests/test_docs.py): a new flag without docs, or a
command without an example, fails here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer

from graphmem.surfaces.cli import app

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _commands(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield " ".join(("graphmem", *path, name)), sub
        yield from _commands(sub, (*path, name))


COMMANDS = list(_commands(typer.main.get_command(app)))


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_the_readme_names_the_command_and_each_of_its_options(name: str, command: Any) -> None:
    assert f"`{name}" in README or f"{name} " in README, f"{name} is not in the README"
    for param in command.params:
        for opt in param.opts:
            if opt.startswith("--") and opt not in ("--help",):
                assert opt in README, f"{name} {opt} is not in the README"


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_every_command_shows_an_example_in_its_help(name: str, command: Any) -> None:
    assert "Example: graphmem" in (command.help or ""), f"{name} --help has no example"


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[n for n, _ in COMMANDS])
def test_every_summary_is_one_line_so_help_lists_never_break_it(name: str, command: Any) -> None:
    """`graphmem --help` shows each command's first paragraph; a hard line break inside it
    shows as a sentence cut in two at any terminal width."""
    first = (command.help or "").strip().split("\n\n")[0]
    assert "\n" not in first, f"{name}: {first!r}"
