"""Cross-lingual lexical matching without a model: Chinese segmentation and a small lexicon.

Two problems, two small tools:

- **Chinese (and Japanese) text has no spaces.** SQLite's unicode61 tokenizer makes a whole
  run of Han characters one token ("林阿姨上周六从成都飞到里昂" is one word), so a Chinese
  question never matches a Chinese note unless the runs are identical. :func:`segment_cjk`
  puts a space around every Han and kana character before text reaches FTS5, so each
  character is a token; :func:`cjk_bigrams` turns a question's runs into two-character
  phrases ("成 都"), which match the same two characters side by side in any note.
- **A question in French, Portuguese, German, Spanish or Chinese about notes in English**
  only shares names with them. :func:`translate` detects the question's language from its
  function words and looks its words up in ``models/crosslingual.tsv`` (common question
  forms and content words, one concept a line), returning English words to add to the
  lexical query as extra OR terms.

Both are pure functions of the text; nothing is downloaded and no model is needed.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from graphmem.text.fold import fold
from graphmem.text.stopwords import ENGLISH

#: The lexicon file: ``english | fr | pt | de | es | zh`` per line.
LEXICON = Path(__file__).resolve().parents[1] / "models" / "crosslingual.tsv"
LANGUAGES = ("fr", "pt", "de", "es", "zh")
#: document_gloss reads this much of a block; German compounds are split up to this length.
GLOSS_CHARS = 4000
MAX_COMPOUND = 40

# Han (CJK unified ideographs, extension A, compatibility) and kana: scripts written without
# spaces. Hangul is written with spaces and is left to unicode61.
_CJK_CLASS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK = re.compile(f"[{_CJK_CLASS}]")
_CJK_RUN = re.compile(f"[{_CJK_CLASS}]+")
_WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")
_ELISION = re.compile(r"^(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu)['’]")

#: Characters that carry grammar, not content: a bigram holding one says little.
_ZH_STOP_CHARS = frozenset("的了吗呢吧啊么着过是在和与及或")
#: Question forms and very common words whose bigrams would match any Chinese line.
_ZH_STOP_BIGRAMS = frozenset(
    "什么 时候 哪天 哪里 哪儿 怎么 怎样 为什 多少 哪个 哪些 还是 现在 以前 之前 我们 他们 她们 "
    "你们 自己 一个 这个 那个 一下 一些 有没 没有 可以 已经 就是 还有 因为 所以 但是 如果".split()
)

# Frequent function words of each language, folded. A question is in the language whose
# words it uses most, if that beats English; words shared with English ("a", "on") count
# for both. Short on purpose: detection needs the commonest words, not a dictionary.
_FUNCTION_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        """the a an of to in on at for with from by is are was were be been do does did
        what when where who whom which why how has have had will would can could should
        and or not now still my your his her their its this that these those""".split()
    ),
    "fr": frozenset(
        """le la les un une des du de au aux et est sont ou ou quand quel quelle quels
        quelles qui que quoi comment pourquoi combien dans sur chez avec pour par pas ne il
        elle ils elles on nous vous leur leurs ses sa mon ma mes ce cette ces t etait ont
        a-t-elle a-t-il est-ce depuis avant apres lorsque""".split()
    ),
    "pt": frozenset(
        """o a os as um uma uns umas do da dos das no na nos nas em de e e que onde quando
        qual quais quem como porque com para pelo pela ao aos ele ela eles elas foi sao
        seu sua seus suas nao tem esta desde antes depois ja ainda agora""".split()
    ),
    "de": frozenset(
        """der die das den dem des ein eine einen einem einer ist sind war waren und oder
        wann wo wohin woher wer wen wem was welche welcher welches welchen wie warum hat
        haben hatte auf mit bei von zu im am nicht noch jetzt seit nach vor sein ihr ihre
        er sie es""".split()
    ),
    "es": frozenset(
        """el la los las un una unos unas del de al y o que donde cuando cual cuales quien
        quienes como por para con en es son fue fueron se su sus ya todavia ahora desde
        antes despues esta estan""".split()
    ),
}
#: Per language, its function words that English does not share (_document_language).
_OWN_FUNCTION_WORDS = {
    lang: words - _FUNCTION_WORDS["en"] for lang, words in _FUNCTION_WORDS.items() if lang != "en"
}


@dataclass(frozen=True, slots=True)
class Translation:
    """What :func:`translate` found: the question's language and English words for it."""

    language: str | None
    words: tuple[str, ...] = ()


def segment_cjk(text: str) -> str:
    """`text` with a space on both sides of every Han or kana character (for FTS5).

    Other text is unchanged, so an index of text without Han or kana is byte-identical.
    """
    if not _CJK.search(text):
        return text
    return _CJK_RUN.sub(_spaced, text)


def _spaced(m: re.Match[str]) -> str:
    """A run of Han/kana characters, each with a space on both sides (one call per run, not
    per character: 1 MB of Chinese took a second)."""
    run = m.group()
    return f" {run} " if len(run) == 1 else f" {'  '.join(run)} "


def has_cjk(text: str) -> bool:
    """Whether `text` holds any Han or kana character."""
    return _CJK.search(text) is not None


