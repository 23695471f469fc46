"""The push protocol in FalkorDB's Cypher, derived from the ontology.

On the server every node keeps its Kùzu label and properties plus ``workspace`` (so many
workspaces share one graph) and ``push_hash`` (its content hash: the push manifest lives on
the server, so a push from any machine diffs against what the server really holds).
Relationships also get ``rid``, their stable id (see :mod:`graphmem.export.falkordb.rows`).

These statements are generated here, not kept in ``queries/``, because a label cannot be a
Cypher parameter: one statement per table and relationship pair would be ~80 files that
must follow every ontology change by hand. Like the Neo4j script of ``export``, they are
built from ``ontology/*.cypher``, so a new column is pushed without touching this module.

How the dialects differ, for the record (and for a Neo4j or Memgraph port): FalkorDB wants
``CREATE INDEX FOR (n:L) ON (n.p)`` and fails when it exists (Neo4j 5 has ``IF NOT EXISTS``
and prefers a uniqueness constraint; Memgraph writes ``CREATE INDEX ON :L(p)``); dates go as
ISO strings through ``date()`` because the client cannot send a date parameter; Kùzu's
``label(r)`` is ``type(r)`` and its ``(x:Fact:Opinion)`` (either label) is
``(x) WHERE x:Fact OR x:Opinion`` everywhere else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graphmem.export.falkordb.errors import ScaleoutError
from graphmem.export.falkordb.rows import NodeRow, RelRow
from graphmem.export.files import NodeTable, RelPair

WORKSPACE = "workspace"
HASH = "push_hash"
RID = "rid"
META_LABEL = "GraphmemWorkspace"
RESERVED = frozenset({WORKSPACE, HASH, RID})


def _name(identifier: str) -> str:
    """A backticked identifier (labels and properties come from the ontology, not users)."""
    if "`" in identifier:
        raise ScaleoutError(f"ontology name {identifier!r} cannot be quoted for the server")
    return f"`{identifier}`"


def _dates(columns: Sequence[tuple[str, str]]) -> list[str]:
    return [c for c, t in columns if t.strip().upper() == "DATE"]


def _check(columns: Sequence[tuple[str, str]], where: str) -> None:
    clash = RESERVED & {c for c, _ in columns}
    if clash:
        raise ScaleoutError(
            f"ontology {where} has column {', '.join(sorted(clash))}, which push reserves"
        )


def _set_dates(var: str, columns: Sequence[tuple[str, str]]) -> str:
    # date(NULL) is NULL, which removes the property: the same as Kùzu's NULL.
    dates = _dates(columns)
    if not dates:
        return ""
    return "\nSET " + ", ".join(f"{var}.{_name(c)} = date(r.p.{_name(c)})" for c in dates)


# -- schema ----------------------------------------------------------------------------------


def index_statements(tables: Sequence[NodeTable], pairs: Sequence[RelPair]) -> list[str]:
    """Range indexes that make the push's lookups cheap: each table's key and workspace,
    each relationship type's id, and the workspace record."""
    out = []
    for table in tables:
        label = _name(table.name)
        out.append(f"CREATE INDEX FOR (n:{label}) ON (n.{_name(table.key)})")
        out.append(f"CREATE INDEX FOR (n:{label}) ON (n.{WORKSPACE})")
    for rel in dict.fromkeys(p.rel for p in pairs):
        out.append(f"CREATE INDEX FOR ()-[e:{_name(rel)}]-() ON (e.{RID})")
    out.append(f"CREATE INDEX FOR (w:{META_LABEL}) ON (w.{WORKSPACE})")
    return out


def already_indexed(message: str) -> bool:
    """Whether a CREATE INDEX failed only because the index exists."""
    return "already indexed" in message.lower()


# -- writing ---------------------------------------------------------------------------------


def node_upsert(table: NodeTable) -> str:
    """Create or replace the nodes of `table` given as ``$rows`` of ``{k: key, p: props}``.

    ``SET n = r.p`` replaces every property, so one that became NULL is removed too.
    """
    _check(table.columns, f"table {table.name}")
    return (
        "UNWIND $rows AS r\n"
        f"MERGE (n:{_name(table.name)} {{{WORKSPACE}: $workspace, {_name(table.key)}: r.k}})\n"
        "SET n = r.p" + _set_dates("n", table.columns) + "\nRETURN count(n) AS sent"
    )


