"""Query understanding without an LLM: which entities, which time, which kind of memory.

The question's entities come from the same gazetteer as extraction (so aliases work); its
time from the same time grammar (relative to `now`); kind hints from a few cue words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from graphmem.entities import Gazetteer
from graphmem.timex import TimeSpan, question_time

_OPINION_CUES = re.compile(
    r"\b(prefers?|preferred|preference|likes?|loves?|hates?|dislikes?|think|thinks|opinions?|"
    r"believes?|feel about|feels about|favou?rite|enjoys?|sure|confident|"
    r"préfère|aime|acha|gosta|prefere)\b",
    re.IGNORECASE,
)
_EXPERIENCE_CUES = re.compile(
    r"\b(did|have|had)\s+(i|we)\b|\bwhat did (i|we)\b|\b(i|we)\s+(did|fixed|set up|built|tried)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class QueryPlan:
    """What recall understood of a question."""

    question: str
    entities: tuple[str, ...]
    time: TimeSpan | None
    kinds: frozenset[str]


def understand(question: str, gazetteer: Gazetteer, now: date) -> QueryPlan:
    """Entities, time constraint and kind hints stated in `question`."""
    slugs = tuple(dict.fromkeys(m.slug for m in gazetteer.find(question)))
    kinds: set[str] = set()
    if _OPINION_CUES.search(question):
        kinds.add("opinion")
    if _EXPERIENCE_CUES.search(question):
        kinds.add("experience")
    return QueryPlan(
        question=question,
        entities=slugs,
        time=question_time(question, now),
        kinds=frozenset(kinds),
    )
