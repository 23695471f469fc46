"""Counts that test a comparison: "Anjos has more foot traffic than Mouraria", then "foot
count: Lagares 131, Maria Andrade 238".

Three readings, each of the text's own structure:

| reading     | shape                                                        | gives               |
|-------------|--------------------------------------------------------------|---------------------|
| comparison  | A ... more / mais / plus / mehr / más X than / do que / que / als / que B; fewer, less, menos, moins, weniger | (B, sign)    |
| location    | a street and the area after it: "Rua dos Lagares 12, Mouraria", "Rua Maria Andrade in Anjos", "Rue Basse 3 à Millbrook", "(Anjos)" | street -> area |
| count       | a place and a number of two to nine digits: "Lagares 131", "226 people on Maria Andrade"; an address's number ("Rua X 12, Area") is no count | (area, n) |

graphmem.compile.opinions compares the latest count of each side (a count of one side on a
later day meets the other side's last count) in a sentence that counts (a counting word, or
a word of the compared quantity), dated after the opinion: the counts of the opinion's own
day are its basis.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from graphmem.text.fold import fold

_CAP = r"[A-ZÀ-Ý][\w'’-]*"
_LINK = r"(?:d[aoe]s?|de|del|la|le|du|des|von|van)"
#: A name starts where a word starts, never inside one: a long run of letters is read once,
#: not once from each of its capitals (linear on a pasted key or blob).
_NAME = rf"(?<![\w'’-]){_CAP}(?:\s+(?:{_LINK}\s+)?{_CAP}){{0,3}}"
_STREET_BEFORE = r"(?:Rua|Rue|Calle|Avenida|Av\.|Travessa|Largo|Via|Carrer|Praça|Place|Plaza)"
_STREET_AFTER = r"(?:Street|St\.?|Road|Rd\.?|Lane|Avenue|Ave\.?|Square)"
_STREET = (
    rf"(?:{_STREET_BEFORE}\s+(?:{_LINK}\s+)?(?P<s1>{_NAME})|(?P<s2>{_NAME})\s+{_STREET_AFTER})"
)
_IN = r"(?:in|em|en|na|no|à|a|im|dans)"
_STREET_WORD = re.compile(rf"\b(?:{_STREET_BEFORE}|{_STREET_AFTER})(?!\w)")
#: A street, then its area: "12, Area" (a comma needs the house number: "Rua dos Lagares,
#: Rafa at ..." is a list), " in Area", " (Area)". No two blank runs side by side, so a long
#: blank run is walked once per try, not once per split of it.
LOCATED = re.compile(
    rf"{_STREET}(?:\s+\d+\w?\s*,\s*|(?:\s+\d+\w?)?(?:(?:\s*,\s+|\s+){_IN}\s+|\s*\(\s*(?:{_IN}\s+)?))"
    rf"(?!{_STREET_BEFORE}\b)(?P<area>{_CAP}(?:\s+(?:{_LINK}\s+)?{_CAP}){{0,2}})"
)
#: "Lagares 131" (a place, then its count) and "226 people on Maria Andrade".
_COUNTS = (
    re.compile(
        rf"(?P<p>(?:{_STREET_BEFORE}\s+(?:{_LINK}\s+)?)?{_NAME})(?:\s*\([^)]{{1,40}}\))?:?\s+"
        rf"(?:(?:had|has|got|with|com|teve|tinha|avec|hatte|tuvo|con)\s+)?(?P<n>\d{{2,9}})(?![\d:.,]\d)"
    ),
    re.compile(
        rf"(?<![\d:.,])(?P<n>\d{{2,9}})(?![\d:.,]\d)\s+(?:[a-zà-ÿ]+\s+){{0,2}}?"
        rf"(?:on|in|at|em|na|no|en|à|a|auf|an)\s+(?:(?:the|a|o|la|le)\s+)?(?P<p>{_NAME})"
    ),
)
_ARTICLE = frozenset("a o as os the la le les el los die der das rua rue calle avenida travessa largo via carrer praca place plaza street st road rd lane avenue ave square".split())  # fmt: skip
_LINKS = frozenset("da de do das dos del du des von van".split())
_MORE = re.compile(
    r"\b(?P<cue>more|mais|plus|mehr|mas|fewer|less|menos|moins|weniger)\s+(?:de\s+|d'\s*)?"
    r"(?P<what>[^;.!?]{1,80}?)\s+(?:than|do que|que|als)\s+(?P<b>[^;,.!?]{1,60})"
)
_FEWER = frozenset("fewer less menos moins weniger".split())
#: A sentence that counts: a count, a tally, people (per language).
COUNTING = re.compile(
    r"\b(?:count|counts|counted|counting|tally|tallies|people|contagem|contamos|contaram|"
    r"pessoas|comptage|compte|compté|personnes|zahlung|gezahlt|leute|personen|conteo|"
    r"contamos|personas)\b|人"
)


class Comparison(NamedTuple):
    """An opinion comparing its holder with `other` (a folded place key): `sign` +1 "more",
    -1 "fewer"; `what` the words of the compared quantity."""

    other: str
    sign: int
    what: str


def key(place: str) -> str:
    """A place's key: folded, without street-type words, articles and name links."""
    words = [w for w in re.findall(r"[\w'-]+", fold(place)) if w not in _ARTICLE]
    while words and words[0] in _LINKS:
        words.pop(0)
    return " ".join(words)


def comparison(statement: str) -> Comparison | None:
    """The comparison an opinion makes, or None."""
    m = _MORE.search(fold(statement))
    if m is None:
        return None
    other = key(m.group("b"))
    if not other:
        return None
    return Comparison(other, -1 if m.group("cue") in _FEWER else 1, m.group("what"))


def located(texts: Iterable[str]) -> dict[str, str]:
    """street key -> area key, from every "street, area" the texts write (the area written
    most often with a street; the first of a tie)."""
    votes: dict[str, Counter[str]] = defaultdict(Counter)
    for text in texts:
        if not _STREET_WORD.search(text):
            continue
        for m in LOCATED.finditer(text):
            street, area = key(m.group("s1") or m.group("s2")), key(m.group("area"))
            if street and area and street != area:
                votes[street][area] += 1
    return {street: areas.most_common(1)[0][0] for street, areas in votes.items()}


def counts(text: str, places: dict[str, str]) -> list[tuple[str, int]]:
    """(area key, count) of each counted place of `text`, in order; a place the workspace
    locates in an area counts for that area. An address's house number is no count."""
    if not any(ch.isdigit() for ch in text):
        return []
    areas = set(places.values())
    addresses = [m.span() for m in LOCATED.finditer(text)]
    found: dict[int, tuple[str, int]] = {}  # the number's offset -> (area, count)
    for pattern in _COUNTS:
        for m in pattern.finditer(text):
            at = m.start("n")
            if at in found or any(a <= at < b for a, b in addresses):
                continue
            # the longest tail of the name that is a place ("June Lagares" -> "lagares")
            words = key(m.group("p")).split()
            tails = (" ".join(words[i:]) for i in range(len(words)))
            place = next((t for t in tails if t in places or t in areas), "")
            if place:
                found[at] = (places.get(place, place), int(m.group("n")))
    return [found[at] for at in sorted(found)]
