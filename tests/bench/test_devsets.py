"""bench/devsets.py's pure parts: the LongMemEval pick, the per-set summary, the macro mean
and the table (the script is not part of the package; it is loaded by path, and its harness
imports happen only when it runs)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "bench" / "devsets.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("devsets", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


devsets = _load()


def _record(
    set_name: str,
    category: str,
    gm: float,
    bm: float,
    *,
    counted: bool = True,
    stale: tuple[bool | None, bool | None] = (None, None),
) -> dict:
    return {
        "set": set_name,
        "category": category,
        "counted": counted,
        "scores": {"graphmem": {"recall@25ln": gm}, "bm25": {"recall@25ln": bm}},
        "stale": {"graphmem": stale[0], "bm25": stale[1]},
    }


def test_pick_lme_takes_the_types_in_turn() -> None:
    ids = ["a1", "a2", "a3", "b1", "b2", "c1"]
    types = {"a1": "A", "a2": "A", "a3": "A", "b1": "B", "b2": "B", "c1": "C"}
    assert devsets.pick_lme(ids, types, 4) == ["a1", "b1", "c1", "a2"]
    assert devsets.pick_lme(ids, types, 99) == ["a1", "b1", "c1", "a2", "b2", "a3"]
    assert devsets.pick_lme(ids, types, 0) == []


def test_summary_is_a_macro_mean_over_sets_not_questions() -> None:
    records = [
        # a big set: 3 questions, mean 0.5 / 0.25; one as_of question with a stale line
        _record("big", "as_of", 1.0, 0.5, stale=(False, True)),
        _record("big", "as_of", 0.5, 0.25, stale=(None, None)),
        _record("big", "entity", 0.0, 0.0),
        # an excluded category stays out of the set's mean but keeps its own row
        _record("small", "4 single-hop", 1.0, 1.0),
        _record("small", "5 adversarial (excluded)", 0.0, 0.0, counted=False),
    ]
    summary = devsets.summarise(records)
    big, small = summary["sets"]["big"], summary["sets"]["small"]
    assert big["n"] == 3 and small["n"] == 1 and small["questions"] == 2
    assert big["retrievers"]["graphmem"]["overall"]["recall@25ln"] == 0.5
    assert small["retrievers"]["graphmem"]["overall"]["recall@25ln"] == 1.0
    assert small["excluded"] == ["5 adversarial (excluded)"]
    assert big["retrievers"]["graphmem"]["categories"]["as_of"]["recall@25ln"] == 0.75
    # stale@10 counts only questions with must_not (stale not None)
    assert big["retrievers"]["graphmem"]["stale_at_10"] == {"as_of": {"n": 1, "rate": 0.0}}
    assert big["retrievers"]["bm25"]["stale_at_10"] == {"as_of": {"n": 1, "rate": 1.0}}
    assert small["retrievers"]["bm25"]["stale_at_10"] == {}
    macro = summary["macro"]
    assert macro["recall@25ln"] == {"graphmem": 0.75, "bm25": 0.625}  # (0.5+1)/2, (0.25+1)/2
    assert macro["as_of_stale_at_10"] == {"graphmem": 0.0, "bm25": 1.0}


def test_table_rows() -> None:
    records = [
        _record("cd", "as_of", 1.0, 0.5, stale=(False, True)),
        _record("lo", "1 multi-hop", 0.5, 0.5),
        _record("lo", "5 adversarial", 0.0, 1.0, counted=False),
    ]
    table = devsets.format_table(devsets.summarise(records), {"lo": "locomo (1-4)"})
    rows = {line.strip().split("  ")[0]: line.split() for line in table.splitlines()}
    assert rows["cd"][-4:] == ["1", "1.000", "0.500", "+0.500"]
    assert rows["as_of stale@10"][-4:] == ["1", "0.000", "1.000", "-1.000"]
    assert rows["locomo (1-4)"][-4:] == ["1", "0.500", "0.500", "+0.000"]
    assert rows["5 adversarial (not in overall)"][-4:] == ["1", "0.000", "1.000", "-1.000"]
    assert rows["macro mean R@25ln (2 sets)"][-3:] == ["0.750", "0.500", "+0.250"]
    assert rows["mean as_of stale@10 (1 set)"][-3:] == ["0.000", "1.000", "-1.000"]
