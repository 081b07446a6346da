"""The report page's dispute summary, in Chinese first: the catalogue's Chinese messages and none
of the English ones, the illegal move before and after, the stopped replay, anchors that exist;
a match hand with its match's verdict and links; revisions: the superseded banner and the diff."""
from __future__ import annotations

import json
import re

from flask.testing import FlaskClient
from markupsafe import escape

from audit.catalogue import render_finding, seat_label
from report.dispute import text as dispute_text
from tests.helpers import sample_players
from tests.web.test_report import SAMPLES, Upload, page, stored


def audit_of(name: str) -> dict:
    loaded: dict = json.loads((SAMPLES / f"{name}.audit.json").read_text(encoding="utf-8"))
    return loaded


def section(html: str, start: str, end: str) -> str:
    """From the tag holding `start` to just before the tag holding `end`."""
    begin = html.rindex("<", 0, html.index(start))
    return html[begin:html.rindex("<", 0, html.index(end))]


def visible_text(html: str) -> str:
    """The words a reader sees: no tags, no drawings (their titles name tile codes), no script."""
    html = re.sub(r"<svg.*?</svg>|<script.*?</script>|<code>.*?</code>", " ", html, flags=re.S)
    # the record's own notes are the platform's words, quoted as such
    html = re.sub(r'<span class="work-line record-note">.*?</span>', " ", html, flags=re.S)
    return re.sub(r"<[^>]+>", " ", html)


def test_the_chinese_page_speaks_the_catalogues_chinese(client: FlaskClient, upload: Upload) -> None:
    for name in ("illegal-wall-tampered", "missettled-rob-paid-by-three", "missettled-burn-not-applied"):
        html = page(client, f"/records/{stored(upload, name)}", lang="zh")
        for finding in audit_of(name)["findings"]:
            assert str(escape(render_finding(finding, "zh", sample_players(name)))) in html, (name, finding["code"])
            assert str(escape(render_finding(finding, "en", sample_players(name)))) not in html, (name, finding["code"])
        english = page(client, f"/records/{stored(upload, name)}", lang="en")
        for finding in audit_of(name)["findings"]:
            assert str(escape(render_finding(finding, "en", sample_players(name)))) in english


def test_the_chinese_summary_and_settlement_have_no_english_words(client: FlaskClient, upload: Upload) -> None:
    record_data = {"Bo", "Lily", "gen", "holdout", "ios", "android", "mini", "program", "PDF", "hands"}
    for name in ("illegal-wall-tampered", "missettled-rob-paid-by-three"):
        html = page(client, f"/records/{stored(upload, name)}", lang="zh")
        summary = section(html, 'id="findings"', 'class="record-facts"')
        assert '<blockquote class="rule-text" lang="zh-CN">' in summary and 'class="rule-text" lang="en"' not in html
        for start, end in (('id="findings"', 'class="record-facts"'), ('id="settlement"', 'id="whatif"')):
            words = set(re.findall(r"[A-Za-z]{2,}", visible_text(section(html, start, end))))
            assert words - record_data == set(), (name, start, sorted(words - record_data))


def test_the_illegal_move_is_drawn_before_and_after_and_the_rest_listed(client: FlaskClient,
                                                                        upload: Upload) -> None:
    html = page(client, f"/records/{stored(upload, 'illegal-wall-tampered')}", lang="zh")
    summary = section(html, 'id="findings"', 'class="record-facts"')
    assert summary.count('<svg') >= 2 and 'class="before"' in summary and 'class="after"' in summary
    assert 'href="#step-21"' in summary and 'id="step-21"' in html
    doc = json.loads((SAMPLES / "illegal-wall-tampered.json").read_text(encoding="utf-8"))
    later = len(doc["events"]) - 22
    assert dispute_text("replay_stopped", "zh", step=21, count=later) in summary
    assert len(re.findall(r'<li value="\d+">', summary)) == later
    assert 'class="before-move"' in section(html, 'id="step-21"', 'id="settlement"')
    # no settlement: the record's claims are not painted as differences
    settlement = section(html, 'id="settlement"', 'id="chickens"')
    assert 'class="differs' not in settlement


def test_every_finding_link_has_its_target(client: FlaskClient, upload: Upload) -> None:
    for name in ("missettled-rob-paid-by-three", "missettled-flip", "missettled-next-dealer", "illegal-pass-locked",
                 "illegal-must-win-hot-shot"):
        html = page(client, f"/records/{stored(upload, name)}", lang="zh")
        summary = section(html, 'id="findings"', 'class="record-facts"')
        targets = re.findall(r'class="to-(?:step|ledger)" href="#([^"]+)"', summary)
        assert targets, name
        for target in targets:
            assert f'id="{target}"' in html, (name, target)


def test_a_match_hand_has_its_matchs_verdict_and_links(client: FlaskClient, upload: Upload) -> None:
    body = (SAMPLES / "illegal-match-dealer.json").read_bytes()
    results = upload(body).get_json()["results"]
    first, second = (int(r["record_id"]) for r in results)
    html = page(client, f"/records/{second}", lang="en")
    assert 'class="verdict verdict-illegal"' in html
    assert "the engine installed now finds" not in html.lower()  # the match's verdict, not the hand's alone
    assert f'href="/records/{first}"' in section(html, 'class="match-nav"', 'id="findings"')
    summary = section(html, 'id="findings"', 'class="record-facts"')
    assert f'class="to-hand" href="/records/{first}"' in summary  # "hand 0" is linked
    zh = section(page(client, f"/records/{second}", lang="zh"), 'id="findings"', 'class="record-facts"')
    assert dispute_text("verdict_match", "zh") in zh and dispute_text("verdict_illegal", "zh") not in zh  # 33.3
    back = page(client, f"/records/{first}", lang="en")
    assert f'rel="next" href="/records/{second}"' in back


def test_a_superseded_revision_says_so_and_links_the_diff(client: FlaskClient, upload: Upload) -> None:
    doc = json.loads((SAMPLES / "missettled-flip.json").read_text(encoding="utf-8"))
    old = stored(upload, "missettled-flip")
    doc["result"]["flip"] = audit_of("missettled-flip")["settlement"]["flip"]
    (result,) = upload(json.dumps(doc).encode()).get_json()["results"]
    new = int(result["record_id"])
    html = page(client, f"/records/{old}", lang="en")
    banner = section(html, 'class="banner superseded"', "</p>")
    assert f'href="/records/{new}"' in banner and f"/records/{old}/diff?with={new}" in banner
    assert 'class="banner superseded"' not in page(client, f"/records/{new}", lang="en")
    diff = page(client, f"/records/{old}/diff", **{"with": str(new)})
    assert "<code>result.flip</code>" in diff
    assert client.get(f"/records/{old}/diff", query_string={"with": "999"}).status_code == 400


def test_the_illegal_page_says_the_payments_have_no_basis_and_how_to_undo_them(client: FlaskClient,
                                                                              upload: Upload) -> None:
    """Issue 20 point 3, on the page an operator reads (zh)."""
    html = page(client, f"/records/{stored(upload, 'illegal-wall-tampered')}", lang="zh")
    doc = json.loads((SAMPLES / "illegal-wall-tampered.json").read_text(encoding="utf-8"))
    assert dispute_text("illegal_no_basis", "zh", seat=seat_label(1, "zh", sample_players("illegal-wall-tampered")),
                        step=21) in html
    first = doc["result"]["scores"][0]
    key = "undo_returns" if first > 0 else "undo_gets_back" if first < 0 else "undo_nothing"
    assert dispute_text(key, "zh", amount=abs(first)) in html and "若撤销记录" in html
