"""The floor plan in figures: modules per folder, the largest files and functions, backward
imports (a stage importing a later one, or the facade), import loops, and tests against
product code.

    python bench/floorplan.py [--top 8] [--json]

Layers and their order are the ones `tests/test_layout.py` holds (read from it, so the two
cannot drift). An import counts whether it sits at the top of a module or inside a function.
"""

from __future__ import annotations

import argparse
import ast
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "graphmem"
FACADE = "graphmem.memory"


def _layers() -> list[str]:
    tree = ast.parse((REPO / "tests" / "test_layout.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "STAGES" for t in node.targets
        ):
            return [ast.literal_eval(e) for e in node.value.elts]  # type: ignore[attr-defined]
    raise SystemExit("floorplan: no STAGES in tests/test_layout.py")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("graphmem")}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "graphmem":
                found |= {f"graphmem.{a.name}" for a in node.names}
            elif node.module.startswith("graphmem."):
                found.add(node.module)
                found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def _functions(path: Path) -> list[tuple[int, str]]:
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            length = (node.end_lineno or node.lineno) - node.lineno + 1
            out.append((length, f"{path.relative_to(REPO)}:{node.name}"))
    return out


def _loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    result: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    result.append(sorted(component))
    return result


def measure(top: int) -> dict[str, Any]:
    """Every figure of the module docstring, as plain data."""
    layers = _layers()
    modules = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
    names = {_module_name(p): p for p in modules}
    per_folder = Counter(p.parent.relative_to(REPO).as_posix() for p in modules)
    graph: dict[str, set[str]] = defaultdict(set)
    backwards = []
    for name, path in names.items():
        rel = path.relative_to(PACKAGE).parts
        mine = layers.index(rel[0]) if len(rel) > 1 and rel[0] in layers else None
        for target in _imports(path):
            if target not in names:  # `from module import name`: the module
                target = target.rpartition(".")[0]
            # `from graphmem import __version__` reaches the package's __init__, which every
            # module does; that is not a loop between layers.
            if target in names and target not in (name, "graphmem"):
                graph[name].add(target)
            parts = target.split(".")
            if mine is not None and target in names and len(parts) > 1 and parts[1] in layers:
                if layers.index(parts[1]) > mine:
                    backwards.append(f"{name} -> {target}")
            # the facade sits above every stage: only the surfaces stand on it
            if mine is not None and target == FACADE and layers[mine] != "surfaces":
                backwards.append(f"{name} -> {target}")
        graph.setdefault(name, set())
    functions = sorted((f for p in modules for f in _functions(p)), reverse=True)
    product = sum(_lines(p) for p in modules)
    tests = sum(_lines(p) for p in (REPO / "tests").rglob("*.py"))
    return {
        "modules": len(modules),
        "modules_per_folder": dict(sorted(per_folder.items())),
        "top_level_modules": sorted(p.name for p in PACKAGE.glob("*.py")),
        "largest_files": sorted(
            ((_lines(p), p.relative_to(REPO).as_posix()) for p in modules), reverse=True
        )[:top],
        "largest_functions_and_classes": functions[:top],
        "backward_imports": sorted(set(backwards)),
        "import_loops": _loops(graph),
        "product_lines": product,
        "test_lines": tests,
        "test_to_product": round(tests / product, 2) if product else 0.0,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=8)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    figures = measure(args.top)
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    print(f"modules: {figures['modules']}; top level: {', '.join(figures['top_level_modules'])}")
    for folder, n in figures["modules_per_folder"].items():
        print(f"  {folder:32} {n}")
    print("largest files:")
    for n, name in figures["largest_files"]:
        print(f"  {n:6}  {name}")
    print("largest functions and classes:")
    for n, name in figures["largest_functions_and_classes"]:
        print(f"  {n:6}  {name}")
    print(f"backward imports ({len(figures['backward_imports'])}):")
    for line in figures["backward_imports"]:
        print(f"  {line}")
    print(f"import loops ({len(figures['import_loops'])}):")
    for loop in figures["import_loops"]:
        print("  " + " <-> ".join(loop))
    print(
        f"tests / product: {figures['test_lines']} / {figures['product_lines']} lines = "
        f"{figures['test_to_product']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
