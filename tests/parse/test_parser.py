"""The Markdown parser: bullet forms, passages, pages, and bad input. Pure: no database."""

from __future__ import annotations

import textwrap
from datetime import date

import pytest

from graphmem.parse.blocks import DEFAULT_CONFIDENCE
from graphmem.parse.parser import parse


def md(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


DAY = md(
    """
    # Thursday

    Went to the castle with @Peter. Pete's laptop died
    again, so we bought a new one.

    - 13:56 Peter: can you check the relay?
    - 14:02 Andy: on it

    ## Retain
    - W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.
    - B @warelay: I fixed the Baileys WS crash by wrapping handlers in try/catch.
    - O(c=0.95) @Peter: Prefers concise replies (<1500 chars) on WhatsApp.
    - O @Peter: Likes Marrakech
    - S @Peter @Andy: They travel together every winter.
    - W @Peter @The-Castle: Lives at the castle
      and keeps the boat there.
    - B I met @Andy at the market

    ## Afterwards
    Dinner was late.
    """
)


def blocks_by_line(text: str, path: str = "memory/2025-11-27.md") -> dict[int, object]:
    return {b.line_start: b for b in parse(path, text).blocks}


def test_daily_log_day_comes_from_the_file_name() -> None:
    pf = parse("memory/2025-11-27.md", DAY)
    assert pf.role == "daily"
    assert pf.day == date(2025, 11, 27)
    assert pf.warnings == ()


@pytest.mark.parametrize(
    ("line", "kind", "text", "mentions", "confidence"),
    [
        (
            10,
            "world",
            "Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.",
            ("Peter",),
            None,
        ),
        (
            11,
            "experience",
            "I fixed the Baileys WS crash by wrapping handlers in try/catch.",
            ("warelay",),
            None,
        ),
        (12, "opinion", "Prefers concise replies (<1500 chars) on WhatsApp.", ("Peter",), 0.95),
        (13, "opinion", "Likes Marrakech", ("Peter",), DEFAULT_CONFIDENCE),
        (14, "observation", "They travel together every winter.", ("Peter", "Andy"), None),
        (
            15,
            "world",
            "Lives at the castle\nand keeps the boat there.",
            ("Peter", "The-Castle"),
            None,
        ),
        (17, "experience", "I met @Andy at the market", ("Andy",), None),
    ],
)
def test_each_retain_bullet_form(
    line: int, kind: str, text: str, mentions: tuple[str, ...], confidence: float | None
) -> None:
    block = blocks_by_line(DAY)[line]
    assert block.kind == kind  # type: ignore[attr-defined]
    assert block.text == text  # type: ignore[attr-defined]
    assert block.mentions == mentions  # type: ignore[attr-defined]
    assert block.confidence == confidence  # type: ignore[attr-defined]
    assert block.origin == "retain"  # type: ignore[attr-defined]


def test_continuation_lines_belong_to_their_bullet() -> None:
    block = blocks_by_line(DAY)[15]
    assert (block.line_start, block.line_end) == (15, 16)  # type: ignore[attr-defined]


def test_free_text_becomes_passages_with_exact_lines_and_heading_path() -> None:
    by_line = blocks_by_line(DAY)
    # The paragraph is cited sentence by sentence: the first sits on line 3, the second
    # is hard-wrapped over lines 3-4 and cites both.
    first, second = [b for b in parse("memory/2025-11-27.md", DAY).blocks if b.line_start == 3]
    assert first.kind == second.kind == "log"
    assert (first.line_start, first.line_end, first.text) == (
        3,
        3,
        "Went to the castle with @Peter.",
    )
    assert (second.line_start, second.line_end) == (3, 4)
    assert second.text == "Pete's laptop died again, so we bought a new one."
    assert first.heading == "Thursday"
    assert first.mentions == ("Peter",)
    chat = by_line[6]
    assert chat.text == "13:56 Peter: can you check the relay?"  # type: ignore[attr-defined]
    assert (chat.line_start, chat.line_end) == (6, 6)  # type: ignore[attr-defined]
    after = by_line[20]
    assert after.kind == "log" and after.heading == "Thursday > Afterwards"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "wrapped"),
    [
        (
            "Call the plumber on 213 554\n871. He comes on Mondays.\n",
            "Call the plumber on 213 554 871.",
        ),
        (
            "A encomenda chegou com o lote 2024\n17) e mais nada.\n",
            "A encomenda chegou com o lote 2024 17) e mais nada.",
        ),
        ("Wir zahlten am Ende\n250. Danach war Ruhe.\n", "Wir zahlten am Ende 250."),
    ],
)
def test_a_number_wrapped_to_a_line_start_continues_the_paragraph(text: str, wrapped: str) -> None:
    # CommonMark: an ordered list interrupts a paragraph only from 1, and never empty; a
    # hard wrap that puts "871." at the start of a line stays one sentence over two lines.
    blocks = parse("memory/2026-03-06.md", "# 2026-03-06\n\n" + text).blocks
    first = blocks[0]
    assert (first.text, first.line_start, first.line_end) == (wrapped, 3, 4)


