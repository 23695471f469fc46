"""A very long passage is embedded from its head: the same vector, without tokenizing it
whole (a 50 MB chat log took minutes in the tokenizer, issue 31)."""

from __future__ import annotations

import numpy as np
import pytest

from graphmem.search import embed
from graphmem.search.embed import CUT_ABOVE_CHARS, head_for_tokens, load_embedder


@pytest.fixture(scope="module")
def real() -> embed.Embedder:
    embedder, notice = load_embedder()
    if embedder is None:
        pytest.skip(f"embedding model not installed: {notice}")
    return embedder


LONG = [
    "Peter moved to Porto, near the park; the tram is late again. " * 2_000,
    "Pedro mudou-se para o Porto, perto do parque: o elétrico atrasou outra vez. " * 2_000,
    "23:11 peter: standup at 10\n" * 5_000,
]


@pytest.mark.parametrize("text", LONG, ids=["en", "pt", "chat"])
def test_a_long_text_embeds_as_its_whole(real: embed.Embedder, text: str) -> None:
    cut = head_for_tokens(text)
    assert len(cut) < len(text) // 10 and text.startswith(cut)
    got = real.embed([text])[0]
    uncut = tuple(real._tokenizer.encode(text).ids)  # type: ignore[attr-defined]
    whole = real._run([uncut])[0]  # type: ignore[attr-defined]
    assert float(np.dot(got, whole)) == pytest.approx(1.0, abs=1e-6)


def test_short_texts_and_texts_of_few_words_are_kept_whole() -> None:
    assert head_for_tokens("Peter lives in Porto.") == "Peter lives in Porto."
    few_words = "a" * (CUT_ABOVE_CHARS * 2) + " b"
    assert head_for_tokens(few_words) == few_words
