"""Folding text for matching: lower case without diacritics ("Château" -> "chateau")."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


def fold(text: str) -> str:
    """Lower-case `text` and strip diacritics: "Château" -> "chateau"."""
    decomposed = unicodedata.normalize("NFKD", text)
    if decomposed.isascii():
        return decomposed.lower()
    if max(decomposed) < "\U00010000":  # one regex pass, not a Python test per character
        return _combining_marks().sub("", decomposed).casefold()
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return stripped.casefold()


@lru_cache(maxsize=1)
def _combining_marks() -> re.Pattern[str]:
    """The characters of the Basic Multilingual Plane with a combining class (made once,
    on the first non-ASCII text: ~10 ms)."""
    marks = [chr(c) for c in range(0x10000) if unicodedata.combining(chr(c))]
    return re.compile("[" + "".join(re.escape(m) for m in marks) + "]")


@lru_cache(maxsize=65536)
def folded(text: str) -> str:
    """:func:`fold`, cached, with a fast path for ASCII (most log text)."""
    return text.casefold() if text.isascii() else fold(text)
