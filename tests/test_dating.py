"""graphmem.dating: the time a block is dated by (its validity) and its mood."""

from __future__ import annotations

from datetime import date

import pytest

from graphmem.dating import Dating, date_block

D = date
DEC = D(2025, 12, 10)  # a Wednesday in December
SAT = D(2025, 11, 29)  # a Saturday


@pytest.mark.parametrize(
    ("text", "day", "kind", "expected"),
    [
        # The file's day is the default; a phrase that holds the day changes nothing.
        ("Kestrel listens on port 8080.", DEC, "world", Dating(DEC, None)),
        ("She's skipping the climbing gym this week.", DEC, "log", Dating(DEC, None)),
        ("No sun today, so we stayed in.", DEC, "world", Dating(DEC, None)),
        # A forward phrase is an intention on its day, never the passage's validity.
        ("Next year we want to visit Japan.", DEC, "log", Dating(DEC, DEC, "plan")),
        ("The conference is next year.", DEC, "log", Dating(DEC, DEC, "plan")),
        ("Tomorrow Théo flies to Paris.", DEC, "log", Dating(DEC, DEC, "plan")),
        # Past phrases re-date an event, or start a state.
        (
            "Yesterday we fixed the Baileys crash.",
            DEC,
            "log",
            Dating(D(2025, 12, 9), D(2025, 12, 9)),
        ),
        (
            "I booked the dentist last week.",
            DEC,
            "experience",
            Dating(D(2025, 12, 1), D(2025, 12, 7)),
        ),
        ("On Saturday we went to Annecy.", DEC, "log", Dating(D(2025, 12, 6), D(2025, 12, 6))),
        ("Moved to Porto on Saturday.", DEC, "world", Dating(D(2025, 12, 6), None)),
        ("Has run OpenClaw since August.", DEC, "world", Dating(D(2025, 8, 1), None)),
        ("Théo works at Casa da Música from Jan 15.", DEC, "world", Dating(D(2026, 1, 15), None)),
        # "until", "through" close the validity.
        ("Kestrel is on port 8081 until Friday.", DEC, "world", Dating(DEC, D(2025, 12, 12))),
        ("The trial runs through Dec 20.", DEC, "world", Dating(DEC, D(2025, 12, 20))),
        ("Théo reste chez ses parents jusqu'à vendredi.", DEC, "log", Dating(DEC, D(2025, 12, 12))),
        ("Er bleibt bis Freitag in Berlin.", DEC, "log", Dating(DEC, D(2025, 12, 12))),
        # Ranges bound both ends.
        (
            "In Marrakech Nov 27–Dec 1, 2025.",
            D(2025, 11, 20),
            "world",
            Dating(D(2025, 11, 27), D(2025, 12, 1)),
        ),
        # Plans and hypotheticals are events of their day, whatever they name.
        ("We plan to move to Lisbon in March.", DEC, "world", Dating(DEC, DEC, "plan")),
        (
            "If we moved to Montréal, Théo would need a visa.",
            DEC,
            "log",
            Dating(DEC, DEC, "hypothetical"),
        ),
        (
            "Joana is considering an offer from Maré Labs.",
            DEC,
            "world",
            Dating(DEC, DEC, "hypothetical"),
        ),
        ("Si on déménageait à Porto l'an prochain ?", DEC, "log", Dating(DEC, DEC, "hypothetical")),
        ("Vielleicht ziehen wir im März um.", DEC, "log", Dating(DEC, DEC, "hypothetical")),
    ],
)
def test_date_block(text: str, day: date, kind: str, expected: Dating) -> None:
    assert date_block(text, day, kind) == expected


def test_a_weekday_on_the_same_weekday_looks_at_the_tense() -> None:
    assert date_block("On Saturday we went hiking.", SAT, "log").valid_from == D(2025, 11, 22)
    assert date_block("On Saturday we will go hiking.", SAT, "log") == Dating(SAT, SAT, "plan")


def test_several_clauses_are_re_dated_only_when_they_agree() -> None:
    agree = "Yesterday we fixed the crash. It took an hour."
    assert date_block(agree, DEC, "log").valid_from == D(2025, 12, 9)
    differ = "Yesterday we fixed the crash. Last Monday it had started."
    assert date_block(differ, DEC, "log") == Dating(DEC, None)


def test_a_plan_next_to_a_statement_leaves_the_block_a_statement() -> None:
    text = "Kestrel runs on rook. We will move it to Postgres next month."
    assert date_block(text, DEC, "log") == Dating(DEC, None)


def test_without_a_day_only_dated_phrases_count() -> None:
    assert date_block("Lived in Lyon until 2026-05-30.", None, "world") == Dating(
        None, D(2026, 5, 30)
    )
    assert date_block("Lives in Porto since 2026-05-30.", None, "world").valid_from == D(
        2026, 5, 30
    )
    assert date_block("Lives in Porto.", None, "world") == Dating(None, None)
    assert date_block("Might move to Berlin.", None, "world") == Dating(None, None, "hypothetical")


def test_a_comparison_with_another_time_does_not_redate_todays_line() -> None:
    text = "Another change landed this week. Pete's reaction was the same as in September."
    assert date_block(text, date(2025, 11, 13), "log") == Dating(date(2025, 11, 13), None)
    inside = date_block("This week: the relay broke yesterday.", date(2025, 11, 13), "log")
    assert inside == Dating(date(2025, 11, 12), date(2025, 11, 12))
