"""What a person reads and types at the command line: help, completion, `init`, wrapped
output that never cuts a word nor prints a Python `None`, plain-English hints, and the
index kept out of git. Real workspaces, real Kùzu and SQLite."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import FIXTURES
from typer.testing import CliRunner

from graphmem.surfaces.cli import app
from graphmem.surfaces.render import cells, wrap

runner = CliRunner()
ENV = {
    "GRAPHMEM_NER_MODEL": "none",
    "GRAPHMEM_EMBED_MODEL": "none",
    "GRAPHMEM_BUFFER_POOL_MB": "64",
}


def gm(root: Path, *args: str, columns: int = 100) -> tuple[int, str, str]:
    env = ENV | {"COLUMNS": str(columns)}
    result = runner.invoke(app, ["--workspace", str(root), *args], env=env)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("reading") / "sample"
    shutil.copytree(FIXTURES / "sample", root)
    code, _, err = gm(root, "index", "-q")
    assert code == 0, err
    return root


def test_dash_h_is_help_everywhere(tmp_path: Path) -> None:
    for args in (["-h"], ["recall", "-h"], ["entities", "-h"], ["config", "-h"]):
        result = runner.invoke(app, args, env=ENV)
        assert result.exit_code == 0, (args, result.output)
        assert "Usage:" in result.output


def test_help_offers_shell_completion() -> None:
    result = runner.invoke(app, ["--help"], env=ENV | {"COLUMNS": "120"})
    assert "--install-completion" in result.output
    assert "--show-completion" in result.output


def test_init_lays_out_a_workspace_and_never_overwrites(tmp_path: Path) -> None:
    root = tmp_path / "notes"
    code, out, _ = gm(root, "init")
    assert code == 0
    assert (root / "memory").is_dir() and (root / "bank" / "entities").is_dir()
    assert "## Retain" in (root / "README.md").read_text(encoding="utf-8")
    assert "created memory.md" in out
    (root / "memory.md").write_bytes(b"- W @Ana: Mine, keep me.\r\n")
    code, out, _ = gm(root, "init")
    assert code == 0
    assert (root / "memory.md").read_bytes() == b"- W @Ana: Mine, keep me.\r\n"
    assert "kept    memory.md" in out
    # The README of the syntax is not indexed, so it never answers a question.
    (root / "memory" / "2026-01-05.md").write_text("Ana moved to Porto.\n", encoding="utf-8")
    assert gm(root, "index", "-q")[0] == 0
    code, out, _ = gm(root, "recall", "Retain typed bullets prefix opinion", "--json")
    assert "README.md" not in out


def test_an_existing_memory_md_in_capitals_is_kept(tmp_path: Path) -> None:
    root = tmp_path / "oc"
    root.mkdir()
    (root / "MEMORY.md").write_text("- W @Ana: Lives in Porto.\n", encoding="utf-8")
    code, out, _ = gm(root, "init")
    assert code == 0
    assert not (root / "memory.md").exists()
    assert "kept    MEMORY.md" in out


def test_the_index_folder_ignores_itself_for_git(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / "memory").mkdir(parents=True)
    (root / "memory" / "2026-01-05.md").write_text("Hola.\n", encoding="utf-8")
    assert gm(root, "index", "-q")[0] == 0
    ignore = (root / ".memory" / ".gitignore").read_text(encoding="utf-8")
    assert "*" in ignore.splitlines()


def test_reflect_dry_run_wraps_whole_statements_and_never_prints_none(sample: Path) -> None:
    code, out, _ = gm(
        sample, "reflect", "--since", "400d", "--now", "2025-12-15", "--dry-run", columns=60
    )
    assert code == 0
    moves = out.split("bank pages would change")[0]
    assert "None" not in moves
    assert "(undated)" in moves  # a bank page's line has no day: said in words
    for line in moves.splitlines()[1:]:
        assert cells(line) <= 60, line
    # The statement is whole: its last words are there, on a line of their own if need be.
    flat = " ".join(moves.split())
    assert "long content goes into files." in flat


def test_export_counts_one_file_in_the_singular(sample: Path, tmp_path: Path) -> None:
    code, out, _ = gm(sample, "export", "--format", "graphml", "--out", str(tmp_path / "x"))
    assert code == 0
    assert "wrote 1 file to" in out


def test_no_hint_names_python(tmp_path: Path) -> None:
    code, out, err = gm(tmp_path / "missing", "recall", "anything")
    assert code == 1
    assert "Python" not in out + err and "Memory(" not in out + err
    assert "--workspace" in out + err


def test_recall_with_no_results_says_what_to_try(sample: Path) -> None:
    code, out, err = gm(sample, "recall", "zzqxv wyrmling", "--k", "5")
    assert code == 0
    assert "no results" in out
    assert "hint:" in err


@pytest.mark.parametrize(
    ("text", "width"),
    [
        ("Peter prefers concise replies on WhatsApp; long content goes into files.", 30),
        ("Rafa diz que a Bea prefere o moinho novo, mas ainda não decidiram nada.", 25),
        ("林美说她下周要去成都出差然后回上海", 12),
        ("a supercalifragilisticexpialidocious word stays whole", 10),
    ],
)
def test_wrap_breaks_between_words_within_the_width(text: str, width: int) -> None:
    lines = wrap(text, width, indent="  ")
    assert "".join(" ".join(lines).split()) == "".join(text.split())  # nothing lost
    for line in lines:
        word_longer = any(cells(w) > width - 2 and w.isascii() for w in line.split())
        assert cells(line) <= width or word_longer, line
    if text.isascii():
        words = set(text.split())
        assert all(w in words for line in lines for w in line.split())  # no word cut


def test_reflect_counts_back_from_the_newest_log_when_the_clock_is_past_it(sample: Path) -> None:
    """The sample's newest log is 2025-12-12; a week back from today's clock holds none."""
    import json

    code, out, err = gm(sample, "reflect", "--dry-run", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["now"] == "2025-12-12" and report["now_from"] == "newest log"
    code, out, err = gm(sample, "reflect", "--dry-run")
    assert "counts back from the newest log, 2025-12-12" in err
    code, out, _ = gm(sample, "reflect", "--dry-run", "--json", "--now", "2025-12-15")
    assert json.loads(out)["now"] == "2025-12-15"
    assert json.loads(out)["now_from"] == "given"


@pytest.mark.parametrize(
    "args",
    [
        ("about", "Peter", "--now", "2025-12-15"),
        ("timeline", "Peter"),
        ("opinions",),
        ("entities",),
        ("recall", "where does Peter live?", "--now", "2025-12-15", "--k", "5"),
    ],
)
def test_human_output_fits_80_columns_without_cutting_words(
    sample: Path, args: tuple[str, ...]
) -> None:
    code, out, err = gm(sample, *args, columns=80)
    assert code == 0, err
    assert out.strip()
    for line in out.splitlines():
        # Only a single unbreakable token (a long path or URL) may run past the edge.
        assert cells(line) <= 80 or len(line.split()) <= 2 or max(map(cells, line.split())) > 40, (
            line
        )
    assert "  log  " not in out or "bank/" not in out.split("  log  ")[0].splitlines()[-1]


def test_a_bank_page_line_is_labelled_page_not_log(sample: Path) -> None:
    from graphmem.surfaces.render import kind_label

    assert kind_label("log", "bank/entities/Peter.md#L4") == "page"
    assert kind_label("log", "memory.md#L3") == "core"
    assert kind_label("log", "memory/2025-11-27.md#L3") == "log"
    assert kind_label("world", "bank/world.md#L8") == "world"


def test_recall_says_why_a_lower_rank_shows_a_higher_score() -> None:
    from graphmem.recall.packets import Packet
    from graphmem.surfaces.render import render_packets

    def packet(score: float, line: int) -> Packet:
        return Packet(
            id=f"p{line}", kind="log", content=f"line {line}",
            source=f"memory/2025-11-27.md#L{line}", score=score, timestamp="2025-11-27",
        )  # fmt: skip

    ordered = render_packets([packet(3.0, 1), packet(2.5, 2)], 80)
    assert "lower rank can show a higher score" not in ordered
    mixed = render_packets([packet(3.0, 1), packet(2.731, 2), packet(2.806, 3)], 80)
    assert "lower rank can show a higher score" in mixed


def test_no_hint_in_the_library_names_python() -> None:
    """The CLI shows the library's hints as they are: they name flags, never Python."""
    import re

    package = Path(__file__).resolve().parents[2] / "graphmem"
    for path in package.rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if "hint=" in line or line.strip().startswith('"'):
                assert not re.search(r"\(Python: |Memory\(DIR\)", line), f"{path}: {line}"


