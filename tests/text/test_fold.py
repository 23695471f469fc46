"""graphmem.text.fold.fold: lower case without diacritics, the same on every path."""

from __future__ import annotations

import random
import unicodedata

import pytest

from graphmem.text.fold import fold


def by_character(text: str) -> str:
    """fold's definition, one character at a time."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Château", "chateau"),
        ("İstanbul", "istanbul"),  # the dot above is a combining mark once decomposed
        ("Straße ẞ", "strasse ss"),
        ("ﬁle", "file"),
        ("𝔄𝔅 Zoë", "ab zoe"),  # astral letters take the per-character path
        ("小明 and Zoë", "小明 and zoe"),
        ("PLAIN ascii", "plain ascii"),
    ],
)
def test_fold_lowers_and_strips_diacritics(text: str, folded: str) -> None:
    assert fold(text) == folded


def test_fold_equals_its_definition_on_any_text() -> None:
    """ASCII, the Basic Multilingual Plane (one regex of its combining marks) and astral
    text (per character) fold as the definition does."""
    rng = random.Random(11)
    for top in (0x80, 0x3000, 0x10000, 0x30000):
        for _ in range(3000):
            text = "".join(chr(rng.randrange(0x20, top)) for _ in range(rng.randint(0, 30)))
            assert fold(text) == by_character(text), ascii(text)
