"""docs/where-to-add.md names real files: every path it quotes exists (issue 24, point 5), and
every name it gives as `NAME` (`module.py`) is defined in that module."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from audit.house_rules import HOUSE_RULES, Fault, HouseRule, Section
from audit.kinds import ItemKind

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


def test_a_house_rule_added_by_the_guide_is_checked_complete() -> None:
    """The guide's "A house rule" steps are checked, not only its files: every registry entry passes
    `check_complete`, and an entry with nothing but its registry line fails every one of its checks
    (each forgotten step is a failing test, named by the check)."""
    from tests.audit.test_house_rules import CHECKS, check_complete

    for rule in HOUSE_RULES:
        check_complete(rule)
    bare = HouseRule("chicken.added_by_guide", "off", (
        Section("R19.99", ("on",), "新规则", "r19_99_missing", Fault.OWN, "a new house rule (R19.99)"),),
        ("on",), frozenset({ItemKind.CHICKEN}), knob="no_such_knob")
    for check in CHECKS:
        with pytest.raises((AssertionError, KeyError, LookupError)):
            check(bare)
