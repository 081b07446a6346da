"""Tiles, hands and tables drawn as SVG, for the HTML and PDF reports.

Pure functions in the manner of `chess.svg`: keyword-only options in, an SVG
string out, built with ElementTree so every text is escaped. The same markup
works inline in a browser and in WeasyPrint: only presentation attributes, no
CSS, no script, and `<use>` only points into the same document (WeasyPrint
resolves nothing else) unless the caller asks for `sprite=True`, which points
at the page-wide `tile_sprite_svg()` a browser page includes once (a report
with a hundred steps then weighs a few hundred kB instead of megabytes).

A tile is drawn in a 30 x 40 box: 万 tiles as a Chinese numeral over a red 万,
筒 tiles as coloured rings in the usual layouts, 条 tiles as green sticks, and
1s as the bird (幺鸡).
"""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any, Protocol

SVG_NS = "http://www.w3.org/2000/svg"
TILE_W, TILE_H = 30, 40
"""The tile's own drawing box; callers choose the displayed width."""
NUMERALS_ZH = "一二三四五六七八九"
SUITS_ZH = {"m": "万", "p": "筒", "s": "条"}
FONT = "WenQuanYi Micro Hei, Noto Sans CJK SC, PingFang SC, Microsoft YaHei, sans-serif"

INK = "#1d2228"
RED = "#c62828"
GREEN = "#2e7d32"
DARK_GREEN = "#1b5e20"
BLUE = "#1f5fa8"
FACE = "#fdfbf3"
EDGE = "#8a8f96"
BACK = "#2f6f5e"
MARK = "#e08600"
"""Outline of a highlighted tile (the tile the step is about)."""
ACTIVE = "#fff4d6"
"""Background of the seat that acts in a step."""
BACK_CODE = "back"
"""Pseudo code of a face-down tile (the outer tiles of a concealed kong)."""


class MeldLike(Protocol):
    """What table_svg reads of a meld (audit.api.MeldView)."""

    kind: str
    tiles: tuple[str, ...]
    from_seat: int | None


class SeatLike(Protocol):
    """What table_svg reads of a seat (audit.api.SeatView)."""

    concealed: tuple[str, ...]
    melds: tuple[MeldLike, ...]
    discards: tuple[str, ...]
    declared: bool
    locked: bool


class StepLike(Protocol):
    """What table_svg reads of a step (audit.api.StepView)."""

    event: dict[str, Any] | None
    seats: tuple[SeatLike, ...]


# ----------------------------------------------------------------- elements

def _num(value: float) -> str:
    """Short numbers keep the markup small."""
    return f"{value:.2f}".rstrip("0").rstrip(".") if isinstance(value, float) else str(value)


def _el(tag: str, parent: ET.Element | None = None, text: str | None = None, **attrs: Any) -> ET.Element:
    """An element with attributes (`class_` -> `class`, `font_size` -> `font-size`)."""
    names = {key: key.rstrip("_").replace("_", "-") for key in attrs}
    values = {names[key]: _num(value) for key, value in attrs.items() if value is not None}
    element = ET.Element(tag, values) if parent is None else ET.SubElement(parent, tag, values)
    element.text = text
    return element


def _svg(width: float, height: float, view: tuple[float, float], **attrs: Any) -> ET.Element:
    """A root <svg> of the displayed size over a view box."""
    return _el("svg", xmlns=SVG_NS, width=width, height=height, viewBox=f"0 0 {_num(view[0])} {_num(view[1])}",
               **attrs)


def _text(svg: ET.Element) -> str:
    """Serialise once, at the end."""
    return ET.tostring(svg, encoding="unicode")


# ----------------------------------------------------------------- tile faces

def parse_code(code: str) -> tuple[int, str]:
    """(rank, suit letter) of a tile code; ValueError names the bad input, like audit.tiles."""
    if not (isinstance(code, str) and len(code) == 2 and code[0] in "123456789" and code[1] in SUITS_ZH):
        raise ValueError(f"not a tile: {code!r}")
    return int(code[0]), code[1]


def tile_name_zh(code: str) -> str:
    """How players say a tile: 五万, 三筒, 七条, and 幺鸡 for 1s."""
    rank, suit = parse_code(code)
    return "幺鸡" if code == "1s" else NUMERALS_ZH[rank - 1] + SUITS_ZH[suit]


