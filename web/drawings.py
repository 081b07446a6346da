"""Tile and table drawings as template globals, for the HTML pages and the PDF alike.

The drawings themselves are `audit.render`'s pure SVG; this module only picks
the form a page needs: inline with the page's tile sprite, or registered for
the PDF (`web.pdf.images`) and embedded as an <img>.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from flask import Flask
from markupsafe import Markup

from audit.vocabulary import compact, hand_svg, table_picture, table_svg, tile_sprite_svg, tile_svg
from web.i18n import gettext as _
from web.pdf.images import embedded, embedded_all, picture_url, picture_urls

TILE_PX = 20
"""Width of a tile in the step table, in CSS pixels."""
PDF_TILE_PX = 16
"""Width of a tile in the PDF's tables, in CSS pixels: 4.2 mm on paper (issue 23.6: at least 4 mm)."""


LABEL_ROOM = 76.0
"""Drawing units a seat's label may take (render.LABEL_W less a margin), at its 16-unit font."""


def _width(text: str) -> float:
    """The drawn width of `text` at the label's font: a CJK character is a full em, others about half."""
    return sum(16.0 if ord(ch) > 0x2E80 else 9.0 for ch in text)


def seat_label_text(seat: int, name: str, dealer: bool, dealer_mark: str | None = None) -> str:
    """One seat's label in a drawing: its number, its player (shortened with … to fit the label's
    room, the full name is beside the drawing) and the dealer's mark: `0 阿明 庄` (`dealer_mark`,
    the page's `D` when not given)."""
    mark = f" {dealer_mark if dealer_mark is not None else _('D')}" if dealer else ""
    short = name
    while short and _width(f"{seat} {short}{mark}") > LABEL_ROOM:
        short = short[:-1]
    if short != name:
        short = short[:-1] + "…" if len(short) > 1 else "…"
    return f"{seat} {short}{mark}" if short else f"{seat}{mark}"


def seat_labels(count: int, dealer: Any, seats: Sequence[Any] = (), dealer_mark: str | None = None) -> list[str]:
    """Short seat labels for the drawings: the number, the player's name (the record's `seats`, as
    dicts with `name`, or the store's player rows) and the dealer's mark."""
    names = [str(s.get("name") or "") if isinstance(s, dict) else "" for s in seats]
    return [seat_label_text(seat, names[seat] if seat < len(names) else "", seat == dealer, dealer_mark)
            for seat in range(count)]


def tile(code: str, width: float = 16, highlight: bool = False) -> Markup:
    """One tile, standalone (fine for a few; many go through `hand` or `table`)."""
    return Markup(tile_svg(code, width=width, highlight=highlight))


def hand(codes: Sequence[str], width: float = 16, sprite: bool = True, embed: bool = False) -> Markup:
    """A row of tiles: with `sprite` for a page that has `tile_sprite()`, `embed` for a PDF."""
    if embed:
        return embedded(hand_svg(list(codes), width=width), "hand-image")
    return Markup(hand_svg(list(codes), width=width, sprite=sprite))


def tile_sprite() -> Markup:
    """The hidden sheet of every tile, once per HTML page."""
    return Markup(tile_sprite_svg())


def step_tables(steps: Sequence[Any], dealer: Any, slots: int, dealer_mark: str, width: float = TILE_PX,
                seats: Sequence[Any] = ()) -> list[Markup]:
    """The table after each step of a page, for a page with the tile sprite, in one call (issue 35.2: the page is drawn before its
    templates run, and enters this module a fixed number of times, whatever the hand's length);
    `dealer_mark` the language's `D`."""
    labels = seat_labels(len(steps[0].seats), dealer, seats, dealer_mark) if steps else []  # one table, one seat count
    return [Markup(table_svg(step, width=width, labels=labels, discard_slots=slots, sprite=True))
            for step in steps]


def step_picture(step: Any, dealer: Any, slots: int, width: float = PDF_TILE_PX, seats: Sequence[Any] = ()) -> Markup:
    """The table after a step for the PDF: the same places and tile drawings as `step_tables`,
    as one <img> of an SVG that places every piece (tile, seat label) by <image>. The PDF's
    image cache (`web.pdf.forms`) draws each distinct piece once and places it by reference."""
    labels = seat_labels(len(step.seats), dealer, seats)
    picture = table_picture(step, width=width, labels=labels, discard_slots=slots)
    return Markup('<img class="table-image" alt="{}" src="{}">').format(picture.label, picture_url(picture))


def step_pictures(steps: Sequence[Any], dealer: Any, slots: int, dealer_mark: str, width: float = PDF_TILE_PX,
                  seats: Sequence[Any] = ()) -> list[Markup]:
    """`step_picture` for every step of a PDF in one call (issue 35.2: the report is drawn
    before its templates run, and a PDF enters this module a fixed number of times, whatever
    the hand's length); `dealer_mark` the language's `D`."""
    labels = seat_labels(len(steps[0].seats), dealer, seats, dealer_mark) if steps else []  # one table, one seat count
    pictures = [table_picture(step, width=width, labels=labels, discard_slots=slots) for step in steps]
    return [Markup('<img class="table-image" alt="{}" src="{}">').format(picture.label, url)
            for picture, url in zip(pictures, picture_urls(pictures))]


def embedded_hands(hands: Sequence[Sequence[str]], width: float = PDF_TILE_PX) -> list[Markup]:
    """Rows of tiles for a PDF (`hand(codes, width, embed=True)` each), in one call."""
    return embedded_all([hand_svg(list(codes), width=width) for codes in hands], "hand-image")


def compact_tiles(codes: Iterable[str]) -> list[tuple[str, str]]:
    """Tile notation groups: [("m", "123"), ("p", "55")]."""
    return compact(codes)


def init_app(app: Flask) -> None:
    """Make the drawings template globals."""
    app.jinja_env.globals.update(tile=tile, hand=hand, tile_sprite=tile_sprite,
                                 step_picture=step_picture, compact_tiles=compact_tiles,
                                 pdf_tile_px=PDF_TILE_PX)
