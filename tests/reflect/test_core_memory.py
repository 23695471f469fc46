"""Core memory that stays current: proposals for memory.md and `core apply`."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from datetime import date
from pathlib import Path

import pytest
from conftest import WriteFiles, settings_for

from graphmem.memory import Memory
from graphmem.reflect.core import CoreProposal, ProposalError, edit_bytes

TODAY = date(2026, 2, 1)


def _memory(make_workspace: WriteFiles, files: dict[str, str | bytes]) -> Memory:
    mem = Memory.open(settings_for(make_workspace(files)), today=lambda: TODAY)
    mem.index()
    return mem


@pytest.mark.parametrize(
    ("core", "before", "after", "proposed"),
    [
        (
            "- Peter: lives in Lisbon, near the river.\n",
            "- W @Peter: Lives in Lisbon.\n",
            "- W @Peter: Moved last week; now lives in Porto.\n",
            "- Peter: lives in Porto, near the river.",
        ),
        (
            "- Ana: mora em Lisboa com o gato.\n",
            "- W @Ana: Mora em Lisboa.\n",
            "- W @Ana: Mudou-se para o Porto.\n",
            "- Ana: mora em Porto com o gato.",
        ),
    ],
)
def test_a_core_line_a_newer_fact_ends_is_proposed_with_both_cited(
    make_workspace: WriteFiles, core: str, before: str, after: str, proposed: str
) -> None:
    mem = _memory(
        make_workspace,
        {
            "memory.md": "# Core\n\n" + core,
            "memory/2025-11-01.md": "## Retain\n" + before,
            "memory/2026-01-05.md": "# 2026-01-05\n\n## Retain\n" + after,
        },
    )
    found = mem.core_proposals()
    updates = [p for p in found if p.action == "update"]
    assert [(p.source, p.new, p.evidence) for p in updates] == [
        ("memory.md#L3", proposed, ("memory/2026-01-05.md#L4",))
    ]
    mem.close()


@pytest.mark.parametrize(
    ("core", "before", "after", "proposed", "cited"),
    [
        (  # the old number said only as "her number", the new one only as where she called from
            "- Dona Amélia: landlady upstairs; phone 213 554 871.\n",
            "Dona Amélia came down for the rent.\nIf the boiler breaks, her number is 213 554\n871.\n",
            "A Dona Amélia ligou do 966 120\n334 por causa do barulho.\n",
            "- Dona Amélia: landlady upstairs; phone 966 120 334.",
            "memory/2026-01-05.md#L3-L4",
        ),
        (
            "- Herr Brandt: Hausmeister, Telefon 0171 555 0100.\n",
            "Herr Brandt kam vorbei. Falls die Heizung ausfällt: 0171 555 0100.\n",
            "Herr Brandt rief heute von 0171 555 0199 an, wegen der Heizung.\n",
            "- Herr Brandt: Hausmeister, Telefon 0171 555 0199.",
            "memory/2026-01-05.md#L3",
        ),
    ],
)
def test_a_core_phone_number_the_logs_changed_in_free_text_is_proposed(
    make_workspace: WriteFiles, core: str, before: str, after: str, proposed: str, cited: str
) -> None:
    name = core[2 : core.index(":")]
    mem = _memory(
        make_workspace,
        {
            "memory.md": "# Core\n\n" + core,
            f"bank/entities/{name.split()[-1]}.md": f"# {name}\n\nKind: person\n",
            "memory/2025-11-01.md": "# 2025-11-01\n\n" + before,
            "memory/2026-01-05.md": "# 2026-01-05\n\n" + after,
        },
    )
    updates = [p for p in mem.core_proposals() if p.action == "update"]
    assert [(p.source, p.new, p.evidence) for p in updates] == [
        ("memory.md#L3", proposed, (cited,))
    ]
    mem.close()


@pytest.mark.parametrize(
    ("core", "after", "proposed"),
    [
        (
            "- Offsite backups: restic from atlas to Wasabi (bucket atl-off), nightly.\n",
            "I moved atlas's offsite backups from Wasabi to a Hetzner Storage Box today.\n",
            "- Offsite backups: restic from atlas to Hetzner Storage Box (bucket atl-off), nightly.",
        ),
        (
            "- Cópias: restic do atlas para a Wasabi, todas as noites.\n",
            "Hoje mudei as cópias do atlas de Wasabi para a Hetzner Storage Box.\n",
            "- Cópias: restic do atlas para a Hetzner Storage Box, todas as noites.",
        ),
    ],
)
def test_a_core_line_naming_what_a_change_left_is_proposed(
    make_workspace: WriteFiles, core: str, after: str, proposed: str
) -> None:
    mem = _memory(
        make_workspace,
        {
            "memory.md": "# Core\n\n" + core,
            "bank/entities/atlas.md": "# atlas\n\nKind: thing\n",
            "memory/2026-01-05.md": "# 2026-01-05\n\n" + after,
        },
    )
    updates = [p for p in mem.core_proposals() if p.action == "update"]
    assert [(p.source, p.new, p.evidence) for p in updates] == [
        ("memory.md#L3", proposed, ("memory/2026-01-05.md#L3",))
    ]
    mem.close()


def test_a_journey_from_the_core_value_proposes_nothing(make_workspace: WriteFiles) -> None:
    mem = _memory(
        make_workspace,
        {
            "memory.md": "# Core\n\n- Ana: lives in Lisbon, born in Lisbon.\n",
            "bank/entities/Ana.md": "# Ana\n\nKind: person\n",
            "memory/2026-01-05.md": "# 2026-01-05\n\nAna went from Lisbon to Porto by train.\n",
            "memory/2026-01-06.md": "# 2026-01-06\n\nAna mudou de Lisboa para o Porto.\n",
        },
    )
    assert [p for p in mem.core_proposals() if p.action == "update"] == []
    mem.close()


@pytest.mark.parametrize(
    "later",
    [
        "- W @Peter: Currently in Marrakech (Jan 5–9) for Andy's birthday.\n",
        "- W @Peter: Will move to Madrid next year.\n",
        "- W @Peter: If the job works out he moves to Berlin.\n",
        "- W @Peter: Está de viagem em Sevilha até sexta.\n",
    ],
)
def test_a_trip_a_plan_or_a_conditional_proposes_nothing(
    make_workspace: WriteFiles, later: str
) -> None:
    mem = _memory(
        make_workspace,
        {
            "memory.md": "# Core\n\n- Peter: lives in Lisbon.\n",
            "memory/2025-11-01.md": "## Retain\n- W @Peter: Lives in Lisbon.\n",
            "memory/2026-01-05.md": "## Retain\n" + later,
        },
    )
    assert [p for p in mem.core_proposals() if p.action == "update"] == []
    mem.close()


def test_a_line_that_only_mentions_the_old_value_is_not_stale(make_workspace: WriteFiles) -> None:
    mem = _memory(
        make_workspace,
        {
            "memory.md": "# Core\n\n- Peter: worked at Corvid in Lisbon until 2024.\n",
            "memory/2025-11-01.md": "## Retain\n- W @Peter: Lives in Lisbon.\n",
            "memory/2026-01-05.md": "## Retain\n- W @Peter: Moved; now lives in Porto.\n",
        },
    )
    assert [p for p in mem.core_proposals() if p.action == "update"] == []
    mem.close()


def test_reflect_writes_them_and_apply_edits_one_line_then_reindexes(
    make_workspace: WriteFiles,
) -> None:
    core = b"\xef\xbb\xbf# Core\r\n\r\n- Peter: lives in Lisbon.  \r\n-   Andy: likes jazz\r\n* odd"
    mem = _memory(
        make_workspace,
        {"memory.md": core, "memory/2026-01-05.md": "## Retain\n- W @Andy: Has a cat.\n"},
    )
    mem.retain("W @Peter: Lives in Vienna now.", replaces="memory.md#L3")
    mem.reflect("2020-01-01", dry_run=False)
    text = (mem.settings.workspace / "bank/proposals.md").read_text()
    assert "1. [memory.md#L3](../memory.md#L3) is stale" in text
    assert "memory/2026-02-01.md#L4" in text
    [update] = [p for p in mem.core_proposals() if p.action == "update"]
    assert update.number == 1 and update.new == "- Peter: Lives in Vienna now."
    preview = mem.core_apply(1, dry_run=True)
    assert "-- Peter: lives in Lisbon.  \r\n" in preview.diff
    assert "+- Peter: Lives in Vienna now.\r\n" in preview.diff
    assert (mem.settings.workspace / "memory.md").read_bytes() == core
    mem.core_apply(1)
    after = (mem.settings.workspace / "memory.md").read_bytes()
    assert after == core.replace(b"- Peter: lives in Lisbon.  ", b"- Peter: Lives in Vienna now.")
    assert [p for p in mem.core_proposals() if p.action == "update"] == []
    with pytest.raises(ProposalError):
        mem.core_apply(7)
    mem.close()


def _proposal(action: str, line: int, old: str, new: str) -> CoreProposal:
    return CoreProposal(1, action, "memory.md", line, old, new, ("memory/x.md#L1",), "test")


@pytest.mark.parametrize(
    ("data", "proposal", "expected"),
    [
        (  # CRLF, BOM, no final newline: only the line's text changes
            b"\xef\xbb\xbf# C\r\n- a: 1\r\n- b: 2",
            _proposal("update", 3, "- b: 2", "- b: 3"),
            b"\xef\xbb\xbf# C\r\n- a: 1\r\n- b: 3",
        ),
        (  # an added line after line 2 takes the file's line ending
            b"# C\r\n- a: 1\r\n- b: 2\r\n",
            _proposal("add", 2, "", "- a: 9"),
            b"# C\r\n- a: 1\r\n- a: 9\r\n- b: 2\r\n",
        ),
        (  # added at the end of a file without a final newline: it still has none
            b"# C\n- a: 1",
            _proposal("add", 0, "", "- z: 0"),
            b"# C\n- a: 1\n- z: 0",
        ),
        (b"", _proposal("add", 0, "", "- z: 0"), b"- z: 0\n"),
    ],
)
def test_edit_bytes_keeps_every_other_byte(
    data: bytes, proposal: CoreProposal, expected: bytes
) -> None:
    assert edit_bytes(data, proposal) == expected


def test_a_line_changed_since_the_proposal_is_refused() -> None:
    with pytest.raises(ProposalError):
        edit_bytes(b"# C\n- b: 5\n", _proposal("update", 2, "- b: 2", "- b: 3"))


_CHILD = """
import os, signal, sys
from pathlib import Path
from graphmem.reflect.core import CoreProposal, apply_proposal
from graphmem.store import layout

