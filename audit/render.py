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

import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from audit import tiles
from audit.kinds import EventType, MeldKind
from audit.tiles import NUMERALS_ZH, SUIT_NAMES_ZH, Suit
from audit.views import MeldView, SeatView, StepView

SVG_NS = "http://www.w3.org/2000/svg"
TILE_W, TILE_H = 30, 40
"""The tile's own drawing box; callers choose the displayed width."""
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
WON = "#b8860b"
"""The 胡 badge of a seat that won."""
WON_GAP = 14
"""Tile units between a winner's hand and melds and the tile it won on, which is drawn apart."""
"""Background of the seat that acts in a step."""
BACK_CODE = "back"
"""Pseudo code of a face-down tile (the outer tiles of a concealed kong)."""


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

def _characters(g: ET.Element, rank: int) -> None:
    """万: the numeral in ink over a red 万."""
    group = _el("g", g, class_="glyph glyph-m", font_family=FONT, font_size=13, text_anchor="middle")
    _el("text", group, NUMERALS_ZH[rank - 1], x=15, y=18, fill=INK, font_weight="bold")
    _el("text", group, SUIT_NAMES_ZH[Suit.M], x=15, y=34, fill=RED)


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
    rank, suit = tiles.split(code)
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


@lru_cache(maxsize=512)
def tile_svg(code: str, *, width: float = 30, rotated: bool = False, highlight: bool = False) -> str:
    """One tile as a standalone SVG, `width` pixels wide (or tall, when rotated); cached."""
    height = width * TILE_H / TILE_W
    box = (TILE_H, TILE_W) if rotated else (TILE_W, TILE_H)
    size = (height, width) if rotated else (width, height)
    name = "背面" if code == BACK_CODE else tiles.zh_name(code)
    svg = _svg(size[0], size[1], box, class_="tile", role="img", aria_label=f"{code} {name}")
    _el("title", svg, f"{code} {name}")
    svg.append(_oriented(code, rotated))
    if highlight:
        _highlight(svg, 0, 0, box[0], box[1])
    return _text(svg)


# ----------------------------------------------------------------- symbols and placement

def _symbol_id(code: str, rotated: bool) -> str:
    """Ids shared by the page sprite and by self-contained drawings."""
    return f"zj-{code}" + ("-r" if rotated else "")


@lru_cache(maxsize=None)
def _symbol(code: str, rotated: bool) -> ET.Element:
    """One tile as a <g id> in tile units, placed later by <use x y>; cached, so each tile is
    drawn once per process. A plain group rather than <symbol>: <use> then needs no size."""
    group = _oriented(code, rotated)
    group.set("id", _symbol_id(code, rotated))
    return group


@lru_cache(maxsize=1)
def tile_sprite_svg() -> str:
    """Every tile, upright and sideways, in a hidden SVG: include it once in an HTML page and
    draw with `sprite=True` (browsers resolve <use> across the page; WeasyPrint does not)."""
    svg = _svg(0, 0, (0, 0), class_="tile-sprite", aria_hidden="true", focusable="false")
    defs = _el("defs", svg)
    for code in tiles.CODES + (BACK_CODE,):
        for rotated in (False, True):
            defs.append(_symbol(code, rotated))
    return _text(svg)


PITCH = TILE_W + 1
"""Tile units from one tile to the next in a row."""
CHILDREN = "@@children@@"
"""Placeholder for children that ElementTree already serialised (and escaped)."""


def _wrap(element: ET.Element, children: Iterable[str]) -> str:
    """Serialise `element` around children serialised before: a hand of a hundred steps places
    ten thousand tiles, and re-serialising each one would cost more than all the rest."""
    element.text = CHILDREN
    return _text(element).replace(CHILDREN, "".join(children), 1)


@lru_cache(maxsize=8192)
def _use(code: str, rotated: bool, x: float, y: float) -> str:
    """One placed tile, serialised (and its code checked) once per position."""
    if code != BACK_CODE:
        tiles.parse(code)
    return _text(_el("use", href=f"#{_symbol_id(code, rotated)}", x=x, y=y))


