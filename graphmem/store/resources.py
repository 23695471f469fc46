"""Locate the ontology/ and queries/ folders, from a checkout or an installed wheel.

In a checkout (or an editable install) they sit beside the package; a wheel carries them
as the data packages ``graphmem._ontology`` and ``graphmem._queries``.
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parents[2]


def _folder(name: str, package: str) -> Path:
    local = _CHECKOUT / name
    if local.is_dir() and any(local.rglob("*.cypher")):
        return local
    # A wheel ships them as namespace packages (no __init__.py): take their folder.
    spec = find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError(f"graphmem is installed without its {name}/ folder ({package})")
    return Path(next(iter(spec.submodule_search_locations)))


def ontology_dir() -> Path:
    """The folder of ``*.cypher`` DDL files."""
    return _folder("ontology", "graphmem._ontology")


def queries_dir() -> Path:
    """The folder tree of named ``*.cypher`` queries."""
    return _folder("queries", "graphmem._queries")
