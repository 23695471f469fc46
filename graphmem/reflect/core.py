"""Core memory that stays current: proposals for ``memory.md`` / ``MEMORY.md``, and applying one.

The core file is what an agent reads every turn, so a line the logs made stale costs every
turn. Reflect proposes (in ``bank/proposals.md``), a person or agent applies; nothing here
edits the core file unless :func:`apply_proposal` is called.

Two kinds of proposal, numbered in this order (``graphmem core list`` shows the numbers):

- **update**: a core line the index says is superseded. Found from the index's SUPERSEDES
  edges, never guessed anew: a core line that is itself the older end of an edge, or a core
  line that still states the old value of a dated change (``phone: 917… -> 933…``) and
  names an entity the changed fact names. The proposed line swaps the old value for the new
  one when the line writes it as the cue does, otherwise it is the newer line's text.
- **add**: a durable fact (stated on two or more days, still valid, a state: no plan, trip
  or conditional) about an entity the core already names, which the core does not hold yet
  (graphmem.reflect.facts.durable_facts).

Applying one is a minimal edit: only the stale line's text (between its bullet marker and its
line ending) changes, or one line is inserted; every other byte (CRLF, a BOM, no final
newline, hand formatting) is kept, and the write is atomic (temp file + rename).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from graphmem.compile.supersede import CHANGED, KINDS, LOG, UNDATED, FactIn, find_supersessions
from graphmem.config import Settings
from graphmem.errors import GraphmemError
from graphmem.extract.aspect import aspect
from graphmem.extract.mood import mood
from graphmem.index.build import IndexReport, index_workspace
from graphmem.parse.links import without_link
from graphmem.parse.textio import newline_of
from graphmem.recall.packets import source_ref
from graphmem.store.current import open_graph
from graphmem.store.db import Graph
from graphmem.store.layout import write_atomic
from graphmem.text.fold import fold

if TYPE_CHECKING:
    from graphmem.reflect.facts import _Data

#: The core files, in the order a proposal to add a line picks one.
CORE_FILES = ("MEMORY.md", "memory.md")
#: A line's bullet marker and indentation, kept when its text is replaced.
_MARKER = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])?[ \t]*")
_DIGITS = re.compile(r"\d+")
#: A core line's label ("Peter: ", "Offsite backups: "): a few words before a colon.
_LABEL = re.compile(r"[^:\n]{1,40}?:[ \t]+")


class ProposalError(GraphmemError):
    """No such proposal, or the core file changed under it."""


@dataclass(frozen=True)
class CoreProposal:
    """One proposed edit of a core file."""

    number: int
    #: "update" (replace a stale line's text) or "add" (insert a new line).
    action: str
    #: The core file, workspace-relative.
    path: str
    #: The stale line (update) or the line the new one goes after (add; 0: at the end).
    line: int
    #: The stale line's text as the file has it (update), else "".
    old: str
    #: The proposed line, without its line ending.
    new: str
    #: Citations of the lines that justify it (the superseding line first).
    evidence: tuple[str, ...]
    #: Why, in a few words ("phone: 917302118 -> 933481660, 2026-04-13").
    reason: str

    @property
    def source(self) -> str:
        """The stale line's citation (update) or the core file (add)."""
        return source_ref(self.path, self.line, self.line) if self.action == "update" else self.path

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "number": self.number,
            "action": self.action,
            "source": self.source,
            "old": self.old or None,
            "new": self.new,
            "evidence": list(self.evidence),
            "reason": self.reason,
        }


def _file_lines(workspace: Path, rel: str) -> list[str]:
    """The lines of a core file as text, without line endings (a BOM dropped)."""
    path = workspace / rel
    if not path.is_file():
        return []
    data = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
    return data.decode("utf-8", errors="replace").splitlines()


def core_files(workspace: Path) -> list[str]:
    """The core files the workspace has (on a case-insensitive file system, one)."""
    seen: set[Path] = set()
    out = []
    for rel in CORE_FILES:
        path = workspace / rel
        if path.is_file() and path.resolve() not in seen:
            seen.add(path.resolve())
            out.append(rel)
    return out


