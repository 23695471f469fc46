"""Cross-lingual lexical matching: Chinese segmentation for FTS5 and the question lexicon."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.extract.crosslingual import (
    cjk_bigrams,
    detect_language,
    english_gloss,
    english_query,
    parse_lexicon,
    segment_cjk,
    segment_zh,
    translate,
)
from graphmem.search.seeds import SeedIndex, SeedRow, connect, match_expression

NOTES = [
    SeedRow(
        "en-job", "world", "Paul started his new job at Acme on 3 March.", "2026-03-03", "a.md"
    ),
    SeedRow("en-move", "world", "Paul moved to Lisbon with his girlfriend.", "2026-04-01", "a.md"),
    SeedRow(
        "en-phone", "world", "Ana's new mobile number is +351 912 000 111.", "2026-04-02", "a.md"
    ),
    SeedRow("en-other", "log", "The weather was grey and Paul stayed in.", "2026-04-03", "a.md"),
    SeedRow("zh-trip", "log", "我妈妈下周三从北京飞回上海，会住到五月。", "2026-04-04", "zh.md"),
    SeedRow("zh-work", "log", "小王今天开始在新公司上班。", "2026-04-05", "zh.md"),
    SeedRow("fr-note", "log", "Paul a commencé le piano cette semaine.", "2026-04-06", "fr.md"),
]


@pytest.fixture
def index(tmp_path: Path) -> SeedIndex:
    built = SeedIndex.build(tmp_path / "seeds.sqlite", NOTES)
    yield built
    built.close()


def _top(index: SeedIndex, question: str, k: int = 3) -> list[str]:
    return [seed_id for seed_id, _ in index.lexical(question, k)]


# --- Chinese segmentation -------------------------------------------------------------------


def test_segment_cjk_spaces_han_and_leaves_other_text_alone() -> None:
    assert segment_cjk("Paul moved to Lisbon.") == "Paul moved to Lisbon."
    assert segment_cjk("Théo去了北京") == "Théo 去  了  北  京 "
    assert segment_cjk("カタカナ") == " カ  タ  カ  ナ "


def test_unicode61_alone_makes_a_han_run_one_token(tmp_path: Path) -> None:
    """Why segmentation exists: without it a Chinese question matches no Chinese note."""
    conn = connect(tmp_path / "raw.sqlite")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61')")
    conn.execute("INSERT INTO t VALUES ('我妈妈下周三从北京飞回上海')")
    assert conn.execute("SELECT count(*) FROM t WHERE t MATCH '北京'").fetchone()[0] == 0
    conn.close()


def test_a_chinese_question_finds_the_chinese_note(index: SeedIndex) -> None:
    assert _top(index, "妈妈什么时候回上海？", 1) == ["zh-trip"]
    assert _top(index, "小王在哪家公司上班？", 1) == ["zh-work"]


def test_bigrams_skip_question_words_and_grammar() -> None:
    grams = cjk_bigrams("妈妈什么时候回上海？")
    assert "妈 妈" in grams and "上 海" in grams
    assert not any(g in grams for g in ("什 么", "时 候", "么 时"))
    assert cjk_bigrams("什么？") == []


def test_segment_zh_keeps_unknown_names_together() -> None:
    assert segment_zh("小王的妈妈") == ["小王", "的", "妈妈"]


def test_patching_an_index_keeps_chinese_searchable(index: SeedIndex, tmp_path: Path) -> None:
    path = index.path
    index.close()
    new = SeedRow("zh-new", "log", "我妈妈明天回成都。", "2026-04-07", "zh.md")
    removed = SeedIndex.patch(path, ["zh.md"], [new])
    assert set(removed) == {"zh-trip", "zh-work"}
    patched = SeedIndex.open(path)
    try:
        assert _top(patched, "妈妈回成都吗？", 1) == ["zh-new"]
        assert _top(patched, "上海", 3) == []  # the deleted note left the index
    finally:
        patched.close()


# --- language detection and the lexicon -------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("Quand est-ce que Paul a commencé son nouveau travail ?", "fr"),
        ("Onde é que o Paul vive agora?", "pt"),
        ("Wann hat Paul die neue Stelle angefangen?", "de"),
        ("¿Dónde vive Paul ahora?", "es"),
        ("保罗什么时候开始工作？", "zh"),
        ("Where does Paul live now?", None),
        ("What did Paul start in March?", None),
        ("Tell me about Paul", None),
    ],
)
def test_detect_language(question: str, language: str | None) -> None:
    assert detect_language(question) == language


def test_an_english_question_gets_no_translation() -> None:
    assert translate("Where does Paul live now, and who is his son?").words == ()


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Quand est-ce que Paul a commencé son nouveau travail ?", {"started", "job", "new"}),
        ("Qual é o número de telemóvel da Ana?", {"number", "phone", "mobile"}),
        ("Wann ist Paul nach Lissabon umgezogen?", {"moved", "lisbon"}),
        ("¿Cuándo se mudó Paul con su novia?", {"moved", "girlfriend"}),
        ("保罗什么时候搬家的？", {"moved"}),
        ("Welche Handynummer hat Ana?", {"phone", "number"}),
    ],
)
def test_translate_gives_english_content_words(question: str, expected: set[str]) -> None:
    assert expected <= set(translate(question).words)


def test_german_compounds_split_into_known_words() -> None:
    assert {"database", "server"} <= set(translate("Welcher Datenbankserver läuft jetzt?").words)


def test_phrases_match_before_their_words() -> None:
    words = translate("Qu'est-ce que Paul fait le fim de semana?").words  # mixed: fr wins
    assert "what" in words
    assert "weekend" in set(translate("O que fez o Paul no fim de semana?").words)


def test_parse_lexicon_merges_and_skips_malformed_lines() -> None:
    lex = parse_lexicon(
        "# comment\n"
        "mother | mère | mãe | mutter | madre | 妈妈\n"
        "mom | mère, maman | | | | \n"
        "broken | line\n"
        " | orphan | | | | \n"
    )
    assert lex.entries["fr"]["mere"] == ("mother", "mom")
    assert lex.entries["fr"]["maman"] == ("mom",)
    assert lex.entries["zh"]["妈妈"] == ("mother",)
    assert "orphan" not in lex.entries["fr"]


# --- through the lexical channel ---------------------------------------------------------------


def test_a_french_question_finds_the_english_note(index: SeedIndex) -> None:
    top = _top(index, "Quand est-ce que Paul a commencé son nouveau travail ?")
    assert top[0] == "en-job"
    assert "fr-note" in _top(index, "Quand est-ce que Paul a commencé son nouveau travail ?", 6)


@pytest.mark.parametrize(
    ("question", "wanted"),
    [
        ("Qual é o número de telemóvel novo da Ana?", "en-phone"),
        ("Wann ist Paul nach Lissabon umgezogen?", "en-move"),
        ("¿Con quién se mudó Paul a Lisboa?", "en-move"),
    ],
)
def test_questions_in_other_languages_find_english_notes(
    index: SeedIndex, question: str, wanted: str
) -> None:
    assert _top(index, question, 1) == [wanted]


def test_match_expression_keeps_the_original_words_first() -> None:
    expression = match_expression("Où habite Paul maintenant ?")
    assert expression is not None
    terms = expression.split(" OR ")
    assert terms.index('"habite"') < terms.index('"live"')
    assert '"paul"' in terms


def test_match_expression_of_english_is_unchanged_by_the_lexicon() -> None:
    assert match_expression("Where does Paul live now?") == '"paul" OR "live"'


def test_english_gloss_adds_english_words_for_the_embedding_model() -> None:
    assert english_gloss("Where does Paul live now?") == "Where does Paul live now?"
    glossed = english_gloss("Où habite Paul maintenant ?")
    assert glossed.startswith("Où habite Paul maintenant ?") and "live" in glossed


@pytest.mark.parametrize(
    ("text", "english"),
    [
        (
            "A padaria do bairro agora fecha às sete; o novo horário começa segunda.",
            {"bakery", "closed", "opening", "hours"},
        ),
        (
            "Le fournisseur a livré la commande en retard, encore une fois.",
            {"supplier", "delivery", "order", "late"},
        ),
        (
            "Der Vermieter will die Miete im Januar erhöhen, sagt die Rechnung.",
            {"landlord", "invoice"},
        ),
        (
            "El segundo local abre en octubre; el presupuesto ya está firmado.",
            {"second", "opens", "quote", "signed"},
        ),
    ],
)
def test_a_note_in_another_language_carries_english_words_for_everyday_things(
    text: str, english: set[str]
) -> None:
    """Shops, hours, suppliers, bills, ordinals: a note written in pt/fr/de/es is indexed with
    the English words for them, so an English question (or one in a third language, which
    goes through English too) finds it."""
    from graphmem.extract.crosslingual import document_gloss

    glossed = document_gloss(text)
    assert english <= set(glossed.replace("(", " ").replace(")", " ").split())


@pytest.mark.parametrize(
    ("question", "english"),
    [
        ("Wann öffnet der zweite Laden?", {"second", "shop", "opens"}),
        ("Quel est le prix du gâteau à la boulangerie ?", {"price", "cake", "bakery"}),
    ],
)
def test_a_question_in_another_language_gets_the_same_english_words(
    question: str, english: set[str]
) -> None:
    assert english <= set(translate(question).words)


@pytest.mark.parametrize(
    ("question", "kept", "dropped"),
    [
        # a loanword the lexicon cannot translate is spelled as in the English notes
        ("Quanto custa agora um cappuccino?", "cappuccino", {"custa", "agora", "um"}),
        ("¿Cuánto cuesta ahora el cappuccino?", "cappuccino", {"cuesta", "ahora", "el"}),
        ("Quand est-ce que le backup a planté ?", "backup", {"quand", "est", "que", "le"}),
    ],
)
def test_a_foreign_question_keeps_the_words_the_lexicon_cannot_translate(
    question: str, kept: str, dropped: set[str]
) -> None:
    """What the embedding model reads of a question in another language: its names, the
    English of the words the lexicon knows, and the words it does not know as written
    (a loanword such as "cappuccino" or "backup" is the word the English note uses);
    never the function words that would pull it towards notes in the question's language."""
    words = english_query(question).split()
    assert kept in words
    assert not dropped & {w.casefold() for w in words}
