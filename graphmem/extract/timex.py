"""Time expressions in log text and recall questions, resolved to inclusive day intervals.

A daily log `memory/2025-11-27.md` says "yesterday", "last Tuesday" or "Nov 27–Dec 1, 2025";
a recall question says "in November 2025" or "last week". A small grammar of month, weekday
and relative words (en, fr, pt, de, es, zh; tables in graphmem.extract.timewords) plus ISO dates
finds each expression, and calendar
arithmetic resolves it against a reference day: the log's day, or the question's `now`.
A date only ever comes from a matched expression: "may", "we march on", "port 8080",
"version 1.5" and a bare "13:56" give nothing.

| expression                                 | span                                         |
|--------------------------------------------|----------------------------------------------|
| yesterday, hier, ontem, gestern, ayer, 昨天  | that day                                     |
| 3 days ago, il y a 2 mois, vor 3 Tagen     | the day, or the week/month/year holding it   |
| last/this/next week, month, year; 上周      | that calendar period; weeks run Mon–Sun      |
| the past 30 days, les 7 derniers jours     | reference − 30 days … reference ("range")    |
| Tuesday, last Tuesday, mardi dernier       | the latest Tuesday strictly before reference |
| Tuesday in a clause that looks forward     | the first Tuesday strictly after reference   |
| next Tuesday / this Tuesday                | the first one after it / the one of its week |
| Nov 27, 27 novembre, 19. März (no year)    | the latest ≤ LOOKAHEAD_DAYS after reference  |
| ... in a clause that looks forward         | the first on or after reference              |
| in March, em março, im März, 3月 (no year)  | the latest March not after reference         |
| ... in a clause that looks forward         | the first one not before reference           |
| last / next March                          | the March before / after reference's month   |
| Nov 27–Dec 1, 2025; 27–30 Nov; du 27 au 30 | "range"; a missing year comes from the other |
| since August, desde febrero, seit Oktober  | "open": Aug 1 … reference (or date.max)      |
| until/through Friday, jusqu'au, bis, hasta | that day, `bound` "until" (Friday ahead)     |
| from / as of / à partir de / ab D          | D, `bound` "from"                            |
| ... a yearless D or month, clause untensed | the next one (BOUND_GRACE_DAYS back at most) |
| around Nov 27                              | ±AROUND_DAYS ("range")                       |
| in 2024, depuis 2019, 2024年               | the year (a bare number never is)            |

A clause "looks forward" when graphmem.extract.mood.lean finds forward cues (will, going to, plan,
next, va + infinitive, vai, wird, va a, 打算…) and no nearer past cue (was, -ed, hier, foi,
gestern, fue, 了…): "we will launch in March", written in November, means the coming
March; "we launched in March" the one before. `text` includes a leading preposition the
grammar used ("in March", "since August"). "Morgen"/"mañana" after "heute", "esta"... is
the morning, not tomorrow.
Clock times, hours and minutes are not dates. Without a reference day only expressions that
carry their year resolve. English month words that are also common words ("may", "march",
"mar", "dec") count in lower case only after a preposition or with a year. A known miss:
"in 2000 requests" reads as the year 2000.

dateparser is not called here: the grammar already yields (year, month, day), and
dateparser's answers contradict the rules above ("last week" is one day, "Dec 1" is a year
back, "this friday" is next week's, "2024年" is year 1, "mardi dernier", "há dois dias",
"三天前" are None). It is the fallback for other languages (graphmem.extract.timex_fallback).
"""

from __future__ import annotations

import calendar
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import NamedTuple, TypeVar

from graphmem.extract import timewords as W
from graphmem.extract.mood import Cues, clauses, cues, leaning

#: The grammar's languages: en, fr, pt, zh, de, es (word tables in graphmem.extract.timewords).
DEFAULT_LANGUAGES: tuple[str, ...] = W.GRAMMAR_LANGUAGES
AROUND_DAYS = 3
# A yearless "Nov 27" is taken in the past unless it falls this soon after the reference:
# logs record history, and the plans they mention are weeks ahead, not a season. A clause
# that looks forward ("will", "va", "wird") takes the next one instead.
LOOKAHEAD_DAYS = 92
#: A month named with no tense either way is the coming one if it is at most this many
#: months ahead ("off to Chengdu in July", written in May), else the latest one.
MONTH_LOOKAHEAD = 2
#: A bound ("from", "until", "a partir de", "bis") in a clause with no tense either way is a
#: boundary still to come: "the rent is €900 from 1 September", "Kindergarten until
#: September", written in March. One at most this many days before the reference day is
#: the one just gone ("Yara on the bar from 16 March", written on 20 March).
BOUND_GRACE_DAYS = 31

_LATIN_BEFORE = r"(?<![0-9A-Za-zÀ-ÿ_])"
_ZH_DIGITS = dict(zip("一二三四五六七八九", range(1, 10), strict=True)) | {"两": 2}
_ZH_NUM = r"\d{1,3}|[一二两三四五六七八九十]{1,3}"
_ZH_UNITS = {"天": "day", "日": "day", "周": "week", "星期": "week", "个星期": "week",
             "个月": "month", "年": "year"}  # fmt: skip
