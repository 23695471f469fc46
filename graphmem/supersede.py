"""Which world facts supersede which: explainable rules, no model.

A newer world fact that states a new value for the same thing about the same entity ends
the older one: the older gets `valid_to` = the newer one's start and a SUPERSEDES edge
(newer -> older) carries the cue below. Nothing is deleted.

| class     | states a value                                    | ends a value (names the old)       |
|-----------|---------------------------------------------------|------------------------------------|
| lives-in  | lives in X, moved to X, is based in X, settled in | no longer in X, used to live in X  |
| uses      | uses X, runs on X (both passive), switched to X   | moved everything off X             |
| renamed   | "X, Peter's server," / "X is a ..." (passive)     | X renamed to Y, renamed X to Y     |
| works-at  | works at X, joined X as ..., started at X         | left X, no longer works at X       |
| role      | leads X, is Y's colleague on X, as a ... engineer | promoted to / became X             |
| set KEY   | set KEY to V, KEY = V, KEY is now V               | changed KEY from A to B            |
| port      | listens on port N                                 |                                    |
| (any)     | switched/migrated/moved from A to B, replaced A with B, B instead of A, moved off A |  |

French and Portuguese forms of lives-in, works-at and renamed are recognised too.

How a claim finds what it ends, per (class, subject):

- A claim that names the old value ("from A to B", "instead of A", "no longer in A") ends the
  most recent live fact that stated A; "(any)" claims look in every class of the subject.
- Single-valued classes (lives-in, works-at, renamed, set KEY) end the current value when a
  new one is stated. Multi-valued ones (uses, role, port: a project uses many tools) only
  when the clause carries a change marker ("now", "switched", ...) and exactly one value is
  live. Passive claims ("uses X", identity statements) never end anything themselves.
- The subject is the entity the clause's subject phrase names ("Peter", "nas01, Peter's
  home server,", "The OpenClaw gateway"), or the fact's first entity for a pronoun or no
  subject. Any other phrase ("his sister", "the laptop", "Peter and Andy") drops the claim.
- Clauses that are hypothetical ("may", "will", "if", "plans") give no claims; a clause with
  a temporary-stay cue ("visiting", "trip", "currently", "until", "Nov 27–Dec 1") gives no
  lives-in claim, so a trip never ends where someone lives.
- Fallback: a fact with an explicit change marker and no rule-based supersession ends the
  most recent live fact of the same first entity (among the last FALLBACK_WINDOW) whose
  content words overlap with Jaccard >= FALLBACK_JACCARD and where both sides hold a
  capitalised word or number the other lacks ("is Vim" -> "is now Helix").

Only world and observation facts take part. A fact with neither `valid_from` nor `day`
(memory.md, bank/*.md) is skipped: those files restate the current state, and placing them
before or after dated facts would invent changes. Facts are ordered by start
(`valid_from`, else `day`), then input order; a fact is superseded at most once, and only
by a later one.
"""

from __future__ import annotations

import re
from collections import defaultdict, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import NamedTuple

from graphmem.names import fold, slugify

KINDS = frozenset({"world", "observation"})
FALLBACK_JACCARD = 0.4
FALLBACK_WINDOW = 64  # bounds the fallback's look-back: 20,000 facts stay linear

LOCATION, USES, NAME, EMPLOYER, ROLE, PORT, ANY = (
    "lives-in", "uses", "renamed", "works-at", "role", "port", "*",
)  # fmt: skip
_MULTI = frozenset({USES, ROLE, PORT})
_PERSONAL = frozenset({LOCATION, EMPLOYER, ROLE})  # "we"/"I" is never their subject
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


@dataclass(frozen=True)
class _Claim:
    cls: str  # predicate class, or ANY for a replacement that names its old value
    label: str  # left part of the cue: "lives-in", "set relay.maxRetries"
    subject: str
    obj: str | None  # comparison key of the new value; None for a pure "no longer X"
    shown: str | None  # the new value as written
    old: str | None  # comparison key of the value the fact says is gone
    active: bool  # may end the current value without naming it
    default: str | None = None  # class an unmatched ANY claim registers under


