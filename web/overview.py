"""The overview: verdict counts and rates over time, by rule section, platform and client.

Counts come from `records.stats` under the list's own filters, so every bar
links to a records list that shows exactly its records. Charts are drawn
server-side (`web.charts`), the same SVG in the page and in the PDF.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Any

from flask import Blueprint, render_template, request, url_for
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from audit.vocabulary import SECTION_NAMES_ZH, section_of
from audit.vocabulary import label as rule_label
from records import receipts, stats
from records.queries import RecordQuery
from records.rows import VERDICTS
from web import clock
from web.auth import READERS, requires, scope_query
from web.charts import Bar, Series, bar_chart_svg, column_chart_svg
from web.db import get_store
from web.errors import fail
from web.i18n import gettext as _
from web.pdf.typeset import pdf_response
from web.views import parse_list_query

bp = Blueprint("overview", __name__)

COLOURS = {"invalid": "#6d4c41", "illegal": "#c62828", "missettled": "#b26a00", "clean": "#2e7d32"}
"""The verdict badges' colours (static/style.css)."""
REJECTED_COLOUR = "#546e7a"
"""Refused submissions: not a verdict, so a colour of their own."""
TOP = 25
"""Most platforms or clients a chart shows; the table says how many there are."""
FILTERS = ("verdict", "profile", "rule", "platform", "client", "player", "date_from", "date_to", "game_id",
           "revisions")
"""List parameters the overview honours (sort and paging mean nothing here)."""
SCALE = "sqrt"
"""Bar lengths follow the square root of the count (`web.charts.SCALES`): a one-record group
stays visible beside a large one; each bar's count is written beside it, and the charts say so."""
DEFAULT_FOCUS = "R8"
"""The section of the per-client findings chart: 热炮, which client builds mis-settle most."""


@dataclass(frozen=True)
class Row:
    """One line of a chart's table: the group, its links, its counts and rates."""

    label: str
    href: str | None
    counts: dict[str, int]
    links: dict[str, str]
    total: int
    rate: str


@dataclass(frozen=True)
class Chart:
    """A chart: title, SVG, and the table of the same numbers with links."""

    id: str
    title: str
    svg: Markup
    rows: list[Row]
    more: int
    """Groups left out of the chart (beyond TOP)."""
    note: str = ""
    """What a chart of periods draws, said under it (every day or month, how many with records)."""


def _percent(share: float) -> str:
    """0.125 -> '12.5%' (one decimal below 10%, none above)."""
    if share == 0:
        return "0%"
    return f"{share * 100:.1f}%" if share * 100 < 10 else f"{share * 100:.0f}%"


def overview_query() -> tuple[RecordQuery, dict[str, str], str]:
    """The filters (checked like the list's: a bad value is a 400 naming it), the active ones as
    link parameters, and the focus section of the per-client findings chart."""
    args = {key: value for key, value in request.args.items() if key in FILTERS and value}
    focus = request.args.get("focus") or DEFAULT_FOCUS
    if section_of(focus) != focus or focus not in SECTION_NAMES_ZH:
        raise fail(400, "not_a_section", field="focus", value=focus)
    return scope_query(parse_list_query(args)), args, focus


def _link(args: dict[str, str], **more: str) -> str:
    """The records list under the overview's filters plus this group's."""
    params: dict[str, Any] = {**args, **more}
    return url_for("pages.records", **params)


