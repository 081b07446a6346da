"""Horizontal stacked bar charts as SVG strings, for the overview page, its PDF and the batch summary (no Flask).

Hand-written with ElementTree (escaping for free) rather than pygal: no script,
no embedded CSS, nothing fetched, so the same markup passes the page's CSP and
prints in WeasyPrint. Each bar and each segment is a link to the records list
filtered to it; WeasyPrint ignores links inside SVG, so the pages also show a
table with the same links.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from dataclasses import dataclass, field

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


__all__ = ["Bar", "SCALES", "Series", "bar_chart_svg"]
