"""``python -m graphmem``: the same CLI as the ``graphmem`` script (a running
``graphmem daemon`` answers first when there is one)."""

from graphmem.surfaces.entry import main

main()
