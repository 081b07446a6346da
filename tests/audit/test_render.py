"""audit/render.py: tiles, hands and step tables as SVG (valid XML, the right glyphs, usable
inline in a page with the sprite and standalone in WeasyPrint)."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from audit import render, tiles
from audit.api import trace_record
from audit.views import Marker, MarkerKind, MeldView, SeatView, StepView
from tests.conftest import ROOT

NS = {"svg": render.SVG_NS}
CODES = [f"{rank}{suit}" for suit in "mps" for rank in range(1, 10)]


def parse(svg: str) -> ET.Element:
    """The SVG as a tree; fails the test when it is not well-formed XML."""
    return ET.fromstring(svg)


def find_all(root: ET.Element, tag: str) -> list[ET.Element]:
    """Descendants with this SVG tag."""
    return root.findall(f".//svg:{tag}", NS)


def ids(root: ET.Element) -> set[str]:
    """Every id defined in a drawing."""
    return {element.get("id", "") for element in root.iter() if element.get("id")}


def hrefs(root: ET.Element) -> set[str]:
    """Every id a <use> points at."""
    return {use.get("href", "").lstrip("#") for use in find_all(root, "use")}


def sample_trace(name: str = "missettled-burn-not-applied") -> Any:
    """The trace of a sample record (the real engine)."""
    return trace_record(json.loads((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("code", CODES)
def test_every_tile_is_valid_svg_with_a_title(code: str) -> None:
    root = parse(render.tile_svg(code, width=30))
    assert root.tag == f"{{{render.SVG_NS}}}svg"
    assert root.get("width") == "30" and root.get("height") == "40" and root.get("viewBox") == "0 0 30 40"
    title = root.find("svg:title", NS)
    assert title is not None and title.text == f"{code} {tiles.zh_name(code)}"
    assert root.get("role") == "img" and code in root.get("aria-label", "")


@pytest.mark.parametrize("rank", range(1, 10))
def test_characters_show_the_numeral_over_a_red_wan(rank: int) -> None:
    texts = find_all(parse(render.tile_svg(f"{rank}m")), "text")
    assert [text.text for text in texts] == [tiles.NUMERALS_ZH[rank - 1], "万"]
    assert texts[1].get("fill") == render.RED and texts[0].get("fill") != render.RED


@pytest.mark.parametrize("rank", range(1, 10))
def test_dots_draw_one_ring_per_rank(rank: int) -> None:
    root = parse(render.tile_svg(f"{rank}p"))
    assert len([c for c in find_all(root, "circle") if c.get("class") == "dot"]) == rank
    assert not find_all(root, "text")


@pytest.mark.parametrize("rank", range(2, 10))
def test_bamboo_draws_one_stick_per_rank(rank: int) -> None:
    root = parse(render.tile_svg(f"{rank}s"))
    sticks = [rect for rect in find_all(root, "rect") if rect.get("class") == "stick"]
    assert len(sticks) == rank
    assert {stick.get("fill") for stick in sticks} <= {render.GREEN, render.RED}


def test_one_bamboo_is_the_bird() -> None:
    root = parse(render.tile_svg("1s"))
    parts = {element.get("class") for element in root.iter()}
    assert {"glyph glyph-bird", "body", "head", "beak", "tail", "wing", "eye"} <= parts
    assert not [rect for rect in find_all(root, "rect") if rect.get("class") == "stick"]
    assert tiles.zh_name("1s") == "幺鸡"


def test_only_characters_are_red_glyphs_apart_from_accents() -> None:
    """万 carries red text; dots and bamboo use red only for their accent rings and sticks."""
    for code in CODES:
        texts = find_all(parse(render.tile_svg(code)), "text")
        assert bool(texts) == code.endswith("m")


@pytest.mark.parametrize("bad", ["0m", "10p", "5z", "", "m5", "1S"])
def test_bad_codes_are_refused_naming_the_input(bad: str) -> None:
    with pytest.raises(ValueError) as excinfo:
        render.tile_svg(bad)
    assert str(excinfo.value) == f"not a tile: {bad!r}"
    with pytest.raises(ValueError):
        render.hand_svg(["1m", bad])


def test_rotated_and_highlighted_tile() -> None:
    root = parse(render.tile_svg("5m", width=30, rotated=True, highlight=True))
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("40", "30", "0 0 40 30")
    group = root.find("svg:g", NS)
    assert group is not None and "rotate(90)" in group.get("transform", "")
    assert [rect for rect in find_all(root, "rect") if rect.get("class") == "tile-mark"]


def test_markup_has_no_style_attributes_or_scripts() -> None:
    """The page's CSP forbids inline styles and scripts; presentation attributes are fine."""
    markup = render.tile_sprite_svg() + "".join(render.tile_svg(code) for code in CODES)
    assert " style=" not in markup and "<script" not in markup and "<style" not in markup


