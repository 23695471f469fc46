"""What a CLI command runs with besides its arguments: the settings its callback resolved,
and, inside ``graphmem daemon``, the resident :class:`~graphmem.memory.Memory` to reuse.

The CLI reads it; the daemon resets it around each command it runs (:func:`reset`), so the
daemon never imports the CLI: it is handed the command to run instead.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from graphmem.config import Settings
    from graphmem.memory import Memory


class State:
    """One process's command state (the daemon runs one command at a time)."""

    settings: Settings | None = None
    #: The global --extra-path values (None: not given), kept for a later --workspace.
    extra_paths: list[Path] | None = None
    #: Set by a resident process (``graphmem daemon``): the Memory to reuse for settings.
    keep: Callable[[Settings], Memory] | None = None


state = State()


def reset(keep: Callable[[Settings], Memory] | None = None) -> None:
    """Forget the last command's settings; `keep` gives the next ones their Memory."""
    state.settings = None
    state.extra_paths = None
    state.keep = keep
