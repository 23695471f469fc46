"""Everything a published generation holds, in a form two generations can be compared by.

:func:`take` reads the current generation of a workspace into a :class:`Snapshot`: one
table of rows per

- graph node label (``graph:Fact``, ...) and relationship label (``graph:SUPERSEDES``, ...),
  every property, relationships named by their ends' labels and keys (id, slug or path),
  plus what ``count(*)`` answers per label (``graph:count(*)``),
- SQLite table of the seed index (``seeds``, ``meta``, ``node_rows``, ``node_mentions``,
  ``next_pairs``, ``evidence_pairs``), plus what the FTS index itself holds
  (``seeds_fts``: every term instance, read through fts5vocab, so a stale index shows) and
  which tables and indexes exist (``sqlite_master``),
- part of ``meta.json`` that describes content (``counts``, ``warnings``, ``degraded``,
  ``fingerprint``), not the build (time, seconds, timings).

Rows compare as multisets: order never matters, duplicates do. Kùzu's internal ids, every
key starting with ``_`` and the seed index's surrogate ``rid`` are left out, since a clean
rebuild and an incremental one may number things differently.

:func:`diff` says compactly how two snapshots differ; :func:`assert_same` fails with it.
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any

from graphmem.config import Settings
from graphmem.memory import current_generation, run_cypher
from graphmem.store.ontology import node_columns, rel_columns

#: A row: column -> plain value (lists as tuples, nested dicts as sorted tuples).
Row = dict[str, Any]
#: How a row is identified in a diff, so a changed row shows as one row with changed fields.
_KEYS = ("id", "slug", "path", "key")
#: meta.json entries that describe what was indexed (the rest describe the build).
META_KEYS = ("counts", "warnings", "degraded", "fingerprint")
#: The seed index's plain tables and the columns compared (``seeds.rid`` is a surrogate key).
SQLITE_TABLES: dict[str, tuple[str, ...]] = {
    "seeds": ("id", "kind", "text", "day", "path"),
    "meta": ("key", "value"),
    "node_rows": ("id", "tbl", "row"),
    "node_mentions": ("id", "slug", "name", "how"),
    "next_pairs": ("a", "b"),
    "evidence_pairs": ("claim", "passage", "how"),
    "supersedes_pairs": ("newer", "older", "day", "cue"),
    # Which items each window holds; its vector is compared within float tolerance by
    # the tests that turn embeddings on (a batch of other texts may change the last bits).
    "windows": ("path", "ids"),
}


def _plain(value: Any) -> Any:
    """A hashable, order-free form of a property value; ``_``-keys dropped."""
    if isinstance(value, Mapping):
        return tuple(sorted((k, _plain(v)) for k, v in value.items() if not k.startswith("_")))
    if isinstance(value, list | tuple):
        return tuple(_plain(v) for v in value)
    return value


def _frozen(row: Row) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(row.items()))


@dataclass(frozen=True)
class Snapshot:
    """Table name -> rows (see the module docstring for the names)."""

    tables: dict[str, list[Row]]

    def rows(self, table: str) -> list[Row]:
        """The rows of `table` ([] when it has none)."""
        return self.tables.get(table, [])

    def find(self, table: str, **where: Any) -> list[Row]:
        """Rows of `table` whose columns equal `where`; a ``str`` value of ``text`` or
        ``statement`` matches as a substring."""

        def matches(row: Row) -> bool:
            for column, wanted in where.items():
                got = row.get(column)
                if column in ("text", "statement") and isinstance(got, str):
                    if wanted not in got:
                        return False
                elif got != wanted:
                    return False
            return True

        return [row for row in self.rows(table) if matches(row)]

    def one(self, table: str, **where: Any) -> Row:
        """The single row :meth:`find` returns; fails when there is not exactly one."""
        found = self.find(table, **where)
        assert len(found) == 1, f"{table} rows matching {where}: {len(found)}, expected 1"
        return found[0]

    def counter(self, table: str) -> Counter[tuple[tuple[str, Any], ...]]:
        """The rows of `table` as a multiset."""
        return Counter(_frozen(row) for row in self.rows(table))

    def differing(self, other: Snapshot) -> list[str]:
        """The names of the tables whose rows differ between the two snapshots."""
        names = sorted(set(self.tables) | set(other.tables))
        return [name for name in names if self.counter(name) != other.counter(name)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Snapshot):
            return NotImplemented
        return not self.differing(other)

    __hash__ = None  # type: ignore[assignment]


# --------------------------------------------------------------------------- reading


def take(settings: Settings) -> Snapshot:
    """Read the workspace's published generation (graph, seed index, meta.json)."""
    tables: dict[str, list[Row]] = {}
    for label in node_columns():
        nodes = run_cypher(settings, f"MATCH (n:`{label}`) RETURN n").rows
        tables[f"graph:{label}"] = [dict(_plain(node)) for (node,) in nodes]
    ends = "label({0}), coalesce({0}.id, {0}.slug, {0}.path)"
    for rel in rel_columns():
        rows = run_cypher(
            settings,
            f"MATCH (a)-[r:`{rel}`]->(b) RETURN {ends.format('a')}, {ends.format('b')}, r",
        ).rows
        tables[f"graph:{rel}"] = [
            {"from": (a_label, a), "to": (b_label, b), **dict(_plain(props))}
            for a_label, a, b_label, b, props in rows
        ]
    # What Kùzu answers to count(*): its table statistics, which a graph changed in place
    # can get wrong while every row is right.
    counted = run_cypher(settings, "MATCH (n) RETURN label(n), count(*)").rows
    counted += run_cypher(settings, "MATCH ()-[r]->() RETURN label(r), count(*)").rows
    tables["graph:count(*)"] = [{"key": label, "value": n} for label, n in counted]
    gen = current_generation(settings)
    tables.update(_sqlite_tables(str(gen.seeds)))
    meta = gen.meta()
    for name in META_KEYS:
        tables[f"meta:{name}"] = _meta_rows(meta.get(name))
    return Snapshot(tables)


