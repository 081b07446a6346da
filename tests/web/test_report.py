"""The step-by-step report (`GET /records/<id>`), its step markers, the what-if comparison and the
rulebook lookups, with the real engine on a temporary database (the ledger grouping itself:
test_report_model.py)."""
from __future__ import annotations

import json
import re
from typing import Any, Callable

import pytest
from flask.testing import FlaskClient
from markupsafe import escape

from audit import rulebook
from audit.api import trace_record
from audit.catalogue import render_finding, render_note
from audit.tiles import zh_name
from web.labels import profile_title
from audit.views import Marker, MarkerKind
from web.labels import marker_label
from tests.conftest import ROOT
from tests.helpers import sample_players

Upload = Callable[..., Any]
SAMPLES = ROOT / "samples"


def stored(upload: Upload, name: str) -> int:
    """Upload a sample record; its record id."""
    (result,) = upload((SAMPLES / f"{name}.json").read_bytes()).get_json()["results"]
    assert result["record_id"] is not None, result
    return int(result["record_id"])


def page(client: FlaskClient, url: str, **query: str) -> str:
    """A page that must answer 200."""
    response = client.get(url, query_string=query)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return response.get_data(as_text=True)


def row(html: str, anchor: str) -> str:
    """The opening tag of the step row with this id."""
    match = re.search(rf'<tr id="{anchor}"[^>]*>', html)
    assert match, anchor
    return match.group(0)


def markers(html: str, anchor: str) -> list[tuple[str, str]]:
    """(kind, text without tags) of each marker chip in the step row with this id."""
    start = html.index(f'<tr id="{anchor}"')
    cells = html[start:html.index("</tr>", start)]
    chips = re.findall(r'<span class="marker marker-([a-z_]+)">(.*?)</small></span>', cells, re.S)
    return [(kind, re.sub(r"<svg.*?</svg>|<[^>]+>", "", text, flags=re.S)) for kind, text in chips]


# ----- the rulebook --------------------------------------------------------------------------------


def test_every_section_of_the_rulebook_has_a_chinese_name() -> None:
    sections = {code for code in rulebook.rules() if "." not in code}
    assert sections == set(rulebook.SECTION_NAMES_ZH)
    assert len([code for code in rulebook.rules() if "." in code]) >= 70


def test_rule_text_comes_from_the_vendored_rulebook() -> None:
    rule = rulebook.lookup("R13.1")
    assert rule is not None and rule.code == "R13.1" and rule.section == "R13" and rule.name_zh == "过胡与过碰"
    assert "Winning while locked is illegal." in rule.text and "\n" not in rule.text
    fallback = rulebook.lookup("R8.9")
    assert fallback is not None and fallback.code == "R8"  # an unknown rule falls back to its section
    assert rulebook.lookup("R99") is None and rulebook.lookup(None) is None
    patterns = rulebook.lookup("R3.2")
    assert patterns is not None and "qing_qi_dui" in patterns.text.splitlines()[2]
    assert (ROOT / "spec" / "rulebook.md").read_text(encoding="utf-8").count("\n## ") >= 17


def test_rules_are_labelled_in_chinese_with_their_section() -> None:
    assert rulebook.label("R8.3") == "热炮 R8.3"
    assert rulebook.label("P") == "规则配置 P"
    assert rulebook.label("X1") == "X1" and rulebook.label(None) == ""


# ----- the report page ------------------------------------------------------------------------------


def test_illegal_step_is_highlighted_with_the_rule_text(client: FlaskClient, upload: Upload) -> None:
    record_id = stored(upload, "illegal-pass-locked")
    html = page(client, f"/records/{record_id}")
    assert "flagged-illegal" in row(html, "step-3") and "flagged" not in row(html, "step-2")
    assert 'href="#step-3"' in html  # the findings summary links to the step
    chinese = rulebook.rule_text("R13.1", "zh")
    assert chinese is not None and chinese.lang.value == "zh"
    assert "过胡与过碰 R13.1" in html and escape(chinese.blocks[0].spans[-1].text) in html
    assert "Winning while locked is illegal." not in html  # the Chinese page quotes the Chinese text
    locked = Marker.of(MarkerKind.PASS_LOCK, seat=2)  # on the step that closed the window, naming the seat
    assert markers(html, "step-1") == [("pass_lock", f"{marker_label(locked, 'zh')} 2号位 Bo R13.1")]
    assert 'class="tile-sprite"' in html and html.count('<use href="#zj-') > 150
    assert row(html, "step-deal") and "发牌" in html and "逐步回放" in html
    assert " style=" not in html and "onclick" not in html
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", html, re.S)
    assert [(attrs.strip(), body.strip()) for attrs, body in scripts] == [('src="/static/replay.js" defer', "")]


