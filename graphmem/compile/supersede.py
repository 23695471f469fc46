"""Which world facts supersede which: explainable rules, no model.

A newer world fact that states a new value for the same thing about the same entity ends
the older one: the older gets `valid_to` = the newer one's start and a SUPERSEDES edge
(newer -> older) carries the cue below. Nothing is deleted.

| class     | states a value                                    | ends a value (names the old)       |
|-----------|---------------------------------------------------|------------------------------------|
| lives-in  | lives in X, moved to X, is based in X, settled in | no longer in X, used to live in X  |
| uses      | uses X (passive), switched to X, migrated to X    | no longer uses X                   |
| runs-on   | runs on X, runs as X (passive)                    | moved everything off X             |
| renamed   | "X, Peter's server," / "X is a ..." (passive)     | X renamed to Y, renamed X to Y     |
| works-at  | works at X, joined X as ..., started at X; a line | left X, no longer works at X,      |
|           | opening with a role ("Sound engineer at X"),      | (P's) last day at X, dernier jour  |
|           | hired as ... at X, embauché comme ... à X,        | chez X, último dia na X, letzter   |
|           | contratado pela X, eingestellt bei X              | Tag bei X                          |
| team      | works on the X team                               | joined the Y team (from X)         |
| role      | leads X, is Y's colleague on X, as a ... engineer | promoted to / became X             |
| set KEY   | set KEY to V, KEY = V, KEY is now V               | changed KEY from A to B            |
| port      | listens on port N                                 |                                    |
| (slots)   | a phone, IP, port, version, config key (graphmem.extract.slots) or the database engine a  |
|           | storing word names ("stores everything in SQLite"; "SQLite retired" is gone)       |
| (any)     | switched/migrated/moved from A to B, replaced A with B, B instead of A, moved off A |  |

French and Portuguese forms of lives-in, works-at and renamed are recognised too.

How a claim finds what it ends, per (class, subject):

- A claim that names the old value ("from A to B", "instead of A", "no longer in A") ends the
  most recent live fact that stated A; "(any)" claims look in every class of the subject.
- Single-valued classes (lives-in, works-at, renamed, set KEY) end the current value when a
  new one is stated. Multi-valued ones (uses, runs-on, role, port: a project uses many
  tools) only when exactly one value is live and the clause says it changed: a switch verb
  for uses ("now uses X" may add a tool), a marker ("now", "became", ...) for the others.
  Passive claims ("uses X", identity statements) end nothing themselves.
- A clause that still names the current value without a contrast word ("from", "not",
  "instead", "was", ...) refines it rather than replacing it: "now lives in Graça, Lisbon"
  does not end "lives in Lisbon".
- A fact saying both ("now lives in Porto; he is no longer in Lisbon") makes one change,
  Lisbon -> Porto; a match inside a longer one ("works at" in "no longer works at") is
  dropped. Values compare case-insensitively through `aliases`, minus articles and a
  trailing version ("Postgres 16.4" = "pg"); names compare as written ("nas01" != "atlas").
- The subject is the entity the clause's subject phrase names ("Peter", "nas01, Peter's
  home server,", "The OpenClaw gateway"), or the fact's first entity for a pronoun or no
  subject. Any other phrase ("his sister", "the laptop", "Peter and Andy") drops the claim.
- A fact that is a plan, a hypothetical or a decision (graphmem.extract.aspect.planned: "Decision:
  migrate to Postgres", "moves to Kafka on 16 June" written on 10 June) takes no part, and a
  clause about a day after the fact's own ("last day at Corvid on 24 April", written on 1
  April) gives no claim: the change is not made yet.
- Clauses that are hypothetical ("may", "will", "if", "plans") give no claims; a clause with
  a temporary-stay cue ("visiting", "trip", "currently in", "until", "Nov 27–Dec 1") gives
  no lives-in claim, so a trip never ends where someone lives.
- Fallback: a fact with an explicit change marker and no rule claim (bar an identity) ends the
  most recent live fact of the same first entity (among the last FALLBACK_WINDOW) whose
  content words overlap with Jaccard >= FALLBACK_JACCARD and where both sides hold a
  capitalised word or number the other lacks ("is Vim" -> "is now Helix").

Only world and observation facts are ended. A dated sentence of free text (kind "log") may
end one ("from today Joana is the tech lead of Sluice") but holds no value, so nothing ends
it, and it is read strictly: its subject must be named (a pronoun, or no subject, gives no
claim; a typed value counts only in a sentence about one entity) and it takes no fallback.
A fact with neither `valid_from` nor `day` (memory.md, bank/*.md) is not placed among the
dated ones: those files restate the current state, and placing them would invent changes.
One exception, by value: an undated line stating a typed value that the dated logs stated and
later changed is as old as that value, so the change ends it too (memory.md's stale phone
number). Facts are ordered by start (`valid_from`, else `day`), then input order; a fact is
superseded at most once, and only by a later one.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import NamedTuple

from graphmem.extract.aspect import planned
from graphmem.extract.mood import lean
from graphmem.extract.slots import (
    COUPLE,
    DATABASE,
    IP,
    PHONE,
    SETTING,
    VERSION,
    Slot,
    couple,
    database,
    slots,
    temporary,
)
from graphmem.extract.timex import extract_times
from graphmem.parse.names import slugify
from graphmem.text.fold import folded as _fold
from graphmem.text.stopwords import SUPERSEDE_CONTENT as _STOPWORDS

KINDS = frozenset({"world", "observation"})
#: Typed values that name one thing wherever they are written (see _undated).
_IDENTIFIERS = frozenset({PHONE, IP})
#: The cue label of an undated line a change left behind (see _left).
CHANGED = "changed"
#: The end of the cue of an edge ending an undated line (see _undated and _left).
UNDATED = " (undated line)"
#: A sentence of free text: it may end a fact's value, never holds one (see the docstring).
LOG = "log"
FALLBACK_JACCARD = 0.4
FALLBACK_WINDOW = 64  # bounds the fallback's look-back: 20,000 facts stay linear

LOCATION, USES, RUNS_ON, NAME, EMPLOYER, ROLE, PORT, TEAM, ANY = (
    "lives-in", "uses", "runs-on", "renamed", "works-at", "role", "port", "team", "*",
)  # fmt: skip
#: A bullet that labels its value ("Torto Clássico = 70% Cerrado + 30% Huila", "House blend
#: from 17 June: 60% Mogiana + 40% Guji"): a "set" of that label, like a config key's.
LABEL = "label"
_MULTI = frozenset({USES, RUNS_ON, ROLE, PORT})
#: Verbs that introduce what someone said ("Joana said: …", "Lena made it official: …"):
#: what follows the colon is a quote, not the value of a label. Folded.
_SAYING = frozenset(
    """said says asked asks told tells wrote writes replied replies answered added noted
    thinks thought made announced confirmed disse diz perguntou respondeu escreveu dit
    demande demandait repondu ecrit sagt sagte fragt fragte schrieb dijo dice pregunto
    respondio escribio""".split()
)
#: Labels that head a note, not a value of something ("Decision: …", "Update: …"): two
#: of them say two things, not one thing twice. Folded.
_NOT_LABELS = frozenset(
    " ".join(label.split())
    for label in """note, notes, nota, notas, remarque, notiz, decision, decisao,
    entscheidung, update, atualizacao, mise a jour, todo, to do, reminder, lembrete, rappel,
    erinnerung, idea,
    ideia, idee, question, pergunta, frage, plan, plano, plans, also, tambem, ps, fyi,
    summary, resumo, resume, zusammenfassung, status, estado, result, resultado, outcome,
    next, proximo, lesson, licao, warning, aviso, attention, atencao, important,
    importante""".split(",")
)
_GUARDED = frozenset({LOCATION, EMPLOYER, ROLE, USES, RUNS_ON})  # see _Book.target
_PERSONAL = frozenset({LOCATION, EMPLOYER, ROLE, TEAM})  # "we"/"I" is never their subject
_STRICT = frozenset({LOCATION, EMPLOYER})  # values must be names, not "a new flat"


@dataclass(frozen=True)
class FactIn:
    """A fact as supersession sees it: id, text, dates and the entity slugs it mentions."""

    id: str
    text: str
    day: date | None
    valid_from: date | None
    entities: tuple[str, ...]
    kind: str = "world"


@dataclass(frozen=True)
class Supersession:
    """`newer` SUPERSEDES `older` from `day` (the newer fact's start); `cue` says why."""

    newer: str
    older: str
    day: date
    cue: str


class _Claim(NamedTuple):  # a NamedTuple: thousands are made, and tuples are cheap
    cls: str  # predicate class, or ANY for a replacement that names its old value
    label: str  # left part of the cue: "lives-in", "set relay.maxRetries"
    subject: str
    obj: str | None  # comparison key of the new value; None for a pure "no longer X"
    shown: str | None  # the new value as written
    old: str | None  # comparison key of the value the fact says is gone
    active: bool  # may end the current value without naming it
    default: str | None = None  # class an unmatched ANY claim registers under
    scope: tuple[str, ...] = ()  # other subjects an ANY claim's old value may belong to
    clause: str = ""  # the text the claim came from


class _Held(NamedTuple):
    seq: int
    fact: int
    claim: _Claim


@dataclass(frozen=True)
class _Rule:
    cls: str
    pattern: re.Pattern[str]
    needs: tuple[str, ...]  # lower-case words: the rule runs only on a fact with one of them
    subject: str = "phrase"  # phrase | primary | name
    active: bool = False
    default: str | None = None


_STOPS = (
    r"for|as|since|from|until|till|with|near|because|and|but|while|after|before|instead|now|"
    r"on|at|in|to|by|via|when|where|which|who|so|then|this|that|last|next|every|today|"
    r"tonight|yesterday|was|were|is|are|pour|para|depuis|desde|avec|com|et|e"
)
_END = rf"(?=\s+(?:{_STOPS})\b|\s*[,;:()\[\]—–→\n]|\.(?:\s|$)|[!?]|\s*$)"
_OBJ = r"(?P<obj>[^\s,;:()\[\]][^,;:()\[\]]*?)" + _END
_OLD = r"(?P<old>[^\s,;:()\[\]][^,;:()\[\]]*?)" + _END
_TOKEN = r"`?(?P<obj>\w[\w.-]*?)`?(?=[\s,;:()`]|\.(?:\s|$)|$)"
_KEY = (  # starts at a word start only: mid-word starts made this pattern quadratic
    r"(?<![\w.`-])`?(?P<key>[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+"
    r"|(?-i:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+))`?"
)
_VAL = r"`?(?P<obj>[^\s,;`()]+?)`?(?=[\s,;`()]|\.(?:\s|$)|$)"
_ROLE_NOUN = (
    r"(?:engineer|developer|designer|manager|lead|director|scientist|analyst|consultant|"
    r"researcher|architect|intern|founder|cto|ceo|admin|administrator|colleague|head|"
    r"member|owner|maintainer|teammate)"
)
_ROLE_NEEDS = (
    "engineer developer designer manager lead director scientist analyst consultant "
    "researcher architect intern founder cto ceo admin administrator colleague head member "
    "owner maintainer teammate"
)
_WORDS = r"(?:(?!from\b|to\b)[\w.'-]+\s+)"


def _rule(
    cls: str,
    pattern: str,
    needs: str,
    *,
    subject: str = "phrase",
    active: bool = False,
    default: str | None = None,
) -> _Rule:
    compiled = re.compile(pattern, re.IGNORECASE)
    return _Rule(cls, compiled, tuple(needs.split()), subject, active, default)


_RULES = (
    _rule(LOCATION, r"\b(?:lives|living|resides)\s+(?:now\s+)?(?:in|at)\s+" + _OBJ, "lives living resides"),
    _rule(LOCATION, r"\b(?:moved|relocated)\s+(?:back\s+)?to\s+" + _OBJ, "moved relocated", active=True),
    _rule(LOCATION, r"\b(?:(?:is|are)\s+(?:now\s+)?)?based\s+in\s+" + _OBJ, "based"),
    _rule(LOCATION, r"\bsettled\s+in\s+" + _OBJ, "settled"),
    _rule(LOCATION, r"\bno\s+longer\s+(?:lives?\s+|living\s+|based\s+)?(?:in|at)\s+" + _OLD, "longer"),
    _rule(LOCATION, r"\b(?:used\s+to\s+live\s+(?:in|at)|moved\s+(?:away\s+from|out\s+of))\s+" + _OLD, "used moved"),
    _rule(LOCATION, r"\b(?:mora|vive|reside)\s+(?:agora\s+)?(?:em|no|na)\s+" + _OBJ, "mora vive reside"),
    _rule(LOCATION, r"\bmudou-se\s+para\s+(?:o\s+|a\s+)?" + _OBJ, "mudou-se", active=True),
    _rule(LOCATION, r"\bj[áa]\s+n[ãa]o\s+(?:mora|vive)\s+(?:em|no|na)\s+" + _OLD, "não nao"),
    _rule(LOCATION, r"\b(?:habite|vit|r[ée]side)\s+(?:maintenant\s+|d[ée]sormais\s+)?(?:à|a|en|au)\s+" + _OBJ, "habite vit reside réside"),
    _rule(LOCATION, r"\b(?:a\s+d[ée]m[ée]nag[ée]|s'est\s+install[ée]e?)\s+(?:à|a|en|au)\s+" + _OBJ, "déménagé demenage installé installée installe", active=True),
    _rule(LOCATION, r"\bn'(?:habite|vit)\s+plus\s+(?:à|a|en|au)\s+" + _OLD, "plus"),
    _rule(USES, r"\buses\s+(?:now\s+)?" + _OBJ, "uses"),
    _rule(RUNS_ON, r"\b(?:runs|run|running)\s+(?:now\s+)?(?:on|as)\s+(?!port\b)" + _OBJ, "runs run running"),
    _rule(USES, r"\b(?:switched|migrated)\s+(?!from\b)" + _WORDS + r"{0,2}?(?:over\s+)?to\s+" + _OBJ, "switched migrated", active=True),
    _rule(ANY, r"\b(?:switched|migrated|converted)\s+" + _WORDS + r"{0,3}?from\s+" + _OLD + r"\s+(?:over\s+)?to\s+" + _OBJ, "from", default=USES),
    _rule(ANY, r"\b(?:moved|relocated)\s+from\s+" + _OLD + r"\s+to\s+" + _OBJ, "from", default=LOCATION),
    _rule(ANY, r"\b(?:moved|changed|went)\s+" + _WORDS + r"{0,3}?from\s+" + _OLD + r"\s+to\s+" + _OBJ, "from"),
    # "Mudámos de Lisboa para o Porto" is a move of home; "mudei os backups do rook de B2
    # para a Wasabi" a change of the thing named between verb and "de", whose subject is
    # the fact's (a first-person verb names none)
    _rule(ANY, r"\b(?:mud|pass|troc|troqu|migr)(?:ei|[áa]mos|ou|aram)\s+de\s+" + _OLD + r"\s+para\s+(?:o\s+|a\s+)?" + _OBJ, "mudei mudámos mudamos mudou mudaram passei passámos passamos passou passaram troquei trocámos trocamos trocou trocaram migrei migrámos migramos migrou migraram", default=LOCATION),
    _rule(ANY, r"\b(?:mud|pass|troc|troqu|migr)(?:ei|[áa]mos|ou|aram)\s+(?:(?!de\b|para\b)[\w.'-]+\s+){1,4}?de\s+" + _OLD + r"\s+para\s+(?:o\s+|a\s+)?" + _OBJ, "mudei mudámos mudamos mudou mudaram passei passámos passamos passou passaram troquei trocámos trocamos trocou trocaram migrei migrámos migramos migrou migraram", subject="primary"),
    _rule(ANY, r"\breplaced\s+" + _OLD + r"\s+with\s+" + _OBJ, "replaced", default=USES),
    _rule(ANY, r"(?P<obj>\b(?:(?-i:[A-Z])[\w.+-]*\s+)?[\w.:/+-]+)\s+instead\s+of\s+(?P<old>[\w.:/+-]+)", "instead"),
    _rule(ANY, r"\bmoved\s+" + _WORDS + r"{1,3}?off\s+(?:of\s+)?" + _OLD, "off"),
    _rule(ANY, r"\b(?:no\s+longer|stopped)\s+(?:uses|using|runs\s+on|running\s+on)\s+" + _OLD, "longer stopped"),
    _rule(NAME, r"(?P<old>\b\w[\w.-]*)`?\s+(?:was\s+|has\s+been\s+|got\s+|is\s+)?renamed\s+(?:to|as)\s+" + _TOKEN, "renamed", subject="name", active=True),
    _rule(NAME, r"\brenamed\s+(?:it|him|her|them|(?:the|this|that|our|his|their|my)\s+[\w-]+|`?(?P<old>\w[\w.-]*)`?)\s+(?:to|as)\s+" + _TOKEN, "renamed", subject="name", active=True),
    _rule(NAME, r"\b(?:is|are)\s+(?:now\s+)?(?:called|named)\s+" + _TOKEN + r"\s+now\b", "called named", subject="name", active=True),
    _rule(NAME, r"\bnow\s+(?:called|named|goes\s+by)\s+" + _TOKEN, "called named goes", subject="name", active=True),
    _rule(NAME, r"\b(?:renomm[ée]e?s?\s+en|s'appelle\s+(?:maintenant|d[ée]sormais)|renomead[oa]s?\s+(?:para|como)|chama-se\s+agora)\s+" + _TOKEN, "renommé renommée renommés renommées renomme appelle renomeado renomeada renomeados renomeadas chama-se", subject="name", active=True),
    _rule(EMPLOYER, r"\b(?:works|working)\s+(?:now\s+)?(?:at|for)\s+" + _OBJ, "works working"),
    _rule(EMPLOYER, r"\bstarted\s+(?:working\s+)?at\s+" + _OBJ, "started"),
    _rule(EMPLOYER, r"\bjoined\s+" + _OBJ + r"(?=[^;]*?\bas\s+(?:a|an|the|its|their)\s+(?:[\w-]+\s+){0,2}?" + _ROLE_NOUN + r"\b)", "joined"),
    _rule(EMPLOYER, r"\b(?:is|as|was\s+hired\s+as)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?" + _ROLE_NOUN + r"\s+at\s+" + _OBJ, _ROLE_NEEDS),
    _rule(EMPLOYER, r"\b(?:no\s+longer\s+(?:works|working)\s+(?:at|for)|left|quit(?:\s+(?:his|her|their|the|a)\s+job\s+at)?)\s+" + _OLD, "longer left quit"),
    _rule(EMPLOYER, r"\btrabalha\s+(?:agora\s+)?(?:na|no|para\s+a|para\s+o|para|em)\s+" + _OBJ, "trabalha"),
    _rule(EMPLOYER, r"\btravaille\s+(?:maintenant\s+|d[ée]sormais\s+)?(?:chez|pour)\s+" + _OBJ, "travaille"),
    _rule(EMPLOYER, r"\b(?:j[áa]\s+n[ãa]o\s+trabalha\s+(?:na|no|para|em)|ne\s+travaille\s+plus\s+(?:chez|pour)|a\s+quitt[ée])\s+" + _OLD, "trabalha travaille quitté quitte"),
    # "Sound engineer at the Célestins", "Staff engineer on the platform team at Maré Labs":
    # a clause that opens with a role is about the fact's subject.
    _rule(EMPLOYER, r"^\s*(?:(?!(?:a|an|the|his|her|their|met|saw|called|asked|knows|with|for)\b)[\w-]+\s+){0,3}?" + _ROLE_NOUN + r"\s+(?:(?:on|in)\s+the\s+(?:[\w-]+\s+){1,2}?team\s+)?at\s+" + _OBJ, _ROLE_NEEDS, subject="primary"),
    _rule(EMPLOYER, r"^\s*(?:ingénieure?|développeu(?:r|se)|engenheir[oa]|desenvolvedora?|ingenier[oa]|desarrollador[a]?|ingenieur(?:in)?|entwickler(?:in)?)\s+(?:[\w'-]+\s+){0,3}?(?:au|aux|à\s+la|à\s+l'|à|chez|na|no|em|en\s+la|en\s+el|en|bei)\s+" + _OBJ, "ingénieur ingénieure développeur développeuse engenheiro engenheira desenvolvedor desenvolvedora ingeniero ingeniera desarrollador desarrolladora ingenieur ingenieurin entwickler entwicklerin", subject="primary"),
    _rule(EMPLOYER, r"\b(?:is|as|was\s+hired\s+as)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,2}?" + _ROLE_NOUN + r"\s+(?:on|in)\s+the\s+(?:[\w-]+\s+){1,2}?team\s+at\s+" + _OBJ, _ROLE_NEEDS),
    _rule(EMPLOYER, r"\b(?:hired|recruited|taken\s+on)\s+(?:as\s+(?:a|an|the)?\s*(?:[\w-]+\s+){0,3}?)?(?:at|by)\s+" + _OBJ, "hired recruited taken", active=True),
    _rule(EMPLOYER, r"\b(?:embauch[ée]e?|recrut[ée]e?|engag[ée]e?)\s+(?:comme|en\s+tant\s+que)\s+(?:[\w'-]+\s+){1,5}?(?:à|chez|au|pour)\s+(?:la\s+|le\s+|l')?" + _OBJ, "embauché embauchée embauche recruté recrutée recrute engagé engagée engage", active=True),
    _rule(EMPLOYER, r"\bcontratad[oa]\s+(?:como\s+(?:[\w-]+\s+){1,5}?)?(?:na|no|pela|pelo|em|para\s+a|para\s+o)\s+" + _OBJ, "contratado contratada", active=True),
    _rule(EMPLOYER, r"\bcontratad[oa]\s+(?:como\s+(?:[\w-]+\s+){1,5}?)?(?:en|por)\s+" + _OBJ, "contratado contratada", active=True),
    _rule(EMPLOYER, r"\b(?:eingestellt|angestellt)\s+(?:als\s+(?:[\w-]+\s+){1,4}?)?(?:bei)\s+" + _OBJ, "eingestellt angestellt", active=True),
    _rule(EMPLOYER, r"\barbeitet\s+(?:jetzt\s+|seit\s+\S+\s+)?bei\s+" + _OBJ, "arbeitet"),
    # "Joana's last day at Corvid was 24 April": the employment ends (its owner is the subject)
    _rule(EMPLOYER, r"(?:\b(?P<who>[\w-]+)['’]s\s+)?\blast\s+(?:working\s+)?day\s+(?:at|with)\s+" + _OLD, "last", subject="owner"),
    _rule(EMPLOYER, r"\b(?:dernier\s+jour\s+(?:chez|à|au)|termine\s+(?:chez|à|aux|au)|[úu]ltimo\s+dia\s+(?:na|no|em)|letzte[rn]?\s+(?:Arbeits)?tag\s+bei|[úu]ltimo\s+d[íi]a\s+en)\s+(?:la\s+|le\s+|les\s+|l')?" + _OLD, "dernier termine último ultimo letzter letzten", subject="phrase"),
    # teams: "works on the payments team", "joined the Sluice team from payments"
    _rule(TEAM, r"\b(?:works|working|is|are)\s+(?:now\s+)?(?:on|in)\s+the\s+(?P<obj>[\w.-]+(?:\s+[\w.-]+)?)\s+team\b", "works working is are"),
    _rule(TEAM, r"\b(?:joined|moved\s+to|switched\s+to|transferred\s+to)\s+the\s+(?P<obj>[\w.-]+(?:\s+[\w.-]+)?)\s+team(?:\s+from\s+(?:the\s+)?(?P<old>[\w.-]+)(?:\s+team)?)?\b", "joined moved switched transferred", active=True),
    _rule(ROLE, r"\b(?P<obj>(?:leads|heads|manages)\s+[^,;:()\[\]]+?)" + _END, "leads heads manages"),
    _rule(ROLE, r"\b(?:is|are)\s+(?:now\s+)?(?P<obj>(?:a|an|the|his|her|their|\w+['’]s)\s+(?:[\w-]+\s+){0,2}?" + _ROLE_NOUN + r"\s+(?:on|at|of|in|for)\s+[^,;:()\[\]]+?)" + _END, _ROLE_NEEDS),
    _rule(ROLE, r"\bas\s+(?:a|an)\s+(?P<obj>(?:[\w-]+\s+){0,2}?" + _ROLE_NOUN + r")\b", _ROLE_NEEDS),
    _rule(ROLE, r"\b(?:promoted\s+to|became|new\s+role(?:\s+as|:)?|role:)\s+" + _OBJ, "promoted became role", active=True),
    _rule("set", r"\b(?:set|changed|raised|lowered|bumped|increased|decreased|reduced)\s+" + _KEY + r"\s+(?:to|=)\s+" + _VAL, "set changed raised lowered bumped increased decreased reduced", subject="primary", active=True),
    _rule("set", _KEY + r"\s*:?=\s*" + _VAL, "=", subject="primary", active=True),
    _rule("set", _KEY + r"\s+(?:is\s+now|is\s+set\s+to|now)\s+" + _VAL, "now set", subject="primary", active=True),
    _rule("set", r"\b(?:set|changed|raised|lowered|bumped|increased|decreased|reduced)\s+" + _KEY + r"\s+from\s+`?(?P<old>[^\s,;`()]+?)`?\s+to\s+" + _VAL, "from", subject="primary", active=True),
    _rule(LABEL, r"^\s*(?P<key>(?-i:[A-ZÀ-Þ])[^\W\d_][\w'’-]*(?:[ \t]+[^\W\d_][\w'’-]*){0,3}?)(?:[ \t]+(?:from|since|as\s+of|desde|a\s+partir\s+de|à\s+partir\s+du|dès|ab|seit)[ \t]+[^:=;\n]{1,30}?)?[ \t]*(?:=|:)[ \t]+(?P<obj>\S[^;\n]*?)[ \t]*(?=;|\n|$)", "= :", subject="primary", active=True),
    _rule(PORT, r"\b(?:(?:listens|listening|runs|running|served|serving|answers|answering|reachable|available|exposed|bound)\s+)?on\s+port\s+:?(?P<obj>\d{2,5})\b", "port", subject="primary"),
    _rule(PORT, r"\bport\s+(?:is\s+now|changed\s+to|moved\s+to|now)\s+(?P<obj>\d{2,5})\b", "port", subject="primary", active=True),
)  # fmt: skip

# Running ~50 patterns on every clause is the cost that matters at 20,000 facts, so a rule
# runs only on a fact holding one of its `needs` words (lower-cased, accented and plain).
_TRIGGER_WORD = re.compile(r"\w[\w'-]*|[=:]")
_BY_WORD: dict[str, frozenset[int]] = {
    n: frozenset(k for k, r in enumerate(_RULES) if n in r.needs) for r in _RULES for n in r.needs
}
_NEED_WORDS = frozenset(_BY_WORD)
# relay.maxRetries, maxRetries, MAX_RETRIES: without one, the "set" rules cannot match
_KEYLIKE = re.compile(r"\w\.[A-Za-z_]|\b[a-z]+[A-Z]|[A-Z0-9]_[A-Z0-9]")
_SETTING_RULES = frozenset(k for k, r in enumerate(_RULES) if r.cls == "set")

_CLAUSES = re.compile(r";|\.(?=\s|$)|[!?](?=\s|$)|\s[—–]\s|\n")
_CHANGE = re.compile(
    r"\b(?:from\s+today|as\s+of\s+today|starting\s+today|à\s+partir\s+d['’]aujourd['’]hui|"
    r"a\s+partir\s+de\s+hoje|ab\s+heute|desde\s+hoy|"
    r"no\s+longer|now|switched|instead\s+of|used\s+to|any\s?more|changed\s+to|became|"
    r"promoted|d[ée]sormais|maintenant|n'\w+\s+plus|j[áa]\s+n[ãa]o|agora|deixou\s+de)\b",
    re.IGNORECASE,
)
_FALLBACK_CUE = re.compile(
    r"\b(?:no\s+longer|now|switched|instead\s+of|used\s+to|any\s?more|changed\s+to|"
    r"d[ée]sormais|maintenant|j[áa]\s+n[ãa]o|agora|deixou\s+de)\b",
    re.IGNORECASE,
)
_CONTRAST = re.compile(
    r"\b(?:from|not|no\s+longer|instead|previously|formerly|before|left|any\s?more|used\s+to|"
    r"was|were|ex|plus|n[ãa]o|antes)\b",
    re.IGNORECASE,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if|would|might|(?-i:may|will)|maybe|perhaps|plans?|planning|considering|tried|"
    r"trying|testing|experiment\w*|"
    r"thinking\s+about|wants?\s+to|hopes?\s+to|going\s+to|could|should|talvez|vai|pourrait|"
    r"peut-[êe]tre)\b",
    re.IGNORECASE,
)
_TEMPORARY = re.compile(
    r"\b(?:visit\w*|trips?|travel\w*|vacation|holidays?|stay\w*|until|till|flight|"
    r"currently(?!\s+(?:lives|living|resides|based|works|working))|"
    r"fl(?:y|ies|ying|ew)|conference|temporar\w*|for\s+(?:the|a|an|a\s+few|two|three|\d+)\s+"
    r"(?:weekend|days?|weeks?|months?|nights?)|viagem|visita\w*|voyage|s[ée]jour|vacances|"
    r"f[ée]rias)\b|\d\s*–\s*\w|\d\s+-\s+\w",
    re.IGNORECASE,
)
_IDENTITY = re.compile(
    r"^\s*(?P<name>\w[\w.-]*(?:\s+(?-i:[A-Z])[\w.-]*){0,2})(?:\s*,\s*(?:a|an|the|his|her|"
    r"their|its|\w+['’]s)\s+[^,;.]{1,60},|\s+is\s+(?:a|an|the|his|her|their|its|\w+['’]s)\s)",
    re.IGNORECASE,
)
# Words _FALLBACK_CUE and _HYPOTHETICAL need: a fact without one skips the pattern
_MARKER_WORDS = frozenset(
    "longer now switched instead used anymore more changed désormais desormais maintenant "
    "plus já ja agora deixou".split()
)
_HYPOTHETICAL_WORDS = frozenset(
    "if would might may maybe perhaps plan plans planning considering thinking want wants "
    "hope hopes will going could should tried trying testing experiment experimented "
    "experimenting experiments talvez vai pourrait peut-être peut".split()
)
_PARENS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_APPOSITIVE = re.compile(r",[^,]*,")
_WORD = re.compile(r"[\w'’.-]+")
_CONTENT = re.compile(r"\w[\w.'-]*\w")
# One word at a time (see _without_versions): as a search over the joined words, a tail
# pattern of repeated "\s+v?\d+" groups backtracks exponentially on a long run of them.
_VERSION = re.compile(r"v?\d+(?:\.\d+)*", re.IGNORECASE)
_DETERMINERS = frozenset("the a an his her their its our my o le la les l'".split())
_PRONOUNS = frozenset("he she they it il elle ele ela".split())
_FIRST_PERSON = frozenset("i we you nous".split())
_LEADING = frozenset("and but so then also".split())
_OPENING_TIME = frozenset("from as of starting today tonight officially".split())
_FILLER = frozenset(
    "now currently also still just finally officially recently already then "
    "has have had is are was were".split()
)
_JOINERS = frozenset("and or with & his her their my our".split())
_NOT_VALUES = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april "
    "may june july august september october november december home here there it them "
    "him her me us".split()
)

