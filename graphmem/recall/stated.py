"""The typed values the candidates state (graphmem.extract.slots), compared among
themselves: which a later line overtakes, and which state for a question about the past
what only became true later."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import date
from functools import lru_cache
from typing import Any

from graphmem.extract.slots import SETTING, VERSION, Slot, slots, temporary
from graphmem.recall.items import Item

#: (item, day, (type, key, owner, value), lasting): one typed value a candidate states.
Stated = tuple[Item, "date | None", tuple[str, str, str, str], bool]


def overtaken(stated_slots: Iterable[Stated]) -> dict[str, date]:
    """Candidates whose typed value (graphmem.extract.slots) a later-dated candidate
    sharing an entity sets to another value, with the day of the first such statement.

    The recall-time twin of supersession, for free text too: "the listen line now reads
    127.0.0.1:9120" overtakes "listen = 0.0.0.0:8080" when both are candidates. An undated
    line (core and bank files cannot be placed in time) is overtaken only as the value it
    holds: when a dated candidate stated that value and a later one changed it. A value
    stated as temporary or planned overtakes nothing.
    """
    stated: dict[tuple[str, str, str], list[tuple[date, str, str]]] = defaultdict(list)
    undated: list[tuple[tuple[str, str, str], str, str]] = []
    for item, day, slot, lasting in stated_slots:
        if day is not None:
            stated[slot[:3]].append((day, slot_value(slot, lasting), item.id))
        elif lasting:
            undated.append((slot[:3], slot[3], item.id))
    _share_ownerless(stated)
    out: dict[str, date] = {}
    for statements in stated.values():
        statements.sort()
        for day, value, item_id in statements:
            later = [d for d, v, _ in statements if d > day and v and v != value]
            if later:
                first = min(later)
                out[item_id] = min(out.get(item_id, first), first)
    # An undated line (core, bank) holding a value the logs stated and then changed is as
    # old as that value: memory.md's January number after April's "new mobile is …". One
    # that holds the newest value, or a value no log stated, stays current.
    for key, value, item_id in undated:
        statements = stated.get(key) or stated.get((key[0], key[1], ""), [])
        said = [d for d, v, _ in statements if v == value]
        if not said or not value:
            continue
        later = [d for d, v, _ in statements if d > max(said) and v and v != value]
        if later:
            out[item_id] = min(later)
    return out


def contradicted_then(stated: Iterable[Stated], start: date, end: date) -> set[str]:
    """Candidates undated (core, bank) or written after ``start``..``end`` that give a
    typed value another value than the one a dated candidate states by the end of that
    time: for a question about then they state what became true later ("listens on
    127.0.0.1:9120" against February's 8080, April's new phone number against
    February's)."""
    said: dict[tuple[str, str, str], list[tuple[date, str]]] = defaultdict(list)
    undated: list[tuple[tuple[str, str, str], str, str]] = []
    for item, day, slot, lasting in stated:
        if day is None or day > end:
            undated.append((slot[:3], slot[3], item.id))
        elif lasting:
            said[slot[:3]].append((day, slot[3]))
    _share_ownerless(said)
    # The value valid then: the newest lasting statement made by the end of that time.
    then = {key: max(rows)[1] for key, rows in said.items() if rows}
    out: set[str] = set()
    for key, value, item_id in undated:
        valid = then.get(key) or then.get((key[0], key[1], ""))
        if valid is not None and valid != value:
            out.add(item_id)
    return out


def slot_value(slot: tuple[str, str, str, str], lasting: bool) -> str:
    """A stated value, or "" for a temporary one (which overtakes nothing)."""
    return slot[3] if lasting else ""


@lru_cache(maxsize=32768)
def _read_slots(text: str) -> tuple[tuple[Slot, ...], bool]:
    """The typed values of a candidate's text and whether they last (not "until Friday"),
    kept per text: every pass of a recall reads the same candidates, and a long-lived
    process (the MCP server, the daemon) the same lines for many questions."""
    values = tuple(slots(text)) if text else ()
    return values, bool(values) and not temporary(text)


def stated_slots(items: Iterable[Item]) -> Iterable[Stated]:
    """(item, day, (type, key, owner, value), lasting) for every typed value of every item
    (day: when it holds from, :func:`_stated_on`); the owner is an entity the item names
    ("" for a config key or a thing's version, and for an item that names no entity)."""
    for item in items:
        text = str(item.row.get("text") or item.row.get("statement") or "")
        values, lasting = _read_slots(text)
        if not values:
            continue
        owners = {slug for slug, _, _ in item.entities} or {""}
        day = _stated_on(item)
        for slot in values:
            for owner in [""] if slot.type in (SETTING, VERSION) else sorted(owners):
                yield item, day, (slot.type, slot.key, owner, slot.value), lasting


def _stated_on(item: Item) -> date | None:
    """The day an item's values hold from: its day, or the later start it names ("from 1
    June the rent is 1100 €", written on 10 May, states June's rent)."""
    day: date | None = item.row.get("day")
    start: date | None = item.row.get("valid_from")
    return start if day is not None and start is not None and start > day else day


def _share_ownerless(stated: dict[Any, list[Any]]) -> None:
    """Statements of a key-less value by an item that names nobody ("the listen line now
    reads 127.0.0.1:9120") join every owner's group of that type."""
    for (kind, key, owner), rows in list(stated.items()):
        if owner:
            continue
        for (k2, key2, owner2), rows2 in stated.items():
            if owner2 and (k2, key2) == (kind, key):
                rows2.extend(rows)