def test_report_in_english_keeps_rule_names_in_chinese(client: FlaskClient, upload: Upload) -> None:
    record_id = stored(upload, "illegal-pass-locked")
    html = page(client, f"/records/{record_id}", lang="en")
    for fragment in ("Step by step", "Table after the step", "discards", "过胡与过碰 R13.1", "Flip and chickens",
                     "Totals per seat", 'lang="en"'):
        assert fragment in html, fragment
    locked = Marker.of(MarkerKind.PASS_LOCK, seat=2)
    assert markers(html, "step-1") == [("pass_lock", f"{marker_label(locked, 'en')} seat 2 (Bo) R13.1")]


def test_missettled_ledger_marks_the_differences(client: FlaskClient, upload: Upload) -> None:
    record_id = stored(upload, "missettled-burn-not-applied")
    html = page(client, f"/records/{record_id}")
    audit = json.loads((SAMPLES / "missettled-burn-not-applied.audit.json").read_text(encoding="utf-8"))
    (finding,) = [f for f in audit["findings"] if f["code"] == "burn_not_applied"]
    assert "热炮 R8.3" in html and str(escape(render_finding(finding, "zh", sample_players("missettled-burn-not-applied")))) in html  # the page's language
    assert 'href="#settlement"' in html  # a settlement finding links to the ledger
    ledger_html = html[html.index('class="ledger"'):html.index('id="chickens"')]
    assert len(re.findall(r'class="differs[ "]', ledger_html)) == 1 and "+1" in ledger_html
    totals_html = html[html.index('class="totals"'):html.index('class="ledger"')]
    assert totals_html.count('class="differs"') == 2
    assert [kind for kind, _ in markers(html, "step-2")] == ["hot_shot"]  # the marker on the shot
    (hand,) = [item for item in audit["settlement"]["items"] if item["kind"] == "hand"]
    assert str(escape(render_note(hand, "zh", sample_players("missettled-burn-not-applied")))) in html


def test_chickens_and_the_flip_tile(client: FlaskClient, upload: Upload) -> None:
    record_id = stored(upload, "clean-weile-rob-double")
    html = page(client, f"/records/{record_id}")
    chickens = html[html.index('id="chickens"'):html.index('id="whatif"')]
    assert "翻开的牌（审计）" in chickens and "8p 八筒" in chickens  # the turned tile, drawn
    doc = json.loads((SAMPLES / "clean-weile-rob-double.json").read_text(encoding="utf-8"))
    reasons = [c.reason for c in trace_record(doc).chickens]
    assert re.findall(r'<tr class="chicken-([a-z_]+)"', chickens) == reasons and len(reasons) == 4
    charged = trace_record(doc).chickens[0]  # seat 0 holds the 冲锋鸡
    assert any(part["code"] == "charge_chicken" for part in charged.params["parts"])
    assert str(escape(render_note({"code": charged.code, "params": charged.params}, "zh"))) in chickens
    assert [kind for kind, _ in markers(html, "step-58")] == ["charge_chicken"]
    assert [kind for kind, _ in markers(html, "step-111")] == ["rob"]
    assert len(re.findall(r'<tr id="step-', html)) == 115


