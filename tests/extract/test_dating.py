"""graphmem.extract.dating: the time a block is dated by (its validity) and its mood."""

from __future__ import annotations

from datetime import date

import pytest

from graphmem.extract.dating import Dating, date_block

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


MAR20 = D(2026, 3, 20)
DEC30, JAN2 = D(2026, 12, 30), D(2027, 1, 2)


@pytest.mark.parametrize(
    ("text", "day", "kind", "expected"),
    [
        # A state that starts or ends on a yearless date ahead: the nearest such day, not
        # the one a year later (was 2027-03-21 for "from 21 March" written on 20 March).
        ("Next step: Kestrel is read-only from 21 March.", MAR20, "world",
         Dating(D(2026, 3, 21), None)),  # tomorrow
        ("Next step: Kestrel is read-only from 20 March.", MAR20, "world",
         Dating(MAR20, None)),  # today
        ("Kestrel stays read-only until 21 March, next to the migration.", MAR20, "world",
         Dating(MAR20, D(2026, 3, 21))),
        ("Kestrel stays read-only until 20 March, next to the migration.", MAR20, "world",
         Dating(MAR20, MAR20)),
        ("Next up: the freeze runs from 2 January.", DEC30, "world",
         Dating(D(2027, 1, 2), None)),
        ("Prochaine étape : Kestrel est en lecture seule à partir du 21 mars.", MAR20, "world",
         Dating(D(2026, 3, 21), None)),  # "Prochaine" alone was "next year", a plan
        ("Prochaine étape : Kestrel est en lecture seule à partir du 2 janvier.", DEC30, "world",
         Dating(D(2027, 1, 2), None)),
        ("Nächster Schritt: ab 21. März ist Kestrel schreibgeschützt.", MAR20, "world",
         Dating(D(2026, 3, 21), None)),
        ("Nächster Schritt: ab 2. Januar ist Kestrel schreibgeschützt.", DEC30, "world",
         Dating(D(2027, 1, 2), None)),
        ("Próximo paso: Kestrel es de solo lectura a partir del 21 de marzo.", MAR20, "world",
         Dating(D(2026, 3, 21), None)),
        ("Próximo paso: Kestrel es de solo lectura a partir del 2 de enero.", DEC30, "world",
         Dating(D(2027, 1, 2), None)),
        ("Próxima etapa: Kestrel fica só de leitura a partir de 21 de março.", MAR20, "world",
         Dating(D(2026, 3, 21), None)),
        ("Próxima etapa: Kestrel fica só de leitura a partir de 2 de janeiro.", DEC30, "world",
         Dating(D(2027, 1, 2), None)),
        # A plan stays an event of its day, whatever it names.
        ("I'll put Kestrel in read-only mode at 09:00 on 21 March for the migration.", MAR20,
         "world", Dating(MAR20, MAR20, "plan")),
        # Past events re-date to the nearest such day on or before the file's.
        ("We met Jonas on 19 March.", MAR20, "log", Dating(D(2026, 3, 19), D(2026, 3, 19))),
        ("We met Jonas on 20 March.", MAR20, "log", Dating(MAR20, None)),  # today: no change
        ("We met Jonas on 30 December.", JAN2, "log", Dating(DEC30, DEC30)),
        ("Nous avons signé le 19 mars.", MAR20, "log", Dating(D(2026, 3, 19), D(2026, 3, 19))),
        ("Nous avons signé le 30 décembre.", JAN2, "log", Dating(DEC30, DEC30)),
        ("Ela assinou em 30 de dezembro.", JAN2, "log", Dating(DEC30, DEC30)),
        ("Wir haben am 30. Dezember gefeiert.", JAN2, "log", Dating(DEC30, DEC30)),
        ("Firmaron el 30 de diciembre.", JAN2, "log", Dating(DEC30, DEC30)),
    ],
)  # fmt: skip
def test_yearless_dates_near_the_day_and_the_year_end(
    text: str, day: date, kind: str, expected: Dating
) -> None:
    assert date_block(text, day, kind) == expected


APR = D(2026, 4, 24)  # the day of writing in the cases below


@pytest.mark.parametrize(
    "text",
    [
        # A date that names a thing ("the 3 March outage") is not when the line happened:
        # the line reports what was done on its own day.
        "Finally wrote the retry logic the 3 March outage asked for.",
        "Closed every ticket left over from the 9 April migration.",
        "Reviewed the 2 April Postgres upgrade notes with Mei.",
        # French, Portuguese, Spanish, German: the date follows the noun it names.
        "J'ai relu le compte rendu de l'incident du 3 avril.",
        "Terminei o relatório da avaria de 3 de abril.",
        "Cerré el informe de la caída del 3 de abril.",
        "Den Bericht über den Ausfall vom 3. April fertig geschrieben.",
    ],
)
def test_a_date_that_names_a_thing_does_not_date_the_line(text: str) -> None:
    assert date_block(text, APR, "log") == Dating(APR, None)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A date of the line's own event still dates it, in any position.
        ("On the 3rd of April we moved the NAS.", D(2026, 4, 3)),
        ("Moved the NAS on 3 April.", D(2026, 4, 3)),
        ("Le 3 avril, on a déménagé le NAS.", D(2026, 4, 3)),
        ("Mudámos o NAS no dia 3 de abril.", D(2026, 4, 3)),
        # A time noun before the date is the time of the event, not a thing named.
        ("Fomos a Braga na semana de 3 de abril.", D(2026, 4, 3)),
        ("Nous étions à Lyon la semaine du 3 avril.", D(2026, 4, 3)),
    ],
)
def test_a_date_of_the_lines_event_still_dates_it(text: str, expected: date) -> None:
    assert date_block(text, APR, "log").valid_from == expected


MAR = D(2026, 3, 4)  # a Wednesday in March


@pytest.mark.parametrize(
    ("text", "until"),
    [
        ("Inês works the morning shift; from 1 October she is on evenings.", D(2026, 10, 1)),
        ("Die Praxis ist in der Lindenstraße. Ab 1. April in der Bahnhofstraße.", D(2026, 4, 1)),
        ("O Tomás anda na creche; a partir de setembro, escola primária.", D(2026, 9, 1)),
    ],
)
def test_a_present_state_then_its_replacement_from_a_later_day(text: str, until: date) -> None:
    """What the block says now holds from its day until the replacement starts, not from
    that start (which read as if the shift, the practice, the crèche began then)."""
    assert date_block(text, MAR, "world") == Dating(MAR, until)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The time comes first: the whole block starts then.
        (
            "From 18 May weekday hours become 7:30–19:00; weekends unchanged.",
            Dating(D(2026, 5, 18), None),
        ),
        # A start already past ("since") is when the present began.
        ("Inês is on evenings; since February, at least.", Dating(D(2026, 2, 1), None)),
        # Only imagined, the first clause states nothing now: the change alone dates it.
        (
            "Maybe Inês stays on mornings; from 1 October she is on evenings.",
            Dating(D(2026, 10, 1), None),
        ),
    ],
)
def test_not_a_present_then_its_replacement(text: str, expected: Dating) -> None:
    assert date_block(text, MAR, "world") == expected