@lru_cache(maxsize=1024)
def _mark(x: float, y: float, width: float, height: float) -> str:
    """One highlight outline, serialised once per position."""
    holder = ET.Element("g")
    _highlight(holder, x, y, width, height)
    return _text(holder[0])


class _Canvas:
    """Places tiles (in tile units) as <use> of the tile groups, collecting serialised pieces,
    and remembers which groups a self-contained drawing must carry in its <defs>."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.used: set[tuple[str, bool]] = set()
        self.marks: list[str] = []
        self.placed: list[tuple[str, bool, float, float]] = []

    def tile(self, code: str, x: float, y: float, *, rotated: bool = False, highlight: bool = False) -> float:
        """One tile with its top-left corner at (x, y); returns the width it takes."""
        self.used.add((code, rotated))
        x, y = round(x, 1), round(y, 1)
        self.parts.append(_use(code, rotated, x, y))
        self.placed.append((code, rotated, x, y))
        width, height = (TILE_H, TILE_W) if rotated else (TILE_W, TILE_H)
        if highlight:
            self.marks.append(_mark(x, y, width, height))
        return width

    def row(self, codes: Sequence[str], x: float, y: float, *, highlight: Iterable[int] = (),
            rotated: Iterable[int] = ()) -> float:
        """Tiles side by side, sideways ones resting on the same base line; returns the end x."""
        marked, sideways = set(highlight), set(rotated)
        for index, code in enumerate(codes):
            turned = index in sideways
            x += self.tile(code, x, y + (TILE_H - TILE_W if turned else 0), rotated=turned,
                           highlight=index in marked) + 1
        return x

    def pieces(self) -> list[str]:
        """Tiles, then the outlines on top of them."""
        return self.parts + self.marks


def _defs(used: Iterable[tuple[str, bool]]) -> ET.Element:
    """The tile groups a self-contained drawing refers to."""
    defs = ET.Element("defs")
    defs.extend(_symbol(code, rotated) for code, rotated in sorted(used))
    return defs


def hand_svg(codes: Sequence[str], *, width: float = 24, highlight: Iterable[int] = (),
             rotated: Iterable[int] = (), sprite: bool = False) -> str:
    """Tiles in a row (a hand, a meld, chickens), each `width` pixels wide; `highlight` and
    `rotated` are indexes into `codes`. Self-contained unless `sprite`."""
    return _hand(tuple(codes), width, frozenset(highlight), frozenset(rotated), sprite)


@lru_cache(maxsize=2048)
def _hand(codes: tuple[str, ...], width: float, highlight: frozenset[int], sideways: frozenset[int],
          sprite: bool) -> str:
    """hand_svg, cached: a report draws the same few tiles beside every event."""
    units = sum(TILE_H if i in sideways else TILE_W for i in range(len(codes))) + max(len(codes) - 1, 0)
    units = max(units, 1)
    scale = width / TILE_W
    svg = _svg(round(units * scale, 1), round(TILE_H * scale, 1), (units, TILE_H), class_="hand", role="img",
               aria_label=" ".join(codes) or "-")
    canvas = _Canvas()
    canvas.row(codes, 0, 0, highlight=highlight, rotated=sideways)
    defs = [] if sprite or not canvas.used else [_text(_defs(canvas.used))]
    return _wrap(svg, defs + canvas.pieces())


# ----------------------------------------------------------------- the table after a step

LABEL_W = 80
"""Tile units for the seat label and badges."""
HAND_W = 19 * PITCH
"""Tile units for concealed tiles plus melds (14 tiles, and up to four melds with kongs)."""
DISCARD_SCALE = 0.7
ROW_H = TILE_H + 6


def meld_layout(meld: MeldView, seat: int, seats: int) -> list[tuple[str, bool]]:
    """(code, sideways) for each tile of a meld as players lay it out: the claimed tile turned
    toward the seat it came from (left, across, right); a concealed kong shows its two outer
    tiles face down."""
    tiles = list(meld.tiles)
    if meld.kind == MeldKind.CONCEALED:
        return [((BACK_CODE if i in (0, len(tiles) - 1) else code), False) for i, code in enumerate(tiles)]
    if meld.from_seat is None:
        return [(code, False) for code in tiles]
    relative = (meld.from_seat - seat) % seats
    turned = 0 if relative == seats - 1 else (len(tiles) - 1 if relative == 1 else 1)
    return [(code, i == turned) for i, code in enumerate(tiles)]


def _event_marks(step: StepView, seat: int) -> tuple[str, int] | None:
    """Which tile of a seat the step is about: ("discard" | "hand" | "meld", index)."""
    event = step.event or {}
    if event.get("seat") != seat or "tile" not in event:
        return None
    view = step.seats[seat]
    tile, kind = event["tile"], event.get("type")
    if kind == EventType.DISCARD and view.discards:
        return ("discard", len(view.discards) - 1)
    if kind in (EventType.PONG, EventType.KONG):
        melds = [i for i, meld in enumerate(view.melds) if tile in meld.tiles]
        return ("meld", melds[-1]) if melds else None
    if tile in view.concealed:
        return ("hand", view.concealed.index(tile))
    return None


@lru_cache(maxsize=256)
def _badges(label: str, flags: tuple[tuple[str, str], ...]) -> str:
    """Seat label, then small badges (declared, pass-locked) under it; serialised once."""
    line = ET.Element("g")
    _el("text", line, label, x=3, y=17, font_family=FONT, font_size=16, fill=INK)
    for index, (text, colour) in enumerate(flags):
        x = 3 + index * 22
        _el("rect", line, class_="badge", x=x, y=22, width=19, height=17, rx=3, fill=colour)
        _el("text", line, text, x=x + 9.5, y=35.5, font_family=FONT, font_size=13, fill="#ffffff",
            text_anchor="middle")
    return "".join(_text(child) for child in line)


@lru_cache(maxsize=256)
def _frame(**attrs: Any) -> tuple[str, str]:
    """The open and close tags of a group, serialised once (they repeat on every line)."""
    head, tail = _text(_el("g", None, CHILDREN, **attrs)).split(CHILDREN)
    return head, tail


def _framed(pieces: list[str], **attrs: Any) -> str:
    """Serialised pieces inside a group."""
    head, tail = _frame(**attrs)
    return head + "".join(pieces) + tail


DISCARD_TOP = round(3 + TILE_H * (1 - DISCARD_SCALE), 1)
"""Discards sit on the line's base line."""


