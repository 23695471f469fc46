"""Search: the seed index beside the graph (SQLite FTS5 and sqlite-vec), its read-optimised
projection, windows, and the local embedding models."""