def test_a_list_from_one_still_interrupts_a_paragraph() -> None:
    blocks = parse(
        "memory/2026-03-06.md", "# D\n\nTo do today:\n1. call Vítor\n2. pay rent\n"
    ).blocks
    assert [b.text for b in blocks] == ["To do today:", "call Vítor", "pay rent"]


@pytest.mark.parametrize(
    "heading",
    [
        "## Retain",
        "## retain",
        "### RETAIN",
        "## Retenir",
        "## Reter",
        "## 保留",
        "## Retain:",
        "## Behalten",
        "## Retener",
    ],
)
def test_retain_heading_in_every_language(heading: str) -> None:
    pf = parse("memory/2025-01-02.md", f"{heading}\n- W @Marta: Joined Northwind\n")
    assert [b.kind for b in pf.blocks] == ["world"]


def test_bullets_outside_retain_are_log_text() -> None:
    pf = parse("memory/2025-01-02.md", "## Notes\n- W @Marta: Joined Northwind\n")
    assert [b.kind for b in pf.blocks] == ["log"]
    assert pf.warnings == ()


def test_retain_section_ends_at_the_next_heading_of_its_level() -> None:
    text = "## Retain\n- W @A: one\n### Sub\n- W @A: two\n## Other\n- W @A: three\n"
    kinds = [b.kind for b in parse("memory/2025-01-02.md", text).blocks]
    assert kinds == ["world", "world", "log"]


def test_code_fences_are_cited_line_by_line_and_not_parsed_as_bullets() -> None:
    text = "## Retain\n```toml\n- W @not: a bullet\n\nport = 8080\n```\n"
    blocks = parse("memory/2025-01-02.md", text).blocks
    assert [(b.kind, b.line_start, b.line_end, b.text) for b in blocks] == [
        ("log", 2, 2, "```toml"),
        ("log", 3, 3, "- W @not: a bullet"),
        ("log", 5, 5, "port = 8080"),
    ]
    assert all(b.mentions == () for b in blocks)


@pytest.mark.parametrize(
    ("bullet", "message"),
    [
        ("- X @: ???", "unknown prefix 'X'"),
        ("- Q @Peter: something", "unknown prefix 'Q'"),
        ("- W @: no name", "empty @mention"),
        ("- W @Peter:", "no text after its prefix"),
        ("- just a note", "no type prefix"),
    ],
)
def test_malformed_bullets_warn_with_file_and_line_and_stay_findable(
    bullet: str, message: str
) -> None:
    pf = parse("memory/2025-10-01.md", f"# Day\n\n## Retain\n- W @Peter: fine\n{bullet}\n")
    (warning,) = pf.warnings
    assert warning.path == "memory/2025-10-01.md" and warning.line == 5
    assert message in warning.message
    assert str(warning).startswith("memory/2025-10-01.md:5: ")
    passage = next(b for b in pf.blocks if b.line_start == 5)
    assert passage.kind == "log"
    assert passage.text == bullet[2:]


@pytest.mark.parametrize(("raw", "clamped"), [("1.7", 1.0), ("-0.2", 0.0), ("95%", 0.95)])
def test_confidence_out_of_range_is_clamped_with_a_warning(raw: str, clamped: float) -> None:
    pf = parse("memory/2025-10-01.md", f"## Retain\n- O(c={raw}) @Peter: Loves rain\n")
    (block,) = pf.blocks
    assert block.kind == "opinion" and block.confidence == clamped
    assert len(pf.warnings) == (0 if raw == "95%" else 1)


def test_confidence_that_is_not_a_number_falls_back_with_a_warning() -> None:
    pf = parse("memory/2025-10-01.md", "## Retain\n- O(c=high) @Peter: Loves rain\n")
    assert pf.blocks[0].confidence == DEFAULT_CONFIDENCE
    assert "not a number" in pf.warnings[0].message


def test_impossible_date_in_file_name_is_indexed_as_undated_notes() -> None:
    pf = parse("memory/2025-09-31.md", "Lunch with Peter.\n")
    assert pf.day is None and pf.role == "note"
    assert "2025-09-31 is not a real date" in pf.warnings[0].message
    assert [b.text for b in pf.blocks] == ["Lunch with Peter."]