when = sys.argv[2]
real_replace = os.replace

def die(*args):
    os.kill(os.getpid(), signal.SIGKILL)

def replace_then_die(src, dst):
    real_replace(src, dst)
    die()

if when == "before-rename":
    layout.os.fsync = die  # the temp file is written, not yet renamed
else:
    layout.os.replace = replace_then_die
p = CoreProposal(1, "update", "memory.md", 2, "- b: 2", "- b: 3", (), "")
apply_proposal(Path(sys.argv[1]), p)
"""


@pytest.mark.parametrize(
    ("when", "expected"),
    [("before-rename", b"# C\r\n- b: 2\r\n"), ("after-rename", b"# C\r\n- b: 3\r\n")],
)
def test_kill_9_mid_apply_leaves_the_old_or_the_new_file(
    tmp_path: Path, when: str, expected: bytes
) -> None:
    (tmp_path / "memory.md").write_bytes(b"# C\r\n- b: 2\r\n")
    child = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_CHILD), str(tmp_path), when],
        capture_output=True,
        timeout=120,
    )
    assert child.returncode == -9, child.stderr.decode()
    assert (tmp_path / "memory.md").read_bytes() == expected


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "- W @Andy: Plays the cello in the Gulbenkian orchestra.\n",
            "- W @Andy: Still plays cello in the Gulbenkian orchestra.\n",
        ),
        (
            "- W @Andy: Toca violoncelo na orquestra Gulbenkian.\n",
            "- W @Andy: Continua a tocar violoncelo na orquestra Gulbenkian.\n",
        ),
    ],
)
def test_a_fact_restated_on_two_days_about_a_core_entity_is_proposed(
    make_workspace: WriteFiles, first: str, second: str
) -> None:
    mem = _memory(
        make_workspace,
        {
            "memory.md": "# Core\n\n- Andy: Peter's closest friend.\n- Peter: lives in Porto.\n",
            "memory/2025-11-01.md": "## Retain\n" + first,
            "memory/2025-12-01.md": "## Retain\n" + second,
        },
    )
    [add] = mem.core_proposals()
    assert add.action == "add" and "Gulbenkian" in add.new
    assert add.evidence == ("memory/2025-11-01.md#L2", "memory/2025-12-01.md#L2")
    preview = mem.core_apply(1, dry_run=True)
    added = [ln for ln in preview.diff.splitlines() if ln.startswith("+") and ln[1:3] != "++"]
    assert added == [f"+{add.new}"] and "- Andy: Peter's closest friend.\n+" in preview.diff
    mem.close()


@pytest.mark.parametrize(
    ("core", "first", "second"),
    [
        (  # a change of value is no restatement
            "- Andy: Peter's closest friend.\n",
            "- W @Andy: Oat milk order is Oatly Barista, 36 L a week.\n",
            "- W @Andy: Oat milk order now Alpro Barista, 40 L a week.\n",
        ),
        (  # the core does not name Andy
            "- Peter: lives in Porto.\n",
            "- W @Andy: Plays the cello in the Gulbenkian orchestra.\n",
            "- W @Andy: Still plays cello in the Gulbenkian orchestra.\n",
        ),
        (  # a plan restated is still a plan
            "- Andy: Peter's closest friend.\n",
            "- W @Andy: Plans to move to Braga in the spring.\n",
            "- W @Andy: Still plans to move to Braga in the spring.\n",
        ),
    ],
)
def test_no_durable_proposal_without_a_restated_state_about_a_core_entity(
    make_workspace: WriteFiles, core: str, first: str, second: str
) -> None:
    mem = _memory(
        make_workspace,
        {
            "memory.md": "# Core\n\n" + core,
            "memory/2025-11-01.md": "## Retain\n" + first,
            "memory/2025-12-01.md": "## Retain\n" + second,
        },
    )
    assert mem.core_proposals() == []
    mem.close()