def _characters(g: ET.Element, rank: int) -> None:
    """万: the numeral in ink over a red 万."""
    group = _el("g", g, class_="glyph glyph-m", font_family=FONT, font_size=13, text_anchor="middle")
    _el("text", group, NUMERALS_ZH[rank - 1], x=15, y=18, fill=INK, font_weight="bold")
    _el("text", group, "万", x=15, y=34, fill=RED)


DOT_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((15, 20),),
    2: ((15, 11), (15, 29)),
    3: ((8, 9), (15, 20), (22, 31)),
    4: ((9, 11), (21, 11), (9, 29), (21, 29)),
    5: ((8.5, 9), (21.5, 9), (15, 20), (8.5, 31), (21.5, 31)),
    6: ((9, 8), (21, 8), (9, 20), (21, 20), (9, 32), (21, 32)),
    7: ((7, 6.5), (15, 10.5), (23, 14.5), (9, 24), (21, 24), (9, 33), (21, 33)),
    8: ((9, 6.5), (21, 6.5), (9, 15.5), (21, 15.5), (9, 24.5), (21, 24.5), (9, 33.5), (21, 33.5)),
    9: ((7.5, 8), (15, 8), (22.5, 8), (7.5, 20), (15, 20), (22.5, 20), (7.5, 32), (15, 32), (22.5, 32)),
}
"""Centres of the rings of each 筒 tile, in the usual arrangements."""
DOT_RADIUS = {1: 10.0, 2: 6.0, 3: 5.0, 4: 5.5, 5: 4.6, 6: 4.6, 7: 3.9, 8: 3.9, 9: 3.7}


def _dot_colour(rank: int, index: int) -> str:
    """Blue, green and red rings as on real tiles (the centre of 5 and 1 red)."""
    if rank == 1 or (rank == 5 and index == 2):
        return RED
    if rank in (3, 7, 9) and index < 3:
        return BLUE if rank != 9 else (BLUE, RED, GREEN)[index % 3]
    return GREEN if index % 2 else BLUE


def _dots(g: ET.Element, rank: int) -> None:
    """筒: rings with a pale centre."""
    group = _el("g", g, class_="glyph glyph-p")
    radius = DOT_RADIUS[rank]
    for index, (cx, cy) in enumerate(DOT_LAYOUTS[rank]):
        colour = _dot_colour(rank, index)
        _el("circle", group, class_="dot", cx=cx, cy=cy, r=radius, fill=colour)
        _el("circle", group, cx=cx, cy=cy, r=radius * 0.45, fill=FACE)
    if rank == 1:
        _el("circle", group, cx=15, cy=20, r=2.4, fill=BLUE)


STICK_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    2: ((15, 11), (15, 29)),
    3: ((15, 11), (9, 29), (21, 29)),
    4: ((9, 11), (21, 11), (9, 29), (21, 29)),
    5: ((8, 11), (22, 11), (15, 20), (8, 29), (22, 29)),
    6: ((7, 11), (15, 11), (23, 11), (7, 29), (15, 29), (23, 29)),
    7: ((15, 6.5), (7, 20), (15, 20), (23, 20), (7, 33), (15, 33), (23, 33)),
    8: ((6, 11), (12, 11), (18, 11), (24, 11), (6, 29), (12, 29), (18, 29), (24, 29)),
    9: ((7, 7), (15, 7), (23, 7), (7, 20), (15, 20), (23, 20), (7, 33), (15, 33), (23, 33)),
}
"""Centres of the sticks of each 条 tile (1s is the bird)."""


def _stick_red(rank: int, index: int) -> bool:
    """The red sticks that tell 5, 7 and 9 apart at a glance."""
    return (rank == 5 and index == 2) or (rank == 7 and index == 0) or (rank == 9 and index in (1, 4, 7))


def _bamboo(g: ET.Element, rank: int) -> None:
    """条: sticks with a node in the middle."""
    group = _el("g", g, class_="glyph glyph-s")
    height = 14.0 if rank in (2, 3, 4, 5, 6, 8) else 10.5
    for index, (cx, cy) in enumerate(STICK_LAYOUTS[rank]):
        colour = RED if _stick_red(rank, index) else GREEN
        _el("rect", group, class_="stick", x=cx - 2, y=cy - height / 2, width=4, height=height, rx=1.6, fill=colour)
        _el("rect", group, x=cx - 2, y=cy - 0.6, width=4, height=1.2, fill=FACE)