def test_hand_is_self_contained_unless_it_uses_the_sprite() -> None:
    codes = ["1m", "1m", "5p", "1s", "9s"]
    own = parse(render.hand_svg(codes, width=20, highlight=[2], rotated=[4]))
    assert len(find_all(own, "use")) == 5 and hrefs(own) <= ids(own)
    assert hrefs(own) == {"zj-1m", "zj-5p", "zj-1s", "zj-9s-r"}
    assert len([r for r in find_all(own, "rect") if r.get("class") == "tile-mark"]) == 1
    sprite = parse(render.tile_sprite_svg())
    shared = parse(render.hand_svg(codes, width=20, sprite=True))
    assert not find_all(shared, "defs") and hrefs(shared) <= ids(sprite)
    assert {f"zj-{code}" for code in CODES} | {f"zj-{code}-r" for code in CODES} <= ids(sprite)


def test_empty_hand_is_still_an_svg() -> None:
    root = parse(render.hand_svg([]))
    assert not find_all(root, "use")


def test_table_after_a_discard_marks_the_actor_and_the_tile() -> None:
    trace = sample_trace()
    step = next(s for s in trace.steps if s.event and s.event["type"] == "discard")
    root = parse(render.table_svg(step, width=20, labels=["0 庄", "1", "2", "3"]))
    assert len([g for g in find_all(root, "g") if g.get("class") == "seat"]) == 4
    active = [r for r in find_all(root, "rect") if r.get("class") == "active-seat"]
    assert len(active) == 1 and active[0].get("y") == str(step.event["seat"] * render.ROW_H)
    assert len([r for r in find_all(root, "rect") if r.get("class") == "tile-mark"]) == 1
    assert hrefs(root) <= ids(root)
    tiles = sum(len(v.concealed) + len(v.discards) + sum(len(m.tiles) for m in v.melds) for v in step.seats)
    assert len(find_all(root, "use")) == tiles
    assert "0 庄" in [text.text for text in find_all(root, "text")]


def test_table_with_the_sprite_refers_only_to_sprite_ids() -> None:
    trace = sample_trace("clean-weile-rob-double")
    sprite = ids(parse(render.tile_sprite_svg()))
    slots = render.discard_slots(trace.steps)
    widths = set()
    for step in trace.steps:
        root = parse(render.table_svg(step, sprite=True, discard_slots=slots))
        assert not find_all(root, "defs") and hrefs(root) <= sprite
        widths.add(root.get("width"))
    assert len(widths) == 1, "every step of a hand has the same width, so the rows line up"


def _seat(concealed: tuple[str, ...] = (), melds: tuple[MeldView, ...] = (), declared: bool = False,
          locked: bool = False) -> SeatView:
    return SeatView(concealed, melds, (), declared, locked)


def test_badges_for_declared_and_locked_seats_and_escaped_labels() -> None:
    seats = (_seat(("1m",), declared=True), _seat(("2m",), locked=True), _seat(("3m",)), _seat(("4m",)))
    step = StepView(0, {"type": "declare", "seat": 0}, seats, 50, (Marker.of(MarkerKind.DECLARE),), ())
    svg = render.table_svg(step, labels=["<a&b>", "1", "2", "3"], declared_text="听", locked_text="过")
    root = parse(svg)
    assert "&lt;a&amp;b&gt;" in svg
    texts = [text.text for text in find_all(root, "text")]
    assert "听" in texts and "过" in texts and "<a&b>" in texts


@pytest.mark.parametrize("from_seat, turned", [(3, 0), (2, 1), (1, 2)])
def test_a_claimed_tile_turns_toward_the_seat_it_came_from(from_seat: int, turned: int) -> None:
    layout = render.meld_layout(MeldView("pong", ("5p",) * 3, from_seat), 0, 4)
    assert [sideways for _, sideways in layout] == [i == turned for i in range(3)]


def test_a_concealed_kong_shows_its_outer_tiles_face_down() -> None:
    layout = render.meld_layout(MeldView("concealed", ("8s",) * 4, None), 2, 4)
    assert layout == [(render.BACK_CODE, False), ("8s", False), ("8s", False), (render.BACK_CODE, False)]


def test_compact_notation_groups_runs_of_a_suit() -> None:
    assert render.compact(["1m", "2m", "3m", "5p", "5p", "1s", "9m"]) == [
        ("m", "123"), ("p", "55"), ("s", "1"), ("m", "9")]
    assert render.compact([]) == []


def test_drawings_are_cached_and_identical() -> None:
    trace = sample_trace()
    first = [render.table_svg(step) for step in trace.steps]
    assert [render.table_svg(step) for step in trace.steps] == first
    assert re.search(r'<use href="#zj-\dm" x="[\d.]+" y="[\d.]+"', first[0])


def _placed_uses(svg: str) -> list[tuple[str, bool, float, float]]:
    """(code, sideways, x, y) of every <use>d tile of a table, in the table's units (the seat
    lines are translated, the discards translated and scaled)."""
    placed = []

    def walk(element: ET.Element, dx: float, dy: float, scale: float) -> None:
        match = re.match(r"translate\(([\d.]+) ([\d.]+)\)(?: scale\(([\d.]+)\))?", element.get("transform", ""))
        if match:
            dx, dy = dx + float(match[1]) * scale, dy + float(match[2]) * scale
            scale *= float(match[3] or 1)
        for child in element:
            if child.tag == f"{{{render.SVG_NS}}}use":
                name = child.get("href", "")[len("#zj-"):]
                code, sideways = name.removesuffix("-r"), name.endswith("-r")
                placed.append((code, sideways, round(dx + float(child.get("x", 0)) * scale, 1),
                               round(dy + float(child.get("y", 0)) * scale, 1)))
            else:
                walk(child, dx, dy, scale)

    walk(parse(svg), 0, 0, 1)
    return sorted(placed)


