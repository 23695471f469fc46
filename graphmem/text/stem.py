"""The light stemmers: suffix stripping without a model, each tuned to what its callers
compare. They differ on purpose; each keeps the behaviour its callers were measured with.

- :func:`crude_stem`: English endings, for the content words a bullet and the sentence it
  restates share ("moved", "moves", "moving" -> "mov").
- :func:`light_stem`: English plurals and -ing/-ed, for an opinion's topic words
  ("reviews", "reviewed", "review" meet).
- :func:`stem`: English plus the common Romance and German endings, for the topic of a
  sentence read for reflection ("delivery", "deliveries", "delivered" meet).
"""

from __future__ import annotations

from functools import lru_cache


def crude_stem(word: str) -> str:
    """The first of -ing, -ed, -es, -s that leaves three letters, then a final -e of a word
    longer than three."""
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) >= len(suffix) + 3 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


_PLURALS = (("ies", "y"), ("sses", "ss"), ("ches", "ch"), ("shes", "sh"), ("xes", "x"))


@lru_cache(maxsize=65536)
def light_stem(word: str) -> str:
    """Light suffix stripping, enough that "reviews", "reviewed" and "review" meet."""
    if len(word) <= 3 or not word.isalpha():
        return word
    for suffix, keep in _PLURALS:
        if word.endswith(suffix):
            return word[: -len(suffix)] + keep
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            if word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]  # running -> run, stopped -> stop
            return word
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Light suffix stripping (en, and the common Romance/German endings)."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if len(word) > 4 and word[-1] == "y" and word[-2] not in "aeiouy":
        return word[:-1]  # "delivery" meets "deliveries" (-ies) and "delivered"
    for suffix in ("ations", "ation", "ments", "ment", "ings", "ing", "ies", "ied", "ados",
                   "adas", "idos", "idas", "ado", "ada", "ido", "ida", "ou", "iu", "eu", "ar", "er", "ir", "ed",
                   "es", "s", "en", "e"):  # fmt: skip
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "ls":
        word = word[:-1]
    return word
