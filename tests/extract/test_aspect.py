"""State, event or plan (graphmem.extract.aspect): small hand-written statements per rule. Pure."""

from __future__ import annotations

from datetime import date

import pytest

from graphmem.extract.aspect import aspect, event_day, first_clause, planned, start_day

DAY = date(2025, 9, 10)  # a Wednesday


@pytest.mark.parametrize(
    "text",
    [
        "Lives in Lisbon with his sister.",
        "Backend engineer at Northwind since 3 November.",
        "Peter is a staff engineer on the messaging team at Northwind.",
        "The relay stores its queue in Redis, on atlas.",
        "Engaged since 2 August; no date for the wedding yet.",
        "Married on 12 June 2021 in Porto.",
        "Maintained by Ana Duarte in Coimbra; the bug was confirmed on 2 May.",
        "Rule: always ask Peter before rebooting atlas.",
        "About 12 people; two-person infra team; interview on 14 September.",
        "Mora em Braga desde março, com a Inês.",
        "Travaille chez Airbus depuis janvier.",
        "Wohnt seit Mai in Leipzig.",
        "Trabaja desde abril en una librería de Sevilla.",
        "住在成都，负责支付团队。",
        "All green coffee is bought from Verdeal Importadores (Porto).",
        "Número novo desde 4 de maio: +351 910 000 000 (o antigo foi cancelado).",
    ],
)
def test_standing_states(text: str) -> None:
    assert aspect(text, DAY) == "state"


@pytest.mark.parametrize(
    "text",
    [
        # trips and returns
        "Back in Lisbon since Sunday.",
        "In Oslo from 2 to 6 September for a workshop.",
        "In Madrid 3–5 September for a client visit.",
        "Day trip to Sintra on Saturday 6 September.",
        "Overnight in Salamanca on the drive north.",
        "De retour à Nantes depuis lundi.",
        "De volta a Faro desde ontem.",
        "Rückflug nach Hamburg am Freitag, 5. September.",
        "Vuelve de Bilbao el viernes 5 de septiembre.",
        "上周去杭州出差。",
        # one-off happenings with their day
        "Premiere of the autumn show on Friday 5 September.",
        "Dentist appointment on 8 September, 09:15.",
        "Entretien avec la DRH le mardi 9 septembre à 14h.",
        "Déménagement à Nantes ; camion le samedi 6 septembre.",
        "Almoço de equipa a 9 de setembro, no escritório.",
        "Termin beim Notar am 9. September.",
        "Mudanza a Sevilla el 9 de septiembre.",
        # first times and completed actions
        "First pull request merged at the new job.",
        "Technical interview passed; offer call on Monday.",
        "v2.1.0 released on 2 September with the new parser.",
        "Went live on 1 September, on schedule.",
        "Offsite scope cut to two days.",
        "Her last day at Acme was 29 August.",
        "The relay was renamed courier on 1 September.",
        "La réunion est reportée au jeudi 18 septembre.",
        # purchases and visits: done once, not a standing state
        "Bought a used Brompton in Lisbon for 650 euros.",
        "Il a acheté un tapis au souk de Marrakech pour 750 dirhams.",
        "Comprou uma bicicleta usada em Lisboa, por 650 euros.",
        "Visitou dois apartamentos no Bonfim.",
        "Kaufte ein gebrauchtes Fahrrad in Hamburg.",
        "Compró una bicicleta de segunda mano.",
    ],
)
def test_events(text: str) -> None:
    assert aspect(text, DAY) == "event"


@pytest.mark.parametrize(
    "text",
    [
        "Plans to move to Porto next spring.",
        "Decision: migrate the relay from Redis to NATS; cutover on Saturday.",
        "Peter decided to leave Acme at the end of the year.",
        "SSD at 80% wear; Peter plans a reinstall.",
        "C'est décidé : on part à Lille en octobre.",
        "Reparação da caldeira prevista para quinta-feira.",
        "If we moved to Oslo we would need a bigger flat.",
        "Umzug nach Köln ist für Oktober geplant.",
        "The billing producer moves from Redis to NATS on 16 September.",
    ],
)
def test_plans(text: str) -> None:
    assert aspect(text, DAY) == "plan"
    assert planned(text, DAY)


def test_only_the_first_clause_decides() -> None:
    assert first_clause("Runs on Postgres 16; SQLite retired.") == "Runs on Postgres 16"
    assert aspect("Runs on Postgres 16 since 1 September; SQLite retired.", DAY) == "state"
    assert aspect("Postgres 16 deployed; it runs on atlas since 1 September.", DAY) == "event"
    # an aside in parentheses is not the main verb
    assert aspect("New number since 2 May (the old one was cancelled).", DAY) == "state"


def test_a_day_already_written_is_no_plan() -> None:
    # the day named is the file's own day, or the text looks back
    assert not planned("Engaged on 10 September 2025 in Sintra.", DAY)
    assert not planned("On Friday the cutover went well.", date(2025, 9, 13))


def test_start_and_event_days() -> None:
    assert start_day("Hired as a sound engineer; starts 1 October.", DAY) == date(2025, 10, 1)
    assert start_day("Embauchée chez Airbus ; elle commence le 6 octobre.", DAY) == date(
        2025, 10, 6
    )
    assert start_day("Contratado pela Sonae; começa a 6 de outubro.", DAY) == date(2025, 10, 6)
    assert start_day("Lives in Porto.", DAY) is None
    assert event_day("Premiere on Friday 12 September.", DAY) == date(2025, 9, 12)
    assert event_day("Lives in Porto since 2 May.", DAY) is None  # a bound, not a happening
