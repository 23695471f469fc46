"""Dates in languages the time grammar does not cover, through dateparser.

graphmem.extract.timex reads en, fr, pt, zh, de and es. A log written in Italian, Dutch, Polish...
still says "ieri" or "la settimana scorsa": :func:`file_language` names the language of a
file (from its translated Retain heading, else from its most frequent function words) and
:func:`fallback_times` asks dateparser (200+ languages) for that one language only. Its
traps are guarded, as DEPENDENCIES.md lists them:

- `languages=` is always set (auto-detection costs 36–138 ms a sentence and guesses wrong);
- a match without a letter ("8080", "1.5") or with a year outside 1900–2100 is dropped;
- a bare duration ("3 giorni": a number and a unit, no "fa"/"geleden") is dropped: it
  resolves differently against two reference days in the same month and has two words;
- a month without a day ("in marzo") is the whole month: resolved with
  PREFER_DAY_OF_MONTH "first" and "last", and the two ends differ;
- dates are preferred from the past (logs record history), relative to the file's day;
- ranges are not joined (dateparser reads neither end of "3–9 aprile" as a range).

dateparser costs about a millisecond per clause it reads, dated or not, so it only reads
text around a candidate: a word holding a digit or a word of the language's date
vocabulary (its month and weekday names, time units and relative words, from dateparser's
own locale data, :func:`date_words`), with WINDOW_WORDS words either side (and any run of
dateparser's connectors such as "e", "alle", "fa" after those). Text without a candidate
costs one regex pass. Windows dense with dates still cost ~50-70 µs a character, so one file
gives dateparser at most FILE_CHARS characters (a :class:`Budget`): past them, its blocks are
dated as in any other language (the file's day, ISO dates and the grammar's languages).

Without dateparser installed, :func:`fallback_times` returns nothing and
:func:`fallback_notice` says so once; ISO dates still come from the grammar.
"""

from __future__ import annotations

import calendar
import re
from collections import Counter
from datetime import date, datetime
from functools import lru_cache
from typing import Any

from graphmem.extract.timewords import GRAMMAR_LANGUAGES
from graphmem.extract.timex import TimeSpan

#: Translated "## Retain" headings and the language each one names.
RETAIN_LANGUAGES = {
    "retain": "en", "retenir": "fr", "reter": "pt", "保留": "zh", "behalten": "de",
    "retener": "es", "conservare": "it", "ricorda": "it", "onthouden": "nl", "bewaren": "nl",
    "zachowaj": "pl", "behåll": "sv", "behold": "da", "reține": "ro",
}  # fmt: skip
# A handful of frequent function words per language: enough to tell a page's language.
_FUNCTION_WORDS = {
    "en": "the and is was of to in that with for on she he we it",
    "fr": "le la les et est des une avec pour dans elle il nous pas sur",
    "pt": "o os que não com uma para é ela ele nós foi em do da",
    "de": "der die das und ist nicht mit ein eine sie er wir war auf den",
    "es": "el los las y que es con una para por ella él fue del muy",
    "it": "il che di è per una sono con della gli lei lui siamo ho anche",
    "nl": "de het een en van is niet met dat zijn op ze hij wij ook",
    "pl": "i w na nie się z do że jest to jak po ale był",
    "sv": "och att det är som en på med för inte jag har var till",
    "da": "og at det er som en på med for ikke jeg har var til",
    "ro": "și în este că nu cu pe la un o pentru mai fost",  # not "am": German "am Montag"
}
#: Function words are counted in a file's first LANGUAGE_CHARS characters: a page's
#: language shows long before that, and counting all of a 1 MB file took a second.
LANGUAGE_CHARS = 100_000
_LANGS_OF: dict[str, tuple[str, ...]] = {}
for _lang, _words in _FUNCTION_WORDS.items():
    for _word in _words.split():
        _LANGS_OF[_word] = (*_LANGS_OF.get(_word, ()), _lang)
