"""The graph schema as data, read from ontology/*.cypher: statements, hash, table columns.

Nothing else defines tables: the bulk loader and the exporter take their column lists from
here, so the DDL files are the one place a column is added.
"""

from __future__ import annotations

import hashlib
import re
from functools import cache

from graphmem.store.queries import strip_comments
from graphmem.store.resources import ontology_dir

_TABLE = re.compile(r"CREATE\s+(NODE|REL)\s+TABLE\s+`?(\w+)`?\s*\((.*)\)\s*$", re.S | re.I)
_PAIR = re.compile(r"^FROM\s+\w+\s+TO\s+\w+$", re.I)


@cache
def schema_statements() -> tuple[str, ...]:
    """The DDL statements of ontology/, in file order."""
    out: list[str] = []
    for path in sorted(ontology_dir().glob("*.cypher")):
        code = strip_comments(path.read_text(encoding="utf-8"))
        out.extend(s.strip() for s in code.split(";") if s.strip())
    return tuple(out)


def schema_hash() -> str:
    """A short hash of the ontology: a change forces a full rebuild."""
    return hashlib.sha256("\n;\n".join(schema_statements()).encode()).hexdigest()[:16]


def _split(body: str) -> list[str]:
    return [part.strip() for part in body.split(",") if part.strip()]


@cache
def node_columns() -> dict[str, tuple[str, ...]]:
    """Node table -> its columns, in DDL order."""
    out: dict[str, tuple[str, ...]] = {}
    for statement in schema_statements():
        m = _TABLE.match(statement)
        if m and m.group(1).upper() == "NODE":
            out[m.group(2)] = tuple(p.split()[0] for p in _split(m.group(3)))
    return out


@cache
def rel_columns() -> dict[str, tuple[str, ...]]:
    """Relationship table -> its property columns (after from and to), in DDL order."""
    out: dict[str, tuple[str, ...]] = {}
    for statement in schema_statements():
        m = _TABLE.match(statement)
        if m and m.group(1).upper() == "REL":
            out[m.group(2)] = tuple(p.split()[0] for p in _split(m.group(3)) if not _PAIR.match(p))
    return out


@cache
def primary_keys() -> dict[str, str]:
    """Node table -> its primary key column."""
    out: dict[str, str] = {}
    for statement in schema_statements():
        m = _TABLE.match(statement)
        if m and m.group(1).upper() == "NODE":
            for part in _split(m.group(3)):
                if re.search(r"\bPRIMARY\s+KEY\b", part, re.I):
                    out[m.group(2)] = part.split()[0]
    return out


@cache
def rel_pairs() -> dict[str, tuple[tuple[str, str], ...]]:
    """Relationship table -> its (from table, to table) pairs, in DDL order."""
    out: dict[str, tuple[tuple[str, str], ...]] = {}
    for statement in schema_statements():
        m = _TABLE.match(statement)
        if m and m.group(1).upper() == "REL":
            pairs = [p.split() for p in _split(m.group(3)) if _PAIR.match(p)]
            out[m.group(2)] = tuple((p[1].strip("`"), p[3].strip("`")) for p in pairs)
    return out
