"""graphmem: an offline knowledge-graph memory for AI agents.

Markdown in the workspace is the source of truth; graphmem compiles it into an embedded
Kùzu property graph plus a SQLite seed index under ``WORKSPACE/.memory/``.
"""

__version__ = "0.1.0"