def _bird(g: ET.Element) -> None:
    """幺鸡: a stylised bird standing on one stick (body, wing, tail, head, beak, crest, eye)."""
    group = _el("g", g, class_="glyph glyph-bird")
    _el("path", group, class_="tail", d="M3 13 L11 20 L9 23 L4 21 Z", fill=DARK_GREEN)
    _el("ellipse", group, class_="body", cx=15, cy=22, rx=8.5, ry=6.5, fill=GREEN)
    _el("path", group, class_="wing", d="M10 20 Q15 16 20 21 Q15 26 10 20 Z", fill=DARK_GREEN)
    _el("circle", group, class_="head", cx=22, cy=13, r=4.5, fill=GREEN)
    _el("path", group, class_="crest", d="M19.5 9.5 L21 5.5 L22.5 9 L24.5 6 L24.6 10 Z", fill=RED)
    _el("path", group, class_="beak", d="M26 11.5 L29.5 13.3 L26 15 Z", fill=MARK)
    _el("circle", group, class_="eye", cx=23.3, cy=12.2, r=1.1, fill=FACE)
    _el("path", group, class_="legs", d="M13 28 L12 35 M17 28 L18 35 M10 35 L20 35", stroke="#8d5524",
        stroke_width=1.4, fill="none")


def _tile_group(code: str) -> ET.Element:
    """The whole tile (edge, face, glyph) in its 30 x 40 box."""
    g = _el("g", class_=f"tile-face tile-{code}")
    if code == BACK_CODE:
        _el("rect", g, x=1, y=1, width=28, height=38, rx=4, fill=BACK, stroke=EDGE, stroke_width=1)
        _el("rect", g, x=5, y=5, width=20, height=30, rx=2, fill="none", stroke=FACE, stroke_width=0.8,
            stroke_opacity=0.6)
        return g
    rank, suit = parse_code(code)
    _el("rect", g, x=1, y=1, width=28, height=38, rx=4, fill=FACE, stroke=EDGE, stroke_width=1)
    if suit == "m":
        _characters(g, rank)
    elif suit == "p":
        _dots(g, rank)
    elif rank == 1:
        _bird(g)
    else:
        _bamboo(g, rank)
    return g


def _oriented(code: str, rotated: bool) -> ET.Element:
    """The tile group, turned a quarter to the right when the tile lies sideways."""
    g = _tile_group(code)
    if rotated:
        g.set("transform", f"translate({TILE_H} 0) rotate(90)")
    return g


def _highlight(parent: ET.Element, x: float, y: float, width: float, height: float) -> None:
    """An outline over the tile a step is about (drawn on top, so it works with <use> too)."""
    _el("rect", parent, class_="tile-mark", x=x + 0.5, y=y + 0.5, width=width - 1, height=height - 1,
        rx=width / 7, fill=MARK, fill_opacity=0.18, stroke=MARK, stroke_width=max(1.5, width / 12))


def tile_svg(code: str, *, width: float = 30, rotated: bool = False, highlight: bool = False) -> str:
    """One tile as a standalone SVG, `width` pixels wide (or tall, when rotated)."""
    height = width * TILE_H / TILE_W
    box = (TILE_H, TILE_W) if rotated else (TILE_W, TILE_H)
    size = (height, width) if rotated else (width, height)
    name = "背面" if code == BACK_CODE else tile_name_zh(code)
    svg = _svg(size[0], size[1], box, class_="tile", role="img", aria_label=f"{code} {name}")
    _el("title", svg, f"{code} {name}")
    svg.append(_oriented(code, rotated))
    if highlight:
        _highlight(svg, 0, 0, box[0], box[1])
    return _text(svg)


# ----------------------------------------------------------------- symbols

def _symbol_id(code: str, rotated: bool) -> str:
    """Ids shared by the sprite and by self-contained drawings."""
    return f"zj-{code}" + ("-r" if rotated else "")


@lru_cache(maxsize=None)
def _symbol(code: str, rotated: bool) -> ET.Element:
    """A <symbol> of one tile; cached, so a page of a hundred steps draws each tile once."""
    box = (TILE_H, TILE_W) if rotated else (TILE_W, TILE_H)
    symbol = _el("symbol", id=_symbol_id(code, rotated), viewBox=f"0 0 {box[0]} {box[1]}")
    symbol.append(_oriented(code, rotated))
    return symbol


ALL_CODES: tuple[str, ...] = tuple(f"{rank}{suit}" for suit in "mps" for rank in range(1, 10))


def tile_sprite_svg() -> str:
    """Every tile, upright and sideways, as symbols in a hidden SVG: include once per HTML page
    and draw with `sprite=True`."""
    return _sprite_text()


