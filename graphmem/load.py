"""Bulk-load compiled rows into a fresh Kùzu database through CSV files and COPY.

COPY from a CSV written with the stdlib ``csv`` module is the fast path in Kùzu 0.11.3
(per-row inserts slow to ~50/s on large graphs; COPY from a pandas 3 DataFrame crashes it).
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterator
from datetime import date
from pathlib import Path

from graphmem.compile import NODE_COLUMNS, REL_COLUMNS, GraphData
from graphmem.db import Graph
from graphmem.ontology import primary_keys


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


# Row by row, for an incremental index that changes a few hundred rows of a large graph:
# one CREATE per row in one transaction (~1 ms each; COPY costs ~0.1 s per call, and an
# UNWIND of a row list joined to two node tables exhausts the buffer pool in 0.11.3). Like
# COPY above, these statements are derived from the ontology's columns, so they are built
# here rather than kept as files in queries/.


def add_node_statement(table: str) -> str:
    """CREATE one `table` node, every column a parameter of the same name (None = NULL)."""
    props = ", ".join(f"`{c}`: ${c}" for c in NODE_COLUMNS[table])
    return f"CREATE (:`{table}` {{{props}}})"


def add_rel_statement(rel: str, src: str, dst: str) -> str:
    """CREATE one `rel` from the `src` node keyed ``$a`` to the `dst` node keyed ``$b``."""
    keys = primary_keys()
    props = ", ".join(f"`{c}`: ${c}" for c in REL_COLUMNS[rel])
    body = f" {{{props}}}" if props else ""
    return (
        f"MATCH (a:`{src}` {{`{keys[src]}`: $a}}), (b:`{dst}` {{`{keys[dst]}`: $b}}) "
        f"CREATE (a)-[:`{rel}`{body}]->(b)"
    )


def remove_rel_statement(rel: str, src: str, dst: str) -> str:
    """DELETE every `rel` from the `src` node keyed ``$a`` to the `dst` node keyed ``$b``;
    returns how many."""
    keys = primary_keys()
    return (
        f"MATCH (a:`{src}` {{`{keys[src]}`: $a}})-[r:`{rel}`]->(b:`{dst}` {{`{keys[dst]}`: $b}}) "
        "DELETE r RETURN count(*)"
    )


def remove_nodes(graph: Graph, table: str, column: str, value: object) -> Counter[str]:
    """Delete the `table` nodes whose `column` is `value`, their relationships first;
    returns how many rows went, per node and relationship table.

    Not ``DETACH DELETE``: in Kùzu 0.11.3 the relationships it removes stay in ``count(*)``
    (kuzudb/kuzu#5954: "phantom rel left after detach delete"); deleting each direction
    explicitly keeps counts and rows in agreement.
    """
    where = f"WHERE n.`{column}` = $value"
    removed: Counter[str] = Counter()
    for statement in (
        f"MATCH (n:`{table}`)-[r]->() {where} DELETE r RETURN label(r), count(*)",
        f"MATCH (n:`{table}`)<-[r]-() {where} DELETE r RETURN label(r), count(*)",
        f"MATCH (n:`{table}`) {where} DELETE n RETURN '{table}', count(*)",
    ):
        for label, n in graph.execute(statement, {"value": value}, f"remove {table}").rows:
            removed[str(label)] += int(n)
    return removed


def add_rows(graph: Graph, data: GraphData) -> None:
    """CREATE every node, then every relationship, of `data` in `graph`.

    Relationship ends must exist (in `data` or already in the graph)."""
    for table in NODE_COLUMNS:
        statement = add_node_statement(table)
        for row in data.nodes.get(table, []):
            graph.execute(statement, {c: row.get(c) for c in NODE_COLUMNS[table]}, f"add {table}")
    for (rel, src, dst), rows in sorted(data.rels.items()):
        statement = add_rel_statement(rel, src, dst)
        for row in rows:
            params = {c: row.get(c) for c in REL_COLUMNS[rel]}
            graph.execute(statement, {"a": row["from"], "b": row["to"], **params}, f"add {rel}")
