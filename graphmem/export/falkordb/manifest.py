"""A local copy of the push manifest, trusted only when the server vouches for it.

The truth is on the server: every row carries its hash. Reading those back costs a scan of
the workspace's part of the graph (at 100k items, 430k rows and most of a one-day push). So
a push also leaves, in ``.memory/push/``, the ``id -> hash`` maps it made the server hold,
and on the server's workspace record their digest and ``state = 'clean'``. The next push
uses the local copy only if the record still says ``clean`` with the same digest: a push
from another machine changes the digest, a push that died half-way leaves ``pushing``, and
either way the manifest is read from the server again. Losing the file costs one scan.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path

Manifests = dict[str, dict[str, str]]

FOLDER = "push"


def digest(manifests: Mapping[str, Mapping[str, str]]) -> str:
    """A hash of every kind's ``id -> hash`` map (order-free)."""
    h = hashlib.sha256()
    for kind in sorted(manifests):
        h.update(kind.encode("utf-8") + b"\x1e")
        for key in sorted(manifests[kind]):
            h.update(f"{key}\x1f{manifests[kind][key]}\x1e".encode())
    return h.hexdigest()[:32]


def cache_path(memory_dir: Path, target: str, graph: str, workspace: str) -> Path:
    """Where the manifest of one (server, graph, workspace) is kept."""
    name = hashlib.sha256(f"{target}\x1f{graph}\x1f{workspace}".encode()).hexdigest()[:16]
    return memory_dir / FOLDER / f"{name}.json"


def load(path: Path, expected_digest: str) -> Manifests | None:
    """The cached manifests if the file exists and matches `expected_digest`, else None."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("digest") != expected_digest:
        return None
    manifests = data.get("manifests")
    return manifests if isinstance(manifests, dict) else None


def save(path: Path, manifests: Mapping[str, Mapping[str, str]], value: str) -> None:
    """Write the manifests and their digest atomically (a reader sees the old or the new)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(
        json.dumps({"digest": value, "manifests": manifests}, separators=(",", ":")),
        encoding="utf-8",
    )
    os.replace(tmp, path)
