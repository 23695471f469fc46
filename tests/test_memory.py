"""``graphmem.Memory``, the Python API, on real copies of fixtures/sample (real Kùzu and
SQLite underneath): every call, its dataclasses, its errors, and a long-lived instance that
follows new generations."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from conftest import FIXTURES, settings_for

from graphmem import GraphmemError, Memory
from graphmem.edit.retain import RetainResult
from graphmem.errors import (
    ArgumentError,
    BulletError,
    EmptyWorkspaceError,
    NotIndexedError,
    QueryError,
    ReadOnlyError,
    WorkspaceError,
)
from graphmem.index.build import IndexReport
from graphmem.memory import EntitySummary, Status, Timeline
from graphmem.recall.about import EntityCard, UnknownEntityError
from graphmem.recall.packets import Packet
from graphmem.recall.understand import QUESTION_CHARS, clip_question
from graphmem.reflect.run import OpinionView, ReflectReport
from graphmem.store.db import Rows

NOW = date(2025, 12, 15)
MB = 1 << 20


def _copy(dest: Path) -> Path:
    shutil.copytree(FIXTURES / "sample", dest, ignore=shutil.ignore_patterns(".memory"))
    return dest


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    """One indexed sample for the read-only calls (indexing costs seconds)."""
    root = _copy(tmp_path_factory.mktemp("mem") / "sample")
    with Memory.open(settings_for(root), today=lambda: NOW) as mem:
        mem.index()
        yield mem


@pytest.fixture
def mem(sample: Path) -> Iterator[Memory]:
    """A private indexed sample, for the calls that write."""
    with Memory.open(settings_for(sample), today=lambda: NOW) as m:
        m.index()
        yield m


def test_the_package_exports_memory_and_its_error_root() -> None:
    import graphmem

    assert graphmem.Memory is Memory and issubclass(ArgumentError, graphmem.GraphmemError)
    assert "Memory" in graphmem.__all__


def test_index_returns_a_report_and_is_idempotent(sample: Path) -> None:
    with Memory.open(settings_for(sample)) as m:
        first = m.index()
        assert isinstance(first, IndexReport) and first.changed and first.files > 50
        assert first.counts["Entity"] > 10
        again = m.index()
        assert not again.changed and again.generation == first.generation


def test_memory_takes_a_path_and_resolves_settings_like_the_cli(
    sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRAPHMEM_NER_MODEL", "none")
    monkeypatch.setenv("GRAPHMEM_EMBED_MODEL", "none")
    monkeypatch.setenv("GRAPHMEM_BUFFER_POOL_MB", "64")
    m = Memory(str(sample))
    assert m.workspace == sample.resolve() and m.settings.buffer_pool_mb == 64
    assert m.settings.origins["buffer_pool_mb"] == "env GRAPHMEM_BUFFER_POOL_MB"
    with pytest.raises(ArgumentError):
        Memory(sample, settings=settings_for(sample))


def test_recall_returns_cited_packets(shared: Memory) -> None:
    hits = shared.recall("where does Peter live?", k=5, now=NOW)
    assert hits and all(isinstance(p, Packet) for p in hits) and len(hits) <= 5
    assert any("Porto" in p.content for p in hits)
    assert all("#L" in p.source for p in hits)
    result = shared.recall_result("where does Peter live?", k=3, now=NOW)
    assert "peter" in [e.lower() for e in result.entities]


def test_recall_filters_by_time_and_kind(shared: Memory) -> None:
    recent = shared.recall("Peter", k=20, since="30d", now=NOW)
    # Everything kept was still true on or after the window's first day.
    assert recent and all((p.valid_to or NOW) >= date(2025, 11, 15) for p in recent)
    assert {p.id for p in recent} != {p.id for p in shared.recall("Peter", k=20, now=NOW)}
    opinions = shared.recall("Peter", k=10, kind="opinion", now=NOW)
    assert opinions and {p.kind for p in opinions} == {"opinion"}
    assert all(p.confidence is not None for p in opinions)


@pytest.mark.parametrize(
    "unit", ["昨天晚上林阿姨做了麻婆豆腐", "@Peter ", "what did Peter say in March about the cat "]
)
def test_a_huge_question_is_read_by_its_start_and_says_so(shared: Memory, unit: str) -> None:
    # Understanding 1 MB of these took 5-44 s of CPU (time grammar, gazetteer, cue
    # patterns); clipped to QUESTION_CHARS, recall takes ~0.05 s. The bound is wide for a
    # loaded machine and still far below the unclipped cost.
    question = (unit * (MB // len(unit) + 1))[:MB]
    started = time.process_time()
    result = shared.recall_result(question, now=NOW)
    assert time.process_time() - started < 3.0
    assert f"the question has {MB:,} characters; recall read its first 2,000" in result.notices
    short = shared.recall_result(question[:QUESTION_CHARS], now=NOW)
    assert [p.id for p in short.packets] == [p.id for p in result.packets]
    assert not any("the question has" in n for n in short.notices)


def test_clip_question_leaves_real_questions_alone() -> None:
    # The longest question of clawd-dev and LoCoMo's workspaces has 131 characters.
    assert clip_question("x" * QUESTION_CHARS) == ("x" * QUESTION_CHARS, None)
    clipped, notice = clip_question("y" * (QUESTION_CHARS + 1))
    assert clipped == "y" * QUESTION_CHARS and notice and "2,001 characters" in notice


def test_recall_refuses_bad_arguments_with_named_errors(shared: Memory) -> None:
    with pytest.raises(ArgumentError, match="empty") as empty:
        shared.recall("   ")
    assert empty.value.param == "question"
    with pytest.raises(ArgumentError, match="after") as window:
        shared.recall("Peter", since="2025-12-01", until="2025-11-01")
    assert window.value.param == "since"
    with pytest.raises(ArgumentError) as kind:
        shared.recall("Peter", kind=["rumour"])
    assert kind.value.param == "kind" and "choose from" in str(kind.value)
    with pytest.raises(ArgumentError) as day:
        shared.recall("Peter", since="the day after never")
    assert day.value.param == "since"
    with pytest.raises(ArgumentError) as preset:
        shared.recall("Peter", preset="nope")
    assert preset.value.param == "preset"


def test_about_timeline_opinions_entities(shared: Memory) -> None:
    card = shared.about("Pete")
    assert isinstance(card, EntityCard) and card.name == "Peter" and "Pete" in card.aliases
    assert card.current and all("#L" in line.source for line in card.current)
    with pytest.raises(UnknownEntityError):
        shared.about("Nobody McNoname")
    tl = shared.timeline("Peter", since="2025-11-01", until="2025-11-30")
    assert isinstance(tl, Timeline) and tl.entity == "peter" and tl.events
    assert all("2025-11-01" <= (e.when or "")[:10] <= "2025-11-30" for e in tl.events)
    assert tl.to_dict()["events"][0]["source"] == tl.events[0].source
    views = shared.opinions("Peter")
    assert views and all(isinstance(v, OpinionView) and "Peter" in v.entities for v in views)
    found = shared.entities()
    assert all(isinstance(e, EntitySummary) for e in found)
    peter = next(e for e in found if e.slug == "peter")
    assert peter.name == "Peter" and peter.mentions > 0 and peter.page == "bank/entities/Peter.md"
    assert peter.to_dict()["first_seen"] == peter.first_seen.isoformat()  # type: ignore[union-attr]


def test_cypher_and_named_queries(shared: Memory) -> None:
    rows = shared.cypher("MATCH (e:Entity {slug: $s}) RETURN e.name AS name", {"s": "peter"})
    assert isinstance(rows, Rows) and rows.dicts() == [{"name": "Peter"}]
    with pytest.raises(QueryError, match=r"missing \$s"):
        shared.cypher("MATCH (e:Entity {slug: $s}) RETURN e.name")
    with pytest.raises(QueryError, match=r"unknown \$t"):
        shared.cypher("MATCH (e:Entity) RETURN count(e)", {"t": 1})
    with pytest.raises(ReadOnlyError):
        shared.cypher("MATCH (e:Entity) DETACH DELETE e")
    facts = shared.query("entity/facts", {"slug": "peter"})
    assert facts.rows and "text" in facts.columns
    with pytest.raises(QueryError, match=r"missing \$slug"):
        shared.query("entity/facts")


def test_status(shared: Memory) -> None:
    st = shared.status()
    assert isinstance(st, Status) and st.fresh and st.counts["Entity"] > 10


def test_cypher_write_then_read_sees_it(mem: Memory) -> None:
    mem.recall("Peter", now=NOW)  # the reader is open now
    mem.cypher("MATCH (e:Entity {slug: 'peter'}) SET e.kind = 'robot'", write=True)
    assert mem.about("Peter").kind == "robot"


def test_retain_then_recall_finds_it_in_the_same_memory(mem: Memory) -> None:
    before = mem.status().generation
    assert not mem.recall("tandem bicycle", now=NOW)  # opens the reader on `before`
    result = mem.retain("- W @Peter: Bought a tandem bicycle")
    assert isinstance(result, RetainResult) and result.path == "memory/2025-12-15.md"
    assert not result.warnings and result.report is not None
    assert mem.status().generation != before
    hits = mem.recall("tandem bicycle", now=NOW)
    assert hits and hits[0].source == result.source
    with pytest.raises(BulletError):
        mem.retain("Q @Peter: not a kind")
    loose = mem.retain("W: The weather was grey", today="2025-12-14")
    assert loose.path == "memory/2025-12-14.md" and "no @entity" in loose.warnings[0]


def test_a_long_lived_memory_follows_another_writer(mem: Memory, sample: Path) -> None:
    assert not mem.recall("zeppelin", now=NOW)
    log = sample / "memory" / "2025-12-15.md"
    log.write_text("## Retain\n- W @Peter: Flew in a zeppelin\n", encoding="utf-8")
    with Memory.open(settings_for(sample)) as other:
        other.index()
    assert any("zeppelin" in p.content for p in mem.recall("zeppelin", now=NOW))


def test_reflect_is_a_dry_run_unless_asked(mem: Memory, sample: Path) -> None:
    pages = sorted((sample / "bank").rglob("*.md"))
    before = {p: p.read_bytes() for p in pages}
    report = mem.reflect(since="30d")
    assert isinstance(report, ReflectReport) and report.dry_run
    assert {p: p.read_bytes() for p in pages} == before
    with pytest.raises(ArgumentError) as err:
        mem.reflect(since="2026-01-01")
    assert err.value.param == "since"
    written = mem.reflect(since="30d", dry_run=False)
    assert not written.dry_run and written.index is not None


def test_merge_and_export(mem: Memory, tmp_path: Path) -> None:
    report = mem.export("graphml", tmp_path / "out")
    assert report.files and all(f.exists() for f in report.files)
    with pytest.raises(ArgumentError):
        mem.export("svg", tmp_path / "out2")
    mem.retain("W @Pedro: Signs his Porto emails this way")
    merged = mem.merge("Peter", "Pedro")
    assert merged.added == ("Pedro",) and "Pedro" in mem.about("Peter").aliases


def test_missing_empty_and_unindexed_workspaces(tmp_path: Path) -> None:
    missing = Memory.open(settings_for(tmp_path / "nope"))
    for call in (missing.status, missing.index, lambda: missing.recall("x")):
        with pytest.raises(WorkspaceError, match="does not exist"):
            call()
    (tmp_path / "empty").mkdir()
    empty = Memory.open(settings_for(tmp_path / "empty"))
    with pytest.raises(EmptyWorkspaceError, match=str(tmp_path / "empty")):
        empty.recall("anything")
    notes = _copy(tmp_path / "notes")
    with pytest.raises(NotIndexedError, match="graphmem --workspace"):
        Memory.open(settings_for(notes)).about("Peter")
    auto = Memory.open(settings_for(notes), index_if_missing=True)
    result = auto.recall_result("Peter", now=NOW)
    assert result.packets and "built one on first use" in " ".join(result.notices)
    auto.close()


def test_one_memory_can_be_shared_by_threads(shared: Memory) -> None:
    """Calls from several threads are serialised by the lock; none fails."""
    errors: list[BaseException] = []
    answers: list[int] = []

    def ask() -> None:
        try:
            for _ in range(3):
                answers.append(len(shared.recall("where does Peter live?", k=3, now=NOW)))
                shared.about("Andy")
        except BaseException as exc:  # the test reports any failure
            errors.append(exc)

    threads = [threading.Thread(target=ask) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(answers) == 9 and all(answers)


def test_errors_carry_a_message_and_a_hint(tmp_path: Path) -> None:
    with pytest.raises(GraphmemError) as err:
        Memory.open(settings_for(tmp_path / "nope")).status()
    assert err.value.hint and "--workspace" in err.value.hint
    assert str(err.value) == f"{err.value.message}; {err.value.hint}"


@pytest.mark.slow
def test_the_query_model_survives_a_new_generation(sample: Path) -> None:
    """A long-lived Memory loads the embedding model once, not once per generation."""
    with Memory.open(settings_for(sample, embed_model="minilm-int8"), today=lambda: NOW) as m:
        m.index()
        assert m.recall("where does Peter live?")
        model = m._recaller._embedder if m._recaller else None
        assert model is not None
        m.retain("W @Peter: Bought a tandem bicycle")
        hits = m.recall_result("tandem bicycle")
        assert hits.packets and not hits.notices
        assert m._recaller is not None and m._recaller._embedder is model


def test_about_lists_as_current_only_what_holds_now(shared: Memory) -> None:
    """The sample's Peter: where he lives and works are current on 2025-12-15; the
    Marrakech trip (Nov 27–Dec 1), the flight to it and next year's plans are not."""
    current = [line.text for line in shared.about("Peter", now="2025-12-15").current]
    assert any("Lives in Porto" in t for t in current)
    assert any("Staff engineer at Northwind" in t for t in current)
    for gone in ("Currently in Marrakech", "flies Porto", "plans for next year"):
        assert not any(gone in t for t in current), gone
    during = [line.text for line in shared.about("Peter", now="2025-11-28").current]
    assert any("Currently in Marrakech" in t for t in during)
