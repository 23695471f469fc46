"""The resident daemon: its wire protocol, the thin client behind the ``graphmem`` script,
and the server that keeps a workspace's index and models loaded."""