def test_report_without_steps_when_the_engine_cannot_replay(client: FlaskClient, upload: Upload,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    record_id = stored(upload, "clean-weile-hot-shot")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("replayer exploded")

    monkeypatch.setattr("web.report_model.trace_record", broken)  # the name as the report imports it
    html = page(client, f"/records/{record_id}")
    audit = json.loads((SAMPLES / "clean-weile-hot-shot.audit.json").read_text(encoding="utf-8"))
    (hand,) = [item for item in audit["settlement"]["items"] if item["kind"] == "hand"]
    assert "没有回放" in html and str(escape(render_note(hand, "zh"))) in html  # the stored audit still shows


def test_report_follows_a_reaudit_under_another_profile(client: FlaskClient, upload: Upload) -> None:
    record_id = stored(upload, "clean-weile-hot-shot")
    assert client.post(f"/api/records/{record_id}/audit", json={"profile": "cuocuo"}).status_code == 201
    html = page(client, f"/records/{record_id}")
    assert "cuocuo" in html and row(html, "step-3")


def test_unknown_record_pages_are_404(client: FlaskClient) -> None:
    for url in ("/records/999", "/records/999/whatif", "/records/999.pdf"):
        response = client.get(url)
        assert response.status_code == 404 and 'data-code="record_missing"' in response.get_data(as_text=True)


def test_report_routes_need_an_account(anon_client: FlaskClient) -> None:
    for url in ("/records/1", "/records/1/whatif", "/records/1.pdf", "/overview"):
        response = anon_client.get(url)
        assert response.status_code == 302 and "/login" in response.headers["Location"]


# ----- what-if ----------------------------------------------------------------------------------


def test_what_if_compares_without_storing(client: FlaskClient, upload: Upload) -> None:
    record_id = stored(upload, "missettled-flip")
    before = client.get(f"/api/records/{record_id}/audits").get_json()
    html = page(client, f"/records/{record_id}/whatif", profile="cuocuo")
    assert client.get(f"/api/records/{record_id}/audits").get_json() == before
    compare = html[html.index('class="compare"'):html.index('class="compare-columns"')]
    assert profile_title("weile", "zh") in compare and profile_title("cuocuo", "zh") in compare
    assert compare.count('class="differs"') >= 2
    assert "结算核对 R15.1" in html and "鸡 R11.5" in html  # findings of both audits, rules in Chinese
    assert 'name="csrf_token"' in html and 'value="cuocuo"' in html  # the form that stores it
    assert compare.count("下局庄家") == 1 and zh_name("6s") in compare and zh_name("9s") in compare  # the flip as tiles


def test_what_if_with_options(client: FlaskClient, upload: Upload) -> None:
    record_id = stored(upload, "clean-weile-hot-shot")
    html = page(client, f"/records/{record_id}/whatif", options='{"chicken.normal": 2}')
    assert "chicken.normal" in html and "结算核对 R15.1" in html


@pytest.mark.parametrize("query, fragment", [
    ({"profile": "mars"}, 'data-code="unknown_profile"'),
    ({"options": "{oops"}, 'data-code="not_json"'),
    ({"options": "[1]"}, 'data-code="options_not_object"'),
])
def test_what_if_bad_input_is_a_400(client: FlaskClient, upload: Upload, query: dict[str, str],
                                    fragment: str) -> None:
    record_id = stored(upload, "clean-weile-hot-shot")
    response = client.get(f"/records/{record_id}/whatif", query_string=query)
    assert response.status_code == 400 and fragment in response.get_data(as_text=True)


def test_what_if_of_a_match_hand_keeps_continuity(client: FlaskClient, upload: Upload) -> None:
    results = upload((SAMPLES / "illegal-match-dealer.json").read_bytes()).get_json()["results"]
    second = results[1]["record_id"]
    html = page(client, f"/records/{second}/whatif", profile="weile")
    compare = html[html.index('class="compare"'):html.index('class="compare-columns"')]
    assert compare.count("违规") == 2  # the continuity finding survives in the what-if audit


def test_what_if_engine_failure_is_a_502(client: FlaskClient, upload: Upload) -> None:
    record_id = stored(upload, "clean-weile-hot-shot")
    client.application.config["AUDITOR"] = lambda *args, **kwargs: 1 / 0
    response = client.get(f"/records/{record_id}/whatif", query_string={"profile": "kuhu"})
    assert response.status_code == 502 and 'data-code="engine_failed"' in response.get_data(as_text=True)
