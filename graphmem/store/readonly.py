"""Is a user's Cypher a read? The guard in front of ``graphmem cypher`` without ``--write``.

Kùzu's read-only mode refuses changes to the graph, but not ``COPY … TO``, ``EXPORT
DATABASE``, ``LOAD FROM '/etc/passwd'``, file-reading table functions or ``INSTALL``: those
reach the disk from a read-only database. A regex over the text cannot tell a keyword
from the same letters inside a comment, a string or a backtick name, so this reads the text
as Kùzu's lexer does, in one linear pass: ``//`` and ``/* */`` comments, ``'…'`` and
``"…"`` strings with backslash escapes, and `` `…` `` names are set aside, and what remains
is words, ``;`` and punctuation. Then each statement must:

- start with a reading clause (MATCH, OPTIONAL MATCH, UNWIND, WITH, RETURN, CALL) or
  EXPLAIN/PROFILE;
- use no clause word that writes, reads files or leaves the database (:data:`NOT_READS`,
  which with :data:`READ_STARTS` is every word Kùzu 0.11.3 accepts to start a statement,
  plus REMOVE);
- CALL only the table functions of :data:`READ_CALLS`, which read the catalog or an index.

Anything the scan cannot read for sure (an unterminated string, comment or name, a NUL) is
refused too: the guard fails closed. A word that is only a name (``RETURN 1 AS set``) is
refused as well, and so is a property of that name (``n.set``); write it as `` `set` ``.
"""

from __future__ import annotations

from dataclasses import dataclass

from graphmem.errors import ReadOnlyError

#: The clauses a read-only statement may start with.
READ_STARTS = frozenset(
    {"MATCH", "OPTIONAL", "UNWIND", "WITH", "RETURN", "CALL", "EXPLAIN", "PROFILE"}
)
#: Clause words that change the graph or the catalog, touch files or other databases, or
#: manage transactions and extensions. Kùzu's parser names every statement start.
NOT_READS = frozenset(
    {
        "ALTER", "ATTACH", "BEGIN", "CHECKPOINT", "COMMENT", "COMMIT", "COPY", "CREATE",
        "DELETE", "DETACH", "DROP", "EXPORT", "FORCE", "IMPORT", "INSTALL", "LOAD", "MERGE",
        "REMOVE", "ROLLBACK", "SET", "UNINSTALL", "UPDATE", "USE",
    }
)  # fmt: skip
#: Table functions that only read the catalog, settings or an index. Not here: the file
#: readers (READ_CSV_*, READ_PARQUET, READ_NPY, JSON_SCAN, FILE_INFO), index and projection
#: builders, and the graph algorithms (they need a projected graph, which is a write).
READ_CALLS = frozenset(
    {
        "SHOW_TABLES", "TABLE_INFO", "SHOW_CONNECTION", "SHOW_INDEXES", "SHOW_FUNCTIONS",
        "SHOW_SEQUENCES", "SHOW_WARNINGS", "SHOW_LOADED_EXTENSIONS", "SHOW_OFFICIAL_EXTENSIONS",
        "SHOW_ATTACHED_DATABASES", "SHOW_PROJECTED_GRAPHS", "DB_VERSION", "CURRENT_SETTING",
        "CATALOG_VERSION", "QUERY_FTS_INDEX", "QUERY_VECTOR_INDEX",
    }
)  # fmt: skip

_HINT = "pass --write to run it"


@dataclass(frozen=True)
class Token:
    """A word (``kind == "word"``, upper-cased) or one punctuation character."""

    kind: str
    text: str
    at: int


def _word_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def tokens(text: str) -> list[Token]:
    """The words and punctuation of `text`, without comments, strings and backtick names.

    A string or backtick name becomes one ``"literal"`` token. Raises :class:`ReadOnlyError`
    for text the scan cannot read for sure.
    """
    out: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\x00":
            raise ReadOnlyError(f"cypher is read-only: a NUL character at offset {i}; {_HINT}")
        if ch == "/" and text.startswith("//", i):
            # Kùzu ends a line comment at a line break; \r counts too (fail closed).
            ends = [j for j in (text.find("\n", i), text.find("\r", i)) if j >= 0]
            i = min(ends) if ends else n
        elif ch == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ReadOnlyError(f"cypher is read-only: a /* comment is never closed; {_HINT}")
            i = end + 2
        elif ch in "'\"`":
            i = _literal_end(text, i)
            out.append(Token("literal", ch, i))
        elif _word_char(ch):
            j = i + 1
            while j < n and _word_char(text[j]):
                j += 1
            out.append(Token("word", text[i:j].upper(), i))
            i = j
        else:
            if not ch.isspace():
                out.append(Token("punct", ch, i))
            i += 1
    return out


def _literal_end(text: str, start: int) -> int:
    """The index after the string or backtick name opening at `start`."""
    quote = text[start]
    i = start + 1
    while i < len(text):
        ch = text[i]
        if ch == "\\" and quote != "`":
            i += 2  # an escape: the next character cannot close the string
            continue
        if ch == quote:
            return i + 1
        i += 1
    what = "backtick name" if quote == "`" else "string"
    raise ReadOnlyError(f"cypher is read-only: a {what} is never closed; {_HINT}")


def statements(toks: list[Token]) -> list[list[Token]]:
    """`toks` split at ``;`` (empty statements dropped)."""
    out: list[list[Token]] = [[]]
    for tok in toks:
        if tok.kind == "punct" and tok.text == ";":
            out.append([])
        else:
            out[-1].append(tok)
    return [s for s in out if s]


def check_read_only(text: str) -> None:
    """Raise :class:`ReadOnlyError` unless every statement of `text` only reads the graph."""
    for statement in statements(tokens(text)):
        first = statement[0]
        if first.kind != "word" or first.text not in READ_STARTS:
            shown = first.text if first.kind == "word" else "that"
            raise ReadOnlyError(
                f"cypher is read-only: a statement starting with {shown} is not a read; {_HINT}"
            )
        for k, tok in enumerate(statement):
            if tok.kind != "word":
                continue
            if tok.text in NOT_READS:
                raise ReadOnlyError(
                    f"cypher is read-only: {tok.text} writes, reads files or leaves the "
                    f"database; {_HINT}"
                )
            if tok.text == "CALL":
                name = statement[k + 1] if k + 1 < len(statement) else None
                if name is None or name.kind != "word" or name.text not in READ_CALLS:
                    called = name.text if name is not None and name.kind == "word" else "that"
                    raise ReadOnlyError(
                        f"cypher is read-only: CALL {called} is not one of the read-only "
                        f"functions ({', '.join(sorted(READ_CALLS))}); {_HINT}"
                    )