class _Held(NamedTuple):
    seq: int
    fact: int
    claim: _Claim


@dataclass(frozen=True)
class _Rule:
    cls: str
    pattern: re.Pattern[str]
    needs: tuple[str, ...]  # cheap substring pre-filter on the folded clause
    subject: str = "phrase"  # phrase | primary | name
    active: bool = False
    default: str | None = None


_STOPS = (
    r"for|as|since|from|until|till|with|near|because|and|but|while|after|before|instead|now|"
    r"on|at|in|to|by|via|when|where|which|who|so|then|this|that|last|next|every|today|"
    r"tonight|yesterday|pour|depuis|desde|avec|com|et|e"
)
_END = rf"(?=\s+(?:{_STOPS})\b|\s*[,;:()\[\]—–→]|\.(?:\s|$)|[!?]|\s*$)"
_OBJ = r"(?P<obj>[^\s,;:()\[\]][^,;:()\[\]]*?)" + _END
_OLD = r"(?P<old>[^\s,;:()\[\]][^,;:()\[\]]*?)" + _END
_TOKEN = r"`?(?P<obj>\w[\w.-]*?)`?(?=[\s,;:()`]|\.(?:\s|$)|$)"
_KEY = (
    r"`?(?P<key>[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+"
    r"|(?-i:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+))`?"
)
_VAL = r"`?(?P<obj>[^\s,;`()]+?)`?(?=[\s,;`()]|\.(?:\s|$)|$)"
_ROLE_NOUN = (
    r"(?:engineer|developer|designer|manager|lead|director|scientist|analyst|consultant|"
    r"researcher|architect|intern|founder|cto|ceo|admin|administrator|colleague|head|"
    r"member|owner|maintainer|teammate)"
)
_WORDS = r"(?:(?!from\b|to\b)[\w.'-]+\s+)"


def _rule(cls: str, pattern: str, needs: str, **kw: str | bool | None) -> _Rule:
    return _Rule(cls, re.compile(pattern, re.IGNORECASE), tuple(needs.split()), **kw)  # type: ignore[arg-type]


