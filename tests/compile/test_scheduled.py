"""A scheduled change: a line written on day D says a value changes from a later day E
("Beginning 1 June the studio rent is 1100 €", written 10 May). It is a state valid from E:
it ends the older value at E, not at D, so a question asked after E gets the new value and
one asked between D and E still gets the old one. A hypothetical ("If from June…", "maybe
from June…") ends nothing. English, Portuguese, German and French, none of them the cafe
bench's phrasing; a real Kùzu and SQLite index for the recall half."""

from __future__ import annotations

from datetime import date

import pytest
from conftest import WriteFiles, settings_for

from graphmem.compile.supersede import FactIn, find_supersessions
from graphmem.extract.dating import date_block
from graphmem.index.build import index_workspace
from graphmem.recall.engine import Recaller, RecallOptions
from graphmem.recall.packets import Packet

OLD_DAY, SAID, STARTS = date(2026, 3, 2), date(2026, 5, 10), date(2026, 6, 1)
BETWEEN, AFTER = date(2026, 5, 20), date(2026, 7, 1)

SCHEDULED = [
    ("The studio rent is 950 € a month.", "Beginning 1 June the studio rent is 1100 € a month."),
    ("The studio rent is 950 € a month.", "As of June 1st, the studio rent is 1100 € a month."),
    (
        "A renda do estúdio é 950 € por mês.",
        "A partir de 1 de junho a renda do estúdio passa a 1100 € por mês.",
    ),
    ("Die Miete ist 950 € im Monat.", "Ab dem 1. Juni ist die Miete 1100 € im Monat."),
    ("Le loyer de l'atelier est de 950 €.", "Dès le 1er juin le loyer de l'atelier est de 1100 €."),
]
HYPOTHETICAL = [
    ("The studio rent is 950 € a month.", "If from June the studio rent becomes 1100 €, we move."),
    ("The studio rent is 950 € a month.", "Maybe from 1 June the studio rent is 1100 € a month."),
    (
        "A renda do estúdio é 950 € por mês.",
        "Talvez a partir de junho a renda do estúdio passe a 1100 €.",
    ),
]


def facts(old: str, new: str) -> list[FactIn]:
    """The old line on 2 March and the new one on 10 May, dated as the index dates them."""
    dated = date_block(new, SAID, "world")
    return [
        FactIn("old", old, OLD_DAY, OLD_DAY, ("studio",), "world"),
        FactIn("new", new, SAID, dated.valid_from, ("studio",), "world"),
    ]


@pytest.mark.parametrize(("old", "new"), SCHEDULED)
def test_a_scheduled_value_is_a_state_from_its_start_day(old: str, new: str) -> None:
    dated = date_block(new, SAID, "world")
    assert (dated.valid_from, dated.valid_to, dated.mood) == (STARTS, None, None)


@pytest.mark.parametrize(("old", "new"), SCHEDULED)
def test_a_scheduled_value_ends_the_old_one_on_its_start_day(old: str, new: str) -> None:
    found = find_supersessions(facts(old, new))
    assert [(s.newer, s.older, s.day) for s in found] == [("new", "old", STARTS)]


@pytest.mark.parametrize(("old", "new"), HYPOTHETICAL)
def test_a_hypothetical_start_ends_nothing(old: str, new: str) -> None:
    assert find_supersessions(facts(old, new)) == []


def _workspace(make_workspace: WriteFiles, old: str, new: str) -> Recaller:
    root = make_workspace(
        {
            "memory/2026-03-02.md": f"# 2 March\n\n## Retain\n- W @Studio: {old}\n",
            "memory/2026-05-10.md": f"# 10 May\n\n## Retain\n- W @Studio: {new}\n",
        }
    )
    s = settings_for(root)
    index_workspace(s)
    return Recaller(s)


def _packets(r: Recaller, question: str, **options: object) -> list[Packet]:
    opts = RecallOptions(**{"k": 10, **options})  # type: ignore[arg-type]
    return list(r.recall(question, opts).packets)


def _sources(r: Recaller, question: str, **options: object) -> list[str]:
    return [p.source for p in _packets(r, question, **options)]


OLD_LINE, NEW_LINE = "memory/2026-03-02.md#L4", "memory/2026-05-10.md#L4"


RECALLED = [
    (
        "The studio rent is 950 € a month.",
        "As of June 1st, the studio rent is 1100 € a month.",
        "How much is the studio rent?",
    ),
    (
        "A renda do estúdio é 950 € por mês.",
        "A partir de 1 de junho a renda do estúdio passa a 1100 € por mês.",
        "Quanto é a renda do estúdio?",
    ),
]


@pytest.mark.parametrize(("old", "new", "question"), RECALLED)
def test_recall_after_the_start_gives_the_new_value_and_as_of_the_old_one_before(
    make_workspace: WriteFiles, old: str, new: str, question: str
) -> None:
    with _workspace(make_workspace, old, new) as r:
        packets = _packets(r, question, now=AFTER)
        after = [p.source for p in packets]
        assert after.index(NEW_LINE) < after.index(OLD_LINE)
        old_packet = next(p for p in packets if p.source == OLD_LINE)
        assert old_packet.timestamp == f"{OLD_DAY.isoformat()}..{STARTS.isoformat()}"
        as_of_between = _sources(r, question, now=AFTER, as_of=BETWEEN)
        assert OLD_LINE in as_of_between and NEW_LINE not in as_of_between
        assert OLD_LINE not in _sources(r, question, now=AFTER, as_of=AFTER)


@pytest.mark.parametrize(("old", "new", "question"), RECALLED)
def test_recall_between_the_writing_day_and_the_start_keeps_the_old_value_first(
    make_workspace: WriteFiles, old: str, new: str, question: str
) -> None:
    with _workspace(make_workspace, old, new) as r:
        between = _sources(r, question, now=BETWEEN)
        assert between.index(OLD_LINE) < between.index(NEW_LINE)


def test_recall_after_a_hypothetical_start_keeps_the_old_value(make_workspace: WriteFiles) -> None:
    with _workspace(make_workspace, *HYPOTHETICAL[0]) as r:
        packets = _packets(r, "How much is the studio rent?", now=AFTER)
        old = next(p for p in packets if p.source == OLD_LINE)
        assert old.superseded_by is None
        assert packets[0].source == OLD_LINE
