"""Discovery and reading: symlinks, binary files, invalid UTF-8, large files."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import WriteFiles

from graphmem.parse.workspace import discover, read_text


def test_only_memory_bank_and_core_files_are_indexed(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {
            "memory.md": "core",
            "SOUL.md": "soul",
            "USER.md": "user",
            "README.md": "not memory",
            "memory/2025-01-01.md": "day",
            "memory/sub/2025-01-02.md": "nested day",
            "bank/entities/Peter.md": "# Peter",
            ".memory/junk.md": "derived",
        }
    )
    files, notices = discover(root)
    assert [f.path for f in files] == [
        "SOUL.md",
        "USER.md",
        "bank/entities/Peter.md",
        "memory.md",
        "memory/2025-01-01.md",
        "memory/sub/2025-01-02.md",
    ]
    assert notices == []


def test_symlinks_that_leave_the_workspace_are_not_followed(
    make_workspace: WriteFiles, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("secret")
    root = make_workspace({"memory/2025-01-01.md": "day"})
    os.symlink(outside / "secret.md", root / "memory" / "2025-01-02.md")
    os.symlink(outside, root / "memory" / "elsewhere")
    os.symlink(root / "memory", root / "memory" / "loop")
    files, notices = discover(root)
    assert [f.path for f in files] == ["memory/2025-01-01.md"]
    messages = {n.path: n.message for n in notices}
    assert "leaves the workspace" in messages["memory/2025-01-02.md"]
    assert "not followed" in messages["memory/elsewhere"]
    assert "not followed" in messages["memory/loop"]


def test_symlink_inside_the_workspace_is_followed(make_workspace: WriteFiles) -> None:
    root = make_workspace({"memory/2025-01-01.md": "day"})
    os.symlink(root / "memory" / "2025-01-01.md", root / "memory" / "2025-01-03.md")
    files, _ = discover(root)
    assert [f.path for f in files] == ["memory/2025-01-01.md", "memory/2025-01-03.md"]


def test_binary_files_are_skipped_with_a_warning(make_workspace: WriteFiles) -> None:
    root = make_workspace(
        {"memory/2025-01-01.md": b"\x89PNG\x00\x00data", "memory/photo.png": b"\x00\x01"}
    )
    files, notices = discover(root)
    assert [n.path for n in notices] == ["memory/photo.png"]
    text, read_notices = read_text(files[0], large_file_bytes=10**6)
    assert text is None
    assert "binary" in read_notices[0].message


def test_invalid_utf8_is_decoded_with_replacement_and_names_the_line(
    make_workspace: WriteFiles,
) -> None:
    root = make_workspace({"memory/2025-10-02.md": b"# Day\n\nCaf\xe9 with Peter\n"})
    files, _ = discover(root)
    text, notices = read_text(files[0], large_file_bytes=10**6)
    assert text == "# Day\n\nCaf\ufffd with Peter\n"
    assert notices[0].line == 3 and "invalid UTF-8" in notices[0].message


def test_large_files_index_with_a_warning(make_workspace: WriteFiles) -> None:
    root = make_workspace({"memory/2025-10-02.md": "word " * 1000})
    files, _ = discover(root)
    text, notices = read_text(files[0], large_file_bytes=1000)
    assert text is not None and text.startswith("word")
    assert "large file" in notices[0].message
