"""OpenClaw's workspace conventions through the CLI, on real workspaces (Kùzu + SQLite):
MEMORY.md over the legacy memory.md, USER.md, extra paths, and init in OpenClaw's layout."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import WriteFiles
from typer.testing import CliRunner

from graphmem.surfaces.cli import app

runner = CliRunner()
ENV = {
    "GRAPHMEM_NER_MODEL": "none",
    "GRAPHMEM_EMBED_MODEL": "none",
    "GRAPHMEM_BUFFER_POOL_MB": "64",
}


def gm(root: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["--workspace", str(root), *args], env=ENV | (env or {}))
    return result.exit_code, result.stdout, result.stderr


def cited(root: Path, question: str, *flags: str, env: dict[str, str] | None = None) -> list[str]:
    code, out, err = gm(root, *flags, "recall", question, "--json", env=env)
    assert code == 0, err
    return [r["source"].split("#")[0] for r in json.loads(out)]


def test_both_core_files_are_indexed_with_a_warning_naming_both(
    make_workspace: WriteFiles,
) -> None:
    root = make_workspace(
        {
            "MEMORY.md": "- W @Peter: Lives in Porto.\n",
            "memory.md": "- W @Andy: Loves the Lisbon trams.\n",
        }
    )
    if len({p.name for p in root.iterdir()}) < 2:  # a case-insensitive file system: one file
        return
    code, _, err = gm(root, "index")
    assert code == 0
    assert "both MEMORY.md and memory.md exist" in err and "merge memory.md into it" in err
    # nothing lost: each file's fact is found
    assert "MEMORY.md" in cited(root, "Where does Peter live?")
    assert "memory.md" in cited(root, "Who loves the trams?")
    code, out, _ = gm(root, "status", "--json")
    assert any("both MEMORY.md and memory.md" in w for w in json.loads(out)["warnings"])


def test_user_md_is_a_core_file(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "USER.md": "# User\n\n- Prefers voice notes over calls.\n- Prefere café sem açúcar.\n",
            "memory/2025-11-01.md": "Met @Peter for lunch.\n",
        }
    )
    assert gm(root, "index")[0] == 0
    assert cited(root, "voice notes or calls?")[0] == "USER.md"
    assert cited(root, "café com açúcar?")[0] == "USER.md"
    code, out, _ = gm(root, "recall", "voice notes", "--json")
    assert code == 0
    # an untyped bullet of a core file is a world fact, as in MEMORY.md
    assert json.loads(out)[0]["kind"] == "world"


def test_extra_paths_from_flag_env_and_config_are_indexed_as_undated_notes(
    make_workspace: WriteFiles, tmp_path: Path
) -> None:
    root = make_workspace({"memory/2025-11-01.md": "Met @Peter for lunch.\n"})
    notes = tmp_path / "notes"
    (notes / "deep").mkdir(parents=True)
    (notes / "runbook.md").write_text("Restart the backup job with systemctl.\n", "utf-8")
    (notes / "deep" / "receitas.md").write_text("A receita de bacalhau leva grão.\n", "utf-8")
    (notes / "photo.png").write_bytes(b"\x89PNG")
    (root / "docs").mkdir()
    (root / "docs" / "garden.md").write_text("The tomatoes need water daily.\n", "utf-8")

    # the flag: a folder outside the workspace (cited by absolute path), one inside (relative)
    flags = ("--extra-path", str(notes), "--extra-path", "docs")
    assert gm(root, *flags, "index")[0] == 0
    assert cited(root, "restart the backup job", *flags)[0] == (notes / "runbook.md").as_posix()
    assert cited(root, "receita de bacalhau", *flags)[0] == (notes / "deep/receitas.md").as_posix()
    assert cited(root, "tomatoes water", *flags)[0] == "docs/garden.md"
    code, out, _ = gm(root, *flags, "recall", "backup job", "--json")
    assert code == 0
    hit = json.loads(out)[0]
    assert hit["timestamp"] is None  # undated
    code, out, _ = gm(root, *flags, "status", "--json")
    status = json.loads(out)
    assert status["files"] == 4 and status["fresh"]  # the log, 2 notes, docs/garden.md
    code, out, _ = gm(root, *flags, "status")
    assert "extra" in out and str(notes) in out

    # the environment, os.pathsep-separated; a missing path is a notice, not a failure
    env = {"GRAPHMEM_EXTRA_PATHS": os.pathsep.join([str(notes), str(tmp_path / "gone")])}
    code, out, _ = gm(root, "config", "show", "--json", env=env)
    shown = json.loads(out)["extra_paths"]
    assert shown["value"] == [str(notes), str(tmp_path / "gone")]
    assert shown["from"] == "env GRAPHMEM_EXTRA_PATHS"
    code, _, err = gm(root, "index", env=env)
    assert code == 0 and "extra path does not exist" in err
    assert cited(root, "restart the backup job", env=env)[0].endswith("runbook.md")

    # the config file, relative to the workspace
    (root / "graphmem.toml").write_text('[graphmem]\nextra_paths = ["docs"]\n', "utf-8")
    code, out, _ = gm(root, "config", "show")
    assert "extra_paths" in out and str(root / "docs") in out
    assert gm(root, "index")[0] == 0
    assert "docs/garden.md" in cited(root, "tomatoes water")
    assert (notes / "runbook.md").as_posix() not in cited(root, "restart the backup job")


def test_init_makes_memory_md_in_an_openclaw_workspace(
    make_workspace: WriteFiles, tmp_path: Path
) -> None:
    root = make_workspace({"AGENTS.md": "# Agents\n", "SOUL.md": "# Soul\n"})
    code, out, _ = gm(root, "init")
    assert code == 0 and "created MEMORY.md" in out
    assert (root / "MEMORY.md").is_file()
    names = {p.name for p in root.iterdir()}
    assert "memory.md" not in names
    # a plain folder keeps graphmem's own name, and an existing core file is kept
    plain = tmp_path / "plain"
    assert "created memory.md" in gm(plain, "init")[1]
    assert "kept    MEMORY.md" in gm(root, "init")[1]
