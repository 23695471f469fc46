"""Locate the ontology/ and queries/ folders, from a checkout or an installed wheel.

In a checkout (or an editable install) they sit beside the package; a wheel carries them
as the data packages ``graphmem._ontology`` and ``graphmem._queries``.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent


def _folder(name: str, package: str) -> Path:
    local = _CHECKOUT / name
    if local.is_dir() and any(local.rglob("*.cypher")):
        return local
    return Path(str(resources.files(package)))


def ontology_dir() -> Path:
    """The folder of ``*.cypher`` DDL files."""
    return _folder("ontology", "graphmem._ontology")


def queries_dir() -> Path:
    """The folder tree of named ``*.cypher`` queries."""
    return _folder("queries", "graphmem._queries")
