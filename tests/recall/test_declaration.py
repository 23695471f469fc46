"""An entity page's declaration lines ("Aliases: …", "Kind: …") name the entity; they say
nothing about it. Every name in them matches a question about the entity, so recall holds
them below what the page and the logs say about it, without dropping them. Real Kùzu and
SQLite indexes; English and Portuguese pages."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for

from graphmem.config.presets import preset
from graphmem.index.build import index_workspace
from graphmem.parse.parser import declaration_only
from graphmem.recall.engine import Recaller
from graphmem.recall.items import RecallOptions

PAGES = [
    (
        "bank/entities/Ines.md",
        "# Inês Duarte\nAliases: Inês, Ines, Nês, the baker\nKind: person\n\n"
        "Bakes the bread at Forno Velho from five in the morning.\n",
        "Where does Inês Duarte (Nês, the baker) bake?",
        "Bakes the bread",
    ),
    (
        "bank/entities/Forno.md",
        "# Forno Velho\nAliases: Forno, o forno, a padaria\nKind: org\n\n"
        "Padaria na Rua da Graça 12, aberta de terça a domingo.\n",
        "Onde fica o Forno Velho (a padaria, o forno)?",
        "Padaria na Rua",
    ),
]


def _recaller(make_workspace: WriteFiles, path: str, page: str) -> Recaller:
    root: Path = make_workspace({path: page})
    settings = settings_for(root)
    index_workspace(settings)
    return Recaller(settings)


@pytest.mark.parametrize(("path", "page", "question", "statement"), PAGES)
def test_what_a_page_says_ranks_above_what_it_calls_the_entity(
    make_workspace: WriteFiles, path: str, page: str, question: str, statement: str
) -> None:
    with _recaller(make_workspace, path, page) as r:
        options = RecallOptions(k=10, now=date(2026, 5, 1))
        texts = [p.content for p in r.recall(question, options).packets]
        plain = replace(preset("default"), declaration_weight=1.0)
        unheld = RecallOptions(k=10, now=date(2026, 5, 1), config=plain)
        first = [p.content for p in r.recall(question, unheld).packets]
    assert texts[0].startswith(statement)
    assert any(t.startswith("Aliases:") for t in texts)  # still there, lower
    assert first[0].startswith("Aliases:")  # what the weight changes


def test_only_a_pages_declaration_lines_are_declarations() -> None:
    assert declaration_only("bank/entities/Ines.md", "Aliases: Nês, the baker\nKind: person")
    assert declaration_only("bank/entities/Ines.md", "kind: person")
    assert not declaration_only("bank/entities/Ines.md", "Aliases: Nês\nBakes the bread.")
    assert not declaration_only("memory/2026-05-01.md", "Kind: person")
    assert not declaration_only("bank/entities/Ines.md", "Kindness: plenty")
