"""What a question's time does to recall (real index, lexical + graph only, so the ranking
is the rules', not a model's): state valid then leads; later statements, values an
undated page gives now, and lines written after --now fall behind or out."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for

from graphmem.config import Settings
from graphmem.index.build import index_workspace
from graphmem.memory import run_cypher
from graphmem.recall.engine import Recaller, RecallOptions

FILES = {
    "bank/entities/Kestrel.md": """
        # Kestrel
        Kind: project

        Kestrel is served by Caddy; the app listens on port 9120.
        """,
    "memory/2026-01-20.md": """
        # 2026-01-20

        ## Retain
        - W @Kestrel: Kestrel listens on port 8080 (kestrel.toml).
        """,
    "memory/2026-05-06.md": """
        # 2026-05-06

        Moved Kestrel behind Caddy today. Kestrel now listens on port 9120.
        """,
    "memory/2026-05-14.md": """
        # 2026-05-14

        Kestrel is temporarily on port 8081 until Friday for a test of Kestrel.
        """,
}


@pytest.fixture
def settings(make_workspace: WriteFiles) -> Settings:
    s = settings_for(make_workspace(FILES))
    index_workspace(s)
    return s


def ask(settings: Settings, question: str, now: date) -> list[str]:
    with Recaller(settings) as r:
        return [p.source for p in r.recall(question, RecallOptions(k=10, now=now)).packets]


def test_a_past_month_ranks_the_state_valid_then_above_later_values(settings: Settings) -> None:
    ranked = ask(
        settings, "What port was Kestrel listening on in February 2026?", date(2026, 6, 12)
    )
    assert ranked[0] == "memory/2026-01-20.md#L4"
    later = {"memory/2026-05-06.md#L3", "bank/entities/Kestrel.md#L4"}
    assert all(ranked.index(src) > 0 for src in later if src in ranked)


def test_now_ranks_the_newer_lasting_value_above_the_overtaken_one(settings: Settings) -> None:
    ranked = ask(settings, "Which port does Kestrel listen on now?", date(2026, 6, 12))
    assert ranked.index("memory/2026-05-06.md#L3") < ranked.index("memory/2026-01-20.md#L4")


def test_lines_written_after_now_are_not_recalled(settings: Settings, tmp_path: Path) -> None:
    ranked = ask(settings, "Which port does Kestrel listen on?", date(2026, 2, 1))
    assert "memory/2026-01-20.md#L4" in ranked
    assert not any(src.startswith(("memory/2026-05-06", "memory/2026-05-14")) for src in ranked)


def test_a_later_line_giving_another_value_than_the_one_valid_then_is_stale() -> None:
    """For "in February", April's new number contradicts February's: it is what became
    true later, like an undated page's value; a later line repeating the value is not."""
    from graphmem.recall.items import Item
    from graphmem.recall.stated import contradicted_then, stated_slots

    def item(item_id: str, day: date | None, text: str) -> Item:
        return Item(
            item_id,
            "Passage",
            {"day": day, "text": text},
            1.0,
            [],
            [("graca", "Graça", "explicit")],
        )

    items = [
        item("jan", date(2026, 1, 30), "Graça's mobile is +351 917 302 118."),
        item("apr", date(2026, 4, 13), "Graça's new mobile is +351 933 481 660."),
        item("may", date(2026, 5, 2), "Graça still answers on +351 917 302 118 at work."),
        item("page", None, "Mobile +351 933 481 660."),
    ]
    stale = contradicted_then(list(stated_slots(items)), date(2026, 2, 1), date(2026, 2, 28))
    assert stale == {"apr", "page"}


def test_what_replaced_a_top_line_comes_with_it(make_workspace: WriteFiles) -> None:
    """A free-text sentence that ended a fact (SUPERSEDES, Passage -> Fact) joins the
    candidates with the fact, marked replaces:, and counts as a state from its day on:
    for a question about March it is inside, though it was written in February."""
    s = settings_for(
        make_workspace(
            {
                "bank/entities/Joana.md": "# Joana\nKind: person\n",
                "bank/entities/Corvid.md": "# Corvid\nKind: org\n",
                "memory/2026-01-05.md": """
                    # 2026-01-05

                    ## Retain
                    - W @Corvid: Joana is a senior backend engineer on the ingest team at Corvid.
                    """,
                "memory/2026-02-16.md": """
                    # 2026-02-16

                    Karim made it official this afternoon: from today Joana is the tech lead of Sluice.
                    """,
            }
        )
    )
    index_workspace(s)
    edges = run_cypher(
        s, "MATCH (n:Passage)-[:SUPERSEDES]->(o:Fact) RETURN n.line_start, o.line_start", {}
    ).rows
    assert [tuple(e) for e in edges] == [(3, 4)]
    with Recaller(s) as r:
        got = r.recall(
            "What was Joana's job at Corvid in March 2026?",
            RecallOptions(k=5, now=date(2026, 6, 12)),
        )
    sources = [p.source for p in got.packets]
    assert sources[0] == "memory/2026-02-16.md#L3"
    assert any(v.startswith("replaces:") for v in got.packets[0].via)


def test_an_undated_line_holding_a_value_the_logs_changed_is_overtaken() -> None:
    """memory.md still says the number the logs gave in January and changed in April: it
    is as old as that value. A page holding the newest value, or one no log stated,
    stays current."""
    from graphmem.recall.items import Item
    from graphmem.recall.stated import overtaken, stated_slots

    def item(item_id: str, day: date | None, text: str) -> Item:
        entities = [("graca", "Graça", "explicit")]
        return Item(item_id, "Passage", {"day": day, "text": text}, 1.0, [], entities)

    items = [
        item("jan", date(2026, 1, 30), "O número da Graça é +351 917 302 118."),
        item("apr", date(2026, 4, 13), "Graça's new mobile is +351 933\n481 660."),
        item("core", None, "Graça: Matosinhos, mobile +351 917 302 118."),
        item("page", None, "Mobile +351 933 481 660."),
        item("other", None, "Work phone +351 220 000 111."),
    ]
    assert overtaken(list(stated_slots(items))) == {
        "jan": date(2026, 4, 13),
        "core": date(2026, 4, 13),
    }