_RULES = (
    _rule(LOCATION, r"\b(?:lives|living|resides)\s+(?:now\s+)?(?:in|at)\s+" + _OBJ, "liv resid"),
    _rule(LOCATION, r"\b(?:moved|relocated)\s+(?:back\s+)?to\s+" + _OBJ, "moved reloc", active=True),
    _rule(LOCATION, r"\b(?:(?:is|are)\s+(?:now\s+)?)?based\s+in\s+" + _OBJ, "based"),
    _rule(LOCATION, r"\bsettled\s+in\s+" + _OBJ, "settled"),
    _rule(LOCATION, r"\bno\s+longer\s+(?:lives?\s+|living\s+|based\s+)?(?:in|at)\s+" + _OLD, "longer"),
    _rule(LOCATION, r"\b(?:used\s+to\s+live\s+(?:in|at)|moved\s+(?:away\s+from|out\s+of))\s+" + _OLD, "used moved"),
    _rule(LOCATION, r"\b(?:mora|vive|reside)\s+(?:agora\s+)?(?:em|no|na)\s+" + _OBJ, "mora vive resid"),
    _rule(LOCATION, r"\bmudou-se\s+para\s+(?:o\s+|a\s+)?" + _OBJ, "mudou", active=True),
    _rule(LOCATION, r"\bj[áa]\s+n[ãa]o\s+(?:mora|vive)\s+(?:em|no|na)\s+" + _OLD, "nao"),
    _rule(LOCATION, r"\b(?:habite|vit|r[ée]side)\s+(?:maintenant\s+|d[ée]sormais\s+)?(?:à|a|en|au)\s+" + _OBJ, "habite vit side"),
    _rule(LOCATION, r"\b(?:a\s+d[ée]m[ée]nag[ée]|s'est\s+install[ée]e?)\s+(?:à|a|en|au)\s+" + _OBJ, "menag install", active=True),
    _rule(LOCATION, r"\bn'(?:habite|vit)\s+plus\s+(?:à|a|en|au)\s+" + _OLD, "plus"),
    _rule(USES, r"\buses\s+(?:now\s+)?" + _OBJ, "uses"),
    _rule(USES, r"\b(?:runs|run|running)\s+(?:now\s+)?(?:on|as)\s+(?!port\b)" + _OBJ, "run"),
    _rule(USES, r"\b(?:switched|migrated)\s+(?!from\b)" + _WORDS + r"{0,2}?(?:over\s+)?to\s+" + _OBJ, "switched migrated", active=True),
    _rule(ANY, r"\b(?:switched|migrated|converted)\s+" + _WORDS + r"{0,3}?from\s+" + _OLD + r"\s+(?:over\s+)?to\s+" + _OBJ, "from", default=USES),
    _rule(ANY, r"\b(?:moved|relocated)\s+from\s+" + _OLD + r"\s+to\s+" + _OBJ, "from", default=LOCATION),
    _rule(ANY, r"\b(?:moved|changed|went)\s+" + _WORDS + r"{0,3}?from\s+" + _OLD + r"\s+to\s+" + _OBJ, "from"),
    _rule(ANY, r"\breplaced\s+" + _OLD + r"\s+with\s+" + _OBJ, "replaced", default=USES),
    _rule(ANY, r"(?P<obj>\b[\w.:/+-]+)\s+instead\s+of\s+(?P<old>[\w.:/+-]+)", "instead"),
    _rule(ANY, r"\bmoved\s+(?:everything|all|\w+)\s+off\s+(?:of\s+)?" + _OLD, "off"),
    _rule(ANY, r"\b(?:no\s+longer|stopped)\s+(?:uses|using|runs\s+on|running\s+on)\s+" + _OLD, "longer stopped"),
    _rule(NAME, r"(?P<old>\b\w[\w.-]*)`?\s+(?:was\s+|has\s+been\s+|got\s+|is\s+)?renamed\s+(?:to|as)\s+" + _TOKEN, "renamed", subject="name", active=True),
    _rule(NAME, r"\brenamed\s+(?:it|him|her|them|(?:the|this|that|our|his|their|my)\s+[\w-]+|`?(?P<old>\w[\w.-]*)`?)\s+(?:to|as)\s+" + _TOKEN, "renamed", subject="name", active=True),
    _rule(NAME, r"\b(?:is|are)\s+(?:now\s+)?(?:called|named)\s+" + _TOKEN + r"\s+now\b", "called named", subject="name", active=True),
    _rule(NAME, r"\bnow\s+(?:called|named|goes\s+by)\s+" + _TOKEN, "now", subject="name", active=True),
    _rule(NAME, r"\b(?:renomm[ée]e?s?\s+en|s'appelle\s+(?:maintenant|d[ée]sormais)|renomead[oa]s?\s+(?:para|como)|chama-se\s+agora)\s+" + _TOKEN, "renomm appelle renomead chama", subject="name", active=True),
    _rule(EMPLOYER, r"\b(?:works|working)\s+(?:now\s+)?(?:at|for)\s+" + _OBJ, "work"),
    _rule(EMPLOYER, r"\bstarted\s+(?:working\s+)?at\s+" + _OBJ, "started"),
    _rule(EMPLOYER, r"\bjoined\s+" + _OBJ + r"(?=[^;]*?\bas\s+(?:a|an|the|its|their)\b)", "joined"),
    _rule(EMPLOYER, r"\b" + _ROLE_NOUN + r"\s+at\s+" + _OBJ, " at "),
    _rule(EMPLOYER, r"\b(?:no\s+longer\s+(?:works|working)\s+(?:at|for)|left|quit\s+(?:(?:his|her|their|the|a)\s+job\s+at\s+)?)\s+" + _OLD, "longer left quit"),
    _rule(EMPLOYER, r"\btrabalha\s+(?:agora\s+)?(?:na|no|para\s+a|para\s+o|para|em)\s+" + _OBJ, "trabalha"),
    _rule(EMPLOYER, r"\btravaille\s+(?:maintenant\s+|d[ée]sormais\s+)?(?:chez|pour)\s+" + _OBJ, "travaille"),
    _rule(EMPLOYER, r"\b(?:j[áa]\s+n[ãa]o\s+trabalha\s+(?:na|no|para|em)|ne\s+travaille\s+plus\s+(?:chez|pour)|a\s+quitt[ée])\s+" + _OLD, "trabalha travaille quitt"),
    _rule(ROLE, r"\b(?P<obj>(?:leads|heads|manages)\s+[^,;:()\[\]]+?)" + _END, "leads heads manages"),
    _rule(ROLE, r"\b(?:is|are)\s+(?:now\s+)?(?P<obj>(?:a|an|the|his|her|their|\w+['’]s)\s+(?:[\w-]+\s+){0,2}?" + _ROLE_NOUN + r"\s+(?:on|at|of|in|for)\s+[^,;:()\[\]]+?)" + _END, " is are "),
    _rule(ROLE, r"\bas\s+(?:a|an)\s+(?P<obj>(?:[\w-]+\s+){0,2}?" + _ROLE_NOUN + r")\b", " as "),
    _rule(ROLE, r"\b(?:promoted\s+to|became|new\s+role(?:\s+as|:)?|role:)\s+" + _OBJ, "promoted became role", active=True),
    _rule("set", r"\b(?:set|changed|raised|lowered|bumped|increased|decreased|reduced)\s+" + _KEY + r"\s+(?:to|=)\s+" + _VAL, "set chang rais lower bump creas reduc", subject="primary", active=True),
    _rule("set", _KEY + r"\s*:?=\s*" + _VAL, "=", subject="primary", active=True),
    _rule("set", _KEY + r"\s+(?:is\s+now|is\s+set\s+to|now)\s+" + _VAL, "now set", subject="primary", active=True),
    _rule("set", r"\b(?:set|changed|raised|lowered|bumped|increased|decreased|reduced)\s+" + _KEY + r"\s+from\s+`?(?P<old>[^\s,;`()]+?)`?\s+to\s+" + _VAL, "from", subject="primary", active=True),
    _rule(PORT, r"\b(?:(?:listens|listening|runs|running|served|serving|answers|answering|reachable|available|exposed|bound)\s+)?on\s+port\s+:?(?P<obj>\d{2,5})\b", "port", subject="primary"),
    _rule(PORT, r"\bport\s+(?:is\s+now|changed\s+to|moved\s+to|now)\s+(?P<obj>\d{2,5})\b", "port", subject="primary", active=True),
)  # fmt: skip