def test_entity_columns_stay_aligned_with_east_asian_names() -> None:
    from graphmem.surfaces.render import render_entities

    rows = [
        ("林美", "person", 52, "2026-01-16", "2026-06-10", ("Mei", "Lin Mei")),
        ("Joana Ferreira", "person", 186, "2026-01-05", "2026-06-10", ()),
        ("Rua dos Lagares 12", "place", 4, None, None, ("Lagares",)),
    ]
    for width in (80, 120):
        lines = render_entities(rows, width).splitlines()
        starts = {
            cells(line[: line.index(kind)])
            for line in lines
            for kind in ("person", "place")
            if f" {kind} " in f"{line} "
        }
        assert len(starts) == 1, lines  # the kind column starts at one column everywhere
        assert all(cells(line) <= width for line in lines), lines


@pytest.mark.parametrize(
    "args",
    [
        ("recall", "where does Peter live?", "--now", "2025-12-15"),
        ("about", "Pete", "--now", "2025-12-15"),
        ("timeline", "Peter"),
        ("opinions",),
        ("entities",),
        ("status",),
        ("reflect", "--since", "400d", "--now", "2025-12-15", "--dry-run"),
    ],
)
def test_no_internal_id_reaches_a_person(sample: Path, args: tuple[str, ...]) -> None:
    """Node ids (16 hex digits, a passage's p + 15) and expansion paths (next-to:…) are for
    --json; a person is shown citations (path#Lx-Ly) instead."""
    import re

    code, out, err = gm(sample, *args)
    assert code == 0, err
    found = re.findall(r"\b[0-9a-f]{16}\b|\bp[0-9a-f]{15}\b|next-to:\S+", out + err)
    assert not found, found


def test_recall_since_counts_back_from_the_newest_log_when_the_clock_is_past_it(
    sample: Path,
) -> None:
    """`--since 30d` on a workspace last written a year ago would find nothing; it counts
    back from the newest log (2025-12-12) instead, and says so. An explicit --now wins."""
    code, out, err = gm(sample, "recall", "Peter", "--since", "30d", "--k", "3")
    assert code == 0
    assert "#1" in out
    assert "counts back from the newest log, 2025-12-12" in err
    code, out, err = gm(sample, "recall", "Peter", "--since", "30d", "--now", "2026-11-30")
    assert "no results" in out and "newest log" not in err
    code, out, err = gm(sample, "recall", "Peter", "--since", "2025-12-01", "--k", "3")
    assert "#1" in out and "newest log" not in err  # a window that holds logs is kept