_slug = lru_cache(maxsize=65536)(slugify)


class _Context(NamedTuple):
    alias: Mapping[str, str]
    entities: tuple[str, ...]
    strict: bool = False  # free text: no subject by default, only one it names

    @property
    def primary(self) -> str | None:
        if self.strict and len(self.entities) != 1:
            return None  # a sentence naming several entities has no default subject
        return self.entities[0] if self.entities else None

    def resolve(self, phrase: str) -> str:
        """The entity slug a surface name stands for: alias first, else its slug."""
        return self.alias.get(_fold(phrase)) or _slug(phrase)


def find_supersessions(
    facts: Sequence[FactIn],
    aliases: Mapping[str, str] | None = None,
    *,
    bearing: set[str] | None = None,
    said: Sequence[FactIn] = (),
    told: Sequence[FactIn] = (),
) -> list[Supersession]:
    """Every SUPERSEDES edge among `facts`, in the order the newer facts happened.

    `aliases` maps a lower-cased surface name to an entity slug ("nas01" -> "atlas",
    "pg" -> "postgres") so values and subjects compare as entities. The rules are in the
    module docstring; each edge's `cue` names the class and the change
    ("lives-in: Lisbon -> Porto", "set relay.maxRetries: 5 -> 8", "marker: now (...)").

    `bearing`, when given, receives the ids of the sentences of free text (kind LOG) that
    hold a claim or a typed value. Any other sentence changes nothing here (it ends no
    value, holds none, and takes no fallback): leaving it out of a later call with the
    same aliases gives the same edges, which is how an incremental index skips them.

    `said` are dated sentences that take no part (a conditional, a plan) but still show
    that an identifier they write existed by their day (see _undated); those that write one
    go into `bearing` too.

    `told` are first-person experience bullets ("- B @rook: I moved the backups from B2 to
    Hetzner"): they end no value, but a change they tell dates an undated line that still
    writes the value it left (see _left).
    """
    alias = {_fold(k): v for k, v in (aliases or {}).items()}
    order = sorted(
        (start, i)
        for i, f in enumerate(facts)
        if (f.kind in KINDS or f.kind == LOG) and (start := f.valid_from or f.day) is not None
    )
    # A plan or a decision states no state yet (graphmem.extract.aspect); asked only of facts that
    # make a claim or state a typed value, since it reads the text's times.
    plans: dict[int, bool] = {}

    def plan(i: int) -> bool:
        if i not in plans:
            plans[i] = planned(facts[i].text, facts[i].day)
        return plans[i]

    book = _Book()
    recent: dict[str, deque[tuple[int, frozenset[str]]]] = defaultdict(
        lambda: deque(maxlen=FALLBACK_WINDOW)
    )
    out: list[Supersession] = []
    departures: list[tuple[date, str, _Claim]] = []  # explicit "from A to B" changes, for _left
    for seq, (start, i) in enumerate(order):
        fact = facts[i]
        log = fact.kind == LOG
        ctx = _Context(
            alias, tuple(alias.get(e, e) for e in fact.entities) if alias else fact.entities, log
        )
        pending: list[_Claim] = []
        words = frozenset(_TRIGGER_WORD.findall(fact.text.lower()))
        claims = _claims(fact.text, words, ctx, fact.day)
        if log and claims and bearing is not None:
            bearing.add(fact.id)
        if claims and plan(i):
            continue
        # the fallback is for predicates no rule knows; a known one already had its say
        understood = any(c.cls != NAME or c.active for c in claims)
        departures.extend((start, fact.id, c) for c in _departures(claims))
        for claim in claims:
            hit = book.target(claim)
            if hit is not None and log and _restates(claim, hit, facts[hit.fact], fact):
                hit = None
            if hit is not None:
                out.append(Supersession(fact.id, facts[hit.fact].id, start, _cue(claim, hit)))
                book.kill(hit.fact)
            pending.extend(_registered(claim, hit))
        if log:
            continue  # free text ends values; it holds none and takes no fallback
        for claim in pending:
            book.add(_Held(seq, i, claim))
        if ctx.primary is None:
            continue
        content = words - _STOPWORDS  # what the fallback's Jaccard compares
        quiet = understood or words.isdisjoint(_MARKER_WORDS)
        marker = None if quiet else _FALLBACK_CUE.search(fact.text)
        if marker and not plan(i):
            hit_fact, cue = _fallback(facts, i, content, recent[ctx.primary], book.dead)
            if hit_fact is not None:
                cue = f"marker: {_fold(marker.group(0))} {cue}"
                out.append(Supersession(fact.id, facts[hit_fact].id, start, cue))
                book.kill(hit_fact)
        recent[ctx.primary].append((i, content))
    first_said: dict[tuple[str, str], date] = {}
    for fact in said:
        if fact.day is None:
            continue
        for slot in _values(fact.text):
            if slot.type in _IDENTIFIERS:
                known = first_said.get((slot.type, slot.value))
                first_said[(slot.type, slot.value)] = min(known or fact.day, fact.day)
                if bearing is not None:
                    bearing.add(fact.id)
    found = _by_slot(facts, order, alias, out, plan, bearing, first_said)
    for fact in told:  # first-person changes end no value, but date what they left
        day = fact.valid_from or fact.day
        if day is None:
            continue
        ctx = _Context(alias, tuple(alias.get(e, e) for e in fact.entities), False)
        claims = _claims(fact.text, frozenset(_TRIGGER_WORD.findall(fact.text.lower())), ctx, day)
        if claims and not planned(fact.text, fact.day):
            departures.extend((day, fact.id, c) for c in _departures(claims))
    departures.sort(key=lambda d: d[0])  # stable: same day, input order
    return found + _left(facts, departures, alias, {s.older for s in found})