def _meta_rows(value: Any, prefix: str = "") -> list[Row]:
    """meta.json entries as rows: a dict flattened to ``{"key": "a/b", "value": ...}`` rows
    (so a diff names the one count or file hash that differs), a list item by item."""
    if isinstance(value, Mapping):
        rows: list[Row] = []
        for k, v in value.items():
            rows += (
                _meta_rows(v, f"{prefix}{k}/")
                if isinstance(v, Mapping)
                else [{"key": f"{prefix}{k}", "value": _plain(v)}]
            )
        return rows
    if isinstance(value, list):
        return [
            {k: _plain(v) for k, v in item.items()}
            if isinstance(item, Mapping)
            else {"value": _plain(item)}
            for item in value
        ]
    return [] if value is None else [{"value": _plain(value)}]


def _sqlite_tables(path: str) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = {}
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        out["sqlite:sqlite_master"] = [
            {"type": t, "name": n, "table": tbl}
            for t, n, tbl in conn.execute("SELECT type, name, tbl_name FROM sqlite_master")
        ]
        present = {row["name"] for row in out["sqlite:sqlite_master"]}
        for table, columns in SQLITE_TABLES.items():
            if table not in present:
                continue  # the sqlite_master rows already tell it is missing
            rows = conn.execute(f"SELECT {', '.join(columns)} FROM {table}").fetchall()
            out[f"sqlite:{table}"] = [dict(zip(columns, r, strict=True)) for r in rows]
        for row in out.get("sqlite:node_rows", []):
            row["row"] = _plain(json.loads(row["row"]))  # key order of the JSON is no content
        if "seeds_fts" in present:
            out["sqlite:seeds_fts"] = _fts_terms(conn)
    finally:
        conn.close()
    return out


