"""The package's layout shows the pipeline, and its layers hold: only the database layer
imports Kùzu, only the command line imports Typer, and a layer imports only the layers below
it: text (folding, stemmers, stop words: language knowledge, importing no other layer) →
config (settings, recall presets) → store (the database, schema, queries, caches: what
every stage stands on) → parse → extract → compile → search → index → recall → reflect →
edit (retain, merge: Markdown writes) → export (files, FalkorDB) → surfaces (CLI, renderer,
MCP, daemon). The one facade (``graphmem.memory``) sits between export and the surfaces:
only surfaces import it. See ARCHITECTURE.md."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "graphmem"
STAGES = [
    "text", "config", "store", "parse", "extract", "compile", "search", "index", "recall", "reflect",
    "edit", "export", "surfaces",
]  # fmt: skip
#: Top-level modules every layer may import (the error types, the version).
SHARED = ("errors", "__version__")
#: The facade: only the surfaces stand on it.
FACADE = ("memory",)
#: Imports that go against the order, each with why; a new one fails the test.
KNOWN_BACKWARDS: set[tuple[str, str]] = set()


def _imports(path: Path) -> list[tuple[str, bool]]:
    """(module, at top level) for each ``import``/``from`` in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    found: list[tuple[str, bool]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, id(node) in top) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "graphmem":
                found += [(f"graphmem.{a.name}", id(node) in top) for a in node.names]
            else:
                found.append((node.module, id(node) in top))
    return found


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def test_only_the_database_layer_imports_kuzu_and_only_the_cli_imports_typer() -> None:
    kuzu, typer = set(), set()
    for path in _modules():
        for module, _ in _imports(path):
            root = module.split(".")[0]
            if root == "kuzu":
                kuzu.add(path.relative_to(PACKAGE).as_posix())
            if root in ("typer", "click"):
                typer.add(path.relative_to(PACKAGE).as_posix())
    assert kuzu == {"store/db.py"}
    assert typer and all(p.startswith("surfaces/cli/") for p in typer), typer


def test_each_stage_imports_only_the_stages_before_it() -> None:
    backwards = set()
    for path in _modules():
        rel = path.relative_to(PACKAGE)
        if len(rel.parts) < 2 or rel.parts[0] not in STAGES:
            continue
        mine = STAGES.index(rel.parts[0])
        for module, _ in _imports(path):
            parts = module.split(".")
            if parts[0] != "graphmem" or len(parts) < 2:
                continue
            if parts[1] not in STAGES:
                facade_ok = parts[1] in FACADE and rel.parts[0] == "surfaces"
                if parts[1] not in SHARED and not facade_ok:
                    backwards.add((rel.as_posix(), module))
                continue
            if STAGES.index(parts[1]) > mine:
                backwards.add((rel.as_posix(), module))
    assert backwards <= KNOWN_BACKWARDS, sorted(backwards - KNOWN_BACKWARDS)


def test_every_stage_is_a_package_with_a_docstring() -> None:
    for stage in STAGES:
        init = PACKAGE / stage / "__init__.py"
        assert ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))), stage
    flat = [p.name for p in PACKAGE.glob("*.py")]
    # Only the package's entry points, the shared errors and the one facade stay at the top.
    assert set(flat) <= {"__init__.py", "__main__.py", "errors.py", "memory.py"}, flat


def test_there_is_one_front_door() -> None:
    """``graphmem.memory`` is the facade; the read helpers ``graphmem.api`` held live there."""
    import importlib.util

    import graphmem.memory as memory

    assert importlib.util.find_spec("graphmem.api") is None
    for name in ("Memory", "Status", "status", "run_cypher", "run_named", "open_graph"):
        assert callable(getattr(memory, name)), name
    assert callable(memory.current_generation)


def test_every_import_of_graphmem_names_a_module_and_names_it_has() -> None:
    """Imports inside functions too (the lazy ones a command runs late): a moved module
    or a renamed function fails here, not in a user's terminal."""
    import importlib

    missing = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.ImportFrom) and node.module and node.level == 0):
                continue
            if node.module.split(".")[0] != "graphmem":
                continue
            module = importlib.import_module(node.module)
            for alias in node.names:
                if hasattr(module, alias.name):
                    continue
                try:
                    importlib.import_module(f"{node.module}.{alias.name}")
                except ImportError:
                    missing.append((path.relative_to(PACKAGE).as_posix(), node.module, alias.name))
    assert not missing, missing


def test_the_daemon_runs_the_cli_it_is_handed_and_never_imports_it() -> None:
    """``graphmem daemon`` gets the CLI's Click command and resets the shared command state
    (``surfaces/state.py``); importing ``surfaces/cli/`` from below would make a loop."""
    importers = set()
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            if any(n.split(".")[:3] == ["graphmem", "surfaces", "cli"] for n in names):
                importers.add(path.relative_to(PACKAGE).as_posix())
    assert not {p for p in importers if p.startswith("surfaces/daemon/")}, importers


def test_no_module_imports_one_that_imports_it_back() -> None:
    """No import loop, not even inside a layer or through a lazy import in a function:
    each module can be read knowing only what it imports."""
    import graphlib

    names = {
        ".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__"): p
        for p in _modules()
    }
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        graph[name] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
            else:
                continue
            for target in targets:
                # `from graphmem import __version__`: the package's own lazy door, not a loop
                if target in names and target not in (name, "graphmem"):
                    graph[name].add(target)
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        raise AssertionError(f"import loop: {exc.args[1]}") from None
