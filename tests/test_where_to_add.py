"""docs/where-to-add.md names real files: every path it quotes exists (issue 24, point 5), and
every name it gives as `NAME` (`module.py`) is defined in that module."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "where-to-add.md"
PATH = re.compile(r"`((?:[a-z_]+/)+[a-z_<>]*(?:\.[a-z]+)?/?|[a-z_]+\.py)`")
NAMED = re.compile(r"`([A-Z_][A-Za-z_]+)` \(`([a-z_/]+\.py)`\)|`([A-Z_][A-Za-z_]+)`,? `([a-z_/]+\.py)`")


def quoted_paths(text: str) -> list[str]:
    return [p for p in PATH.findall(text) if "<" not in p]


def test_every_file_the_guide_names_exists() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    paths = quoted_paths(text)
    assert len(paths) > 60  # the guide walks six kinds of change through the tree
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert missing == [], missing


def test_every_name_the_guide_places_in_a_module_is_there() -> None:
    text = GUIDE.read_text(encoding="utf-8")
    pairs = [(a or c, b or d) for a, b, c, d in NAMED.findall(text)]
    assert pairs
    absent = [(name, path) for name, path in pairs if name not in (ROOT / path).read_text(encoding="utf-8")]
    assert absent == [], absent


def test_the_check_catches_a_file_that_is_gone() -> None:
    assert quoted_paths("see `audit/no_such_module.py` and `web/`") == ["audit/no_such_module.py", "web/"]
    assert not (ROOT / "audit/no_such_module.py").exists()