def _is_state(text: str, day: date | None, change: bool = False) -> bool:
    """Whether `text` states how things are: not a plan, a trip or a conditional. A `change`
    ("moved the backups off B2 today") is an event that states the new state."""
    clean = without_link(text)
    return mood(clean) is None and aspect(clean, day) in (
        ("state", "event") if change else ("state",)
    )


def _left(cue: str) -> bool:
    """Whether `cue` is a change that names the value it left, found on an undated line
    (graphmem.compile.supersede._left): "changed: B2 -> Hetzner (undated line)"."""
    return cue.startswith(f"{CHANGED}: ") and cue.endswith(UNDATED)


def _change(cue: str) -> tuple[str, str] | None:
    """(old, new) of a cue naming a change ("lives-in: Lyon -> Porto"), else None."""
    _, sep, change = cue.removesuffix(UNDATED).rpartition(": ")
    old, arrow, new = (change if sep else cue).partition(" -> ")
    return (old.strip(), new.strip()) if arrow and old.strip() and new.strip() else None


def _holds(line: str, value: str) -> bool:
    """Whether `line` states `value` (a number compares by its digits: "+351 917 302 118")."""
    if value.isdigit():
        return len(value) >= 4 and value in "".join(_DIGITS.findall(line))
    return (
        len(value) >= 3
        and re.search(rf"(?<!\w){re.escape(fold(value))}(?!\w)", fold(line)) is not None
    )


def _surfaces(data: _Data) -> dict[str, str]:
    """Lower-cased entity names and aliases -> slug, as supersession compares them."""
    out: dict[str, str] = {}
    for e in data.entities:
        for name in (e["name"], *(e.get("aliases") or ())):
            out.setdefault(str(name).casefold(), e["slug"])
    return out


def _about(data: _Data, fid: str) -> tuple[str, ...]:
    """A fact's entity slugs, its subject first (supersession reads the first as the
    subject of a clause that names none)."""
    ents = sorted(data.fact_entities.get(fid, []), key=lambda e: (e["how"] != "subject", e["slug"]))
    return tuple(dict.fromkeys(e["slug"] for e in ents))


def _ends(
    data: _Data,
    fact: dict[str, Any],
    older: dict[str, Any],
    edge: dict[str, Any],
    surfaces: dict[str, str],
) -> bool:
    """Whether the superseding line of `edge` ends the core line `fact` by the index's own
    rules (graphmem.compile.supersede), read as if the core line had been written when the
    value it shares with `older` was stated. A line that only mentions the old value ("at
    Corvid in Lyon until April") states no claim the change ends."""
    start = older["valid_from"] or older["day"]
    newer = data.facts.get(edge["newer"])
    core_in = FactIn("core", fact["text"], start, start, _about(data, fact["id"]), "world")
    if newer is not None:
        kind = newer["kind"] if newer["kind"] in KINDS else "world"
        new_in = FactIn(
            "newer",
            newer["text"],
            newer["day"],
            newer["valid_from"],
            _about(data, newer["id"]),
            kind,
        )
    else:  # a sentence of free text: it is about what the fact it ended is about
        new_in = FactIn(
            "newer", edge["newer_text"], edge["day"], None, _about(data, older["id"]), LOG
        )
    return any(
        s.newer == "newer" and s.older == "core"
        for s in find_supersessions([core_in, new_in], surfaces)
    )


def _updated(line: str, cue: str, newer_text: str) -> str:
    """The stale `line` brought up to date: its old value swapped for the new one when it
    writes the old value as the cue does, else its marker followed by the newer text."""
    change = _change(cue)
    newer = " ".join(without_link(newer_text).split())
    old_digits, new_digits = change or ("", "")
    if old_digits.isdigit() and new_digits.isdigit():
        was, now = _number_at(line, old_digits), _number_at(newer, new_digits)
        if was is not None and now is not None:  # "phone 912 448 305" -> "phone 936 117 420"
            return line[: was[0]] + newer[now[0] : now[1]] + line[was[1] :]
    if change is not None:
        old, new = change
        i = line.casefold().find(old.casefold())
        if i >= 0 and len(line.casefold()) == len(line):  # casefold kept the offsets
            j = newer.casefold().find(new.casefold())
            shown = newer[j : j + len(new)] if j >= 0 else new
            return line[:i] + shown + line[i + len(old) :]
    marker = _MARKER.match(line)
    head = marker.group() if marker else ""
    label = _LABEL.match(line, len(head))  # "Peter: ", "Offsite backups: " stay
    if label and not newer.casefold().startswith(label.group().casefold().rstrip()):
        head = line[: label.end()]
    return head + newer


