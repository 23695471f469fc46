"""The seed index: real SQLite files in tmp_path, small hand-made vectors."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from graphmem.search import seeds
from graphmem.search.seeds import SeedIndex, SeedIndexError, SeedRow, match_expression

ROWS = [
    SeedRow("f-lisbon", "world", "Peter moved to Lisbon in March 2025.", "2025-03-02", "memory.md"),
    SeedRow(
        "f-baileys",
        "experience",
        "I fixed the Baileys WS crash by wrapping connection.update handlers in try/catch.",
        "2025-11-27",
        "memory/2025-11-27.md",
    ),
    SeedRow(
        "f-relay",
        "world",
        "relay.maxRetries is set to 5 after the ECONNRESET storm.",
        None,
        "bank/world.md",
    ),
    SeedRow("o-concise", "opinion", "Peter prefers concise replies on WhatsApp.", None, "o.md"),
    SeedRow("l-chateau", "log", "Dinner at the Château Margaux with Andy.", "2025-11-28", "m.md"),
    SeedRow("l-plain", "log", "We drove past the old chateau on the hill.", "2025-11-29", "m.md"),
    SeedRow("l-parts", "log", "The relay restarted; maxRetries was raised later.", None, "m.md"),
]

# Hand-made 3-d directions: each row's vector points somewhere known.
VECTORS = np.array(
    [
        [1.0, 0.0, 0.0],  # f-lisbon
        [0.0, 1.0, 0.0],  # f-baileys
        [0.0, 0.9, 0.1],  # f-relay
        [0.7, 0.7, 0.0],  # o-concise
        [0.0, 0.0, 1.0],  # l-chateau
        [0.1, 0.0, 0.9],  # l-plain
        [0.0, 0.6, 0.6],  # l-parts
    ],
    dtype=np.float32,
)


@pytest.fixture
def index(tmp_path: Path) -> Iterator[SeedIndex]:
    idx = SeedIndex.build(tmp_path / "seeds.db", ROWS, VECTORS, model_id="test-3d")
    yield idx
    idx.close()


def ids(results: list[tuple[str, float]]) -> list[str]:
    return [id_ for id_, _ in results]


def test_build_records_rows_and_metadata(index: SeedIndex) -> None:
    assert len(index) == len(ROWS)
    assert index.dim == 3
    assert index.model_id == "test-3d"
    assert index.tokenizer == seeds.FTS_TOKENIZER
    got = index.texts(["f-lisbon", "l-chateau", "missing"])
    assert set(got) == {"f-lisbon", "l-chateau"}
    assert got["f-lisbon"] == ROWS[0]


def test_vector_backend_is_sqlite_vec_here(index: SeedIndex) -> None:
    # pysqlite3-binary + sqlite-vec are dependencies; this documents that they load.
    assert index.backend == "vec0"
    assert index.notice is None


def test_lexical_is_an_or_of_content_words(index: SeedIndex) -> None:
    assert ids(index.lexical("Lisbon zebra", 5)) == ["f-lisbon"]
    # "Where did" are stop words; porter stemming lets "move" find "moved".
    assert ids(index.lexical("Where did Peter move?", 5))[0] == "f-lisbon"


def test_lexical_scores_are_higher_for_better_matches(index: SeedIndex) -> None:
    results = index.lexical("Peter Lisbon", 5)
    assert ids(results)[0] == "f-lisbon"
    assert results[0][1] > results[1][1] > 0


@pytest.mark.parametrize(
    "query",
    [
        'say "hello',
        "relay.maxRetries",
        "ECONNRESET on connection.update",
        "a:b text:peter",
        "-peter",
        "peter*",
        "NEAR(peter lisbon)",
        "AND OR NOT",
        "(lisbon",
        "^lisbon",
        "{text}: peter",
        "C++ / C# @peter #tag 50%",
        "' OR 1=1; DROP TABLE seeds; --",
        "peter\x00lisbon",
        "",
        "   ",
        "?!.",
        "小明 保留",
        "🙂 lisbon",
    ],
)
def test_lexical_never_raises_on_user_text(index: SeedIndex, query: str) -> None:
    assert isinstance(index.lexical(query, 5), list)


def test_dotted_identifiers_find_the_exact_string_first(index: SeedIndex) -> None:
    # l-parts has both words apart; the phrase match ranks the exact string above it.
    assert ids(index.lexical("relay.maxRetries", 5)) == ["f-relay", "l-parts"]
    assert ids(index.lexical("ECONNRESET on connection.update", 5))[:2] == [
        "f-baileys",
        "f-relay",
    ]


def test_diacritics_do_not_matter_either_way(index: SeedIndex) -> None:
    assert set(ids(index.lexical("Château", 5))) == {"l-chateau", "l-plain"}
    assert set(ids(index.lexical("chateau", 5))) == {"l-chateau", "l-plain"}


def test_stop_words_alone_do_not_match_everything(index: SeedIndex) -> None:
    assert ids(index.lexical("where is the chateau", 10)) == ids(index.lexical("chateau", 10))


def test_kind_filters(index: SeedIndex) -> None:
    assert ids(index.lexical("Peter", 5, kinds={"opinion"})) == ["o-concise"]
    assert index.lexical("Peter", 5, kinds=set()) == []
    near = index.vector([1.0, 0.0, 0.0], 2, kinds={"log", "opinion"})
    assert ids(near) == ["o-concise", "l-plain"]


def test_vector_knn_returns_nearest_by_construction(index: SeedIndex) -> None:
    results = index.vector(np.array([0.0, 0.1, 1.0]), 3)
    assert ids(results) == ["l-chateau", "l-plain", "l-parts"]
    assert results[0][1] == pytest.approx(1 / np.sqrt(1.01), abs=1e-5)
    assert results[0][1] > results[1][1] > results[2][1]
    assert ids(index.vector([1.0, 0.0, 0.0], 1)) == ["f-lisbon"]
    assert index.vector([1.0, 0.0, 0.0], 0) == []
    assert index.vector([0.0, 0.0, 0.0], 3) == []


def test_vector_rejects_a_query_of_the_wrong_size(index: SeedIndex) -> None:
    with pytest.raises(SeedIndexError, match="3"):
        index.vector(np.ones(384), 3)


def test_read_only_open_refuses_writes(index: SeedIndex) -> None:
    reopened = SeedIndex.open(index.path)
    with pytest.raises(seeds.sqlite_module().OperationalError, match="readonly"):
        reopened.conn.execute("INSERT INTO meta (key, value) VALUES ('x', 'y')")
    reopened.close()


def test_numpy_fallback_without_sqlite_vec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with_vec = SeedIndex.build(tmp_path / "vec.db", ROWS, VECTORS)
    monkeypatch.setattr(seeds, "_sqlite_vec", lambda: None)  # as if sqlite-vec were absent
    fallback = SeedIndex.build(tmp_path / "blob.db", ROWS, VECTORS)
    assert fallback.backend == "numpy"
    assert fallback.notice is not None and "numpy" in fallback.notice
    for query in ([0.0, 0.1, 1.0], [1.0, 0.2, 0.0], [0.0, 1.0, 0.0]):
        want = with_vec.vector(query, 4)
        got = fallback.vector(query, 4)
        assert ids(got) == ids(want)
        assert [s for _, s in got] == pytest.approx([s for _, s in want], abs=1e-5)
    assert ids(fallback.vector([1.0, 0.0, 0.0], 2, kinds={"log", "opinion"})) == [
        "o-concise",
        "l-plain",
    ]
    # An index built with sqlite-vec, opened where it is missing: vector seeds off, said so.
    blind = SeedIndex.open(tmp_path / "vec.db")
    assert blind.vector([1.0, 0.0, 0.0], 2) == []
    assert blind.notice is not None and "sqlite-vec" in blind.notice
    assert ids(blind.lexical("Lisbon", 2)) == ["f-lisbon"]
    for idx in (with_vec, fallback, blind):
        idx.close()


def test_index_without_vectors(tmp_path: Path) -> None:
    with SeedIndex.build(tmp_path / "s.db", ROWS, None) as idx:
        assert idx.backend == "none"
        assert idx.vector([1.0, 0.0, 0.0], 3) == []
        assert ids(idx.lexical("Lisbon", 3)) == ["f-lisbon"]


def test_rebuild_swaps_atomically_under_a_reader(tmp_path: Path) -> None:
    path = tmp_path / "seeds.db"
    old = SeedIndex.build(path, ROWS[:2], None)
    new = SeedIndex.build(path, [SeedRow("n-1", "world", "Only Lisbon now.", None, "x.md")], None)
    # The open reader keeps the file it opened; a new open sees the new one.
    assert ids(old.lexical("Lisbon", 5)) == ["f-lisbon"]
    assert ids(new.lexical("Lisbon", 5)) == ["n-1"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["seeds.db"]
    old.close()
    new.close()


def test_failed_build_keeps_the_previous_index(tmp_path: Path) -> None:
    path = tmp_path / "seeds.db"
    SeedIndex.build(path, ROWS, VECTORS).close()
    duplicate = [ROWS[0], ROWS[0]]
    with pytest.raises(SeedIndexError, match="unique"):
        SeedIndex.build(path, duplicate, None)
    with pytest.raises(SeedIndexError, match="kind"):
        SeedIndex.build(path, [SeedRow("x", "fact", "text")], None)
    with pytest.raises(SeedIndexError, match="one per row"):
        SeedIndex.build(path, ROWS, VECTORS[:3])
    with SeedIndex.open(path) as idx:
        assert len(idx) == len(ROWS)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["seeds.db"]


def test_open_refuses_what_is_not_an_index(tmp_path: Path) -> None:
    with pytest.raises(SeedIndexError, match="no seed index"):
        SeedIndex.open(tmp_path / "missing.db")
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(SeedIndexError, match="not a seed index"):
        SeedIndex.open(junk)


def test_match_expression_quotes_everything() -> None:
    assert match_expression("Where did Peter move?") == '"peter" OR "move"'
    assert match_expression("relay.maxRetries") == '"relay maxretries" OR "relay" OR "maxretries"'
    assert match_expression('he said "NOT" *') == '"said"'
    assert match_expression("what is it") == '"what" OR "is" OR "it"'  # only stop words: keep all
    assert match_expression("?!") is None
    assert match_expression("") is None


def test_stemming_case_and_unicode_forms(tmp_path: Path) -> None:
    rows = [
        SeedRow("a", "log", "The database crashes every night."),
        SeedRow("b", "log", "Die Straße ist lang."),
        SeedRow("c", "log", "Cafe\u0301 au lait in Montre\u0301al."),  # decomposed accents (NFD)
    ]
    with SeedIndex.build(tmp_path / "s.db", rows, None) as idx:
        assert ids(idx.lexical("crashed", 3)) == ["a"]
        assert ids(idx.lexical("STRASSE straße", 3)) == ["b"]
        assert ids(idx.lexical("café montréal", 3)) == ["c"]
        assert ids(idx.lexical("cafe", 3)) == ["c"]


def test_paths_with_uri_characters(tmp_path: Path) -> None:
    folder = tmp_path / "my memory #1 ?x=%20"
    folder.mkdir()
    SeedIndex.build(folder / "seeds.db", ROWS, VECTORS).close()
    with SeedIndex.open(folder / "seeds.db") as idx:
        assert ids(idx.vector([1.0, 0.0, 0.0], 1)) == ["f-lisbon"]


def test_repeated_vector_searches_move_to_memory_with_the_same_answers(tmp_path: Path) -> None:
    """From the IN_MEMORY_AFTER-th search an open index answers from a matrix in memory;
    the answers (ids, order, scores) are sqlite-vec's."""
    with SeedIndex.build(tmp_path / "s.db", ROWS, VECTORS) as idx:
        query = [0.3, 0.9, 0.1]
        answers = [idx.vector(query, 3, None) for _ in range(seeds.IN_MEMORY_AFTER + 1)]
        kinds = [idx.vector(query, 2, {"log"}) for _ in range(2)]
    first = answers[0]
    assert first, "the index has vectors"
    for later in answers[1:]:
        assert [i for i, _ in later] == [i for i, _ in first]
        assert [s for _, s in later] == pytest.approx([s for _, s in first], abs=1e-5)
    assert kinds[0] == kinds[1] and all(
        i in {r.id for r in ROWS if r.kind == "log"} for i, _ in kinds[0]
    )