@lru_cache(maxsize=1)
def _sprite_text() -> str:
    """The sprite never changes; build it once per process."""
    svg = _svg(0, 0, (0, 0), class_="tile-sprite", aria_hidden="true", focusable="false")
    defs = _el("defs", svg)
    for code in ALL_CODES + (BACK_CODE,):
        for rotated in (False, True):
            defs.append(_symbol(code, rotated))
    return _text(svg)


class _Canvas:
    """Places tiles as <use> of symbols and remembers which symbols a self-contained SVG needs."""

    def __init__(self, svg: ET.Element, *, sprite: bool) -> None:
        self.svg = svg
        self.sprite = sprite
        self.used: dict[str, ET.Element] = {}
        self.marks: list[tuple[float, float, float, float]] = []

    def tile(self, code: str, x: float, y: float, width: float, *, rotated: bool = False,
             highlight: bool = False) -> float:
        """Draw one tile with its top-left corner at (x, y); returns its displayed width."""
        if code != BACK_CODE:
            parse_code(code)
        height = width * TILE_H / TILE_W
        size = (height, width) if rotated else (width, height)
        ident = _symbol_id(code, rotated)
        if not self.sprite:
            self.used.setdefault(ident, _symbol(code, rotated))
        _el("use", self.svg, href=f"#{ident}", x=round(x, 1), y=round(y, 1), width=round(size[0], 1),
            height=round(size[1], 1))
        if highlight:
            self.marks.append((x, y, size[0], size[1]))
        return size[0]

    def finish(self) -> str:
        """Highlights on top, the needed symbols first, then serialise."""
        for x, y, width, height in self.marks:
            _highlight(self.svg, x, y, width, height)
        if self.used:
            defs = ET.Element("defs")
            defs.extend(self.used[key] for key in sorted(self.used))
            self.svg.insert(0, defs)
        return _text(self.svg)


def hand_svg(codes: Sequence[str], *, width: float = 24, gap: float = 2, highlight: Iterable[int] = (),
             rotated: Iterable[int] = (), sprite: bool = False) -> str:
    """Tiles in a row (a hand, a meld, discards); `highlight` and `rotated` are indexes into `codes`."""
    marked, sideways = set(highlight), set(rotated)
    height = width * TILE_H / TILE_W
    total = sum((height if i in sideways else width) + gap for i in range(len(codes))) - gap if codes else 0
    svg = _svg(max(total, 1), height, (max(total, 1), height), class_="hand", role="img",
               aria_label=" ".join(codes))
    canvas = _Canvas(svg, sprite=sprite)
    x = 0.0
    for index, code in enumerate(codes):
        turned = index in sideways
        y = height - width if turned else 0
        x += canvas.tile(code, x, y, width, rotated=turned, highlight=index in marked) + gap
    return canvas.finish()


# ----------------------------------------------------------------- the table after a step

def meld_layout(meld: MeldLike, seat: int, seats: int) -> list[tuple[str, bool]]:
    """(code, sideways) for each tile of a meld as players lay it out: the claimed tile turned
    toward the seat it came from (left, across, right); a concealed kong shows its two outer
    tiles face down."""
    tiles = list(meld.tiles)
    if meld.kind == "concealed":
        return [(BACK_CODE if i in (0, len(tiles) - 1) else code) for i, code in enumerate(tiles)] and [
            (BACK_CODE, False) if i in (0, len(tiles) - 1) else (code, False) for i, code in enumerate(tiles)]
    if meld.from_seat is None:
        return [(code, False) for code in tiles]
    relative = (meld.from_seat - seat) % seats
    turned = 0 if relative == seats - 1 else (len(tiles) - 1 if relative == 1 else 1)
    return [(code, i == turned) for i, code in enumerate(tiles)]


def _event_marks(step: StepLike, seat: int) -> dict[str, int]:
    """Which tile of a seat the step is about: {"discard"|"concealed"|"meld": index}."""
    event = step.event or {}
    if event.get("seat") != seat or "tile" not in event:
        return {}
    view = step.seats[seat]
    tile, kind = event["tile"], event.get("type")
    if kind == "discard" and view.discards:
        return {"discard": len(view.discards) - 1}
    if kind in ("pong", "kong"):
        melds = [i for i, meld in enumerate(view.melds) if tile in meld.tiles]
        return {"meld": melds[-1]} if melds else {}
    if tile in view.concealed:
        return {"concealed": view.concealed.index(tile)}
    return {}