def test_core_files_index_bullets_and_paragraphs() -> None:
    pf = parse(
        "memory.md",
        "# Core\n\n- Peter lives in Lisbon\n- O(c=0.9) @Peter: Likes tea\n\nA paragraph.\n",
    )
    assert pf.role == "core" and pf.day is None
    assert [(b.kind, b.origin) for b in pf.blocks] == [
        ("world", "core"),
        ("opinion", "core"),
        ("log", "core"),
    ]
    soul = parse("SOUL.md", "I am a careful assistant.\n")
    assert soul.role == "soul" and soul.blocks[0].kind == "log"


def test_entity_page_with_aliases_line() -> None:
    pf = parse(
        "bank/entities/Peter.md", "# Peter\nAliases: Pete, P.\nKind: person\n\nA developer.\n"
    )
    assert pf.entity is not None
    assert (pf.entity.slug, pf.entity.name, pf.entity.kind) == ("peter", "Peter", "person")
    assert pf.entity.aliases == ("Pete", "P.")


def test_entity_page_with_front_matter_and_hyphenated_name() -> None:
    text = "---\naliases: [Château, castle]\nkind: place\n---\n# The Castle\nThe house.\n"
    pf = parse("bank/entities/The-Castle.md", text)
    assert pf.entity is not None
    assert (pf.entity.slug, pf.entity.name, pf.entity.kind) == ("the-castle", "The Castle", "place")
    assert set(pf.entity.aliases) == {"The-Castle", "Château", "castle"}
    assert [b.line_start for b in pf.blocks] == [6]


def test_bank_files_default_their_bullet_kind() -> None:
    assert parse("bank/world.md", "- Lisbon is in Portugal\n").blocks[0].kind == "world"
    assert parse("bank/experience.md", "- I set up the relay\n").blocks[0].kind == "experience"
    opinion = parse("bank/opinions.md", "- O(c=0.6) @Peter: Likes jazz\n").blocks[0]
    assert opinion.kind == "opinion" and opinion.confidence == 0.6


def test_generated_parts_of_bank_pages_are_not_reindexed() -> None:
    text = "# Peter\nMine.\n<!-- graphmem:begin -->\n- W @Peter: generated\n<!-- graphmem:end -->\nAlso mine.\n"
    pf = parse("bank/entities/Peter.md", text)
    assert [b.text for b in pf.blocks] == ["Mine.", "Also mine."]


def test_ids_are_stable_when_other_parts_of_the_file_change() -> None:
    before = {b.text: b.id for b in parse("memory/2025-11-27.md", DAY).blocks}
    edited = DAY.replace("Dinner was late.", "Dinner was late.\n\nA new paragraph.").replace(
        "# Thursday\n", "# Thursday\n\nInserted at the top.\n"
    )
    after = {b.text: b.id for b in parse("memory/2025-11-27.md", edited).blocks}
    assert all(after[text] == id_ for text, id_ in before.items())


def test_identical_text_twice_gets_two_ids() -> None:
    pf = parse("memory/2025-11-27.md", "- same\n\n- same\n")
    assert len({b.id for b in pf.blocks}) == 2


def test_crlf_line_endings_keep_line_numbers() -> None:
    pf = parse("memory/2025-11-27.md", "# A\r\n\r\nfirst\r\n\r\nsecond\r\n")
    assert [(b.text, b.line_start) for b in pf.blocks] == [("first", 3), ("second", 5)]


def test_the_parse_cache_json_is_what_asdict_wrote() -> None:
    """ParsedFile.to_json is built field by field; its JSON is byte for byte what
    dataclasses.asdict gave (so caches written before stay valid), and it reads back."""
    import dataclasses
    import json

    from conftest import FIXTURES

    from graphmem.parse.blocks import ParsedFile

    files = sorted(p for p in FIXTURES.glob("*/**/*.md") if ".memory" not in p.parts)
    assert len(files) > 20
    for path in files:
        rel = path.relative_to(FIXTURES).as_posix().split("/", 1)[1]  # inside its workspace
        parsed = parse(rel, path.read_text(encoding="utf-8", errors="replace"))
        old = dataclasses.asdict(parsed)
        old["day"] = parsed.day.isoformat() if parsed.day else None
        assert json.dumps(parsed.to_json()) == json.dumps(old), rel
        assert ParsedFile.from_json(json.loads(json.dumps(parsed.to_json()))) == parsed, rel
