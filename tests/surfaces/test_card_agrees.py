"""`graphmem about X`, Memory.about("X") and the regenerated bank/entities/X.md list the same
current facts: the entity's own standing states at --now. An event about X (a purchase) goes
to its timeline, and a fact whose subject is another entity stays on that entity's card."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for
from typer.testing import CliRunner

from graphmem.memory import Memory
from graphmem.surfaces.cli import app

runner = CliRunner()
ENV = {
    "GRAPHMEM_NER_MODEL": "none",
    "GRAPHMEM_EMBED_MODEL": "none",
    "GRAPHMEM_BUFFER_POOL_MB": "64",
}
NOW = "2026-03-20"
CITE = re.compile(r"\[((?:memory|bank)/[^\]]+|memory\.md#L[^\]]+)\]\(")

PAGES = {
    "bank/entities/Joana.md": "# Joana\nKind: person\n\nA friend from Porto.\n",
    "bank/entities/Rui.md": "# Rui\nKind: person\n\nJoana's brother.\n",
}
LOGS = {
    "en": {
        "memory/2026-03-02.md": """
            # 2026-03-02

            Long call with Joana about the spring.

            ## Retain
            - W @Joana: Joana works at Maré Labs as a data engineer.
            - W @Joana: Joana bought a used Brompton in Lisbon for 650 euros.
            - W @Rui: Rui lives in Braga; Joana visits him on weekends.
            - W @Joana: Lives in Porto with Rui's old cat, Miso.
            """,
    },
    "fr-pt": {
        "memory/2026-03-02.md": """
            # 2026-03-02

            Longue discussion avec Joana sur le printemps.

            ## Retenir
            - W @Joana: Joana travaille chez Maré Labs comme ingénieure de données.
            - W @Joana: Joana a acheté un vélo Brompton d'occasion à Lisbonne pour 650 euros.
            - W @Rui: O Rui mora em Braga; a Joana visita-o aos fins de semana.
            - W @Joana: Joana mora no Porto com o gato antigo do Rui, o Miso.
            """,
    },
}


def gm(root: Path, *args: str) -> str:
    result = runner.invoke(app, ["--workspace", str(root), *args], env=ENV)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def page_section(root: Path, name: str, title: str) -> set[str]:
    """The citations (path#Lx) of one section of a regenerated bank page."""
    text = (root / f"bank/entities/{name}.md").read_text("utf-8")
    found: set[str] = set()
    inside = False
    for line in text.splitlines():
        if line.startswith("### "):
            inside = line == f"### {title}"
        elif inside and line.startswith("- "):
            found.add(CITE.findall(line)[-1])
    return found


@pytest.mark.parametrize("language", sorted(LOGS))
def test_about_memory_and_bank_page_list_the_same_current_facts(
    make_workspace: WriteFiles, language: str
) -> None:
    root = make_workspace({**PAGES, **LOGS[language]})
    gm(root, "index", "-q")
    gm(root, "reflect", "--since", "30d", "--now", NOW)
    mem = Memory(settings=settings_for(root))
    try:
        for name in ("Joana", "Rui"):
            card = json.loads(gm(root, "about", name, "--now", NOW, "--json"))
            cli = {x["source"] for x in card["current_facts"]}
            api = {x.source for x in mem.about(name, now=NOW).current}
            page = page_section(root, name, "Current facts")
            assert cli == api == page, (name, cli, api, page)
            texts = {x["source"]: x["text"] for x in card["current_facts"]}
            if name == "Joana":
                assert len(cli) == 2, texts  # works at ...; lives in Porto ...
                # the purchase is an event: on her timeline, on the card and the page
                bought = [x for x in card["timeline_facts"] if "Brompton" in x["text"]]
                assert len(bought) == 1
                assert bought[0]["source"] in page_section(root, name, "Timeline")
                assert all("Brompton" not in t for t in texts.values())
                assert all("Braga" not in t for t in texts.values())  # Rui's home
            else:
                assert len(cli) == 1 and "Braga" in next(iter(texts.values())), texts
                assert all("Miso" not in t for t in texts.values())  # Joana's home
    finally:
        mem.close()


MOVES = {
    "en": """
        # 2026-03-12

        ## Retain
        - W @Joana: Joana moved to Lyon; she lives there now with Rui's old cat, Miso.
        """,
    "pt": """
        # 2026-03-12

        ## Reter
        - W @Joana: A Joana mudou-se para Lyon; agora mora lá com o gato antigo do Rui, o Miso.
        """,
}


@pytest.mark.parametrize("language", sorted(MOVES))
def test_what_changed_lists_only_the_entitys_own_replaced_facts(
    make_workspace: WriteFiles, language: str
) -> None:
    """Joana's old home, replaced by her move, is in her card's "What changed"; Rui is named
    in that line (his cat) but it is not about him, so his card does not list it."""
    logs = {**LOGS["en" if language == "en" else "fr-pt"]}
    logs["memory/2026-03-12.md"] = MOVES[language]
    root = make_workspace({**PAGES, **logs})
    gm(root, "index", "-q")
    joana = json.loads(gm(root, "about", "Joana", "--now", NOW, "--json"))
    rui = json.loads(gm(root, "about", "Rui", "--now", NOW, "--json"))
    moved = [x for x in joana["superseded_facts"] if "Miso" in x["text"]]
    assert moved and all("2026-03-02" in x["source"] for x in moved), joana["superseded_facts"]
    assert all("Miso" not in x["text"] for x in rui["superseded_facts"]), rui["superseded_facts"]


UNDATED = {
    "en": "# Memory\n\n- Joana will lead the Porto meetup from the autumn.\n",
    "pt": "# Memória\n\n- A Joana vai organizar o encontro do Porto a partir do outono.\n",
}


@pytest.mark.parametrize("language", sorted(UNDATED))
def test_an_undated_line_closes_the_timeline(make_workspace: WriteFiles, language: str) -> None:
    """A timeline reads newest first; a line of memory.md has no day, so it comes after the
    dated ones instead of opening the list."""
    logs = {**LOGS["en" if language == "en" else "fr-pt"]}
    logs["memory/2026-03-12.md"] = MOVES[language]
    root = make_workspace({**PAGES, **logs, "memory.md": UNDATED[language]})
    gm(root, "index", "-q")
    card = json.loads(gm(root, "about", "Joana", "--now", NOW, "--json"))
    when = [x["when"] for x in card["timeline_facts"]]
    assert any(when) and not when[-1], card["timeline_facts"]
    dated = [w for w in when if w]
    assert dated == sorted(dated, reverse=True)
    assert all(w for w in when[: len(dated)])  # no undated line before a dated one
    gm(root, "reflect", "--since", "30d", "--now", NOW)
    page = (root / "bank/entities/Joana.md").read_text("utf-8").split("### Timeline")[1]
    entries = [x for x in page.split("###")[0].splitlines() if x.startswith("- ")]
    assert len(entries) > 1 and "memory.md#L" in entries[-1], entries  # oldest first, undated last
    assert all("memory.md#L" not in x for x in entries[:-1]), entries


WORKLOAD = {
    "en": ("- W @Joana: Joana started at the bakery part-time, mornings only.",
           "- W @Joana: Joana is full-time from March."),
    "pt": ("- W @Joana: A Joana começou na padaria em meio período, só de manhã.",
           "- W @Joana: A Joana está a tempo inteiro desde março."),
}  # fmt: skip


@pytest.mark.parametrize("language", ["en", "pt"])
def test_a_card_shows_full_time_once_it_replaced_part_time(
    make_workspace: WriteFiles, language: str
) -> None:
    """A workload changed without a cue word ("full-time from March" after "part-time") is
    one current fact on the card, not two that contradict each other."""
    old, new = WORKLOAD[language]
    root = make_workspace(
        {
            **PAGES,
            "memory/2026-02-02.md": f"# 2026-02-02\n\n## Retain\n{old}\n",
            "memory/2026-03-02.md": f"# 2026-03-02\n\n## Retain\n{new}\n",
        }
    )
    gm(root, "index", "-q")
    card = json.loads(gm(root, "about", "Joana", "--now", NOW, "--json"))
    current = [x["source"] for x in card["current_facts"]]
    assert current == ["memory/2026-03-02.md#L4"], card["current_facts"]
