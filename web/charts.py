"""The overview's bar charts: the drawing itself lives in `audit.charts` (pure SVG, no Flask), one
layer down, so that the batch report (`audit.batch`, summary.html) draws the same charts; the web
layer keeps importing them from here."""
from __future__ import annotations

from audit.charts import Bar, Series, bar_chart_svg

__all__ = ["Bar", "Series", "bar_chart_svg"]
