"""``graphmem entities merge A B``: record B as an alias of A on A's bank page.

Markdown is the source of truth, so a merge is an edit of ``bank/entities/<A>.md`` (the
only way it persists), followed by a re-index. Everything else on the page stays byte for
byte as it was.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from graphmem.config import Settings
from graphmem.errors import GraphmemError
from graphmem.index.build import IndexReport, index_workspace
from graphmem.parse.textio import Lines
from graphmem.recall.about import resolve_entity
from graphmem.store.current import open_graph

# Linear: the value's trailing blanks are split off with str methods, not a lazy group.
_ALIASES_LINE = re.compile(r"(\s*+(?:\*\*)?aliases(?:\*\*)?\s*+:\s*+)(.*+)", re.IGNORECASE)
_FRONT_ALIASES = re.compile(r"(aliases\s*+:\s*+)(.*+)", re.IGNORECASE)


class MergeError(GraphmemError):
    """The merge cannot be recorded as asked; the message says why and what to do."""


@dataclass(frozen=True)
class MergeResult:
    """What the merge changed."""

    page: str
    added: tuple[str, ...]
    report: IndexReport


def _names_to_add(existing: list[str], names: list[str]) -> list[str]:
    have = {n.casefold() for n in existing}
    return [n for n in dict.fromkeys(names) if n.casefold() not in have]


def _value(m: re.Match[str]) -> tuple[str, str, str]:
    """(label, value, trailing blanks) of an aliases line."""
    value = m.group(2).rstrip()
    return m.group(1), value, m.group(2)[len(value) :]


def record_aliases(page: Lines, name: str, aliases: list[str]) -> list[str]:
    """Record `aliases` on the entity page `page` (in place); returns the names added.

    Only the aliases line changes, or one line is inserted: every other line keeps its
    bytes and its own line ending.
    """
    lines = page.lines
    if lines and lines[0].strip() == "---":
        for i in range(1, len(lines)):
            if lines[i].strip() in {"---", "..."}:
                break
            if m := _FRONT_ALIASES.match(lines[i]):
                label, value, trail = _value(m)
                current = [
                    a.strip().strip("\"'") for a in value.strip("[] ").split(",") if a.strip()
                ]
                added = _names_to_add([name, *current], aliases)
                page.replace(i, f"{label}[{', '.join([*current, *added])}]{trail}")
                return added
    for i, line in enumerate(lines):
        if m := _ALIASES_LINE.match(line):
            label, value, trail = _value(m)
            current = [a.strip() for a in value.split(",") if a.strip()]
            added = _names_to_add([name, *current], aliases)
            page.replace(i, f"{label}{', '.join([*current, *added])}{trail}")
            return added
    added = _names_to_add([name], aliases)
    page.insert(1 if lines and lines[0].startswith("# ") else 0, f"Aliases: {', '.join(added)}")
    return added


def add_aliases(text: str, name: str, aliases: list[str]) -> tuple[str, list[str]]:
    """`text` of an entity page with `aliases` recorded; returns (new text, names added)."""
    page = Lines.decode(text.encode("utf-8", errors="surrogateescape"))
    added = record_aliases(page, name, aliases)
    return page.encode().decode("utf-8", errors="surrogateescape"), added


def merge_entities(settings: Settings, keep: str, alias: str) -> MergeResult:
    """Record entity `alias` (and its aliases) as aliases of entity `keep`, then re-index."""
    with open_graph(settings) as graph:
        a = resolve_entity(graph, keep)
        b = resolve_entity(graph, alias)
    if a["slug"] == b["slug"]:
        raise MergeError(f"{keep!r} and {alias!r} are already the same entity ({a['name']})")
    if b["page"]:
        raise MergeError(
            f"{b['name']} has its own page {b['page']}; move what you want to keep into "
            f"{a['page'] or 'the page of ' + a['name']}, delete {b['page']}, then merge again"
        )
    rel = a["page"] or f"bank/entities/{a['name']}.md"
    path: Path = settings.workspace / rel
    if not path.resolve().is_relative_to(settings.workspace.resolve() / "bank" / "entities"):
        raise MergeError(f"{rel} is outside bank/entities/; refusing to write it")
    page = Lines.read(path) if path.exists() else Lines([f"# {a['name']}"], ["\n"])
    added = record_aliases(page, a["name"], [b["name"], *(b["aliases"] or [])])
    if added:
        path.parent.mkdir(parents=True, exist_ok=True)
        page.write(path)
    return MergeResult(page=rel, added=tuple(added), report=index_workspace(settings))