def _self_drawn(view: SeatView) -> bool:
    """A winner whose concealed tiles already hold the tile it won on (self-draw): a 胡 on
    another's discard or a robbed kong has it drawn apart, after its hand."""
    return (len(view.concealed) + 3 * len(view.melds)) % 3 == 2


def flags_of(view: SeatView, declared_text: str = "听", locked_text: str = "过", won_text: str = "胡"
             ) -> tuple[tuple[str, str], ...]:
    """A seat's badges under its label: 胡 for a winner, 听 declared ready, 过 pass-locked."""
    return (((won_text, WON),) if view.won is not None else ()) + ((declared_text, RED),) * view.declared + \
        ((locked_text, "#6b7280"),) * view.locked


def _seat_canvases(view: SeatView, seat: int, seats: int) -> tuple[_Canvas, _Canvas, tuple[tuple[float, float], ...]]:
    """One seat's tiles placed: concealed and melds in the line's units, discards in their own
    (scaled) units; where each meld starts and ends. Shared by the <use> line and the pieces."""
    canvas = _Canvas()
    x = canvas.row(view.concealed, LABEL_W, 3)
    spans = []
    for meld in view.melds:
        layout = meld_layout(meld, seat, seats)
        start = x + 10
        x = canvas.row([code for code, _ in layout], start, 3, rotated=[i for i, (_, t) in enumerate(layout) if t])
        spans.append((start, x - 1))
    if view.won is not None and not _self_drawn(view):
        canvas.row([view.won], x + WON_GAP, 3)
    small = _Canvas()
    small.row(view.discards, 0, 0)
    return canvas, small, tuple(spans)


