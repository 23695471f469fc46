"""bench/floorplan.py's figures agree with the layer test: no backward import, no import
loop, every module counted once (the script is loaded by path; it is not in the package)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "floorplan.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("floorplan", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_floor_plan_has_no_backward_import_and_no_loop() -> None:
    figures = _load().measure(top=5)
    assert figures["backward_imports"] == []
    assert figures["import_loops"] == []
    modules = [p for p in (ROOT / "graphmem").rglob("*.py") if "__pycache__" not in p.parts]
    assert figures["modules"] == sum(figures["modules_per_folder"].values()) == len(modules)
    assert "api.py" not in figures["top_level_modules"]
    assert len(figures["largest_files"]) == 5 and 0 < figures["test_to_product"] < 5


def test_a_loop_is_found_wherever_it_closes() -> None:
    loops = _load()._loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()})
    assert loops == [["a", "b", "c"]]
