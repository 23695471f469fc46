"""bench/gen_workspace.py: synthetic workspaces that are deterministic, right-sized and
well-formed (the benchmark generator is not part of the package; it is loaded by path)."""

from __future__ import annotations

import importlib.util
import re
import sys
from datetime import date
from pathlib import Path
from types import ModuleType

import pytest

from graphmem.parse.names import slugify
from graphmem.parse.parser import parse

ROOT = Path(__file__).resolve().parents[2]
GENERATOR = ROOT / "bench" / "gen_workspace.py"
TARGET = 300

RETAIN_HEADING = re.compile(r"^(#{1,6})\s+(Retain|Retenir|Reter|保留)\s*$")
BULLET = re.compile(r"^- (W|B|S|O(\(c=(0(\.\d+)?|1(\.0+)?)\))?) (@[\w-]+\s*)+: \S")
# The parser's mention rule: not inside a word, an e-mail address or an npm scope.
MENTION = re.compile(r"(?<![\w.@/])@((?:[\w'’-]|\.(?=\w))*)(?![\w/@])")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_workspace", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


gen = _load_generator()


def tree(root: Path) -> dict[str, bytes]:
    """Every file under `root`, by relative path."""
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def markdown(root: Path) -> dict[str, str]:
    """Every Markdown file under `root`, decoded, by relative path."""
    return {rel: data.decode("utf-8") for rel, data in tree(root).items() if rel.endswith(".md")}


def count_items(text: str) -> int:
    """Items the simple way: each non-blank block between blank lines or headings, each list
    item, a fenced code block as one block; YAML front matter and headings hold none."""
    lines = text.split("\n")
    if lines[0] == "---":
        lines = lines[lines.index("---", 1) + 1 :]
    items = 0
    in_block = in_fence = False
    for line in lines:
        if in_fence:
            in_fence = not line.startswith("```")
            continue
        if line.startswith("```"):
            items, in_fence, in_block = items + 1, True, False
        elif not line.strip() or line.startswith("#"):
            in_block = False
        elif re.match(r"^- ", line):
            items, in_block = items + 1, True
        elif not in_block:
            items, in_block = items + 1, True
    return items


def retain_bullets(text: str) -> list[str]:
    """The list-item lines of the Retain sections of one daily log."""
    bullets: list[str] = []
    level = 0
    for line in text.split("\n"):
        if m := re.match(r"^(#{1,6})\s", line):
            if level and len(m.group(1)) <= level:
                level = 0
            if r := RETAIN_HEADING.match(line):
                level = len(r.group(1))
        elif level and line.startswith(("-", "*", "+")):
            bullets.append(line)
    return bullets


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, int]]:
    """Two workspaces from the same arguments, and the summary of the first."""
    base = tmp_path_factory.mktemp("gen")
    summary = gen.generate(base / "a", TARGET, seed=0, start=date(2016, 1, 1))
    gen.generate(base / "b", TARGET, seed=0, start=date(2016, 1, 1))
    return base / "a", base / "b", summary


def test_same_arguments_give_byte_identical_trees(
    generated: tuple[Path, Path, dict[str, int]],
) -> None:
    a, b, _ = generated
    files_a, files_b = tree(a), tree(b)
    assert sorted(files_a) == sorted(files_b)
    assert [p for p in files_a if files_a[p] != files_b[p]] == []


def test_another_seed_gives_another_workspace(
    tmp_path: Path, generated: tuple[Path, Path, dict[str, int]]
) -> None:
    gen.generate(tmp_path / "c", TARGET, seed=1)
    assert tree(tmp_path / "c") != tree(generated[0])


def test_item_count_is_within_five_percent_of_the_target(
    generated: tuple[Path, Path, dict[str, int]],
) -> None:
    root, _, summary = generated
    items = sum(count_items(text) for text in markdown(root).values())
    assert abs(items - TARGET) <= TARGET * 0.05, items
    # The summary counts recall units: a paragraph of several sentences is several.
    assert summary["items"] == summary["bullets"] + summary["passages"] >= items


def test_graphmem_parser_indexes_exactly_the_counted_items_without_warnings(
    generated: tuple[Path, Path, dict[str, int]],
) -> None:
    root, _, summary = generated
    parsed = [parse(rel, text) for rel, text in sorted(markdown(root).items())]
    assert [str(w) for pf in parsed for w in pf.warnings] == []
    blocks = [b for pf in parsed for b in pf.blocks]
    assert len(blocks) == summary["items"]
    assert sum(1 for b in blocks if not b.is_passage) == summary["bullets"]