_NUMBER = re.compile(r"\+?\d+(?:[ .-]\d+)*")


def _number_at(text: str, digits: str) -> tuple[int, int] | None:
    """Where `text` writes a number whose digits end with `digits` (a phone number compares
    by its last digits, graphmem.extract.slots), separators and country code included."""
    for m in _NUMBER.finditer(text):
        if re.sub(r"\D", "", m.group()).endswith(digits):
            return m.start(), m.end()
    return None


def stale_lines(data: _Data, workspace: Path) -> list[CoreProposal]:
    """Core lines the index's SUPERSEDES edges say are stale, each with its newest
    superseding line (numbered from 1, in file and line order)."""
    files = set(core_files(workspace))
    slugs = {i: {e["slug"] for e in ents} for i, ents in data.fact_entities.items()}
    found: dict[tuple[str, int], tuple[date, dict[str, Any], str]] = {}

    def offer(fact: dict[str, Any], edge: dict[str, Any], why: str) -> None:
        if not _is_state(edge["newer_text"], edge["day"], _left(edge["cue"])):
            return
        key = (fact["path"], fact["line_start"])
        if key not in found or found[key][0] < edge["day"]:
            found[key] = (edge["day"], edge, why)

    core = [f for f in data.facts.values() if f["path"] in files]
    for fact in core:  # a core line that is itself the older end of an edge
        for edge in data.replaced.get(fact["id"], []):
            offer(fact, edge, edge["cue"])
    surfaces = _surfaces(data)
    for older_id, edges in data.replaced.items():  # a core line still stating an old value
        older = data.facts.get(older_id)
        if older is None or older["path"] in files or older["day"] is None:
            continue
        for edge in edges:
            change = _change(edge["cue"])
            if change is None:
                continue
            for fact in core:
                shared = slugs.get(fact["id"], set()) & slugs.get(older_id, set())
                if (
                    shared
                    and _holds(fact["text"], change[0])
                    and _ends(data, fact, older, edge, surfaces)
                ):
                    offer(fact, edge, edge["cue"])
    out = []
    for (path, line), (day, edge, why) in sorted(found.items()):
        lines = _file_lines(workspace, path)
        if not 0 < line <= len(lines):
            continue
        text = lines[line - 1]
        newer = source_ref(edge["newer_path"], edge["newer_line_start"], edge["newer_line_end"])
        proposed = _updated(text, edge["cue"], edge["newer_text"])
        if proposed == text:
            continue
        out.append(
            CoreProposal(
                0, "update", path, line, text, proposed, (newer,), f"{why}, {day.isoformat()}"
            )
        )
    return out


def _named_in(data: _Data, memory: str) -> set[str]:
    """The slugs of the entities the core text names (by name or alias, as whole words)."""
    text = fold(memory)
    out = set()
    for e in data.entities:
        for name in (e["name"], *(e.get("aliases") or ())):
            key = fold(str(name))
            if len(key) >= 2 and re.search(rf"(?<!\w){re.escape(key)}(?!\w)", text):
                out.add(e["slug"])
                break
    return out


def _after(lines: list[str], names: Sequence[str]) -> int:
    """The last core line naming one of `names` (0: none; the new line goes at the end)."""
    wanted = [fold(n) for n in names if n]
    last = 0
    for i, line in enumerate(lines, 1):
        if any(w and w in fold(line) for w in wanted):
            last = i
    return last