def strip_cjk(text: str) -> str:
    """`text` with every Han and kana character replaced by a space (what is left to words)."""
    return _CJK.sub(" ", text)


def cjk_bigrams(text: str) -> list[str]:
    """The two-character phrases of `text`'s Han/kana words, as ``"成 都"`` (for FTS5).

    Each run is cut into words first (:func:`segment_zh`); grammatical characters (的, 了,
    吗 …) and question words (什么, 哪天 …) are left out, and bigrams never straddle two
    words. A question that yields no bigram gives its one-character content words.
    """
    grams: list[str] = []
    singles: list[str] = []
    for run in _CJK_RUN.findall(text):
        for word in segment_zh(run):
            if _is_zh_stop(word):
                continue
            grams.extend(word[i : i + 2] for i in range(len(word) - 1))
            if len(word) == 1:
                singles.append(word)
    return [" ".join(gram) for gram in dict.fromkeys(grams or singles)]


def _is_zh_stop(word: str) -> bool:
    """Grammar, or a question form: a word whose every English gloss is a stop word."""
    if word in _ZH_STOP_BIGRAMS or all(ch in _ZH_STOP_CHARS for ch in word):
        return True
    glosses = lexicon().entries["zh"].get(word, ())
    return bool(glosses) and all(g in ENGLISH for g in glosses)


def segment_zh(run: str) -> list[str]:
    """Cut a run of Han/kana characters into words: the longest lexicon word or stop word
    at each position; characters no entry covers stay together as one unknown word
    (names, mostly: "林美", "成都")."""
    known = lexicon().entries["zh"]
    longest = max(lexicon().longest["zh"], 2)
    words: list[str] = []
    unknown = ""
    i = 0
    while i < len(run):
        for size in range(min(longest, len(run) - i), 0, -1):
            piece = run[i : i + size]
            if (
                piece in known
                or piece in _ZH_STOP_BIGRAMS
                or (size == 1 and piece in _ZH_STOP_CHARS)
            ):
                break
        else:
            unknown += run[i]
            i += 1
            continue
        if unknown:
            words.append(unknown)
            unknown = ""
        words.append(piece)
        i += size
    if unknown:
        words.append(unknown)
    return words


# --- the lexicon ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Lexicon:
    """Per language: folded foreign word or phrase -> English words."""

    entries: dict[str, dict[str, tuple[str, ...]]]
    #: Per language, the most words in one of its phrases (bounds the n-gram search).
    longest: dict[str, int]
    #: Per language, its one-word entries that are no English word of the lexicon ("mère",
    #: not "port"): evidence of the language when detecting it.
    foreign: dict[str, frozenset[str]]


def _english_words(side: str) -> tuple[str, ...]:
    words = [w for alt in side.split(",") for w in alt.split()]
    return tuple(dict.fromkeys(w.strip().lower() for w in words if w.strip()))


def parse_lexicon(text: str) -> Lexicon:
    """Read the lexicon format (see ``models/crosslingual.tsv``); malformed lines are skipped."""
    entries: dict[str, dict[str, tuple[str, ...]]] = {lang: {} for lang in LANGUAGES}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        columns = [c.strip() for c in line.split("|")]
        if len(columns) != 1 + len(LANGUAGES):
            continue
        english = _english_words(columns[0])
        if not english:
            continue
        for lang, side in zip(LANGUAGES, columns[1:], strict=True):
            for alt in side.split(","):
                key = alt.strip() if lang == "zh" else " ".join(_words(alt))
                if key:
                    known = entries[lang].get(key, ())
                    entries[lang][key] = tuple(dict.fromkeys((*known, *english)))
    longest = {
        lang: max((len(k) if lang == "zh" else len(k.split()) for k in table), default=1)
        for lang, table in entries.items()
    }
    glosses = {w for table in entries.values() for words in table.values() for w in words}
    foreign = {
        lang: frozenset(k for k in table if " " not in k and k not in glosses)
        for lang, table in entries.items()
    }
    return Lexicon(entries, longest, foreign)


@cache
def lexicon() -> Lexicon:
    """The bundled lexicon, read once; an empty one if the file is missing."""
    try:
        return parse_lexicon(LEXICON.read_text(encoding="utf-8"))
    except OSError:
        return parse_lexicon("")


def _words(text: str) -> list[str]:
    return [fold(w).replace("’", "'") for w in _WORD.findall(unicodedata.normalize("NFC", text))]


def detect_language(question: str) -> str | None:
    """The language of `question` among fr/pt/de/es/zh, or None (English or unknown).

    Any Han or kana character means Chinese. Otherwise each language scores the distinct
    function words and lexicon words of it the question uses (words the lexicon also has
    as English do not count); the best must have at least two, and more than the English
    function words.
    """
    if has_cjk(question):
        return "zh"
    words: set[str] = set()
    for word in _words(question):
        words.add(word)
        words.update(part for part in word.split("-") if part)
        if (bare := _ELISION.sub("", word)) != word:
            words.add(bare)
    english = len(words & _FUNCTION_WORDS["en"])
    scores = {
        lang: len(words & _FUNCTION_WORDS[lang]) + len(words & lexicon().foreign[lang])
        for lang in LANGUAGES
        if lang != "zh"
    }
    lang, best = max(scores.items(), key=lambda kv: kv[1])
    if best >= 2 and best > english:
        return lang
    return None


