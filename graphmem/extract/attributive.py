"""Dates that name a thing: "the 15 April outage", "l'incident du 15 avril".

A date written as part of a noun phrase identifies a thing (an outage, a deadline, a
release); the line talks about that thing, it does not report that it happened on that
date. "I added the reconnect loop the 15 April outage called for", written on 24 April,
happened on 24 April. graphmem.extract.dating skips such dates when it dates a line.

Two shapes, read from the words around the date, not from the nouns themselves:

- **before the noun** (English): a determiner, the date, then a content word — "the
  15 April outage", "past the 20 April deadline", "the 2 April Postgres upgrade". A
  function word after the date ("on the 3rd of April we moved") means the date ends the
  noun phrase, so it dates the clause.
- **after the noun** (French, Portuguese, Spanish, German): a noun introduced by a
  determiner, then the date with its "of" preposition — "l'incident du 15 avril", "o
  relatório da avaria de 15 de abril", "la caída del 15 de abril", "den Ausfall vom
  15. April". A time noun there ("la semaine du 3 avril", "na semana de 3 de abril") is
  the time of the event, so that date still dates the line.
"""

from __future__ import annotations

import re

from graphmem.extract import timewords as W
from graphmem.extract.timex import TimeSpan
from graphmem.text.fold import fold
from graphmem.text.stopwords import ENGLISH

#: English determiners and possessives that open a noun phrase.
_EN_DETERMINERS = frozenset("the this that these those our my his her their its your".split())
#: Determiners (and preposition + article contractions) that open a noun phrase in fr, pt,
#: es and de: a word after one of them is a noun (or its adjective).
_DETERMINERS = frozenset(
    """le la les un une du des au aux ce cette ces mon ma mes son sa ses notre nos leur
    o a os as um uma do da dos das no na nos nas ao aos pelo pela meu minha seu sua
    el los las una del al su mi
    der die das den dem des ein eine einen einem einer vom zum zur beim im am""".split()
)
#: The "of" that joins a noun to the date after it.
_OF = frozenset("du de des do da del vom von".split())
_ELIDED = re.compile(r"^(?:l|d|qu)['’]", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")
#: Only a word right before the date counts: the window must end in a little whitespace.
_GAP = re.compile(r"\s{1,3}$")
_AFTER = re.compile(r"\s{1,3}([^\W\d_]+)")
#: Time nouns of every language the grammar reads ("semaine", "Woche", "día"...).
_TIME_NOUNS = frozenset(fold(w) for table in W.UNITS.values() for w in table)
_WINDOW = 60


def names_a_thing(text: str, span: TimeSpan) -> bool:
    """Whether `span` (found in `text`) is part of a noun phrase that names a thing."""
    if span.bound or span.granularity not in ("day", "month", "week"):
        return False
    window = text[max(0, span.char_start - _WINDOW) : span.char_start]
    found = list(_WORD.finditer(window))[-2:]
    gap = _GAP.search(window)
    if not found or gap is None or found[-1].end() != gap.start():
        return False
    words = [fold(m[0]) for m in found]
    det, last = (words[0] if len(words) == 2 else ""), words[-1]
    first = fold(span.text.split()[0]) if span.text.split() else ""
    if first in _OF:  # after the noun: "[l']incident du 15 avril"
        noun = last
        if _ELIDED.match(noun):
            det, noun = "le", _ELIDED.sub("", noun)
        return (
            det in _DETERMINERS
            and noun not in _DETERMINERS
            and noun not in _TIME_NOUNS
            and noun not in ENGLISH
        )
    if last not in _EN_DETERMINERS:
        return False
    after = _AFTER.match(text, span.char_end)
    if after is None:
        return False
    word = fold(after[1])
    return word not in ENGLISH and word not in _TIME_NOUNS
