"""``config show``: the settings and where each came from."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import typer

from graphmem.surfaces.cli.common import (
    JsonOpt,
    WorkspaceOpt,
    app,
    guarded,
    settings,
)

if TYPE_CHECKING:
    pass


config_app = typer.Typer(
    no_args_is_help=True,
    help="Show the resolved configuration.\n\nExample: graphmem config show",
)
app.add_typer(config_app, name="config")


@config_app.command("show")
@guarded
def config_show(json_out: JsonOpt = False, workspace: WorkspaceOpt = None) -> None:
    """Every setting with its value and where it came from (flag > env > file > default).

    Example: graphmem config show --json
    """
    from dataclasses import asdict

    s = settings(workspace)
    values = {
        "workspace": str(s.workspace),
        "buffer_pool_mb": s.buffer_pool_mb,
        "ner_model": s.ner_model,
        "embed_model": s.embed_model,
        "model_cache": str(s.model_cache) if s.model_cache is not None else None,
        "large_file_bytes": s.large_file_bytes,
        "extra_paths": [str(p) for p in s.extra_paths],
        "recall_preset": s.recall_preset,
        "recall": asdict(s.recall),
    }
    if json_out:
        data = {k: {"value": v, "from": s.origins.get(k, "default")} for k, v in values.items()}
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    for key, value in values.items():
        if key == "recall":
            typer.echo(f"recall ({s.origins.get('recall', 'preset ' + s.recall_preset)}):")
            for k, v in value.items():  # type: ignore[attr-defined]
                typer.echo(f"  {k:<22} {v}")
            continue
        typer.echo(f"{key:<24} {value!s:<32} from {s.origins.get(key, 'default')}")