_TOKEN = re.compile(r"[^\W\d_]+")
_CJK = re.compile(r"[\u3400-\u9fff]")
_BARE_DURATION = re.compile(r"\d{1,3}\s+[^\W\d_]+")
_WORD = re.compile(r"\S+")
_DIGIT = re.compile(r"\d")
_REGEX_ESCAPE = re.compile(r"\\.")
#: Words of context kept either side of a candidate word: a date phrase is short ("lunedì
#: 3 marzo 2025 alle 15:30" is six words), and dateparser's chunks end at a word it does
#: not know.
WINDOW_WORDS = 6
#: At most this many connector words ("e", "alle", "di") extend a window past its context.
_MAX_CONNECTORS = 8
#: Locale entries whose words can carry a date by themselves (with or without a number).
_DATE_KEYS = (
    *(calendar.month_name[m].casefold() for m in range(1, 13)),
    *(calendar.day_name[d].casefold() for d in range(7)),
    "year", "month", "week", "day", "hour", "minute", "second",
)  # fmt: skip
#: Locale entries whose words only join a date's parts ("fa", "in", "alle", "di").
_CONNECTOR_KEYS = ("ago", "in", "skip", "pertain", "am", "pm")
_SETTINGS: dict[str, Any] = {"PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False}
_NOTICE = "dateparser not installed: dates in {lang} logs come only from ISO dates"
#: Characters of one file (its windows, summed) that dateparser reads at most. 1 MB of short
#: Italian lines with a date or two each is nearly all windows and took ~41 s of CPU; the
#: densest daily log of clawd-dev, the fixtures and LoCoMo's workspaces (read as Italian,
#: Dutch or Polish: none is in a fallback language) hands it 3,205 characters, their
#: largest file of any kind 12,506 (a 15 KB README). 20,000 is ~1-1.5 s of dateparser.
FILE_CHARS = 20_000
BUDGET_NOTICE = (
    "dateparser budget reached ({chars:,} characters a file); later lines are dated by the "
    "day only, not by their dates in '{lang}' (split the file to have them read)"
)


class Budget:
    """What is left of one file's FILE_CHARS characters for dateparser. Once a block's
    windows do not fit, the budget is `spent` and no later block of the file is read (so a
    warning can say from which line on dates were not read)."""

    def __init__(self, chars: int | None = None) -> None:
        self.left = FILE_CHARS if chars is None else chars
        self.spent = False

    def take(self, chars: int) -> bool:
        """Spend `chars` if they fit (True); else mark the budget spent (False)."""
        if not self.spent and chars <= self.left:
            self.left -= chars
            return True
        self.spent = True
        return False


def file_language(texts: list[str], headings: list[str]) -> str | None:
    """The language of a file: its translated Retain heading, else the language whose
    function words occur most (at least 3 hits, 1.5 times the runner-up's) in the first
    LANGUAGE_CHARS characters of its `texts`, else None."""
    for heading in headings:
        lang = RETAIN_LANGUAGES.get(heading.rsplit(">", 1)[-1].strip().casefold())
        if lang:
            return lang
    counts: Counter[str] = Counter()
    cjk = 0
    room = LANGUAGE_CHARS
    for text in texts:
        if room <= 0:
            break
        text, room = text[:room], room - len(text)
        cjk += len(_CJK.findall(text))
        for token, n in Counter(_TOKEN.findall(text.casefold())).items():
            for lang in _LANGS_OF.get(token, ()):
                counts[lang] += n
    ranked = counts.most_common(2)
    if cjk > 20 and (not ranked or cjk > ranked[0][1]):
        return "zh"
    if not ranked or ranked[0][1] < 3:
        return None
    if len(ranked) > 1 and 2 * ranked[0][1] < 3 * ranked[1][1]:
        return None
    return ranked[0][0]


def needs_fallback(language: str | None) -> bool:
    """True for a detected language the grammar does not read."""
    return language is not None and language not in GRAMMAR_LANGUAGES


@lru_cache(maxsize=1)
def _search() -> Any:
    try:
        from dateparser.search import search_dates
    except ImportError:
        return None
    return search_dates


def fallback_notice(language: str) -> str | None:
    """The one-line notice to show when dateparser is missing (None when it is there)."""
    return None if _search() is not None else _NOTICE.format(lang=language)


@lru_cache(maxsize=4096)
def _parse(text: str, language: str, base: date, prefer_day: str = "") -> datetime | None:
    """dateparser's first date in `text` relative to `base` (PREFER_DAY_OF_MONTH
    `prefer_day`, if given). Cached: each date found costs two or three of these calls (about
    1 ms each), and a log repeats its "ieri", "oggi" and "la settimana scorsa" on one day."""
    settings = {**_SETTINGS, "RELATIVE_BASE": datetime(base.year, base.month, base.day)}
    if prefer_day:
        settings["PREFER_DAY_OF_MONTH"] = prefer_day
    found = _search()(text, languages=[language], settings=settings)
    return found[0][1] if found else None


def _words_of(phrase: str) -> list[str]:
    """The casefolded words of a locale phrase (a regex's escapes are not words)."""
    return _TOKEN.findall(_REGEX_ESCAPE.sub(" ", phrase).casefold())


@lru_cache(maxsize=64)
def date_words(language: str) -> tuple[frozenset[str], frozenset[str], re.Pattern[str]] | None:
    """(date words, connector words) of `language` from dateparser's locale data.

    Date words: month and weekday names and their abbreviations, time units, and of each
    relative phrase ("ieri", "settimana scorsa", "altro ieri") and simplification ("un'ora")
    one word: one already in the set if it has one ("settimana", "ieri", "ora"), else its
    longest. A date dateparser finds holds a digit or one of these. Connectors join a
    date's parts ("fa", "alle", "e"). The pattern finds a digit or a date word in casefolded
    text. None without dateparser or for a language it does not know.
    """
    try:
        from dateparser.languages.loader import default_loader

        info = default_loader.get_locale(language).info
    except Exception:  # ImportError, or an unknown language code (dateparser raises several)
        return None
    words: set[str] = set()
    for key in _DATE_KEYS:
        for phrase in info.get(key, []):
            words.update(_words_of(phrase))
    phrases = [p for ps in info.get("relative-type", {}).values() for p in ps]
    phrases += [p for entry in info.get("simplifications", []) for p in entry]
    for phrase in sorted(phrases, key=lambda p: len(_words_of(p))):  # single words first
        parts = _words_of(phrase)
        if parts and not words.intersection(parts):
            words.add(max(parts, key=len))
    connectors: set[str] = set()
    for key in _CONNECTOR_KEYS:
        for phrase in info.get(key, []):
            connectors.update(_words_of(phrase))
    alternatives = "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
    candidate = re.compile(rf"\d|(?<![^\W\d_])(?:{alternatives})(?![^\W\d_])")
    return frozenset(words), frozenset(connectors - words), candidate


def _windows(text: str, language: str) -> list[tuple[int, int]]:
    """Character ranges of `text` around its candidate words, in order and disjoint: what
    dateparser has to read to find every date it would find in all of `text`."""
    vocabulary = date_words(language)
    if vocabulary is None:
        return [(0, len(text))]
    words, connectors, candidate = vocabulary
    if candidate.search(text.casefold()) is None:
        return []  # one regex pass: most of a log's clauses hold no date
    tokens = [(m.start(), m.end(), m.group().casefold()) for m in _WORD.finditer(text)]
    kinds = []  # 2: a candidate, 1: a connector, 0: any other word
    for _, _, token in tokens:
        parts = _TOKEN.findall(token)
        if _DIGIT.search(token) or any(p in words for p in parts):
            kinds.append(2)
        else:
            kinds.append(1 if parts and all(p in connectors for p in parts) else 0)
    ranges: list[tuple[int, int]] = []
    last = len(tokens) - 1
    for i, kind in enumerate(kinds):
        if kind != 2:
            continue
        lo, hi = max(0, i - WINDOW_WORDS), min(last, i + WINDOW_WORDS)
        if ranges and lo <= ranges[-1][1] + 1:
            ranges[-1] = (ranges[-1][0], hi)  # overlaps or touches the previous window
            continue
        ranges.append((lo, hi))
    spans = []
    for lo, hi in ranges:
        stop = max(0, lo - _MAX_CONNECTORS)
        while lo > stop and kinds[lo - 1] == 1:
            lo -= 1
        stop = min(last, hi + _MAX_CONNECTORS)
        while hi < stop and kinds[hi + 1] == 1:
            hi += 1
        spans.append((tokens[lo][0], tokens[hi][1]))
    return spans


def fallback_times(
    text: str, day: date | None, language: str, budget: Budget | None = None
) -> list[TimeSpan]:
    """Time expressions dateparser finds in `text` (in `language`), relative to `day`.

    Empty without a day, without dateparser, or for a language dateparser does not know.
    dateparser reads only the windows of `text` around candidate words (:func:`_windows`),
    and, with a `budget`, only if they fit in what is left of it (else: empty, and the
    budget is spent).
    """
    search = _search()
    if search is None or day is None or not text.strip() or (budget is not None and budget.spent):
        return []
    windows = _windows(text, language)
    if budget is not None and not budget.take(sum(stop - start for start, stop in windows)):
        return []
    base = datetime(day.year, day.month, day.day)
    settings = {**_SETTINGS, "RELATIVE_BASE": base}
    spans: list[TimeSpan] = []
    for start, stop in windows:
        window = text[start:stop]
        try:
            found = search(window, languages=[language], settings=settings) or []
        except (ValueError, KeyError, RuntimeError):  # an unknown language code, or its bugs
            return []
        cursor = 0
        for surface, when in found:
            at = window.find(surface, cursor)
            if at < 0:
                continue
            cursor = at + len(surface)
            span = _guarded(surface, when, day, language)
            if span is not None:
                spans.append(
                    TimeSpan(span[0], span[1], surface, start + at, start + cursor, span[2])
                )
    return spans


def _guarded(
    surface: str, when: datetime, day: date, language: str
) -> tuple[date, date, str] | None:
    """(start, end, granularity) of one dateparser match, or None for a known trap."""
    if not any(ch.isalpha() for ch in surface) or not 1900 <= when.year <= 2100:
        return None  # "8080", "1.5", "2 3"
    words = surface.split()
    if len(words) == 1 and len(surface) < 4 and not any(ch.isdigit() for ch in surface):
        return None  # a short word that happens to be a date word somewhere
    if _BARE_DURATION.fullmatch(surface.strip()):
        # Counted back from two reference days, a duration keeps its distance to them.
        shifted = day.replace(day=1 if day.day > 14 else 28)
        here, there = _parse(surface, language, day), _parse(surface, language, shifted)
        if here and there and day - here.date() == shifted - there.date():
            return None  # "3 giorni": a duration, not a date
    first = _parse(surface, language, day, "first")
    last = _parse(surface, language, day, "last")
    if first and last and first.day == 1 and last.day >= 28 and first.month == last.month:
        end = first.replace(day=calendar.monthrange(first.year, first.month)[1])
        return first.date(), end.date(), "month"  # a month without a day: all of it
    return when.date(), when.date(), "day"