def _by_slot(
    facts: Sequence[FactIn],
    order: list[tuple[date, int]],
    alias: Mapping[str, str],
    found: list[Supersession],
    plan: Callable[[int], bool] = lambda i: False,
    bearing: set[str] | None = None,
    first_said: dict[tuple[str, str], date] | None = None,
) -> list[Supersession]:
    """`found` plus the changes of a typed value (graphmem.extract.slots): a newer fact that sets
    the phone, IP, port, a thing's version or a config key of an entity it shares with the
    most recent live fact setting that slot, to another value, ends that fact. A value
    stated as temporary or planned ends nothing (it is still ended by a later one)."""
    dead = {s.older for s in found}
    ended = {s.newer for s in found}  # the word rules had their say on these
    out = list(found)
    live: dict[tuple[str, str, str], tuple[int, str]] = {}  # (type, key, entity) -> fact
    # (type, key, entity) -> [(day, value, fact)] of the dated changes, for undated lines
    steps: dict[tuple[str, str, str], list[tuple[date, str, int]]] = defaultdict(list)

    def owners(slot: Slot, fact: FactIn) -> list[str]:
        entities = [alias.get(e, e) for e in fact.entities] or [""]
        # A config key names its own thing; the others belong to the fact's entities.
        # A database is its subject's: "Kestrel stores everything in SQLite on magpie".
        if slot.type in (SETTING, VERSION):
            return [""]
        if fact.kind == LOG:  # free text: only a sentence about one entity
            return entities if len(fact.entities) == 1 else []
        return entities[:1] if slot.type in (DATABASE, COUPLE) else entities

    # (type, value) -> the first day an identifier (a phone, an IP) was stated by anyone
    first_said = {} if first_said is None else first_said
    for start, i in order:
        fact = facts[i]
        values = _values(fact.text)
        if values and fact.kind == LOG and bearing is not None:
            bearing.add(fact.id)
        for slot in values:  # said at all, even "if it breaks, call 912 ...": it existed then
            if slot.type in _IDENTIFIERS:
                known = first_said.get((slot.type, slot.value))
                first_said[(slot.type, slot.value)] = start if known is None else min(known, start)
        if not values or plan(i):
            continue
        changes = not temporary(fact.text)
        # A value said only in an aside ("renamed rook (Debian 13, same IP 192.168.1.40)") is
        # not what the fact states: it may end an older value, but the fact does not hold it.
        main = set(_values(_PARENS.sub(" ", fact.text))) if "(" in fact.text else set(values)
        for slot in values:
            for owner in owners(slot, fact):
                key = (slot.type, slot.key, owner)
                if changes:
                    steps[key].append((start, slot.value, i))
                held = live.get(key)
                if (
                    changes
                    and not (slot.type in (DATABASE, COUPLE) and fact.id in ended)
                    and held is not None
                    and held[1] != slot.value
                    and facts[held[0]].id not in dead
                    and held[0] != i
                ):
                    older = facts[held[0]]
                    name = f"{slot.type} {slot.key}".strip()
                    out.append(
                        Supersession(fact.id, older.id, start, f"{name}: {held[1]} -> {slot.value}")
                    )
                    dead.add(older.id)
                if (changes or held is None) and fact.kind != LOG and slot in main:
                    live[key] = (i, slot.value)
    out.extend(_undated(facts, steps, owners, dead, first_said))
    return out


