"""``python -m graphmem``: the same CLI as the ``graphmem`` script."""

from graphmem.cli import main

main()