def test_every_retain_bullet_is_well_formed(
    generated: tuple[Path, Path, dict[str, int]],
) -> None:
    root, _, _ = generated
    bullets = [
        line
        for rel, text in markdown(root).items()
        if rel.startswith("memory/")
        for line in retain_bullets(text)
    ]
    assert len(bullets) >= 30
    assert [line for line in bullets if not BULLET.match(line)] == []
    kinds = {line[2] for line in bullets}
    assert {"W", "B", "O"} <= kinds


def test_every_mention_has_a_page_or_recurs(
    generated: tuple[Path, Path, dict[str, int]],
) -> None:
    root, _, _ = generated
    files = markdown(root)
    pages = {slugify(Path(rel).stem) for rel in files if rel.startswith("bank/entities/")}
    counts: dict[str, int] = {}
    for text in files.values():
        for m in MENTION.finditer(text):
            slug = slugify(m.group(1))
            counts[slug] = counts.get(slug, 0) + 1
    assert counts
    lonely = sorted(s for s, n in counts.items() if s not in pages and n < 2)
    assert lonely == []


def test_daily_logs_are_named_by_real_dates_and_say_so(
    generated: tuple[Path, Path, dict[str, int]],
) -> None:
    root, _, summary = generated
    logs = sorted((root / "memory").iterdir())
    assert len(logs) == summary["days"] > 10
    for path in logs:
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}\.md", path.name), path.name
        day = date.fromisoformat(path.stem)
        assert day >= date(2016, 1, 1)
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        assert first == f"# {day.isoformat()} ({WEEKDAYS[day.weekday()]})"


def test_core_bank_and_entity_pages_are_written(
    generated: tuple[Path, Path, dict[str, int]],
) -> None:
    root, _, summary = generated
    for rel in ("memory.md", "SOUL.md", "bank/world.md", "bank/opinions.md"):
        assert (root / rel).read_text(encoding="utf-8").startswith("# ")
    pages = sorted((root / "bank" / "entities").glob("*.md"))
    assert len(pages) == summary["pages"] >= summary["entities"] * 0.7
    for page in pages:
        pf = parse(f"bank/entities/{page.name}", page.read_text(encoding="utf-8"))
        assert pf.entity is not None and pf.entity.kind is not None, page.name
        heading = f"# {pf.entity.name}"
        assert heading in page.read_text(encoding="utf-8").split("\n"), page.name


def test_changing_facts_and_time_expressions_are_present(tmp_path: Path) -> None:
    gen.generate(tmp_path / "ws", 3_000, seed=0)
    logs = "\n".join(p.read_text(encoding="utf-8") for p in (tmp_path / "ws" / "memory").iterdir())
    for pattern in (
        r"moved to",
        r"now lives in",
        r"switched from \w+ to",
        r"joined",
        r"no longer",
        r"renamed to",
        r"[Ss]et \w+\.\w+ to \d+ .*\(was \d+\)",
        r"O\(c=0\.\d+\)",
        r"\byesterday\b",
        r"\blast (Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day\b",
        r"\bon (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}\b",
        r"\bnext week\b",
        r"\bsince (January|February|March|April|May|June|July|August|September|October|November|December)\b",
        r"- \d{2}:\d{2} [^:]+: ",
        r"`[a-z]+\.[a-zA-Z]+`|\b[a-z]+\.(maxRetries|timeoutSec|poolSize|workers|batchSize)\b",
    ):
        assert re.search(pattern, logs), pattern


def test_a_non_empty_directory_is_only_replaced_when_asked(tmp_path: Path) -> None:
    out = tmp_path / "ws"
    gen.generate(out, 200, seed=2)
    with pytest.raises(FileExistsError):
        gen.generate(out, 200, seed=2)
    (out / "memory" / "2001-01-01.md").write_text("# stale\n", encoding="utf-8")
    gen.generate(out, 200, seed=3, overwrite=True)
    assert not (out / "memory" / "2001-01-01.md").exists()


def test_cli_prints_a_one_line_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "ws"
    assert gen.main([str(out), "--items", "200", "--seed", "4", "--start", "2020-02-29"]) == 0
    err = capsys.readouterr().err.strip()
    assert "\n" not in err
    for key in ("files=", "days=", "entities=", "bullets=", "passages=", "bytes="):
        assert key in err
    assert min(p.stem for p in (out / "memory").iterdir()) >= "2020-02-29"


def test_too_small_a_target_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least"):
        gen.generate(tmp_path / "ws", gen.MIN_ITEMS - 1)
