"""1 MB of each pattern's worst case, through the function that runs it on user text.

Each of these inputs stalled a pattern with super-linear backtracking (or a pairwise
loop) for minutes to hours before it was fixed; linear now, each takes at most a few
seconds on a loaded machine. No timing is asserted: a call runs in a thread and the test waits a
generous minute for it, so a regression fails instead of hanging the suite.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import date
from typing import Any

import pytest

from graphmem.compile.counts import counts, located
from graphmem.compile.stance import READ_CHARS, read
from graphmem.compile.supersede import FactIn, find_supersessions
from graphmem.compile.verdicts import negated_over
from graphmem.edit.merge import add_aliases
from graphmem.extract.crosslingual import document_gloss, segment_cjk
from graphmem.extract.entities import Gazetteer, KnownEntity, explicit_mentions, find_mentions
from graphmem.extract.slots import Slot, slots
from graphmem.parse.parser import heading, parse
from graphmem.parse.textio import Lines
from graphmem.store.readonly import tokens

MB = 1 << 20


def finishes(fn: Callable[..., Any], *args: Any) -> Any:
    """`fn(*args)`, or a failure if it has not returned within a minute."""
    out: list[Any] = []
    worker = threading.Thread(target=lambda: out.append(fn(*args)), daemon=True)
    worker.start()
    worker.join(timeout=60)
    assert out, f"{getattr(fn, '__name__', fn)} did not finish on 1 MB of its worst case"
    return out[0]


def test_a_heading_with_a_long_blank_run() -> None:
    assert finishes(heading, "# a" + " " * MB + "b ##") == (1, "a" + " " * MB + "b")


def test_a_heading_line_in_a_file() -> None:
    text = "## Retain" + " \t" * (MB // 2) + "x\n- W @Peter: y\n"
    pf = finishes(parse, "memory/2025-11-27.md", text)
    assert pf.blocks


def test_a_confidence_with_a_long_blank_run() -> None:
    text = "## Retain\n- O(c=0.5" + " " * MB + "x) @Peter: likes tea\n"
    pf = finishes(parse, "memory/2025-11-27.md", text)
    assert any("not a number" in w.message for w in pf.warnings)


def test_an_aliases_line_with_a_long_blank_run() -> None:
    text = "# Peter\nAliases: Pete" + " " * MB + "x\n"
    new, added = finishes(add_aliases, text, "Peter", ["Petey"])
    assert added == ["Petey"] and new.endswith(" " * MB + "x, Petey\n")


def test_a_handle_ending_in_a_long_punctuation_run() -> None:
    text = "@a" + ".-" * (MB // 2) + "b and @Peter."
    assert [m.surface for m in finishes(explicit_mentions, text)] == ["Peter"]


def test_a_text_naming_someone_on_every_word() -> None:
    gazetteer = Gazetteer.build([KnownEntity("peter", "Peter", aliases=("Peter Pan",))])
    text = "@Peter " + "Peter " * (MB // 6)
    found = finishes(find_mentions, text, gazetteer)
    assert len(found) == MB // 6 + 1


def test_a_name_repeated_is_looked_up_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # 150,000 "@Peter" each resolved through the gazetteer and slugified: 2-3 s a MB, most
    # of it asking the same question again. Counting the work, not the seconds.
    from graphmem.extract import entities

    gazetteer = Gazetteer.build([KnownEntity("peter", "Peter")])
    calls: list[str] = []
    resolve, slugify = Gazetteer.resolve, entities.slugify
    monkeypatch.setattr(Gazetteer, "resolve", lambda g, n: calls.append(n) or resolve(g, n))
    monkeypatch.setattr(entities, "slugify", lambda n: calls.append(n) or slugify(n))
    found = finishes(find_mentions, "@Peter " * (MB // 7), gazetteer)
    assert len(found) == MB // 7 and {m.slug for m in found} == {"peter"}
    assert calls == ["Peter", "Peter"]  # one slugify, one resolve


@pytest.mark.parametrize("pump", ["moved to Lisbon ", "Postgres v1 1.2 ", "lives in Porto 1 "])
def test_a_fact_repeating_a_change_phrase(pump: str) -> None:
    facts = [
        FactIn("a", "Peter lives in Lisbon.", date(2025, 1, 1), None, ("peter",)),
        FactIn("b", "Peter " + pump * (MB // len(pump)), date(2025, 2, 1), None, ("peter",)),
    ]
    finishes(find_supersessions, facts)


def test_cypher_made_of_a_megabyte_of_strings_and_comments() -> None:
    text = "RETURN 1 " + "/* ' */ 'a\\'b' `c` // x\n" * (MB // 24)
    assert finishes(tokens, text)[0].text == "RETURN"


def test_a_megabyte_of_lone_carriage_returns() -> None:
    data = b"a\r" * (MB // 2)
    assert finishes(Lines.decode, data).encode() == data


def test_a_line_of_minus_ones_has_no_port() -> None:
    # The host-port pattern read the rest of the line from every position of "-1-1-1…".
    assert finishes(slots, "-1" * (MB // 2)) == []
    assert Slot("port", "", "8080") in finishes(slots, "-1" * (MB // 2) + " x.lan:8080")


def test_a_line_of_preference_cues() -> None:
    # Each "prefer" read the rest of the line for "over"/"than"/"to".
    assert finishes(read, "prefer " * (MB // 7)).preference is None


def test_a_megabyte_sentence_is_read_by_its_first_4000_characters() -> None:
    # Reflection reads every sentence against every cue pattern (1-5 s a megabyte).
    text = "I prefer tea over coffee and I am not happy about it, " * (MB // 54)
    assert finishes(read, text) == read(text[:READ_CHARS])
    assert read(text).preference is not None and read(text).negated


def test_a_clause_of_negations() -> None:
    # Each "not" read its clause to the end, and the topic of all of it.
    assert not finishes(negated_over, "not " * (MB // 4), frozenset({"tea"}))


def test_a_megabyte_of_chinese_for_the_seed_index() -> None:
    assert finishes(segment_cjk, "年月日" * (MB // 3)).count("年") == MB // 3


def test_document_gloss_of_a_1_mb_german_word() -> None:
    """German compounds were split at every position of a word (quadratic in its length);
    a gloss reads a block's first GLOSS_CHARS characters and splits words up to 40."""
    text = "der die das " + "a" * MB
    assert finishes(document_gloss, text) == text
    glossed = finishes(document_gloss, "der die das Datenbankserver " * (MB // 28))
    assert glossed.endswith("(database server box machine)")


def test_same_day_evidence_of_20_000_bullets_and_lines_sharing_a_word() -> None:
    """A bullet's same-day evidence looks words up per file, once: a day of 20,000 lines
    and 20,000 bullets that all share one word no longer compares every pair."""
    from graphmem.compile.rows import DayWords, FactRef, fact_evidence
    from graphmem.parse.blocks import Block

    n = 20_000
    passages = {"memory/2026-01-01.md": [(f"p{i}", frozenset()) for i in range(n)]}
    texts = {f"p{i}": f"kestrel crawl {i} batch{i}" for i in range(n)}
    words = DayWords(passages, texts)

    def run() -> int:
        linked = 0
        for i in range(n):
            block = Block(
                id=f"f{i}",
                kind="world",
                text=f"kestrel crawl {i} batch{i}",
                line_start=i,
                line_end=i,
                origin="retain",
            )
            ref = FactRef(
                "memory/2026-01-01.md", "daily", date(2026, 1, 1), block, frozenset(), None, None
            )
            linked += len(fact_evidence(ref, passages, words))
        return linked

    assert finishes(run) == n  # each bullet finds its own line, by its two own words


@pytest.mark.parametrize(
    "blob",
    [
        "A" * MB + " 12",  # a pasted key: a name no longer starts at every capital of a word
        "A'" * (MB // 2) + " 12 on Lagares",
        "Rua Ab" + " " * MB + "Street in Anjos",  # a blank run between a street and its area
        "Rua Ab 12" + " " * MB + ", Anjos",
    ],
)
def test_a_pasted_blob_is_read_for_places_and_counts_once(blob: str) -> None:
    finishes(located, [blob])
    finishes(counts, blob, {"lagares": "mouraria"})


def test_a_megabyte_digit_run_is_no_count() -> None:
    """int() refuses more than 4300 digits; a count has two to nine."""
    assert finishes(counts, "Lagares " + "1" * MB, {"lagares": "mouraria"}) == []
    assert finishes(counts, "Lagares 131 today", {"lagares": "mouraria"}) == [("mouraria", 131)]
