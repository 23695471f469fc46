"""Start a workspace: the folders graphmem reads, a core file, and a README of the syntax.

Never overwrites: a file that exists is left as it is, byte for byte, and said so. The
README sits at the workspace's top, where graphmem does not index (only ``MEMORY.md`` /
``memory.md``, ``USER.md``, ``SOUL.md``, ``memory/`` and ``bank/`` are read), so the syntax guide
never turns up in recall. The core file made is ``MEMORY.md`` in a workspace OpenClaw laid out
(it has ``AGENTS.md``, ``SOUL.md``, ``USER.md``, ...), as OpenClaw names it, else ``memory.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from graphmem.parse.workspace import CORE_FILE, LEGACY_CORE_FILE, is_openclaw_workspace
from graphmem.store.layout import write_atomic

CORE = """# Core memory

Durable facts and preferences, one typed bullet each; the agent reads this file every turn.
"""

README = """# This is a graphmem workspace

Plain Markdown is the memory; `graphmem index` compiles it into `.memory/` (derived, safe to
delete, never committed: it has its own `.gitignore`).

```
MEMORY.md                  core facts and preferences (always in the agent's context;
                           memory.md, the legacy name, is read too)
USER.md                    who the user is (optional; indexed like MEMORY.md)
SOUL.md                    the agent's persona (optional)
memory/YYYY-MM-DD.md       one log a day: free text, plus an optional "## Retain" section
bank/entities/<Name>.md    one page per person, place, project or thing
```

A day's log, with typed bullets under `## Retain`:

```
# 2026-01-05

Met Peter for coffee; he is moving to Vienna in March.

## Retain
- W @Peter: Moves to Vienna in March 2026.
- B @Me: I sent Peter the flat listings.
- O(c=0.8) @Peter: Prefers voice notes over calls.
- S @Peter @Andy: They travel together every spring.
```

| prefix | meaning |
|---|---|
| `W` | a world fact about the `@Entity` after it |
| `B` | experience, first person |
| `O(c=0.8)` | an opinion with its confidence (0 to 1; 0.7 when left out) |
| `S` | an observation or summary |

An entity page, `bank/entities/Peter.md`:

```
# Peter Novak
Aliases: Pete, P.
Kind: person

Peter's mother is Ana.
```

Then: `graphmem index`, `graphmem recall "where does Peter live?"`, `graphmem about Peter`,
`graphmem retain "W @Peter: Lives in Vienna."`, `graphmem reflect`.
"""


@dataclass
class InitReport:
    """What ``graphmem init`` made and what it found already there."""

    workspace: str
    created: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)


def init_workspace(root: Path) -> InitReport:
    """Make `root`'s layout (folders, the core file, ``README.md``) where missing."""
    report = InitReport(str(root))
    root.mkdir(parents=True, exist_ok=True)
    for folder in ("memory", "bank/entities"):
        path = root / folder
        if path.is_dir():
            report.kept.append(f"{folder}/")
        else:
            path.mkdir(parents=True)
            report.created.append(f"{folder}/")
    core = next((n for n in (CORE_FILE, LEGACY_CORE_FILE) if (root / n).exists()), None)
    name = CORE_FILE if is_openclaw_workspace(root) else LEGACY_CORE_FILE
    files = {"README.md": README} | ({} if core else {name: CORE})
    if core:
        report.kept.append(core)
    for name, text in files.items():
        path = root / name
        if path.exists():
            report.kept.append(name)
            continue
        write_atomic(path, text.encode("utf-8"))
        report.created.append(name)
    return report
