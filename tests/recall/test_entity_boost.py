"""A question that names two entities ("When did Rafa see the Rua dos Lagares space?") is
answered by a line that names both, not by one of the many lines about the person alone:
the entity boost counts once per named entity of the question (up to `entity_boost_max`).
The speakers of a chat count as one: every turn names one of them, and a greeting the
other. Real Kùzu and SQLite indexes (English and Portuguese), and the ranking itself for
the speakers."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for

from graphmem.config.presets import preset
from graphmem.index.build import index_workspace
from graphmem.recall.engine import Recaller
from graphmem.recall.items import Item, RecallOptions
from graphmem.recall.rank import rank
from graphmem.recall.understand import QueryPlan

#: (pages, day file, its text, question, the line naming both entities)
CASES = [
    (
        {
            "bank/entities/Nuno.md": "# Nuno Salgado\nAliases: Nuno\nKind: person\n\nOwns the bakery.\n",
            "bank/entities/Travessa.md": "# Travessa do Forno\nAliases: Travessa\nKind: place\n\n"
            "A street in Alfama.\n",
        },
        "memory/2026-03-10.md",
        "# 2026-03-10\n\n"
        "Nuno visited the storage space the landlord offered, when it was empty.\n\n"
        "Nuno visited a space for the bakery's second oven.\n\n"
        "Nuno visited his mother in the afternoon.\n\n"
        "Viewing at the Travessa went well; Nuno liked the light.\n",
        "When did Nuno visit the Travessa do Forno space?",
        "Viewing at the Travessa",
    ),
    (
        {
            "bank/entities/Marta.md": "# Marta Reis\nAliases: Marta\nKind: person\n\nSócia da loja.\n",
            "bank/entities/Travessa.md": "# Travessa do Forno\nAliases: Travessa\nKind: place\n\n"
            "Uma rua em Alfama.\n",
        },
        "memory/2026-04-06.md",
        "# 2026-04-06\n\n"
        "A Marta visitou o espaço de arrumação que o senhorio ofereceu, quando estava vazio.\n\n"
        "A Marta visitou um espaço para a segunda loja.\n\n"
        "A Marta visitou a mãe à tarde.\n\n"
        "Na Travessa, a visita correu bem; a Marta gostou da luz.\n",
        "Quando é que a Marta visitou o espaço da Travessa do Forno?",
        "Na Travessa, a visita",
    ),
]


@pytest.mark.parametrize(("pages", "path", "text", "question", "both"), CASES)
def test_a_line_naming_both_entities_comes_first(
    make_workspace: WriteFiles,
    pages: dict[str, str],
    path: str,
    text: str,
    question: str,
    both: str,
) -> None:
    root: Path = make_workspace({**pages, path: text})
    settings = settings_for(root)
    index_workspace(settings)
    once = replace(preset("default"), entity_boost_max=1)
    with Recaller(settings) as r:
        now = date(2026, 5, 1)
        found = [p.content for p in r.recall(question, RecallOptions(k=5, now=now)).packets]
        flat = r.recall(question, RecallOptions(k=5, now=now, config=once)).packets
    assert found[0].startswith(both)
    assert not flat[0].content.startswith(both)  # what counting each entity changes


def _item(id_: str, score: float, entities: list[tuple[str, str, str]]) -> Item:
    row = {"day": date(2026, 2, 1), "path": "memory/2026-02-01.md", "line_start": int(id_[1:])}
    return Item(id_, "Passage", {**row, "text": id_}, score, [], entities)


def _ranked(question: str, wanted: tuple[str, ...], *items: Item) -> list[str]:
    plan = QueryPlan(question, wanted, None, frozenset())
    options = RecallOptions(k=5, now=date(2026, 3, 1))
    return [i.id for i in rank({i.id: i for i in items}, {}, plan, options, lambda: None)]


def test_the_speakers_of_a_chat_count_as_one_entity() -> None:
    # Ana asks, greeting Bruno by name; Bruno's own answer names only him (his speaker).
    greeting = _item("p1", 1.0, [("ana", "Ana", "speaker"), ("bruno", "Bruno", "mention")])
    answer = _item("p2", 1.05, [("bruno", "Bruno", "speaker")])
    question = "What did Ana and Bruno cook?"
    assert _ranked(question, ("ana", "bruno"), greeting, answer) == ["p2", "p1"]


def test_a_place_named_with_a_speaker_counts_twice() -> None:
    # Two turns of Ana's, asked about Ana and a place only the first one names.
    greeting = _item("p1", 1.0, [("ana", "Ana", "speaker"), ("porto", "Porto", "mention")])
    answer = _item("p2", 1.05, [("ana", "Ana", "speaker")])
    question = "What did Ana do in Porto?"
    assert _ranked(question, ("ana", "porto"), greeting, answer) == ["p1", "p2"]