@lru_cache(maxsize=4096)
def _seat_line(view: SeatView, seat: int, seats: int, label: str, flags: tuple[tuple[str, str], ...]
               ) -> tuple[str, frozenset[tuple[str, bool]], tuple[tuple[float, float], ...]]:
    """One seat's line, serialised; the tile groups it uses; where each meld starts and ends.
    Cached, and the highlight drawn apart: from one step to the next only the acting seat's
    line changes, so a hand of a hundred steps draws about a hundred lines, not four hundred."""
    canvas, small, spans = _seat_canvases(view, seat, seats)
    discards = _framed(small.pieces(), transform=f"translate({LABEL_W + HAND_W} {DISCARD_TOP}) scale({DISCARD_SCALE})")
    pieces = [_badges(label, flags)] + canvas.pieces() + [discards]
    text = _framed(pieces, class_="seat", transform=f"translate(0 {seat * ROW_H})")
    return text, frozenset(canvas.used | small.used), spans


def _mark_box(view: SeatView, mark: tuple[str, int], spans: Sequence[tuple[float, float]]
              ) -> tuple[float, float, float, float] | None:
    """Where the tile (or meld) a step is about lies within its seat's line."""
    where, index = mark
    if where == "hand":
        return (LABEL_W + index * PITCH, 3, TILE_W, TILE_H)
    if where == "discard":
        return (round(LABEL_W + HAND_W + index * PITCH * DISCARD_SCALE, 1), DISCARD_TOP,
                round(TILE_W * DISCARD_SCALE, 1), round(TILE_H * DISCARD_SCALE, 1))
    if where == "meld" and index < len(spans):
        return (spans[index][0], 3, spans[index][1] - spans[index][0], TILE_H)
    return None


def table_svg(step: StepView, *, width: float = 20, labels: Sequence[str] | None = None,
              declared_text: str = "听", locked_text: str = "过", discard_slots: int = 20,
              sprite: bool = False) -> str:
    """The seats after a step, one line each: label and badges (报听, pass-locked), concealed
    tiles, melds, discards; the acting seat shaded and the tile the step is about outlined.
    `width` is one tile's width in pixels; `discard_slots` fixes the drawing's width so that
    every step of a hand lines up."""
    seats = len(step.seats)
    units = _table_units(step, discard_slots)
    scale = width / TILE_W
    svg = _svg(round(units[0] * scale, 1), round(units[1] * scale, 1), units, class_="table", role="img",
               aria_label=_table_summary(step))
    actor = (step.event or {}).get("seat")
    parts: list[str] = []
    used: set[tuple[str, bool]] = set()
    if actor is not None:
        parts.append(_active(actor, units[0]))
    marks: list[str] = []
    for seat, view in enumerate(step.seats):
        flags = flags_of(view, declared_text, locked_text)
        text, needs, spans = _seat_line(view, seat, seats, labels[seat] if labels else str(seat), flags)
        parts.append(text)
        used |= needs
        mark = _event_marks(step, seat)
        box = _mark_box(view, mark, spans) if mark else None
        if box is not None:
            marks.append(_mark(box[0], box[1] + seat * ROW_H, box[2], box[3]))
    if not sprite:
        parts.insert(0, _text(_defs(used)))
    return _wrap(svg, parts + marks)


@lru_cache(maxsize=64)
def _active(seat: int, width: float) -> str:
    """The shading behind the acting seat's line."""
    return _text(_el("rect", class_="active-seat", x=0, y=seat * ROW_H, width=width, height=ROW_H, fill=ACTIVE))


def _table_units(step: StepView, discard_slots: int) -> tuple[float, float]:
    """The table's view box: the same width for every step of a hand (see discard_slots)."""
    slots = max(discard_slots, max((len(view.discards) for view in step.seats), default=0))
    return (round(LABEL_W + HAND_W + slots * PITCH * DISCARD_SCALE + 2, 1), len(step.seats) * ROW_H)


