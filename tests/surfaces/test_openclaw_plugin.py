"""The OpenClaw memory plugin in integrations/openclaw: its manifest and its pure JavaScript.

Installing OpenClaw itself is the job of ``bench/openclaw_proof.sh`` (network, minutes);
these checks need at most a ``node`` on PATH and are skipped without one.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parents[2] / "integrations" / "openclaw"


def _json(name: str) -> dict:
    return json.loads((PLUGIN / name).read_text(encoding="utf-8"))


def test_manifest_declares_a_memory_plugin_that_owns_the_memory_tools() -> None:
    manifest = _json("openclaw.plugin.json")
    assert manifest["id"] == "graphmem"
    assert manifest["kind"] == "memory"
    assert set(manifest["contracts"]["tools"]) == {
        "memory_search",
        "memory_get",
        "memory_about",
        "memory_timeline",
        "memory_opinions",
        "memory_store",
        "memory_forget",
        "memory_reflect",
        "memory_core",
    }
    assert {c["name"] for c in manifest["cliCommands"]} == {"memory", "graphmem"}
    schema = manifest["configSchema"]
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    assert schema["properties"]["command"]["default"] == "graphmem"


def test_package_points_openclaw_at_committed_javascript() -> None:
    package = _json("package.json")
    assert package["type"] == "module"
    entries = package["openclaw"]["extensions"]
    assert entries and all((PLUGIN / e).is_file() and e.endswith(".js") for e in entries)
    # Installs from a path with nothing to fetch: no runtime dependencies.
    assert not package.get("dependencies")


def test_every_tool_the_entry_registers_is_declared_in_the_manifest() -> None:
    source = (PLUGIN / "index.js").read_text(encoding="utf-8")
    declared = set(_json("openclaw.plugin.json")["contracts"]["tools"])
    for name in ("memory_search", "memory_get"):
        assert f'names: ["{name}"]' in source
        assert name in declared


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_plugin_javascript_passes_its_node_tests() -> None:
    proc = subprocess.run(
        [
            "node",
            "--test",
            "--test-reporter=tap",
            *sorted(f"test/{p.name}" for p in (PLUGIN / "test").glob("*.test.js")),
        ],
        cwd=PLUGIN,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "# fail 0" in proc.stdout
