"""Export the graph for other tools: GraphML (Gephi, yEd), CSV files, and Cypher load scripts.

Every read goes through a named query in ``queries/export/``: ``nodes_<Table>`` per node table
and ``rels_<REL>_<From>_<To>`` per relationship pair, because Kùzu cannot take a table name as
a parameter. Which tables and pairs exist comes from the ontology DDL, so a table added there
without its export query fails loudly instead of silently missing from the export.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any, Literal, get_args

import networkx as nx

from graphmem.errors import GraphmemError
from graphmem.index.load import csv_cell
from graphmem.store.db import Graph
from graphmem.store.ontology import schema_statements
from graphmem.store.queries import catalog

Format = Literal["graphml", "cypher", "csv"]
FORMATS: tuple[str, ...] = get_args(Format)

GRAPHML_FILE = "graph.graphml"
KUZU_SCRIPT = "load.cypher"
NEO4J_SCRIPT = "load.neo4j.cypher"


class ExportError(GraphmemError):
    """An export was asked for in an unknown format, into a file, or disagrees with the schema."""


@dataclass(frozen=True)
class NodeTable:
    """A node table of the ontology: its columns (name, Kùzu type) and primary key."""

    name: str
    columns: tuple[tuple[str, str], ...]
    key: str

    @property
    def csv_name(self) -> str:
        """The file its rows are exported to."""
        return f"nodes_{self.name}.csv"


@dataclass(frozen=True)
class RelPair:
    """One (relationship, from table, to table) combination of the ontology."""

    rel: str
    src: str
    dst: str
    columns: tuple[tuple[str, str], ...]  # properties after from/to

    @property
    def csv_name(self) -> str:
        """The file its rows are exported to."""
        return f"rels_{self.rel}_{self.src}_{self.dst}.csv"


@dataclass(frozen=True)
class ExportReport:
    """What :func:`export_graph` wrote: rows per node and relationship table, and the files."""

    format: Format
    out: Path
    counts: Mapping[str, int]
    files: tuple[Path, ...]


_TABLE = re.compile(r"CREATE\s+(NODE|REL)\s+TABLE\s+`?(\w+)`?\s*\((.*)\)\s*$", re.I | re.S)
_PAIR = re.compile(r"FROM\s+`?(\w+)`?\s+TO\s+`?(\w+)`?$", re.I)


def _split_top(body: str) -> list[str]:
    """Split a table body on the commas outside parentheses (DECIMAL(9,2) stays whole)."""
    parts: list[str] = []
    depth = start = 0
    for i, ch in enumerate(body):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(body[start:i].strip())
            start = i + 1
    parts.append(body[start:].strip())
    return [p for p in parts if p]


@cache
def schema_tables() -> tuple[tuple[NodeTable, ...], tuple[RelPair, ...]]:
    """The node tables and relationship pairs declared by ``ontology/*.cypher``, in file order."""
    nodes: list[NodeTable] = []
    pairs: list[RelPair] = []
    for statement in schema_statements():
        m = _TABLE.match(statement.strip())
        if not m:
            continue
        kind, name, body = m.group(1).upper(), m.group(2), m.group(3)
        columns: list[tuple[str, str]] = []
        ends: list[tuple[str, str]] = []
        key = ""
        for part in _split_top(body):
            if pair := _PAIR.match(part):
                ends.append((pair.group(1), pair.group(2)))
                continue
            column, typ = part.split(None, 1)
            words = typ.split()
            if [w.upper() for w in words[-2:]] == ["PRIMARY", "KEY"]:
                typ, key = " ".join(words[:-2]), column
            columns.append((column, typ.strip()))
        if kind == "NODE":
            if not key:
                raise ExportError(f"ontology: node table {name} declares no inline PRIMARY KEY")
            nodes.append(NodeTable(name, tuple(columns), key))
        else:
            pairs.extend(RelPair(name, src, dst, tuple(columns)) for src, dst in ends)
    return tuple(nodes), tuple(pairs)


# -- reading ---------------------------------------------------------------------------------


def _scan(graph: Graph, name: str, expected: Sequence[str]) -> list[list[Any]]:
    """Run one export query and check it returns exactly the schema's columns, in order."""
    if name not in catalog():
        raise ExportError(
            f"the ontology has a table with no export query; add queries/{name}.cypher"
        )
    rows = graph.run(name)
    if tuple(rows.columns) != tuple(expected):
        raise ExportError(
            f"query {name} returns columns {', '.join(rows.columns)} but the ontology has "
            f"{', '.join(expected)}; update queries/{name}.cypher"
        )
    return rows.rows


def _node_columns(table: NodeTable) -> tuple[str, ...]:
    return tuple(c for c, _ in table.columns)


def _rel_columns(pair: RelPair) -> tuple[str, ...]:
    return ("from", "to", *(c for c, _ in pair.columns))


# -- values ----------------------------------------------------------------------------------


def _graphml_value(value: object) -> object:
    """A GraphML attribute: scalars as they are, dates as ISO strings, lists "; "-joined."""
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "; ".join(str(v) for v in value)
    return value


# -- writers ---------------------------------------------------------------------------------


def _write_csv(path: Path, columns: Sequence[str], rows: list[list[Any]]) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(columns)
        writer.writerows([csv_cell(v) for v in row] for row in rows)


def _write_graphml(
    path: Path,
    nodes: Mapping[NodeTable, list[list[Any]]],
    rels: Mapping[RelPair, list[list[Any]]],
) -> None:
    # A MultiDiGraph: Kùzu allows parallel relationships of one type between two nodes.
    g: nx.MultiDiGraph = nx.MultiDiGraph()
    for table, rows in nodes.items():
        columns = _node_columns(table)
        at = columns.index(table.key)
        for row in rows:
            props = {
                c: _graphml_value(v) for c, v in zip(columns, row, strict=True) if v is not None
            }
            g.add_node(f"{table.name}:{row[at]}", **props, label=table.name)
    for pair, rows in rels.items():
        columns = _rel_columns(pair)
        for row in rows:
            props = {c: _graphml_value(v) for c, v in zip(columns[2:], row[2:], strict=True)}
            props = {c: v for c, v in props.items() if v is not None}
            g.add_edge(f"{pair.src}:{row[0]}", f"{pair.dst}:{row[1]}", **props, label=pair.rel)
    nx.write_graphml(g, path, encoding="utf-8")


# The headers hold no semicolons or quotes: shells that split scripts naively on ";" (or
# tokenizers that do not skip comments) must still see one statement per ";".
_KUZU_HEADER = """\
// graphmem export: recreates this graph in Kuzu 0.11 (the graphmem tests re-import it).
// COPY reads the CSV file names relative to the working directory, so run this script
// from its own folder into an empty database, e.g.   cd EXPORT_DIR && kuzu NEW_DB < load.cypher
// CSV conventions: a header row, RFC 4180 quoting (values may span lines, hence
// parallel=false), an empty cell is NULL, dates are YYYY-MM-DD, STRING[] lists are [a,b].
// Neo4j: see load.neo4j.cypher. Memgraph: adapt that script to its LOAD CSV ... WITH HEADER.
"""


def kuzu_script(nodes: Sequence[NodeTable], pairs: Sequence[RelPair]) -> str:
    """A Kùzu script: the ontology DDL, then one COPY per exported CSV file."""
    lines = [_KUZU_HEADER, "// Schema (ontology/*.cypher)."]
    for statement in schema_statements():  # comments are stripped: drop their trailing blanks
        lines.append("\n".join(line.rstrip() for line in statement.splitlines()) + ";")
    lines += ["", "// Nodes first, then relationships (COPY needs both ends in place)."]
    for table in nodes:
        lines.append(f"COPY `{table.name}` FROM '{table.csv_name}' (header=true, parallel=false);")
    for pair in pairs:
        lines.append(
            f"COPY `{pair.rel}` FROM '{pair.csv_name}' "
            f"(header=true, parallel=false, from='{pair.src}', to='{pair.dst}');"
        )
    return "\n".join(lines) + "\n"


_NEO4J_HEADER = """\
// graphmem export for Neo4j 5. UNTESTED: written with care, but the graphmem tests only run
// load.cypher in Kuzu. Copy the CSV files into the import directory of Neo4j (file:/// URLs
// resolve there), then run this once on an empty database: cypher-shell -f load.neo4j.cypher
// Nodes are MERGEd on their key. Relationships are CREATEd, so parallel ones survive and a
// second run would duplicate them. CSV values are text: the script converts integers,
// doubles, booleans, dates and [a,b] lists. For a large graph, wrap each statement in
// CALL { ... } IN TRANSACTIONS (run with :auto in the browser).
"""


def _neo4j_value(column: str, typ: str) -> str:
    """A Cypher expression converting ``row.column`` from CSV text to the Kùzu type."""
    cell = f"row.`{column}`"
    typ = typ.upper()
    if typ.endswith("[]"):
        return (
            f"CASE coalesce({cell}, '') WHEN '' THEN null WHEN '[]' THEN [] "
            f"ELSE split(substring({cell}, 1, size({cell}) - 2), ',') END"
        )
    if typ == "DATE":
        return f"CASE coalesce({cell}, '') WHEN '' THEN null ELSE date({cell}) END"
    if typ in {"INT64", "INT32", "INT16", "INT8", "SERIAL"}:
        return f"toInteger({cell})"
    if typ in {"DOUBLE", "FLOAT"}:
        return f"toFloat({cell})"
    if typ == "BOOLEAN":
        return f"toBoolean({cell})"
    return cell  # STRING, and anything else stays text for the user to convert


def neo4j_script(nodes: Sequence[NodeTable], pairs: Sequence[RelPair]) -> str:
    """A Neo4j 5 script: uniqueness constraints, then one LOAD CSV per exported CSV file."""
    keys = {table.name: table.key for table in nodes}
    lines = [_NEO4J_HEADER]
    for table in nodes:
        lines.append(
            f"CREATE CONSTRAINT graphmem_{table.name}_{table.key} IF NOT EXISTS "
            f"FOR (n:`{table.name}`) REQUIRE n.`{table.key}` IS UNIQUE;"
        )
    lines.append("")
    for table in nodes:
        props = ", ".join(
            f"`{c}`: {_neo4j_value(c, t)}" for c, t in table.columns if c != table.key
        )
        lines.append(
            f"LOAD CSV WITH HEADERS FROM 'file:///{table.csv_name}' AS row\n"
            f"MERGE (n:`{table.name}` {{`{table.key}`: row.`{table.key}`}})\n"
            f"SET n += {{{props}}};"
        )
    for pair in pairs:
        props = ", ".join(f"`{c}`: {_neo4j_value(c, t)}" for c, t in pair.columns)
        lines.append(
            f"LOAD CSV WITH HEADERS FROM 'file:///{pair.csv_name}' AS row\n"
            f"MATCH (a:`{pair.src}` {{`{keys[pair.src]}`: row.`from`}})\n"
            f"MATCH (b:`{pair.dst}` {{`{keys[pair.dst]}`: row.`to`}})\n"
            f"CREATE (a)-[:`{pair.rel}`{f' {{{props}}}' if props else ''}]->(b);"
        )
    return "\n".join(lines) + "\n"


# -- the library call ------------------------------------------------------------------------


def export_graph(graph: Graph, fmt: Format, out: Path) -> ExportReport:
    """Write the whole graph into the folder `out` (created if missing) in format `fmt`.

    ``graphml`` writes ``graph.graphml``, or the file `out` itself when it ends in
    ``.graphml`` and is not a folder; ``csv`` writes ``nodes_<Table>.csv`` per node table
    and ``rels_<REL>_<From>_<To>.csv`` per relationship pair; ``cypher`` writes those CSVs plus
    ``load.cypher`` (Kùzu: schema + COPY) and ``load.neo4j.cypher`` (Neo4j: LOAD CSV).
    Files of the same name are overwritten; nothing else in `out` is touched.
    """
    if fmt not in FORMATS:
        raise ExportError(f"unknown export format {fmt!r}; use one of {', '.join(FORMATS)}")
    if fmt == "graphml" and out.suffix.lower() == ".graphml" and not out.is_dir():
        # GraphML is one file: "--out x.graphml" names it (a folder of that name would
        # surprise everyone who typed it).
        target, out = out, out.parent
    else:
        target = out / GRAPHML_FILE
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out} is a file; export writes several files, so give a folder")
    out.mkdir(parents=True, exist_ok=True)

    tables, pairs = schema_tables()
    nodes = {t: _scan(graph, f"export/nodes_{t.name}", _node_columns(t)) for t in tables}
    rels = {p: _scan(graph, f"export/rels_{p.rel}_{p.src}_{p.dst}", _rel_columns(p)) for p in pairs}
    counts: dict[str, int] = {t.name: len(rows) for t, rows in nodes.items()}
    for pair, rows in rels.items():
        counts[pair.rel] = counts.get(pair.rel, 0) + len(rows)

    files: list[Path] = []
    if fmt == "graphml":
        _write_graphml(target, nodes, rels)
        files.append(target)
    else:
        for table, rows in nodes.items():
            _write_csv(out / table.csv_name, _node_columns(table), rows)
            files.append(out / table.csv_name)
        for pair, rows in rels.items():
            _write_csv(out / pair.csv_name, _rel_columns(pair), rows)
            files.append(out / pair.csv_name)
    if fmt == "cypher":
        (out / KUZU_SCRIPT).write_text(kuzu_script(tables, pairs), encoding="utf-8")
        (out / NEO4J_SCRIPT).write_text(neo4j_script(tables, pairs), encoding="utf-8")
        files += [out / KUZU_SCRIPT, out / NEO4J_SCRIPT]
    return ExportReport(fmt, out, counts, tuple(files))
