"""Bulk-load compiled rows into a fresh Kùzu database through CSV files and COPY.

COPY from a CSV written with the stdlib ``csv`` module is the fast path in Kùzu 0.11.3
(per-row inserts slow to ~50/s on large graphs; COPY from a pandas 3 DataFrame crashes it).
"""

from __future__ import annotations

import csv
from datetime import date
from pathlib import Path

from graphmem.compile import NODE_COLUMNS, REL_COLUMNS, GraphData
from graphmem.db import Graph


def _cell(value: object) -> object:
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


def _write(path: Path, columns: tuple[str, ...], rows: list[dict[str, object]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(columns)
        for row in rows:
            writer.writerow([_cell(row.get(c)) for c in columns])


def load_graph(graph: Graph, data: GraphData, scratch: Path) -> None:
    """COPY every table of `data` into `graph` (a database just created from the ontology)."""
    scratch.mkdir(parents=True, exist_ok=True)
    for table, columns in NODE_COLUMNS.items():
        rows = data.nodes.get(table, [])
        if not rows:
            continue
        path = scratch / f"{table}.csv"
        _write(path, columns, rows)
        graph.copy_csv(table, path)
        path.unlink()
    for (rel, src, dst), rows in sorted(data.rels.items()):
        if not rows:
            continue
        path = scratch / f"{rel}_{src}_{dst}.csv"
        _write(path, ("from", "to", *REL_COLUMNS[rel]), rows)
        graph.copy_csv(rel, path, pair=(src, dst))
        path.unlink()
