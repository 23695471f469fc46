"""Free text into line-exact recall units (graphmem.parse.sentences). Pure: no database."""

from __future__ import annotations

import time

from graphmem.parse.parser import parse
from graphmem.parse.sentences import Unit, split_units


def test_one_sentence_per_line_gives_one_unit_per_line() -> None:
    lines = ["Joana moved the backups.", "Théo called at noon.", "Nothing else happened."]
    assert [(u.line_start, u.line_end) for u in split_units(lines, 5)] == [(5, 5), (6, 6), (7, 7)]


def test_a_hard_wrapped_sentence_cites_every_line_it_spans() -> None:
    lines = [
        "Graça's number is still +351 917 302",
        "118, and Joana asked me to keep it handy. She never picks up",
        "before ten.",
    ]
    units = split_units(lines, 5)
    assert units == [
        Unit(
            "Graça's number is still +351 917 302 118, and Joana asked me to keep it handy.", 5, 6
        ),
        Unit("She never picks up before ten.", 6, 7),
    ]


def test_sentences_sharing_one_line_stay_one_unit() -> None:
    (unit,) = split_units(["Pimenta knocked a glass off. No harm done."], 12)
    assert (unit.line_start, unit.line_end) == (12, 12)
    assert unit.text == "Pimenta knocked a glass off. No harm done."


def test_abbreviations_initials_numbers_and_paths_do_not_end_a_sentence() -> None:
    lines = [
        "We met Dr. Pinto, e.g. about v1.2.3 and /srv/kestrel/kestrel.db. J. R. R.",
        "Tolkien too.",
    ]
    units = split_units(lines, 1)
    assert [(u.text, u.line_start, u.line_end) for u in units] == [
        ("We met Dr. Pinto, e.g. about v1.2.3 and /srv/kestrel/kestrel.db.", 1, 1),
        ("J. R. R. Tolkien too.", 1, 2),
    ]


def test_cjk_sentences_end_at_their_own_marks() -> None:
    units = split_units(["林美的妈妈来了。她住到二十号。", "第二行"], 3)
    assert [(u.text, u.line_start) for u in units] == [
        ("林美的妈妈来了。她住到二十号。", 3),
        ("第二行", 4),
    ]


def test_a_lower_case_word_after_a_period_continues_the_sentence() -> None:
    (unit,) = split_units(["It runs on port 8080. and nothing else"], 1)
    assert unit.text == "It runs on port 8080. and nothing else"


def test_parser_cites_crlf_paragraphs_and_list_items_by_sentence() -> None:
    text = "# Day\r\n\r\nFirst line here. Second\r\nsentence wraps.\r\n\r\n- A note. Another note\r\n  wrapped.\r\n"
    blocks = parse("memory/2026-01-05.md", text).blocks
    assert [(b.text, b.line_start, b.line_end) for b in blocks] == [
        ("First line here.", 3, 3),
        ("Second sentence wraps.", 3, 4),
        ("A note.", 6, 6),
        ("Another note wrapped.", 6, 7),
    ]


def test_splitting_a_megabyte_paragraph_stays_linear() -> None:
    lines = ["word. " * 20 + "x"] * 9000 + ["a" * 1_000_000]
    started = time.perf_counter()
    units = split_units(lines, 1)
    # No timing assertion (the machine may be loaded): the point is that it finishes.
    assert units and units[-1].line_end == 9001
    assert time.perf_counter() - started >= 0
