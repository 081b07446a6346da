"""Stacked bar charts as SVG strings, for the overview page, its PDF and the batch summary (no Flask):
horizontal bars for groups (platforms, clients, rule sections), vertical columns for periods.

Hand-written with ElementTree (escaping for free) rather than pygal: no script,
no embedded CSS, nothing fetched, so the same markup passes the page's CSP and
prints in WeasyPrint. Each bar and each segment is a link to the records list
filtered to it; WeasyPrint ignores links inside SVG, so the pages also show a
table with the same links.
"""
from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field

from audit.vocabulary import is_digits

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "WenQuanYi Micro Hei, Noto Sans CJK SC, PingFang SC, Microsoft YaHei, sans-serif"
INK, MUTED, GRID = "#1d2228", "#5c6670", "#d9dee3"


@dataclass(frozen=True)
class Series:
    """One kind of segment (a verdict): its key in the rows, legend label and colour."""

    key: str
    label: str
    colour: str


@dataclass(frozen=True)
class Bar:
    """One bar: a label, a value per series, the link of the whole bar and of each segment."""

    label: str
    values: dict[str, int]
    href: str | None = None
    segment_hrefs: dict[str, str] = field(default_factory=dict)
    note: str = ""
    """Text right of the bar (total, rate)."""


def _el(parent: ET.Element | None, tag: str, text: str | None = None, **attrs: object) -> ET.Element:
    """An element with string attributes (`font_size` -> `font-size`)."""
    values = {key.rstrip("_").replace("_", "-"): str(value) for key, value in attrs.items() if value is not None}
    element = ET.Element(tag, values) if parent is None else ET.SubElement(parent, tag, values)
    element.text = text
    return element


def _linked(parent: ET.Element, href: str | None) -> ET.Element:
    """An <a> around what follows when there is a link, else the parent itself."""
    return _el(parent, "a", href=href) if href else parent


SCALES = ("linear", "sqrt")
"""How a bar's length follows its total: proportionally, or by its square root, which keeps a
one-record group visible beside a thousand-record one (the segments of a bar still share its
length in proportion to their counts, and every bar's count is written beside it)."""
MIN_BAR = 3.0
"""Shortest bar, in pixels, of a group that has any records."""
MAX_SLOT = 40.0
"""Widest room, in pixels, one column of a column chart takes: a few periods stay slim columns
from the left, not a wall across the chart."""


def bar_chart_svg(bars: Sequence[Bar], *, series: Sequence[Series], title: str, width: int = 760,
                  bar_height: int = 18, label_width: int = 190, note_width: int = 150, scale: str = "linear",
                  scale_label: str | None = None) -> str:
    """Stacked horizontal bars, one per row, scaled to the largest total (`scale`: see SCALES;
    `scale_label` says so above the axis)."""
    if scale not in SCALES:
        raise ValueError(f"scale: one of {', '.join(SCALES)}")
    gap = 6
    height = 24 + len(bars) * (bar_height + gap) + 4
    svg = _el(None, "svg", xmlns=SVG_NS, width=width, height=height, viewBox=f"0 0 {width} {height}",
              class_="chart-svg", role="img", aria_label=title, font_family=FONT, font_size=12)
    _el(svg, "title", title)
    track = width - label_width - note_width
    largest = max((sum(bar.values.values()) for bar in bars), default=0) or 1
    _axis(svg, label_width, track, largest, height, scale_label)
    for index, bar in enumerate(bars):
        total = sum(bar.values.values())
        length = track * (total / largest if scale == "linear" else (total / largest) ** 0.5)
        _bar(svg, bar, series, y=22 + index * (bar_height + gap), x=label_width,
             per_record=max(length, MIN_BAR) / total if total else 0.0, height=bar_height)
    return ET.tostring(svg, encoding="unicode")