_ZH_SIGN = {"上": -1, "去": -1, "这": 0, "本": 0, "今": 0, "下": 1, "明": 1}
# The CJK characters a zh form can start with (besides digits): zh_wd [上下这本]个周星礼,
# zh_per [上这本下去今明], zh_rel (今昨明前后, from timewords.REL_DAYS), zh_off and zh_mon
# numerals, zh_roll 过去/最近. A test checks every zh word of the tables starts with one.
_ZH_LEADS = "上下这本个周星礼去今明昨前后过最一二两三四五六七八九十"
# Between two dates, a range: "Nov 27 – Dec 1", "27 Nov to 1 Dec", "11月27日至12月1日".
_RANGE_GAP = re.compile(
    r"\s*(?:[-–—~至到]|(?:to|until|till|through|thru|au|à|a|até|bis|al|hasta)(?!\w))\s*", re.I
)
_WEEKDAY_GAP = re.compile(r",?\s*")  # a weekday written before the date it names
#: A day of the month right after a weekday: "Friday the 29th", "vendredi 29", "am Freitag,
#: den 29.", "sexta-feira dia 29". Not a time ("Friday 10:30", "Friday 3 pm") nor a date
#: the grammar reads whole ("Friday, 28 November": the next word is checked for a month).
_WEEKDAY_DAY = re.compile(
    r",?\s{1,3}(?:(?:the|le|den|dia|el|o)\s{1,3})?(?P<d>3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th|er|º|°)?"
    r"(?![\d:]|\.\d|\s{0,3}(?:h|am|pm|a\.m|p\.m|uhr)(?!\w))",
    re.IGNORECASE,
)
_NEXT_WORD = re.compile(r"\.?[\s,]{0,12}(?:(?:de|of)\s{1,3})?([^\W\d_]+)")
_AND_GAP = re.compile(r"\s+(?:and|et|e)\s+", re.I)  # only after "between"/"entre"


@dataclass(frozen=True)
class TimeSpan:
    """A resolved time expression: the inclusive days `start`…`end` it refers to.

    `granularity` is "day" (start == end), "week" (Monday–Sunday), "month", "year",
    "range" (two explicit ends, a rolling window or an "around" widening) or "open"
    ("since X": from X's first day to the reference day, or date.max without one).
    `char_start`/`char_end` are offsets of `text` in the input. `bound` is what the
    preposition makes of the span for a validity: "until" ("through D", "jusqu'au D", "bis
    D", "hasta D": valid until D's end), "from" ("from D", "as of D", "ab D": valid from
    D's start), "since" ("since D": from D, still true), or "" (the time of an event).
    """

    start: date
    end: date
    text: str
    char_start: int
    char_end: int
    granularity: str
    bound: str = ""


V = TypeVar("V")
Resolved = tuple[date, date, str]  # start, end, granularity
YMD = tuple[int | None, int, int]  # a calendar day whose year may be missing
_Trie = dict[str, "_Trie"]


class _Atom(NamedTuple):
    """One grammar match: a resolved span, or a bare day waiting for range joining.

    A NamedTuple, not a frozen dataclass: `_replace` is ~10 times faster than
    dataclasses.replace, and a block dense with dates makes thousands of them.
    """

    kind: str
    start: int
    core: int  # where the expression starts after its preposition
    end: int
    role: str
    span: Resolved | None = None
    ymd: YMD | None = None
    lean: int = 0  # 1: its clause looks forward, -1: back (graphmem.extract.mood.lean)


def _key(text: str) -> str:
    """The table key of matched words: case-folded, one space, straight apostrophes."""
    return " ".join(text.casefold().replace("’", "'").split())


def _alt(words: Sequence[str]) -> str:
    """A regex matching any of `words`, longest first; spaces match any whitespace.

    Built as a character trie: the engine tries one branch per letter instead of one per
    word, which matters for a pattern tried at every word start of every passage.
    """
    trie: _Trie = {}
    for word in words:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: _Trie) -> str:
        branches = [
            (r"\s+" if ch == " " else "['’]" if ch == "'" else re.escape(ch)) + emit(child)
            for ch, child in node.items()
            if ch
        ]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return emit(trie) or "(?!)"


def _numbered(table: dict[str, str], languages: Sequence[str]) -> dict[str, int]:
    """{word: n} from "|"-separated groups: the words of the n-th group mean n."""
    return {
        word: n
        for lang in languages
        if lang in table
        for n, group in enumerate(table[lang].split("|"), 1)
        for word in group.split()
    }


def _merged(table: dict[str, dict[str, V]], languages: Sequence[str]) -> dict[str, V]:
    """The entries of `table` for `languages` in one dict, keys folded."""
    return {_key(k): v for lang in languages for k, v in table.get(lang, {}).items()}


@dataclass(frozen=True)
class _Grammar:
    """The compiled patterns and folded word tables for one tuple of languages."""

    pattern: re.Pattern[str]
    prefilter: re.Pattern[str]
    months: dict[str, int]
    weekdays: dict[str, int]
    numbers: dict[str, int]
    units: dict[str, str]
    mods: dict[str, int]
    roles: dict[str, str]
    periods: dict[str, tuple[str, int]]
    reldays: dict[str, int]


