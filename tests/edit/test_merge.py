"""``entities merge``: the alias lands on the keeper's bank page and survives re-index."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for
from typer.testing import CliRunner

from graphmem.edit.merge import MergeError, add_aliases, merge_entities
from graphmem.index.build import index_workspace
from graphmem.memory import open_graph
from graphmem.surfaces.cli import app

LOGS: dict[str, str | bytes] = {
    "memory/2025-11-01.md": "## Retain\n- W @Petey: Bought a bike.\n- W @Peter: Lives in Porto.\n",
}


def slugs(root: Path) -> list[str]:
    with open_graph(settings_for(root)) as graph:
        return [r[0] for r in graph.execute("MATCH (e:Entity) RETURN e.slug ORDER BY e.slug").rows]


def test_merge_edits_the_aliases_line_and_reindexes(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {**LOGS, "bank/entities/Peter.md": "# Peter\nAliases: Pete\n\nA developer.\n"}
    )
    index_workspace(settings_for(root))
    assert slugs(root) == ["peter", "petey"]
    result = merge_entities(settings_for(root), "Peter", "Petey")
    assert result.added == ("Petey",)
    assert (
        root / "bank/entities/Peter.md"
    ).read_text() == "# Peter\nAliases: Pete, Petey\n\nA developer.\n"
    assert slugs(root) == ["peter"]
    with open_graph(settings_for(root)) as graph:
        facts = graph.execute(
            "MATCH (f:Fact)-[:MENTIONS]->(:Entity {slug: 'peter'}) RETURN count(f)"
        ).rows
    assert facts == [[2]]
    assert index_workspace(settings_for(root), force=True).counts["Entity"] == 1  # persists


def test_merge_into_front_matter_and_into_a_page_without_aliases() -> None:
    text, added = add_aliases(
        "---\naliases: [Pete]\nkind: person\n---\n# Peter\n", "Peter", ["Petey", "pete"]
    )
    assert text == "---\naliases: [Pete, Petey]\nkind: person\n---\n# Peter\n" and added == [
        "Petey"
    ]
    text, _ = add_aliases("# Andy\n\nProse.\n", "Andy", ["Andi"])
    assert text == "# Andy\nAliases: Andi\n\nProse.\n"
    crlf, _ = add_aliases("# Andy\r\nAliases: A.\r\n", "Andy", ["Andi"])
    assert crlf == "# Andy\r\nAliases: A., Andi\r\n"


def test_merge_creates_the_page_when_the_keeper_has_none(make_workspace: WriteFiles) -> None:
    root = make_workspace(LOGS)
    index_workspace(settings_for(root))
    merge_entities(settings_for(root), "Peter", "Petey")
    assert (root / "bank/entities/Peter.md").read_text() == "# Peter\nAliases: Petey\n"
    assert slugs(root) == ["peter"]


def test_merge_refuses_when_the_alias_has_its_own_page(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {**LOGS, "bank/entities/Peter.md": "# Peter\n", "bank/entities/Petey.md": "# Petey\n"}
    )
    index_workspace(settings_for(root))
    before = (root / "bank/entities/Peter.md").read_bytes()
    with pytest.raises(MergeError, match="has its own page"):
        merge_entities(settings_for(root), "Peter", "Petey")
    assert (root / "bank/entities/Peter.md").read_bytes() == before


def test_cli_entities_list_and_merge(make_workspace: WriteFiles) -> None:
    root = make_workspace(LOGS)
    env = {
        "GRAPHMEM_NER_MODEL": "none",
        "GRAPHMEM_EMBED_MODEL": "none",
        "GRAPHMEM_BUFFER_POOL_MB": "64",
    }
    runner = CliRunner()
    assert runner.invoke(app, ["-w", str(root), "index"], env=env).exit_code == 0
    out = runner.invoke(app, ["-w", str(root), "entities", "--json"], env=env)
    assert {e["slug"] for e in __import__("json").loads(out.stdout)} == {"peter", "petey"}
    out = runner.invoke(app, ["-w", str(root), "entities", "merge", "Peter", "Petey"], env=env)
    assert out.exit_code == 0 and "added alias Petey" in out.stdout
    out = runner.invoke(app, ["-w", str(root), "entities", "merge", "Peter", "Nobody"], env=env)
    assert out.exit_code == 1 and "no entity named 'Nobody'" in out.stderr