def _values(text: str) -> list[Slot]:
    """The typed values of `text` (graphmem.extract.slots), with the database it names and the
    couple's status it states, if any (both are the subject's: its first entity)."""
    extra = [x for x in (database(text), couple(text)) if x is not None]
    return [*slots(text), *extra]


def _undated(
    facts: Sequence[FactIn],
    steps: Mapping[tuple[str, str, str], list[tuple[date, str, int]]],
    owners: Callable[[Slot, FactIn], list[str]],
    dead: set[str],
    first_said: Mapping[tuple[str, str], date] | None = None,
) -> list[Supersession]:
    """An undated line (memory.md, a bank page) that states a value the dated logs later
    changed: it is as old as that value, so the change ends it too. A value the logs never
    state, or still hold, tells nothing about when the line was written: it stays.

    An identifier (a phone number, an IP address) names one thing wherever it is written,
    so the logs may state it without naming the owner ("her number is 912 448 305"): the
    undated line is then as old as that first statement, and the owner's next other value
    after it ends the line."""
    out: list[Supersession] = []
    for fact in facts:
        if fact.kind not in KINDS or (fact.valid_from or fact.day) is not None:
            continue
        for slot in _values(fact.text):
            for owner in owners(slot, fact):
                history = steps.get((slot.type, slot.key, owner), [])
                stated = [n for n, (_, value, _) in enumerate(history) if value == slot.value]
                said = (first_said or {}).get((slot.type, slot.value))
                if not stated and said is not None and slot.type in _IDENTIFIERS:
                    stated = [n for n, (d, _, _) in enumerate(history) if d < said]
                    stated = stated[-1:] or [-1]
                if not stated or fact.id in dead:
                    continue
                later = history[stated[-1] + 1 :]
                change = next(((d, v, j) for d, v, j in later if v != slot.value), None)
                if change is not None:
                    day, value, j = change
                    name = f"{slot.type} {slot.key}".strip()
                    cue = f"{name}: {slot.value} -> {value}{UNDATED}"
                    out.append(Supersession(facts[j].id, fact.id, day, cue))
                    dead.add(fact.id)
    return out