def core_proposals(data: _Data, workspace: Path) -> list[CoreProposal]:
    """Every proposal, numbered: the stale-line updates, then the durable facts to add."""
    from graphmem.reflect.facts import durable_facts

    files = core_files(workspace)
    target = files[0] if files else CORE_FILES[0]
    lines = _file_lines(workspace, target)
    memory = "\n".join(lines)
    out = list(stale_lines(data, workspace))
    named = _named_in(data, memory)
    for fact in durable_facts(data, memory):
        names = fact.names
        if not names or not named & set(fact.slugs):
            continue  # only about an entity the core already names: it says who matters
        out.append(
            CoreProposal(
                0,
                "add",
                target,
                _after(lines, names),
                "",
                f"- {fact.text}"
                if fold(names[0]) in fold(fact.text)
                else f"- {names[0]}: {fact.text}",
                fact.evidence,
                f"stated {len(fact.evidence)} times on {fact.days} day(s), still valid",
            )
        )
    return [_numbered(p, n) for n, p in enumerate(out, 1)]


def _numbered(p: CoreProposal, n: int) -> CoreProposal:
    return CoreProposal(n, p.action, p.path, p.line, p.old, p.new, p.evidence, p.reason)


@dataclass(frozen=True)
class Applied:
    """What applying a proposal did (or, with `dry_run`, would do)."""

    proposal: CoreProposal
    diff: str
    dry_run: bool
    #: The re-index after the edit (None for a dry run).
    index: IndexReport | None = None


def edit_bytes(data: bytes, proposal: CoreProposal) -> bytes:
    """`data` (a core file's bytes) with `proposal` applied and every other byte kept.

    :class:`ProposalError` when the stale line no longer reads as the proposal saw it."""
    bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
    body = data[len(bom) :]
    lines = body.splitlines(keepends=True)
    new = proposal.new.encode("utf-8")
    if proposal.action == "update":
        i = proposal.line - 1
        if not 0 <= i < len(lines):
            raise ProposalError(f"{proposal.source}: the file is shorter now; run reflect again")
        raw = lines[i]
        text = raw.rstrip(b"\r\n")
        if text.decode("utf-8", errors="replace") != proposal.old:
            raise ProposalError(
                f"{proposal.source} changed since the proposal was made; run reflect again"
            )
        lines[i] = new + raw[len(text) :]
        return bom + b"".join(lines)
    eol = newline_of(body).encode()
    at = proposal.line if 0 < proposal.line <= len(lines) else len(lines)
    if at == 0:
        return bom + body + (eol if body and not body.endswith((b"\n", b"\r")) else b"") + new + eol
    before = lines[:at]
    if not before[-1].endswith((b"\n", b"\r")):  # the last line had no ending: keep it so
        before[-1] += eol
        return bom + b"".join(before) + new + b"".join(lines[at:])
    return bom + b"".join(before) + new + eol + b"".join(lines[at:])


def apply_proposal(workspace: Path, proposal: CoreProposal, *, dry_run: bool = False) -> Applied:
    """Apply `proposal` to its core file atomically (temp file + rename), or with
    `dry_run` only say what would change (a unified diff)."""
    path = workspace / proposal.path
    old = path.read_bytes() if path.is_file() else b""
    new = edit_bytes(old, proposal)
    diff = "".join(
        difflib.unified_diff(
            old.decode("utf-8", errors="replace").splitlines(keepends=True),
            new.decode("utf-8", errors="replace").splitlines(keepends=True),
            f"a/{proposal.path}",
            f"b/{proposal.path}",
        )
    )
    if not dry_run:
        write_atomic(path, new)
    return Applied(proposal, diff, dry_run)


def list_proposals(graph: Graph, workspace: Path) -> list[CoreProposal]:
    """Every core-memory proposal the index supports now, numbered."""
    from graphmem.reflect.facts import load

    return core_proposals(load(graph), workspace)


def core_apply(settings: Settings, number: int, *, dry_run: bool = False) -> Applied:
    """Apply proposal `number` (as :func:`list_proposals` numbers it after an index) to
    its core file, then re-index; with `dry_run` only return the diff."""
    index_workspace(settings)
    with open_graph(settings) as graph:
        found = list_proposals(graph, settings.workspace)
    match = next((p for p in found if p.number == number), None)
    if match is None:
        have = f"1..{len(found)}" if found else "none"
        raise ProposalError(
            f"no core proposal {number} (there are {have}); `graphmem core list` shows them"
        )
    applied = apply_proposal(settings.workspace, match, dry_run=dry_run)
    if dry_run:
        return applied
    return Applied(match, applied.diff, False, index_workspace(settings))
