"""Mood and tense of a sentence: is it a plan, a hypothetical, or a statement of fact?

A daily log records what happened and what is true, but also what someone intends ("we
plan to move in June", "Joana va déménager") and what they only imagine ("if we moved to
Montréal", "vielleicht", "如果"). Those are events of the day they were written, never a new
state: supersession and as-of recall must skip them. :func:`mood` finds the cue words of
each (en, fr, pt, de, es, zh); :func:`lean` says whether a clause looks forward or back,
which decides how a bare "Saturday" or "in March" resolves (see graphmem.extract.timex).

| mood           | cues (a few of each language)                                             |
|----------------|---------------------------------------------------------------------------|
| "hypothetical" | if we, what if, might, maybe, would, could, considering, thinking about;  |
|                | et si, peut-être, pourrait; e se, talvez, poderia; wenn wir, vielleicht,   |
|                | würde; y si, quizás, podría; 如果, 也许, 考虑                                 |
| "plan"         | plan to, going to, will, intend, want to, hope to, scheduled; va partir,  |
|                | prévoit; vai mudar, pretende; wird, plant, möchte; va a mudarse, planea;  |
|                | 打算, 计划, 准备                                                            |

A sentence opening on a condition (If, Unless, Should, Si, Se o/a/não, Caso, Sofern) is
hypothetical whatever follows. Hypothetical wins over plan ("if we moved we would plan
to…" is no plan). Negated ability ("could not", "couldn't") is a past fact, not a
hypothetical. English "may" is left out: it is as often permission or the month as a
possibility. All patterns are alternations of literal words between word boundaries:
linear time, no nested repetition.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import lru_cache
from typing import Literal, NamedTuple

Mood = Literal["plan", "hypothetical"]

_HYPOTHETICAL = {
    "en": r"what if|if (?:we|i|you|she|he|they|one day|only)|suppose|supposing|imagine|"
    r"hypothetically|in theory|might|maybe|perhaps|possibly|could(?! not|n['’]t)|"
    r"would(?! not|n['’]t)|considering|consider(?:s|ed)? (?:moving|switching|leaving|buying)|"
    r"thinking (?:about|of)|wondering (?:whether|if|about)|toying with|tempted to|in case",
    "fr": r"et si|si (?:on|nous|jamais|un jour|je|elle|il|ils|elles)|peut-être|"
    r"pourr(?:ait|ais|aient|ions)|serai(?:t|ent)|aurai(?:t|ent)|voudrai(?:t|ent)|faudrait|"
    r"devrai(?:t|ent)|aimerai(?:t|ent)|envisag(?:e|ent|eons)|réfléchi(?:t|ssent) à|"
    r"au cas où|imaginons|supposons",
    "pt": r"e se|se (?:nós|a gente|um dia|eu|ela|ele|eles|elas)|talvez|poderi(?:a|am|amos)|"
    r"seri(?:a|am|amos)|gostari(?:a|am|amos)|deveri(?:a|am)|pensando em|considerando|"
    r"cogit(?:a|am|ando)|caso (?:a gente|nós|ela|ele)",
    "de": r"was wäre wenn|wenn wir|falls|vielleicht|eventuell|könnte[n]?|würde[n]?|wäre[n]?|"
    r"überleg(?:t|en)|erwäg(?:t|en)|angenommen",
    "es": r"y si|si (?:nos|nosotros|algún día|un día|yo|ella|él|ellos)|quizás|quizá|tal vez|"
    r"podría(?:mos|n)?|sería(?:mos|n)?|gustaría|debería(?:mos|n)?|pensando en|considerando|"
    r"plante(?:a|an|ando)|en caso de",
}
_ZH_HYPOTHETICAL = "如果|要是|假如|万一|也许|或许|考虑"
_PLAN = {
    "en": r"will(?! not|n['’]t)|[a-z]+['’]ll|shall|going to|gonna|plan(?:s|ned|ning)? (?:to|on|for)|planning|"
    r"intend(?:s|ing)?(?: to)?|want(?:s)? to|hope(?:s)? to|aim(?:s)? to|about to|scheduled|"
    r"is due|(?:is|are) (?:coming|moving|leaving|flying)|upcoming",
    "fr": r"(?:va|vais|vas|vont|allons|allez) \w+(?:er|ir|re)|prévoi(?:t|ent)|prévu[e]?|"
    r"a l['’]intention|veu(?:t|lent) \w+(?:er|ir|re)|espère|bientôt|"
    r"(?:sera|seront|aura|auront|fera|feront|ira|iront|viendra|pourra|devra)",
    "pt": r"(?:vai|vão|vamos|vou) \w+(?:ar|er|ir|or)|planej(?:a|am|ando)|pretend(?:e|em)|"
    r"quer(?:em)? \w+(?:ar|er|ir)|em breve|\w{2,}(?:rá|rão)",
    "de": r"wird|werden|wirst|werde|will|wollen|möchte[n]?|plan(?:t|en)|vorhat|vorhaben|"
    r"hat vor|bald|demnächst",
    "es": r"(?:va|vas|voy|vamos|van) a \w+(?:ar|er|ir)(?:se|me|te|nos|lo|la)?|plane(?:a|an|ando)|"
    r"piens(?:a|an) \w+(?:ar|er|ir)|quier(?:e|en) \w+(?:ar|er|ir)|pronto|\w{2,}(?:rá|rán)",
}
_ZH_PLAN = "打算|计划|准备|将要|即将|想要"
# Words that only say the clause looks forward or back (for resolving "Saturday", "in March").
_FORWARD_ONLY = {
    "en": r"next|coming|tomorrow|soon|by then",
    "fr": r"prochain[e]?|demain|d['’]ici",
    "pt": r"próxim[oa]|amanhã|que vem",
    "de": r"nächste[nmrs]?|morgen|kommende[nmrs]?",
    "es": r"próxim[oa]|que viene",
}
_ZH_FORWARD = "明天|下周|下个|明年|将"
_PAST = {
    "en": r"was|were|went|had|did|got|came|met|saw|took|made|left|told|said|spent|bought|"
    r"sent|ran|gave|found|brought|thought|felt|kept|paid|sold|lost|won|built|began|broke|"
    r"chose|drove|ate|fell|flew|forgot|grew|heard|held|knew|led|lent|meant|rode|rang|rose|"
    r"shook|sang|sat|slept|spoke|stood|swam|taught|threw|understood|woke|wore|wrote|caught|"
    r"fought|drank|hung|swore|"
    r"ago|yesterday|last|already|could not|couldn['’]t|"
    r"(?!(?:need|indeed|speed|seed|feed|proceed|exceed|succeed|scheduled|planned|supposed|"
    r"expected)\b)(?-i:[a-z]{2,}ed)",
    "fr": r"était|étaient|avait|avaient|hier|derni(?:er|ère)|"
    r"(?:a|ont|avons|ai|est|sont|sommes|suis)(?:-t)?(?:-(?:il|elle|on|ils|elles))? "
    r"(?!lieu\b)\w+(?:é|ée|és|ées|i|ie|is|it|u|ue|us)",
    "pt": r"foi|foram|fomos|era|eram|estava|estavam|tinha|tinham|ontem|passad[oa]|"
    r"veio|fez|disse|teve|deu|viu|pôs|trouxe|esteve|houve|soube|quis|"
    r"(?!(?:sou|vou|estou|dou)\b)\w{2,}(?:ou|aram|eram|iram)",
    "de": r"war|waren|hatte|hatten|wurde|wurden|gestern|vorgestern|letzte[nmrs]?|vorige[nmrs]?|"
    r"(?-i:ge[a-zäöüß]{3,}(?:t|en))",
    "es": r"fue|fueron|fuimos|era|eran|estaba|estaban|había|ayer|anoche|pasad[oa]|"
    r"vino|hizo|dijo|tuvo|dio|vio|puso|trajo|estuvo|hubo|supo|quiso|"
    r"\w{2,}(?:ó|aron|ieron)",
}
_ZH_PAST = "了|过|昨天|上周|已经|刚才|前天"


def _compile(table: dict[str, str], zh: str) -> re.Pattern[str]:
    latin = "|".join(f"(?:{rx})" for rx in table.values())
    # Phrases match on word boundaries, with any run of spaces between words.
    body = latin.replace(" ", r"\s+")
    return re.compile(rf"(?<!\w)(?:{body})(?!\w)|{zh}", re.IGNORECASE)


_HYPO_RX = _compile(_HYPOTHETICAL, _ZH_HYPOTHETICAL)
# A sentence or clause that opens on a condition is hypothetical whatever its subject ("If
# approved, …", "Se o banco aprovar, …", "Si aprueban el préstamo, …", "Should the bank
# say yes, …", "Unless …"): the pronoun forms above need a subject pronoun after "if".
# Portuguese "Se" only before an article or "não": Spanish "Se mudaron" is a reflexive.
_CONDITION_OPENING = re.compile(
    r"(?:^|(?<=[.;:!?]\s)|(?<=\n))[^\S\n]*(?:[-*+][^\S\n]+)?"
    r"(?:if|unless|should|si|caso|sofern|se(?=\s+(?:o|a|os|as|não|nao|tudo)\b))\b",
    re.IGNORECASE,
)
_PLAN_RX = _compile(_PLAN, _ZH_PLAN)
_FORWARD_RX = _compile(_FORWARD_ONLY, _ZH_FORWARD)
# Two past cues are case-sensitive: German nouns ("Gesundheit") are capitalised where
# participles ("gemacht") are not, and "Fred" is a name where "fixed" is a verb.
_PAST_RX = _compile(_PAST, _ZH_PAST)
# A clause ends at sentence punctuation (or ";") followed by a space, or at a line break
# that starts a new list item or a blank line. A full stop after a digit ("19. März") or a
# capitalised three-letter word ("Nov. 27") is an ordinal or an abbreviation.
#
# Linear: a run of end marks is read only from its first mark (the lookbehind: from inside
# the run, the same run would fail the same way, once per mark), and after a line break
# the blanks up to the next line break are read once.
_END_MARK = r"(?:(?<!\d)(?<![A-Z][a-z]{2})\.|[!?;。！？；])"
_CLAUSE_END = re.compile(rf"(?<!{_END_MARK}){_END_MARK}++(?=\s|$)|\n(?=[^\S\n]*+(?:\n|[-*+]\s|#))")
_CODE = re.compile(r"`[^`\n]*`")


def clauses(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the clauses of `text`, in order, covering all of it."""
    out, start = [], 0
    for m in _CLAUSE_END.finditer(text):
        out.append((start, m.end()))
        start = m.end()
    if start < len(text) or not out:
        out.append((start, len(text)))
    return out