# "went from Lisbon to Porto" tells a journey more often than a change of anything
_JOURNEY = re.compile(r"\b(?:went|go|goes|going|fui|fomos|foi)\b", re.IGNORECASE)
_SLUG_WORD = re.compile(r"[\w.'’+-]+")


def _departures(claims: Sequence[_Claim]) -> list[_Claim]:
    """The claims of one fact that name the value a thing left: a replacement (ANY) with
    its old value, not a move of home ("moved from Lisbon to Porto") nor a journey."""
    homes = {(c.old, c.obj) for c in claims if LOCATION in (c.cls, c.default)}
    return [
        c
        for c in claims
        if c.old and c.cls == ANY and (c.old, c.obj) not in homes and not _JOURNEY.search(c.clause)
    ]


def _left(
    facts: Sequence[FactIn],
    departures: Sequence[tuple[date, str, _Claim]],
    alias: Mapping[str, str],
    dead: set[str],
) -> list[Supersession]:
    """An undated line (memory.md, a bank page) about an entity that writes the value a dated
    change of that entity names as the one it left ("moved offsite backups from Backblaze B2
    to a Hetzner Storage Box"), and not the new one, is as old as the old value: the change
    ends it. Only a change of a thing counts: a person's home or job stays in their story
    ("born in Lisbon" outlives "moved from Lisbon"), and so does an aside ("(was B2)")."""
    if not departures:
        return []
    out: list[Supersession] = []
    for fact in facts:
        if fact.kind not in KINDS or (fact.valid_from or fact.day) is not None or fact.id in dead:
            continue
        subjects = {alias.get(e, e) for e in fact.entities}
        spans = _slug_spans(_PARENS.sub(" ", fact.text)) if subjects else {}
        for start, newer, claim in reversed(departures):  # the newest change speaks first
            old = spans.get(claim.old or "") or (claim.old if claim.old in subjects else None)
            if claim.subject not in subjects or old is None:
                continue
            if claim.obj is not None and (claim.obj in spans or claim.obj in subjects):
                continue  # the line already writes the new value
            change = f"{old} -> {claim.shown}" if claim.shown else f"no longer {old}"
            cue = f"{CHANGED}: {change}{UNDATED}"
            out.append(Supersession(newer, fact.id, start, cue))
            dead.add(fact.id)
            break
    return out


