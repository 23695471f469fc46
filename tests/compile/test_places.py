"""An entity's home place, as its page's first sentence gives it, names it in opinion
evidence ("the Seville delivery" is the Seville importer's) — in English and Portuguese,
with the non-cases: a person, a place named by two pages, a month, a declared entity."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import WriteFiles
from typer.testing import CliRunner

from graphmem.compile.places import home_places
from graphmem.compile.rows import FactRef
from graphmem.extract.declared import EntityInfo
from graphmem.parse.blocks import Block
from graphmem.surfaces.cli import app

ENV = {
    "GRAPHMEM_NER_MODEL": "none",
    "GRAPHMEM_EMBED_MODEL": "none",
    "GRAPHMEM_BUFFER_POOL_MB": "64",
}


def page(slug: str, first: str, kind: str | None = "org") -> tuple[EntityInfo, list[FactRef]]:
    path = f"bank/entities/{slug}.md"
    info = EntityInfo(slug, slug, kind=kind, declared=True, page=path)
    lines = [f"Aliases: {slug}", first, "Contact: Nacho in Cadiz."]
    blocks = [Block(f"{slug}{i}", "log", t, i + 2, i + 2, "bank") for i, t in enumerate(lines)]
    texts = [FactRef(path, "entity", None, b, frozenset(), None, None) for b in blocks]
    return info, texts


def places(*pages: tuple[EntityInfo, list[FactRef]]) -> dict[str, str]:
    return home_places({p[0].slug: p[0] for p in pages}, [t for p in pages for t in p[1]])


def test_the_first_sentence_of_a_page_gives_its_place() -> None:
    found = places(page("sur", "Green-coffee importer in Seville, warehouse on the Carretera."))
    assert found == {"seville": "sur"}  # not Cadiz: a key line is no description
    found = places(page("moagem", "Torrefação no Porto, armazém em Matosinhos."))
    assert found == {"porto": "moagem", "matosinhos": "moagem"}


@pytest.mark.parametrize(
    ("first", "kind"),
    [
        ("Sound engineer, lives in Lyon.", "person"),  # a town does not name a person
        ("Neighbourhood in Lisbon, up the hill.", "place"),  # nor a place inside it
        ("Started the fit-out in January, done in Março.", "org"),  # months name no place
        ("Written in Go, runs on rook.", "thing"),  # two letters: too short to be sure
    ],
)
def test_no_place_from(first: str, kind: str) -> None:
    assert places(page("x", first, kind)) == {}


def test_a_place_two_pages_give_or_a_declared_entity_names_neither() -> None:
    assert places(page("sur", "Importer in Seville."), page("norte", "Roaster in Seville.")) == {}
    seville = EntityInfo("seville", "Seville", kind="place", declared=True)
    info, texts = page("sur", "Importer in Seville.")
    assert home_places({"sur": info, "seville": seville}, texts) == {}


def _opinions(root: Path) -> dict[str, dict[str, object]]:
    runner = CliRunner()
    out = runner.invoke(app, ["-w", str(root), "index"], env=ENV)
    assert out.exit_code == 0, out.stderr
    out = runner.invoke(app, ["-w", str(root), "opinions", "--json"], env=ENV)
    assert out.exit_code == 0, out.stderr
    return {o["source"]: o for o in json.loads(out.stdout)}


@pytest.mark.parametrize(
    ("description", "prediction", "later", "twin"),
    [
        (
            "Green-coffee importer in Seville, warehouse on the Carretera Amarilla.",
            "- O(c=0.9) @Sur: Sur's deliveries will be a mess for the first few months.",
            "The first Seville delivery came in on time, at 7:40.",
            "The Porto delivery came in on time, at 7:40.",
        ),
        (
            "Torrefação no Porto, com armazém ao pé da ponte.",
            "- O(c=0.9) @Sur: As entregas da Sur vão ser um caos nos primeiros meses.",
            "A primeira entrega do Porto chegou a tempo, às 7h40.",
            "A primeira entrega de Sevilha chegou a tempo, às 7h40.",
        ),
    ],
)
def test_a_delivery_named_by_its_town_moves_the_opinion_of_the_firm_there(
    make_workspace: WriteFiles, description: str, prediction: str, later: str, twin: str
) -> None:
    files = {
        "bank/entities/Sur.md": f"# Sur\nAliases: Sur\nKind: org\n\n{description}\n",
        "memory/2026-04-08.md": f"# 2026-04-08\n\n## Retain\n{prediction}\n",
    }
    other = make_workspace({**files, "memory/2026-05-06.md": f"# 2026-05-06\n\n{twin}\n"})
    assert _opinions(other)["memory/2026-04-08.md#L4"]["confidence"] == 0.9  # another town
    root = make_workspace({**files, "memory/2026-05-06.md": f"# 2026-05-06\n\n{later}\n"})
    mess = _opinions(root)["memory/2026-04-08.md#L4"]
    assert mess["confidence"] < 0.9  # type: ignore[operator]
    assert any(e.startswith("memory/2026-05-06.md#L3") for e in mess["evidence_against"])  # type: ignore[union-attr]
