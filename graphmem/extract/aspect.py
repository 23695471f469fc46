"""State, event or plan: what kind of statement a fact is.

A bank page's "Current facts" must hold only standing states ("Lives in Porto", "Runs on
Postgres 16", "Staff engineer at Maré Labs"); what happened once goes to its timeline
("Premiere on Thursday 12 February", "Technical round passed", "Back in Lyon since 15
January"), and what is intended to its upcoming list ("Decision: migrate to Postgres",
"il commence le 15 juin"). :func:`aspect` tells them apart by rules over the words, in the
languages the logs use (en, fr, pt, de, es, zh); no model.

| aspect  | when (first matching rule wins)                                               |
|---------|-------------------------------------------------------------------------------|
| "plan"  | graphmem.extract.mood finds a plan or a hypothetical; or the line records a decision   |
|         | ("Decision:", "decided to", "c'est décidé", "decidiu", "beschlossen", 决定) or  |
|         | names a plan ("plans a reinstall", prévu, previsto, geplant, 计划); or its main |
|         | clause is about a day after the file's and does not look back (graphmem.extract.mood)  |
| "event" | the main (first) clause is a trip or a return ("In Montréal from 8 to 15       |
|         | January", "Back in Lyon since", "day trip", "de retour à", "Rückflug", 出差);    |
|         | or starts with "First ..." (a first time); or names a one-off happening (a     |
|         | premiere, an interview, a meeting, movers, an arrival; entretien, camion,      |
|         | entrevista, Termin, mudanza, 面试) together with the day it happens; or its     |
|         | verb reports a completed action ("released", "passed", "went live", "cut to",  |
|         | "accepted", a lancé, aconteceu, fand statt, se canceló, 发布) or a purchase or  |
|         | a visit ("bought", a acheté, comprou, visitou, kaufte, compró, 买了)             |
| "state" | everything else: a standing fact                                              |

Only the first clause decides (up to ";" or a sentence end): "About 40 people; technical
round on 6 March" is a state that mentions an event, "Technical round passed; final interview
on Friday" an event. Participles that describe a standing state ("engaged", "married",
"based", "maintained by") are no completed action. :func:`start_day` finds the day a stated
state begins ("starts 4 May", "il commence le 15 juin", "começa a 8 de junho"), so a job that
begins after the page's date is upcoming, not current.

All patterns are alternations of literal words between word boundaries: linear time.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Literal

from graphmem.extract.mood import lean, mood
from graphmem.extract.timex import extract_times
from graphmem.text.fold import fold

Aspect = Literal["state", "event", "plan"]

_DECISION = (
    r"^\s*(?:decision|decided|décision|decisão|decisao|entscheidung|decisión|decision)\s*:|"
    r"\b(?:decided|agreed)\s+to\b|\bc['’]est\s+décidé|\bdécid(?:é|e|ons|ent)\s+de\b|"
    r"\bdecidi(?:u|ram|mos)\b|\bbeschlossen\b|\bentschied(?:en)?\b|\bdecidi(?:ó|eron|mos)\b|决定"
)
#: A plan named as a noun or a verb with an object: "Joana plans a reinstall", "prévu le".
_PLANNED = (
    r"\b(?:plans?\s+(?:a|an|the|her|his|their|our|my)|planned\s+for|prévue?s?|prévoi[st]|"
    r"previst[oa]s?|planeia|planead[oa]|geplant|planea|planead[oa]|programad[oa]s?)\b|计划"
)
#: Trips, stays away and returns: time away from where one lives, never a new home.
_TRIP = (
    # en
    r"\b(?:back\s+(?:in|from|home|to)|(?:day\s+)?trip|travel(?:l?ing|s)?|visit(?:ing|s)?|"
    r"vacation|holidays?|on\s+tour|driv(?:e|ing)\s+(?:to|from|back)|tour\s+of|overnight\s+in|flight|flying|flew|gig|"
    r"conference|stay(?:ing|ed)?\s+(?:at|in|with)|away\s+(?:in|at|until)|"
    # fr
    r"de\s+retour\s+(?:à|a|de|en|au)|retour\s+(?:à|a|de|en|au)|voyage|séjour|vacances|"
    r"en\s+tournée|vol\s+(?:pour|de)|"
    # pt
    r"de\s+volta\s+(?:a|ao|à|de|do|da)|viagem|visita[mr]?|férias|volta\s+(?:de|do|da)|"
    # de
    r"zurück\s+(?:in|aus|nach|von)|rückflug|hinflug|reise|besuch(?:t|en)?|urlaub|"
    # es
    r"de\s+vuelta\s+(?:en|de|a)|vuelve\s+de|viaje|visita[nr]?|vacaciones"
    r")\b|出差|旅行|回到|巡演|度假"
)
#: A stay somewhere between two days: "In Montréal from 8 to 15 January", "in Paris 18–19 May".
_STAY = r"^\s*(?:in|à|en|em|no|na|im|in\s+der)\s+\S+"
_FIRST = r"^\s*(?:first|premi(?:er|ère)s?|primeir[oa]s?|erste[rnsm]?|primer[oa]?s?)\b|^\s*第一次|^\s*首次"
#: Happenings that take place on one day; with a day in the clause they are events.
_HAPPENING = (
    r"\b(?:premiere|opening\s+night|interview|round|meeting|call|appointment|party|dinner|"
    r"lunch|breakfast|wedding|concert|gig|talk|demo|review|movers|move|arrival|departure|"
    r"flight|truck|van|standups?|retro|offsite|all-hands|ceremony|exam|deadline|launch|"
    r"release|cutover|kickoff|kick-off|"
    r"première|entretien|rendez-vous|réunion|appel|camion|déménagement|arrivée|départ|"
    r"réparation|dîner|déjeuner|fête|mariage|concert|répétition|"
    r"entrevista|reunião|almoço|jantar|consulta|chegada|partida|mudança|planeamento|"
    r"planejamento|festa|casamento|"
    r"termin|treffen|gespräch|anruf|umzug|ankunft|abflug|hochzeit|feier|"
    r"reunión|cita|llamada|mudanza|llegada|salida|cena|comida|estreno|boda|fiesta)\b|"
    r"面试|会议|首演|搬家|到达|婚礼|聚会|见面"
)
#: A verb that reports something done, once. Standing-state participles are not here.
_DONE = (
    r"\b(?:released|shipped|launched|went\s+live|happened|took\s+place|was\s+held|passed|"
    r"failed|approved|rejected|confirmed|cancel(?:l)?ed|postponed|rescheduled|moved\s+to|"
    r"cut\s+to|reduced\s+to|raised\s+from|lowered\s+from|arrived|visited|met|went\s+to|"
    r"came\s+back|returned|got\s+engaged|got\s+married|interviewed|offered|accepted|declined|"
    r"turned\s+down|contacted|circulated|floated|sent|signed|delivered|finished|completed|"
    r"announced|applied|won|lost|broke|fixed|merged|deployed|published|proposed|"
    r"learned|learnt|asked|told|said|ran|joined|left|quit|renamed|(?:last|first)\s+day|"
    r"(?<!\bis\s)(?<!\bare\s)(?<!\bbe\s)(?:bought|purchased)|comprou|compraram|visitou|visitaram|kaufte|compró|compraron|"
    r"dernier\s+jour|premier\s+jour|renomm[ée]e?|[úu]ltimo\s+dia|primeiro\s+dia|renomead[oa]|"
    r"letzte[rn]?\s+tag|erste[rn]?\s+tag|umbenannt|[úu]ltimo\s+d[íi]a|primer\s+d[íi]a|renombrad[oa]|"
    r"(?:a|ont)\s+(?:eu\s+lieu|lancé|annoncé|envoyé|signé|accepté|refusé|appelé|acheté|visité)|"
    r"(?:a|ont)\s+été\s+\w+(?:é|ée|és|ées)|reportée?s?|annulée?s?|envoyée?s?|"
    r"aconteceu|chegou|enviad[oa]s?|aceitou|recusou|cancelad[oa]s?|adiad[oa]s?|lançou|"
    r"fand\s+statt|veröffentlicht|gestartet|geschickt|abgesagt|verschoben|angenommen|"
    r"ocurrió|llegó|envió|enviad[oa]s?|aceptó|rechazó|cancelad[oa]s?|aplazad[oa]s?|lanzó)\b|"
    r"发布了|上线了|举行了|到达了|取消了|推迟了|买了"
)
#: A verb that says when a state begins: the day that follows is its start.
_STARTS = (
    r"\b(?:starts?|starting|begins?|beginning|commence(?:s|ra)?|commencer|começa(?:rá)?|"
    r"inicia|beginnt|fängt|anfangen|empieza|comienza)\b|开始|入职"
)

_FLAGS = re.IGNORECASE
_DECISION_RX = re.compile(_DECISION, _FLAGS)
_PLANNED_RX = re.compile(_PLANNED, _FLAGS)
_TRIP_RX = re.compile(_TRIP, _FLAGS)
_STAY_RX = re.compile(_STAY, _FLAGS)
_FIRST_RX = re.compile(_FIRST, _FLAGS)
_HAPPENING_RX = re.compile(_HAPPENING, _FLAGS)
_DONE_RX = re.compile(_DONE, _FLAGS)
_STARTS_RX = re.compile(_STARTS, _FLAGS)
# The first clause ends at ";" or a sentence end (not "19." or "v0.9.2").
_FIRST_CLAUSE = re.compile(r"[;；。]|(?<![\d.])\.(?=\s|$)|\s[—–]\s")
_CODE = re.compile(r"`[^`\n]*`")
_ASIDE = re.compile(r"\([^()]*\)")  # "(o antigo foi cancelado)" says nothing of the main verb


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


def first_clause(text: str) -> str:
    """The main statement of `text`: up to its first ";", sentence end or dash."""
    clean = _ASIDE.sub(_blank, _CODE.sub(_blank, text))
    m = _FIRST_CLAUSE.search(clean)
    return clean[: m.start()] if m else clean


def _has_day(clause: str, day: date | None) -> bool:
    """The clause names a day or a run of days ("on 12 February", "le jeudi 28 mai")."""
    return any(
        s.granularity in ("day", "range") and s.bound in ("", "from")
        for s in extract_times(clause, day)
    )


def planned(text: str, day: date | None = None) -> bool:
    """Whether `text` states an intention rather than a state or a happening: a plan or a
    hypothetical (graphmem.extract.mood), a decision, "plans a reinstall", or a main clause about a
    day after `day` that does not look back ("The producer moves to Kafka on 16 June",
    written on 10 June)."""
    if mood(text) is not None or _DECISION_RX.search(text) or _PLANNED_RX.search(text):
        return True
    if day is None:
        return False
    head = first_clause(text)
    ahead = next(
        (x.start for x in extract_times(head, day) if x.granularity == "day" and not x.bound),
        None,
    )
    return ahead is not None and ahead > day and lean(head) != -1


def aspect(text: str, day: date | None = None) -> Aspect:
    """'plan', 'event' or 'state' for one fact's text, written on `day` (see the module
    docstring for the rules)."""
    if planned(text, day):
        return "plan"
    head = first_clause(text)
    if _TRIP_RX.search(head) or _FIRST_RX.search(head):
        return "event"
    if (_STAY_RX.search(head) or "在" in head) and any(
        s.granularity == "range" and s.bound in ("", "from") for s in extract_times(head, day)
    ):
        return "event"  # "In Montréal from 8 to 15 January": a stay, not a home
    if _DONE_RX.search(head) or _DONE_RX.search(fold(head)):
        return "event"
    if _HAPPENING_RX.search(head) and _has_day(text, day):
        return "event"  # "Déménagement à Porto ; camion le jeudi 28 mai"
    return "state"


def event_day(text: str, day: date | None) -> date | None:
    """The first day `text` names as the time of something ("on Thursday 12 February", "le
    jeudi 28 mai"), not a "since"/"until" bound; None without one."""
    for span in extract_times(text, day):
        if span.granularity in ("day", "range") and span.bound in ("", "from"):
            return span.start
    return None


def start_day(text: str, day: date | None) -> date | None:
    """The day a state stated in `text` begins, when a start verb names it ("starts 4 May",
    "il commence le 15 juin 2026"); None without one."""
    for m in _STARTS_RX.finditer(text):
        tail = text[m.end() : m.end() + 40]
        for span in extract_times(tail, day):
            if span.granularity == "day" and span.char_start <= 8:
                return span.start
    return None