@lru_cache(maxsize=16)
def _grammar(languages: tuple[str, ...]) -> _Grammar:
    unknown = sorted(set(languages) - set(DEFAULT_LANGUAGES))
    if unknown:
        raise ValueError(f"unsupported language(s) {unknown}: choose from {DEFAULT_LANGUAGES}")
    latin = [lang for lang in languages if lang != "zh"]
    months = _numbered(W.MONTHS, latin)
    weekdays = {w: n - 1 for w, n in _numbered(W.WEEKDAYS, latin).items()}  # Monday = 0
    numbers, units = _numbered(W.NUMBERS, latin), _merged(W.UNITS, latin)
    prefix, suffix = _merged(W.PREFIX_MODS, latin), _merged(W.SUFFIX_MODS, latin)
    roles, periods = _merged(W.PRE_ROLES, latin), _merged(W.PERIODS, latin)
    # French and Spanish drop the article as often as not: "semaine dernière", "mes pasado".
    # "l'année dernière" drops "l'", not "l'année": "dernière" alone is no date.
    periods |= {k[2:] if k.startswith("l'") else k.split(" ", 1)[1]: v
                for k, v in periods.items() if k.startswith(("la ", "le ", "l'", "el "))}  # fmt: skip
    latin_rel = _merged(W.REL_DAYS, latin)
    zh_rel = _merged(W.REL_DAYS, ["zh"]) if "zh" in languages else {}
    num = rf"(?:{_alt(list(numbers))}|\d{{1,3}})"
    unit = rf"(?:{_alt(list(units))})"
    day = r"(?P<{0}>3[01]|[12]\d|0?[1-9])(?!\d)(?![.:]\d)(?:st|nd|rd|th|er|º|°)?"
    year = r"(?P<{0}>(?:19|20)\d\d)(?!\d)(?![.:]\d)"
    month = rf"(?P<{{0}}>{_alt(list(months))})(?:\.(?=\s*\d))?(?!\w)"
    dash = r"(?:\s*[-–—]\s*|\s+(?:to|until|till|through|thru|au|à|a|até|bis|al|hasta)\s+)"
    of_year = r"(?:,?\s+(?:de\s+)?" + year + r")?"
    before = rf"(?:(?P<{{0}}_pm>{_alt(list(prefix))})\s+)?"
    after = rf"(?:\s+(?P<{{0}}_sm>{_alt(list(suffix))})(?!\w))?"
    # zh forms first: "2025年" must not be read as a bare Latin-script year.
    alts: dict[str, str] = {}
    if "zh" in languages:
        alts |= {
            "zh_wd": r"(?P<zw_p>[上下这本])?个?(?:周|星期|礼拜)(?P<zw_d>[一二三四五六日天])",
            "zh_per": r"(?P<zp_e>[上这本下])个?(?:周末|星期末)|(?P<zp_w>[上这本下])个?(?:星期|周)"
            r"|(?P<zp_m>[上这本下])个?月|(?P<zp_y>[去今明])年",
            "zh_rel": _alt(list(zh_rel)),
            "zh_off": rf"(?<!\d)(?P<zo_n>{_ZH_NUM})\s*(?P<zo_u>{_alt(list(_ZH_UNITS))})"
            r"(?P<zo_d>以前|之前|前|以后|之后|后)",
            "zh_roll": rf"(?:过去|最近)的?\s*(?P<zr_n>{_ZH_NUM})?\s*(?P<zr_u>天|个?星期|周|个月|年)",
            "zh_date": r"(?<!\d)(?P<zy>(?:19|20)\d\d)\s*年(?:\s*(?P<zm>1[0-2]|0?[1-9])\s*月"
            r"(?:\s*(?P<zd>3[01]|[12]\d|0?[1-9])\s*[日号])?)?"
            r"|(?<!\d)(?P<zm2>1[0-2]|0?[1-9])\s*月\s*(?P<zd2>3[01]|[12]\d|0?[1-9])\s*[日号]",
            # A month alone: "2月", "十二月份" (not "2个月", a duration, nor "2月3日").
            "zh_mon": r"(?<![\d一二三四五六七八九十])(?P<zmo>1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])"
            r"\s*月份?(?![\d一二三四五六七八九十])",
        }
    alts |= {
        "period": rf"(?:{_alt(list(periods))})(?!\w)",
        "rolling": rf"(?:(?:{_alt(W.ROLLING_ARTICLES)})\s+)?(?:(?P<rol_w>{_alt(W.ROLLING_WORDS)})"
        rf"|(?P<rol_n0>{num})\s+derni(?:ers|ères))\s+(?:(?P<rol_n>{num})\s+)?"
        rf"(?P<rol_u>{unit})(?!\w)",
        "weekday": before.format("wd")
        + rf"(?P<wd>{_alt(list(weekdays))})(?!\w)"
        + after.format("wd"),
        "offset": rf"(?:(?P<off_back>{_alt(W.AGO_BEFORE)})\s+)?(?P<off_n>{num})\s+(?P<off_u>{unit})"
        rf"(?!\w)(?:\s+(?P<off_dir>{_alt(W.AGO_AFTER)})(?!\w))?",
        "relday": rf"(?:{_alt(list(latin_rel))})(?!\w)",
        "iso": r"(?<![.])(?P<iso_y>(?:19|20)\d\d)(?P<iso_s>[-/])(?P<iso_m>1[0-2]|0?[1-9])"
        r"(?P=iso_s)(?P<iso_d>3[01]|[12]\d|0?[1-9])(?!\d)",
        "md": rf"{month.format('md_m')}\s*(?<=[\s.]){day.format('md_d')}"
        rf"(?:{dash}{day.format('md_d2')})?{of_year.format('md_y')}(?!\w)",
        "dm": rf"(?<![.:/])(?:{day.format('dm_d0')}{dash})?{day.format('dm_d')}\.?\s+(?:of\s+|de\s+)?"
        rf"{month.format('dm_m')}{of_year.format('dm_y')}",
        "my": rf"{month.format('my_m')},?\s+(?:de\s+)?{year.format('my_y')}",
        "mon": before.format("mon") + month.format("mon_m") + after.format("mon"),
        "year": year.format("yr"),
        # A day of the month alone, after an article or "dia": "on the 24th", "até dia 14",
        # "il revient le 16", "vuelve el 16". Not before a noun ("the 3rd floor") or a
        # month ("le 14 juillet", "dia 14 de agosto": read whole above).
        "dom": r"(?P<dom_a>the|dia|día|el\s+día|le|el)\s+(?P<dom_d>3[01]|[12]\d|0?[1-9])"
        r"(?:st|nd|rd|th|º)?(?!\w)(?![.,:]\d)"
        r"(?!\s+(?:of|de|del)\b)(?!\s+(?!(?:at|in|on|and|or|to|until|till|when|before|after|"
        r"for|with|from|by|but|so|because|à|às|ao|a|e|em|para|por|com|mas|et|pour|avec|par|"
        r"mais|y|en|con|pero|um|une)\b)[^\W\d_]{3,})",
    }
    body = "|".join(f"(?P<{name}>{rx})" for name, rx in alts.items())
    pre = rf"(?:(?P<pre>{_alt(list(roles))})(?:(?<=-)|\s+))?"
    # The pattern is tried only where an expression can begin: the start of a word that
    # opens some expression (most words open none), a CJK character that opens a zh form
    # (_ZH_LEADS: trying every CJK character made 1 MB of "年月日" take seconds), or a digit
    # not glued to a Latin letter or digit (CJK characters count as \w, so "在2024年" needs
    # this).
    leads = {w.split()[0] for w in [*roles, *prefix, *periods, *latin_rel, *months, *weekdays,
             *numbers, *W.ROLLING_ARTICLES, *W.ROLLING_WORDS, *W.AGO_BEFORE]}  # fmt: skip
    loose = [w for w in leads if w[-1] in "'-"]  # "l'année", "mid-March"
    gate = (rf"(?:(?<!\w)(?=(?:{_alt([w for w in leads if w not in loose])})(?!\w)"
            rf"|{_alt(loose)})|{_LATIN_BEFORE}(?=\d)|(?=[{_ZH_LEADS}]))")  # fmt: skip
    # A passage with none of these words, no year-like number, no digit-dash-digit and no
    # CJK time character cannot match: most passages stop here.
    words = [*months, *weekdays, *units, *periods, *latin_rel]
    prefilter = (
        rf"(?<!\w)(?:{_alt(words)})(?!\w)|\d[-/]\d|(?:19|20)\d\d|[年月日号天周期前后昨今明]"
        r"|\d(?:st|nd|rd|th)\b|(?<!\w)(?:dia|día|le|el)\s+\d"
    )
    return _Grammar(
        re.compile(gate + pre + f"(?:{body})", re.I), re.compile(prefilter, re.I),
        months, weekdays, numbers, units, {**prefix, **suffix}, roles, periods,
        {**latin_rel, **zh_rel},
    )  # fmt: skip


