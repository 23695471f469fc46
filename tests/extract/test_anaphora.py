"""graphmem.extract.anaphora: a sentence opening with "she"/"he" (ela, er, il, 她…) is about
the one person the sentence before it named first, and nobody when that is unclear. English,
Portuguese, German, French, Chinese; a real Kùzu and SQLite index for the timeline half."""

from __future__ import annotations

import pytest
from conftest import WriteFiles, settings_for

from graphmem import Memory
from graphmem.extract.anaphora import carry_pronouns, opening_pronoun
from graphmem.extract.entities import Mention
from graphmem.index.build import index_workspace
from graphmem.parse.blocks import Block

PEOPLE = {"ines": "Inês", "bruno": "Bruno", "klara": "Klara"}
PLACES = {"faro": "Faro", "berlin": "Berlin"}


def _blocks(*lines: tuple[int, str]) -> list[Block]:
    return [Block(f"b{i}", "log", text, line, line, "log") for i, (line, text) in enumerate(lines)]


def _named(blocks: list[Block]) -> dict[str, tuple[Mention, ...]]:
    """Mentions of the names in PEOPLE and PLACES as each block spells them."""
    out: dict[str, tuple[Mention, ...]] = {}
    for b in blocks:
        found = [
            Mention(slug, name, b.text.index(name), b.text.index(name) + len(name), "gazetteer")
            for slug, name in {**PEOPLE, **PLACES}.items()
            if name in b.text
        ]
        out[b.id] = tuple(sorted(found, key=lambda m: m.start))
    return out


def _carried(*lines: tuple[int, str]) -> list[str | None]:
    """For each block: the slug a pronoun carried to it, or None."""
    blocks = _blocks(*lines)
    out = carry_pronouns(blocks, _named(blocks), lambda slug: slug in PEOPLE)
    return [next((m.slug for m in out[b.id] if m.source == "pronoun"), None) for b in blocks]


@pytest.mark.parametrize(
    "lines",
    [
        [(3, "Inês started at the bakery on Monday."), (3, "She spent six years in Faro.")],
        [(3, "A Inês começou na padaria na segunda."), (4, "Ela esteve seis anos em Faro.")],
        [(5, "Bruno hat im Mai angefangen."), (5, "Er kam aus Berlin zurück.")],
        [(2, "Bruno est arrivé lundi."), (2, "Il a travaillé six ans à Faro.")],
        [(7, "Inês 周一开始上班。"), (7, "她在法鲁工作了六年。")],
    ],
)
def test_a_pronoun_opening_a_sentence_is_the_person_just_named(
    lines: list[tuple[int, str]],
) -> None:
    first = _named(_blocks(*lines))["b0"][0].slug
    assert _carried(*lines) == [None, first]


def test_a_run_of_sentences_stays_with_its_person() -> None:
    lines = [
        (3, "Inês started on Monday."),
        (3, "She is from Faro."),
        (4, "She bakes the bread at five."),
    ]
    assert _carried(*lines) == [None, "ines", "ines"]


@pytest.mark.parametrize(
    "lines",
    [
        # two people named: either could be "she"
        [(3, "Inês met Klara at the market."), (3, "She bought the figs.")],
        # a place is named first: the person is not what the sentence is about
        [(3, "Berlin was cold; Bruno picked her up."), (3, "She is tired.")],
        # a pronoun of the other gender: "ela" may be anyone but the "ele"
        [(3, "O Bruno ligou-lhe e ele atendeu logo."), (3, "Ela disse que sim.")],
        # a blank line between: a new paragraph
        [(3, "Inês started on Monday."), (5, "She is from Faro.")],
        # impersonal French "il"
        [(2, "Bruno est arrivé lundi."), (2, "Il y a du monde au marché.")],
        # "they"
        [(7, "Inês 周一开始上班。"), (7, "他们在法鲁工作。")],
    ],
)
def test_no_person_is_carried_when_it_is_unclear(lines: list[tuple[int, str]]) -> None:
    assert _carried(*lines) == [None, None]


def test_a_bullet_or_a_name_does_not_open_with_a_pronoun() -> None:
    assert opening_pronoun("- She left early.") == (2, 5)
    assert opening_pronoun("Here we go.") is None
    assert opening_pronoun("Helena left.") is None
    assert opening_pronoun("Elaine left.") is None


def test_the_timeline_of_a_person_holds_the_sentence_a_pronoun_carried(
    make_workspace: WriteFiles,
) -> None:
    root = make_workspace(
        {
            "bank/entities/Ines.md": "# Inês Duarte\nKind: person\n",
            "bank/entities/Bruno.md": "# Bruno Sá\nKind: person\n",
            "memory/2026-03-16.md": (
                "# 16 March\n\n"
                "Inês Duarte started at the bakery today. She spent six years\n"
                "in a hotel kitchen in Faro before coming here.\n\n"
                "Bruno met Inês at the station at six.\nShe was soaked.\n"
            ),
        }
    )
    settings = settings_for(root)
    index_workspace(settings)
    memory = Memory(settings=settings)
    ines = [line.text for line in memory.timeline("Inês", now="2026-03-20").events]
    bruno = [line.text for line in memory.timeline("Bruno", now="2026-03-20").events]
    assert any("hotel kitchen in Faro" in text for text in ines)
    assert not any("soaked" in text for text in ines + bruno)
