"""Markdown -> blocks. Pure: a path and its text in, a :class:`ParsedFile` out.

The parser never raises on content. Anything it cannot read as a typed bullet becomes a
passage (so it stays findable) plus a :class:`Notice` naming file and line.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import date
from pathlib import PurePosixPath

from graphmem.parse.blocks import (
    DEFAULT_CONFIDENCE,
    PREFIX_KINDS,
    Block,
    EntityPage,
    IdMaker,
    Kind,
    Notice,
    Origin,
    ParsedFile,
    Role,
)
from graphmem.parse.names import MAX_NAME_CHARS, slugify
from graphmem.parse.sentences import split_units

RETAIN_HEADINGS = {"retain", "retenir", "reter", "保留", "behalten", "retener"}
#: Generated parts of bank pages live between these markers and are not re-indexed:
#: they are derived from the graph, and indexing them would echo the graph into itself.
GENERATED_BEGIN = "<!-- graphmem:begin"
GENERATED_END = "<!-- graphmem:end"

# Every pattern here runs on one line of untrusted text: each is linear (possessive
# quantifiers where a run could otherwise be rescanned), and trimming that a lazy group
# would do by backtracking (a heading's closing #s, trailing blanks) is done with str methods.
_HEADING = re.compile(r"(#{1,6})\s++(.*+)")
_LIST_ITEM = re.compile(r"^(\s*+)(?:[-*+]|\d{1,3}[.)])(?:\s+(.*))?$")
FENCE = re.compile(r"^\s*+(```|~~~)")
_DAILY_NAME = re.compile(r"^(\d{4})-(\d{2})-(\d{2})(?:[-_ ].*)?\.md$", re.IGNORECASE)
_KNOWN_PREFIX = re.compile(r"^(?P<p>[WBOS])(?:\((?P<args>[^)]*)\))?(?=[\s:@]|$)")
_OTHER_PREFIX = re.compile(r"^(?P<p>[A-Za-z])(?:\((?P<args>[^)]*)\))?(?=\s*[:@]|\()")
#: ``@Name`` (letters, digits, ``_``, ``-``, ``'``, inner dots). ``@scope/pkg`` (an npm
#: package) and ``a@b.com`` are not mentions; a bare ``@`` is an empty mention.
_MENTION = re.compile(r"(?<![\w.@/])@((?:[\w'’-]|\.(?=\w))*)(?![\w/@])")
#: A typed bullet's head: the @mentions before its colon. Only real mention tokens are
#: consumed, so "@scope/pkg: ..." or "@@x: ..." stay part of the text.
_HEAD = re.compile(r"^\s*((?:@(?:[\w'’-]|\.(?=\w))+(?![\w/@])\s*)*)(:)?\s*")
_CONF = re.compile(r"\s*+c\s*+=\s*+(.*+)\s*+\Z", re.IGNORECASE)
_ALIASES_LINE = re.compile(
    r"^\s*+(?:\*\*)?aliases(?:\*\*)?\s*+:\s*+(?:\*\*)?\s*+(.*)$", re.IGNORECASE
)
_KIND_LINE = re.compile(r"^\s*+(?:\*\*)?kind(?:\*\*)?\s*+:\s*+(?:\*\*)?\s*+(\w+)", re.IGNORECASE)
ENTITY_KINDS = {"person", "place", "project", "org", "tool", "thing"}


def heading(line: str) -> tuple[int, str] | None:
    """``(level, title)`` of an ATX heading line (``## Retain ##`` -> ``(2, "Retain")``)."""
    m = _HEADING.match(line)
    if m is None or m.end() != len(line.rstrip("\n")):
        return None
    return len(m.group(1)), m.group(2).rstrip().rstrip("#").strip()


def declaration_only(path: str, text: str) -> bool:
    """Whether `text`, a block of the file at `path`, is nothing but an entity page's
    declaration lines ("Aliases: …", "Kind: …"): what the page says the entity is called,
    not something it says about it."""
    if not path.startswith("bank/") or file_role(path)[0] != "entity":
        return False
    lines = [line for line in text.splitlines() if line.strip()]
    return bool(lines) and all(_ALIASES_LINE.match(ln) or _KIND_LINE.match(ln) for ln in lines)


def file_role(path: str) -> tuple[Role, date | None, str | None]:
    """What a workspace-relative path is: its role, its day, and a warning for a bad date."""
    p = PurePosixPath(path)
    parts = p.parts
    if len(parts) == 1 and p.name.lower() in ("memory.md", "user.md"):
        return "core", None, None
    if len(parts) == 1 and p.name.lower() == "soul.md":
        return "soul", None, None
    if parts[0] == "bank":
        if len(parts) >= 3 and parts[1] == "entities":
            return "entity", None, None
        return "bank", None, None
    if parts[0] == "memory":
        m = _DAILY_NAME.match(p.name)
        if m:
            try:
                return "daily", date(int(m[1]), int(m[2]), int(m[3])), None
            except ValueError:
                return (
                    "note",
                    None,
                    f"{m[1]}-{m[2]}-{m[3]} is not a real date; indexed as undated notes",
                )
        return "note", None, None
    return "note", None, None


def mention_names(text: str) -> tuple[list[str], bool]:
    """The names of the ``@Name`` mentions in `text` as written (``@Peter's`` -> ``Peter``),
    and whether an empty ``@`` was seen."""
    names: list[str] = []
    empty = False
    for m in _MENTION.finditer(text):
        raw = m.group(1).rstrip(".-'’")
        if raw.endswith(("'s", "’s")):
            raw = raw[:-2]
        if not slugify(raw):
            empty = True
        elif len(raw) > MAX_NAME_CHARS:
            continue  # not a name (see MAX_NAME_CHARS); a typed bullet with one is refused
        elif raw not in names:
            names.append(raw)
    return names, empty


@dataclass
class _Unit:
    """A run of source lines that becomes one block."""

    kind: str  # "item" | "para" | "code"
    start: int  # 1-based
    lines: list[str]
    indent: int = 0
    heading: str = ""
    retain: bool = False

    @property
    def end(self) -> int:
        return self.start + len(self.lines) - 1


@dataclass
class _State:
    path: str
    role: Role
    ids: IdMaker
    blocks: list[Block] = field(default_factory=list)
    warnings: list[Notice] = field(default_factory=list)

    def warn(self, line: int, message: str) -> None:
        self.warnings.append(Notice(self.path, line, message))


def parse(path: str, text: str) -> ParsedFile:
    """Parse one workspace file (`path` relative to the workspace, POSIX separators)."""
    role, day, date_problem = file_role(path)
    state = _State(path, role, IdMaker(path))
    if date_problem:
        state.warn(0, date_problem)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()  # the end of the last line, not a line of its own
    front, body_start = front_matter(lines)
    generated, fenced = _regions(lines, body_start, state)
    entity = (
        _entity_page(path, lines, front, generated | fenced, body_start)
        if role == "entity"
        else None
    )
    if entity is not None:
        for n, key in _unknown_keys(lines, body_start, generated | fenced):
            state.warn(n, f"unknown page key {key!r} (known: Aliases, Kind); read as plain text")
    for unit in _units(lines, body_start, state, generated):
        _emit(unit, state)
    return ParsedFile(
        path=path,
        role=role,
        day=day,
        blocks=tuple(state.blocks),
        entity=entity,
        warnings=tuple(state.warnings),
    )


_META_LINE = re.compile(r"^\s*$|^[A-Za-z_][\w -]*:|^\s*-\s")


def front_matter(lines: list[str]) -> tuple[dict[str, str], int]:
    """YAML-ish front matter (``key: value`` lines between ``---``), and the body's index.

    Only a block whose every line looks like metadata counts: a note that merely opens with
    a ``---`` rule keeps its text.
    """
    if not lines or lines[0].strip() != "---":
        return {}, 0
    for i in range(1, min(len(lines), 200)):
        if not _META_LINE.match(lines[i]) and lines[i].strip() not in {"---", "..."}:
            return {}, 0
        if lines[i].strip() in {"---", "..."}:
            meta = {}
            for line in lines[1:i]:
                key, sep, value = line.partition(":")
                if sep:
                    meta[key.strip().lower()] = value.strip()
            return meta, i + 1
    return {}, 0


def _split_list(value: str) -> tuple[str, ...]:
    value = value.strip().strip("[]")
    items = [v.strip().strip("\"'").strip() for v in value.split(",")]
    return tuple(dict.fromkeys(v for v in items if v))


def _regions(lines: list[str], start: int, state: _State) -> tuple[set[int], set[int]]:
    """Indexes of lines inside closed generated blocks (markers included; bank pages only)
    and inside code fences. A generated block that is never closed is not one: its lines
    stay the user's text, with a warning, so nothing written by hand can vanish."""
    generated: set[int] = set()
    fenced: set[int] = set()
    begin: int | None = None
    fence: str | None = None
    bank = state.role in {"entity", "bank"}
    for i in range(start, len(lines)):
        stripped = lines[i].strip()
        if fence is not None:
            fenced.add(i)
            if stripped.startswith(fence):
                fence = None
            continue
        if bank and begin is None and stripped.startswith(GENERATED_BEGIN):
            begin = i
        elif bank and begin is not None and stripped.startswith(GENERATED_END):
            generated.update(range(begin, i + 1))
            begin = None
        elif begin is None and (m := FENCE.match(lines[i])):
            fence = m.group(1)
            fenced.add(i)
    if begin is not None:
        state.warn(
            begin + 1,
            "generated block is never closed (no <!-- graphmem:end -->); its lines are "
            "indexed as your own text",
        )
    return generated, fenced


_PAGE_KEY = re.compile(r"^(?:\*\*)?([A-Z][A-Za-z]{1,19})(?:\*\*)?\s*:(?:\*\*)?(?:\s|$)")


def _unknown_keys(lines: list[str], start: int, skip: set[int]) -> list[tuple[int, str]]:
    """(line, key) of each ``Key: value`` line of a page's head (up to its first paragraph
    break after the title) that is not Aliases or Kind: a ``Type: person`` is a typo."""
    out: list[tuple[int, str]] = []
    for i in range(start, len(lines)):
        line = lines[i]
        if i in skip or line.startswith("#"):
            continue
        if not line.strip():
            if out or i > start + 1:
                break
            continue
        m = _PAGE_KEY.match(line)
        if m is None:
            break
        if m.group(1).lower() not in ("aliases", "kind"):
            out.append((i + 1, m.group(1)))
    return out


def _entity_page(
    path: str, lines: list[str], front: dict[str, str], skip: set[int], start: int = 0
) -> EntityPage:
    stem = PurePosixPath(path).stem
    aliases: tuple[str, ...] = _split_list(front.get("aliases", ""))
    kind = front.get("kind", "").strip().lower() or None
    for i, line in enumerate(lines):
        if i in skip:
            continue
        if m := _ALIASES_LINE.match(line):
            aliases += _split_list(m.group(1).rstrip("*").strip())
        elif (m := _KIND_LINE.match(line)) and not kind:
            kind = m.group(1).lower()
    if kind not in ENTITY_KINDS:
        kind = None
    # The page's title names it, accents and all ("# Maré Labs" in MareLabs.md); without
    # one, "The-Castle.md" names "The Castle". The file name stays the slug and an alias.
    display = page_title(lines, skip, start) or (stem.replace("-", " ") if "-" in stem else stem)
    if display != stem:
        aliases = (stem, *aliases)
    aliases = tuple(dict.fromkeys(a for a in aliases if a.lower() != display.lower()))
    return EntityPage(slug=slugify(stem), name=display, kind=kind, aliases=aliases)


def page_title(lines: list[str], skip: Collection[int] = (), start: int = 0) -> str | None:
    """The text of a page's title: its first non-blank line from `start` (after any front
    matter) when that is a level-1 heading (``# Maré Labs``), without emphasis or link
    brackets; None when it has none."""
    for i in range(start, len(lines)):
        line = lines[i]
        if i in skip or not line.strip():
            continue
        found = heading(line)
        if found is None or found[0] != 1:
            return None
        title = found[1].strip().strip("*_`").replace("[[", "").replace("]]", "").strip()
        if not slugify(title) or len(title) > MAX_NAME_CHARS:
            return None
        return title
    return None


def _units(lines: list[str], start: int, state: _State, generated: set[int]) -> list[_Unit]:
    """Group lines into list items, paragraphs and code blocks, tracking headings."""
    units: list[_Unit] = []
    headings: list[tuple[int, str]] = []
    retain_level = 0
    current: _Unit | None = None
    fence: str | None = None
    for i in range(start, len(lines)):
        line = lines[i]
        number = i + 1
        stripped = line.strip()
        if fence is not None:
            assert current is not None
            current.lines.append(line)
            if stripped.startswith(fence):
                fence = None
                current = None
            continue
        if i in generated:
            current = None
            continue
        if m := FENCE.match(line):
            fence = m.group(1)
            current = _Unit("code", number, [line], heading=_path(headings), retain=False)
            units.append(current)
            continue
        if not stripped:
            current = None
            continue
        if found := heading(line):
            level, title = found
            headings = [(lv, t) for lv, t in headings if lv < level] + [(level, title)]
            if retain_level and level <= retain_level:
                retain_level = 0
            if title.rstrip(":").strip().casefold() in RETAIN_HEADINGS:
                retain_level = level
            current = None
            continue
        item = _LIST_ITEM.match(line)
        if item and current is not None and current.kind == "para" and not _interrupts(line, item):
            item = None  # "...her number is 912 448\n305 and..." wraps; it starts no list
        retain = bool(retain_level) or state.role == "bank"
        if item:
            indent = len(item.group(1).expandtabs(4))
            # Inside Retain, a nested item continues its parent bullet.
            if (
                retain
                and current is not None
                and current.kind == "item"
                and indent > current.indent
            ):
                current.lines.append(line)
                continue
            current = _Unit("item", number, [line], indent, _path(headings), retain)
            units.append(current)
            continue
        if current is not None:
            current.lines.append(line)
            continue
        current = _Unit("para", number, [line], heading=_path(headings), retain=False)
        units.append(current)
    if fence is not None and current is not None:
        state.warn(current.start, "code fence never closed; indexed up to the end of the file")
    return units


def _interrupts(line: str, item: re.Match[str]) -> bool:
    """Whether a list marker may end the paragraph above it (CommonMark): not an empty item,
    and an ordered one only from 1 ("305." or "12) ..." on a wrapped line continues it)."""
    if not item.group(2):
        return False
    marker = line.lstrip()[:4]
    return not marker[:1].isdigit() or marker.startswith(("1.", "1)"))


def _path(headings: list[tuple[int, str]]) -> str:
    return " > ".join(title for _, title in headings)


def _origin(role: Role, typed: bool) -> Origin:
    if role in {"core", "soul"}:
        return "core"
    if role in {"entity", "bank"}:
        return "bank"
    return "retain" if typed else "log"


def _item_text(unit: _Unit) -> str:
    first = _LIST_ITEM.match(unit.lines[0])
    head = (first.group(2) or "") if first else unit.lines[0].strip()
    rest = [ln.strip() for ln in unit.lines[1:]]
    return "\n".join([head, *rest]).strip()


def _emit(unit: _Unit, state: _State) -> None:
    if unit.kind == "item":
        text = _item_text(unit)
        typed_context = unit.retain or state.role in {"core", "entity"}
        if typed_context and _emit_bullet(unit, text, state):
            return
    if unit.kind == "code":
        _emit_code(unit, state)
        return
    # Free text is cited by the lines that carry each sentence, not by its paragraph.
    lines = list(unit.lines)
    if unit.kind == "item":
        first = _LIST_ITEM.match(lines[0])
        lines[0] = (first.group(2) or "") if first else lines[0]
    for sentence in split_units(lines, unit.start):
        part = _Unit(
            unit.kind,
            sentence.line_start,
            [""] * (sentence.line_end - sentence.line_start + 1),
            unit.indent,
            unit.heading,
            unit.retain,
        )
        _add(state, part, "log", sentence.text, mentions=mention_names(sentence.text)[0])


def _emit_code(unit: _Unit, state: _State) -> None:
    """A code or config block: each non-blank line inside the fences is a unit of its own
    (``port = 8080`` is the answer; the fence is not)."""
    for offset, line in enumerate(unit.lines):
        stripped = line.strip()
        bare_fence = stripped.strip("`~") == "" and FENCE.match(line) is not None
        if not stripped or (bare_fence and offset in (0, len(unit.lines) - 1)):
            continue  # a fence with an info string ("```toml") keeps its words findable
        part = _Unit("code", unit.start + offset, [line], unit.indent, unit.heading, False)
        _add(state, part, "log", line.rstrip())


def _add(
    state: _State,
    unit: _Unit,
    kind: Kind,
    text: str,
    mentions: list[str] | tuple[str, ...] = (),
    confidence: float | None = None,
    subject: tuple[str, ...] = (),
) -> None:
    state.blocks.append(
        Block(
            id=state.ids.make(kind, text),
            kind=kind,
            text=text,
            line_start=unit.start,
            line_end=unit.end,
            origin=_origin(state.role, kind != "log"),
            heading=unit.heading,
            mentions=tuple(mentions),
            confidence=confidence,
            subject=subject,
        )
    )


_BANK_DEFAULT: dict[str, Kind] = {
    "world.md": "world",
    "experience.md": "experience",
    "opinions.md": "opinion",
}


def _emit_bullet(unit: _Unit, text: str, state: _State) -> bool:
    """Emit a typed bullet; False when the item is not one (the caller makes a passage)."""
    line = unit.start
    known = _KNOWN_PREFIX.match(text)
    if known is None:
        other = _OTHER_PREFIX.match(text)
        if other is not None and other.group("p") in PREFIX_KINDS:
            state.warn(
                line,
                f"cannot read the ({other.group('args') or ''}) after {other.group('p')!r}; "
                "write it as O(c=0.8); indexed as log text",
            )
            return False
        if other is not None:
            state.warn(
                line, f"unknown prefix {other.group('p')!r} (use W, B, O or S); indexed as log text"
            )
            return False
        default = (
            _BANK_DEFAULT.get(PurePosixPath(state.path).name) if state.role == "bank" else None
        )
        if state.role == "core":
            default = "world"
        if default is None:
            if unit.retain and state.role == "daily":
                state.warn(
                    line, "Retain bullet has no type prefix (W, B, O or S); indexed as log text"
                )
            return False
        kind: Kind = default
        args, rest = None, text
    else:
        kind = PREFIX_KINDS[known.group("p")]
        args, rest = known.group("args"), text[known.end() :]
    head = _HEAD.match(rest)
    assert head is not None  # the pattern can match the empty string
    body = rest[head.end() :].strip()
    names, empty = mention_names(text)
    if empty:
        state.warn(line, "empty @mention; indexed as log text")
        return False
    if any(len(m.group(1).rstrip(".-'’")) > MAX_NAME_CHARS for m in _MENTION.finditer(text)):
        state.warn(line, f"@mention longer than {MAX_NAME_CHARS} characters; indexed as log text")
        return False
    if not body:
        state.warn(line, "bullet has no text after its prefix; indexed as log text")
        return False
    if known is not None and not head.group(2) and head.group(1).strip():
        # "W @Peter moved to Lisbon": mentions but no colon; still readable, keep it typed.
        body = rest.strip()
    confidence = _confidence(args, kind, state, line)
    subject = tuple(n for n in mention_names(head.group(1))[0] if n in names)
    _add(state, unit, kind, body, mentions=names, confidence=confidence, subject=subject)
    return True


def _confidence(args: str | None, kind: Kind, state: _State, line: int) -> float | None:
    if args is None:
        return DEFAULT_CONFIDENCE if kind == "opinion" else None
    m = _CONF.match(args)
    if kind != "opinion" or m is None:
        state.warn(line, f"({args}) ignored: only O bullets take a confidence, as O(c=0.8)")
        return DEFAULT_CONFIDENCE if kind == "opinion" else None
    given = m.group(1).strip()
    raw = given.rstrip("%")
    try:
        value = float(raw) / (100 if given.endswith("%") else 1)
    except ValueError:
        state.warn(line, f"confidence {given!r} is not a number; using {DEFAULT_CONFIDENCE}")
        return DEFAULT_CONFIDENCE
    if value != value:  # NaN
        state.warn(line, f"confidence {given!r} is not a number; using {DEFAULT_CONFIDENCE}")
        return DEFAULT_CONFIDENCE
    clamped = min(1.0, max(0.0, value))
    if clamped != value:
        state.warn(line, f"confidence {given} is outside [0, 1]; clamped to {clamped}")
    return clamped
