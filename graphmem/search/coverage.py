"""How much of a generation has its vectors: the coverage record meta.json keeps, the
line ``status`` prints and the notice recall gives while vectors are still being filled in
(by :mod:`graphmem.index.vectorfill`, the write side). The read path imports this module,
never the indexer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphmem.search.seeds import SeedIndex, has_table
from graphmem.store.layout import Generation


@dataclass(frozen=True)
class Coverage:
    """How much of a generation has its vectors."""

    items: int
    of: int
    windows: int = 0
    windows_pending: int = 0

    @property
    def complete(self) -> bool:
        """No row and no window is waiting for a vector."""
        return self.items == self.of and not self.windows_pending

    @property
    def share(self) -> float:
        """Share of items with a vector (1.0 for an empty index)."""
        return self.items / self.of if self.of else 1.0

    def to_meta(self) -> dict[str, int]:
        """The form meta.json keeps (``"vectors"``)."""
        return {
            "items": self.items,
            "of": self.of,
            "windows": self.windows,
            "windows_pending": self.windows_pending,
        }


def coverage(seeds: Any) -> Coverage | None:
    """The vector coverage of the seed index file `seeds`; None when it has no vectors
    (embeddings off)."""
    with SeedIndex.open(seeds) as index:
        if index.backend == "none":
            return None
        have, total = index.coverage()
        conn = index.conn
        windows = count_rows(conn, "windows")
        waiting = count_rows(conn, "windows_pending")
    return Coverage(have, total, windows, waiting)


def count_rows(conn: Any, table: str) -> int:
    """Rows in `table` of the seed index `conn`; 0 when the table does not exist."""
    return (
        int(conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        if has_table(conn, table)
        else 0
    )


def _from_meta(meta_vectors: dict[str, int]) -> Coverage:
    return Coverage(
        int(meta_vectors.get("items", 0)),
        int(meta_vectors.get("of", 0)),
        int(meta_vectors.get("windows", 0)),
        int(meta_vectors.get("windows_pending", 0)),
    )


def describe(meta_vectors: dict[str, int]) -> str:
    """``status``'s line: how much of the index has vectors."""
    cov = _from_meta(meta_vectors)
    line = f"{cov.share:.0%} of items ({cov.items:,} of {cov.of:,})"
    windows = cov.windows + cov.windows_pending
    if windows:
        line += f", {cov.windows:,} of {windows:,} windows"
    if not cov.complete:
        line += "; `graphmem index` fills in the rest"
    return line


def coverage_notice(gen: Generation) -> list[str]:
    """Recall's notice while `gen`'s vectors are incomplete (none when complete or off)."""
    notice = notice_of(gen.meta().get("vectors"))
    return [notice] if notice else []


def notice_of(meta_vectors: dict[str, int] | None) -> str | None:
    """One line for the user while a generation's vectors are incomplete, else None."""
    if not meta_vectors:
        return None
    cov = _from_meta(meta_vectors)
    if cov.complete:
        return None
    return (
        f"vectors for {cov.share:.0%} of items so far ({cov.items:,} of {cov.of:,}): "
        "vector search covers those; `graphmem index` fills in the rest"
    )
