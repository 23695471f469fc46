"""Typed values in a sentence: the attribute a statement sets, by the shape of its value.

A phone number, an IP address, a port, a version of a named thing, a config key's value:
these are recognised by shape, not by wording, so they work in every language the logs
use ("Número novo da Graça: +351 933 481 660" and "mobile +351 917 302 118" both set
``phone``). Two statements about the same entity that set the same slot to different
values are a change of state: the newer one supersedes the older (graphmem.supersede),
and recall demotes the older one for questions about the present.

Each pattern is linear: no nested quantifiers over the same characters, and no unbounded
run tried again from every position inside it (a host name's label before ".lan" has at
most 63 characters, as in DNS: an unbounded one read the whole rest of a "-1-1-1…" line
from each of its positions).
"""

from __future__ import annotations

import re
from typing import NamedTuple

PHONE, IP, PORT, VERSION, SETTING = "phone", "ip", "port", "version", "setting"

_PHONE = re.compile(r"(?<![\w+])\+\d{1,3}(?:[ .-]?\d{2,4}){2,4}(?!\d)")
_IP = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?::(\d{2,5}))?(?![\d.]*\d)")
_PORT = re.compile(
    r"\b(?:port|porta|porte|puerto|Port|端口)\s*:?\s*(\d{2,5})\b|"
    r"\b(?:localhost|[\w-]{1,63}+\.(?:lan|local|internal)):(\d{2,5})\b",
    re.IGNORECASE,
)
# _PORT without the host alternative, for text where no host can match (most text): the
# same matches, without trying a host name at every word.
_HOST_PORT = re.compile(r"\.(?:lan|local|internal):", re.IGNORECASE)
_PORT_NO_HOST = re.compile(
    r"\b(?:port|porta|porte|puerto|Port|端口)\s*:?\s*(\d{2,5})\b|\b(?:localhost):(\d{2,5})\b",
    re.IGNORECASE,
)
_VERSION = re.compile(r"\b([A-Z][\w-]{1,40})\s+v?(\d+\.\d+(?:\.\d+)?)(?![.\d])")
#: ``retry.maxAttempts = 5``, ``crawler.maxConcurrent: 12``, ``batchSize from 500 to 800``.
_SETTING = re.compile(
    r"\b([A-Za-z_][\w-]{0,40}(?:\.[A-Za-z_][\w-]{0,40}){1,4})\s*(?:=|:|\bto\b|\bis now\b)\s*"
    r"\"?([\w.:/-]{1,60})"
)
_SETTING_CHANGE = re.compile(
    r"\b([A-Za-z_][\w-]{0,40}(?:\.[A-Za-z_][\w-]{0,40}){1,4})\b[^.;\n]{0,40}?\bfrom\s+"
    r"\"?([\w.:/-]{1,60})\"?\s+to\s+\"?([\w.:/-]{1,60})"
)
#: A stated value that does not last: it never ends the value it temporarily replaces.
_TEMPORARY = re.compile(
    r"\b(?:temporar\w*|for now|until|till|provisoire\w*|tempor[aá]ri\w*|vorübergehend|"
    r"bis|hasta|jusqu['’]?\w*|até|if|would|might|could|plan\w*|maybe|tried|trying|try|"
    r"testing|staging|experiment\w*|essai\w*|probier\w*|probando|tentative)\b|暂时|临时|试",
    re.IGNORECASE,
)


class Slot(NamedTuple):
    """One value a statement gives: its type, a key (the setting's or thing's name, or
    ``""``) and the normalised value."""

    type: str
    key: str
    value: str


def slots(text: str) -> list[Slot]:
    """The typed values `text` states, in order, one per (type, key) (the last wins,
    so "from 5 to 8" states 8)."""
    found: dict[tuple[str, str], str] = {}
    for m in _PHONE.finditer(text):
        digits = re.sub(r"\D", "", m.group(0))
        if len(digits) >= 8:
            found[(PHONE, "")] = digits
    for m in _IP.finditer(text):
        address = m.group(1)
        if address.startswith(("127.", "0.")):
            pass  # loopback or "any": a bind address, not the host's address
        elif all(0 <= int(part) <= 255 for part in address.split(".")):
            found[(IP, "")] = address
        if m.group(2):
            found[(PORT, "")] = m.group(2)
    for m in (_PORT if _HOST_PORT.search(text) else _PORT_NO_HOST).finditer(text):
        found[(PORT, "")] = m.group(1) or m.group(2)
    for m in _VERSION.finditer(text):
        found[(VERSION, m.group(1).casefold())] = m.group(2)
    for m in _SETTING.finditer(text):
        key = m.group(1)
        if _IP.fullmatch(key) or key.replace(".", "").isdigit():
            continue
        found[(SETTING, key.casefold())] = m.group(2).strip("\"'.").casefold()
    for m in _SETTING_CHANGE.finditer(text):
        found[(SETTING, m.group(1).casefold())] = m.group(3).strip("\"'.").casefold()
    return [Slot(t, k, v) for (t, k), v in found.items()]


def temporary(text: str) -> bool:
    """The statement marks its value as temporary, conditional or planned."""
    return _TEMPORARY.search(text) is not None
