"""Entity names, slugs and their normalised forms.

One place decides how a name becomes a slug, so `@The-Castle`, `bank/entities/The Castle.md`
and the plain words "the castle" all land on the same entity.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graphmem.text.fold import fold

#: The longest ``@name`` or alias matched in text. Longer ones are noise (a pasted blob, a
#: fuzzer), would compile to a regex nested as deep as the name, and cannot name a bank page.
MAX_NAME_CHARS = 100

_NON_SLUG = re.compile(r"[^a-z0-9]+")
_SPACES = re.compile(r"\s+")


def name_probe(name: str) -> str:
    """The first run of letters and digits of `name`, folded ("" if it has none)."""
    run = ""
    for ch in fold(name):
        if ch.isalnum():
            run += ch
        elif run:
            break
    return run


@lru_cache(maxsize=1 << 16)
def slugify(name: str) -> str:
    """The slug of an entity name: folded, runs of non-alphanumerics become one hyphen.

    Names with no Latin letters or digits (e.g. "小明") keep their folded characters, so
    they still get a distinct, non-empty slug.
    """
    folded = fold(name).strip()
    slug = _NON_SLUG.sub("-", folded).strip("-")
    if slug:
        return slug
    return _SPACES.sub("-", folded).strip("-")


def normalize_text(text: str) -> str:
    """Whitespace-collapsed, case-folded text: the key stable ids are derived from."""
    return _SPACES.sub(" ", text).strip().casefold()
