"""Bulk-load compiled rows into a fresh Kùzu database through CSV files and COPY.

COPY from a CSV written with the stdlib ``csv`` module is the fast path in Kùzu 0.11.3
(per-row inserts slow to ~50/s on large graphs; COPY from a pandas 3 DataFrame crashes it).
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from graphmem.compile.rows import NODE_COLUMNS, REL_COLUMNS, GraphData
from graphmem.errors import QueryError
from graphmem.parse.blocks import Notice
from graphmem.store.db import Graph
from graphmem.store.ontology import primary_keys


def csv_cell(value: object) -> object:
    """One CSV cell as Kùzu's COPY reads it: empty = NULL, ISO dates, ``[a,b]`` lists."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ",".join(list_item(str(v)) for v in value) + "]"
    return value


#: Characters Kùzu's list literal reads as structure inside an item: commas and brackets
#: split it, a brace opens a struct (the COPY fails on the whole file).
_LIST_SAFE = str.maketrans({",": " ", "[": "(", "]": ")", "{": "(", "}": ")"})
#: A quote that opens an item makes Kùzu read up to the next such quote as one item,
#: across commas, and keep the quotes: it becomes its typographic twin.
_OPENING_QUOTE = {"'": "‘", '"': "“"}


def list_item(text: str) -> str:
    """`text` as one item of Kùzu's CSV list literal ``[a,b]``, which has no escapes.

    Kùzu trims blanks around items; the item is trimmed here too, so what lands in the
    graph is what this returns.
    """
    item = text.translate(_LIST_SAFE).strip()
    if item[:1] in _OPENING_QUOTE:
        item = _OPENING_QUOTE[item[0]] + item[1:]
    return item


#: Rows go to Kùzu in batches of about this many bytes of CSV: one COPY of a huge table (a
#: 50 MB log) can fill a small buffer pool, and batches into a non-empty table are fine.
BATCH_BYTES = 8 * 1024 * 1024


def _write_csv(path: Path, columns: tuple[str, ...], rows: list[dict[str, object]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(columns)
        writer.writerows([csv_cell(row.get(c)) for c in columns] for row in rows)


def _batches(
    rows: list[dict[str, object]], columns: tuple[str, ...]
) -> Iterator[list[dict[str, object]]]:
    """`rows` in successive batches of about BATCH_BYTES of CSV each."""
    batch: list[dict[str, object]] = []
    size = 0
    for row in rows:
        batch.append(row)
        size += sum(len(str(csv_cell(row.get(c)))) + 1 for c in columns)
        if size >= BATCH_BYTES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _place(row: dict[str, object]) -> tuple[str, int]:
    line = row.get("line_start")
    return str(row["path"]), line if isinstance(line, int) else 0


@dataclass
class _Loader:
    """COPYs batches. A batch Kùzu refuses is split in halves until the rows it cannot take
    are found; those are left out, each with a notice naming its Markdown file and line."""

    graph: Graph
    scratch: Path
    #: Node key -> (path, line) of the Markdown it came from, for notices about its rows.
    origin: dict[object, tuple[str, int]] = field(default_factory=dict)
    #: Keys of node rows left out: their relationships are left out with them.
    skipped: set[object] = field(default_factory=set)
    notices: list[Notice] = field(default_factory=list)

    def copy(
        self,
        table: str,
        columns: tuple[str, ...],
        rows: list[dict[str, object]],
        pair: tuple[str, str] | None = None,
    ) -> list[dict[str, object]]:
        """COPY `rows` into `table`; returns the rows left out."""
        name = f"{table}_{pair[0]}_{pair[1]}" if pair else table
        path = self.scratch / f"{name}.csv"
        _write_csv(path, columns, rows)
        error: str | None = None
        try:
            self.graph.copy_csv(table, path, pair=pair)
        except QueryError as exc:  # a failed COPY loads nothing of its file
            error = str(exc)
        finally:
            path.unlink(missing_ok=True)
        if error is None:
            return []
        if len(rows) == 1:
            self._refused(table, rows[0], error, pair)
            return rows
        half = len(rows) // 2
        left = self.copy(table, columns, rows[:half], pair)
        return left + self.copy(table, columns, rows[half:], pair)

    def _refused(
        self, table: str, row: dict[str, object], error: str, pair: tuple[str, str] | None
    ) -> None:
        if "path" in row:
            path, line = _place(row)
        else:
            path, line = self.origin.get(row.get("from") if pair else None, ("", 0))
        reason = (error.split("Copy exception:")[-1].strip().splitlines() or ["?"])[0][:160]
        what = f"a {table} relationship" if pair else f"this {table}"
        self.notices.append(
            Notice(path, line, f"the graph database refused {what} ({reason}); left out of it")
        )


def load_graph(graph: Graph, data: GraphData, scratch: Path) -> list[Notice]:
    """COPY every table of `data` into `graph` (a database just created from the ontology).

    Returns a notice per row Kùzu refused, named by its Markdown file and line; the rest of
    the graph loads without it (and without the relationships of a node left out).
    """
    scratch.mkdir(parents=True, exist_ok=True)
    keys = primary_keys()
    loader = _Loader(graph, scratch)
    for table, columns in NODE_COLUMNS.items():
        rows = data.nodes.get(table, [])
        loader.origin.update((r.get(keys[table]), _place(r)) for r in rows if "path" in r)
        for batch in _batches(rows, columns):
            loader.skipped.update(r.get(keys[table]) for r in loader.copy(table, columns, batch))
    for (rel, src, dst), rows in sorted(data.rels.items()):
        columns = ("from", "to", *REL_COLUMNS[rel])
        kept = [
            r for r in rows if r["from"] not in loader.skipped and r["to"] not in loader.skipped
        ]
        for batch in _batches(kept, columns):
            loader.copy(rel, columns, batch, pair=(src, dst))
    return loader.notices


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