def _chart(chart_id: str, title: str, buckets: list[stats.Bucket], *, label: Any, filters: Any,
           note: Any, args: dict[str, str], periods: str | None = None) -> Chart:
    """A chart and its table from buckets; `label`, `filters` (link parameters or None) and
    `note` (rate text) are functions of a bucket. Groups are bars, the TOP largest drawn (the
    buckets come largest first); periods (`periods`: "day" or "month", oldest first) are columns,
    every one drawn however many there are (issue 33.6: a day with hands is never left out)."""
    series = [Series(verdict, _(verdict), COLOURS[verdict]) for verdict in VERDICTS]
    rows = []
    for bucket in buckets:
        extra = filters(bucket)
        href = _link(args, **extra) if extra is not None else None
        links = {v: _link(args, **extra, verdict=v) for v in VERDICTS if bucket.counts[v]} if extra is not None else {}
        rows.append(Row(label(bucket), href, bucket.counts, links, bucket.total, note(bucket)))
    if periods:
        columns = [Bar(row.label, row.counts, row.href, row.links) for row in rows]
        svg = column_chart_svg(columns, series=series, title=title, scale=SCALE, scale_label=_("√ scale"))
        dated = [bucket for bucket in buckets if bucket.key is not None]
        played = sum(1 for bucket in dated if bucket.total)
        days = _("The chart draws each of the %(count)s days, %(played)s of them with games; the table lists them all.",
                 count=len(dated), played=played)
        months = _("The chart draws each of the %(count)s months, %(played)s of them with games; the table lists them all.",
                   count=len(dated), played=played)
        said = days if periods == "day" else months
        return Chart(chart_id, title, Markup(svg), rows, 0, said)
    bars = [Bar(row.label, row.counts, row.href, row.links, f"{row.total} · {row.rate}") for row in rows[:TOP]]
    svg = bar_chart_svg(bars, series=series, title=title, scale=SCALE, scale_label=_("√ scale"))
    return Chart(chart_id, title, Markup(svg), rows, max(len(rows) - TOP, 0))


def build_charts(query: RecordQuery, args: dict[str, str], focus: str) -> tuple[stats.Bucket, list[Chart]]:
    """Every chart of the overview, from four grouped queries and one total."""
    db = get_store().db
    total = stats.totals(db, query)
    rate = lambda bucket: _("%(rate)s not clean", rate=_percent(bucket.not_clean))  # noqa: E731
    unit, periods = stats.by_period(db, query)
    if unit == "day":
        periods = every_day(periods, query)

    def period_filters(bucket: stats.Bucket) -> dict[str, str] | None:
        if bucket.key is None or not bucket.total:  # an empty day links nowhere
            return None
        start, end = stats.period_range(unit, bucket.key)
        return {"date_from": start, "date_to": end}

    share = lambda bucket: _("%(rate)s of records", rate=_percent(bucket.total / total.total if total.total else 0))  # noqa: E731
    focus_query = replace(query, rule=focus)
    charts = [
        _chart("time", _("Verdicts by day") if unit == "day" else _("Verdicts by month"), periods,
               label=lambda b: b.key or _("no date"), filters=period_filters, note=rate, args=args, periods=unit),
        _chart("rules", _("Records with findings, by rule section"), stats.by_section(db, query),
               label=lambda b: rule_label(b.key), filters=lambda b: {"rule": b.key}, note=share, args=args),
        _chart("platforms", _("Verdicts by platform"), stats.by_column(db, query, "platform"),
               label=lambda b: b.key or _("no platform"), filters=lambda b: {"platform": b.key} if b.key else None,
               note=rate, args=args),
        _chart("clients", _("Verdicts by client version"), stats.by_column(db, query, "client"),
               label=lambda b: b.key or _("no client"), filters=lambda b: {"client": b.key} if b.key else None,
               note=rate, args=args),
        _chart("focus", _("Records with %(rule)s findings, by client version", rule=rule_label(focus)),
               stats.by_column(db, focus_query, "client"), label=lambda b: b.key or _("no client"),
               filters=lambda b: {"client": b.key, "rule": focus} if b.key else None, note=rate, args=args),
    ]
    return total, charts


