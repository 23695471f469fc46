"""Indexing into a real Kùzu database: incremental, idempotent, atomic, locked."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from conftest import WriteFiles, italian_log, settings_for
from typer.testing import CliRunner

from graphmem.errors import IndexLockedError, NotIndexedError, WorkspaceError
from graphmem.extract import timex_fallback
from graphmem.index.build import index_workspace
from graphmem.memory import open_graph, status
from graphmem.store.layout import Store
from graphmem.surfaces.cli import app

FILES: dict[str, str | bytes] = {
    "memory.md": "- W @Peter: Lives in Lisbon\n",
    "bank/entities/Peter.md": "# Peter\nAliases: Pete\n\nA developer.\n",
    "memory/2025-11-01.md": "# Sat\n\nCoffee with @Andy.\n\n## Retain\n- W @Andy: Works at Acme\n",
    "memory/2025-11-02.md": "# Sun\n\nHiked with @Marta.\n\n## Retain\n- O(c=0.8) @Marta: Likes hiking\n",
}

CLI_ENV = {
    "GRAPHMEM_NER_MODEL": "none",
    "GRAPHMEM_EMBED_MODEL": "none",
    "GRAPHMEM_BUFFER_POOL_MB": "64",
}


def graph_rows(root: Path, cypher: str) -> list[list[object]]:
    with open_graph(settings_for(root)) as graph:
        return graph.execute(cypher).rows


def entity_slugs(root: Path) -> list[str]:
    return [r[0] for r in graph_rows(root, "MATCH (e:Entity) RETURN e.slug ORDER BY e.slug")]


def test_index_builds_the_graph(make_workspace: WriteFiles) -> None:
    root = make_workspace(FILES)
    report = index_workspace(settings_for(root))
    assert report.changed and report.parsed == 4
    assert entity_slugs(root) == ["andy", "marta", "peter"]
    facts = graph_rows(
        root, "MATCH (f:Fact)-[:MENTIONS]->(e:Entity {slug: 'andy'}) RETURN f.text, f.day"
    )
    assert [r[0] for r in facts] == ["Works at Acme"]
    opinion = graph_rows(
        root, "MATCH (o:Opinion)-[:ABOUT]->(e:Entity) RETURN o.statement, o.confidence, e.slug"
    )
    assert opinion == [["Likes hiking", 0.8, "marta"]]
    aliases = graph_rows(root, "MATCH (e:Entity {slug: 'peter'}) RETURN e.aliases, e.page")
    assert aliases == [[["Pete"], "bank/entities/Peter.md"]]


def test_indexing_twice_changes_nothing(make_workspace: WriteFiles) -> None:
    root = make_workspace(FILES)
    first = index_workspace(settings_for(root))
    before = graph_rows(root, "MATCH (n) RETURN label(n), count(n) ORDER BY label(n)")
    second = index_workspace(settings_for(root))
    assert not second.changed and second.parsed == 0
    assert second.generation == first.generation
    assert graph_rows(root, "MATCH (n) RETURN label(n), count(n) ORDER BY label(n)") == before


def test_editing_one_file_reparses_only_it(make_workspace: WriteFiles) -> None:
    root = make_workspace(FILES)
    index_workspace(settings_for(root))
    path = root / "memory/2025-11-02.md"
    path.write_text(path.read_text() + "- W @Marta: Joined Northwind\n")
    report = index_workspace(settings_for(root))
    assert report.changed and report.parsed == 1
    facts = graph_rows(root, "MATCH (f:Fact)-[:MENTIONS]->(:Entity {slug: 'marta'}) RETURN f.text")
    assert facts == [["Joined Northwind"]]


def test_deleting_a_file_removes_its_nodes_and_orphan_entities(make_workspace: WriteFiles) -> None:
    root = make_workspace(FILES)
    index_workspace(settings_for(root))
    (root / "memory/2025-11-01.md").unlink()
    report = index_workspace(settings_for(root))
    assert report.removed == 1
    assert entity_slugs(root) == ["marta", "peter"]
    assert graph_rows(root, "MATCH (s:Source {path: 'memory/2025-11-01.md'}) RETURN count(s)") == [
        [0]
    ]
    assert graph_rows(root, "MATCH (f:Fact) WHERE f.text = 'Works at Acme' RETURN count(f)") == [
        [0]
    ]


def test_force_rebuild_equals_incremental_result(make_workspace: WriteFiles) -> None:
    root = make_workspace(FILES)
    index_workspace(settings_for(root))
    (root / "memory/2025-11-03.md").write_text("## Retain\n- B @Peter: I booked the flight\n")
    index_workspace(settings_for(root))
    query = "MATCH (n)-[r]->(m) RETURN label(r), count(r) ORDER BY label(r)"
    incremental = graph_rows(root, query)
    ids = graph_rows(root, "MATCH (f:Fact) RETURN f.id ORDER BY f.id")
    forced = index_workspace(settings_for(root), force=True)
    assert forced.parsed == 5
    assert graph_rows(root, query) == incremental
    assert graph_rows(root, "MATCH (f:Fact) RETURN f.id ORDER BY f.id") == ids


def test_old_generations_are_collected(make_workspace: WriteFiles) -> None:
    root = make_workspace(FILES)
    for i in range(4):
        (root / f"memory/2025-12-0{i + 1}.md").write_text(f"Day {i}\n")
        index_workspace(settings_for(root))
    gens = sorted(p.name for p in (root / ".memory").glob("gen-*"))
    assert len(gens) == 2 and Store(root / ".memory").current().name == gens[-1]  # type: ignore[union-attr]


def test_a_half_built_generation_is_invisible_and_cleaned_up(make_workspace: WriteFiles) -> None:
    root = make_workspace(FILES)
    index_workspace(settings_for(root))
    store = Store(root / ".memory")
    good = store.current()
    crashed = store.new_generation()  # as if an indexer died before publishing
    (crashed.path / "graph.kuzu").write_bytes(b"half written")
    assert store.current() == good
    assert entity_slugs(root) == ["andy", "marta", "peter"]
    (root / "memory/2025-12-01.md").write_text("New day with @Zoe.\n")
    index_workspace(settings_for(root))
    assert not crashed.path.exists()
    assert "zoe" in entity_slugs(root)


def test_a_second_writer_gives_up_after_its_wait_but_readers_still_answer(
    make_workspace: WriteFiles,
) -> None:
    root = make_workspace(FILES)
    index_workspace(settings_for(root))
    told: list[str] = []
    with Store(root / ".memory").writer_lock():
        with pytest.raises(IndexLockedError, match=r"is writing .* \(waited 0 s\)"):
            index_workspace(settings_for(root), force=True, wait=0.3, on_wait=told.append)
        assert entity_slugs(root) == ["andy", "marta", "peter"]
    assert len(told) == 1 and "waiting for it (up to 0 s)" in told[0]


def test_warnings_of_the_last_index_are_kept_for_status(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {**FILES, "memory/2025-09-31.md": "## Retain\n- O(c=1.7) @Peter: Loves rain\n"}
    )
    index_workspace(settings_for(root))
    st = status(settings_for(root))
    assert st.fresh
    messages = [str(w) for w in st.warnings]
    assert (
        "memory/2025-09-31.md: 2025-09-31 is not a real date; indexed as undated notes" in messages
    )
    assert "memory/2025-09-31.md:2: confidence 1.7 is outside [0, 1]; clamped to 1.0" in messages
    (root / "memory/2025-11-01.md").write_text("changed")
    assert status(settings_for(root)).stale == ("memory/2025-11-01.md",)


def _dated(root: Path, path: str) -> list[tuple[int, date]]:
    query = f"MATCH (p:Passage {{path: '{path}'}}) RETURN p.line_start, p.valid_from"
    return sorted((int(r[0]), r[1]) for r in graph_rows(root, query))  # type: ignore[call-overload]


@pytest.mark.skipif(timex_fallback._search() is None, reason="dateparser not installed")
def test_a_spent_dateparser_budget_is_one_warning_kept_across_indexes(
    make_workspace: WriteFiles,
) -> None:
    big, small = "memory/2026-03-04.md", "memory/2026-03-05.md"
    root = make_workspace({**FILES, big: italian_log(700), small: italian_log(3)})
    result = CliRunner().invoke(app, ["--workspace", str(root), "index"], env=CLI_ENV)
    assert result.exit_code == 0, result.stderr
    budget = [line for line in result.stderr.splitlines() if "dateparser budget" in line]
    assert len(budget) == 1 and budget[0].startswith(f"warning: {big}:"), result.stderr
    line = int(budget[0].split(":")[2])
    # "ieri" is read by dateparser up to that line, then the lines keep their file's day.
    dated = _dated(root, big)
    assert 100 < line < 700 and [n for n, _ in dated][line - 1] == line
    assert {d for n, d in dated if n < line} == {date(2026, 3, 3)}
    assert {d for n, d in dated if n >= line} == {date(2026, 3, 4)}
    assert _dated(root, small) == [
        (1, date(2026, 3, 4)),
        (2, date(2026, 3, 4)),
        (3, date(2026, 3, 4)),
    ]
    again = index_workspace(settings_for(root))
    expected = [w for w in again.warnings if w.path == big]
    assert again.mode == "unchanged"
    assert [str(w) for w in expected] == [budget[0].removeprefix("warning: ")]
    (root / small).write_text(italian_log(4), encoding="utf-8")  # a delta: big is not re-read
    report = index_workspace(settings_for(root))
    assert report.mode == "delta" and [w for w in report.warnings if w.path == big] == expected
    with (root / big).open("a", encoding="utf-8") as f:
        f.write("- oggi niente.\n")  # a delta that re-reads (and re-dates) big
    report = index_workspace(settings_for(root))
    assert report.mode == "delta" and [w for w in report.warnings if w.path == big] == expected
    assert status(settings_for(root)).warnings == report.warnings
    rebuilt = index_workspace(settings_for(root), force=True)
    assert sorted(map(str, rebuilt.warnings)) == sorted(map(str, report.warnings))


def test_bad_input_never_stops_the_rest(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            **FILES,
            "memory/2025-10-01.md": "## Retain\n- X @: ???\n- Q @Peter: something\n",
            "memory/2025-10-02.md": b"Caf\xe9 with @Peter\n",
            "memory/2025-10-03.md": b"\x00\x01binary",
        }
    )
    report = index_workspace(settings_for(root))
    assert {w.path for w in report.warnings} >= {
        "memory/2025-10-01.md",
        "memory/2025-10-02.md",
        "memory/2025-10-03.md",
    }
    texts = [r[0] for r in graph_rows(root, "MATCH (p:Passage) RETURN p.text")]
    assert (
        "X @: ???" in texts and "Q @Peter: something" in texts and "Caf\ufffd with @Peter" in texts
    )


def test_missing_workspace_and_missing_index_say_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="does not exist"):
        index_workspace(settings_for(tmp_path / "nope"))
    with pytest.raises(NotIndexedError, match=r"graphmem --workspace .* index"):
        entity_slugs(tmp_path)
