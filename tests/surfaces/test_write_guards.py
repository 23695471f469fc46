"""Nothing writes the published index without asking, and a writer queues behind another.

``graphmem query`` runs a named query that writes (the ``delta/`` steps) only with
``--write``, as ``cypher`` does; a ``retain`` that meets a running index waits for it (saying
so) and then indexes its bullet. Real Kùzu and SQLite in tmp_path, the CLI in-process.
"""

from __future__ import annotations

import json
import threading
import time
from datetime import date
from pathlib import Path

import pytest
from conftest import settings_for
from typer.testing import CliRunner

from graphmem.errors import ReadOnlyError
from graphmem.index.build import index_workspace
from graphmem.memory import Memory
from graphmem.store.layout import Store
from graphmem.surfaces.cli import app

ENV = {"GRAPHMEM_NER_MODEL": "none", "GRAPHMEM_EMBED_MODEL": "none"}
WRITE_ARGS = [
    "delta/set_entity_mentions",
    "--param", "slug=peter",
    "--param", "mentions=999",
    "--param", "first_seen=2000-01-01",
    "--param", "last_seen=2000-01-02",
]  # fmt: skip


def _mentions(root: Path) -> int:
    out = CliRunner().invoke(
        app, ["-w", str(root), "query", "entity/get", "--param", "slug=peter", "--json"], env=ENV
    )
    assert out.exit_code == 0, out.output
    return int(json.loads(out.stdout)[0]["mentions"])


def test_query_refuses_a_writing_named_query_without_write(sample: Path) -> None:
    index_workspace(settings_for(sample))
    before = _mentions(sample)
    assert before != 999

    refused = CliRunner().invoke(app, ["-w", str(sample), "query", *WRITE_ARGS], env=ENV)
    assert refused.exit_code == 1
    assert "delta/set_entity_mentions writes to the graph" in refused.stderr
    assert "--write" in refused.stderr
    assert _mentions(sample) == before  # nothing changed

    with Memory.open(settings_for(sample)) as mem, pytest.raises(ReadOnlyError, match="write"):
        mem.query(
            "delta/set_entity_mentions",
            {"slug": "peter", "mentions": 7, "first_seen": date(2000, 1, 1),
             "last_seen": date(2000, 1, 2)},
        )  # fmt: skip
    assert _mentions(sample) == before

    allowed = CliRunner().invoke(app, ["-w", str(sample), "query", *WRITE_ARGS, "--write"], env=ENV)
    assert allowed.exit_code == 0, allowed.output
    assert _mentions(sample) == 999


def test_a_read_only_named_query_needs_no_write(sample: Path) -> None:
    index_workspace(settings_for(sample))
    assert _mentions(sample) > 0


def test_a_retain_during_an_index_waits_for_it_then_indexes(sample: Path) -> None:
    index_workspace(settings_for(sample))
    store = Store(sample / ".memory")
    held = threading.Event()
    release = threading.Event()

    def other_writer() -> None:
        with store.writer_lock():
            held.set()
            release.wait(30)

    thread = threading.Thread(target=other_writer)
    thread.start()
    assert held.wait(30)
    timer = threading.Timer(1.5, release.set)
    timer.start()
    started = time.monotonic()
    try:
        out = CliRunner().invoke(
            app,
            ["-w", str(sample), "retain", "W @Peter: Peter queued behind another writer."],
            env=ENV,
        )
    finally:
        release.set()
        thread.join(30)
        timer.cancel()
    assert time.monotonic() - started >= 1.0  # it did wait for the other writer
    assert out.exit_code == 0, out.output
    assert "is writing" in out.stderr and "waiting for it" in out.stderr
    assert "not updated" not in out.output
    found = CliRunner().invoke(
        app, ["-w", str(sample), "recall", "queued behind another writer", "--json"], env=ENV
    )
    assert found.exit_code == 0, found.output
    assert "Peter queued behind another writer." in found.stdout
