"""Query understanding without an LLM: which entities, which time, which kind of memory.

The question's entities come from the same gazetteer as extraction (so aliases work); its
time from the same time grammar (relative to `now`); kind hints from a few cue words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from graphmem.extract.entities import Gazetteer, Mention
from graphmem.extract.mood import lean
from graphmem.extract.slots import IP, PHONE, PORT, PRICE, WEEKLY
from graphmem.extract.timex import TimeSpan, covering, extract_times
from graphmem.text.stopwords import ENGLISH

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
#: The question asks about the present: what superseded or overtaken lines said is stale.
PRESENT_CUES = re.compile(
    r"\b(now|currently|current|right now|these days|still|today|anymore|any more|"
    r"maintenant|en ce moment|actuel\w*|aujourd['’]hui|agora|neste momento|no momento|"
    r"atual\w*|actualmente|ahora|en este momento|jetzt|aktuell|derzeit|zurzeit|momentan|"
    r"heute)\b|现在|現在|目前|如今|今は",
    re.IGNORECASE,
)
#: Of the present cues, the adverbs that say "at this moment" and nothing else: read as the
#: question's time, like "in April", they are not words an answer has to contain ("agora"
#: matched "agora é trabalhar"). "still", "current" and "today" stay: they also say what.
_NOW_ADVERBS = re.compile(
    r"\b(now|right now|currently|these days|maintenant|en ce moment|actuellement|agora|"
    r"neste momento|no momento|atualmente|actualmente|ahora|en este momento|jetzt|derzeit|"
    r"zurzeit|momentan)\b|现在|現在|目前|如今|今は",
    re.IGNORECASE,
)
#: What type of value a question asks for, by its interrogative or the attribute it names,
#: in the languages the logs use: the answer is a line that holds a value of that shape
#: (graphmem.extract.slots). A closed class per language, like the present cues.
_ASKS = {
    PRICE: re.compile(
        r"\b(how much|price[sd]?|costs?|quanto (?:custa|custou|custava|é|era|pago)|preços?|"
        r"combien|prix|coûte|coûtait|wie ?viel|kostet|kostete|preis|cuánto|cuesta|costaba|"
        r"precios?)\b|多少钱|价格|价钱|いくら|値段",
        re.IGNORECASE,
    ),
    PHONE: re.compile(
        r"\b(phones?|telephone|mobile|cell ?phone|telefon\w*|telemóvel|celular|handynummer|"
        r"rufnummer|téléphone|portable|teléfono|móvil)\b|电话|手机|電話|携帯",
        re.IGNORECASE,
    ),
    IP: re.compile(r"\b(ip|ip address|lan address)\b", re.IGNORECASE),
    PORT: re.compile(r"\b(port|puerto)\b|端口|ポート", re.IGNORECASE),
    WEEKLY: re.compile(
        r"\b(?:what|which) (?:day|night|evening|weekday)s?\b|\b(?:que|qual|quel|quelle|qué) "
        r"(?:dia|jour|soir|día|noche|noite)\b|\bwelche[nmr]? (?:tag|abend)\b|何曜日|星期几|周几",
        re.IGNORECASE,
    ),
}
_POSSESSIVE = re.compile(r"['’]s?(?!\w)")
_WORD = re.compile(r"[^\W_]+")
#: A question is read by its first QUESTION_CHARS characters. The longest of clawd-dev's 85
#: questions and LoCoMo's ~1,000 has 131; the time grammar, the gazetteer and the channels
#: read a question per character, and a 1 MB one took 5-40 s of CPU to understand alone.
QUESTION_CHARS = 2_000
_CLIPPED = "the question has {n:,} characters; recall read its first {kept:,}"


def clip_question(question: str) -> tuple[str, str | None]:
    """`question` cut to its first QUESTION_CHARS characters, and the notice saying so
    (None when it is not longer)."""
    if len(question) <= QUESTION_CHARS:
        return question, None
    return question[:QUESTION_CHARS], _CLIPPED.format(n=len(question), kept=QUESTION_CHARS)


@dataclass(frozen=True)
class QueryPlan:
    """What recall understood of a question."""

    question: str
    entities: tuple[str, ...]
    time: TimeSpan | None
    kinds: frozenset[str]
    #: The question without the entities' names: what it asks about them (see :func:`topic`).
    topic: str = ""
    #: The question without its time phrases, for the lexical channel: the time it names is
    #: a filter on dates ("in April 2026"), not words the answer has to contain.
    words: str = ""
    #: The question asks what is true now ("now", "currently", "jetzt", "现在").
    present: bool = False
    #: The types of value the question asks for (:func:`asked_types`).
    asks: frozenset[str] = frozenset()


def asked_types(question: str, timed: bool = False) -> frozenset[str]:
    """The slot types (graphmem.extract.slots) whose value answers `question`: "How much is
    an espresso?", "¿Cuánto cuesta…?" ask a price; "Qual é o telefone da Graça?" a phone
    number; "Which port…?" a port; "What night is training?" a weekly day.

    A question in the past tense that names no time ("What day did Rafa drop in at the
    warehouse?", "Em que dia o Rafa passou pelo armazém?") asks the date of one event, not
    a weekly day; one that names its time (`timed`: "What night was training in May?")
    asks what the habit was then."""
    kinds = frozenset(kind for kind, rx in _ASKS.items() if rx.search(question))
    if WEEKLY in kinds and not timed and lean(question) < 0:
        kinds -= {WEEKLY}
    return kinds


def topic(question: str, mentions: list[Mention]) -> str:
    """`question` with the named entities (and their possessive ``'s``) cut out.

    What a question asks about someone is its topic; the name only says whose lines to
    prefer, which the entity and speaker boosts already do. Embedded with the name, a
    short question sits near every short line that names that person, whatever it says.
    The question itself when no content word would be left ("Who is Caroline?").
    """
    out = question
    for m in sorted(mentions, key=lambda m: m.start, reverse=True):
        rest = out[m.end :]
        rest = _POSSESSIVE.sub("", rest, count=1) if _POSSESSIVE.match(rest) else rest
        out = out[: m.start] + rest
    out = " ".join(out.split())
    if not any(w.casefold() not in ENGLISH for w in _WORD.findall(out)):
        return question
    return out


def without_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with the character ranges `spans` cut out (whitespace collapsed)."""
    merged: list[list[int]] = []
    for start, end in sorted(spans):  # overlapping ranges cut once ("right now" and "now")
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    out = text
    for start, end in reversed(merged):
        out = out[:start] + " " + out[end:]
    return " ".join(out.split())


def understand(question: str, gazetteer: Gazetteer, now: date) -> QueryPlan:
    """Entities, time constraint and kind hints stated in `question`."""
    spans = extract_times(question, now)
    times = [(t.char_start, t.char_end) for t in spans]
    times += [m.span() for m in _NOW_ADVERBS.finditer(question)]
    timeless = without_spans(question, times) if times else question
    if not any(w.casefold() not in ENGLISH for w in _WORD.findall(timeless)):
        timeless = question  # "What happened in April?": the time is all there is
    mentions = gazetteer.find(timeless)
    slugs = tuple(dict.fromkeys(m.slug for m in mentions))
    when = covering(question, spans)
    kinds: set[str] = set()
    if _OPINION_CUES.search(question):
        kinds.add("opinion")
    if _EXPERIENCE_CUES.search(question):
        kinds.add("experience")
    return QueryPlan(
        question=question,
        entities=slugs,
        time=when,
        kinds=frozenset(kinds),
        topic=topic(timeless, mentions),
        words=timeless,
        present=PRESENT_CUES.search(question) is not None,
        asks=asked_types(question, timed=when is not None),
    )
