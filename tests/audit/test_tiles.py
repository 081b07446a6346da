"""audit/tiles.py is the one tile vocabulary: codes, indexes and Chinese names of all 27 tiles,
and the modules that read, draw or name tiles (schema, render) take them from it."""
from __future__ import annotations

import ast
import xml.etree.ElementTree as ET

import pytest

from audit import render, structure, tiles
from tests.conftest import ROOT

CODES = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)]
"""Written out here, not read from tiles: the oracle of the round trips."""
SAID = {"m": "万", "p": "筒", "s": "条"}
NUMERALS = "一二三四五六七八九"


@pytest.mark.parametrize("index,code", list(enumerate(CODES)))
def test_every_tile_round_trips_through_parse_code_split_and_zh(index: int, code: str) -> None:
    assert tiles.parse(code) == index and tiles.code(index) == code and tiles.CODES[index] == code
    assert tiles.split(code) == (int(code[0]), code[1])
    assert tiles.make("mps".index(code[1]), int(code[0])) == index
    want = "幺鸡" if code == "1s" else NUMERALS[int(code[0]) - 1] + SAID[code[1]]
    assert tiles.zh_name(code) == tiles.zh(index) == want


def test_names_read_as_players_say_them() -> None:
    assert [tiles.zh_name(c) for c in ("5m", "1p", "8s", "9p", "1s", "2s")] == ["五万", "一筒", "八条", "九筒", "幺鸡", "二条"]
    assert tiles.parse_all(CODES) == list(range(27))
    assert tiles.format_counts(tiles.counts([26, 0, 0, 13])) == ["1m", "1m", "5p", "9s"]


@pytest.mark.parametrize("bad", ["0m", "10p", "5z", "", "m5", "1S", "5", "5m "])
def test_a_bad_code_is_refused_naming_it(bad: str) -> None:
    for read in (tiles.parse, tiles.split, tiles.zh_name):
        with pytest.raises(ValueError) as excinfo:
            read(bad)
        assert str(excinfo.value) == f"not a tile: {bad!r}"


def test_the_schema_and_the_drawings_use_the_same_tiles() -> None:
    assert structure.TILE_CODES == tiles.CODES and structure.TILES == frozenset(CODES)
    sprite = ET.fromstring(render.tile_sprite_svg())
    ids = [g.get("id") or "" for g in sprite.iter(f"{{{render.SVG_NS}}}g")]
    ids = [i for i in ids if i.startswith("zj-")]
    assert [i for i in ids if not i.endswith("-r")] == [f"zj-{c}" for c in CODES] + ["zj-back"]
    for code in CODES:
        title = ET.fromstring(render.tile_svg(code)).find(f"{{{render.SVG_NS}}}title")
        assert title is not None and title.text == f"{code} {tiles.zh_name(code)}"


VOCABULARY = frozenset(("万", "筒", "条", "幺鸡", "mps", NUMERALS))


def test_no_other_module_spells_the_tile_vocabulary() -> None:
    """Suit letters, suit names and numerals are written in tiles.py only (docstrings aside)."""
    for path in sorted((ROOT / "audit").glob("*.py")):
        if path.name == "tiles.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)) and node.body
                      and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        spelled = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                   and node.value in VOCABULARY and id(node) not in docstrings]
        assert spelled == [], path.name