_CLAUSES = re.compile(r";|\.(?=\s|$)|[!?](?=\s|$)|\s[—–]\s|\n")
_CHANGE = re.compile(
    r"\b(?:no\s+longer|now|switched|instead\s+of|used\s+to|any\s?more|changed\s+to|became|"
    r"promoted|d[ée]sormais|maintenant|n'\w+\s+plus|j[áa]\s+n[ãa]o|agora|deixou\s+de)\b",
    re.IGNORECASE,
)
_FALLBACK_CUE = re.compile(
    r"\b(?:no\s+longer|now|switched|instead\s+of|used\s+to|any\s?more|changed\s+to|"
    r"d[ée]sormais|maintenant|j[áa]\s+n[ãa]o|agora|deixou\s+de)\b",
    re.IGNORECASE,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if|would|might|may|maybe|perhaps|plans?|planning|considering|thinking\s+about|"
    r"wants?\s+to|hopes?\s+to|will|going\s+to|could|should|talvez|vai|pourrait|peut-[êe]tre)\b",
    re.IGNORECASE,
)
_TEMPORARY = re.compile(
    r"\b(?:visit\w*|trips?|travel\w*|vacation|holidays?|stay\w*|currently|until|till|flight|"
    r"fl(?:y|ies|ying|ew)|conference|temporar\w*|for\s+(?:the|a|an|a\s+few|two|three|\d+)\s+"
    r"(?:weekend|days?|weeks?|months?|nights?)|viagem|visita\w*|voyage|s[ée]jour|vacances|"
    r"f[ée]rias)\b|\d\s*–\s*\w|\d\s+-\s+\w",
    re.IGNORECASE,
)
_IDENTITY = re.compile(
    r"^\s*(?P<name>\w[\w.-]*(?:\s+(?-i:[A-Z])[\w.-]*){0,2})(?:\s*,\s*(?:a|an|the|his|her|"
    r"their|its|\w+['’]s)\s+[^,]{1,60},|\s+is\s+(?:a|an|the|his|her|their|its|\w+['’]s)\s)",
    re.IGNORECASE,
)
_PARENS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_APPOSITIVE = re.compile(r",[^,]*,")
_WORD = re.compile(r"[\w'’.-]+")
_CONTENT = re.compile(r"\w[\w.'-]*\w|\w")
_VERSION_TAIL = re.compile(r"(?:\s+v?\d+(?:\.\d+)+)+$", re.IGNORECASE)
_DETERMINERS = frozenset("the a an his her their its our my o le la les l'".split())
_PRONOUNS = frozenset("he she they it il elle ele ela".split())
_FIRST_PERSON = frozenset("i we you nous".split())
_SKIP_WORDS = frozenset(
    "now currently also still just finally officially recently already then and but so "
    "has have had is are was were".split()
)
_NOT_VALUES = frozenset(
    "monday tuesday wednesday thursday friday saturday sunday january february march april "
    "may june july august september october november december home here there it them "
    "him her me us".split()
)
_STOPWORDS = frozenset(
    "a an the and or but of in on at to for from with by as is are was were be been has have "
    "had he she it they his her their its this that there here not no now longer anymore "
    "instead used switched changed so than then also still just very de da do em no na le la "
    "les et est il elle".split()
)


