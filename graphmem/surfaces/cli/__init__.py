"""The ``graphmem`` command line: each command parses arguments, makes one
:class:`graphmem.Memory` call, and renders. The only package that imports typer: one module
per command group, the shared parts (the app, settings, errors, tables) in ``common``.

Conventions: ``--workspace/-w`` goes before or after the command name; ``--json`` on every
command prints machine output, and with it errors are JSON on stdout too
(``{"error": ..., "hint": ...}``) with the same exit codes: 1 for a failure, 2 for a usage
error.
"""

from __future__ import annotations

# The command modules register on the app as they are imported, in the order --help lists
# them; so this order is the help's, not the alphabet's.
# isort: off
from graphmem.surfaces.cli.common import app, click_command
from graphmem.surfaces.cli import index  # noqa: F401  init, index, status
from graphmem.surfaces.cli import query  # noqa: F401  cypher, query
from graphmem.surfaces.cli import read  # noqa: F401  recall, about, timeline
from graphmem.surfaces.cli import write  # noqa: F401  retain, retract
from graphmem.surfaces.cli import opinions  # noqa: F401  opinions, reflect
from graphmem.surfaces.cli import run  # noqa: F401  watch, serve, daemon
from graphmem.surfaces.cli import export  # noqa: F401  export, push
from graphmem.surfaces.cli import config  # noqa: F401  config show
from graphmem.surfaces.cli import entities  # noqa: F401  entities, entities merge
from graphmem.surfaces.cli import core  # noqa: F401  core list, core apply
# isort: on

__all__ = ["app", "click_command", "main"]


def main() -> None:
    """Entry point of the ``graphmem`` script."""
    app()