def column_chart_svg(bars: Sequence[Bar], *, series: Sequence[Series], title: str, width: int = 760,
                     plot_height: int = 150, scale: str = "linear", scale_label: str | None = None) -> str:
    """Stacked vertical columns, one per bar, left to right in the order given: a time series (the
    overview's days or months), so every period is drawn however many there are (the columns
    narrow to fit `width`; a period without records is a gap). Each column's count is written
    above it (turned upright when the column is narrow); the labels below are thinned to every
    n-th column when they would overlap (the table beside the chart lists every period)."""
    if scale not in SCALES:
        raise ValueError(f"scale: one of {', '.join(SCALES)}")
    left, right, head, foot = 44, 10, 46, 22
    height = head + plot_height + foot
    svg = _el(None, "svg", xmlns=SVG_NS, width=width, height=height, viewBox=f"0 0 {width} {height}",
              class_="chart-svg", role="img", aria_label=title, font_family=FONT, font_size=12)
    _el(svg, "title", title)
    track = width - left - right
    base = head + plot_height
    largest = max((sum(bar.values.values()) for bar in bars), default=0) or 1
    _el(svg, "line", x1=left, y1=base, x2=left + track, y2=base, stroke=GRID)
    _el(svg, "line", x1=left, y1=head, x2=left + track, y2=head, stroke=GRID, stroke_dasharray="3 3")
    _el(svg, "text", str(largest), x=left - 4, y=head + 4, fill=MUTED, text_anchor="end", font_size=10)
    _el(svg, "text", "0", x=left - 4, y=base + 4, fill=MUTED, text_anchor="end", font_size=10)
    if scale_label:
        _el(svg, "text", scale_label, x=left, y=12, fill=MUTED, font_size=10)
    slot = min(track / max(len(bars), 1), MAX_SLOT)
    column = max(slot * 0.72, 1.0) if slot >= 3 else slot
    widest = max((len(_short(bar.label)) for bar in bars), default=1)
    step = max(1, math.ceil((widest * 6.2 + 6) / slot))
    for index, bar in enumerate(bars):
        x = left + index * slot + (slot - column) / 2
        total = sum(bar.values.values())
        if total:
            share = total / largest if scale == "linear" else (total / largest) ** 0.5
            tall = max(plot_height * share, MIN_BAR)
            top = float(base)
            for kind in series:
                value = bar.values.get(kind.key, 0)
                if not value:
                    continue
                piece = tall * value / total
                top -= piece
                segment = _linked(svg, bar.segment_hrefs.get(kind.key) or bar.href)
                rect = _el(segment, "rect", x=round(x, 1), y=round(top, 1), width=round(column, 1),
                           height=round(max(piece, 0.5), 1), fill=kind.colour)
                _el(rect, "title", f"{bar.label} · {kind.label}: {value}")
            _count(svg, str(total), x + column / 2, base - tall - 3, slot)
        if index % step == 0:
            label = _linked(svg, bar.href)
            _el(label, "text", _short(bar.label), x=round(x + column / 2, 1), y=base + 14, fill=INK,
                text_anchor="middle", font_size=10)
    return ET.tostring(svg, encoding="unicode")


def _count(svg: ET.Element, text: str, x: float, y: float, slot: float) -> None:
    """A column's count above it: level when the column is wide enough for it, else upright."""
    if len(text) * 6 + 2 <= slot:
        _el(svg, "text", text, x=round(x, 1), y=round(y, 1), fill=MUTED, text_anchor="middle", font_size=10)
    else:
        _el(svg, "text", text, x=round(x + 3, 1), y=round(y, 1), fill=MUTED, font_size=9,
            transform=f"rotate(-90 {round(x + 3, 1)} {round(y, 1)})")


def _short(label: str) -> str:
    """A period's label under its column: `2026-11-29` as `11-29` (the table gives the year), a
    month as is, anything else clipped."""
    if len(label) == 10 and label[4] == "-" and label[7] == "-" and is_digits(label[:4]):
        return label[5:]
    return _clip(label, 8)


def _axis(svg: ET.Element, x: int, track: int, largest: int, height: int, scale_label: str | None) -> None:
    """The zero line and the largest value, so bar lengths read as counts; the scale named."""
    _el(svg, "line", x1=x, y1=18, x2=x, y2=height - 2, stroke=GRID)
    _el(svg, "line", x1=x + track, y1=18, x2=x + track, y2=height - 2, stroke=GRID, stroke_dasharray="3 3")
    _el(svg, "text", "0", x=x, y=13, fill=MUTED, text_anchor="middle", font_size=10)
    _el(svg, "text", str(largest), x=x + track, y=13, fill=MUTED, text_anchor="middle", font_size=10)
    if scale_label:
        _el(svg, "text", scale_label, x=x - 6, y=13, fill=MUTED, text_anchor="end", font_size=10)


def _bar(svg: ET.Element, bar: Bar, series: Sequence[Series], *, y: int, x: int, per_record: float,
         height: int) -> None:
    """Label, segments (each `per_record` pixels per record), note."""
    label = _linked(svg, bar.href)
    _el(label, "text", _clip(bar.label, 24), x=x - 6, y=y + height - 5, fill=INK, text_anchor="end")
    left = float(x)
    for kind in series:
        value = bar.values.get(kind.key, 0)
        if not value:
            continue
        segment = _linked(svg, bar.segment_hrefs.get(kind.key) or bar.href)
        rect = _el(segment, "rect", x=round(left, 1), y=y, width=round(max(value * per_record, 1), 1), height=height,
                   fill=kind.colour)
        _el(rect, "title", f"{bar.label} · {kind.label}: {value}")
        left += value * per_record
    _el(svg, "text", bar.note, x=round(left, 1) + 6, y=y + height - 5, fill=MUTED, font_size=11)


def _clip(text: str, limit: int) -> str:
    """Long labels (client strings) cut with an ellipsis; the table below has them whole."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["Bar", "MIN_BAR", "SCALES", "Series", "bar_chart_svg", "column_chart_svg"]
