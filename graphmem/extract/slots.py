"""Typed values in a sentence: the attribute a statement sets, by the shape of its value.

A phone number, an IP address, a port, a version of a named thing, a config key's value,
a price, the days of a weekly habit, a workload (full-time or part-time, a closed pair in
each language): these are recognised by shape or closed class, not by the words around
them, so they work in every language the logs use ("Número novo da Graça: +351 933 481 660"
and "mobile +351 917 302 118" both set ``phone``). Two statements about the same entity
that set the same slot to different values are a change of state: the newer one supersedes
the older (graphmem.compile.supersede), and recall demotes the older one for questions
about the present.

Each pattern is linear: no nested quantifiers over the same characters, and no unbounded
run tried again from every position inside it (a host name's label before ".lan" has at
most 63 characters, as in DNS: an unbounded one read the whole rest of a "-1-1-1…" line
from each of its positions).
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from graphmem.extract import timewords as W
from graphmem.text.stopwords import ENGLISH

PHONE, IP, PORT, VERSION, SETTING, DATABASE, COUPLE, WEEKLY, PRICE, WORKLOAD = (
    "phone", "ip", "port", "version", "setting", "database", "couple", "weekly", "price",
    "workload",
)  # fmt: skip
#: Phone numbers compare by their last digits: "+351 912 448 305" and "912 448 305" are one.
PHONE_DIGITS = 9

_DIGIT = re.compile(r"\d")
_PHONE = re.compile(r"(?<![\w+])\+\d{1,3}(?:[ .-]?\d{2,4}){2,4}(?!\d)")
#: A phone number written without its country code: three to five groups of 2-4 digits
#: with one separator ("912 448 305", "415-555-0100", "06 12 34 56 78"). The groups are
#: bounded, so the match is linear; `_local_phones` drops amounts and dates of that shape.
_LOCAL_PHONE = re.compile(
    r"(?<![\w+.,€$£/:-])(\d{2,4}([ .-])\d{2,4}(?:\2\d{2,4}){1,3})(?![\w%€$£]|[.,:/-]\d)"
)
_AMOUNT_AFTER = re.compile(r"\s?(?:[€$£%]|(?:eur|usd|gbp|brl|chf|euros?)\b)", re.IGNORECASE)
_IP = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{2,5}))?(?![\d.]*\d)")
_PORT = re.compile(
    r"\b(?:port|porta|porte|puerto|Port|端口)\s*:?\s*(\d{2,5})\b|"
    r"\b(?:localhost|[\w-]{1,63}+\.(?:lan|local|internal)):(\d{2,5})\b",
    re.IGNORECASE,
)
# _PORT without the host alternative, for text where no host can match (most text): the
# same matches, without trying a host name at every word.
_HOST_PORT = re.compile(r"\.(?:lan|local|internal):", re.IGNORECASE)
_PORT_NO_HOST = re.compile(
    r"\b(?:port|porta|porte|puerto|Port|端口)\s*:?\s*(\d{2,5})\b|\b(?:localhost):(\d{2,5})\b",
    re.IGNORECASE,
)
_VERSION = re.compile(r"\b([A-Z][\w-]{1,40})\s+v?(\d+\.\d+(?:\.\d+)?)(?![.\d])")
#: ``retry.maxAttempts = 5``, ``crawler.maxConcurrent: 12``, ``batchSize from 500 to 800``.
_SETTING = re.compile(
    r"\b([A-Za-z_][\w-]{0,40}(?:\.[A-Za-z_][\w-]{0,40}){1,4})\s*(?:=|:|\bto\b|\bis now\b)\s*"
    r"\"?([\w.:/-]{1,60})"
)
_SETTING_CHANGE = re.compile(
    r"\b([A-Za-z_][\w-]{0,40}(?:\.[A-Za-z_][\w-]{0,40}){1,4})\b[^.;\n]{0,40}?\bfrom\s+"
    r"\"?([\w.:/-]{1,60})\"?\s+to\s+\"?([\w.:/-]{1,60})"
)
#: Database engines by name (a closed vocabulary, like a shape): name -> canonical value.
_ENGINES = {
    "sqlite": "sqlite", "sqlite3": "sqlite", "postgres": "postgresql", "postgresql": "postgresql",
    "mysql": "mysql", "mariadb": "mariadb", "mongodb": "mongodb", "mongo": "mongodb",
    "duckdb": "duckdb", "cockroachdb": "cockroachdb", "clickhouse": "clickhouse",
    "dynamodb": "dynamodb", "cassandra": "cassandra", "couchdb": "couchdb",
    "firebird": "firebird", "timescaledb": "timescaledb", "supabase": "supabase",
}  # fmt: skip
_ENGINE = re.compile(
    r"(?<![\w./-])(" + "|".join(sorted(_ENGINES, key=len, reverse=True)) + r")(?![\w-])",
    re.IGNORECASE,
)
_STORED = re.compile(
    r"\b(?:stores?|storing|stored|keeps?|kept|persists?|saves?|writes?|runs?|running|uses?|"
    r"using|on|in|backed\s+by|database(?:\s+is)?|to|em|no|na|sur|sous|dans|auf|mit|en|con)\s+"
    r"(?:[\w/.-]+\s+){0,2}?(" + "|".join(sorted(_ENGINES, key=len, reverse=True)) + r")(?![\w-])",
    re.IGNORECASE,
)
#: A couple's status, by cue words (the other person's name must follow where one is named).
_COUPLE = (
    (
        "separated",
        r"\b(?:broke\s+up|split\s+up|separated|divorced|séparée?s?|divorcée?s?|separad[oa]s?|"
        r"divorciad[oa]s?|getrennt|geschieden)\b",
    ),
    ("married", r"\b(?:married|got\s+married|mariée?s?|casad[oa]s?|verheiratet)\b"),
    ("engaged", r"\b(?:engaged|fiancée?s?|noiv[oa]s?|verlobt|prometid[oa]s?|comprometid[oa]s?)\b"),
    (
        "together",
        r"\b(?:liv(?:e|es|ing)\s+together|moved\s+in\s+(?:together|with\s+(?-i:[A-Z])))|"
        r"viv(?:em|en|ent)\s+juntos|vivent\s+ensemble|habitent\s+ensemble|wohnen\s+zusammen|"
        r"moram\s+juntos|zusammengezogen|emménag\w*\s+ensemble",
    ),
    (
        "dating",
        r"\b(?:is\s+seeing|are\s+seeing|dating|going\s+out\s+with|namora(?:m|ndo)?|"
        r"sort\s+avec|sale\s+con|is\s+with\s+(?:her|his)\s+(?:boyfriend|girlfriend))\s+(?-i:[A-Z])",
    ),
)
_COUPLE_RX = [(status, re.compile(rx, re.IGNORECASE)) for status, rx in _COUPLE]
#: Words that say an engine is gone: "SQLite retired", "from SQLite to", "instead of MySQL".
_ENGINE_GONE = re.compile(
    r"(?:\b(?:from|off|instead\s+of|replac\w*|no\s+longer\s+(?:on|uses?)|dropp\w*|ditch\w*)\s+"
    r"(?:the\s+)?(?P<a>\w+)|(?P<b>\w+)\s+(?:\(\w+\)\s+)?(?:is\s+|was\s+|has\s+been\s+)?"
    r"(?:retired|dropped|removed|decommissioned|gone|abandoned|replaced|deleted|"
    r"aposentad[oa]|abandonad[oa]|abandonné|retiré|entfernt|abgelöst|retirad[oa]))",
    re.IGNORECASE,
)
#: A stated value that does not last: it never ends the value it temporarily replaces.
_TEMPORARY = re.compile(
    r"\b(?:temporar\w*|for now|until|till|provisoire\w*|tempor[aá]ri\w*|vorübergehend|"
    r"bis|hasta|jusqu['’]?\w*|até|if|would|might|could|plan\w*|maybe|tried|trying|try|"
    r"testing|staging|experiment\w*|essai\w*|probier\w*|probando|tentative)\b|暂时|临时|试",
    re.IGNORECASE,
)


class Slot(NamedTuple):
    """One value a statement gives: its type, a key (the setting's or thing's name, or
    ``""``) and the normalised value."""

    type: str
    key: str
    value: str


#: An aside naming the value a statement replaced: "(was 192.168.1.40 in Lyon)".
_FORMER = re.compile(
    r"\((?:was|were|formerly|previously|before|old|ex|antes|era|eram|ancien(?:ne)?|avant|"
    r"était|früher|vorher|zuvor|alt|antiguo|antigua|anteriormente)\b[^()]*\)",
    re.IGNORECASE,
)


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())


#: How much someone works: a closed pair of values in every language of the logs ("full-time",
#: "tempo inteiro", "temps plein", "Vollzeit", "jornada completa" / "part-time", "meio
#: período", "mi-temps", "Teilzeit", "media jornada"). Not "part-timer" (a person).
_WORKLOAD = re.compile(
    r"(?<![\w-])(?:(?P<full>full[- ]?time|tempo (?:inteiro|integral)|(?:à )?plein[- ]temps|"
    r"temps plein|vollzeit|jornada completa|tiempo completo)"
    r"|(?P<part>part[- ]?time|meio[- ](?:período|periodo|tempo)|tempo parcial|temps partiel|"
    r"mi[- ]temps|teilzeit|media jornada|tiempo parcial))(?![\w-])",
    re.IGNORECASE,
)
_WORKLOAD_HINT = ("time", "tempo", "temps", "zeit", "jornada", "período", "periodo", "tiempo")


def slots(text: str) -> list[Slot]:
    """The typed values `text` states, in order, one per (type, key) (the last wins,
    so "from 5 to 8" states 8)."""
    found: dict[tuple[str, str], str] = {}
    if "(" in text:
        text = _FORMER.sub(_blank, text)  # "192.168.0.40 (was 192.168.1.40)" states the first
    lowered = text.lower()
    if any(hint in lowered for hint in _WORKLOAD_HINT):
        for m in _WORKLOAD.finditer(text):  # the last wins: "from part-time to full-time"
            found[(WORKLOAD, "")] = "full" if m["full"] else "part"
    # Most text holds no digit or no dot, without which most patterns cannot match: they
    # are skipped (every fact and sentence of the workspace comes here).
    digit = _DIGIT.search(text) is not None
    dot = "." in text
    if not digit and not dot:
        return [Slot(t, k, v) for (t, k), v in found.items()]
    for m in _PHONE.finditer(text) if digit and "+" in text else ():
        digits = re.sub(r"\D", "", m.group(0))
        if len(digits) >= 8:
            found[(PHONE, "")] = digits[-PHONE_DIGITS:]
    if (PHONE, "") not in found and digit:
        for digits in _local_phones(text):
            found[(PHONE, "")] = digits[-PHONE_DIGITS:]
    for m in _IP.finditer(text) if digit and dot else ():
        address = m.group(1)
        if address.startswith(("127.", "0.")):
            pass  # loopback or "any": a bind address, not the host's address
        elif all(0 <= int(part) <= 255 for part in address.split(".")):
            found[(IP, "")] = address
        if m.group(2):
            found[(PORT, "")] = m.group(2)
    for m in (_PORT if _HOST_PORT.search(text) else _PORT_NO_HOST).finditer(text) if digit else ():
        found[(PORT, "")] = m.group(1) or m.group(2)
    for m in _VERSION.finditer(text) if digit and dot else ():
        found[(VERSION, m.group(1).casefold())] = m.group(2)
    for m in _SETTING.finditer(text) if dot else ():
        key = m.group(1)
        if _IP.fullmatch(key) or key.replace(".", "").isdigit():
            continue
        found[(SETTING, key.casefold())] = m.group(2).strip("\"'.").casefold()
    for m in _SETTING_CHANGE.finditer(text) if dot else ():
        found[(SETTING, m.group(1).casefold())] = m.group(3).strip("\"'.").casefold()
    for key, days in _weekly(text):
        found[(WEEKLY, key)] = days
    for key, amount in _prices(text) if digit else ():
        found[(PRICE, key)] = amount
    return [Slot(t, k, v) for (t, k), v in found.items()]


def _local_phones(text: str) -> list[str]:
    """The digits of each national phone number in `text` (see _LOCAL_PHONE): 8-12 digits,
    not an amount ("12 500 000 €", "€ 12 500 000"), not a date ("2026-05-03", "03.05.2026")
    and not four dotted groups (an address, "10.20.30.40")."""
    out = []
    for m in _LOCAL_PHONE.finditer(text.replace("\n", " ")):  # a hard wrap inside the number
        groups = re.split(r"[ .-]", m.group(1))
        digits = "".join(groups)
        shape = tuple(len(g) for g in groups)
        if not 8 <= len(digits) <= 12:
            continue
        if m.group(2) != " " and (shape in ((4, 2, 2), (2, 2, 4)) or len(groups) == 4):
            continue
        currency_before = text[max(0, m.start() - 2) : m.start()].strip() in ("€", "$", "£")
        if currency_before or _AMOUNT_AFTER.match(text, m.end()):
            continue
        out.append(digits)
    return out


def _fold_word(word: str) -> str:
    return "".join(
        c for c in unicodedata.normalize("NFD", word.casefold()) if not unicodedata.combining(c)
    )


def _weekday_names() -> dict[str, int]:
    """Every weekday name of W.WEEKDAYS, as written and without accents -> 0 (Monday)..6."""
    names: dict[str, int] = {}
    for table in W.WEEKDAYS.values():
        for n, group in enumerate(table.split("|")):
            for word in group.split():
                names[word] = names[_fold_word(word)] = n
    return names


_WEEKDAY_NUMBER = _weekday_names()
_DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_WEEKDAY_ALT = "|".join(sorted(map(re.escape, _WEEKDAY_NUMBER), key=len, reverse=True))
#: A weekday named as a habit (graphmem.extract.timex reads these as no date): a plural
#: ("Tuesdays", "terças-feiras", "sábados", "mardis", "dienstags"), after "every"/"todas
#: as"/"jeden"/"los" (W.EVERY), or before a plural part of the day ("Tuesday nights").
_HABIT = re.compile(
    rf"(?<!\w)(?:(?P<every>{'|'.join(W.EVERY)}|los)\s+)?(?P<wd>{_WEEKDAY_ALT})"
    rf"(?P<plural>s(?:-feiras)?)?(?:\s+(?P<part>{'|'.join(sorted(W.PLURAL_PARTS))}))?(?!\w)",
    re.IGNORECASE,
)
_WEEKDAY_HINT = re.compile(rf"(?<!\w)(?:{_WEEKDAY_ALT})", re.IGNORECASE)
_CLAUSE = re.compile(r"[^,;:.!?()\[\]—–\n]+")
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
#: Words that name no activity, besides English stop words: function words of the other
#: languages, "now"/"agora"/"jetzt", and the time words a schedule is written with.
_NOT_ACTIVITY = ENGLISH | frozenset(
    "now agora maintenant jetzt ahora ja já desde since from starting only also too still "
    "às as aos nas nos os das dos de do da em no na um uma o a e et le la les des du au aux "
    "en un une am im um der die das den dem ein eine und el los las del al y cada todas todos "
    "every each chaque tous toutes jeden jede jedem noite noites nuit soir soirs matin "
    "morning mornings evening evenings night nights afternoon afternoons tarde tardes manhã "
    "manhãs abend abends morgen morgens".split()
)
#: "also", "too", "também", "aussi", "auch", "además": a habit added, not one replaced.
_ADDED = frozenset({"also", "too", "também", "aussi", "auch", "además", "tambien", "también"})


def _weekly(text: str) -> list[tuple[str, str]]:
    """(activity, days) for each weekly habit `text` states: the days a habit is on
    ("trains on Tuesday nights" -> ("train", "tue"); "Training now Wednesdays" -> ("train",
    "wed"); "fechado às segundas e terças" -> ("fecha", "mon tue")). The activity is the
    content word nearest before the first weekday in its clause, cut to five letters, so
    "trains", "training" and "trainer" are one; a clause with no word before its weekday,
    or that adds a habit ("also on Fridays"), states none."""
    if not _WEEKDAY_HINT.search(text):
        return []
    out: dict[str, set[int]] = {}
    for clause in _CLAUSE.finditer(text):
        part = clause.group()
        named = [
            (
                m.start(),
                _WEEKDAY_NUMBER[_fold_word(m["wd"])],
                bool(m["every"] or m["plural"] or m["part"]),
            )
            for m in _HABIT.finditer(part)
        ]
        if not any(habit for _, _, habit in named):
            continue  # "every Monday and Thursday": once one day is a habit, all are
        first = named[0][0]
        days = [day for _, day, _ in named]
        words = [w.lower() for w in _WORD.findall(part[:first])]
        if _ADDED & {w.lower() for w in _WORD.findall(part)}:
            continue
        activity = next(
            (w for w in reversed(words) if len(w) > 2 and w not in _NOT_ACTIVITY
             and _fold_word(w) not in _WEEKDAY_NUMBER),
            None,
        )  # fmt: skip
        if activity is not None:
            out.setdefault(_fold_word(activity)[:5], set()).update(days)
    return [(key, " ".join(_DAY_NAMES[d] for d in sorted(v))) for key, v in out.items()]


#: An amount of money: a currency sign before or after digits ("€1.10", "1,30 €", "£4.50",
#: "R$ 12", "3.20 EUR"). Groups of three after a separator are thousands ("€1,150"), and
#: so are groups of three after a space, as French and Portuguese write them ("1 400 €",
#: with a plain, no-break or narrow no-break space): tried first, so "1 400 €" is not 400.
_NUMBER = r"\d{1,6}(?:[.,]\d{3}){0,3}(?:[.,]\d{1,2})?"
_SPACED = r"\d{1,3}(?:[ \u00a0\u202f]\d{3}){1,3}(?:[.,]\d{1,2})?"
_AMOUNT = re.compile(
    rf"(?:(?<![\w])(?:R\$|[€$£])\s?(?P<a>{_SPACED}|{_NUMBER})(?![\d.,]*\d))"
    rf"|(?:(?<![\w.,])(?P<b>{_SPACED}|{_NUMBER})\s?(?:€|eur\b|euros?\b))",
    re.IGNORECASE,
)
#: What ends the phrase naming the thing a price is for: a list separator, a bracket, a
#: dash, or a sentence end (a period followed by a space, so "€1.10" stays whole).
_PRICED_EDGE = re.compile(r"[,;:·•|()\[\]—–\n]|[.!?](?=\s)")
#: Words between a priced thing and its amount that name neither: copulas and the verbs
#: and prepositions a price is given with ("is €1.10", "costs", "sells at", "custa",
#: "passa a", "coûte", "kostet jetzt", "cuesta"), in the languages the logs use.
_NOT_PRICED = _NOT_ACTIVITY | frozenset(
    "is are was were be been costs cost costing sells sell sold selling charge charges "
    "charged goes went gone stays stayed stay up down rises rose raised drops dropped price "
    "agreed paid pays pay paying negotiated asked asks offered offers "
    "priced for at to now about around only just roughly approx approximately asking "
    "é são era foi custa custam custava passa passou fica ficou vale sobe subiu baixa "
    "baixou por para cerca est sont coûte coûtent coûtait passe reste vaut pour environ "
    "ist sind war kostet kosten kostete bleibt steigt für bei etwa ungefähr rund "
    "es son cuesta cuestan costaba pasa sube baja queda vale unos unas".split()
)


def _amount(number: str) -> str:
    """A written amount as a plain number: "1.10" and "1,10" -> "1.10"; "1,150" and
    "1.150" (a group of three) -> "1150"."""
    parts = re.split(r"[.,]", re.sub(r"[ \u00a0\u202f]", "", number))
    if len(parts) > 1 and len(parts[-1]) != 3:
        return "".join(parts[:-1]) + "." + parts[-1].ljust(2, "0")
    return "".join(parts)


def _prices(text: str) -> list[tuple[str, str]]:
    """(thing, amount) for each price `text` gives: the thing is the content word nearest
    before the amount within its phrase, cut to five letters like a weekly habit's activity
    ("Espresso is €1.10" -> ("espre", "1.10"); "flat white €2.80" -> ("white", "2.80"); "o
    galão custa 1,60 €" -> ("galao", "1.60")). An amount with no word before it in its
    phrase ("€38,000 over six years") states none."""
    out: list[tuple[str, str]] = []
    for m in _AMOUNT.finditer(text):
        before = text[max(0, m.start() - 80) : m.start()]
        edges = list(_PRICED_EDGE.finditer(before))
        phrase = before[edges[-1].end() :] if edges else before
        words = [w.lower() for w in _WORD.findall(phrase)]
        thing = next((w for w in reversed(words) if len(w) > 1 and w not in _NOT_PRICED), None)
        if thing is not None:
            out.append((_fold_word(thing)[:5], _amount(m["a"] or m["b"])))
    return out


def database(text: str) -> Slot | None:
    """The one database engine `text` says its subject stores its data in: every engine it
    names after a storing word ("stores everything in SQLite", "runs on Postgres 16",
    "migrated to MySQL") minus those it says are gone ("SQLite retired"); None for none or
    several. A bare mention ("after a Postgres restart", "the old SQLite file") says
    nothing. Kept apart from :func:`slots`: an engine named in passing is no attribute."""
    if text.isascii() and not any(map(text.lower().__contains__, _ENGINES)):
        return None  # (ASCII text matches the pattern's ASCII names case-insensitively only)
    named = {e for m in _ENGINE.finditer(text) if (e := _engine(m.group(1)))}
    if not named:
        return None
    gone = {
        e
        for m in _ENGINE_GONE.finditer(text)
        if (w := m.group("a") or m.group("b")) and (e := _engine(w))
    }
    left = {e for e in named - gone if e in _stored(text)}
    return Slot(DATABASE, "", next(iter(left))) if len(left) == 1 else None


def couple(text: str) -> Slot | None:
    """A couple's status `text` states about its subject ("is seeing Marta", "vivem juntos",
    "engaged", "divorced"): the strongest cue, as ``Slot("couple", "", status)``; None
    without one. "Seeing a doctor" is no cue: a name must follow "seeing"."""
    for status, rx in _COUPLE_RX:
        if rx.search(text):
            return Slot(COUPLE, "", status)
    return None


def _stored(text: str) -> set[str]:
    return {e for m in _STORED.finditer(text) if (e := _engine(m.group(1)))}


def _engine(word: str) -> str | None:
    """The canonical engine of a name a pattern matched, None for none. The patterns match
    case-insensitively as `re` folds case, under which "İ" (U+0130) and "ſ" (U+017F) stand
    for "i" and "s" but do not lower() to them ("SQLİTE".lower() is no key): such a name is
    looked up the way the pattern matched it."""
    found = _ENGINES.get(word.lower())
    if found is None:
        found = next(
            (v for k, v in _ENGINES.items() if re.fullmatch(re.escape(k), word, re.IGNORECASE)),
            None,
        )
    return found


def temporary(text: str) -> bool:
    """The statement marks its value as temporary, conditional or planned."""
    return _TEMPORARY.search(text) is not None