def _slug_spans(text: str, longest: int = 5) -> dict[str, str]:
    """Every run of up to `longest` words of `text`, by its slug, as written."""
    words = [(m.start(), m.end()) for m in _SLUG_WORD.finditer(text)]
    out: dict[str, str] = {}
    for a in range(len(words)):
        for b in range(a, min(a + longest, len(words))):
            shown = text[words[a][0] : words[b][1]].rstrip(".")
            out.setdefault(_slug(shown), shown)
    return out


class _Book:
    """The live (not yet superseded) claims, per (class, subject) and value."""

    def __init__(self) -> None:
        self.live: dict[tuple[str, str], dict[str, list[_Held]]] = defaultdict(dict)
        self.classes: dict[str, set[str]] = defaultdict(set)
        self.held: dict[int, list[tuple[tuple[str, str], str]]] = defaultdict(list)
        self.dead: set[int] = set()

    def add(self, held: _Held) -> None:
        c = held.claim
        assert c.obj is not None
        key = (c.cls, c.subject)
        self.live[key].setdefault(c.obj, []).append(held)
        self.classes[c.subject].add(c.cls)
        self.held[held.fact].append((key, c.obj))

    def kill(self, fact: int) -> None:
        self.dead.add(fact)
        for key, obj in self.held.pop(fact, ()):
            bucket = self.live[key]
            kept = [h for h in bucket.get(obj, ()) if h.fact != fact]
            if kept:
                bucket[obj] = kept
            else:
                bucket.pop(obj, None)

    def target(self, c: _Claim) -> _Held | None:
        """The live claim `c` ends, if any (see the module docstring)."""
        if c.old is not None:
            # "Peter moved everything off Docker" in a fact about atlas: the named old value
            # pins the thing, so an ANY claim may find it under the fact's other entities.
            for subject in (c.subject, *c.scope):
                classes = self.classes.get(subject, ()) if c.cls == ANY else (c.cls,)
                held = [self.live[(k, subject)][c.old][-1] for k in classes
                        if c.old in self.live.get((k, subject), {})]  # fmt: skip
                if held:
                    return max(held, key=lambda h: h.seq)
            if c.cls == ANY or c.cls in _MULTI or c.obj is None:
                return None
        if c.obj is None or not c.active:
            return None
        bucket = self.live.get((c.cls, c.subject))
        if not bucket or (c.cls in _MULTI and len(bucket) != 1):
            return None
        latest = max((lst[-1] for lst in bucket.values()), key=lambda h: h.seq)
        if latest.claim.obj == c.obj:
            return None
        if c.cls in _GUARDED and _refines(c.clause, str(latest.claim.shown)):
            return None  # "lives in Graça, Lisbon" still says Lisbon: a detail, not a move
        return latest