@dataclass(frozen=True)
class _Context:
    alias: Mapping[str, str]
    entities: tuple[str, ...]

    @property
    def primary(self) -> str | None:
        return self.entities[0] if self.entities else None

    def resolve(self, phrase: str) -> str:
        """The entity slug a surface name stands for: alias first, else its slug."""
        return self.alias.get(fold(phrase)) or slugify(phrase)


def find_supersessions(
    facts: Sequence[FactIn], aliases: Mapping[str, str] | None = None
) -> list[Supersession]:
    """Every SUPERSEDES edge among `facts`, in the order the newer facts happened.

    `aliases` maps a lower-cased surface name to an entity slug ("nas01" -> "atlas",
    "pg" -> "postgres") so values and subjects compare as entities. The rules are in the
    module docstring; each edge's `cue` names the class and the change
    ("lives-in: Lisbon -> Porto", "set relay.maxRetries: 5 -> 8", "marker: now (...)").
    """
    alias = {fold(k): v for k, v in (aliases or {}).items()}
    order = sorted(
        (start, i)
        for i, f in enumerate(facts)
        if f.kind in KINDS and (start := f.valid_from or f.day) is not None
    )
    book = _Book()
    recent: dict[str, deque[tuple[int, frozenset[str], dict[str, str]]]] = defaultdict(
        lambda: deque(maxlen=FALLBACK_WINDOW)
    )
    out: list[Supersession] = []
    for seq, (start, i) in enumerate(order):
        fact = facts[i]
        ctx = _Context(alias, tuple(dict.fromkeys(alias.get(e, e) for e in fact.entities)))
        found = False
        pending: list[_Claim] = []
        for claim in _claims(fact.text, ctx):
            hit = book.target(claim)
            if hit is not None:
                out.append(Supersession(fact.id, facts[hit.fact].id, start, _cue(claim, hit)))
                book.kill(hit.fact)
                found = True
            pending.extend(_registered(claim, hit))
        for claim in pending:
            book.add(_Held(seq, i, claim))
        words, caps = _profile(fact.text)
        if ctx.primary is None:
            continue
        marker = _FALLBACK_CUE.search(fact.text)
        if not found and marker:
            hit_fact, cue = _fallback(recent[ctx.primary], words, caps, book.dead)
            if hit_fact is not None:
                cue = f"marker: {fold(marker.group(0))} {cue}"
                out.append(Supersession(fact.id, facts[hit_fact].id, start, cue))
                book.kill(hit_fact)
        recent[ctx.primary].append((i, words, caps))
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
            classes = self.classes.get(c.subject, ()) if c.cls == ANY else (c.cls,)
            held = [self.live[(k, c.subject)][c.old][-1] for k in classes
                    if c.old in self.live.get((k, c.subject), {})]  # fmt: skip
            if held or c.cls == ANY or c.cls in _MULTI or c.obj is None:
                return max(held, default=None, key=lambda h: h.seq)
        if c.obj is None or not c.active:
            return None
        bucket = self.live.get((c.cls, c.subject))
        if not bucket or (c.cls in _MULTI and len(bucket) != 1):
            return None
        latest = max((lst[-1] for lst in bucket.values()), key=lambda h: h.seq)
        return None if latest.claim.obj == c.obj else latest


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
    return [_Claim(cls, label, c.subject, c.obj, c.shown, None, False)]