def test_the_picture_places_the_same_tiles_as_the_table() -> None:
    trace = sample_trace("clean-weile-rob-double")
    slots = render.discard_slots(trace.steps)
    for step in trace.steps:
        picture = render.table_picture(step, width=14, discard_slots=slots)
        table = render.table_svg(step, width=14, discard_slots=slots)
        drawn = []
        for piece in picture.pieces:
            root = parse(piece.svg)
            if root.get("class") == "tile":
                code = root.get("aria-label", "").split()[0]
                drawn.append((code, piece.width > piece.height, round(piece.x, 1), round(piece.y, 1)))
        assert sorted(drawn) == _placed_uses(table), step.index
        assert (picture.width, picture.height) == (float(parse(table).get("width", "")),
                                                   float(parse(table).get("height", "")))
        marks = sum('class="tile-mark"' in piece.svg for piece in picture.pieces)
        if step.event and step.event["type"] in ("draw", "discard"):
            assert marks == 1, step.index  # the event's tile outlined, as the table outlines it


def test_the_picture_is_one_svg_of_images() -> None:
    trace = sample_trace()
    step = next(s for s in trace.steps if s.event and s.event["type"] == "discard")
    picture = render.table_picture(step, labels=["0 庄", "1", "2", "3"], discard_slots=20)
    names: dict[str, str] = {}
    root = parse(picture.svg(lambda svg: names.setdefault(svg, f"/p/{len(names)}.svg")))
    images = find_all(root, "image")
    assert len(images) == len(picture.pieces) and not find_all(root, "use")
    assert {image.get("href") for image in images} == set(names.values())
    assert len(names) < len(images)  # the same tile drawing is named once, placed many times
    assert any(">0 庄</text>" in svg for svg in names)  # the seat labels are pieces too
    active = [svg for svg in names if 'class="active-seat"' in svg]
    assert len(active) == 1
    for svg in names:
        assert "style=" not in svg and "<script" not in svg


def test_a_seat_line_is_the_seats_hand_and_melds_of_the_table_and_its_discard() -> None:
    trace = sample_trace("clean-weile-rob-double")
    slots = render.discard_slots(trace.steps)
    widths = set()
    for step in trace.steps:
        if step.event is None:
            continue
        seat = step.event["seat"]
        line = render.seat_picture(step, seat, width=9)
        table = render.table_picture(step, width=9, discard_slots=slots)
        top, edge = seat * render.ROW_H, render.LABEL_W + render.HAND_W
        own = [(p.svg, p.x, round(p.y - top, 1)) for p in table.pieces
               if top <= p.y < top + render.ROW_H and p.x < edge and 'class="active-seat"' not in p.svg]
        pieces = [(p.svg, p.x, p.y) for p in line.pieces]
        discarded = 2 * (step.event["type"] == "discard")
        assert pieces[:len(pieces) - discarded] == own, step.index  # label, hand and melds as the table has them
        if discarded:  # the discarded tile and its outline, where the discards start
            assert pieces[-2][1] == pieces[-1][1] == edge and 'class="tile-mark"' in pieces[-1][0]
            assert render.tiles.zh_name(step.event["tile"]) in pieces[-2][0]
        widths.add((line.width, line.height))
    assert len(widths) == 1  # every line of a hand the same size: the text after it lines up


def test_the_winner_wears_hu_and_its_winning_tile_is_drawn_apart() -> None:
    """Issue 20, point 5: from the win step the winner's label has the 胡 badge and a tile won on
    another's discard (or a robbed kong) is drawn after its hand; a self-drawn one is already in it."""
    doc = json.loads((ROOT / "samples" / "missettled-burn-not-applied.json").read_text(encoding="utf-8"))
    last = trace_record(doc).steps[-1]
    (winner,) = [s for s, v in enumerate(last.seats) if v.won is not None]
    assert last.event is not None and last.event["type"] == "win" and last.seats[winner].won == last.event["tile"]
    svg = render.table_svg(last)
    assert svg.count(">胡</text>") == 1
    apart = render.table_svg(StepView(last.index, last.event, tuple(
        SeatView(v.concealed, v.melds, v.discards, v.declared, v.locked) for v in last.seats), last.wall_left, (), ()))
    assert ">胡</text>" not in apart and len(re.findall(r"<use ", svg)) == len(re.findall(r"<use ", apart)) + 1
    drawn = SeatView(tuple(sorted((*last.seats[winner].concealed, last.event["tile"]))), last.seats[winner].melds, (),
                     False, False, last.event["tile"])  # as after a self-draw: 14 tiles in hand
    assert render._self_drawn(drawn) and not render._self_drawn(last.seats[winner])
