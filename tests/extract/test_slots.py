"""Typed values by shape (graphmem.extract.slots) and the supersessions they give. Pure."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from graphmem.compile.supersede import FactIn, find_supersessions
from graphmem.extract.slots import Slot, couple, database, slots, temporary


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mobile +351 917 302 118.", [Slot("phone", "", "917302118")]),
        (
            "Número novo da Graça: +351 933 481 660 (o antigo foi cancelado).",
            [Slot("phone", "", "933481660")],
        ),
        ("LAN address 192.168.1.40 in Lyon", [Slot("ip", "", "192.168.1.40")]),
        ('listen = "127.0.0.1:9120"', [Slot("port", "", "9120")]),
        ("Listens on port 8080", [Slot("port", "", "8080")]),
        ("Auf Port 9120 umgestellt", [Slot("port", "", "9120")]),
        ("Kestrel uses Skein v0.9.2 now", [Slot("version", "skein", "0.9.2")]),
        (
            "retry.maxAttempts raised from 5 to 8 after the load test",
            [Slot("setting", "retry.maxattempts", "8")],
        ),
        ("crawler.maxConcurrent = 4", [Slot("setting", "crawler.maxconcurrent", "4")]),
        ("Nothing typed here, just 12 cats and kestrel.toml.", []),
        ("New LAN IP 10.0.0.7 in Porto (was 10.0.1.7 in Lyon).", [Slot("ip", "", "10.0.0.7")]),
        ("Port 9120 now (antes 8080).", [Slot("port", "", "9120")]),
        # a hard wrap inside the value: the line breaks where the editor wrapped it
        ("her number is 912 448\n305 and she prefers a call", [Slot("phone", "", "912448305")]),
        ("Número novo:\n  +351 933\n481 660", [Slot("phone", "", "933481660")]),
        ("LAN address now\n192.168.0.40 since the move", [Slot("ip", "", "192.168.0.40")]),
    ],
)
def test_values_are_found_by_shape(text: str, expected: list[Slot]) -> None:
    assert slots(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Temporarily on port 8081 until Friday",
        "If we moved it to port 9000 it would clash",
        "Tried relay.maxRetries = 7 on staging",
        "端口暂时改成 8081",
        "vorübergehend auf Port 8081",
    ],
)
def test_temporary_planned_and_trial_values_are_marked(text: str) -> None:
    assert temporary(text)


def test_a_load_test_is_not_a_trial_value() -> None:
    assert not temporary("retry.maxAttempts raised from 5 to 8 after the load test on 15 April")


def fact(id_: str, text: str, day: int, *entities: str) -> FactIn:
    return FactIn(id_, text, date(2026, 1, day), None, entities)


def edges(facts: list[FactIn]) -> list[tuple[str, str, str]]:
    return [(s.newer, s.older, s.cue) for s in find_supersessions(facts)]


def test_a_new_phone_number_in_another_language_supersedes_the_old() -> None:
    facts = [
        fact("old", "Joana's mother; mobile +351 917 302 118.", 1, "graca"),
        fact("new", "Número novo da Graça: +351 933 481 660.", 9, "graca"),
    ]
    assert edges(facts) == [("new", "old", "phone: 917302118 -> 933481660")]


def test_the_same_value_restated_or_another_entitys_value_supersedes_nothing() -> None:
    facts = [
        fact("a", "mobile +351 917 302 118", 1, "graca"),
        fact("b", "Still +351 917 302 118", 2, "graca"),
        fact("c", "mobile +351 911 111 111", 3, "rui"),
    ]
    assert edges(facts) == []


def test_a_temporary_value_never_supersedes_but_a_later_lasting_one_does() -> None:
    facts = [
        fact("a", "Listens on port 8080", 1, "kestrel"),
        fact("b", "Temporarily on port 8081 until Friday", 2, "kestrel"),
        fact("c", "Now listens on port 9120", 3, "kestrel"),
    ]
    assert edges(facts) == [("c", "a", "port: 8080 -> 9120")]


def test_a_config_key_is_its_own_thing_whoever_mentions_it() -> None:
    facts = [
        fact("a", "retry.maxAttempts = 5 in prod.yaml", 1, "sluice"),
        fact("b", "retry.maxAttempts raised from 5 to 8", 5, "joana"),
        fact("c", "producer.retries = 8 copies it", 6, "tidepool"),
    ]
    assert edges(facts) == [("b", "a", "setting retry.maxattempts: 5 -> 8")]


def test_a_planned_change_supersedes_nothing_through_the_index(tmp_path: Path) -> None:
    from conftest import settings_for

    from graphmem.index.build import index_workspace
    from graphmem.memory import run_cypher

    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "2026-01-05.md").write_text(
        "## Retain\n- W @Kestrel: Kestrel listens on port 8080.\n", encoding="utf-8"
    )
    (root / "memory" / "2026-02-05.md").write_text(
        "## Retain\n- W @Kestrel: We plan to move Kestrel to port 9120 next month.\n",
        encoding="utf-8",
    )
    s = settings_for(root)
    index_workspace(s)
    assert run_cypher(s, "MATCH (:Fact)-[s:SUPERSEDES]->(:Fact) RETURN count(s)").rows == [[0]]
    (root / "memory" / "2026-03-05.md").write_text(
        "## Retain\n- W @Kestrel: Kestrel now listens on port 9120.\n", encoding="utf-8"
    )
    index_workspace(s)
    rows = run_cypher(s, "MATCH (n:Fact)-[s:SUPERSEDES]->(o:Fact) RETURN n.day, o.day, s.cue").rows
    assert [r[2] for r in rows] == ["port: 8080 -> 9120"]


@pytest.mark.parametrize(
    ("text", "engine"),
    [
        ("Kestrel stores everything in SQLite.", "sqlite"),
        ("Runs on Postgres 16 since March; SQLite retired.", "postgresql"),
        ("switched from MySQL to MariaDB", "mariadb"),
        ("Compared SQLite and DuckDB for the export", None),  # two engines, none chosen
        ("pg_dump at 02:15, restic at 02:30", None),
        ("Kestrel needs a reconnect loop (after a Postgres restart).", None),  # in passing
        ("I deleted the old SQLite file.", None),
    ],
)
def test_database_engine_by_name(text: str, engine: str | None) -> None:
    found = database(text)
    assert (found.value if found else None) == engine
    assert all(s.type != "database" for s in slots(text))  # recall's slots stay as they were


@pytest.mark.parametrize(
    ("text", "status"),
    [
        ("Her brother Tomas is seeing Ines, a teacher.", "dating"),
        ("O Tomás e a Inês vivem juntos em Braga desde maio.", "together"),
        ("Tomas and Ines moved in together in March.", "together"),
        ("Engaged since 3 May.", "engaged"),
        ("Verheiratet seit 2019.", "married"),
        ("Tomas is seeing a doctor about his knee.", None),  # no name after "seeing"
        ("Lives in Braga.", None),
    ],
)
def test_couple_status(text: str, status: str | None) -> None:
    found = couple(text)
    assert (found.value if found else None) == status


def test_a_couple_moving_in_together_supersedes_dating() -> None:
    facts = [
        fact("old", "Her brother Tomas is seeing Ines, a nurse on his ward.", 1, "tomas"),
        fact("visit", "Tomas and Ines visit Porto on the weekend of the 25th.", 5, "tomas"),
        fact("new", "O Tomás e a Inês vivem juntos em Braga desde o dia 9.", 9, "tomas"),
    ]
    assert edges(facts) == [("new", "old", "couple: dating -> together")]


def test_a_value_said_only_in_an_aside_is_not_held() -> None:
    facts = [
        fact("rename", "The box was renamed atlas on 1 March (Debian 13, same IP 10.0.1.7).", 1, "atlas"),
        fact("new", "New LAN IP 10.0.0.7 in Porto (was 10.0.1.7).", 9, "atlas"),
    ]  # fmt: skip
    assert edges(facts) == []
    stated = fact("old", "LAN IP 10.0.1.7, Debian 13.", 1, "atlas")
    assert edges([stated, facts[1]]) == [("new", "old", "ip: 10.0.1.7 -> 10.0.0.7")]


@pytest.mark.parametrize(
    "text",
    [
        "Kestrel stores everything in SQLİTE now.",  # U+0130, which `re` folds to "i"
        "Kestrel stores everything in ſqlite now.",  # U+017F, which `re` folds to "s"
    ],
)
def test_an_engine_name_in_folded_letters_is_read_not_a_crash(text: str) -> None:
    """Such a name matched the pattern but was no key once lowered: a KeyError stopped the
    whole compile on one hostile line."""
    assert database(text) == Slot("database", "", "sqlite")
    assert database(text.replace("stores everything in", "retired")) is None


def test_an_index_reads_a_log_with_an_engine_in_folded_letters(tmp_path: Path) -> None:
    from conftest import settings_for

    from graphmem.index.build import index_workspace
    from graphmem.memory import run_cypher

    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "2026-01-05.md").write_text(
        "## Retain\n- W @Kestrel: Kestrel stores everything in SQLİTE.\n"
        "- W @Kestrel: Kestrel stores everything in Postgres now.\n",
        encoding="utf-8",
    )
    s = settings_for(root)
    index_workspace(s)
    assert run_cypher(s, "MATCH (f:Fact) RETURN count(f)").rows == [[2]]


# A phone number is a phone number with or without its country code: most people write the
# national form, and a later number in either form ends the older one.
@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("The plumber's number is 213 554 871, ask for Vítor.", "213554871"),
        ("Ligou-me do 968 220 413 ontem à noite.", "968220413"),
        ("Call the vet on 415-555-0172 before noon.", "155550172"),
        ("Le garage: 06 12 34 56 78.", "612345678"),
    ],
)
def test_a_national_phone_number_is_a_phone(text: str, digits: str) -> None:
    assert [s.value for s in slots(text) if s.type == "phone"] == [digits]


@pytest.mark.parametrize(
    "text",
    [
        "The flat costs 1 250 000 € and the deposit is due 2026-05-03.",
        "O empréstimo é de R$ 12 500 000 e vence em 03.05.2026.",
        "Server 10.20.30.40 answers again.",
    ],
)
def test_amounts_dates_and_addresses_are_not_phones(text: str) -> None:
    assert [s for s in slots(text) if s.type == "phone"] == []


def test_the_country_code_does_not_make_a_number_new() -> None:
    facts = [
        fact("a", "Vítor, the plumber: 213 554 871.", 1, "vitor"),
        fact("b", "Vítor's number is +351 213 554 871.", 2, "vitor"),
        fact("c", "Vítor agora atende no 213 554 999.", 3, "vitor"),
    ]
    assert edges(facts) == [("c", "b", "phone: 213554871 -> 213554999")]


# A weekly habit is a value too: the days an activity is on. A later line giving the same
# activity other days ends the older line, in any language; one weekday is an event.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The choir rehearses on Thursday evenings.", [Slot("weekly", "rehea", "thu")]),
        ("Choir: rehearsals every Monday and Thursday.", [Slot("weekly", "rehea", "mon thu")]),
        ("O coro ensaia às segundas-feiras.", [Slot("weekly", "ensai", "mon")]),
        ("Der Chor probt jetzt dienstags.", [Slot("weekly", "probt", "tue")]),
        ("A padaria fecha aos domingos.", [Slot("weekly", "fecha", "sun")]),
        ("The choir rehearsed on Thursday evening.", []),  # one evening: an event
        ("Yoga also on Fridays now.", []),  # a habit added, not one replaced
        ("Mondays are quiet.", []),  # no activity named before the day
    ],
)
def test_a_weekly_habit_is_a_value(text: str, expected: list[Slot]) -> None:
    assert [s for s in slots(text) if s.type == "weekly"] == expected


def test_a_weekly_habit_moved_to_other_days_supersedes_the_old_days() -> None:
    facts = [
        fact("a", "Choir rehearses on Thursday evenings; concerts on Sundays.", 1, "choir"),
        fact("b", "The choir rehearses on Thursday evenings, as ever.", 4, "choir"),
        fact("c", "Choir rehearsals now every Tuesday.", 9, "choir"),
        fact("d", "O coro ensaia às quartas-feiras desde março.", 20, "coro"),  # another entity
    ]
    # the latest statement of the old days is the one ended, as for every typed value
    assert edges(facts) == [("c", "b", "weekly rehea: thu -> tue")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("A pint of cider is now £4.50 at the Crown.", [Slot("price", "cider", "4.50")]),
        ("O galão custa 1,60 € desde segunda.", [Slot("price", "galao", "1.60")]),
        ("Der Cappuccino kostet jetzt 3,20 EUR.", [Slot("price", "cappu", "3.20")]),
        (
            "Menu: latte €3.00, mocha €3.40 · tea 2,10 €",
            [
                Slot("price", "latte", "3.00"),
                Slot("price", "mocha", "3.40"),
                Slot("price", "tea", "2.10"),
            ],
        ),
        ("Parking stays at €1,150 a month.", [Slot("price", "parki", "1150")]),
        ("Le croissant passe à 1,5 €.", [Slot("price", "crois", "1.50")]),
        # thousands after a space (plain, narrow no-break, no-break), as fr and pt write them
        ("The studio rent goes up to 1 400 € in June.", [Slot("price", "rent", "1400")]),
        ("Le loyer du studio passe à 1\u202f400 € en juin.", [Slot("price", "studi", "1400")]),
        ("A renda do estúdio passa a 1\u00a0400 € em junho.", [Slot("price", "estud", "1400")]),
        ("The van cost €12 500.50 in the end.", [Slot("price", "van", "12500.50")]),
        # an amount with nothing named before it in its phrase prices nothing
        ("Approved on Monday — €38,000 over six years.", []),
        ("Budget: €900–€1,400 for a cart", []),
    ],
)
def test_a_price_is_the_amount_and_the_thing_named_before_it(
    text: str, expected: list[Slot]
) -> None:
    assert slots(text) == expected


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("The studio rent is 1 400 € a month.", "The studio rent is now 2 400 € a month."),
        ("A renda do estúdio é 1\u00a0400 € por mês.", "A renda do estúdio passa a 2\u00a0400 €."),
    ],
)
def test_a_rent_written_with_spaced_thousands_changes_by_its_whole_amount(
    old: str, new: str
) -> None:
    """1 400 € -> 2 400 € is a change (read as 400 twice, it was none)."""
    facts = [fact("a", old, 1, "studio"), fact("b", new, 2, "studio")]
    assert [(e[0], e[1]) for e in edges(facts)] == [("b", "a")]


def test_a_price_with_its_currency_is_no_phone_number() -> None:
    assert slots("Call 912 448 305 about the scooter, €1 200 000 is not a price here") == [
        Slot("phone", "", "912448305")
    ]


# How much someone works is a value too: full-time or part-time, in any language.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Marco joined the bakery part-time, mornings only.", "part"),
        ("Marco goes full time from October.", "full"),
        ("O Marco passou a tempo inteiro em outubro.", "full"),
        ("Marco travaille à mi-temps depuis lundi.", "part"),
        ("Marco arbeitet jetzt Vollzeit.", "full"),
    ],
)
def test_the_workload_is_a_value(text: str, expected: str) -> None:
    assert [s.value for s in slots(text) if s.type == "workload"] == [expected]


def test_a_part_timer_is_a_person_not_a_workload() -> None:
    assert slots("Draft staff: Marco (bar), weekend part-timer TBD.") == []


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Marco started at the bakery, part-time.", "Marco is full-time from October."),
        (
            "O Marco começou na padaria em meio período.",
            "O Marco está a tempo inteiro desde outubro.",
        ),
    ],
)
def test_full_time_ends_part_time(old: str, new: str) -> None:
    facts = [fact("a", old, 1, "marco"), fact("b", new, 2, "marco")]
    assert [(e[0], e[1]) for e in edges(facts)] == [("b", "a")]