def every_day(periods: list[stats.Bucket], query: RecordQuery) -> list[stats.Bucket]:
    """The daily buckets with every day between the first and the last (or the filter's own
    bounds) present, empty ones included, so a day without games shows as a gap, not as nothing;
    the undated bucket stays last. Never more than `stats.DAILY_SPAN` + 1 days."""
    dated = {bucket.key: bucket for bucket in periods if bucket.key is not None}
    undated = [bucket for bucket in periods if bucket.key is None]
    keys = sorted(dated)
    try:
        first = date.fromisoformat(query.date_from or keys[0])
        last = date.fromisoformat(query.date_to or keys[-1])
    except (IndexError, ValueError):
        return periods
    if (last - first).days > stats.DAILY_SPAN:
        first = date.fromisoformat(keys[0]) if keys else first
        last = date.fromisoformat(keys[-1]) if keys else last
    if (last - first).days > stats.DAILY_SPAN or last < first:
        return periods
    days = [(first + timedelta(days=n)).isoformat() for n in range((last - first).days + 1)]
    return [dated.get(day) or stats.Bucket(day) for day in days] + undated


def rejected_chart(query: RecordQuery) -> Chart:
    """Submissions refused (rejected or refused receipts) per day of the service's zone, under the
    overview's platform and date filters, each column linking to those receipts (`records.receipts`):
    every day from the first to the last (months beyond `stats.DAILY_SPAN` days, as the records'
    chart), none left out."""
    counts = receipts.rejected_by_day(get_store().db, zone=clock.zone(), platform=query.platform,
                                      date_from=query.date_from, date_to=query.date_to)
    unit, periods = refusal_periods(counts, query)
    series = [Series("rejected", _("rejected"), REJECTED_COLOUR)]
    rows, bars = [], []
    for key, count in periods.items():
        start, end = stats.period_range(unit, key)
        href = url_for("receipts.receipts_page", date_from=start, date_to=end, outcome="rejected") if count else None
        if count:  # the table lists the periods with refusals; the chart draws every one, empty ones as gaps
            rows.append(Row(key, href, {"rejected": count}, {}, count, ""))
        bars.append(Bar(key, {"rejected": count}, href))
    by_day, by_month = _("Rejected submissions by day (receipts)"), _("Rejected submissions by month (receipts)")
    title = by_day if unit == "day" else by_month
    svg = column_chart_svg(bars, series=series, title=title, scale=SCALE, scale_label=_("√ scale"))
    return Chart("rejected", title, Markup(svg), rows, 0)


def refusal_periods(counts: dict[str, int], query: RecordQuery) -> tuple[str, dict[str, int]]:
    """Refusals per day with every day between the first and the last present (the filter's bounds
    when they are nearer), or per month when they span more than `stats.DAILY_SPAN` days."""
    if not counts:
        return "day", {}
    days = sorted(counts)
    first = date.fromisoformat(max(days[0], query.date_from or days[0]))
    last = date.fromisoformat(min(days[-1], query.date_to or days[-1]))
    if (last - first).days > stats.DAILY_SPAN:
        months: dict[str, int] = {}
        for day, count in counts.items():
            months[day[:7]] = months.get(day[:7], 0) + count
        return "month", dict(sorted(months.items()))
    every = [(first + timedelta(days=n)).isoformat() for n in range((last - first).days + 1)]
    return "day", {day: counts.get(day, 0) for day in every}


def _context() -> dict[str, Any]:
    """What both the page and the PDF show."""
    query, args, focus = overview_query()
    total, charts = build_charts(query, args, focus)
    store = get_store()
    choices = {column: store.distinct(column) for column in ("platform", "profile", "client")}
    rejected = rejected_chart(query)
    return {"query": query, "args": args, "focus": focus, "total": total, "charts": charts, "choices": choices,
            "verdicts": VERDICTS, "colours": COLOURS, "sections": list(SECTION_NAMES_ZH),
            "percent": _percent, "rejected": rejected, "rejected_total": sum(row.total for row in rejected.rows)}


@bp.get("/overview")
@requires(*READERS)
def overview() -> ResponseReturnValue:
    """Charts of verdicts over time, by rule section, platform and client."""
    return render_template("overview.html", **_context())


@bp.get("/overview.pdf")
@requires(*READERS)
def overview_pdf() -> ResponseReturnValue:
    """The same charts and tables as a PDF."""
    return pdf_response(render_template("pdf/overview.html", pdf=True, **_context()), "overview.pdf")
