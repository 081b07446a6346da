"""R17 on the report: a record under a house-rule option shows its 跟庄, 倒赔 and 包鸡 payments
with their kind and their notes in words (data-driven: the audit's notes, the item kind label)."""
from __future__ import annotations

from typing import Any, Callable

import pytest
from flask.testing import FlaskClient

from audit.catalogue import render_note
from tests.helpers import sample_players
from tests.web.test_report import page, stored

Upload = Callable[..., Any]


@pytest.mark.parametrize("name,code", [("clean-r17-8-follow-dealer", "follow_dealer"),
                                       ("clean-r17-7-dou-reverse", "dou_reversed"),
                                       ("clean-r17-1-baoji", "chicken_owed")])
def test_report_shows_the_house_rule_payments(client: FlaskClient, upload: Upload, name: str, code: str) -> None:
    rid = stored(upload, name)
    html = page(client, f"/records/{rid}", lang="zh")
    audit = client.get(f"/api/records/{rid}/audit", query_string={"lang": "zh"})
    assert audit.status_code == 200
    items = [i for i in audit.get_json()["settlement"]["items"] if i["code"] == code]
    assert items and all(render_note(i, "zh", sample_players(name)) in html for i in items)
    if code == "follow_dealer":
        assert "跟庄" in html