def _unquoted(text: str) -> str:
    """`text` with inline code blanked out (same length): `will` in a command is no cue."""
    if "`" not in text:
        return text  # most text: no pass of the pattern
    return _CODE.sub(lambda m: " " * len(m.group()), text)


@lru_cache(maxsize=32768)
def mood(text: str) -> Mood | None:
    """'hypothetical', 'plan' or None (a statement) for one clause or sentence.

    Cached: dating asks it of every clause and supersession of every dated sentence, and a
    log repeats many of its lines (the 100k bench: 67,167 distinct lines of 124,370)."""
    clean = _unquoted(text)
    if _HYPO_RX.search(clean) or _CONDITION_OPENING.search(clean):
        return "hypothetical"
    if _PLAN_RX.search(clean):
        return "plan"
    return None


class Cues(NamedTuple):
    """Where a clause's forward and past cues start (sorted offsets), for :func:`leaning`."""

    ahead: list[int]
    back: list[int]


def cues(text: str) -> Cues:
    """The offsets of the forward cues (will, next, va, wird, 打算…) and past cues (was,
    -ed, hier, foi, gestern, 了…) of `text`. Read a clause once, then ask :func:`leaning`
    about each offset in it: asking :func:`lean` per offset reads the clause every time."""
    clean = _unquoted(text)
    ahead = sorted(m.start() for rx in (_PLAN_RX, _FORWARD_RX) for m in rx.finditer(clean))
    return Cues(ahead, [m.start() for m in _PAST_RX.finditer(clean)])


def _distance(offsets: list[int], at: int) -> int:
    """The distance from `at` to the nearest of the sorted, non-empty `offsets`."""
    i = bisect_left(offsets, at)
    return min(abs(offsets[j] - at) for j in (i - 1, i) if 0 <= j < len(offsets))


def leaning(found: Cues, at: int | None = None) -> int:
    """:func:`lean` from the cues :func:`cues` found."""
    ahead, back = found
    if not ahead or not back:
        return 1 if ahead else -1 if back else 0
    if at is None:
        return 0
    nearest_ahead, nearest_back = _distance(ahead, at), _distance(back, at)
    return 1 if nearest_ahead < nearest_back else -1 if nearest_back < nearest_ahead else 0


def lean(text: str, at: int | None = None) -> int:
    """1 if `text` looks forward (will, next, va, wird, 打算…), -1 if back (was, -ed, hier,
    foi, gestern, 了…), 0 if neither. With both, the cue nearest to offset `at` decides."""
    return leaning(cues(text), at)
