"""The CLI as a new user tries it: flags where people put them, help that reads plainly,
JSON for every command and for its errors, clear messages for missing and empty workspaces,
and ``watch`` that does not repeat itself."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, WriteFiles
from typer.testing import CliRunner

from graphmem import __version__
from graphmem.surfaces.cli import app

runner = CliRunner()
FILES: dict[str, str | bytes] = {
    "bank/entities/Peter.md": "# Peter\nAliases: Pete\n",
    "memory/2025-11-01.md": "Coffee with @Peter.\n\n## Retain\n- W @Peter: Works at Acme\n"
    "- W @Peter: Lives in Lisbon\n- O(c=0.6) @Peter: Likes trams\n",
    "memory/2025-11-02.md": "## Retain\n- O(c=1.7) @Andy: Loves rain\n",
}
ENV = {
    "GRAPHMEM_NER_MODEL": "none",
    "GRAPHMEM_EMBED_MODEL": "none",
    "GRAPHMEM_BUFFER_POOL_MB": "64",
    "GRAPHMEM_WORKSPACE": "",
}
HANG = 120.0  # a guard against a hung watch, not a speed target
FAST = ("--interval", "0.05", "--debounce", "0.2")


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), env=ENV)
    return result.exit_code, result.stdout, result.stderr


def run_json(*args: str) -> tuple[int, Any]:
    code, out, _ = run(*args, "--json")
    return code, json.loads(out)


@pytest.fixture
def ws(make_workspace: WriteFiles) -> Path:
    root = make_workspace(FILES)
    code, _, err = run("index", "-w", str(root))
    assert code == 0, err
    return root


# ----------------------------------------------------------------------------- flags and help


def test_workspace_is_accepted_after_the_command_name(make_workspace: WriteFiles) -> None:
    root = make_workspace(FILES)
    code, out, err = run("index", "-w", str(root))
    assert code == 0 and "indexed 3 files" in out, err
    code, out, _ = run("status", "--workspace", str(root))
    assert code == 0 and str(root) in out and "(fresh)" in out
    code, out, _ = run("entities", "-w", str(root))
    assert code == 0 and "Peter" in out
    code, out, err = run("entities", "merge", "Peter", "Andy", "-w", str(root))
    assert code == 0 and "bank/entities/Peter.md: added alias Andy" in out, err
    code, out, _ = run("config", "show", "-w", str(root))
    assert code == 0 and str(root) in out


def test_after_the_command_wins_over_before_it(ws: Path, tmp_path: Path) -> None:
    code, out, _ = run("-w", str(tmp_path / "elsewhere"), "status", "-w", str(ws))
    assert code == 0 and str(ws) in out


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and out.strip() == f"graphmem {__version__}"


def test_k_has_a_short_form(ws: Path) -> None:
    code, data = run_json("recall", "-w", str(ws), "Peter", "-k", "1", "--now", "2025-12-01")
    assert code == 0 and len(data) == 1


def _all_commands() -> list[list[str]]:
    out = [[c.name or c.callback.__name__] for c in app.registered_commands if c.callback]
    for group in app.registered_groups:
        assert group.typer_instance is not None and group.name
        out.append([group.name])
        out += [[group.name, c.name or ""] for c in group.typer_instance.registered_commands]
    return out


def test_help_shows_plain_metavars() -> None:
    commands = _all_commands()
    assert ["recall"] in commands and ["entities", "merge"] in commands
    for command in commands:
        code, out, _ = run(*command, "--help")
        assert code == 0, command
        for typer_style in ("<bool>", "<str>", "<int", "<list[", "<path>", "<float", "{"):
            assert typer_style not in out, (command, typer_style, out)
    _, out, _ = run("recall", "--help")
    assert "recall [OPTIONS] QUESTION" in out
    assert "-k" in out and " N " in out and "DAY" in out


# ----------------------------------------------------------------------------- --json everywhere


def test_every_command_prints_json(ws: Path, tmp_path: Path) -> None:
    w = ["-w", str(ws)]
    code, data = run_json("index", *w)
    assert code == 0 and data["changed"] is False and data["files"] == 3
    code, data = run_json("index", "--force", *w)
    assert code == 0 and data["changed"] and data["counts"]["Entity"] == 2
    assert any("confidence 1.7" in x for x in data["warnings"])
    code, data = run_json("status", *w)
    assert code == 0 and data["fresh"]
    code, data = run_json("recall", "lisbon", *w, "--now", "2025-12-01")
    assert code == 0 and data[0]["source"].startswith("memory/2025-11-01.md#L")
    code, data = run_json("about", "Pete", *w)
    assert code == 0 and data["name"] == "Peter"
    code, data = run_json("timeline", "Peter", *w)
    assert code == 0 and data["entity"] == "peter" and data["events"]
    code, data = run_json("opinions", *w)
    assert code == 0 and len(data) == 2
    code, data = run_json("entities", *w)
    assert code == 0 and {e["slug"] for e in data} == {"peter", "andy"}
    code, data = run_json("cypher", "MATCH (e:Entity) RETURN count(e) AS n", *w)
    assert code == 0 and data == [{"n": 2}]
    code, data = run_json("query", "entity/get", "-p", "slug=andy", *w)
    assert code == 0 and data[0]["name"] == "Andy"
    code, data = run_json("query", "--list")
    assert code == 0 and data[0]["audience"] == "people"
    code, data = run_json("export", "--out", str(tmp_path / "out"), *w)
    assert code == 0 and data["format"] == "graphml" and data["files"]
    code, data = run_json(
        "reflect", "--dry-run", "--since", "2025-10-01", "--now", "2025-12-01", *w
    )
    assert code == 0 and data["dry_run"] is True and isinstance(data["moves"], list)
    code, data = run_json("retain", "W @Andy: Moved to Sintra", "--today", "2025-11-03", *w)
    assert code == 0 and data["source"] == "memory/2025-11-03.md#L4" and data["generation"]
    code, data = run_json("entities", "merge", "Peter", "Andy", *w)
    assert code == 0 and data["added"] == ["Andy"] and data["page"] == "bank/entities/Peter.md"
    code, data = run_json("config", "show", *w)
    assert code == 0 and data["workspace"]["value"] == str(ws)
    old = "memory/2025-11-03.md#L4"
    code, data = run_json("retain", "W @Andy: Moved to Cascais", "--replaces", old, *w)
    assert code == 0 and data["generation"]
    code, data = run_json("retract", data["source"], "--reason", "plans changed", *w)
    assert code == 0 and data["source"].endswith("#L5") and data["generation"]
    code, data = run_json("core", "list", *w)
    assert code == 0 and isinstance(data, list)
    code, data = run_json("core", "apply", "99", "--dry-run", *w)
    assert code == 1 and "no core proposal 99" in data["error"]


def test_errors_are_json_with_the_same_exit_codes(make_workspace: WriteFiles) -> None:
    root = make_workspace(FILES)
    w = ["-w", str(root)]
    # A library failure: exit 1 in both forms.
    code, _, err = run("about", "Peter", *w)
    assert code == 1 and "no index" in err
    code, data = run_json("about", "Peter", *w)
    assert code == 1 and "no index" in data["error"] and "graphmem --workspace" in data["hint"]
    # A usage error found while parsing: exit 2 in both forms.
    code, _, _ = run("recall", "x", "--k", "zero", *w)
    assert code == 2
    code, data = run_json("recall", "x", "--k", "zero", *w)
    assert code == 2 and "--k" in data["error"] and "recall --help" in data["hint"]
    # A bad value found by the library: exit 2, naming the flag.
    code, data = run_json("recall", "x", "--since", "whenever", *w)
    assert code == 2 and "--since" in data["error"]
    code, data = run_json("bogus")
    assert code == 2 and "bogus" in data["error"]


# ----------------------------------------------------------------------------- clear failures


def test_a_workspace_that_does_not_exist(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope")
    for command in (["status"], ["recall", "where"], ["index"], ["about", "x"]):
        code, _, err = run(*command, "-w", missing)
        assert code == 1 and f"workspace {missing} does not exist" in err, command
        assert "run `graphmem" not in err
    code, data = run_json("status", "-w", missing)
    assert code == 1 and "does not exist" in data["error"]


def test_an_empty_workspace_says_so_with_its_path(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, _ = run("status", "-w", str(empty))
    assert code == 0 and f"no Markdown notes in {empty}" in out and "memory/*.md" in out
    code, _, err = run("recall", "anything", "-w", str(empty))
    assert code == 1 and f"no Markdown notes in {empty}" in err
    code, _, err = run("index", "-w", str(empty))
    assert code == 0 and f"notice: no Markdown notes in {empty}" in err


def test_since_after_until_is_an_error(ws: Path) -> None:
    for command in (["recall", "Peter"], ["timeline", "Peter"]):
        code, _, err = run(
            *command, "-w", str(ws), "--since", "2025-11-10", "--until", "2025-11-01"
        )
        assert code == 2 and "--since" in err and "after" in err, command


def test_an_empty_question_is_an_error(ws: Path) -> None:
    code, _, err = run("recall", "  ", "-w", str(ws))
    assert code == 2 and "QUESTION" in err and "empty" in err


def test_cypher_with_a_missing_parameter_fails_like_named_queries(ws: Path) -> None:
    code, out, err = run("cypher", "MATCH (e:Entity {slug: $s}) RETURN e.name", "-w", str(ws))
    assert code == 1 and "missing $s" in err and out == ""
    code, _, err = run("query", "entity/get", "-w", str(ws))
    assert code == 1 and "missing $slug" in err


def test_query_list_shows_the_queries_for_people_first(ws: Path) -> None:
    code, out, _ = run("query", "--list")
    assert code == 0
    people, _, internal = out.partition("Internal queries")
    assert "entity/facts" in people and "about/timeline" in people
    assert "recall/" not in people and "delta/" not in people and "bank/" not in people
    assert "recall/ (run by recall):" in internal and "delta/ (run by index" in internal
    assert internal.index("recall/neighbors") < internal.index("delta/set_fact_validity")


def test_retain_accepts_a_leading_dash_and_names_its_own_flags(ws: Path) -> None:
    code, out, err = run(
        "retain", "- W @Peter: Bought a bike", "--today", "2025-11-05", "-w", str(ws)
    )
    assert code == 0 and "retained at memory/2025-11-05.md#L4" in out, err
    assert (ws / "memory/2025-11-05.md").read_text(encoding="utf-8").count("- W @Peter") == 1
    code, _, err = run("retain", "W @Peter: x", "--today", "2025-13-40", "-w", str(ws))
    assert code == 2 and "--today" in err and "--now" not in err
    code, out, err = run("retain", "W: Rain all day", "--today", "2025-11-05", "-w", str(ws))
    assert code == 0 and "warning: the bullet names no @entity" in err


# ----------------------------------------------------------------------------- watch


def _wait_for(lines: list[dict[str, Any]], proc: subprocess.Popen[str], pred: Any) -> None:
    deadline = time.monotonic() + HANG
    assert proc.stdout is not None
    while time.monotonic() < deadline:
        if any(pred(x) for x in lines):
            return
        line = proc.stdout.readline()
        if line:
            lines.append(json.loads(line))
    raise AssertionError(f"watch never printed what was expected: {lines}")


def test_watch_prints_each_warning_once_and_reports_deleted_files(
    make_workspace: WriteFiles,
) -> None:
    root = make_workspace(FILES)
    env = {**os.environ, **ENV, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "graphmem", "watch", "-w", str(root), "--json", *FAST],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    events: list[dict[str, Any]] = []
    try:
        _wait_for(events, proc, lambda e: e["event"] == "indexed")
        log = root / "memory/2025-11-03.md"
        log.write_text("## Retain\n- W @Peter: Visited Porto\n", encoding="utf-8")
        _wait_for(events, proc, lambda e: e["event"] == "indexed" and e["parsed"] == 1)
        log.unlink()
        _wait_for(events, proc, lambda e: e["event"] == "deleted")
        _wait_for(events, proc, lambda e: e["event"] == "indexed" and e["removed"] == 1)
    finally:
        proc.send_signal(signal.SIGTERM)  # SIGINT may be ignored in a background job
        proc.communicate(timeout=HANG)
    deleted = [e for e in events if e["event"] == "deleted"]
    assert deleted == [{"event": "deleted", "paths": ["memory/2025-11-03.md"]}]
    # The index after an edit names the file it read, not only how many.
    edited = [e for e in events if e["event"] == "indexed" and e["parsed"] == 1]
    assert edited[0]["paths"] == ["memory/2025-11-03.md"]
    warnings = [e["warning"] for e in events if e["event"] == "warning"]
    assert len(warnings) == len(set(warnings)) == 1 and "confidence 1.7" in warnings[0]
