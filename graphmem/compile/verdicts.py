"""How one sentence bears on one opinion: the stance rules of reflection.

graphmem.compile.stance reads the cues of a sentence; this module decides, for an opinion of a
known kind, what those cues mean. Each rule needs the sentence to be about the opinion:
about its holder (named, a pronoun right after the holder was named, the holder speaking in
a chat line, or a bullet whose first @mention is the holder), or about another entity the
opinion names; and sharing its topic words (content stems and cross-language concepts,
entity names left out). A sentence naming another holder and not this one is a distractor
and is never judged.

| opinion kind | sentence                                                     | verdict              |
|--------------|--------------------------------------------------------------|----------------------|
| permission ("is fine", "without asking") | a revocation cue ("from now on", "always ask first") | revoked (strong) |
| prediction with a deadline ("will X before D") | X happened (most of its topic, light verbs and the deadline's words aside), dated on or before D | confirmed (strong) |
| prediction (not of a delay) | X fell through, was called off ("fell through", "caiu", "geplatzt") | refuted (strong) |
| prediction of a delay ("will slip past D") | "on schedule", "as planned" on or after D | refuted (strong)   |
|              | "slipped", "delayed"                                           | confirmed (strong)   |
| prediction without a deadline ("will be worth it") | a judgement of the outcome ("best decision") | supports / contradicts by its sign |
| cause ("X is what causes Y") | a rival cause of Y: "different cause", "not what hit", a retraction cue | retracted (strong) |
|              | a definite cause of Y that does not name X ("Y came from Z")   | contradicts          |
|              | Y attributed to X                                              | supports (hedged: weaker) |
| ability ("could run X")  | a decision naming the holder and every entity it names, doing most of X | confirmed (strong) |
|              | the holder doing most of X elsewhere / not managing it         | supports / contradicts |
|              | another "could", a hedge                                       | supports weakly / nothing |
| habit ("likes X", "always X") | X done again, most of its words / "no longer X" | supports / contradicts |
| preference ("prefers A over B [when travelling]") | "rather A than B"; A done and B declined; B never done | supports |
|              | B over A                                                       | contradicts          |
|              | under a condition (travelling), only sentences meeting it (and not "from home") count | |
| any          | a retraction cue ("turned out", "I was wrong") against it        | retracted (strong)   |
|              | the holder's own words, or a stance (negation, "no longer", volition, judgement) on the same topic | supports if the signs agree, else contradicts |
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import NamedTuple

from graphmem.compile.stance import (
    CONCEPT_RX,
    ENDED,
    FUTURE,
    NEGATION,
    NOT_YET,
    Reading,
    read,
    topic,
)
from graphmem.extract.timex import extract_times
from graphmem.text.stem import stem


@dataclass(frozen=True)
class OpinionFrame:
    """What kind of claim an opinion makes, read once."""

    reading: Reading
    kind: str  # permission | prediction | cause | preference | habit | belief
    topic: frozenset[str]
    deadline: date | None
    direction: str  # "by" | "late" | ""
    valence: int
    #: A prediction's event word: the first topic word after "will" ("approve" in "will
    #: approve the loan"; "offer" in "will make Joana an offer"). Empty: none found.
    event: frozenset[str] = frozenset()


class Verdict(NamedTuple):
    relation: str  # supports | contradicts
    strong: bool
    ending: str  # "" | confirmed | refuted | retracted | revoked
    reason: str


def frame(statement: str, day: date | None, names: frozenset[str]) -> OpinionFrame:
    """The kind, topic (minus the `names` tokens of its entities) and deadline of an opinion."""
    r = read(statement)
    kind = "belief"
    if r.permission:
        kind = "permission"
    elif r.future:
        kind = "prediction"
    elif r.causal:
        kind = "cause"
    elif r.preference and r.preference[0] and r.preference[1]:
        kind = "preference"
    elif r.attitude:
        kind = "habit"  # likes, always, usually: reinforced by doing it again
    elif r.ability:
        kind = "ability"  # could, can, able to: borne out when the holder does it
    deadline = None
    direction = ""
    tokens = r.tokens
    if kind == "prediction":
        direction = "late" if r.past_deadline else "by" if r.by_deadline else ""
        spans = extract_times(statement, day) if direction else []
        if spans:
            deadline = spans[-1].end
            while day is not None and deadline < day:
                deadline = _next_year(deadline)
            # "by the end of April": the deadline's words are when, not what
            tokens = tokens - topic(statement[spans[-1].char_start : spans[-1].char_end])
            tokens = tokens - _DEADLINE_WORDS
        else:
            direction = ""
        tokens = tokens - _LIGHT_VERBS  # "make an offer", "get it signed": the noun is the event
    event: frozenset[str] = frozenset()
    if kind == "prediction" and (will := FUTURE.search(r.folded)):
        for w in _WORDS.finditer(r.folded, will.end()):
            if found := topic(w.group()) & (tokens - names):
                event = frozenset(sorted(found)[:1])
                break
    return OpinionFrame(r, kind, tokens - names, deadline, direction, r.valence, event)


#: Words that frame a deadline around its date ("by the end of April", "até ao fim de abril").
_DEADLINE_WORDS = frozenset(
    stem(w)
    for w in "end start beginning middle fim inicio meados fin debut ende anfang mitte".split()
)


#: Verbs that carry no event of their own in a prediction ("make an offer", "have it signed").
_LIGHT_VERBS = frozenset(
    stem(w)
    for w in """make makes made making get gets got getting give gives gave given take takes
    took taken fazer faz fez ter tem teve dar faire fait avoir donner machen macht gemacht
    bekommen hacer hace hizo tener""".split()
)


def _most(topic_: frozenset[str]) -> int:
    """How many of an opinion's topic words a sentence must share to say the same event: most
    of them, and two when it has two or more (one shared word is a mention, not the event)."""
    return min(len(topic_), max(2, (len(topic_) + 1) // 2))


def _next_year(d: date) -> date:
    try:
        return d.replace(year=d.year + 1)
    except ValueError:
        return d + timedelta(days=365)


_VOLITION = frozenset("would want wants wanted ready willing decided agreed decide".split())
_WORDS = re.compile(r"[\w']+")


def judge(
    op: OpinionFrame,
    text: str,
    day: date | None,
    names: frozenset[str],
    *,
    about_holder: bool,
    own_words: bool,
    holder_named: bool,
    context_travel: bool,
    generic: bool = True,
    anonymous: bool = False,
    all_named: bool = False,
    speaking: bool = False,
    holder_names: frozenset[str] = frozenset(),
) -> Verdict | None:
    """How the sentence `text` (dated `day`; `names`: its entity-name tokens) bears on `op`,
    or None. `holder_named`: the holder's name is written in the sentence itself;
    `anonymous`: the sentence names no entity at all (only a rule may then apply: "from now
    on, always ask me first" needs no name); `all_named`: it names every entity the opinion
    names (Yara and the second shop); `speaking`: the holder's own line (a chat line they
    wrote, their own opinion bullet), where one shared topic word is enough: words reported
    in a narrative ("Joana said ...") need two. `holder_names`: the topic tokens of the
    holder's names (a prediction is refuted by its holder, written first, not doing it)."""
    u = read(text)
    shared = op.topic & (u.tokens - names)
    if not shared and not (about_holder and op.kind == "prediction" and (u.on_time or u.late)):
        return None
    if op.kind == "permission" and u.revocation:
        return Verdict("contradicts", True, "revoked", f"revoked by a rule: “{u.revocation}”")
    if anonymous:
        return None
    agree = negated_over(op.reading.folded, shared) == negated_over(u.folded, shared)
    if (about_holder or own_words) and u.retraction and op.kind != "cause":
        if "wrong" in u.retraction or not agree:  # "I was wrong about X" never supports X
            return Verdict("contradicts", True, "retracted", f"retraction: “{u.retraction}”")
    if op.kind == "prediction":
        return _prediction(op, u, day, about_holder, shared, names, holder_names)
    if op.kind == "cause" and (u.causal or u.rival or u.retraction):
        return _cause(op, u, holder_named)
    if op.kind == "preference" and (about_holder or own_words):
        found = _preference(op, u, context_travel)
        if found is not None:
            return found
    if op.kind == "ability" and about_holder:
        return _ability(op, u, shared, all_named)
    if not generic or (not about_holder and not own_words):
        return None
    if op.kind == "habit" and len(shared) >= max(2, len(op.topic) // 2):
        if negated_over(u.folded, shared):
            return Verdict("contradicts", False, "", f"no longer so: {_show(shared, u)} ({u.ended or 'negation'})")  # fmt: skip
        if not u.future and not u.hedged:
            return Verdict("supports", False, "", f"done again: {_show(shared, u)}")
    words = set(_WORDS.findall(u.folded))
    volition = not _VOLITION.isdisjoint(words) or "i'd" in words
    if not (negated_over(u.folded, shared) or u.valence or volition) or op.kind == "preference":
        return None  # a plain event takes no stance
    if len(shared) < 2 and not speaking and not negated_over(u.folded, shared):
        return None
    who = "own words" if own_words else "stance"
    if agree:
        return Verdict("supports", False, "", f"{who}: same stance on {_show(shared, u)}")
    cue = u.ended or ("negation" if negated_over(u.folded, shared) else "affirms")
    return Verdict(
        "contradicts", False, "", f"{who}: opposite stance on {_show(shared, u)} ({cue})"
    )


_CLAUSE_END = re.compile(
    r"[,;:.!?()\"“”—–，。；：！？]|\b(?:but|and|while|because|mais|et|mas|aber|und|pero|y)\b"
)


#: A negation scopes over at most this many characters after its cue (the longest scope in
#: clawd-dev's logs is 66): reading to the clause's end from every cue of a long clause of
#: "not not …" was quadratic.
NEGATION_SCOPE = 200


def negated_over(folded: str, tokens: frozenset[str]) -> bool:
    """Whether a negation (or "no longer") of `folded` scopes over one of `tokens`: the rest
    of its clause after the cue, up to NEGATION_SCOPE characters. "hasn't broken anything"
    says nothing against "running"."""
    return any(scope & tokens for scope in negation_scopes(folded))


@lru_cache(maxsize=16384)
def negation_scopes(folded: str) -> tuple[frozenset[str], ...]:
    """The topic (stance.topic) of what each negation or "no longer" cue of `folded` scopes
    over, in text order per pattern. A sentence is judged against every opinion it may bear
    on, twice or more each: its cues are found once (at 100k items, finding them per
    judgement was 7% of a full build)."""
    ends: list[int] | None = None
    out: list[frozenset[str]] = []
    for rx in (NEGATION, ENDED):
        for m in rx.finditer(folded):
            if ends is None:  # clause ends once per text, not once per cue
                ends = [e.start() for e in _CLAUSE_END.finditer(folded)]
            i = bisect_left(ends, m.end())
            end = min(ends[i] if i < len(ends) else len(folded), m.end() + NEGATION_SCOPE)
            out.append(topic(folded[m.end() : end]))
    return tuple(out)


def _show(tokens: frozenset[str], u: Reading) -> str:
    """The shared topic as the evidence writes it: "morning", "voice notes", not stems."""
    words = _WORDS.findall(u.folded)
    shown = []
    for t in sorted(tokens)[:3]:
        if t.startswith("~"):
            m = CONCEPT_RX[t].search(u.folded)
            shown.append(m.group() if m else t[1:])
        else:
            shown.append(next((w for w in words if stem(w) == t), t))
    return ", ".join(shown)


def refused(
    folded: str,
    event: frozenset[str],
    names: frozenset[str],
    subject: frozenset[str] | None = None,
    written: bool = True,
) -> str:
    """The clause of `folded` that says an event of `event` did not happen, or "": a negation
    whose first topic word after it (names and light verbs aside) is the event ("a Acme não
    baixa nada", "did not get the lead role"; not "não sei se a Acme baixa"), and no "not
    yet" in the clause. With `subject`, the first name written before the cue in its clause
    must be one of those tokens: "Acme did not lower", not "the kiosk next to Acme did
    not lower"; `written`: and a negation with no name before it does not count."""
    ends: list[tuple[int, int]] | None = None
    for m in NEGATION.finditer(folded):
        if ends is None:
            ends = [e.span() for e in _CLAUSE_END.finditer(folded)]
        i = bisect_left(ends, (m.start(), m.start()))
        start = max(ends[i - 1][1] if i else 0, m.start() - NEGATION_SCOPE)
        j = bisect_left(ends, (m.end(), m.end()))
        end = min(ends[j][0] if j < len(ends) else len(folded), m.end() + NEGATION_SCOPE)
        first = next(
            (t for w in _WORDS.finditer(folded, m.end(), end)
             for t in topic(w.group()) if t not in names and t not in _LIGHT_VERBS),
            None,
        )  # fmt: skip
        if first not in event or NOT_YET.search(folded[start:end]):
            continue
        if subject is not None:
            before = (t for w in _WORDS.finditer(folded, start, m.start()) for t in topic(w.group()))  # fmt: skip
            first = next((t for t in before if t in names or t in subject), None)
            if first not in subject and (written or first is not None):
                continue
        return " ".join(folded[start:end].split())
    return ""


def _prediction(
    op: OpinionFrame,
    u: Reading,
    day: date | None,
    about_holder: bool,
    shared: frozenset[str],
    names: frozenset[str] = frozenset(),
    holder_names: frozenset[str] = frozenset(),
) -> Verdict | None:
    if not about_holder:
        return None
    if op.direction == "late" and op.deadline is not None:
        if u.late and shared and not u.future:
            return Verdict("supports", True, "confirmed", f"came true: “{u.late}”")
        if u.on_time and day is not None and day >= op.deadline and not u.future:
            return Verdict("contradicts", True, "refuted", f"did not happen: “{u.on_time}”")
        return None
    if shared and op.valence >= 0 and u.failed and not u.future and not u.hedged:
        return Verdict("contradicts", True, "refuted", f"did not happen: “{u.failed}”")
    if op.direction == "by" and op.deadline is not None:
        if u.future or u.hedged or not shared or day is None:
            return None
        if negated_over(u.folded, shared):
            if day >= op.deadline:
                return Verdict("contradicts", True, "refuted", f"did not happen by {op.deadline}")  # fmt: skip
            return None
        if len(shared) < _most(op.topic) or not op.event <= shared:
            return None  # a mention of the lease is not the lease signed
        when = min((s.end for s in extract_times(u.folded, day)), default=day)
        if when <= op.deadline and day <= op.deadline + timedelta(days=7):
            return Verdict("supports", True, "confirmed", f"came true by {op.deadline}: {_show(shared, u)}")  # fmt: skip
        return None
    if op.valence:
        # an outcome judged ("best decision"), or the event coming on time or late
        outcome = u.valence or (1 if u.on_time else -1 if u.late else 0)
        # trouble predicted ("will be a mess"), and the event came about with none named
        # (any negation voids it: "ainda não chegou", "not a single bag arrived dry")
        plain = op.valence < 0 and bool(shared) and bool(u.arrived)
        if not outcome and plain and not u.failed and not u.negated:
            outcome = 1
        if outcome and not u.future and not u.hedged:
            cue = "" if u.valence else u.on_time or u.late or u.arrived  # the words that judged
            what = f"“{cue}”" if cue or not shared else _show(shared, u)
            if outcome == op.valence:
                return Verdict("supports", False, "", f"outcome judged as predicted ({what})")
            return Verdict("contradicts", False, "", f"outcome judged otherwise ({what})")
        return None
    # an event predicted without a date: it happened (or did not) in a later sentence that
    # says most of what the prediction says
    if u.future or u.hedged or day is None or u.folded.rstrip().endswith("?"):
        return None
    # "X will E" (if ...), then "X did not E": the event refused by its subject, however
    # little else of the prediction the sentence repeats
    if op.event and holder_names and (said := refused(u.folded, op.event, names, holder_names)):
        return Verdict("contradicts", True, "refuted", f"did not happen: “{said}”")
    if len(shared) < _most(op.topic) or len(shared) < 2:
        return None
    if not op.event <= shared:
        return None  # the loan requested is not the loan approved
    if negated_over(u.folded, shared):
        if refused(u.folded, shared, names, holder_names, written=False):
            return Verdict("contradicts", True, "refuted", f"did not happen: {_show(shared, u)}")
        return None  # "not yet", "não sei se ...": not the event denied
    return Verdict("supports", True, "confirmed", f"came true: {_show(shared, u)}")


def _ability(
    op: OpinionFrame, u: Reading, shared: frozenset[str], all_named: bool
) -> Verdict | None:
    """ "Yara could run the second shop": borne out when she is to run it (a decision names
    her and the shop), supported when she does the same thing elsewhere, contradicted when
    she does not manage it. Another "could" is only a restatement."""
    if u.hedged or len(shared) < _most(op.topic):
        return None
    if negated_over(u.folded, shared) or u.failed:
        if u.future:
            return None
        return Verdict("contradicts", False, "", f"not done: {_show(shared, u)}")
    if u.ability:
        return Verdict("supports", False, "", f"restated: {_show(shared, u)}")
    if all_named:
        return Verdict("supports", True, "confirmed", f"borne out: {_show(shared, u)}")
    if u.future:
        return None
    return Verdict("supports", False, "", f"done: {_show(shared, u)}")


def _cause(op: OpinionFrame, u: Reading, holder_named: bool) -> Verdict | None:
    if u.rival or u.retraction:
        cue = u.rival or u.retraction
        if u.hedged:
            return Verdict("contradicts", False, "", f"another cause suggested: “{cue}”")
        return Verdict("contradicts", True, "retracted", f"another cause found: “{cue}”")
    if holder_named and not u.negated:
        return Verdict("supports", False, "", "the same cause named" + (" (hedged)" if u.hedged else ""))  # fmt: skip
    if holder_named and u.negated:
        return Verdict("contradicts", False, "", "the cause denied")
    if not u.hedged and u.causal:
        return Verdict("contradicts", False, "", f"a different cause stated: “{u.causal}”")
    return None


def _preference(op: OpinionFrame, u: Reading, context_travel: bool) -> Verdict | None:
    pref = op.reading.preference
    assert pref is not None
    a, b = pref
    if op.reading.travel and (u.home or not (u.travel or context_travel)):
        return None  # the opinion holds only when travelling; this is not such a time
    if u.preference is not None:
        ua, ub = u.preference
        if a & ua and b & ub:
            return Verdict("supports", False, "", "the same preference restated")
        if a & ub and b & ua:
            return Verdict("contradicts", False, "", "the preference swapped")
    if a & u.tokens and b & u.rejected:
        return Verdict("supports", False, "", "chose the favoured option and declined the other")
    if b & u.tokens and u.negated and not (a & u.tokens):
        return Verdict("supports", False, "", "never chose the other option")
    if b & u.tokens and a & u.rejected:
        return Verdict("contradicts", False, "", "chose the other option")
    if a & u.tokens and not b & u.tokens and not negated_over(u.folded, a & u.tokens):
        return Verdict("supports", False, "", "chose the favoured option")
    return None


def names_of(surfaces: list[str]) -> frozenset[str]:
    """The topic tokens of entity names (left out of topic overlap)."""
    out: set[str] = set()
    for s in surfaces:
        out |= topic(s)
    return frozenset(out)