def _as_date(day: date) -> date:
    """A datetime's date; comparing a datetime with a date raises, so normalise early."""
    return day.date() if isinstance(day, datetime) else day


def _real(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _shift(day: date, n: int, unit: str) -> date:
    """`day` moved by `n` units; month ends clamp (Mar 31 − 1 month = Feb 28)."""
    if unit in ("day", "week"):
        return day + timedelta(days=n * (7 if unit == "week" else 1))
    y, m = divmod(day.year * 12 + day.month - 1 + n * (12 if unit == "year" else 1), 12)
    return date(y, m + 1, min(day.day, calendar.monthrange(y, m + 1)[1]))


def _period(anchor: date, unit: str) -> Resolved:
    """The day, Monday–Sunday week, month or year that holds `anchor`."""
    if unit == "day":
        return anchor, anchor, "day"
    if unit == "week":
        monday = anchor - timedelta(days=anchor.weekday())
        return monday, monday + timedelta(days=6), "week"
    if unit == "month":
        last = calendar.monthrange(anchor.year, anchor.month)[1]
        return anchor.replace(day=1), anchor.replace(day=last), "month"
    return date(anchor.year, 1, 1), date(anchor.year, 12, 31), "year"


def _month_span(
    month: int, direction: int | None, ref: date, lean: int = -1, grace: int = 0
) -> Resolved:
    """A month without a year: None = latest not after `ref` (the first not before it when
    the clause looks forward, `lean` 1, or one ending at most `grace` days before it; when
    it looks neither way, `lean` 0, the latest at most MONTH_LOOKAHEAD months after it), -1
    before, 0 this year, 1 after."""
    y = ref.year
    ahead = (month - ref.month) % 12
    if direction is None and lean > 0 and grace:
        just_gone = _period(date(y - (month > ref.month), month, 1), "month")
        if 0 <= (ref - just_gone[1]).days <= grace:
            return just_gone
    if direction is None and (lean > 0 or (lean == 0 and 0 < ahead <= MONTH_LOOKAHEAD)):
        return _period(date(y + (month < ref.month), month, 1), "month")
    if (direction is None and month > ref.month) or (direction == -1 and month >= ref.month):
        y -= 1
    elif direction == 1 and month <= ref.month:
        y += 1
    return _period(date(y, month, 1), "month")


def _weekday(ref: date, weekday: int, direction: int) -> date:
    """-1: latest such weekday strictly before `ref`; 1: first strictly after; 0: in its week."""
    if direction == 0:
        return ref + timedelta(days=weekday - ref.weekday())
    if direction < 0:
        return ref - timedelta(days=(ref.weekday() - weekday) % 7 or 7)
    return ref + timedelta(days=(weekday - ref.weekday()) % 7 or 7)


def _zh_int(text: str) -> int:
    """ "3" -> 3, "三" -> 3, "十二" -> 12, "二十" -> 20."""
    if text.isdigit():
        return int(text)
    tens, ten, ones = text.partition("十")
    if not ten:
        return _ZH_DIGITS.get(text, 0)
    return _ZH_DIGITS.get(tens, 1) * 10 + _ZH_DIGITS.get(ones, 0)


def _resolve_day(ymd: YMD, ref: date | None, lean: int = 0, grace: int = 0) -> date | None:
    """A day; without a year, the nearest occurrence on or after `grace` days before `ref`
    when the clause looks forward (`lean` 1), otherwise the latest at most LOOKAHEAD_DAYS
    after `ref`."""
    y, m, d = ymd
    if y is not None:
        return _real(y, m, d)
    if ref is None:
        return None
    if lean > 0:  # the nearest on or after `ref` (Feb 29 may be 4 years ahead)
        floor = ref - timedelta(days=grace)
        ahead = (x for year in range(floor.year, ref.year + 5) if (x := _real(year, m, d)))
        return next((x for x in ahead if x >= floor), None)
    # Back or no lean: a past cue (-ed, was, foi...) is as often in "gets installed on 1 June"
    # or "was moved to 27 January" as in a past event, so soon after `ref` stays ahead.
    horizon = ref + timedelta(days=LOOKAHEAD_DAYS)
    found = [x for year in range(ref.year + 1, ref.year - 4, -1) if (x := _real(year, m, d))]
    return next((x for x in found if x <= horizon), None)  # Feb 29 may be 4 years back


def _resolve_range(first: YMD, last: YMD, ref: date | None, lean: int = 0) -> Resolved | None:
    """Two ends; a missing year comes from the other end ("Nov 27–Dec 1, 2025")."""
    (y1, m1, d1), (y2, m2, d2) = first, last
    if y1 is None and y2 is not None:
        y1 = y2 if (m1, d1) <= (m2, d2) else y2 - 1  # "Dec 28–Jan 3, 2026"
    start = _resolve_day((y1, m1, d1), ref)
    if start is None:
        return None
    end = _real(y2 if y2 is not None else start.year + ((m2, d2) < (m1, d1)), m2, d2)
    if lean > 0 and y1 is None and y2 is None and ref and end is not None and end < ref:
        return _resolve_range(first, last, _in_year(ref, ref.year + 1), 0)  # ahead
    return (start, end, "range") if end is not None and end >= start else None


def _in_year(day: date, year: int) -> date:
    """`day` in `year` (Feb 29 becomes Feb 28)."""
    return _real(year, day.month, day.day) or date(year, day.month, 28)


def _absolute(
    kind: str, m: re.Match[str], g: _Grammar, pre: str, atom: _Atom, ref: date | None
) -> _Atom | None:
    """Kinds that name a calendar date; only a yearless month or day needs `ref`."""
    if kind == "iso":
        return atom._replace(ymd=(int(m["iso_y"]), int(m["iso_m"]), int(m["iso_d"])))
    if kind == "zh_date":
        y, mo, d = m["zy"], m["zm"] or m["zm2"], m["zd"] or m["zd2"]
        if d:
            return atom._replace(ymd=(int(y) if y else None, int(mo), int(d)))
        return atom._replace(span=_period(date(int(y), int(mo or 1), 1), "month" if mo else "year"))
    if kind == "year":
        year_span = _period(date(int(m["yr"]), 1, 1), "year")
        return atom._replace(span=year_span) if pre in W.YEAR_PRE else None
    if kind == "zh_mon":
        if ref is None:
            return None
        month = _zh_int(m["zmo"])
        return atom._replace(
            span=_month_span(month, None, ref, _month_lean(atom), _month_grace(atom))
        )
    licensed = atom.role in ("license", "open", "around", "until", "from")
    word, year = m[f"{kind}_m"], m[f"{kind}_y"] if kind != "mon" else None
    if _key(word) in W.AMBIGUOUS_MONTHS and word[:1].islower() and not (year or atom.role):
        return None  # "it may 3x", "we march on"
    month, y = g.months[_key(word)], int(year) if year else None
    if kind in ("md", "dm"):
        # "Nov 27–30" / "27–30 Nov": the second group is the range's end, if any.
        days = [int(d) for d in ((m["md_d"], m["md_d2"]) if kind == "md" else
                                 (m["dm_d0"], m["dm_d"])) if d]  # fmt: skip
        if len(days) == 1:
            return atom._replace(ymd=(y, month, days[0]))
        span = _resolve_range((y, month, days[0]), (y, month, days[1]), ref, atom.lean)
        return atom._replace(span=span) if span else None
    if kind == "my" and y is not None:
        return atom._replace(span=_period(date(y, month, 1), "month"))
    directions = [g.mods[_key(m[x])] for x in ("mon_pm", "mon_sm") if m[x]]
    if ref is None or not (directions or licensed):
        return None  # a bare month name needs "in", "since", "last"... to be a date
    direction = directions[0] if directions else None
    return atom._replace(
        span=_month_span(month, direction, ref, _month_lean(atom), _month_grace(atom))
    )


def _month_lean(atom: _Atom) -> int:
    """How an undirected month resolves: as :func:`_direction` (a bound in an untensed
    clause, "primary school from September", ahead: :data:`BOUND_GRACE_DAYS`), but 0 when
    neither its preposition nor its clause says a way (_month_span then takes a coming
    month)."""
    return 0 if atom.lean == 0 and atom.role in ("", "license") else _direction(atom)


def _month_grace(atom: _Atom) -> int:
    """The days a bound month may lie behind the reference day (:data:`BOUND_GRACE_DAYS`)."""
    return BOUND_GRACE_DAYS if _bound_ahead(atom) else 0


def _bound_ahead(atom: _Atom) -> bool:
    """A "from" or "until" in a clause with no tense either way: a boundary still to come
    (:data:`BOUND_GRACE_DAYS`)."""
    return atom.lean == 0 and atom.role in ("from", "until")


def _direction(atom: _Atom) -> int:
    """Which way an undirected weekday or month resolves: "since" looks back, "until" and
    "from" ahead unless their clause is in the past; otherwise the clause's lean (back when
    it has none)."""
    if atom.role == "open":
        return -1
    if atom.role in ("until", "from"):
        return -1 if atom.lean < 0 else 1
    return 1 if atom.lean > 0 else -1


#: A weekday that owns what follows ("Sunday's run", "Saturday's rush").
_OWNS = re.compile(r"['’]s?\b")
#: A note that opens on a past verb, capitalised ("Moved to Porto on Saturday", "- Fixed
#: the bug on Monday"): the past cues are lower-case only, for names ("Fred", "Ted").
_OPENS_PAST = re.compile(r"[\s\-*+>#]*(?-i:[A-Z][a-z]{2,}ed)\b(?!\s+(?:until|till|through)\b)")
#: Where the clause around a weekday starts: after the last sentence end before it.
_CLAUSE_START = re.compile(r".*[.!?;:\n]", re.DOTALL)


def _weekday_direction(atom: _Atom, text: str, end: int, today: bool) -> int:
    """Which way a weekday without "last"/"next" resolves: as :func:`_direction` when its
    clause has a tense cue or a role ("since", "until"). A clause with no cue at all looks
    ahead: what happened is told with a past verb ("Kenji's box arrived on Friday"), while
    what is coming is noted in the present or with no verb ("Graça picks up the keys on
    Wednesday", "tour starts friday", "Viewing on Tuesday at 11:00"). A weekday that owns
    a noun ("Sunday's run", "Thursday's session") names an event already known: back. A
    cue-less weekday with no preposition that is the reference day's own ("Quiet Monday."
    written on a Monday, `today`) is that day (0: in its week)."""
    if atom.lean != 0 or atom.role in ("open", "until"):
        return _direction(atom)
    if today:
        return 0
    before = text[max(0, atom.start - 200) : atom.start]
    head = _CLAUSE_START.match(before)
    if _OPENS_PAST.match(before, head.end() if head else 0):
        return -1
    return -1 if _OWNS.match(text, end) else 1


def _relative(
    kind: str, m: re.Match[str], g: _Grammar, pre: str, atom: _Atom, ref: date, text: str
) -> _Atom | None:
    """Kinds that count from the reference day."""
    if kind == "relday" and _key(m[kind]) in ("morgen", "mañana"):
        previous = text[: atom.core].split()[-1:]
        if previous and _key(previous[0]) in W.MORNING_BEFORE:
            return None  # "heute Morgen", "esta mañana": this morning, not tomorrow
    if kind in ("relday", "zh_rel"):
        return atom._replace(span=_period(ref + timedelta(days=g.reldays[_key(m[kind])]), "day"))
    if kind in ("period", "zh_per"):
        if kind == "period":
            unit, n = g.periods[_key(m[kind])]
        else:
            unit = (
                "weekend"
                if m["zp_e"]
                else "week"
                if m["zp_w"]
                else "month"
                if m["zp_m"]
                else "year"
            )
            n = _ZH_SIGN[m["zp_e"] or m["zp_w"] or m["zp_m"] or m["zp_y"]]
        if unit == "weekend":  # Saturday and Sunday of that Monday-first week
            monday, _, _ = _period(_shift(ref, n, "week"), "week")
            return atom._replace(
                span=(monday + timedelta(days=5), monday + timedelta(days=6), "range")
            )
        return atom._replace(span=_period(_shift(ref, n, unit), unit))
    if kind == "weekday":
        name, directions = _key(m["wd"]), [g.mods[_key(m[x])] for x in ("wd_pm", "wd_sm") if m[x]]
        if name in W.PT_SHORT_WEEKDAYS and not directions:
            after = " ".join(text[m.end("wd") : m.end("wd") + 20].lower().split())
            if not after.startswith(W.PT_DAY_PARTS):
                return None  # "segunda" alone is also "second"; "sexta à noite" is a day
        if not directions and _habitual(text, m.start("wd"), m.end()):
            return None  # "every Tuesday", "Tuesday nights": a habit, not a date
        today = g.weekdays[name] == ref.weekday() and not pre
        direction = (
            directions[0] if directions else _weekday_direction(atom, text, m.end("wd"), today)
        )
        dated = _weekday_day(text, m.end(), g, ref, g.weekdays[name], direction)
        if dated is not None:
            day, end = dated
            return atom._replace(end=end, span=_period(day, "day"))
        anchor = _weekday(ref, g.weekdays[name], direction)
        return atom._replace(span=_period(anchor, "day"))
    if kind == "dom":
        return atom._replace(span=_period(_day_of_month(int(m["dom_d"]), ref, atom), "day"))
    if kind == "zh_wd":
        weekday, prefix = min("一二三四五六日天".index(m["zw_d"]), 6), m["zw_p"]
        if prefix in ("上", "下"):  # 上周二: Tuesday of last week, not the latest Tuesday
            anchor = _weekday(_shift(ref, _ZH_SIGN[prefix], "week"), weekday, 0)
        else:
            anchor = _weekday(ref, weekday, 0 if prefix else -1)
        return atom._replace(span=_period(anchor, "day"))
    if kind == "offset":
        n, unit = g.numbers.get(_key(m["off_n"])) or int(m["off_n"]), g.units[_key(m["off_u"])]
        after = _key(m["off_dir"] or "")
        sign = -1 if m["off_back"] or after == "ago" else 1 if after or pre in W.FUTURE_PRE else 0
        if not sign:
            return None  # "3 days" alone is a duration, not a date
        return atom._replace(span=_period(_shift(ref, sign * n, unit), unit))
    if kind == "zh_off":
        n, unit = _zh_int(m["zo_n"]), _ZH_UNITS[m["zo_u"]]
        sign = -1 if "前" in m["zo_d"] else 1
        return atom._replace(span=_period(_shift(ref, sign * n, unit), unit))
    if kind == "rolling":
        count = m["rol_n0"] or m["rol_n"]
        if not count and _key(m["rol_w"]) != "past":
            return None  # "the last day of the offsite" is no window; "the past week" is
        n = (g.numbers.get(_key(count)) or int(count)) if count else 1
        return atom._replace(span=(_shift(ref, -n, g.units[_key(m["rol_u"])]), ref, "range"))
    if kind == "zh_roll":
        n = _zh_int(m["zr_n"]) if m["zr_n"] else 1
        return atom._replace(span=(_shift(ref, -n, _ZH_UNITS[m["zr_u"]]), ref, "range"))
    return None


def _day_of_month(n: int, ref: date, atom: _Atom) -> date:
    """The date with day `n` nearest to `ref` (last, this or next month) on the side its
    clause looks to, as for a weekday (:func:`_direction`): "since" and a past verb look
    back ("the parcel came on the 30th"); "until", "from", a future cue or no tense cue at
    all look ahead ("Back on the 14th!", "fechada até dia 14"). The day itself is today."""
    candidates = [
        found
        for k in (-1, 0, 1)
        if (found := _real(*_month_add(ref.year, ref.month, k), n)) is not None
    ]
    back = atom.role == "open" or (atom.lean < 0 and atom.role != "until")
    side = [c for c in candidates if (c <= ref if back else c >= ref)] or candidates
    return min(side, key=lambda c: abs((c - ref).days))


def _habitual(text: str, start: int, end: int) -> bool:
    """Whether the weekday at `start`..`end` names every such day: after "every", "chaque",
    "todas as", "jeden"... (W.EVERY) or before a plural part of the day ("Tuesday nights")."""
    before = " " + text[max(0, start - 16) : start].lower().rstrip()
    if any(before.endswith(" " + word) for word in W.EVERY):
        return True
    after = _NEXT_WORD.match(text, end)
    return after is not None and after[1].lower() in W.PLURAL_PARTS


def _weekday_day(
    text: str, pos: int, g: _Grammar, ref: date, weekday: int, direction: int
) -> tuple[date, int] | None:
    """The date a day of the month written right after a weekday names, and where it ends.

    The day wins over the weekday: the date with that day of the month nearest to `ref`
    (within two months either way) that falls on `weekday`, else the nearest with that
    day; a tie goes `direction`'s way. None when no day follows (see _WEEKDAY_DAY), or a
    unit or month follows it ("Tuesday 2 weeks ago" counts; "Friday 28 November" is read
    whole by the grammar).
    """
    m = _WEEKDAY_DAY.match(text, pos)
    if m is None:
        return None
    after = _NEXT_WORD.match(text, m.end())
    if after is not None:
        word = _key(after[1])
        if word in g.months or word in g.units:
            return None
    n = int(m["d"])
    candidates = [
        found
        for k in range(-2, 3)
        if (found := _real(*_month_add(ref.year, ref.month, k), n)) is not None
    ]
    if not candidates:
        return None
    same = [c for c in candidates if c.weekday() == weekday] or candidates
    best = min(same, key=lambda c: (abs((c - ref).days), (c - ref).days * direction < 0))
    return best, m.end()


def _month_add(year: int, month: int, k: int) -> tuple[int, int]:
    """(year, month) `k` months after `month` of `year`."""
    index = year * 12 + month - 1 + k
    return index // 12, index % 12 + 1


#: Kinds whose resolution depends on whether their clause looks forward or back.
_LEANING = frozenset({"weekday", "mon", "md", "dm", "zh_mon", "zh_date", "dom"})


class _Leans:
    """The lean (graphmem.extract.mood.leaning) of the clause around an offset, computed on demand.

    Clause bounds once per text and each clause's cues once: a long clause holding many
    dates would otherwise be re-read for every one of them (quadratic).
    """

    def __init__(self, text: str, bounds: list[tuple[int, int]] | None = None) -> None:
        self.text = text
        self.bounds: list[tuple[int, int]] = bounds or []
        self.starts: list[int] = [b[0] for b in self.bounds]
        self.cues: dict[int, Cues] = {}

    def at(self, pos: int) -> int:
        if not self.bounds:
            self.bounds = clauses(self.text)
            self.starts = [b[0] for b in self.bounds]
        i = max(bisect_right(self.starts, pos) - 1, 0)
        start, end = self.bounds[i]
        if i not in self.cues:
            self.cues[i] = cues(self.text[start:end])
        return leaning(self.cues[i], pos - start)


def _atoms(
    text: str, g: _Grammar, ref: date | None, bounds: list[tuple[int, int]] | None
) -> list[_Atom]:
    """Every grammar match that is a date, in text order; ranges not yet joined."""
    atoms: list[_Atom] = []
    leans = _Leans(text, bounds)
    for m in g.pattern.finditer(text):
        kind = m.lastgroup or ""
        pre = _key(m["pre"] or "")
        atom = _Atom(kind, m.start(), m.start(kind), m.end(), g.roles.get(pre, ""))
        if ref is not None and kind in _LEANING:
            atom = atom._replace(lean=leans.at(atom.core))
        if kind in ("iso", "zh_date", "zh_mon", "year", "md", "dm", "my", "mon"):
            found = _absolute(kind, m, g, pre, atom, ref)
        else:
            found = _relative(kind, m, g, pre, atom, ref, text) if ref is not None else None
        if found is not None and not (atoms and found.start < atoms[-1].end):
            atoms.append(found)  # not inside the one before ("Sunday the 27th" read whole)
    return atoms


def _join(text: str, atoms: list[_Atom], ref: date | None) -> list[_Atom]:
    """Join day, separator, day into one range; resolve the remaining bare days."""
    joined: list[_Atom] = []
    i = 0
    while i < len(atoms):
        a = atoms[i]
        if a.kind == "weekday" and i + 1 < len(atoms) and (b := atoms[i + 1]).ymd is not None:
            if _WEEKDAY_GAP.fullmatch(text[a.end : b.start]):  # "Thursday, 27 November"
                a = b._replace(start=a.start, role=a.role or b.role)
                i += 1
        if a.ymd is not None and i + 1 < len(atoms) and (b := atoms[i + 1]).ymd is not None:
            gap = text[a.end : b.core]
            if _RANGE_GAP.fullmatch(gap) or (a.role == "between" and _AND_GAP.fullmatch(gap)):
                span = _resolve_range(a.ymd, b.ymd, ref, a.lean)
                if span is not None:
                    joined.append(a._replace(end=b.end, span=span, ymd=None))
                    i += 2
                    continue
        if a.ymd is not None:
            if _bound_ahead(a):
                day = _resolve_day(a.ymd, ref, 1, BOUND_GRACE_DAYS)
            else:
                day = _resolve_day(a.ymd, ref, a.lean)
            a = a._replace(span=(day, day, "day"), ymd=None) if day else a
        if a.span is not None:
            joined.append(a)
        i += 1
    return joined


def _time_span(text: str, atom: _Atom, ref: date | None) -> TimeSpan:
    """Apply the preposition's meaning ("since", "around") and cut out the surface text."""
    assert atom.span is not None
    start, end, granularity = atom.span
    if atom.role == "open":
        end, granularity = (max(ref, start) if ref else date.max), "open"
    elif atom.role == "around" and granularity in ("day", "range"):
        start, end = start - timedelta(days=AROUND_DAYS), end + timedelta(days=AROUND_DAYS)
        granularity = "range"
    bound = {"open": "since", "until": "until", "from": "from"}.get(atom.role, "")
    if granularity == "range" and bound != "since":
        bound = ""  # "from Mar 16 to Mar 19" states both ends
    return TimeSpan(
        start, end, text[atom.start : atom.end], atom.start, atom.end, granularity, bound
    )


def extract_times(
    text: str,
    day: date | None,
    languages: Sequence[str] = DEFAULT_LANGUAGES,
    *,
    clause_bounds: list[tuple[int, int]] | None = None,
) -> list[TimeSpan]:
    """All time expressions in `text`, in order, resolved relative to `day`.

    With `day=None` only expressions that carry their year resolve ("2025-11-27",
    "Nov 27–Dec 1, 2025", "in 2024"). Raises ValueError for a language other than
    en, fr, pt, zh; never for the text itself. `clause_bounds` are
    ``graphmem.extract.mood.clauses(text)``, if the caller has them already.
    """
    g = _grammar(tuple(languages))
    if not g.prefilter.search(text):
        return []
    ref = None if day is None else _as_date(day)
    atoms = _atoms(text, g, ref, clause_bounds)
    return [_time_span(text, a, ref) for a in _join(text, atoms, ref)]


_DURATION = re.compile(
    r"(\d{1,5})\s*(d|days?|w|wks?|weeks?|m|mos?|months?|y|yrs?|years?)(?:\s+ago)?", re.I
)
_ISO_DATE = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})")