def rel_upsert(pair: RelPair, tables: Mapping[str, NodeTable]) -> str:
    """Create or replace the relationships of `pair` given as ``$rows`` of
    ``{id: rid, a: from key, b: to key, p: props}``; both ends must already be there."""
    _check(pair.columns, f"relationship {pair.rel}")
    src, dst = tables[pair.src], tables[pair.dst]
    return (
        "UNWIND $rows AS r\n"
        f"MATCH (a:{_name(src.name)} {{{WORKSPACE}: $workspace, {_name(src.key)}: r.a}})\n"
        f"MATCH (b:{_name(dst.name)} {{{WORKSPACE}: $workspace, {_name(dst.key)}: r.b}})\n"
        f"MERGE (a)-[e:{_name(pair.rel)} {{{RID}: r.id}}]->(b)\n"
        "SET e = r.p" + _set_dates("e", pair.columns) + "\nRETURN count(e) AS sent"
    )


def node_delete(table: NodeTable) -> str:
    """Delete the nodes of `table` whose keys are ``$ids``, with their relationships."""
    return (
        "UNWIND $ids AS k\n"
        f"MATCH (n:{_name(table.name)} {{{WORKSPACE}: $workspace, {_name(table.key)}: k}})\n"
        "DETACH DELETE n"
    )


def rel_delete(rel: str) -> str:
    """Delete the relationships of type `rel` whose ids are ``$ids``."""
    return (
        "UNWIND $ids AS k\n"
        f"MATCH ()-[e:{_name(rel)} {{{RID}: k}}]->()\n"
        f"WHERE e.{WORKSPACE} = $workspace\n"
        "DELETE e"
    )


def wipe(label: str) -> str:
    """Delete up to ``$limit`` nodes of `label` in the workspace (``--force``); run until 0."""
    return (
        f"MATCH (n:{_name(label)}) WHERE n.{WORKSPACE} = $workspace\n"
        "WITH n LIMIT $limit\n"
        "DETACH DELETE n\n"
        "RETURN count(*) AS deleted"
    )


def node_param(row: NodeRow, workspace: str) -> dict[str, Any]:
    """One ``$rows`` entry of :func:`node_upsert`."""
    return {"k": row.key, "p": {**row.props, WORKSPACE: workspace, HASH: row.hash}}


def rel_param(row: RelRow, workspace: str) -> dict[str, Any]:
    """One ``$rows`` entry of :func:`rel_upsert`."""
    props = {**row.props, WORKSPACE: workspace, HASH: row.hash, RID: row.rid}
    return {"id": row.rid, "a": row.src, "b": row.dst, "p": props}


# -- reading ---------------------------------------------------------------------------------


def node_manifest(table: NodeTable) -> str:
    """``key, hash`` of every node of `table` the server holds for the workspace."""
    return (
        f"MATCH (n:{_name(table.name)}) WHERE n.{WORKSPACE} = $workspace\n"
        f"RETURN n.{_name(table.key)} AS id, n.{HASH} AS hash"
    )


def rel_manifest(rel: str) -> str:
    """``rid, hash`` of every relationship of type `rel` the server holds for the workspace."""
    return (
        f"MATCH ()-[e:{_name(rel)}]->() WHERE e.{WORKSPACE} = $workspace\n"
        f"RETURN e.{RID} AS id, e.{HASH} AS hash"
    )


META_GET = (
    f"MATCH (w:{META_LABEL} {{{WORKSPACE}: $workspace}})\n"
    "RETURN w.origin AS origin, w.schema AS schema, w.digest AS digest, w.state AS state"
)
# Set before the first change and cleared by META_SET: a push that dies in between leaves
# 'pushing', so the next one trusts no local manifest copy (see manifest.py).
META_PUSHING = (
    f"MERGE (w:{META_LABEL} {{{WORKSPACE}: $workspace}})\n"
    "SET w.state = 'pushing', w.origin = $origin"
)
META_SET = (
    f"MERGE (w:{META_LABEL} {{{WORKSPACE}: $workspace}})\n"
    "SET w.origin = $origin, w.schema = $schema, w.generation = $generation,\n"
    "    w.pushed_at = $pushed_at, w.counts = $counts, w.digest = $digest, w.state = 'clean'"
)
META_DELETE = f"MATCH (w:{META_LABEL} {{{WORKSPACE}: $workspace}}) DELETE w"