def _restates(claim: _Claim, hit: _Held, older: FactIn, sentence: FactIn) -> bool:
    """Whether a sentence of free text only retells a fact: it is of the same day (a day's
    bullets distil its text), or its value is the older one in other words ("leads Acme
    billing" for "leads the Acme billing team": half their words or more are shared)."""
    if older.day is not None and older.day == sentence.day:
        return True
    if claim.shown is None or hit.claim.shown is None:
        return False
    new = set(_TRIGGER_WORD.findall(_fold(claim.shown))) - _STOPWORDS
    held = set(_TRIGGER_WORD.findall(_fold(hit.claim.shown))) - _STOPWORDS
    return bool(new and held) and len(new & held) >= 0.5 * len(new | held)


def _refines(clause: str, current: str) -> bool:
    """Whether `clause` names the `current` value without a word that sets it apart."""
    words = set(_TRIGGER_WORD.findall(clause.lower()))
    return set(current.lower().split()) <= words and _CONTRAST.search(clause) is None


def _cue(c: _Claim, hit: _Held) -> str:
    label = hit.claim.label if c.cls == ANY else c.label
    if c.obj is None:
        return f"{label}: no longer {hit.claim.shown}"
    return f"{label}: {hit.claim.shown} -> {c.shown}"


def _registered(c: _Claim, hit: _Held | None) -> list[_Claim]:
    """What `c` leaves live: a value under its class; ANY claims take the ended one's class."""
    if c.obj is None:
        return []
    if c.cls != ANY:
        return [c]
    cls = hit.claim.cls if hit is not None else c.default
    if cls is None:
        return []
    label = hit.claim.label if hit is not None else cls
    subject = hit.claim.subject if hit is not None else c.subject
    return [_Claim(cls, label, subject, c.obj, c.shown, None, False)]


# "last day" names a day; its "last" is no past tense (graphmem.extract.mood.lean reads it as one)
_LAST_DAY = re.compile(
    r"\b(?:last|dernier|derni[èe]re|[úu]ltimo|letzte[rn]?)\s+(?:working\s+)?"
    r"(?:day|jour|dia|d[íi]a|tag|arbeitstag)\b",
    re.IGNORECASE,
)


def _ahead(clause: str, day: date | None) -> bool:
    """The clause names a day after `day` and does not look back: "last day at Corvid on 24
    April", written on 1 April, is still a plan."""
    if day is None:
        return False
    later = any(s.granularity == "day" and not s.bound and s.start > day
                for s in extract_times(clause, day))  # fmt: skip
    return later and lean(_LAST_DAY.sub(" ", clause)) != -1


def _claims(
    text: str, words: frozenset[str], ctx: _Context, day: date | None = None
) -> list[_Claim]:
    """Every claim in `text` (whose lower-cased words are `words`), clause by clause; a
    clause about a day after `day` (the fact's) gives none."""
    ident = _identity(text, ctx)
    out: list[_Claim] = [ident] if ident is not None else []
    found = frozenset().union(*(_BY_WORD[w] for w in words & _NEED_WORDS))
    if found & _SETTING_RULES and _KEYLIKE.search(text) is None:
        found = found - _SETTING_RULES
    if not found:
        return out  # most facts: nothing more to look at
    # One search of the whole text drops the rules whose word occurs but whose pattern fails.
    rules = [
        n
        for n in sorted(found)
        if not (ctx.strict and _RULES[n].cls == LABEL) and _RULES[n].pattern.search(text)
    ]
    if not rules:
        return out
    hypothetical = not words.isdisjoint(_HYPOTHETICAL_WORDS)
    for clause in _CLAUSES.split(text):
        matches = [(m.start(), n, _RULES[n], m) for n in rules
                   for m in _RULES[n].pattern.finditer(clause)]  # fmt: skip
        if not matches or (hypothetical and _HYPOTHETICAL.search(clause)):
            continue
        if _ahead(clause, day):
            continue
        if len(matches) > 1:
            matches.sort(key=lambda t: (t[1] if t[2].cls == ANY else -1, t[0], t[1]))
            # "no longer works at Acme" holds "works at Acme": the longer match says it
            inside = _Containment((t[3].start(), t[3].end(), t[2].cls) for t in matches)
            matches = [t for t in matches if not inside(t[3].start(), t[3].end(), t[2].cls)]
        # the subject phrase ends where the first claim starts; a label spans the clause
        first = min((t[0] for t in matches if t[2].cls != LABEL), default=0)
        temporary = any(t[2].cls == LOCATION for t in matches) and _TEMPORARY.search(clause)
        for _, _, rule, m in matches:
            if rule.cls == LOCATION and temporary:
                continue
            claim = _claim(rule, m, clause[:first], ctx, clause)
            if claim is not None and claim not in out:
                out.append(claim)
    if len(out) < 2:
        return out
    # "now lives in Porto; he is no longer in Lisbon" is one change: Lisbon -> Porto.
    for neg in [c for c in out if c.obj is None]:
        pos = next((c for c in out if c.obj is not None and c.old is None
                    and (c.cls, c.subject) == (neg.cls, neg.subject)), None)  # fmt: skip
        if pos is not None:
            out[out.index(pos)] = pos._replace(old=neg.old)
            out.remove(neg)
    # A claim that names the value it ends is the most specific: let it pick first, so
    # "switched from SQLite to Postgres, running on atlas" ends SQLite, not via "atlas".
    return sorted(out, key=lambda c: c.old is None)


