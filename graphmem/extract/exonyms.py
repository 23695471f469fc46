"""One entity for a place that the notes name in several languages ("Lisbon" and "Lisboa",
"Cologne" and "Köln", "Seville" and "Sevilha").

The names come from the cross-lingual lexicon's section of places whose names differ by
language (``models/crosslingual.tsv``): every name on one of its lines is the same place.
A name the table knows is a place, so an entity named by it is typed place, unless a bank
page chose its kind or the only evidence is a person's (a person called Florence). And a
name followed by a place's ("PipelineConf Berlin") is the name's entity.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import cache

from graphmem.extract.crosslingual import LEXICON
from graphmem.extract.declared import EntityInfo
from graphmem.text.fold import fold

#: The header line that starts the lexicon's section of place names.
_SECTION = "# --- places"


def parse_places(text: str) -> dict[str, int]:
    """Folded place name -> the number of its line (one place) in the lexicon `text`.

    Only the section headed ``# --- places`` is read, up to the next ``# ---`` header; a
    name on two lines keeps the first.
    """
    groups: dict[str, int] = {}
    inside = False
    for number, raw in enumerate(text.splitlines()):
        line = raw.strip()
        if line.startswith("# ---"):
            inside = line.startswith(_SECTION)
            continue
        if not inside or not line or line.startswith("#"):
            continue
        for column in line.split("|"):
            for name in column.split(","):
                key = " ".join(fold(name).split())
                if key:
                    groups.setdefault(key, number)
    return groups


@cache
def places() -> dict[str, int]:
    """The bundled lexicon's places, read once; empty if the file is missing."""
    try:
        return parse_places(LEXICON.read_text(encoding="utf-8"))
    except OSError:
        return {}


def _place_of(ent: EntityInfo, table: dict[str, int]) -> int | None:
    """The lexicon line of the place `ent` is named by (its name, else an alias)."""
    for name in (ent.name, *ent.aliases):
        if (group := table.get(" ".join(fold(name).split()))) is not None:
            return group
    return None


def join_exonyms(
    entities: dict[str, EntityInfo],
    counts: Counter[str] | None = None,
    table: dict[str, int] | None = None,
) -> dict[str, EntityInfo]:
    """One entity per place of the lexicon, whatever language names it.

    Entities named by names of one lexicon line join: a bank page keeps its slug, name and
    kind (two pages stay two entities: their author chose); else the declared side
    (an ``@mention``), else the most mentioned name (`counts`, NER surfaces) names it, and
    it is a place. A lone entity the table names becomes a place unless a page chose its
    kind or it is a person (NER and the words around it said so; "Florence" may be one).
    """
    counts = counts or Counter()
    table = places() if table is None else table
    groups: dict[int, list[EntityInfo]] = {}
    for ent in entities.values():
        if ent.page is not None and ent.kind not in (None, "place"):
            continue  # an org's page that lists "the Porto importer": not the city
        if (group := _place_of(ent, table)) is not None:
            groups.setdefault(group, []).append(ent)
    out = dict(entities)
    for members in groups.values():
        paged = [e for e in members if e.page is not None]
        if len(members) == 1 or len(paged) > 1:
            for ent in members:
                if ent.page is None and ent.kind not in ("place", "person"):
                    out[ent.slug] = replace(ent, kind="place")
            continue
        ranked = sorted(
            members,
            key=lambda e: (e.page is None, not e.declared, -counts[e.name], e.slug),
        )
        keep = ranked[0]
        name = keep.name
        kind = keep.kind if keep.page is not None else "place"
        names = [n for e in ranked for n in (e.name, *e.aliases)]
        out[keep.slug] = replace(
            keep,
            name=name,
            kind=kind,
            aliases=tuple(dict.fromkeys(n for n in names if fold(n) != fold(name))),
        )
        for gone in ranked[1:]:
            del out[gone.slug]
    return join_located(out)


def join_located(entities: dict[str, EntityInfo]) -> dict[str, EntityInfo]:
    """One entity for a name and the same name followed by a place's ("PipelineConf" and
    "PipelineConf Berlin", "Web Summit" and "Web Summit Lisbon"): the longer name, which
    nobody declared, becomes an alias of the shorter one. Not when the shorter one is itself
    a place ("Bonfim Porto" may be a street's), nor when the rest names no entity."""
    by_name: dict[str, str] = {}
    for ent in entities.values():
        by_name.setdefault(" ".join(fold(ent.name).split()), ent.slug)
    for ent in entities.values():
        for alias in ent.aliases:
            by_name.setdefault(" ".join(fold(alias).split()), ent.slug)
    placed = {key for key, slug in by_name.items() if entities[slug].kind == "place"}
    out = dict(entities)
    for ent in entities.values():
        words = fold(ent.name).split()
        if ent.declared or ent.page is not None or len(words) < 2:
            continue
        for cut in (1, 2):
            head, tail = " ".join(words[:-cut]), " ".join(words[-cut:])
            if not head or tail not in placed or (slug := by_name.get(head)) is None:
                continue
            keep = out.get(slug)
            if keep is None or keep.slug == ent.slug or keep.kind == "place":
                continue
            names = (*keep.aliases, ent.name, *ent.aliases)
            out[slug] = replace(keep, aliases=tuple(dict.fromkeys(n for n in names if n)))
            del out[ent.slug]
            break
    return out