def _lookup(word: str, table: dict[str, tuple[str, ...]], lang: str) -> tuple[str, ...]:
    """English for one folded word: itself, without elision, without a plural or German
    ending, or as a German compound of two known words."""
    candidates = [word, _ELISION.sub("", word)]
    for ending in ("s", "es", "x", "e", "en", "n", "er"):
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            candidates.append(word[: -len(ending)])
    for candidate in candidates:
        if candidate in table:
            return table[candidate]
    if lang == "de" and 7 <= len(word) <= MAX_COMPOUND:
        for cut in range(3, len(word) - 2):
            head, tail = word[:cut], word[cut:]
            for h in (head, head[:-1] if head.endswith("s") else head):
                if h in table and tail in table:
                    return (*table[h], *table[tail])
    return ()


def translate(question: str) -> Translation:
    """English words for `question` when it is in fr/pt/de/es/zh (else none).

    Phrases of the lexicon match first (longest first: "fim de semana" before "semana"),
    then single words; Chinese is matched on characters, longest entry first. Returns
    the words in question order, each once.
    """
    lang = detect_language(question)
    if lang is None:
        return Translation(None)
    table = lexicon().entries[lang]
    longest = lexicon().longest[lang]
    found: list[str] = []
    if lang == "zh":
        for run in _CJK_RUN.findall(question):
            for word in segment_zh(run):
                found.extend(table.get(word, ()))
        rest = strip_cjk(question)
        lang_rest = detect_language(rest) if rest.strip() else None
        if lang_rest is not None and lang_rest != "zh":
            found.extend(translate(rest).words)
        return Translation(lang, tuple(dict.fromkeys(found)))
    words = _words(question)
    i = 0
    while i < len(words):
        for size in range(min(longest, len(words) - i), 1, -1):
            if (english := table.get(" ".join(words[i : i + size]))) is not None:
                found.extend(english)
                i += size
                break
        else:
            english = _lookup(words[i], table, lang)
            if not english and "-" in words[i]:
                english = tuple(
                    e for part in words[i].split("-") for e in _lookup(part, table, lang)
                )
            found.extend(english)
            i += 1
    return Translation(lang, tuple(dict.fromkeys(found)))


def _document_language(text: str) -> str | None:
    """The language of a written line, stricter than :func:`detect_language`: names such as
    "Casa da Música" or "Lucía" must not make an English line Portuguese or Spanish, so only
    function words that English does not share count, and at least two distinct ones."""
    if has_cjk(text):
        return "zh"
    words = set(_words(text))
    english = len(words & _FUNCTION_WORDS["en"])
    best, best_lang = 0, None
    for lang in LANGUAGES:
        if lang == "zh":
            continue
        own = len(words & _OWN_FUNCTION_WORDS[lang])
        if own > best:
            best, best_lang = own, lang
    return best_lang if best >= 2 and best > english else None


def document_gloss(text: str) -> str:
    """`text` with the English words of the lexicon when it is written in fr/pt/de/es/zh:
    what FTS5 and an English embedding model index for a line, so that an English question
    finds a note written in another language. English text is returned unchanged. Only the
    first GLOSS_CHARS characters are read (a note's line is far shorter; a 1 MB block must
    not cost more than a long paragraph)."""
    head = text[:GLOSS_CHARS]
    if _document_language(head) is None:
        return text
    words = translate(head).words
    return f"{text} ({' '.join(words)})" if words else text


def english_query(question: str) -> str:
    """What an English-only embedding model should read of `question`: unchanged when it is
    English, else its names and numbers (words written with a capital or a digit, Latin
    words inside Chinese), the words of four letters or more the lexicon cannot translate,
    as written (a loanword, "espresso", "backup", is the word the English note uses; an
    unknown verb form is noise the model mostly ignores), then the English words of the
    lexicon. The question's own function words and the words the lexicon translates would
    pull it towards notes written in its language, not towards the English note that
    answers it."""
    found = translate(question)
    if found.language is None:
        return question
    lang = found.language
    common = _FUNCTION_WORDS.get(lang, frozenset()) | lexicon().foreign.get(lang, frozenset())
    table = lexicon().entries[lang]
    keep = [
        w
        for w in _WORD.findall(strip_cjk(question) if lang == "zh" else question)
        if fold(w) not in common
        and (
            w[:1].isupper()
            or any(ch.isdigit() for ch in w)
            or lang == "zh"
            or (len(w) >= 4 and not _lookup(fold(w), table, lang))
        )
    ]
    return " ".join([*keep, *found.words]) or question


def english_gloss(text: str) -> str:
    """`text` followed by the English words :func:`translate` finds for it (itself when it
    is English): what an English-only embedding model can still make sense of."""
    words = translate(text).words
    return f"{text} ({' '.join(words)})" if words else text