def _claims(text: str, ctx: _Context) -> list[_Claim]:
    """Every claim in `text`, clause by clause, in reading order."""
    out: list[_Claim] = []
    for clause in _CLAUSES.split(text):
        folded = clause.casefold()
        if not clause.strip() or _HYPOTHETICAL.search(clause):
            continue
        ident = _identity(clause, ctx)
        if ident is not None:
            out.append(ident)
        matches = sorted(
            ((m.start(), n, rule, m) for n, rule in enumerate(_RULES)
             if any(s in folded for s in rule.needs) for m in rule.pattern.finditer(clause)),
            key=lambda t: (t[1] if t[2].cls == ANY else -1, t[0], t[1]),
        )  # fmt: skip
        if not matches:
            continue
        first = min(t[0] for t in matches)
        temporary = _TEMPORARY.search(clause) is not None
        change = _CHANGE.search(clause) is not None
        for _, _, rule, m in matches:
            if rule.cls == LOCATION and temporary:
                continue
            claim = _claim(rule, m, clause[:first], ctx, change)
            if claim is not None and claim not in out:
                out.append(claim)
    return out


def _claim(
    rule: _Rule, m: re.Match[str], prefix: str, ctx: _Context, change: bool
) -> _Claim | None:
    groups = m.groupdict()
    cls, label = rule.cls, rule.cls
    if cls == "set":
        cls, label = "set " + fold(groups["key"]), "set " + groups["key"]
    value = _value(groups.get("obj"), cls, ctx)
    old = _value(groups.get("old"), cls, ctx)
    if cls == NAME and groups.get("old") and old and not _is_name(groups["old"], ctx):
        old = None  # "the box was renamed to atlas": "box" is no name
    if value is None and old is None:
        return None
    if rule.subject == "primary":
        subject = ctx.primary
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
        active=rule.active or (change and value is not None),
        default=rule.default,
    )  # fmt: skip


def _value(raw: str | None, cls: str, ctx: _Context) -> tuple[str, str] | None:
    """(comparison key, shown form) of a captured value, or None if it is no value."""
    if not raw:
        return None
    words = raw.strip().strip("`'\"“”").rstrip(".").split()
    article = ""
    while words and fold(words[0]) in _DETERMINERS:
        article = words.pop(0)
    shown = _VERSION_TAIL.sub("", " ".join(words)) if cls not in (NAME, PORT) else " ".join(words)
    if cls.startswith("set ") or cls == PORT:
        return (fold(shown), shown) if shown else None
    folded = fold(shown)
    if not shown or len(words) > 5 or folded in _NOT_VALUES:
        return None
    if cls == NAME:
        return folded, shown
    for candidate in (f"{article} {shown}", shown) if article else (shown,):
        if (slug := ctx.resolve(candidate)) in ctx.entities:
            return slug, shown
    if cls in _STRICT and not shown[0].isupper() and folded not in ctx.alias:
        return None
    return ctx.resolve(shown), shown


