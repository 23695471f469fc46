"""An entity's home place, read from its page: a firm is named by its town.

"The Seville delivery", "a palete de Sevilha": a supplier, a club or a project is often
named by where it is rather than by its name. Its page says where that is in its first
sentence ("Green-coffee importer in Seville, warehouse on ..."): the name right after a
preposition of place. When no other page gives that place, and no declared entity carries
that name itself, a sentence naming the place is about the entity, for opinion evidence.

Only where a page writes it: no list of towns. A person is not named by their town ("the
Porto weather" is not about someone living there), nor a place by the town around it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Protocol

from graphmem.compile.stance import units
from graphmem.extract.declared import EntityInfo
from graphmem.extract.timewords import MONTHS, WEEKDAYS
from graphmem.text.fold import fold

#: A preposition of place ("importer in Seville", "clube no Porto", "tostador en Valencia",
#: "Rösterei in Köln", "atelier à Lyon") and the capitalised words after it.
_AT = re.compile(
    r"(?<![\w])(?:in|em|no|na|en|à|au|im|bei|te)\s+((?:[^\W\d_][\w'’-]*)(?:\s+[^\W\d_][\w'’-]*){0,3})",
    re.IGNORECASE,
)
#: A "Key: value" line of a page ("Aliases:", "**Kind**:", "Contact:").
_KEY = re.compile(r"\s*+[*_]*+[^\W\d_][\w -]{0,30}?[*_]*+\s*+:")
#: Kinds a town does not name: a person, or a place (the town around it).
_NOT_NAMED_BY_TOWN = frozenset({"person", "place"})
_TIME_WORDS = frozenset(
    fold(w)
    for table in (MONTHS, WEEKDAYS)
    for words in table.values()
    for w in words.replace("|", " ").split()
)


class PageText(Protocol):
    """A passage of an entity page, as the cross-file passes see it (compile.rows.FactRef)."""

    @property
    def path(self) -> str: ...

    @property
    def role(self) -> str: ...

    @property
    def block(self) -> object: ...


def home_places(entities: Mapping[str, EntityInfo], texts: Iterable[PageText]) -> dict[str, str]:
    """Folded place name -> the slug of the one entity whose page gives it as its place.

    A place given by two pages names neither; a place that is itself a declared entity's
    name or alias stays that entity's."""
    pages = {e.page: e for e in entities.values() if e.page and e.kind not in _NOT_NAMED_BY_TOWN}
    first: dict[str, tuple[int, str]] = {}  # page path -> (line, text) of its first passage
    for ref in texts:
        if ref.role != "entity" or ref.path not in pages:
            continue
        line, text = ref.block.line_start, ref.block.text  # type: ignore[attr-defined]
        if _KEY.match(text):
            continue  # "Aliases: ...", "Kind: org", "Contact: Nacho": a key, not the description
        if ref.path not in first or line < first[ref.path][0]:
            first[ref.path] = (line, text)
    declared = {fold(n) for e in entities.values() if e.declared for n in (e.name, *e.aliases)}
    found: dict[str, set[str]] = defaultdict(set)
    for path, (line, text) in first.items():
        sentences = units(text, line)
        if sentences:
            for place in _places(sentences[0].text):
                found[place].add(pages[path].slug)
    return {place: next(iter(slugs)) for place, slugs in found.items()
            if len(slugs) == 1 and place not in declared}  # fmt: skip


def _places(sentence: str) -> list[str]:
    """The folded names right after a preposition of place in `sentence`: the capitalised
    words that follow it ("in Seville, warehouse" -> seville; "in January" names no place)."""
    out = []
    for m in _AT.finditer(sentence):
        words = []
        for word in m.group(1).split():
            if not word[:1].isupper():
                break
            words.append(word)
        name = fold(" ".join(words))
        if name and name not in _TIME_WORDS and len(name) >= 3:
            out.append(name)
    return out