def _fts_terms(conn: sqlite3.Connection) -> list[Row]:
    """Every (term, seed id, offset) the FTS index holds: what a MATCH can find."""
    conn.execute(
        "CREATE VIRTUAL TABLE temp.seeds_vocab USING fts5vocab(main, 'seeds_fts', 'instance')"
    )
    ids = dict(conn.execute("SELECT rid, id FROM seeds"))
    return [
        {"term": term, "id": ids.get(doc, f"<rid {doc} not in seeds>"), "col": col, "offset": off}
        for term, doc, col, off in conn.execute("SELECT term, doc, col, offset FROM seeds_vocab")
    ]


# --------------------------------------------------------------------------- comparing


def _short(value: Any, width: int = 160) -> str:
    text = value.isoformat() if isinstance(value, date) else repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _row_key(row: Row) -> tuple[str, Any] | None:
    for key in _KEYS:
        if key in row:
            return key, row[key]
    if "from" in row and "to" in row:  # a relationship: its ends
        return "ends", (row["from"], row["to"])
    return None


def _table_diff(
    name: str, left: list[Row], right: list[Row], names: tuple[str, str], limit: int
) -> list[str]:
    """Lines saying how one table differs ([] when it does not)."""
    only_left = Counter(_frozen(r) for r in left) - Counter(_frozen(r) for r in right)
    only_right = Counter(_frozen(r) for r in right) - Counter(_frozen(r) for r in left)
    if not only_left and not only_right:
        return []
    lines = [
        f"{name}: {len(left)} vs {len(right)} rows; "
        f"{only_left.total()} only in {names[0]}, {only_right.total()} only in {names[1]}"
    ]
    lefts = [dict(r) for r in sorted(only_left.elements(), key=repr)]
    rights = [dict(r) for r in sorted(only_right.elements(), key=repr)]
    # A key (id, slug, path, ends) held by exactly one differing row on each side: one row
    # changed, so show only the fields that differ.
    left_keys = Counter(_row_key(r) for r in lefts)
    right_keys = Counter(_row_key(r) for r in rights)
    right_by_key = {_row_key(r): r for r in rights}
    changed: list[str] = []
    paired: set[Any] = set()
    for row in lefts:
        key = _row_key(row)
        if key is None or left_keys[key] != 1 or right_keys[key] != 1:
            continue
        other = right_by_key[key]
        fields = [f for f in sorted(set(row) | set(other)) if row.get(f) != other.get(f)]
        changed.append(
            f"  ~ {key[0]}={key[1] if isinstance(key[1], str) else _short(key[1], 90)}: "
            + "; ".join(
                f"{f}: {_short(row.get(f), 70)} != {_short(other.get(f), 70)}" for f in fields
            )
        )
        paired.add(key)
    groups = (
        ("~", changed),
        ("-", [f"  - {_short(r)}" for r in lefts if _row_key(r) not in paired]),
        ("+", [f"  + {_short(r)}" for r in rights if _row_key(r) not in paired]),
    )
    for sign, shown in groups:
        lines += shown[:limit]
        if len(shown) > limit:
            lines.append(f"  {sign} ... {len(shown) - limit} more")
    return lines


def diff(
    left: Snapshot, right: Snapshot, names: tuple[str, str] = ("left", "right"), limit: int = 4
) -> str:
    """How `left` and `right` differ, a few rows per table ("" when they are equal).

    ``~`` rows exist on both sides under one key (id, slug, path) with different fields,
    ``-`` rows only in `left`, ``+`` rows only in `right`.
    """
    lines: list[str] = []
    for name in sorted(set(left.tables) | set(right.tables)):
        lines += _table_diff(name, left.rows(name), right.rows(name), names, limit)
    if lines:
        lines.insert(0, f"(~ changed, - only in {names[0]}, + only in {names[1]})")
    return "\n".join(lines)


def assert_same(actual: Snapshot, expected: Snapshot, what: str = "") -> None:
    """Fail with a compact :func:`diff` unless the snapshots hold the same rows."""
    if actual != expected:
        lead = f"{what}: " if what else ""
        raise AssertionError(
            f"{lead}snapshots differ\n" + diff(actual, expected, ("actual", "expected"))
        )
