"""The ``graphmem`` script and ``python -m graphmem``: a running ``graphmem daemon``
answers first (only the standard library is imported before it does, see
:mod:`graphmem.surfaces.daemon.client`); without one, the CLI runs in this process."""

from __future__ import annotations

import sys


def main() -> None:
    """Entry point of the ``graphmem`` script and ``python -m graphmem``."""
    from graphmem.surfaces.daemon.client import delegate

    code = delegate(sys.argv[1:])
    if code is not None:
        sys.exit(code)
    from graphmem.surfaces.cli import main as cli_main

    cli_main()
