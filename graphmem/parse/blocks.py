"""Plain data passed between stages: what the parser finds in one Markdown file.

Nothing here touches a database; every value is a frozen dataclass, so parse results can be
cached as JSON and compared in tests.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, fields
from datetime import date
from typing import Any, Literal

from graphmem.parse.names import normalize_text

Kind = Literal["world", "experience", "opinion", "observation", "log"]
Origin = Literal["retain", "log", "bank", "core"]
Role = Literal["daily", "core", "soul", "entity", "bank", "note"]

#: Retain-bullet prefix letter -> kind.
PREFIX_KINDS: dict[str, Kind] = {
    "W": "world",
    "B": "experience",
    "O": "opinion",
    "S": "observation",
}

#: Confidence of an opinion that states none (a plain `O` bullet).
DEFAULT_CONFIDENCE = 0.7


@dataclass(frozen=True)
class Notice:
    """A warning about the input, pinned to a file and line (line 0: the whole file)."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class Block:
    """One indexed unit: a typed bullet (fact or opinion) or a passage of free text."""

    id: str
    kind: Kind
    #: The content: for a bullet, the text after its ``PREFIX @mentions:`` head.
    text: str
    line_start: int
    line_end: int
    origin: Origin
    #: Headings above the block, outermost first, joined by " > ".
    heading: str = ""
    #: Explicit ``@Name`` mentions, as written (slugify them for the entity).
    mentions: tuple[str, ...] = ()
    #: Stated confidence of an opinion (clamped to [0, 1]); None when not stated.
    confidence: float | None = None
    #: A typed bullet's subject: the ``@Name`` mentions of its head, before the colon
    #: (``- W @Peter: ...`` is about Peter); the other mentions are only mentions.
    subject: tuple[str, ...] = ()

    @property
    def is_passage(self) -> bool:
        """Free text rather than a typed bullet."""
        return self.kind == "log"


@dataclass(frozen=True)
class EntityPage:
    """What a ``bank/entities/<Name>.md`` page declares about its entity."""

    slug: str
    name: str
    kind: str | None = None
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class ParsedFile:
    """Everything the parser found in one file."""

    path: str
    role: Role
    day: date | None
    blocks: tuple[Block, ...] = ()
    entity: EntityPage | None = None
    warnings: tuple[Notice, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (for the parse cache): what ``dataclasses.asdict`` gives, made
        field by field (asdict deep-copies every value: at 100k items a few seconds of a
        first index went there)."""
        return {
            "path": self.path,
            "role": self.role,
            "day": self.day.isoformat() if self.day else None,
            "blocks": [_fields_of(b) for b in self.blocks],
            "entity": _fields_of(self.entity) if self.entity is not None else None,
            "warnings": [_fields_of(w) for w in self.warnings],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ParsedFile:
        """Inverse of :meth:`to_json`."""
        blocks = tuple(
            Block(**{**b, "mentions": tuple(b["mentions"]), "subject": tuple(b.get("subject", ()))})
            for b in data["blocks"]
        )
        entity = data.get("entity")
        return cls(
            path=data["path"],
            role=data["role"],
            day=date.fromisoformat(data["day"]) if data["day"] else None,
            blocks=blocks,
            entity=EntityPage(**{**entity, "aliases": tuple(entity["aliases"])})
            if entity
            else None,
            warnings=tuple(Notice(**w) for w in data["warnings"]),
        )


def _fields_of(obj: Block | EntityPage | Notice) -> dict[str, Any]:
    """A flat dataclass's fields as a dict (their values are str, int, float, None or
    tuples of str, which JSON writes as lists)."""
    return {f.name: getattr(obj, f.name) for f in fields(obj)}


class IdMaker:
    """Stable ids: path + kind + normalised text + occurrence, never line numbers.

    Editing one paragraph of a file leaves the ids of every other block unchanged, so
    evidence edges and confidence history survive edits elsewhere.
    """

    def __init__(self, path: str) -> None:
        self._path = path
        self._seen: dict[str, int] = {}

    def make(self, kind: str, text: str) -> str:
        """The id of the next block of `kind` with `text` in this file."""
        key = f"{kind}\x00{normalize_text(text)}"
        occurrence = self._seen.get(key, 0)
        self._seen[key] = occurrence + 1
        digest = hashlib.sha1(
            f"{self._path}\x00{key}\x00{occurrence}".encode(), usedforsecurity=False
        ).hexdigest()
        prefix = {"opinion": "o", "log": "p"}.get(kind, "f")
        return f"{prefix}{digest[:15]}"