class TableGeometry:
    """Sizes of one seat line: label, hand with melds, discards (smaller), all from `width`."""

    def __init__(self, width: float, discard_slots: int) -> None:
        self.w = width
        self.h = width * TILE_H / TILE_W
        self.dw = round(width * 0.7, 1)
        self.label = width * 2.6
        self.hand = width * 19.5
        self.row = self.h + 6
        self.discard_x = self.label + self.hand
        self.total = self.discard_x + discard_slots * (self.dw + 1) + 2


def _seat_label(svg: ET.Element, geo: TableGeometry, y: float, label: str, flags: Sequence[tuple[str, str]]) -> None:
    """Seat label, then small badges (declared, locked) under it."""
    _el("text", svg, label, x=2, y=y + geo.h * 0.42, font_family=FONT, font_size=round(geo.w * 0.62, 1), fill=INK)
    x = 2.0
    size = geo.w * 0.55
    for text, colour in flags:
        _el("rect", svg, class_="badge", x=x, y=y + geo.h * 0.55, width=size + 2, height=size + 2, rx=2, fill=colour)
        _el("text", svg, text, x=x + 1 + size / 2, y=y + geo.h * 0.55 + size * 0.9, font_family=FONT,
            font_size=round(size * 0.9, 1), fill="#ffffff", text_anchor="middle")
        x += size + 4


def _seat_line(canvas: _Canvas, geo: TableGeometry, step: StepLike, seat: int, y: float) -> None:
    """Concealed tiles, melds, then discards, for one seat."""
    view = step.seats[seat]
    marks = _event_marks(step, seat)
    x = geo.label
    for index, code in enumerate(view.concealed):
        x += canvas.tile(code, x, y, geo.w, highlight=marks.get("concealed") == index) + 1
    for index, meld in enumerate(view.melds):
        x += geo.w * 0.35
        for code, turned in meld_layout(meld, seat, len(step.seats)):
            top = y + (geo.h - geo.w if turned else 0)
            x += canvas.tile(code, x, top, geo.w, rotated=turned, highlight=marks.get("meld") == index) + 1
    top = y + geo.h - geo.dw * TILE_H / TILE_W
    for index, code in enumerate(view.discards):
        dx = geo.discard_x + index * (geo.dw + 1)
        canvas.tile(code, dx, top, geo.dw, highlight=marks.get("discard") == index)


def table_svg(step: StepLike, *, width: float = 20, labels: Sequence[str] | None = None,
              declared_text: str = "听", locked_text: str = "过", discard_slots: int = 20,
              sprite: bool = False) -> str:
    """The four (or three) seats after a step, one line each: label and badges (报听, pass-locked),
    concealed tiles, melds, discards. The acting seat's line is shaded and the tile the step is
    about outlined. `discard_slots` fixes the width so that the steps of one hand line up."""
    seats = len(step.seats)
    slots = max(discard_slots, max((len(view.discards) for view in step.seats), default=0))
    geo = TableGeometry(width, slots)
    height = seats * geo.row
    svg = _svg(round(geo.total, 1), round(height, 1), (round(geo.total, 1), round(height, 1)), class_="table",
               role="img", aria_label=_table_summary(step))
    actor = (step.event or {}).get("seat")
    canvas = _Canvas(svg, sprite=sprite)
    for seat, view in enumerate(step.seats):
        y = seat * geo.row + 3
        if seat == actor:
            _el("rect", svg, class_="active-seat", x=0, y=y - 3, width=geo.total, height=geo.row, fill=ACTIVE)
        flags = [(declared_text, RED)] * view.declared + [(locked_text, "#6b7280")] * view.locked
        _seat_label(svg, geo, y, labels[seat] if labels else str(seat), flags)
        _seat_line(canvas, geo, step, seat, y)
    return canvas.finish()


def _table_summary(step: StepLike) -> str:
    """A text alternative: each seat's concealed tiles and discards."""
    return "; ".join(f"{seat}: {' '.join(view.concealed)} / {' '.join(view.discards)}"
                     for seat, view in enumerate(step.seats))


def discard_slots(steps: Iterable[StepLike]) -> int:
    """The most discards any seat holds at any step: one width for every step of a hand."""
    return max((len(view.discards) for step in steps for view in step.seats), default=0)


__all__ = ["ALL_CODES", "BACK_CODE", "hand_svg", "meld_layout", "parse_code", "table_svg", "tile_name_zh",
           "tile_sprite_svg", "tile_svg", "discard_slots"]