def _table_summary(step: StepView) -> str:
    """A text alternative: each seat's concealed tiles and discards."""
    return "; ".join(f"{seat}: {' '.join(view.concealed)}{f' 胡 {view.won}' if view.won else ''} / "
                     f"{' '.join(view.discards)}" for seat, view in enumerate(step.seats))


def discard_slots(steps: Iterable[StepView]) -> int:
    """The most discards any seat holds at any step: one width for every step of a hand."""
    return max((len(view.discards) for step in steps for view in step.seats), default=0)


# ----------------------------------------------------------------- the table as placed pieces

@dataclass(frozen=True)
class Piece:
    """A standalone SVG (a tile, a seat's label and badges, the acting seat's shading) and the
    box it fills in a larger drawing, in that drawing's units."""

    svg: str
    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Picture:
    """A drawing made only of placed pieces: what table_svg draws, for a renderer that draws
    each distinct piece once and places it by reference (the PDF: WeasyPrint redraws an SVG at
    every placement, but a PDF form drawn once can be placed any number of times)."""

    width: float
    height: float
    units: tuple[float, float]
    pieces: tuple[Piece, ...]
    label: str

    def svg(self, href: Callable[[str], str]) -> str:
        """The picture as one SVG of <image> elements, `href(piece.svg)` naming each piece."""
        svg = _svg(self.width, self.height, self.units, class_="table", role="img", aria_label=self.label)
        return _wrap(svg, [_image(href(piece.svg), piece.x, piece.y, piece.width, piece.height)
                           for piece in self.pieces])


@lru_cache(maxsize=8192)
def _image(href: str, x: float, y: float, width: float, height: float) -> str:
    """One placed piece, serialised once per position (like _use)."""
    return _text(_el("image", href=href, x=x, y=y, width=width, height=height))


@lru_cache(maxsize=64)
def _piece_svg(units: tuple[float, float], inner: str) -> str:
    """A piece that is not a tile (label and badges, shading) as a standalone SVG."""
    svg = _svg(units[0], units[1], units)
    return _wrap(svg, [inner])


@lru_cache(maxsize=4096)
def _seat_pieces(view: SeatView, seat: int, seats: int, label: str, flags: tuple[tuple[str, str], ...],
                 mark: tuple[str, int] | None) -> tuple[Piece, ...]:
    """One seat's line as pieces: its label and badges, each tile (the event's tile, or every
    tile of the event's meld, outlined by tile_svg's highlight), each discard; cached like
    _seat_line."""
    canvas, small, _ = _seat_canvases(view, seat, seats)
    top = seat * ROW_H
    where, index = mark if mark is not None else ("", -1)
    bounds = [len(view.concealed)]
    for meld in view.melds:
        bounds.append(bounds[-1] + len(meld.tiles))
    pieces = [Piece(_piece_svg((LABEL_W, ROW_H), _badges(label, flags)), 0, top, LABEL_W, ROW_H)]
    for i, (code, rotated, x, y) in enumerate(canvas.placed):
        marked = (where == "hand" and i == index) or (
            where == "meld" and 0 <= index < len(view.melds) and bounds[index] <= i < bounds[index + 1])
        size = (TILE_H, TILE_W) if rotated else (TILE_W, TILE_H)
        pieces.append(Piece(tile_svg(code, rotated=rotated), x, round(top + y, 1), *size))
        if marked:
            pieces.append(Piece(_outline_svg(rotated), x, round(top + y, 1), *size))
    left, scale = LABEL_W + HAND_W, DISCARD_SCALE
    for i, (code, _, x, y) in enumerate(small.placed):
        box = (round(left + x * scale, 1), round(top + DISCARD_TOP + y * scale, 1), round(TILE_W * scale, 1),
               round(TILE_H * scale, 1))
        pieces.append(Piece(tile_svg(code), *box))
        if where == "discard" and i == index:
            pieces.append(Piece(_outline_svg(False), *box))
    return tuple(pieces)