def _claim(rule: _Rule, m: re.Match[str], prefix: str, ctx: _Context, clause: str) -> _Claim | None:
    groups = m.groupdict()
    cls, label = rule.cls, rule.cls
    if cls == LABEL and (
        _fold(groups["key"]) in _NOT_LABELS or not _SAYING.isdisjoint(_fold(groups["key"]).split())
    ):
        return None  # a label of the note itself ("Decision: …"), or who said what
    if cls in ("set", LABEL):
        cls, label = "set " + _fold(groups["key"]), "set " + groups["key"]
    value = _value(groups.get("obj"), cls, ctx)
    old = _value(groups.get("old"), cls, ctx)
    if cls == NAME and groups.get("old") and old and not _is_name(groups["old"], ctx):
        old = None  # "the box was renamed to atlas": "box" is no name
    if value is None and old is None:
        return None
    if rule.subject == "primary":
        subject = ctx.primary
    elif rule.subject == "owner":
        who = groups.get("who")
        subject = ctx.resolve(who) if who else _subject(prefix, ctx, personal=True)
    elif rule.subject == "name":
        subject = next((s for s in (ctx.resolve(groups.get("old") or ""),
                                    ctx.resolve(groups["obj"])) if s in ctx.entities),
                       ctx.primary)  # fmt: skip
    else:
        subject = _subject(prefix, ctx, personal=cls in _PERSONAL)
    if subject is None:
        return None
    return _Claim(
        cls, label, subject,
        value[0] if value else None, value[1] if value else None,
        old[0] if old else None,
        # "now uses Postgres" may add a tool; only a switch verb or a named old value ends one
        active=value is not None and (
            rule.active or cls not in _MULTI
            or (cls != USES and _CHANGE.search(clause) is not None)
        ),
        clause=clause,
        default=rule.default,
        scope=tuple(e for e in ctx.entities if e != subject) if cls == ANY else (),
    )  # fmt: skip


class _Containment:
    """Is a span inside a longer match of its class or of ANY? One bisection per question,
    so a clause repeating one phrase thousands of times stays linear-logarithmic."""

    def __init__(self, spans: Iterable[tuple[int, int, str]]) -> None:
        by_class: dict[str, list[tuple[int, int]]] = {}
        for x, y, c in spans:
            by_class.setdefault(c, []).append((x, y))
        self._starts: dict[str, list[int]] = {}
        self._reach: dict[str, list[int]] = {}  # the furthest end among spans starting so far
        self._same_start: dict[tuple[str, int], int] = {}
        for c, pairs in by_class.items():
            pairs.sort()
            self._starts[c] = [x for x, _ in pairs]
            self._reach[c] = list(itertools.accumulate((y for _, y in pairs), max))
            for x, y in pairs:
                self._same_start[(c, x)] = max(y, self._same_start.get((c, x), y))

    def __call__(self, start: int, end: int, cls: str) -> bool:
        for c in {cls, ANY}:
            starts = self._starts.get(c)
            if not starts:
                continue
            before = bisect.bisect_left(starts, start)  # spans starting strictly earlier
            if before and self._reach[c][before - 1] >= end:
                return True
            if self._same_start.get((c, start), end) > end:
                return True
        return False


def _without_versions(words: list[str]) -> list[str]:
    """`words` without trailing version numbers ("Postgres 16.1" -> "Postgres"); the first
    word always stays."""
    end = len(words)
    while end > 1 and _VERSION.fullmatch(words[end - 1]):
        end -= 1
    return words[:end]


def _value(raw: str | None, cls: str, ctx: _Context) -> tuple[str, str] | None:
    """(comparison key, shown form) of a captured value, or None if it is no value."""
    if not raw:
        return None
    words = raw.strip().strip("`'\"“”").rstrip(".").split()
    article = ""
    while words and _fold(words[0]) in _DETERMINERS:
        article = words.pop(0)
    shown = " ".join(_without_versions(words) if cls not in (NAME, PORT) else words)
    if cls.startswith("set ") or cls == PORT:
        return (_fold(shown), shown) if shown else None
    folded = _fold(shown)
    if not shown or len(words) > (8 if cls == ROLE else 5) or folded in _NOT_VALUES:
        return None
    if cls == NAME:
        return folded, shown
    for candidate in (f"{article} {shown}", shown) if article else (shown,):
        if (slug := ctx.resolve(candidate)) in ctx.entities:
            return slug, shown
    if cls in _STRICT and (not shown[0].isupper() or "'s " in shown or "’s " in shown):
        return None if folded not in ctx.alias else (ctx.alias[folded], shown)
    return ctx.resolve(shown), shown


def _is_name(word: str, ctx: _Context) -> bool:
    return any(ch.isdigit() or ch.isupper() for ch in word) or _fold(word) in ctx.alias


def _subject(prefix: str, ctx: _Context, personal: bool) -> str | None:
    """The entity a clause's subject phrase names; the first entity for a pronoun or none."""
    # "Karim made it official: from today Joana is ...": the subject follows the colon and
    # the time phrase that opens the clause
    prefix = prefix.rsplit(":", 1)[-1]
    words = _WORD.findall(_APPOSITIVE.sub(" ", _PARENS.sub(" ", prefix + " ")))
    while words and (_fold(words[0]) in _LEADING or _fold(words[0]) in _OPENING_TIME):
        words.pop(0)
    words = [w for w in words if _fold(w) not in _FILLER]
    if not words:
        return None if ctx.strict else ctx.primary
    low = [_fold(w) for w in words]
    if len(low) == 1 and low[0] in _PRONOUNS:
        return None if ctx.strict else ctx.primary
    if len(low) == 1 and low[0] in _FIRST_PERSON:
        return None if personal else ctx.primary
    if any(w.endswith(("'s", "’s")) or w in _JOINERS for w in low):
        return None  # "Peter's sister", "his laptop", "Andy and Peter": someone else, or many
    bare = words[1:] if low[0] in _DETERMINERS else words
    for candidate in (" ".join(words), " ".join(bare)):
        if (slug := ctx.resolve(candidate)) in ctx.entities:
            # "Mei Lin" in a bullet about @Mei: the subject's full name, not another entity
            primary = ctx.primary
            return primary if primary and slug.startswith(primary + "-") else slug
    if len(bare) >= 2 and (head := ctx.resolve(" ".join(bare[:-1]))) in ctx.entities:
        return head  # a name and one more word: "The OpenClaw gateway", "Marta Kowalski"
    if all(w[:1].isupper() for w in bare) and len(bare) <= 3:
        return ctx.resolve(" ".join(bare))  # a name the fact did not @mention
    return None


def _identity(clause: str, ctx: _Context) -> _Claim | None:
    """A passive name claim from a fact opening "nas01, Peter's home server, ..." or
    "Marta is a ...": the name a later rename can end."""
    m = _IDENTITY.match(clause)
    if m is None:
        return None
    name = m.group("name")
    low = _fold(name)
    if low in _PRONOUNS or low in _DETERMINERS or low in _FIRST_PERSON:
        return None
    slug = ctx.resolve(name)
    subject = next((e for e in ctx.entities if slug == e or slug.startswith(e + "-")), None)
    if subject is None:
        return None
    return _Claim(NAME, NAME, subject, low, name, None, False)


def _names(text: str) -> dict[str, str]:
    """Names and numbers in `text` after its first word, folded -> as written."""
    # not lower: a capital or no letters at all ("Vim", "8080", "relay.maxRetries")
    caps = {_fold(t): t for t in _CONTENT.findall(text)[1:] if len(t) > 1 and not t.islower()}
    return {k: v for k, v in caps.items() if k not in _STOPWORDS}


def _fallback(
    facts: Sequence[FactIn],
    me: int,
    words: frozenset[str],
    candidates: deque[tuple[int, frozenset[str]]],
    dead: set[int],
) -> tuple[int | None, str]:
    """The most recent live candidate the marker fact restates with a changed name or number."""
    if len(words) < 3:
        return None, ""
    caps: dict[str, str] | None = None
    size = len(words)
    for fact, other in reversed(candidates):
        shared = len(words & other)
        if len(other) < 3 or shared < FALLBACK_JACCARD * (size + len(other) - shared):
            continue
        if fact in dead:
            continue
        caps = _names(facts[me].text) if caps is None else caps
        other_caps = _names(facts[fact].text)
        new = [caps[k] for k in caps if k not in other_caps]
        gone = [other_caps[k] for k in other_caps if k not in caps]
        if new and gone:
            return fact, f"({', '.join(gone[:3])} -> {', '.join(new[:3])})"
    return None, ""