def parse_window(value: str, now: date, *, end: bool = False) -> date:
    """The day a `--since`/`--until` value names, counted back from `now`.

    Accepts a duration ("30d", "2w", "6m", "1y", "7 days"), an ISO date ("2025-09-01") or a
    phrase extract_times resolves on its own ("yesterday", "last week", "November 2025").
    A phrase naming a period gives its first day, or its last day with `end=True`
    (for `--until`). Raises ValueError saying what is accepted otherwise.
    """
    text = value.strip()
    now = _as_date(now)
    if duration := _DURATION.fullmatch(text):
        unit = {"d": "day", "w": "week", "m": "month", "y": "year"}[duration[2][0].lower()]
        return _shift(now, -int(duration[1]), unit)
    if iso := _ISO_DATE.fullmatch(text):
        try:
            return date(*(int(part) for part in iso.groups()))
        except ValueError as exc:
            raise ValueError(f"{value!r} is not a real date ({exc})") from None
    spans = extract_times(text, now) if text else []
    if len(spans) == 1 and spans[0].char_start == 0 and spans[0].char_end == len(text):
        return spans[0].end if end else spans[0].start
    raise ValueError(
        f"{value!r} is not a time window: use a duration like 30d, 2w, 6m or 1y, "
        "an ISO date like 2025-09-01, or a phrase like 'yesterday' or 'last week'"
    )


def question_time(
    question: str, now: date, languages: Sequence[str] = DEFAULT_LANGUAGES
) -> TimeSpan | None:
    """The time constraint a recall question states, relative to `now`, or None.

    "in November 2025" is that month, "last week" Monday–Sunday of last week, "around
    Nov 27" Nov 24–30, "since August" Aug 1 to `now`. Several expressions give the
    span covering all of them, so filtering on it loses none of the days asked about.
    """
    return covering(question, extract_times(question, now, languages))


def covering(question: str, spans: Sequence[TimeSpan]) -> TimeSpan | None:
    """The span covering all of `question`'s time expressions `spans` (in text order), or
    None for none: what :func:`question_time` returns for them."""
    if len(spans) <= 1:
        return spans[0] if spans else None
    first, last = spans[0], spans[-1]
    return TimeSpan(
        min(s.start for s in spans), max(s.end for s in spans),
        question[first.char_start : last.char_end], first.char_start, last.char_end, "range",
    )  # fmt: skip
