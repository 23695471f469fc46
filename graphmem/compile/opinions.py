"""Which evidence supports or contradicts which opinion, and how its confidence moves.

`evaluate` is a pure function of everything the workspace says: the same input gives the
same links and confidences, so running `reflect` twice changes nothing, and an evidence id
counts once however often it is passed.

Time. Evidence is applied in date order; on one day, opinions first (in `opinions` order),
then `evidence` in input order. Only evidence dated on or after an opinion's day moves it;
another opinion moves it only if strictly newer (a later day, or the same day and later in
`opinions`). Undated evidence (memory.md, bank/*.md) is ignored: those files restate the
current state, whose dated sources already count, and bank/opinions.md is reflect's own
output, so reading it back would count the result as evidence for itself. An undated opinion
therefore keeps its stated confidence. Items with the same normalized text on the same day
are one piece of evidence; the same text on another day (a restatement) counts again.

Candidates. Evidence is judged against an opinion only if they share an entity slug and a
content word (accents folded, lower-cased, lightly stemmed; stop words, attitude and cue
words and each item's own entity names dropped), and not if each names an entity the other
does not (Rosa's view vs Andy's; "Miniflux is the right library for quillwell" vs "Figma
is ..."). Each text is cut into segments at punctuation and at "and", "but", "unless", ...;
a cue gives the content words after it in its segment a stance and remembers itself (words
before it, "Peter" in "Peter no longer drinks coffee", and cue-less segments stay +1/plain):

| cue        | examples                                                          | stance          |
|------------|-------------------------------------------------------------------|-----------------|
| attitude   | loves, likes, prefers, enjoys / hates, dislikes, can't stand, avoids | +1 / -1       |
| negation   | not, n't, cannot, never, no longer, any more, stopped, quit, gave up, ne, não, deixou de | flips the sign |
| preference | prefers A over / to / rather than / instead of B                  | A +1, B -1      |
| change     | moved everything off X, instead of X, switched from X to Y, replaced X with Y | X -1, Y +1 |

A shared word whose stances never agree is a conflict; it counts only if the evidence's side
carries a cue (a plain mention, "hosts a board-game night", takes no stance). Overlap =
n / min(|a|, |b|) over the n shared words; two shared entities pin the subject and count as
one more shared word on both sides ("given up on Baileys; no longer thinks it is worth the
churn" vs "Baileys is the right library for frosthook despite the churn").

| relation    | rule                                                                            |
|-------------|---------------------------------------------------------------------------------|
| contradicts | a conflict, and related: n >= MIN_SHARED and overlap >= RELATED_OVERLAP; or a preference/change cue of the evidence names the opinion's whole object ("off Docker", "instead of coffee"); or cosine >= EMB_RELATED |
| supports    | no conflict; the evidence is an opinion or states an attitude (a plain event, "board-game night on Sep 27", restates no preference); n >= MIN_SHARED and overlap >= RESTATE_OVERLAP, or cosine >= EMB_RESTATE |
| contradicts | the opinion rests on a world/observation fact (no conflict, a shared word, and all of the fact's 2+ entities are the opinion's) that a fact dated on or after the opinion, sharing an entity with it, supersedes (graphmem.compile.supersede; not its weak "marker:" fallback) |
| contradicts | the opinion's holder (its first @mention) is the patient of a replacement cue: "X has to be replaced", "we replaced X with Y", "X foi substituído", "X ersetzen" (not "X replaced Y", "replaced Y with X"); unless the opinion is itself negative about X or about replacing it |
| neither     | anything else                                                                   |

Embeddings only weigh in on pairs that already share an entity and a word, after the words
failed to decide, and never override a conflict. The bars are high because MiniLM scores
unrelated remarks about one topic ("finds the web UI cluttered" / "likes the CLI") about as
high (0.6-0.7) as true paraphrases ("concise replies" / "a few lines": 0.62).

Confidence. c starts at the stated confidence (blocks.DEFAULT_CONFIDENCE when none). A link of
weight w (WEIGHTS: an opinion with an explicit c 1.0, one without 0.8, a fact 0.6, a
superseded basis 0.4: an opinion is the person's own view, a fact is indirect) moves it:

- support: c += A_SUPPORT * w * (1 - c): a fact adds 12% of the gap to 1. A restatement with
  an explicit c instead moves c halfway toward that c (PULL; down too, if the new c is
  lower): the author's own number is the strongest evidence, and halfway keeps one line from
  erasing the history.
- contradiction: c -= A_CONTRA * w * min(k, K_MAX) * c, with k the number of distinct days
  that contradicted it so far. One fact costs 9% of c, one opposing opinion 15%; a second
  independent day doubles the step, a fourth quadruples it (at most 60% of c), so only
  repeated, independent contradiction moves c far, and c never goes below 0.

Results are clamped to [0, 1] and rounded to 4 places; every applied link is a `Move`.

Supersession. A fact can lower an opinion but not replace it. An opinion is superseded by the
newest opinion that contradicted it, once c < SUPERSEDE_BELOW, or k >= SUPERSEDE_AFTER, or c
is at or below that newer opinion's stated confidence (the opposite view is now held more
firmly than the old one). Nothing is deleted, and later evidence still moves it.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache
from typing import NamedTuple

from graphmem.compile.counts import COUNTING, Comparison, comparison, counts, key, located
from graphmem.compile.stance import (
    ALNUM_RUN,
    REPLACED,
    REVOCATION,
    Unit,
    folded,
    read,
    topic,
    units,
)
from graphmem.compile.supersede import KINDS as FACT_KINDS
from graphmem.compile.supersede import FactIn, Supersession, find_supersessions
from graphmem.compile.verdicts import OpinionFrame, Verdict, frame, judge, names_of
from graphmem.parse.blocks import DEFAULT_CONFIDENCE
from graphmem.parse.names import normalize_text
from graphmem.text.fold import fold
from graphmem.text.stem import light_stem as _stem
from graphmem.text.stopwords import OPINION_TOPIC as _STOP

MIN_SHARED = 2
RESTATE_OVERLAP = 0.5
RELATED_OVERLAP = 0.5
EMB_RESTATE = 0.8
EMB_RELATED = 0.7
A_SUPPORT = 0.2
A_CONTRA = 0.15
K_MAX = 4
PULL = 0.5
SUPERSEDE_BELOW = 0.35
SUPERSEDE_AFTER = 2
#: "measured": counts of the very quantity an opinion compares (graphmem.compile.counts) test
#: it as directly as its holder's own words.
WEIGHTS = {
    "own": 1.0,
    "stated": 1.0,
    "measured": 1.0,
    "opinion": 0.8,
    "fact": 0.6,
    "text": 0.5,
    "basis": 0.4,
}
#: An explicit ending (retraction, revocation, a prediction resolved) closes this much of the
#: gap: c falls to 20% of itself, or rises 80% of the way to 1.
STRONG = 0.8
#: A second piece of support on a day it already had counts half: days are independent,
#: sentences of one day's account are not.
REPEAT = 0.5
#: Support on this many distinct days, and no contradiction: the opinion is "reinforced".
REINFORCED_DAYS = 3


@dataclass(frozen=True)
class OpinionIn:
    """An opinion: its statement, day (None: undated), stated c and entity slugs."""

    id: str
    statement: str
    day: date | None
    stated: float | None
    entities: tuple[str, ...]
    #: Where it is written (to cite what superseded another opinion): path#Lx-Ly.
    source: str = ""


@dataclass(frozen=True)
class EvidenceIn:
    """A fact, opinion or passage of free text that may bear on an opinion; `stated` is an
    opinion's explicit c. A passage (kind "log") is judged sentence by sentence: `path` and
    `line_start` place its first line so each sentence is cited with its own lines.
    `curated` marks undated text that still counts (an entity page's prose, memory.md),
    applied after all dated evidence."""

    id: str
    kind: str  # world | experience | observation | opinion | log
    text: str
    day: date | None
    entities: tuple[str, ...]
    stated: float | None = None
    source: str = ""
    path: str = ""
    line_start: int = 0
    curated: bool = False
    #: The passage's last line (0: derived from its text's line breaks).
    line_end: int = 0


@dataclass(frozen=True)
class Link:
    """`evidence` SUPPORTS or CONTRADICTS `opinion` with `weight` on `day`; `reason` says why."""

    evidence: str
    opinion: str
    relation: str  # "supports" | "contradicts"
    weight: float
    day: date | None
    reason: str
    #: path#Lx-Ly of the evidence (a sentence of a passage: its own lines).
    source: str = ""
    #: An explicit retraction, revocation or resolution: a large move, and an ending.
    strong: bool = False
    ending: str = ""  # "" | confirmed | refuted | retracted | revoked


@dataclass(frozen=True)
class Move:
    """One change of an opinion's confidence, and the link that caused it."""

    day: date | None
    old: float
    new: float
    evidence: str
    relation: str
    reason: str
    source: str = ""


@dataclass(frozen=True)
class OpinionState:
    """Where an opinion's confidence ended up, how it got there, and what replaced it.

    `status`: "" (open), confirmed, refuted, retracted, revoked, superseded or reinforced;
    `ended_by`: the path#Lx-Ly of the evidence that ended it."""

    id: str
    confidence: float
    history: tuple[Move, ...]
    superseded_by: str | None
    status: str = ""
    ended_by: str = ""


# --- reading a text -------------------------------------------------------------------------


class _Cue(NamedTuple):
    kind: str  # plain | attitude | negation | preference | change
    text: str  # as shown in a reason: "no longer", "moved everything off docker"
    word: str = ""  # the segment's attitude word: "hates", "prefers"
    pair: tuple[str, str] = ("", "")  # preference: (favoured, disfavoured) as written
    named: frozenset[str] = frozenset()  # the words of the object(s) a targeted cue names


class _Text(NamedTuple):
    tokens: frozenset[str]
    stance: Mapping[str, Mapping[int, _Cue]]  # word -> sign -> the cue that gave it
    attitude: bool


_POSITIVE = frozenset("lov lik enjoy prefer ador favorit favourit aim gosta".split())
_NEUTRAL = frozenset("want find think believ feel".split())  # an attitude, stance +1
_NEGATIVE = frozenset("hat dislik detest loath despis avoid cantstand odeia odeio".split())
_CUE_WORDS = frozenset(
    "longer anymore stopp quit dropp ditch abandon gave_up deixou nao nunca jamai "
    "mov migrat switch chang replac convert instead rather".split()
)
_NEGATION = re.compile(
    r"\b(?:no\s+longer|no\s+more|not|cannot|never|any\s?more|stopped|quit(?:s|ting)?|dropped|"
    r"ditched|abandoned|gave_up|ne|jamais|nao|nunca|deixou\s+de|deixaram\s+de)\b"
)
_PREFERENCE = re.compile(
    r"\bprefer\w*\s+(?!to\b)(?P<a>.+?)\s+(?:over|to|rather\s+than|instead\s+of|more\s+than)\s+"
    r"(?P<b>.+)$"
)
#: The preference and change patterns look for two spans of a clause ("prefers A over B",
#: "from A to B"), which costs quadratic time in its length; no clause a person writes is
#: longer than this, so longer ones (pasted logs, hostile input) skip them and stay linear.
MAX_CUE_SEGMENT = 800
_CHANGES = (
    re.compile(r"\b(?:mov|migrat|switch|took|tak|got|came|went)\w*\s+(?:[\w.-]+\s+){0,3}?off\s+(?:of\s+)?(?P<old>.+)"),
    re.compile(r"\b(?:instead\s+of|rather\s+than|em\s+vez\s+de|au\s+lieu\s+de)\s+(?P<old>.+)"),
    re.compile(r"\b(?:switch|mov|migrat|chang|went|convert|swapp?)\w*\b.*?\bfrom\s+(?P<old>.+?)\s+(?:to|for)\s+(?P<new>.+)"),
    re.compile(r"\breplac\w*\s+(?P<old>.+?)\s+(?:with|by)\s+(?P<new>.+)"),
)  # fmt: skip
_SEGMENTS = re.compile(
    r"[;,:!?()\[\]\"“”—–→]|\.(?=\s|$)|\s-\s|\b(?:and|but|while|whereas|unless|although|though|"
    r"et|mais|mas)\b"
)
_NEG_TRIGGERS = frozenset(
    "no not cannot never any anymore stopped quit quits quitting dropped ditched abandoned "
    "gave_up ne jamais nao nunca deixou deixaram".split()
)
_CHANGE_TRIGGERS = frozenset("off instead rather from vez lieu".split())
_WORD = re.compile(r"\w+(?:[.'’]\w+)*")
_NT = re.compile(r"n['’]t\b")
_ELISION = re.compile(r"\bn['’](?=\w)")  # French "n'habite" -> "ne habite"
_CANT_STAND = re.compile(r"\bca not\s+stand\b|\bcannot\s+stand\b")
_GAVE_UP = re.compile(r"\bg[ai]ven?\s+up\b(?:\s+on\b)?")


@lru_cache(maxsize=65536)
def _word(word: str) -> tuple[str | None, int]:
    """(content stem or None, attitude sign) of one folded word."""
    word = _bare(word)
    stem = _stem(word)
    sign = -1 if stem in _NEGATIVE else 1 if stem in _POSITIVE or stem in _NEUTRAL else 0
    if sign or word in _STOP or len(word) < 2 or (word.isdigit() and len(word) <= 2):
        return None, sign
    return (None if stem in _CUE_WORDS else stem), 0


def _content(phrase: str, own: frozenset[str]) -> list[str]:
    """The content stems of `phrase`, minus the item's own entity names."""
    return [s for w in _WORD.findall(phrase) if (s := _word(w)[0]) is not None and s not in own]


def _bare(word: str) -> str:
    """Drop a possessive or an elision: "peter's" -> "peter", "l'assurance" -> "assurance"."""
    if "'" not in word and "’" not in word:
        return word
    head, _, tail = word.replace("’", "'").rpartition("'")
    return head if tail == "s" else tail


def _lead(phrase: str, own: frozenset[str]) -> list[str]:
    """The first content words of `phrase`, up to a stop word: the object a cue names."""
    out: list[str] = []
    for w in _WORD.findall(phrase)[:4]:
        if _bare(w) in _STOP:
            if out:
                break
            continue
        out.extend(_content(w, own))
    return out[:3]


@lru_cache(maxsize=65536)
def _read(text: str, entities: tuple[str, ...]) -> _Text:
    """Content words, per-word stances and whether `text` states an attitude."""
    low = text.lower() if text.isascii() else fold(text)
    low = _CANT_STAND.sub("cantstand", _NT.sub(" not", _ELISION.sub("ne ", low)))
    low = _GAVE_UP.sub("gave_up", low)
    own = frozenset(_stem(w) for e in entities for w in fold(e).split("-"))
    stance: dict[str, dict[int, _Cue]] = defaultdict(dict)
    attitude = False
    for seg in _SEGMENTS.split(low):
        found = [(m.start(), m.group()) for m in _WORD.finditer(seg)]
        if not found:
            continue
        read = [(at, w, *_word(w)) for at, w in found]
        attitude = attitude or any(g for *_, g in read)
        # the first liking or disliking word sets the segment's sign; want/find/think are +1
        liked = next(((at, w, g) for at, w, _, g in read if g and _stem(_bare(w)) not in _NEUTRAL), None)  # fmt: skip
        sign, scope = (liked[2], liked[0]) if liked else (1, len(seg))
        shown = "" if liked is None else "can't stand" if liked[1] == "cantstand" else liked[1]
        cue = _Cue("attitude", shown, shown) if liked else _Cue("plain", "")
        present = frozenset(w for _, w in found)
        if not present.isdisjoint(_NEG_TRIGGERS) and (neg := _NEGATION.search(seg)):
            sign, scope = -sign, min(scope, neg.start())
            cue = _Cue("negation", " ".join(neg.group().replace("_", " ").split()), cue.word)
        # a cue reaches the words after it: "Peter no longer drinks coffee" leaves Peter be
        plain = (1, _Cue("plain", ""))
        marks = {s: (sign, cue) if at >= scope else plain
                 for at, _, s, _ in read if s is not None and s not in own}  # fmt: skip
        if "prefer" in seg and len(seg) <= MAX_CUE_SEGMENT and (pref := _PREFERENCE.search(seg)):
            a, b = (" ".join(pref.group(g).split()).rstrip(".") for g in ("a", "b"))
            ca, cb = set(_content(a, own)), set(_content(b, own))
            ta, tb = ca - cb, cb - ca  # "board games to video games": "games" is neither
            pc = _Cue("preference", "prefers", cue.word or "prefers", (a, b), frozenset(ta | tb))
            marks.update({t: (sign, pc) for t in ta})
            marks.update({t: (-sign, pc) for t in tb})
        if len(seg) <= MAX_CUE_SEGMENT and (
            not present.isdisjoint(_CHANGE_TRIGGERS) or "replac" in seg
        ):
            for pattern in _CHANGES:
                if change := pattern.search(seg):
                    old = _lead(change.group("old"), own)
                    cc = _Cue("change", " ".join(change.group().split()), named=frozenset(old))
                    marks.update({t: (-1, cc) for t in old})
                    if "new" in pattern.groupindex:
                        marks.update({t: (1, cc) for t in _lead(change.group("new"), own)})
                    break
        for t, (sg, c) in marks.items():
            stance[t].setdefault(sg, c)
    return _Text(frozenset(stance), dict(stance), attitude)


# --- judging one pair -----------------------------------------------------------------------


class _Verdict(NamedTuple):
    relation: str | None  # supports | contradicts | None
    agrees: bool  # shares a word and no stance conflicts: a fact an opinion may rest on
    reason: str


def _judge(
    op: _Text, ev: _Text, is_opinion: bool, pinned: bool, cosine: Callable[[], float | None]
) -> _Verdict:
    """How `ev` bears on `op`; `pinned`: they share two entities, which count as a word."""
    shared = op.tokens & ev.tokens
    if not shared:
        return _Verdict(None, False, "")
    n = len(shared) + pinned
    overlap = n / (min(len(op.tokens), len(ev.tokens)) + pinned)
    conflicts = sorted(t for t in shared if not op.stance[t].keys() & ev.stance[t].keys())
    if conflicts:
        cues = [(ev.stance[t][-op_sign], op.stance[t][op_sign], t)
                for t in conflicts for op_sign in op.stance[t]]  # fmt: skip
        if all(e.kind == "plain" for e, _, _ in cues):
            return _Verdict(None, False, "")  # the evidence only mentions it: no stance taken
        # a preference or change cue in the evidence that names the opinion's whole object
        named = any(e.named and e.named <= op.tokens for e, _, _ in cues)
        related = (n >= MIN_SHARED and overlap >= RELATED_OVERLAP) or named
        if not related and ((sim := cosine()) is None or sim < EMB_RELATED):
            return _Verdict(None, False, "")
        return _Verdict("contradicts", False, _why(cues))
    if not (is_opinion or ev.attitude):
        return _Verdict(None, True, "")  # a plain event restates no attitude
    if n >= MIN_SHARED and overlap >= RESTATE_OVERLAP:
        return _Verdict("supports", True, "restatement")
    if (sim := cosine()) is not None and sim >= EMB_RESTATE:
        return _Verdict("supports", True, f"paraphrase (cosine {sim:.2f})")
    return _Verdict(None, True, "")


def _why(cues: list[tuple[_Cue, _Cue, str]]) -> str:
    """The reason of a contradiction, from the strongest cue among the conflicting words."""
    for e, o, _ in cues:
        for c, flipped in ((o, True), (e, False)):
            if c.kind != "preference":
                continue
            a, b = c.pair
            sides = {"a": _content(a, frozenset()), "b": _content(b, frozenset())}
            hit = {side for side, ws in sides.items() for _, _, t in cues if t in ws}
            if hit == {"a", "b"}:  # both sides flipped: the evidence favours the other one
                return f"preference swapped: {b} over {a}" if flipped else f"preference swapped: {a} over {b}"  # fmt: skip
    for e, _, _ in cues:
        if e.kind == "change":
            return f"change: {e.text}"
    for e, _, _ in cues:
        if e.kind == "negation":
            return f"negation: {e.text}"
    e, o, _ = cues[0]
    return f"polarity flip: {_describe(e)} vs {_describe(o)}"


def _describe(c: _Cue) -> str:
    if c.kind == "negation":
        return f"{c.text} {c.word}".strip()
    return c.word or c.text or "affirms"


# --- the whole evidence set -----------------------------------------------------------------


class Sentence(NamedTuple):
    """A sentence of free text, ready to be judged."""

    item: EvidenceIn
    named: frozenset[str]  # entities named in the sentence itself
    about: frozenset[str]  # named, plus those a pronoun carries over from the sentence before
    first: str  # the first entity named, "" when none
    travel: bool  # its passage speaks of travelling (and not of being home)


class _Names:
    """Entity surfaces (folded name or alias -> slug) found in text at word boundaries."""

    def __init__(self, surfaces: Mapping[str, str]) -> None:
        self.by_slug: dict[str, list[str]] = defaultdict(list)
        for surface, slug in sorted(surfaces.items()):
            if len(surface) >= 2:
                self.by_slug[slug].append(surface)
        latin = sorted((s for s in surfaces if len(s) >= 2 and s.isascii()), key=len, reverse=True)
        other = sorted((s for s in surfaces if len(s) >= 2 and not s.isascii()), key=len, reverse=True)  # fmt: skip
        self.surfaces = dict(surfaces)
        self._tokens: dict[str, frozenset[str]] = {}
        #: text -> the slugs it names: the same sentence is looked up once per opinion it
        #: may bear on, and the alternation of every surface costs ~len(text) x surfaces
        self._found: dict[str, tuple[str, ...]] = {}
        self._said: dict[str, re.Pattern[str]] = {}
        pattern = []
        if latin:
            pattern.append(r"(?<![a-z0-9])(?:" + longest_first(latin) + r")(?![a-z0-9])")
        if other:
            pattern.append("(?:" + longest_first(other) + ")")
        self.rx = re.compile("|".join(pattern)) if pattern else None
        # A Latin surface matches between non-[a-z0-9] characters, so each of its [a-z0-9]
        # runs is a whole run of the text: a text holding none of the surfaces' longest runs
        # (nor a non-ASCII surface, nor one without a run) names none of them (`_may`, for
        # names_in's `only`: a delta asks which of a few entities each of 100k items names).
        runs = [ALNUM_RUN.findall(s) for s in latin]
        self._keys = frozenset(max(r, key=len) for r in runs if r)
        self._bare = tuple(s for s, r in zip(latin, runs, strict=True) if not r)
        self._other = tuple(other)

    def _may(self, low: str) -> bool:
        if not self._keys.isdisjoint(ALNUM_RUN.findall(low)):
            return True
        if self._bare and any(map(low.__contains__, self._bare)):
            return True
        return bool(self._other) and not low.isascii() and any(map(low.__contains__, self._other))

    def find(self, text: str) -> list[str]:
        """Slugs named in `text`, in order of first appearance."""
        if self.rx is None:
            return []
        found = self._found.get(text)
        if found is None:
            low = folded(text)
            found = tuple(dict.fromkeys(self.surfaces[m.group()] for m in self.rx.finditer(low)))
            self._found[text] = found
        return list(found)

    def said(self, slug: str) -> re.Pattern[str]:
        """The pattern of a name of `slug` (or a pronoun) followed by said / told (`_said`)."""
        rx = self._said.get(slug)
        if rx is None:
            rx = self._said[slug] = _said([re.escape(s) for s in self.by_slug.get(slug, ())])
        return rx

    def tokens(self, slugs: Iterable[str]) -> frozenset[str]:
        """The topic tokens of these entities' names (left out of topic overlap)."""
        out: set[str] = set()
        for slug in slugs:
            if slug not in self._tokens:
                self._tokens[slug] = names_of([*self.by_slug.get(slug, ()), slug])
            out |= self._tokens[slug]
        return frozenset(out)


#: The longest word :func:`longest_first` puts in a trie (a name or alias is far shorter).
TRIE_DEPTH = 80


def longest_first(words: Iterable[str]) -> str:
    """A pattern matching any of `words`, the longest one that matches where a match starts
    (with what follows the pattern: backtracking tries the shorter ones in turn): the same
    matches as the alternation of `words` sorted longest first.

    As a trie: the alternation tried all ~1,000 names and aliases of a 100k workspace at
    every word of every sentence (8% of a full build); here each character picks at most
    one branch. At a node, the one child that can match the next character is tried first,
    then ending there, so the first success is the longest word."""
    words = set(words)
    if any(len(w) > TRIE_DEPTH for w in words):  # nested groups this deep overflow re's parser
        return "|".join(map(re.escape, sorted(words, key=lambda w: (-len(w), w))))
    trie: dict[str, dict] = {}  # type: ignore[type-arg]
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}  # a word ends here

    def emit(node: dict[str, dict]) -> str:  # type: ignore[type-arg]
        branches = [re.escape(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if "" not in node:
            return body
        return ("(?:" + body + ")" if len(branches) == 1 and len(body) > 1 else body) + "?"

    return emit(trie)


def _paragraphs(
    evidence: Sequence[EvidenceIn], names: _Names, only: Set[str] | None = None
) -> dict[str, list[Sentence]]:
    """The sentences of every passage, by passage id. Passages of one file whose lines touch
    (the sentences of one paragraph, the lines of one chat) are read as one run: a pronoun
    reaches back into the previous passage, and a mention of travelling covers the run.

    `only`: the passage ids the caller will look up; a run holding none of them is not read
    (the sentences of a run depend on that run alone, and reading every sentence of a 100k
    workspace was a fifth of a full build)."""
    runs: list[list[EvidenceIn]] = []
    end = -1
    for ev in evidence:
        if ev.kind != "log":
            continue
        if runs and runs[-1][-1].path == ev.path and ev.day == runs[-1][-1].day and ev.line_start <= end + 1:  # fmt: skip
            runs[-1].append(ev)
        else:
            runs.append([ev])
        end = ev.line_start + ev.text.count("\n")
    out: dict[str, list[Sentence]] = {}
    for run in runs:
        if only is not None and all(ev.id not in only for ev in run):
            continue
        found = {ev.id: _units_of(ev) for ev in run}
        texts = [u.text for us in found.values() for u in us]
        travel = any(read(t).travel for t in texts) and not any(read(t).home for t in texts)
        previous: frozenset[str] = frozenset()
        for ev in run:
            out[ev.id], previous = _split(ev, names, found[ev.id], travel, previous)
    return out


def _units_of(ev: EvidenceIn) -> list[Unit]:
    """A passage's sentences; a one-sentence passage keeps the passage's own lines (its
    text may be joined from a hard-wrapped sentence)."""
    found = units(ev.text, ev.line_start)
    if len(found) == 1 and ev.line_end > found[0].line_end:
        return [Unit(found[0].text, found[0].line_start, ev.line_end)]
    return found


def _split(
    ev: EvidenceIn, names: _Names, found: list[Unit], travel: bool, before: frozenset[str]
) -> tuple[list[Sentence], frozenset[str]]:
    """The sentences of a passage with the entities each is about, and what a pronoun in
    the next passage of the run may refer to."""
    out: list[Sentence] = []
    previous = before | frozenset(ev.entities)  # an entity page is about its entity
    for u in found:
        named = names.find(u.text)
        r = read(u.text)
        if r.speaker:
            named = [*names.find(r.speaker), *named]
        about = frozenset(named) | frozenset(ev.entities)
        if r.pronoun or not named:
            about |= previous
        source = f"{ev.path}#L{u.line_start}" + (f"-L{u.line_end}" if u.line_end > u.line_start else "")  # fmt: skip
        item = replace(ev, id=f"{ev.id}@L{u.line_start}", text=u.text, source=source)
        out.append(Sentence(item, frozenset(named), about, named[0] if named else "", travel))
        if named or not r.pronoun:
            previous = about if named else previous
    return out, previous


def sentences_of(
    evidence: Sequence[EvidenceIn], surfaces: Mapping[str, str] | None = None
) -> list[Sentence]:
    """The sentences :func:`evaluate` cuts the passages of `evidence` into (kind "log",
    dated or curated, in input order), each with who it is about.

    A run of passages never spans two files, so the sentences of one file's passages, read
    on their own, are those `evaluate` reads of them in the whole workspace (the same
    `surfaces`): an incremental index compares a file's before and after this way."""
    names = _Names(surfaces or {})
    logs = [ev for ev in evidence if ev.kind == "log" and (ev.day is not None or ev.curated)]
    split = _paragraphs(logs, names)
    return [s for ev in logs for s in split[ev.id]]


def names_in(
    texts: Iterable[str], surfaces: Mapping[str, str], only: Set[str] | None = None
) -> list[frozenset[str]]:
    """The entity slugs each text names, as :func:`evaluate` finds them. With `only`, a
    text that cannot name one of those slugs gets an empty set without a lookup (it may
    name others): the caller asks only which of `only` each text names."""
    names = _Names(surfaces)
    if only is None:
        return [frozenset(names.find(t)) for t in texts]
    some = _Names({s: slug for s, slug in surfaces.items() if slug in only})
    if some.rx is None:
        return [frozenset() for _ in texts]
    return [frozenset(names.find(t)) if some._may(folded(t)) else frozenset() for t in texts]


def reached_through(sentence: Sentence) -> frozenset[str]:
    """The entities through which an opinion can reach `sentence` in :func:`evaluate`: the
    ones it is about; "" for a rule naming no one, which every permission reaches. Empty:
    no opinion's links can include it (it only counts as a twin of the same words)."""
    if sentence.about:
        return sentence.about
    return frozenset({""}) if read(sentence.item.text).revocation else frozenset()


def evaluate(
    opinions: Sequence[OpinionIn],
    evidence: Sequence[EvidenceIn],
    similarity: Callable[[str, str], float] | None = None,
    supersessions: Sequence[Supersession] | Callable[[], Sequence[Supersession]] | None = None,
    surfaces: Mapping[str, str] | None = None,
    aim: Sequence[OpinionIn] | None = None,
) -> tuple[list[Link], dict[str, OpinionState]]:
    """Every SUPPORTS / CONTRADICTS link and each opinion's resulting confidence state.

    Every opinion is also evidence for the others (passing it again in `evidence` under the
    same id changes nothing). `similarity(opinion, evidence)` is an optional cosine of
    embeddings. `supersessions` are the SUPERSEDES edges among the facts, when the caller
    has them (or a function giving them, asked only once the evidence is prepared: a full
    build finds them meanwhile, graphmem.store.beside); otherwise they are found with
    `graphmem.compile.supersede.find_supersessions`.
    `surfaces` (folded name or alias -> slug) find the entities a sentence names. Passages
    (kind "log") are judged sentence by sentence with graphmem.compile.verdicts.
    Links come in date order; states keep the order of `opinions`. Rules: module docstring.
    `aim` (default: `opinions`) are the opinions whose entities decide which passages are
    read sentence by sentence: a caller evaluating only some opinions of a workspace passes
    all of them, so that the free text is read as in the whole.
    """
    names = _Names(surfaces or {})
    first: dict[str, OpinionIn] = {}
    for o in opinions:
        first.setdefault(o.id, o)  # the same id twice is one opinion
    ops = list(first.values())
    position = {o.id: i for i, o in enumerate(ops)}
    items: list[EvidenceIn] = []
    sentences: dict[str, Sentence] = {}
    seen_ids: set[str] = set()
    seen_texts: set[tuple[date | None, str]] = set()
    as_evidence = [
        EvidenceIn(o.id, "opinion", o.statement, o.day, o.entities, o.stated, o.source) for o in ops
    ]
    # free text is read sentence by sentence only where it can bear on an opinion: it names
    # an entity an opinion is about, or carries a rule (which may name no one)
    aims = ops if aim is None else list({o.id: o for o in reversed(aim)}.values())
    aimed = {e for o in aims if o.day is not None for e in (*o.entities, *names.find(o.statement))}
    rules = any(o.day is not None and frame(o.statement, o.day, frozenset()).kind == "permission" for o in aims)  # fmt: skip

    # comparisons of two places, tested by later counts of each (graphmem.compile.counts):
    # a passage counting a place in an area is read whatever entity it names
    compared = {o.id: c for o in ops if o.day is not None and (c := comparison(o.statement))}
    places = located(ev.text for ev in evidence) if compared else {}

    def wanted_text(ev: EvidenceIn) -> bool:
        if aimed.intersection(ev.entities) or aimed.intersection(names.find(ev.text)):
            return True
        if places and counts(ev.text, places):
            return True
        return rules and bool(REVOCATION.search(folded(ev.text)))

    logs = [ev for ev in evidence if ev.kind == "log" and (ev.day is not None or ev.curated)]
    keep_runs = {ev.id for ev in logs if wanted_text(ev)}
    split = _paragraphs(logs, names, keep_runs) if keep_runs else {}
    for ev in (*as_evidence, *evidence):
        if ev.id in seen_ids or (ev.day is None and not ev.curated):
            continue
        seen_ids.add(ev.id)
        if ev.kind == "log" and ev.id not in keep_runs:
            continue
        parts: list[Sentence | None] = list(split[ev.id]) if ev.kind == "log" else [None]
        for part in parts:
            one = ev if part is None else part.item
            key = (one.day, normalize_text(one.text))
            if key in seen_texts:  # the same words on the same day are one piece of evidence
                continue
            seen_texts.add(key)
            items.append(one)
            if part is not None:
                sentences[one.id] = part
    items.sort(key=_when)  # stable: same-day input order is kept
    wanted = {e for o in ops if o.day is not None for e in o.entities}
    index: dict[tuple[str, str], list[int]] = defaultdict(list)  # (entity, word) -> items
    near: dict[str, list[int]] = defaultdict(list)  # entity -> items about it
    for i, ev in enumerate(items):
        unit = sentences.get(ev.id)
        about = unit.about if unit else frozenset(ev.entities) | frozenset(names.find(ev.text))
        for e in about:
            near[e].append(i)
        if not about and read(ev.text).revocation:
            near[""].append(i)  # a rule naming no one ("from now on, ask me first")
        if unit is None and (shared := wanted.intersection(ev.entities)):
            tokens = _read(ev.text, ev.entities).tokens
            for e in shared:
                for t in tokens:
                    index[(e, t)].append(i)
    # The stance rules (graphmem.compile.verdicts.judge) judge an item about an entity the opinion
    # names only if they share a topic word, or, for a prediction, if it says something came
    # on time or late: index the items by (entity, topic word) once, so that an opinion
    # visits only the pairs that can relate.
    topical: dict[tuple[str, str], list[int]] = defaultdict(list)  # (entity, word) -> items
    timely: dict[str, list[int]] = defaultdict(list)  # entity -> items: on time, or late
    for e in sorted(aimed | {""} if rules else aimed):
        for i in near.get(e, ()):
            r = read(items[i].text)
            for t in r.tokens:
                topical[(e, t)].append(i)
            if r.on_time or r.late:
                timely[e].append(i)
    replaced: dict[str, list[tuple[int, str]]] = defaultdict(list)  # entity -> (item, cue)
    for e in sorted(wanted):
        for i in near.get(e, ()):
            ev = items[i]
            if read(ev.text).replaced and (
                cue := _replaced(ev.text, e, names, ev.entities[:1] == (e,))
            ):
                replaced[e].append((i, cue))
    counted: dict[int, list[tuple[str, int]]] = {}
    if places:
        for i, ev in enumerate(items):
            if numbers := counts(ev.text, places):
                counted[i] = numbers
    if callable(supersessions):
        supersessions = supersessions()
    ended = _ended([ev for ev in items if ev.id not in sentences], supersessions) if ops else {}
    by_id = {ev.id: i for i, ev in enumerate(items)}
    ctx = _Context(
        position,
        items,
        index,
        near,
        topical,
        timely,
        ended,
        by_id,
        similarity,
        names,
        sentences,
        replaced,
        compared,
        counted,
    )

    links: list[Link] = []
    states: dict[str, OpinionState] = {}
    for op in ops:
        start = _clamp(op.stated if op.stated is not None else DEFAULT_CONFIDENCE)
        found = _links(op, ctx) if op.day else []
        links.extend(found)
        states[op.id] = _apply(op, start, found, items, by_id)
    links.sort(key=lambda lk: (by_id[lk.evidence], position[lk.opinion]))  # items are by date
    return links, states


def _when(ev: EvidenceIn) -> tuple[bool, date]:
    """Dated evidence by day, then curated (undated) text."""
    return (ev.day is None, ev.day or date.min)


def _cite(ev: EvidenceIn) -> str:
    return ev.source


class _Context(NamedTuple):
    position: Mapping[str, int]
    items: list[EvidenceIn]
    words: Mapping[tuple[str, str], list[int]]
    near: Mapping[str, list[int]]
    topical: Mapping[tuple[str, str], list[int]]
    timely: Mapping[str, list[int]]
    ended: Mapping[str, tuple[str, str]]
    by_id: Mapping[str, int]
    similarity: Callable[[str, str], float] | None
    names: _Names
    sentences: Mapping[str, Sentence]
    replaced: Mapping[str, list[tuple[int, str]]]
    compared: Mapping[str, Comparison]
    counted: Mapping[int, list[tuple[str, int]]]


_BE = re.compile(
    r"\b(?:be|been|being|is|was|were|are|get|got|gets|getting|ser|foi|foram|sera|e|est|etre|"
    r"ete|wird|wurde|werden|worden|fue|es|sido)\b"
)
_AGENT = re.compile(r"[;.!?]|\b(?:with|by|for|por|com|par|avec|durch|mit|con|pelo|pela)\b")
_VERB_FINAL = frozenset(("ersetzen", "ersetzt", "austauschen", "ausgetauscht"))
#: How far apart a name and its replacement cue may be written ("the Atom 75 has to be
#: replaced", "replace the old Atom 75").
REPLACE_REACH = 40


def _replaced(text: str, slug: str, names: _Names, subject: bool = False) -> str:
    """The replacement cue of `text` whose patient is `slug` ("X has to be replaced", "we
    replaced X with Y", "X foi substituído", "X ersetzen"), or "". The agent ("Y replaced X",
    "X replaces Y") and the new thing ("replaced Y with X") are not replaced. `subject`: the
    text is a bullet about `slug` (its first @mention), which stands at its start when the
    text writes the name otherwise ("@Atom75: The Atom 75 has to be replaced")."""
    low = folded(text)
    shown = text if len(text) == len(low) else low  # cite as written when folding kept offsets
    spots: list[tuple[int, int]] = []
    if names.rx is not None:
        spots = [m.span() for m in names.rx.finditer(low) if names.surfaces[m.group()] == slug]
    if not spots and subject:
        spots = [(0, 0)]
    for cue in REPLACED.finditer(low):
        word = cue.group()
        for a, b in spots:
            if b <= cue.start() and cue.start() - b <= REPLACE_REACH:
                between = low[b : cue.start()]
                if _AGENT.search(between):
                    continue
                if _BE.search(between) or word in _VERB_FINAL:
                    return " ".join(shown[a : cue.end()].split())
            elif a >= cue.end() and a - cue.end() <= REPLACE_REACH:
                if not _AGENT.search(low[cue.end() : a]) and word not in _VERB_FINAL:
                    return " ".join(shown[cue.start() : b].split())
    return ""


def _ended(
    items: list[EvidenceIn], given: Sequence[Supersession] | None
) -> dict[str, tuple[str, str]]:
    """older fact id -> (newer fact id, cue)."""
    if given is None:
        facts = [FactIn(ev.id, ev.text, ev.day, ev.day, ev.entities, ev.kind)
                 for ev in items if ev.kind in FACT_KINDS and ev.day is not None]  # fmt: skip
        given = find_supersessions(facts)
    return {s.older: (s.newer, s.cue) for s in given}


def _weight(ev: EvidenceIn, own: bool) -> float:
    if own:
        return WEIGHTS["own"]
    if ev.kind == "opinion":
        return WEIGHTS["stated" if ev.stated is not None else "opinion"]
    if ev.kind == "log":
        return WEIGHTS["text"]
    return WEIGHTS["fact"]


def _links(op: OpinionIn, ctx: _Context) -> list[Link]:
    assert op.day is not None
    items, by_id = ctx.items, ctx.by_id
    mine = _read(op.statement, op.entities)
    holder = op.entities[0] if op.entities else ""
    targets = frozenset(op.entities) | frozenset(ctx.names.find(op.statement))
    name_tokens = ctx.names.tokens(targets)
    framed = frame(op.statement, op.day, name_tokens)
    shared: Counter[int] = Counter()  # item -> how many of its words it shares
    for e in set(op.entities):
        for t in mine.tokens:
            shared.update(_posting(ctx.words, e, t))
    old = set(shared)
    # the items about an entity it names (a rule naming no one too, for a permission) that
    # share a topic word with it: judge() returns None on any other (a prediction also
    # hears of its holder coming on time or late)
    reach = [*targets, ""] if framed.kind == "permission" else list(targets)
    topical: Counter[int] = Counter()
    for e in reach:
        for t in framed.topic:
            topical.update(_posting(ctx.topical, e, t))
    new = set(topical)
    if framed.kind == "prediction":
        new.update(i for e in reach for i in ctx.timely.get(e, ()))
    if len(old | new) > MAX_CANDIDATES:  # the ones sharing most words, later ones first
        shared.update(topical)
        keep = set(sorted(old | new, key=lambda i: (-shared[i], -i))[:MAX_CANDIDATES])
        old &= keep
        new &= keep
    # the thing it judges is to be replaced: a change of state no topic word has to name
    swapped = {} if mine_replaced(op) else dict(ctx.replaced.get(holder, ()))
    out: dict[str, Link] = {}
    basis: list[str] = []
    about = set(op.entities)

    def rests(fact: EvidenceIn) -> bool:  # a fact about two or more of the opinion's entities
        return len(set(fact.entities)) >= 2 and set(fact.entities) <= about

    for i in sorted(old | new | swapped.keys()):
        ev = items[i]
        counts = ev.id != op.id and (ev.day is None or ev.day >= op.day)
        if ev.kind == "opinion" and ev.id in ctx.position:
            later = ev.day is not None and (
                ev.day > op.day or ctx.position[ev.id] > ctx.position[op.id]
            )
            counts = counts and later
        link: Link | None = None
        if i in old and ev.id not in ctx.sentences and ev.day is not None:
            link = _word_link(op, ev, mine, about, counts, ctx, basis, rests)
        if counts and i in new:  # an explicit retraction overrides the word-overlap judgement
            verdict = _rules(op, ev, framed, holder, targets, ctx)
            if verdict is not None and (verdict[1].strong or link is None):
                own, v = verdict
                if ev.kind != "opinion" or v.strong:
                    link = Link(ev.id, op.id, v.relation, _weight(ev, own), ev.day, v.reason,
                                _cite(ev), v.strong, v.ending)  # fmt: skip
        if link is None and counts and i in swapped and not (ev.kind == "opinion" and ev.id in out):
            link = Link(ev.id, op.id, "contradicts", _weight(ev, False), ev.day,
                        f"replacement: “{swapped[i]}”", _cite(ev))  # fmt: skip
        if link is not None:
            out[ev.id] = link
    if op.id in ctx.compared:
        for link in _measured(op, ctx.compared[op.id], holder, ctx):
            out.setdefault(link.evidence, link)
    for older in basis:
        newer, cue = ctx.ended[older]
        j = by_id.get(newer)
        if j is None or newer in out or newer == op.id:
            continue
        day = items[j].day
        assert day is not None
        # the supersede fallback ("marker: ...", a changed name next to "now") is too weak
        # a guess to take an opinion down with it
        if day >= op.day and about & set(items[j].entities) and not cue.startswith("marker:"):
            reason = f"rests on superseded fact {_cite(items[by_id[older]]) or older}: {cue}"
            out[newer] = Link(newer, op.id, "contradicts", WEIGHTS["basis"], day, reason, _cite(items[j]))  # fmt: skip
    return sorted(out.values(), key=lambda lk: by_id[lk.evidence])


def _measured(op: OpinionIn, comp: Comparison, holder: str, ctx: _Context) -> list[Link]:
    """Counts of the holder's place and the other one (graphmem.compile.counts), each day's
    compared with the latest of the other side: dated after the opinion (its own day's
    counts are its basis), in a sentence that counts or names the compared quantity."""
    assert op.day is not None
    mine = {key(s) for s in (holder, *ctx.names.by_slug.get(holder, ()))} - {""}
    what = topic(comp.what)
    latest: dict[int, tuple[int, str]] = {}  # +1: the holder's side, -1: the other
    out: list[Link] = []
    for i in sorted(ctx.counted):
        ev = ctx.items[i]
        sides = [(1 if area in mine else -1, n, area) for area, n in ctx.counted[i]
                 if area in mine or area == comp.other]  # fmt: skip
        for side, n, area in sides:
            latest[side] = (n, area)
        if not sides or ev.day is None or ev.day <= op.day or len(latest) < 2:
            continue
        if not (COUNTING.search(folded(ev.text)) or what & topic(ev.text)):
            continue
        (a, area_a), (b, area_b) = latest[1], latest[-1]
        if a == b:
            continue
        agrees = (a > b) == (comp.sign > 0)
        reason = f"counted: {area_a} {a} vs {area_b} {b}"
        out.append(Link(ev.id, op.id, "supports" if agrees else "contradicts",
                        WEIGHTS["measured"], ev.day, reason, _cite(ev)))  # fmt: skip
    return out


def mine_replaced(op: OpinionIn) -> bool:
    """Whether the opinion itself is about replacing or judges its subject badly: a later
    replacement agrees with it."""
    r = read(op.statement)
    return bool(r.replaced) or r.valence < 0 or r.negated


#: An (entity, word) pair said more often than this is too common to name a topic (a cut on
#: document frequency, as IDF weighs it): an opinion is judged on its rarer words. The dev
#: sets' longest posting is 21; 20,000 opinions about one person in three dozen words made
#: every opinion visit every other one (quadratic: 2,000 took 8.8 s).
MAX_POSTINGS = 256


#: The most items one opinion is judged against: those sharing most of its words. With the
#: postings capped too, each opinion costs a bounded amount of work, so reflection is linear
#: in the number of opinions (the dev sets' opinions see at most 52; the 32 sharing most words hold their links).
MAX_CANDIDATES = 32


def _posting(index: Mapping[tuple[str, str], list[int]], entity: str, word: str) -> list[int]:
    found = index.get((entity, word), ())
    return [] if len(found) > MAX_POSTINGS else list(found)


def _word_link(
    op: OpinionIn,
    ev: EvidenceIn,
    mine: _Text,
    about: set[str],
    counts: bool,
    ctx: _Context,
    basis: list[str],
    rests: Callable[[EvidenceIn], bool],
) -> Link | None:
    """The word-overlap judgement of a bullet (the module docstring's first tables)."""
    if not counts and ev.id not in ctx.ended:
        return None
    named = set(ev.entities)
    if named - about and about - named and not (ev.id in ctx.ended and named <= about):
        return None  # each names an entity the other lacks: Rosa's view vs Andy's, X vs Y
    cosine = _cosine(ctx.similarity, op.statement, ev.text)
    pinned = len(about & named) >= 2
    verdict = _judge(mine, _read(ev.text, ev.entities), ev.kind == "opinion", pinned, cosine)
    if verdict.agrees and ev.id in ctx.ended and ev.kind in FACT_KINDS and rests(ev):
        basis.append(ev.id)
    if not counts or verdict.relation is None:
        return None
    reason = verdict.reason
    if verdict.relation == "supports" and ev.stated is not None:
        reason += f" (c={ev.stated:g})"
    return Link(ev.id, op.id, verdict.relation, _weight(ev, False), ev.day, reason, _cite(ev))


def _rules(
    op: OpinionIn,
    ev: EvidenceIn,
    framed: OpinionFrame,
    holder: str,
    targets: frozenset[str],
    ctx: _Context,
) -> tuple[bool, Verdict] | None:
    """The stance rules (graphmem.compile.verdicts) for one item, with who it is about."""
    unit = ctx.sentences.get(ev.id)
    if unit is not None:
        named, about, first, travel = unit.named, unit.about, unit.first, unit.travel
    else:
        found = ctx.names.find(ev.text)
        explicit = list(dict.fromkeys(ev.entities))
        named = frozenset(found) | frozenset(explicit)
        about = named
        first = explicit[0] if explicit else (found[0] if found else "")
        travel = False
    anonymous = not about
    if about and not about & targets:
        return None  # the sentence is about someone or something else: a distractor
    # a prediction is about its event: a sentence about any entity it names will do
    about_holder = holder in about or (framed.kind == "prediction" and bool(about & targets))
    r = read(ev.text)
    speaker = ctx.names.find(r.speaker) if r.speaker else []
    own = bool(speaker) and speaker[0] == holder
    if unit is None:  # a bullet whose first @mention is the holder, reporting speech
        own = own or (ev.kind != "opinion" and r.reported and first == holder and bool(holder))
    # the holder's own line: a chat line, a bullet about them reporting their words, their
    # opinion bullet (a narrative's "Joana said ..." is not: graphmem.compile.verdicts.judge)
    speaking = own or (ev.kind == "opinion" and holder in ev.entities[:1] and ev.stated is not None)
    if (
        unit is not None and holder and not own
    ):  # "Théo said", "she told me" right after Théo was named
        if holder in about and ctx.names.said(holder).search(folded(ev.text)):
            own = holder in unit.named or bool(_said([]).search(folded(ev.text)))
    if ev.kind == "opinion" and holder in ev.entities[:1]:
        own = own or ev.stated is not None
    v = judge(
        framed,
        ev.text,
        ev.day,
        ctx.names.tokens(named | targets),
        about_holder=about_holder,
        own_words=own,
        holder_named=holder in ctx.names.find(ev.text),
        context_travel=travel,
        generic=unit is not None or own,
        anonymous=anonymous,
        all_named=targets <= about,
        speaking=speaking,
        holder_names=ctx.names.tokens({holder}) if holder else frozenset(),
    )
    return None if v is None else (own, v)


@lru_cache(maxsize=4096)
def _said_rx(who: tuple[str, ...]) -> re.Pattern[str]:
    names = "|".join((*who, "he", "she", "il", "elle", "ele", "ela", "er", "sie", "el", "ella"))
    return re.compile(
        rf"(?<![a-z0-9])(?:{names})\s+(?:\w+\s+)?(?:said|says|told|tells|asked|admitted|agreed|"
        r"a dit|disse|diz|sagte|sagt|dijo|dice)(?![a-z0-9])"
    )


def _said(who: list[str]) -> re.Pattern[str]:
    return _said_rx(tuple(who))


def _cosine(
    similarity: Callable[[str, str], float] | None, a: str, b: str
) -> Callable[[], float | None]:
    """A lazy cosine: embeddings are consulted only when the words alone do not decide."""
    return (lambda: None) if similarity is None else (lambda: similarity(a, b))


def _apply(
    op: OpinionIn,
    start: float,
    links: list[Link],
    items: list[EvidenceIn],
    by_id: Mapping[str, int],
) -> OpinionState:
    """Fold `links` (in date order) into a confidence, a history and an ending."""
    c = start
    moves: list[Move] = []
    days: set[date] = set()
    support_days: set[date] = set()
    superseded: str | None = None
    status, ended_by = "", ""
    rival: tuple[str, float, bool] | None = None  # newest contradicting view, its c, an opinion?
    for lk in links:
        ev = items[by_id[lk.evidence]]
        day = lk.day or date.max  # curated text counts as one more, independent, day
        if status in ("confirmed", "refuted", "revoked", "retracted") and not lk.strong:
            continue  # settled: only another explicit ending moves it again
        if lk.relation == "supports":
            if lk.strong:
                new = c + STRONG * (1 - c)
            elif ev.stated is not None:
                new = c + PULL * lk.weight * (_clamp(ev.stated) - c)
            else:
                repeat = REPEAT if day in support_days else 1.0
                new = c + A_SUPPORT * lk.weight * repeat * (1 - c)
            support_days.add(day)
        else:
            days.add(day)
            if lk.strong:
                new = c * (1 - STRONG)
            else:
                new = c - A_CONTRA * lk.weight * min(len(days), K_MAX) * c
            if ev.kind == "opinion" or lk.weight >= WEIGHTS["own"]:
                stated = ev.stated if ev.stated is not None else DEFAULT_CONFIDENCE
                rival = (lk.evidence, _clamp(stated), ev.kind == "opinion")
        new = round(_clamp(new), 4)
        moves.append(Move(lk.day, c, new, lk.evidence, lk.relation, lk.reason, lk.source))
        c = new
        if lk.ending and (not status or status == "superseded"):  # the first ending cites
            status, ended_by = lk.ending, lk.source
        if lk.relation == "contradicts" and superseded is None and rival is not None:
            held = c <= rival[1]  # the holder's newer view is now held more firmly
            if c < SUPERSEDE_BELOW or len(days) >= SUPERSEDE_AFTER or held:
                # a newer opinion gets a SUPERSEDES edge; the holder's own words (a sentence)
                # end it all the same, cited
                superseded = rival[0] if rival[2] else ""
                if not status:
                    status, ended_by = "superseded", items[by_id[rival[0]]].source or rival[0]
    if not status and len(support_days) >= REINFORCED_DAYS and not days and c > start:
        status = "reinforced"
    return OpinionState(op.id, c, tuple(moves), superseded or None, status, ended_by)


def _clamp(x: float) -> float:
    return min(1.0, max(0.0, x))
