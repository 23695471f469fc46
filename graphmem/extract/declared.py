"""What extraction declares beside each block: the extras of a block (mentions, validity,
speaker, mood) and the entities that bank pages and explicit ``@mentions`` declare.

The compiled rows (graphmem.compile.rows) are built from these; they live here, in the
extract layer, because extraction yields them.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from graphmem.extract.entities import Mention
from graphmem.parse.blocks import EntityPage, ParsedFile
from graphmem.parse.names import slugify


@dataclass(frozen=True)
class BlockExtras:
    """What extraction adds to a block beyond the parser's explicit mentions."""

    mentions: tuple[Mention, ...] = ()
    valid_from: date | None = None
    valid_to: date | None = None
    speaker: str | None = None
    #: "plan" or "hypothetical" (graphmem.extract.mood): an intention, never a state; None: a statement.
    mood: str | None = None


@dataclass
class EntityInfo:
    """An entity as compiled: declaration plus what mentions it."""

    slug: str
    name: str
    kind: str | None = None
    aliases: tuple[str, ...] = ()
    declared: bool = False
    page: str | None = None


def alias_slugs(files: Iterable[ParsedFile]) -> dict[str, str]:
    """slugify(name or alias) -> the slug of the bank page that declares it.

    ``@nas01`` resolves to ``atlas`` when atlas's page lists nas01 as an alias.
    """
    return page_aliases(pf.entity for pf in files if pf.entity is not None)


def page_aliases(pages: Iterable[EntityPage]) -> dict[str, str]:
    """:func:`alias_slugs` from the bank pages alone."""
    pages = list(pages)
    out: dict[str, str] = {}
    for page in pages:
        for name in (page.name, *page.aliases):
            out.setdefault(slugify(name), page.slug)
    for page in pages:  # a page's own slug always wins over another page's alias
        out[page.slug] = page.slug
    return out


def declared_entities(files: Iterable[ParsedFile]) -> dict[str, EntityInfo]:
    """Entities declared by bank pages and explicit ``@mentions``, by slug."""
    files = list(files)
    return declare(
        [(pf.path, pf.entity) for pf in files if pf.entity is not None],
        (name for pf in files for block in pf.blocks for name in block.mentions),
    )


def declare(pages: list[tuple[str, EntityPage]], surfaces: Iterable[str]) -> dict[str, EntityInfo]:
    """Entities from bank pages ((path, page), in file order) and explicit ``@mention``
    names (in file order), by slug."""
    aliases = page_aliases(page for _, page in pages)
    entities: dict[str, EntityInfo] = {}
    spellings: dict[str, Counter[str]] = defaultdict(Counter)
    for path, page in pages:
        info = entities.setdefault(page.slug, EntityInfo(page.slug, page.name))
        info.name, info.kind, info.page, info.declared = page.name, page.kind, path, True
        info.aliases = tuple(dict.fromkeys((*info.aliases, *page.aliases)))
    for name in surfaces:
        slug = slugify(name)
        spellings[aliases.get(slug, slug)][name] += 1
    for slug, counter in spellings.items():
        if slug in entities:
            extra = [s for s in counter if s.lower() != entities[slug].name.lower() and s != slug]
            entities[slug].aliases = tuple(dict.fromkeys((*entities[slug].aliases, *extra)))
            continue
        # The most frequent spelling names it; "The-Castle" reads as "The Castle".
        best = max(sorted(counter), key=lambda s: counter[s])
        name = best.replace("-", " ") if "-" in best and best[:1].isupper() else best
        others = tuple(s for s in sorted(counter) if s != name)
        entities[slug] = EntityInfo(slug, name, aliases=others, declared=True)
    return entities
