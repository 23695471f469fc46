"""Named Cypher queries kept in files: ``queries/<stage>/<name>.cypher``.

Each file holds one statement, a ``//`` description line first, and ``$params`` for every
value. The loader reads the parameter names from the text and refuses a call whose keys
differ: Kùzu 0.11.3 silently returns unfiltered rows when a referenced ``$param`` is missing
from an empty dict. ``<name>.<dialect>.cypher`` beside a query is its text for another
engine (e.g. ``team/entity_facts.falkordb.cypher``): :func:`variant` finds it, and the Kùzu
catalog skips it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from graphmem.errors import QueryError
from graphmem.store.resources import queries_dir

_PARAM = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")
STRING_LITERAL = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_TOKEN = re.compile(
    r"(?P<string>'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")|(?P<comment>//[^\n]*|/\*.*?\*/)",
    re.DOTALL,
)
_WRITES = re.compile(r"\b(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|COPY|DROP|ALTER)\b", re.IGNORECASE)


@dataclass(frozen=True)
class NamedQuery:
    """One query file."""

    name: str
    description: str
    text: str
    params: frozenset[str]
    writes: bool

    def check(self, given: dict[str, object]) -> None:
        """Raise :class:`QueryError` unless `given` has exactly this query's parameters."""
        keys = set(given)
        if keys != self.params:
            missing = sorted(self.params - keys)
            extra = sorted(keys - self.params)
            parts = []
            if missing:
                parts.append("missing " + ", ".join(f"${p}" for p in missing))
            if extra:
                parts.append("unknown " + ", ".join(f"${p}" for p in extra))
            raise QueryError(f"query {self.name}: {'; '.join(parts)}")


def strip_comments(text: str) -> str:
    """Cypher text without ``//`` and ``/* */`` comments (string literals untouched).

    Strings and comments are matched by one left-to-right scan, so an apostrophe inside a
    comment ("// Peter's facts") does not open a string, and "//" inside a string is kept.
    """
    return _TOKEN.sub(lambda m: m.group("string") or "", text)


def parameters(text: str) -> frozenset[str]:
    """The ``$names`` a statement uses, ignoring comments and string literals."""
    code = STRING_LITERAL.sub("''", strip_comments(text))
    return frozenset(_PARAM.findall(code))


def load_query(path: Path, name: str) -> NamedQuery:
    """Read one query file."""
    text = path.read_text(encoding="utf-8")
    first = text.lstrip().splitlines()[0] if text.strip() else ""
    if not first.startswith("//"):
        raise QueryError(f"{path}: the first line must be a // description")
    body = strip_comments(text).strip().rstrip(";").strip()
    if ";" in STRING_LITERAL.sub("''", body):
        raise QueryError(f"{path}: one statement per file")
    return NamedQuery(
        name=name,
        description=first[2:].strip(),
        text=body,
        params=parameters(body),
        writes=bool(_WRITES.search(STRING_LITERAL.sub("''", body))),
    )


@cache
def catalog(root: Path | None = None) -> dict[str, NamedQuery]:
    """Every named query under `root` (default: the package's queries/), by name."""
    base = root or queries_dir()
    found: dict[str, NamedQuery] = {}
    for path in sorted(base.rglob("*.cypher")):
        if "." in path.stem:  # a dialect variant, not a Kùzu query
            continue
        name = path.relative_to(base).with_suffix("").as_posix()
        found[name] = load_query(path, name)
    return found


def variant(name: str, dialect: str) -> NamedQuery:
    """The query `name` as another engine runs it: its ``<name>.<dialect>.cypher`` file where
    the dialects differ, else the Kùzu text itself."""
    base = get(name)
    path = queries_dir() / f"{name}.{dialect}.cypher"
    return load_query(path, name) if path.is_file() else base


def get(name: str) -> NamedQuery:
    """The named query, or a :class:`QueryError` listing near names."""
    queries = catalog()
    if name not in queries:
        near = [n for n in queries if n.split("/")[-1] == name.split("/")[-1]]
        hint = f"; did you mean {', '.join(near)}?" if near else "; see `graphmem query --list`"
        raise QueryError(f"no query named {name!r}{hint}")
    return queries[name]


#: Stages whose queries are meant for people to run (``graphmem query NAME``).
FOR_PEOPLE = ("entity", "about", "source", "status", "team")
#: The other stages: steps of graphmem's own commands, and which command runs them.
INTERNAL_STAGES = {
    "recall": "recall",
    "reflect": "reflect and opinions",
    "bank": "reflect, for the bank pages",
    "delta": "index, for incremental updates",
    "export": "export",
}


def stage_of(name: str) -> str:
    """The stage (first folder) of a query name: ``entity/facts`` -> ``entity``."""
    return name.split("/", 1)[0]


def listing() -> list[NamedQuery]:
    """Every named query, the ones meant for people first, then the internal ones by stage."""
    order = {stage: i for i, stage in enumerate([*FOR_PEOPLE, *INTERNAL_STAGES])}
    return sorted(
        catalog().values(), key=lambda q: (order.get(stage_of(q.name), len(order)), q.name)
    )