def _is_name(word: str, ctx: _Context) -> bool:
    return any(ch.isdigit() or ch.isupper() for ch in word) or fold(word) in ctx.alias


def _subject(prefix: str, ctx: _Context, personal: bool) -> str | None:
    """The entity a clause's subject phrase names; the first entity for a pronoun or none."""
    phrase = _APPOSITIVE.sub(" ", _PARENS.sub(" ", prefix + " "))
    words = [w for w in _WORD.findall(phrase) if fold(w) not in _SKIP_WORDS]
    if not words:
        return ctx.primary
    low = [fold(w) for w in words]
    if len(low) == 1 and low[0] in _PRONOUNS:
        return ctx.primary
    if len(low) == 1 and low[0] in _FIRST_PERSON:
        return None if personal else ctx.primary
    if any(w.endswith(("'s", "’s")) or w in {"or", "with", "&", "his", "her", "their", "my"}
           for w in low):  # fmt: skip
        return None  # "Peter's sister", "his laptop": some other thing
    bare = words[1:] if low[0] in _DETERMINERS else words
    for candidate in (" ".join(words), " ".join(bare)):
        slug = ctx.resolve(candidate)
        if slug in ctx.entities:
            return slug
        for entity in ctx.entities:
            if slug.startswith(entity + "-"):
                return entity  # "The OpenClaw gateway" -> openclaw
    if all(w[:1].isupper() for w in bare) and len(bare) <= 3:
        return ctx.resolve(" ".join(bare))  # a name the fact did not @mention
    return None


def _identity(clause: str, ctx: _Context) -> _Claim | None:
    """A passive name claim from "nas01, Peter's home server, ..." or "Marta is a ...": the
    name a later rename can end."""
    m = _IDENTITY.match(clause)
    if m is None:
        return None
    name = m.group("name")
    low = fold(name)
    if low in _PRONOUNS or low in _DETERMINERS or low in _FIRST_PERSON:
        return None
    slug = ctx.resolve(name)
    subject = next((e for e in ctx.entities if slug == e or slug.startswith(e + "-")), None)
    if subject is None:
        return None
    return _Claim(NAME, NAME, subject, low, name, None, False)


def _profile(text: str) -> tuple[frozenset[str], dict[str, str]]:
    """Content words of `text`, and its names and numbers (folded -> as written)."""
    tokens = [t for t in _CONTENT.findall(text) if len(t) > 1]
    words = frozenset(f for t in tokens if (f := fold(t)) not in _STOPWORDS)
    caps = {fold(t): t for t in tokens[1:] if t[0].isupper() or any(c.isdigit() for c in t)}
    return words, {k: v for k, v in caps.items() if k not in _STOPWORDS}


def _fallback(
    candidates: deque[tuple[int, frozenset[str], dict[str, str]]],
    words: frozenset[str],
    caps: dict[str, str],
    dead: set[int],
) -> tuple[int | None, str]:
    """The most recent live candidate the marker fact restates with a changed name or number."""
    if len(words) < 3:
        return None, ""
    for fact, other, other_caps in reversed(candidates):
        if fact in dead or len(other) < 3:
            continue
        if len(words & other) / len(words | other) < FALLBACK_JACCARD:
            continue
        new = [caps[k] for k in caps if k not in other_caps]
        gone = [other_caps[k] for k in other_caps if k not in caps]
        if new and gone:
            return fact, f"({', '.join(gone[:3])} -> {', '.join(new[:3])})"
    return None, ""
