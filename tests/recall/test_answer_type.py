"""A question that asks for a type of value (a price, a phone number) prefers the lines that
hold one, and a value stated once holds until a later line changes it (real index, lexical
and graph only, so the ranking is the rules', not a model's)."""

from __future__ import annotations

import textwrap
from datetime import date

import pytest
from conftest import settings_for

from graphmem.config import Settings
from graphmem.index.build import index_workspace
from graphmem.recall.engine import Recaller, RecallOptions

FILES = {
    "bank/entities/Marta.md": """
        # Marta Sousa
        Kind: person

        Runs the bakery on Rua das Flores; prefers calls to messages.
        """,
    "memory/2026-03-02.md": """
        # 2026-03-02

        Quiet morning. The galão is €1.50 and the regulars like it that way.
        Marta rang from the bakery about the bread order.
        """,
    "memory/2026-05-10.md": """
        # 2026-05-10

        Ran out of milk for the galão at eleven; Marta lent us two litres.
        A Marta agora abre a padaria às sete, diz ela.
        """,
    "memory/2026-06-01.md": """
        # 2026-06-01

        New board today: galão €1.70, tosta mista €3.20.
        """,
    "memory/2026-07-03.md": """
        # 2026-07-03

        A Marta ligou do 913 552 004 a pedir mais pão para sábado.
        """,
}


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    root = tmp_path_factory.mktemp("answer_type")
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    s = settings_for(root)
    index_workspace(s)
    return s


def ask(settings: Settings, question: str, now: date) -> list[str]:
    with Recaller(settings) as r:
        return [p.source for p in r.recall(question, RecallOptions(k=10, now=now)).packets]


@pytest.mark.parametrize(
    "question", ["How much was a galão in May?", "Quanto custava um galão em maio?"]
)
def test_a_price_stated_in_march_still_answers_for_may(settings: Settings, question: str) -> None:
    """March's "€1.50" held through May (June changed it): it leads, not a May line that
    only names the drink."""
    assert ask(settings, question, date(2026, 9, 1))[0] == "memory/2026-03-02.md#L3"


@pytest.mark.parametrize("question", ["How much is a galão now?", "¿Cuánto cuesta un galão?"])
def test_the_current_price_leads_a_question_about_now(settings: Settings, question: str) -> None:
    assert ask(settings, question, date(2026, 9, 1))[0] == "memory/2026-06-01.md#L3"


@pytest.mark.parametrize(
    "question", ["Qual é o telefone da Marta agora?", "Was ist Martas Telefonnummer?"]
)
def test_a_phone_question_finds_the_line_with_the_number(settings: Settings, question: str) -> None:
    """The number is in a Portuguese line that never says "phone"; lines that only share
    the name (or "agora") fall behind it."""
    assert ask(settings, question, date(2026, 9, 1))[0] == "memory/2026-07-03.md#L3"
