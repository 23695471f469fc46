"""What people and agents touch: the command line, its renderer, the MCP server and the
resident daemon. Surfaces call :class:`graphmem.memory.Memory` and the layers below; nothing
below imports a surface."""
