"""The built wheel carries ontology/, queries/ and the tokenizer files, and finds them."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed_for_the_wheel() -> None:
    """A new subpackage (graphmem/text/ once) that pyproject's explicit list misses is absent
    from the installed tool and breaks `graphmem index` there; checked without building."""
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    on_disk = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "graphmem").rglob("__init__.py")
    }
    on_disk |= {
        "graphmem._queries." + d.name
        for d in (ROOT / "queries").iterdir()
        if d.is_dir() and any(d.glob("*.cypher"))
    }
    assert on_disk - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"


#: What the build printed (pip -v shows setuptools' warnings).
BUILD_LOG: list[str] = []


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    args = [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-v", "-w", str(out)]
    try:
        import setuptools

        if int(setuptools.__version__.split(".")[0]) >= 77:  # SPDX `license = "MIT"`
            args.append("--no-build-isolation")  # the test extras bring a recent setuptools
    except ImportError:
        pass
    result = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    BUILD_LOG.append(result.stdout + result.stderr)
    (built,) = out.glob("graphmem-*.whl")
    return built


def test_wheel_contains_schema_queries_and_tokenizer(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "graphmem/_ontology/schema.cypher" in names
    assert "graphmem/_queries/recall/facts_by_ids.cypher" in names
    assert "graphmem/_queries/entity/facts.cypher" in names
    assert "graphmem/models/minilm/tokenizer.json" in names
    assert "graphmem/models/minilm/NOTICE" in names
    assert "graphmem/models/crosslingual.tsv" in names
    cyphers = sorted(
        p.relative_to(ROOT / "queries").as_posix() for p in (ROOT / "queries").rglob("*.cypher")
    )
    assert {f"graphmem/_queries/{c}" for c in cyphers} <= names


def test_installed_wheel_finds_its_resources(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    code = (
        "from graphmem.store.resources import ontology_dir, queries_dir\n"
        "import graphmem.store.queries as q\n"
        "print(ontology_dir()); print(queries_dir()); print(len(q.catalog()))\n"
    )
    # -S: no site-packages, so nothing but the unpacked wheel provides graphmem.
    result = subprocess.run(
        [sys.executable, "-S", "-c", code],
        env={"PYTHONPATH": str(site)},
        cwd=tmp_path,  # not the checkout: "" on sys.path would import it instead
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    ontology, queries, count = result.stdout.split()
    assert ontology == str(site / "graphmem" / "_ontology")
    assert queries == str(site / "graphmem" / "_queries")
    kuzu_queries = [p for p in (ROOT / "queries").rglob("*.cypher") if "." not in p.stem]
    assert int(count) == len(kuzu_queries)  # dialect variants (x.falkordb.cypher) are not listed


def test_the_build_prints_no_packaging_warning(wheel: Path) -> None:
    """No deprecated `project.license` table, no data folder missing from `packages`."""
    log = BUILD_LOG[0]
    assert "is absent from the `packages` configuration" not in log
    assert "SetuptoolsDeprecationWarning" not in log


@pytest.mark.slow
def test_the_built_wheel_runs_the_readmes_first_command_from_another_folder(
    wheel: Path, tmp_path: Path
) -> None:
    """The README's install line, with the wheel instead of the checkout: index the sample,
    ask `about Pete` and a recall, from a folder that is not the checkout."""
    import os
    import shutil

    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    ws = tmp_path / "elsewhere" / "sample"
    shutil.copytree(ROOT / "fixtures" / "sample", ws)
    env = {
        **os.environ,
        "PYTHONPATH": str(target),  # before site-packages: the wheel's graphmem, not the checkout's
        "GRAPHMEM_NER_MODEL": "none",
        "GRAPHMEM_EMBED_MODEL": "none",
        "GRAPHMEM_RESIDENT": "off",
    }
    script = target / "bin" / "graphmem"
    where = subprocess.run(
        [sys.executable, "-c", "import graphmem; print(graphmem.__file__)"],
        env=env, cwd=ws.parent, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert where.stdout.strip().startswith(str(target)), where.stdout
    for args in (
        ["index"],
        ["about", "Pete"],
        ["recall", "where does Peter live?", "--now", "2025-12-15", "--k", "5"],
    ):
        done = subprocess.run(
            [str(script), "--workspace", "sample", *args],
            env=env, cwd=ws.parent, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        assert done.returncode == 0, (args, done.stdout[-1000:], done.stderr[-1000:])
        assert done.stdout.strip(), args
    assert "Peter" in done.stdout
