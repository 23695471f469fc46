"""A bullet is about its subject (the @names of its head); a page is about its entity.
Recall reads that from MENTIONS.how and prefers such items for a question naming them."""

from __future__ import annotations

from datetime import date

from conftest import WriteFiles, settings_for

from graphmem.index.build import index_workspace
from graphmem.memory import run_cypher
from graphmem.recall.engine import Recaller, RecallOptions

FILES = {
    "bank/entities/Peter.md": """
        # Peter
        Kind: person

        Peter is a boat builder in Lisbon.
        """,
    "bank/entities/Andy.md": "# Andy\n",
    "memory/2026-01-05.md": """
        # 2026-01-05

        ## Retain
        - W @Peter @Andy: They sail together every summer.
        - W @Andy: Andy lent @Peter his van.
        - O(c=0.2) @Andy: Andy probably prefers trains.
        - O(c=0.9) @Andy: Andy prefers night trains over planes.
        """,
}


def test_head_names_are_subjects_and_page_lines_are_about_their_entity(
    make_workspace: WriteFiles,
) -> None:
    s = settings_for(make_workspace(FILES))
    index_workspace(s)
    rows = run_cypher(
        s,
        "MATCH (n)-[m:MENTIONS]->(e:Entity) WHERE n.line_start IN [3, 4, 5, 6] "
        "RETURN n.path, n.line_start, e.slug, m.how ORDER BY n.path, n.line_start, e.slug",
        {},
    ).rows
    assert [tuple(r) for r in rows] == [
        ("bank/entities/Peter.md", 4, "peter", "page"),
        ("memory/2026-01-05.md", 4, "andy", "subject"),
        ("memory/2026-01-05.md", 4, "peter", "subject"),
        ("memory/2026-01-05.md", 5, "andy", "subject"),
        ("memory/2026-01-05.md", 5, "peter", "explicit"),
        ("memory/2026-01-05.md", 6, "andy", "subject"),
    ]


def test_a_confident_opinion_outranks_a_doubtful_one(make_workspace: WriteFiles) -> None:
    s = settings_for(make_workspace(FILES))
    index_workspace(s)
    with Recaller(s) as r:
        got = r.recall("Does Andy prefer trains?", RecallOptions(k=5, now=date(2026, 2, 1)))
    opinions = [p.source for p in got.packets if p.kind == "opinion"]
    assert opinions[:2] == ["memory/2026-01-05.md#L7", "memory/2026-01-05.md#L6"]
