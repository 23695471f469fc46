"""The ``graphmem`` script and ``python -m graphmem``: a running ``graphmem daemon``
answers first (only the standard library is imported before it does, see
:mod:`graphmem.surfaces.daemon.client`); without one, the CLI runs in this process and then
starts one in the background for the next command (``GRAPHMEM_RESIDENT``)."""

from __future__ import annotations

import sys


def main() -> None:
    """Entry point of the ``graphmem`` script and ``python -m graphmem``."""
    from graphmem.surfaces.daemon.client import delegate, start_after

    argv = sys.argv[1:]
    code = delegate(argv)
    if code is not None:
        sys.exit(code)
    from graphmem.surfaces.cli import main as cli_main

    try:
        cli_main()
    finally:  # the answer is out: a daemon for the next command starts now
        start_after(argv)
