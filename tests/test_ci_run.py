"""`.ci/run` runs the README's test command, which runs the default suite and then the slow
one; a pytest run that collects nothing (exit 5) fails CI instead of passing it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from conftest import ROOT

CI = ROOT / ".ci" / "run"


def _block(marker: str) -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    after = text[text.index(marker) :]
    start = after.index("```\n") + 4
    return after[start : after.index("```", start)].strip()


def _ci_with(tmp_path: Path, install: str, test: str) -> subprocess.CompletedProcess[str]:
    repo = tmp_path / "repo"
    (repo / ".ci").mkdir(parents=True)
    shutil.copy(CI, repo / ".ci" / "run")
    (repo / "README.md").write_text(
        f"<!-- ci:install -->\n```\n{install}\n```\n\n<!-- ci:test -->\n```\n{test}\n```\n",
        encoding="utf-8",
    )
    return subprocess.run(
        ["bash", str(repo / ".ci" / "run")], capture_output=True, text=True, timeout=60
    )


def test_the_readme_test_command_runs_the_default_then_the_slow_suite() -> None:
    command = _block("<!-- ci:test -->")
    default = command.index("python -m pytest -q &&")
    slow = command.index("python -m pytest -q -m slow")
    assert default < slow and command.endswith("-m slow")


def test_ci_fails_when_a_pytest_run_collects_nothing(tmp_path: Path) -> None:
    nothing = _ci_with(tmp_path / "a", "true", "true && (exit 5)")
    assert nothing.returncode == 1
    assert "collected no tests" in nothing.stderr
    failing = _ci_with(tmp_path / "b", "true", "(exit 5) && true")
    assert failing.returncode == 1
    passing = _ci_with(tmp_path / "c", "true", "true && true")
    assert passing.returncode == 0, passing.stderr