@lru_cache(maxsize=2)
def _outline_svg(rotated: bool) -> str:
    """The outline over the tile a step is about, as a piece of its own placed over the tile:
    a PDF then draws one outline and each tile once, not each outlined tile again."""
    box = (TILE_H, TILE_W) if rotated else (TILE_W, TILE_H)
    svg = _svg(box[0], box[1], box)
    _highlight(svg, 0, 0, box[0], box[1])
    return _text(svg)


def table_picture(step: StepView, *, width: float = 20, labels: Sequence[str] | None = None,
                  declared_text: str = "听", locked_text: str = "过", discard_slots: int = 20) -> Picture:
    """The table after a step as table_svg draws it (same places, same tile drawings), made of
    pieces: the acting seat's shading, then per seat its label and badges and each tile."""
    units = _table_units(step, discard_slots)
    scale = width / TILE_W
    actor = (step.event or {}).get("seat")
    pieces: list[Piece] = []
    if actor is not None:
        pieces.append(Piece(_piece_svg((units[0], ROW_H), _active(0, units[0])), 0, actor * ROW_H, units[0], ROW_H))
    for seat, view in enumerate(step.seats):
        flags = flags_of(view, declared_text, locked_text)
        pieces.extend(_seat_pieces(view, seat, len(step.seats), labels[seat] if labels else str(seat), flags,
                                   _event_marks(step, seat)))
    return Picture(round(units[0] * scale, 1), round(units[1] * scale, 1), units, tuple(pieces),
                   _table_summary(step))


def seat_picture(step: StepView, seat: int, *, width: float = 20, label: str | None = None,
                 declared_text: str = "听", locked_text: str = "过") -> Picture:
    """One seat's line after a step, for a compact list of events: its label and badges,
    concealed tiles and melds as `table_picture` places them, and, for a discard, the discarded
    tile (and its outline) where the discards would start, so that the discards of a hand line up in a
    column. The other seats and the older discards are left out."""
    view = step.seats[seat]
    flags = flags_of(view, declared_text, locked_text)
    mark = _event_marks(step, seat)
    top, edge = seat * ROW_H, LABEL_W + HAND_W
    pieces: list[Piece] = []
    for piece in _seat_pieces(view, seat, len(step.seats), label if label is not None else str(seat), flags, mark):
        if piece.x < edge:
            pieces.append(Piece(piece.svg, piece.x, round(piece.y - top, 1), piece.width, piece.height))
    if mark is not None and mark[0] == "discard":
        pieces.append(Piece(tile_svg(view.discards[mark[1]]), edge, 3, TILE_W, TILE_H))
        pieces.append(Piece(_outline_svg(False), edge, 3, TILE_W, TILE_H))
    units = (float(edge + TILE_W + 2), float(ROW_H))
    scale = width / TILE_W
    return Picture(round(units[0] * scale, 1), round(units[1] * scale, 1), units, tuple(pieces),
                   f"{seat}: {' '.join(view.concealed)}")


# ----------------------------------------------------------------- text notation

def compact(codes: Iterable[str]) -> list[tuple[str, str]]:
    """Tiles in the usual short notation, one (suit, ranks) group per run of a suit, in the
    given order: ["1m","2m","3m","5p","5p"] -> [("m", "123"), ("p", "55")]. Used as text
    beside drawings."""
    groups: list[tuple[str, str]] = []
    for code in codes:
        if code == BACK_CODE:
            rank, suit = "?", "x"
        else:
            number, suit = tiles.split(code)
            rank = str(number)
        if groups and groups[-1][0] == suit:
            groups[-1] = (suit, groups[-1][1] + rank)
        else:
            groups.append((suit, rank))
    return groups


__all__ = ["BACK_CODE", "Piece", "Picture", "compact", "discard_slots", "hand_svg", "meld_layout",
           "table_picture", "table_svg", "tile_sprite_svg", "tile_svg"]
