"""The admin trail paged and filtered, the overview's square-root scale, every day of the range and
the refused submissions, and the favicon (issue 11)."""
from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.conftest import dumps, load_example, login, variant
from web.charts import MIN_BAR, Bar, Series, bar_chart_svg


def post(client: FlaskClient, **changes: object) -> None:
    """Upload the example with some fields changed."""
    body = dumps(variant(load_example("hot-shot-weile"), **changes))
    client.post("/api/records", data=body, content_type="application/json")


def test_trail_is_filtered_and_paged(app: Flask, client: FlaskClient) -> None:
    for index in range(5):
        post(client, game_id=f"T-{index}")
    auditor = login(app, "au", "auditor")
    auditor.get("/records/1")
    everything = client.get("/admin/trail", query_string={"per_page": 3, "lang": "en"}).get_data(as_text=True)
    assert everything.count('<tr class="trail-') == 3 and 'rel="next"' in everything
    views = client.get("/admin/trail", query_string={"actor": "au", "action": "view"}).get_data(as_text=True)
    assert views.count('<tr class="trail-view"') == 1 and '<tr class="trail-upload"' not in views
    one = client.get("/admin/trail", query_string={"record": 2}).get_data(as_text=True)
    assert set(re.findall(r'href="/records/(\d+)"', one)) == {"2"}
    today = client.get("/admin/trail", query_string={"date_from": "2000-01-01", "date_to": "2000-01-02"})
    assert '<tr class="trail-' not in today.get_data(as_text=True)
    assert client.get("/admin/trail", query_string={"action": "dance"}).status_code == 400
    assert client.get("/admin/trail", query_string={"record": "x"}).status_code == 400
    assert auditor.get("/admin/trail").status_code == 403


def test_sqrt_scale_keeps_small_groups_visible() -> None:
    series = [Series("clean", "clean", "#2e7d32")]
    bars = [Bar("big", {"clean": 10000}), Bar("one", {"clean": 1})]
    def widths(scale: str) -> list[float]:
        svg = bar_chart_svg(bars, series=series, title="t", scale=scale, scale_label="√")
        return [float(width) for width in re.findall(r'<rect [^>]*width="([\d.]+)"', svg)]
    linear, sqrt = widths("linear"), widths("sqrt")
    assert sqrt[0] == linear[0]  # the largest group spans the track either way
    assert sqrt[1] == round(sqrt[0] / 100, 1)  # one record in 10,000: 1/100 of the track, not 1/10,000
    assert linear[1] == MIN_BAR  # linear, it is only the floor every non-empty group gets


def test_overview_lists_every_day_and_the_refused_submissions(client: FlaskClient) -> None:
    post(client, game_id="D-1", played_at="2026-03-01T20:00:00+08:00")
    post(client, game_id="D-2", played_at="2026-03-04T20:00:00+08:00")
    client.post("/api/records", data=b"{", content_type="application/json")
    html = client.get("/overview", query_string={"lang": "en"}).get_data(as_text=True)
    time_chart = html[html.index('id="chart-time"'):html.index('id="chart-rules"')]
    for day in ("2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"):
        assert day in time_chart, day
    assert "√ scale" in html
    rejected = html[html.index('id="chart-rejected"'):]
    assert "1 submissions were refused" in rejected and "/receipts?" in rejected


def test_favicon_is_served_to_anyone(anon_client: FlaskClient) -> None:
    response = anon_client.get("/favicon.ico")
    assert response.status_code == 200 and response.data[:4] == b"\x00\x00\x01\x00"  # an ICO file
