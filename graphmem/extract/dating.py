"""Which time a block of text is dated by: its validity interval and its mood.

Everything in a daily log happens on its file's day unless its text says otherwise. A
time phrase re-dates a clause only when it says when the clause's event happened or its
state began or ends; other phrases are what the clause talks about:

| the clause says                                  | validity (day = the file's day)       |
|--------------------------------------------------|---------------------------------------|
| nothing, "today", "this week" (holds the day)     | day …  (open)                        |
| "yesterday", "on Saturday" (past), "last week"   | that day or period (a state: from it) |
| "since March"                                    | Mar 1 … (open)                        |
| "from June 15", "as of May 1", "ab 1. Juni"      | Jun 15 … (open)                       |
| "X is at A; B from June 15" (a present first)    | day … Jun 15 (what holds until then)  |
| "until Friday", "through D", "jusqu'au D", "bis" | day … D (closed at D)                 |
| "Nov 27–Dec 1", "del 3 al 9 de abril"            | Nov 27 … Dec 1                        |
| "next year", "in March" (ahead), "tomorrow"      | day … day, mood "plan"                |
| a plan or hypothetical (graphmem.extract.mood)           | day … day, its mood                   |
| "the 15 April outage" (a date naming a thing)    | day …  (graphmem.extract.attributive) |

A plan or hypothetical is an event of the day it was written, never a state: its
validity is that one day, and `mood` says which, so supersession and as-of recall can skip
it. A block of several clauses is re-dated only when its dated clauses agree; its mood is
set only when none of its clauses is a plain statement. Without a day (memory.md, bank
pages) only phrases that carry their year date anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from graphmem.extract.attributive import names_a_thing
from graphmem.extract.mood import Mood, clauses, mood
from graphmem.extract.timex import DEFAULT_LANGUAGES, TimeSpan, extract_times

#: Kinds whose dates are when a state began (a world fact "moved to Lisbon in March").
STATE_KINDS = frozenset({"world"})
#: A block is dated by its first DATED_CHARS characters. A sentence unit is far shorter (the
#: longest block of clawd-dev's logs and of fixtures/ has 2,673); a longer block is a pasted
#: dump or a code block, and reading all of a 1 MB one dense with dates took seconds.
DATED_CHARS = 4_000


@dataclass(frozen=True)
class Dating:
    """A block's validity (`valid_from` … `valid_to`, None = unknown or open) and mood."""

    valid_from: date | None
    valid_to: date | None
    mood: Mood | None = None


@dataclass(frozen=True)
class _Clause:
    start: date | None
    end: date | None
    dated: bool
    mood: Mood | None
    statement: bool  # has words that are not only a time phrase or markup
    opens: bool = False  # its start is a "from" bound ("from June", "ab 1. Juni")


def _clause(text: str, spans: Sequence[TimeSpan], day: date | None, kind: str) -> _Clause:
    stated = mood(text)
    start: date | None = None
    end: date | None = None
    dated = opens = False
    for s in spans:
        if s.bound == "until":
            if end is None:
                end, dated = s.end, True
        elif s.bound in ("since", "from"):
            if start is None:
                start, dated, opens = s.start, True, s.bound == "from"
        elif s.granularity == "range":
            if start is None and end is None:
                start, end, dated = s.start, s.end, True
        elif day is not None and s.start <= day <= s.end:
            continue  # "today", "this week": the day itself
        elif day is not None and s.start > day:
            stated = stated or "plan"  # it looks forward: an intention, on its day
        elif start is None and end is None:
            start, dated = s.start, True
            end = None if kind in STATE_KINDS else s.end
    words = any(ch.isalpha() for ch in text)
    return _Clause(start, end, dated, stated, words, opens)


def _replaces_a_present(parts: Sequence[_Clause], day: date | None, start: date | None) -> bool:
    """The block opens with a statement of no time and goes on to what replaces it from a
    later day: "Lulu is at the kindergarten; primary school from September", "Die Praxis ist
    in der Lindenstraße. Ab 1. März in der Bahnhofstraße." What the block states now holds
    from its day until that start; dated from the start as a whole, it read as if the
    kindergarten began in September."""
    if day is None or start is None or start <= day or not parts:
        return False
    lead = parts[0]
    if lead.dated or lead.mood is not None or not lead.statement:
        return False
    return any(p.opens and p.mood is None for p in parts[1:])


def date_block(
    text: str,
    day: date | None,
    kind: str,
    languages: Sequence[str] = DEFAULT_LANGUAGES,
    extra: Sequence[TimeSpan] = (),
) -> Dating:
    """The validity and mood of one block (`kind` as in graphmem.parse.blocks: world, log...).

    `extra` are spans found by other means (graphmem.extract.timex_fallback), merged in text order.
    Only the first DATED_CHARS characters of `text` are read.
    """
    if len(text) > DATED_CHARS:
        text = text[:DATED_CHARS]
        extra = [s for s in extra if s.char_end <= DATED_CHARS]
    bounds = clauses(text)
    found = extract_times(text, day, languages, clause_bounds=bounds)
    spans = sorted(
        (s for s in [*found, *extra] if not names_a_thing(text, s)), key=lambda s: s.char_start
    )
    parts = []
    for a, b in bounds:
        inside = [s for s in spans if a <= s.char_start < b]
        parts.append(_clause(text[a:b], inside, day, kind))
    parts = [p for p in parts if p.statement or p.dated] or parts
    moods = [p.mood for p in parts]
    block_mood: Mood | None = None
    if moods and all(moods):
        block_mood = "hypothetical" if "hypothetical" in moods else "plan"
    if block_mood is not None:
        return Dating(day, day, block_mood) if day else Dating(None, None, block_mood)
    dated = {(p.start, p.end) for p in parts if p.dated and p.mood is None}
    if len(dated) != 1:
        return Dating(day, None)
    start, end = dated.pop()
    if _replaces_a_present(parts, day, start):
        return Dating(day, start)
    first, last = start or day, end or start or day
    # One clause holds the file's day ("this week"), another names a time outside it ("as
    # in September"): they disagree, so the block keeps its day. Inside it ("this week ...
    # yesterday") they agree.
    if day is not None and first is not None and last is not None:
        for s in spans:
            holding = not s.bound and s.start <= day <= s.end
            if holding and not (s.start <= first and last <= s.end):
                return Dating(day, None)
    start = start or day
    if start is not None and end is not None and end < start:
        end = start if day is None else None  # "until last Friday" written later: no bound
    return Dating(start, end)
