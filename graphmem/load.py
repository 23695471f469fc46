"""Bulk-load compiled rows into a fresh Kùzu database through CSV files and COPY.

COPY from a CSV written with the stdlib ``csv`` module is the fast path in Kùzu 0.11.3
(per-row inserts slow to ~50/s on large graphs; COPY from a pandas 3 DataFrame crashes it).
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from datetime import date
from pathlib import Path

from graphmem.compile import NODE_COLUMNS, REL_COLUMNS, GraphData
from graphmem.db import Graph


def csv_cell(value: object) -> object:
    """One CSV cell as Kùzu's COPY reads it: empty = NULL, ISO dates, ``[a,b]`` lists."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        # Kùzu's list literal: [a,b]; commas and brackets inside items would split them.
        items = (str(v).replace(",", " ").replace("[", "(").replace("]", ")") for v in value)
        return "[" + ",".join(items) + "]"
    return value


#: Rows go to Kùzu in batches of about this many bytes of CSV: one COPY of a huge table (a
#: 50 MB log) can fill a small buffer pool, and batches into a non-empty table are fine.
BATCH_BYTES = 8 * 1024 * 1024


def _batches(path: Path, columns: tuple[str, ...], rows: list[dict[str, object]]) -> Iterator[Path]:
    """Write `rows` as successive CSV files at `path` of about BATCH_BYTES each."""
    fh = None
    size = 0
    try:
        for row in rows:
            if fh is None:
                fh = path.open("w", newline="", encoding="utf-8")
                writer = csv.writer(fh)
                writer.writerow(columns)
                size = 0
            cells = [csv_cell(row.get(c)) for c in columns]
            writer.writerow(cells)
            size += sum(len(str(c)) for c in cells) + len(cells)
            if size >= BATCH_BYTES:
                fh.close()
                fh = None
                yield path
        if fh is not None:
            fh.close()
            fh = None
            yield path
    finally:
        if fh is not None:
            fh.close()
        path.unlink(missing_ok=True)


def load_graph(graph: Graph, data: GraphData, scratch: Path) -> None:
    """COPY every table of `data` into `graph` (a database just created from the ontology)."""
    scratch.mkdir(parents=True, exist_ok=True)
    for table, columns in NODE_COLUMNS.items():
        for batch in _batches(scratch / f"{table}.csv", columns, data.nodes.get(table, [])):
            graph.copy_csv(table, batch)
    for (rel, src, dst), rows in sorted(data.rels.items()):
        path = scratch / f"{rel}_{src}_{dst}.csv"
        for batch in _batches(path, ("from", "to", *REL_COLUMNS[rel]), rows):
            graph.copy_csv(rel, batch, pair=(src, dst))
