"""The overview (`GET /overview`): counts per period, rule section, platform and client, the SVG
charts, and links that lead to list pages showing exactly the counted records."""
from __future__ import annotations

import copy
import json
import re
import xml.etree.ElementTree as ET
from html import unescape
from typing import Any, Callable
from urllib.parse import parse_qsl, urlsplit

import pytest
from flask.testing import FlaskClient

from records import stats
from records.pipeline import Pipeline
from records.queries import RecordQuery
from records.store import Store
from web.charts import Bar, Series, bar_chart_svg, column_chart_svg
from tests.conftest import ROOT, dumps

Upload = Callable[..., Any]
SAMPLES = ["clean-weile-hot-shot", "clean-weile-rob-double", "missettled-burn-not-applied", "missettled-flip",
           "illegal-pass-locked", "illegal-ping-hu-no-pass"]


def sample(name: str) -> dict[str, Any]:
    """A fresh copy of a sample record."""
    return json.loads((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8"))


@pytest.fixture
def loaded(upload: Upload) -> None:
    """Samples on two platforms, two clients and two months."""
    for index, name in enumerate(SAMPLES):
        doc = copy.deepcopy(sample(name))
        doc["client"] = "android 5.0.1" if index % 2 else "ios 4.9"
        doc["platform"] = "alpha" if index < 3 else "beta"
        doc["played_at"] = f"2026-{10 + index % 2:02d}-0{index + 1}T20:00:00+08:00"
        assert upload(dumps(doc)).status_code == 201


def links(html: str, chart: str) -> list[str]:
    """The list links of one chart's table."""
    section = html[html.index(f'id="chart-{chart}"'):]
    section = section[:section.index("</section>")]
    table = section[section.index("<table"):]
    return [unescape(href) for href in re.findall(r'<td><a href="([^"]+)">', table)]


def list_total(client: FlaskClient, href: str) -> int:
    """How many records the list behind a link shows (through the JSON API, same filters)."""
    query = dict(parse_qsl(urlsplit(href).query))
    assert urlsplit(href).path == "/records"
    return int(client.get("/api/records", query_string=query).get_json()["total"])


# ----- counting ---------------------------------------------------------------------------------


def test_counts_per_column_section_and_period(store: Store) -> None:
    from records.ingest import read_upload

    for index, name in enumerate(SAMPLES):
        doc = sample(name)
        doc["platform"], doc["played_at"] = ("alpha" if index < 3 else "beta"), f"2026-0{index + 1}-15T20:00:00+08:00"
        for unit in read_upload(f"{name}.json", dumps(doc)).units:
            Pipeline(store).upload_one(unit)
    query = RecordQuery()
    total = stats.totals(store.db, query)
    assert total.total == 6 and total.counts == {"invalid": 0, "illegal": 2, "missettled": 2, "clean": 2}
    platforms = stats.by_column(store.db, query, "platform")
    assert [(b.key, b.total) for b in platforms] == [("alpha", 3), ("beta", 3)]
    assert platforms[1].rate("illegal") == pytest.approx(2 / 3) and platforms[0].not_clean == pytest.approx(1 / 3)
    sections = stats.by_section(store.db, query)
    keys = [b.key for b in sections if b.key is not None]
    assert keys == [b.key for b in sections] == sorted(keys, key=stats.section_order)
    assert {"R13", "R7", "R11"} <= {b.key for b in sections}
    period_unit, periods = stats.by_period(store.db, query)
    assert period_unit == "month" and [b.key for b in periods] == [f"2026-0{i}" for i in range(1, 7)]
    assert stats.period_range("month", "2026-02") == ("2026-02-01", "2026-02-28")
    assert stats.period_range("day", "2026-02-03") == ("2026-02-03", "2026-02-03")
    only = stats.by_column(store.db, RecordQuery(verdict="illegal"), "platform")
    assert [(b.key, b.total) for b in only] == [("beta", 2)]
    with pytest.raises(ValueError):
        stats.by_column(store.db, query, "uploader; DROP TABLE records")


def test_empty_store_has_no_buckets(store: Store) -> None:
    assert stats.totals(store.db, RecordQuery()).total == 0
    assert stats.by_period(store.db, RecordQuery()) == ("day", [])


# ----- charts -----------------------------------------------------------------------------------


def test_bar_chart_is_valid_svg_with_links_and_escaping() -> None:
    series = [Series("illegal", "违规", "#c62828"), Series("clean", "无误", "#2e7d32")]
    bars = [Bar("<web & co>", {"illegal": 2, "clean": 3}, "/records?platform=x&y=1", {"illegal": "/records?v=1"}),
            Bar("android", {"clean": 1}, None)]
    svg = bar_chart_svg(bars, series=series, title="各平台结论")
    root = ET.fromstring(svg)
    ns = {"svg": "http://www.w3.org/2000/svg"}
    title = root.find("svg:title", ns)
    assert title is not None and title.text == "各平台结论"
    assert [a.get("href") for a in root.iter("{http://www.w3.org/2000/svg}a")] == [
        "/records?platform=x&y=1", "/records?v=1", "/records?platform=x&y=1"]
    assert len(root.findall(".//svg:rect", ns)) == 3 and "&lt;web &amp; co&gt;" in svg
    assert " style=" not in svg and "<script" not in svg
    assert ET.fromstring(bar_chart_svg([], series=series, title="empty")) is not None


# ----- the page ---------------------------------------------------------------------------------


def test_overview_page_charts_and_links_match_the_list(client: FlaskClient, loaded: None) -> None:
    response = client.get("/overview")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "总览" in html and html.count('class="chart-svg"') == 5 and " style=" not in html
    for title in ("每日结论", "有问题的记录（按规则条款）", "各平台结论", "各客户端版本结论", "有「热炮 R8」问题的记录"):
        assert title in html, title
    for chart in ("time", "rules", "platforms", "clients", "focus"):
        hrefs = links(html, chart)
        assert hrefs, chart
        for href in hrefs:
            assert list_total(client, href) > 0, href
    platform_rows = re.findall(r'<td><a href="[^"]*platform=(\w+)[^"]*">\w+</a></td>\s*<td class="amount">(\d+)</td>',
                               html)
    for platform, total in platform_rows:
        assert list_total(client, f"/records?platform={platform}") == int(total)
    assert "/records?platform=beta&amp;verdict=illegal" in html  # a segment links to its verdict


def test_overview_filters_apply_to_every_chart(client: FlaskClient, loaded: None) -> None:
    html = client.get("/overview", query_string={"platform": "beta", "rule": "R13"}).get_data(as_text=True)
    hrefs = links(html, "time") + links(html, "platforms") + links(html, "clients")
    assert hrefs and "共 1 条" in html
    for href in hrefs:
        assert "platform=beta" in href and "rule=R13" in href
        assert list_total(client, href) == 1


def test_focus_chart_answers_which_client_missettles_hot_shots(client: FlaskClient, loaded: None) -> None:
    html = client.get("/overview", query_string={"focus": "R8"}).get_data(as_text=True)
    focus = links(html, "focus")
    assert focus and all("rule=R8" in href for href in focus)
    assert sum(list_total(client, href) for href in focus) == list_total(client, "/records?rule=R8")
    english = client.get("/overview", query_string={"lang": "en", "focus": "R11"}).get_data(as_text=True)
    assert "Records with 鸡 R11 findings, by client version" in english and "Verdicts by platform" in english


@pytest.mark.parametrize("query, fragment", [({"focus": "R8.3"}, "focus"), ({"focus": "X"}, "focus"),
                                             ({"verdict": "bad"}, "verdict"), ({"date_from": "soon"}, "date_from")])
def test_overview_bad_filters_are_400(client: FlaskClient, query: dict[str, str], fragment: str) -> None:
    response = client.get("/overview", query_string=query)
    assert response.status_code == 400 and fragment in response.get_data(as_text=True)


def test_overview_of_an_empty_store(client: FlaskClient) -> None:
    html = client.get("/overview").get_data(as_text=True)
    assert "共 0 条" in html and "没有符合条件的记录" in html


def test_overview_is_in_the_navigation(client: FlaskClient) -> None:
    assert 'href="/overview"' in client.get("/records").get_data(as_text=True)


# ----- the daily chart draws every day (issue 33.6) ------------------------------------------------

NOVEMBER = {"01": 1, "02": 1, "05": 1, "11": 1, "15": 1, "17": 2, "21": 1, "24": 1, "29": 6}
"""Hands per day of 2026-11 as the issue's samples had them: 29 days, the last the busiest."""


@pytest.fixture
def november(upload: Upload) -> None:
    base = sample("clean-weile-hot-shot")
    for day, count in NOVEMBER.items():
        for n in range(count):
            doc = copy.deepcopy(base)
            doc["game_id"], doc["played_at"] = f"nov-{day}-{n}", f"2026-11-{day}T20:{10 + n}:00+08:00"
            assert upload(dumps(doc)).status_code == 201


def drawn_days(html: str, chart: str) -> set[str]:
    """The days one chart draws a segment for (each segment's <title> names its day)."""
    section = html[html.index(f'id="chart-{chart}"'):]
    svg = section[section.index("<svg"):section.index("</svg>")]
    return set(re.findall(r"<rect [^>]*><title>(\d{4}-\d{2}-\d{2}) · ", svg))


def test_the_daily_chart_draws_every_day_with_hands(client: FlaskClient, november: None) -> None:
    html = client.get("/overview", query_string={"lang": "en"}).get_data(as_text=True)
    assert drawn_days(html, "time") == {f"2026-11-{day}" for day in NOVEMBER}  # 11-29 (6 hands) among them
    section = html[html.index('id="chart-time"'):html.index('id="chart-rules"')]
    assert "largest groups" not in section  # the caption says what is drawn: every day
    assert "draws each of the 29 days, 9 of them with games" in section
    assert all(f"2026-11-{n:02d}" in section for n in range(1, 30))  # the table lists every day
    chinese = client.get("/overview", query_string={"lang": "zh"}).get_data(as_text=True)
    assert "图中画出全部 29 天（其中 9 天有牌局）" in chinese and "最大的" not in chinese


def test_columns_are_drawn_for_every_period_however_many() -> None:
    series = [Series("clean", "无误", "#2e7d32"), Series("illegal", "违规", "#c62828")]
    days = [Bar(f"2026-{10 + n // 31:02d}-{n % 31 + 1:02d}", {"clean": n % 3, "illegal": n % 2}, f"/records?d={n}")
            for n in range(62)]
    svg = column_chart_svg(days, series=series, title="每日结论", scale="sqrt", scale_label="√")
    root = ET.fromstring(svg)
    rects = root.findall(".//{http://www.w3.org/2000/svg}rect")
    assert len(rects) == sum(1 for bar in days for value in bar.values.values() if value)
    assert max(float(rect.get("x") or 0) + float(rect.get("width") or 0) for rect in rects) <= 760
    muted = [text.text or "" for text in root.iter("{http://www.w3.org/2000/svg}text") if text.get("fill") == "#5c6670"]
    drawn = [str(sum(bar.values.values())) for bar in days if sum(bar.values.values())]
    assert sorted(muted[3:]) == sorted(drawn)  # after the axis and scale words, each column's count above it
    few = column_chart_svg([Bar("2026-11-29", {"clean": 5})], series=series, title="t")
    (rect,) = ET.fromstring(few).findall(".//{http://www.w3.org/2000/svg}rect")
    assert float(rect.get("width") or 0) < 40  # one period is a slim column, not a wall


def test_every_day_with_refusals_is_drawn(client: FlaskClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """27 days with a refused upload each: the receipts' chart drew only the last 25."""
    import datetime as dt

    import records.rows

    for n in range(27):
        moment = dt.datetime(2026, 11, 1, 4, 0, tzinfo=dt.timezone.utc) + dt.timedelta(days=n)

        class At(dt.datetime):
            @classmethod
            def now(cls, tz: Any = None, moment: dt.datetime = moment) -> Any:
                return moment

        monkeypatch.setattr(records.rows, "datetime", At)
        client.post("/api/records", data=b"{", content_type="application/json")
    html = client.get("/overview").get_data(as_text=True)
    assert drawn_days(html, "rejected") == {f"2026-11-{n:02d}" for n in range(1, 28)}


def test_refusals_are_days_with_gaps_filled_or_months_over_a_long_span() -> None:
    from web.overview import refusal_periods

    assert refusal_periods({"2026-11-01": 2, "2026-11-04": 1}, RecordQuery()) == (
        "day", {"2026-11-01": 2, "2026-11-02": 0, "2026-11-03": 0, "2026-11-04": 1})
    assert refusal_periods({"2026-01-05": 2, "2026-01-09": 1, "2026-05-01": 1}, RecordQuery()) == (
        "month", {"2026-01": 3, "2026-05": 1})
    assert refusal_periods({}, RecordQuery()) == ("day", {})
