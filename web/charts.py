"""The overview's bar charts: the drawing itself lives in `report.charts` (pure SVG, no Flask), one
layer down, so that the batch report (`batch`, summary.html) draws the same charts; the web
layer keeps importing them from here."""
from __future__ import annotations

from report.charts import MIN_BAR, SCALES, Bar, Series, bar_chart_svg, column_chart_svg

__all__ = ["MIN_BAR", "SCALES", "Bar", "Series", "bar_chart_svg", "column_chart_svg"]
