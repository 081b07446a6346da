"""Issue 23 point 2, the case that fills itself in: numbers assigned per platform (editable,
unique per platform), 立案 from the top of the record page with the other revisions attached,
the decision form filled from the disputed audit's ledger differences with payer and payee
chosen from the seats, the disputed revision's audit chosen by default, search showing every
revision, the upload result naming record numbers, and one sign for 差额 on every page and PDF.
Refused forms write nothing; refusals are matched on their `code`, never on wording."""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from records.rows import now
from tests.conftest import dumps, load_example, missettled, variant
from tests.web.test_cases import upload
from tests.web.test_pdf import needs_poppler, text_of

YEAR = now()[:4]
TABLES = ("cases", "case_records", "case_decisions", "trail")


def counts(app: Flask) -> dict[str, int]:
    """Rows of the tables case work writes."""
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in TABLES}
    finally:
        conn.close()


def game(client: FlaskClient, platform: str = "alpha", game_id: str = "G-1") -> tuple[int, int]:
    """A game in two revisions: r1 mis-settled (seat 0 credited one too many, seat 1 one too
    few), then r2 as the rules settle it (the platform's correction)."""
    doc = variant(load_example("hot-shot-weile"), platform=platform, game_id=game_id)
    return upload(client, missettled(doc))["record_id"], upload(client, doc)["record_id"]


def open_from_record(client: FlaskClient, record_id: int, **fields: str) -> Any:
    """The record page's 立案 form as the page fills it (number as suggested), with `fields`."""
    page = client.get(f"/records/{record_id}").get_data(as_text=True)
    form = page[page.index('class="new-case"'):]
    form = form[:form.index("</form>")]
    suggested = re.search(r'name="number_suggested" value="([^"]*)"', form)
    platform = re.search(r'name="platform" value="([^"]*)"', form)
    assert suggested and platform
    data = {"record": str(record_id), "platform": platform.group(1), "number_suggested": suggested.group(1),
            "number": suggested.group(1), "revisions": "all", "player": "", "complaint": "我少收了 1 分", **fields}
    return client.post("/cases", data=data)


def case_id_of(response: Any) -> int:
    assert response.status_code == 303, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


# ----- numbers --------------------------------------------------------------------------------


def test_numbers_are_assigned_per_platform_and_editable(client: FlaskClient) -> None:
    def opened(**body: Any) -> Any:
        return client.post("/api/cases", json={"platform": "alpha", "complaint": "x", **body})
    first = opened()
    assert first.status_code == 201 and first.get_json()["number"] == f"{YEAR}-0001"
    assert opened(number="").get_json()["number"] == f"{YEAR}-0002"
    assert opened(platform="beta").get_json()["number"] == f"{YEAR}-0001"  # each platform its own sequence
    assert opened(number="投诉-7").status_code == 201  # typed by hand: kept as typed
    assert opened(number=f"{YEAR}-0041").status_code == 201
    assert opened().get_json()["number"] == f"{YEAR}-0042"  # the sequence never lands on a taken number
    taken = opened(number=f"{YEAR}-0001")
    assert taken.status_code == 409 and taken.get_json()["code"] == "case_number_taken"
    assert "number" in taken.get_json()["details"]
    assert opened(platform="beta", number="投诉-7").status_code == 201  # unique per platform only


def test_the_form_shows_the_next_number_and_takes_the_next_free_one(app: Flask, client: FlaskClient) -> None:
    first, _ = game(client)
    page = client.get(f"/records/{first}").get_data(as_text=True)
    assert f'value="{YEAR}-0001"' in page
    # another operator opens a case meanwhile: the suggested number is taken, the form's case gets the next
    assert client.post("/api/cases", json={"platform": "alpha", "complaint": "y"}).get_json()["number"] == f"{YEAR}-0001"
    case = client.get(f"/api/cases/{case_id_of(open_from_record(client, first, number=f'{YEAR}-0001', number_suggested=f'{YEAR}-0001'))}").get_json()
    assert case["number"] == f"{YEAR}-0002"
    typed = client.get(f"/api/cases/{case_id_of(open_from_record(client, first, number='K-77'))}").get_json()
    assert typed["number"] == "K-77"
    before = counts(app)
    again = open_from_record(client, first, number="K-77")
    assert again.status_code == 409 and 'data-code="case_number_taken"' in again.get_data(as_text=True)
    assert counts(app) == before


# ----- opening from the record page -----------------------------------------------------------


def test_open_from_the_top_of_the_record_page(client: FlaskClient) -> None:
    disputed, newer = game(client)
    page = client.get(f"/records/{disputed}").get_data(as_text=True)
    verdict, answer = page.find('class="verdict'), page.find('id="findings"')
    differences, bar = page.find('class="dispute-seats"'), page.find('class="record-cases"')
    assert 0 < verdict < answer < differences < bar  # the answer first, the case bar after it (issue 33.3)
    assert '<option value="P1">1号位 P1</option>' in page  # the player chosen from the seats
    case_id = case_id_of(open_from_record(client, disputed, player="P1"))
    case = client.get(f"/api/cases/{case_id}").get_json()
    assert [r["id"] for r in case["records"]] == [disputed, newer]  # the other revision attached too
    assert case["disputed_record"] == disputed and case["player"] == "P1"
    disputed_audit = case["records"][0]["latest_audit_id"]
    assert case["basis_audit"] == disputed_audit != case["records"][1]["latest_audit_id"]
    page = client.get(f"/cases/{case_id}").get_data(as_text=True)
    assert f'<option value="{disputed_audit}" selected>' in page  # 依据哪次审计: the disputed revision's


def test_without_other_revisions_only_the_record(client: FlaskClient) -> None:
    disputed, _ = game(client)
    case_id = case_id_of(open_from_record(client, disputed, revisions=""))
    assert [r["id"] for r in client.get(f"/api/cases/{case_id}").get_json()["records"]] == [disputed]
    page = client.get(f"/cases/{case_id}").get_data(as_text=True)
    assert 'class="attach-revision"' in page  # the other revision one click away


@pytest.mark.parametrize("fields, status, code", [
    ({"complaint": "  "}, 400, "case_complaint_missing"),
    ({"record": "99999"}, 404, "case_record_missing"),
    ({"platform": "beta"}, 400, "case_other_platform"),  # the record is alpha's: no case is left behind
    ({"record": "x"}, 400, "number_not_digits"),
])
def test_refused_opening_writes_nothing(app: Flask, client: FlaskClient, fields: dict[str, str], status: int,
                                        code: str) -> None:
    disputed, _ = game(client)
    before = counts(app)
    refused = open_from_record(client, disputed, **fields)
    assert refused.status_code == status and f'data-code="{code}"' in refused.get_data(as_text=True)
    assert counts(app) == before


def test_attach_by_number_looks_on_the_records_platform(app: Flask, client: FlaskClient) -> None:
    alpha, _ = game(client)
    beta, _ = game(client, platform="beta", game_id="G-b")
    client.post("/api/cases", json={"platform": "beta", "number": "K-1", "complaint": "x"})
    before = counts(app)
    refused = client.post("/cases/attach", data={"number": "K-1", "record": str(alpha)})
    assert refused.status_code == 404 and 'data-code="case_number_unknown"' in refused.get_data(as_text=True)
    assert counts(app) == before
    assert client.post("/cases/attach", data={"number": "K-1", "record": str(beta)}).status_code == 303


# ----- the decision form ----------------------------------------------------------------------


def form_rows(page: str) -> list[tuple[str, str, str]]:
    """The decision form's payment rows as (payer, payee, amount) selected/filled."""
    rows = []
    for row in re.findall(r'<tr class="payment-row[^"]*">(.*?)</tr>', page, re.S):
        chosen = re.findall(r'<option value="([^"]*)" selected>', row)
        amount = re.search(r'name="amount"[^>]*value="([^"]*)"', row)
        rows.append((*(chosen + ["", ""])[:2], amount.group(1) if amount else ""))
    return rows


def test_the_decision_form_is_filled_from_the_disputed_audit(client: FlaskClient) -> None:
    disputed, newer = game(client)
    case_id = case_id_of(open_from_record(client, disputed))
    body = client.get(f"/api/cases/{case_id}").get_json()
    assert body["suggested"]["basis"] == "totals"
    assert [(p["from_seat"], p["to_seat"], p["amount"]) for p in body["suggested"]["payments"]] == [(0, 1, 1)]
    page = client.get(f"/cases/{case_id}").get_data(as_text=True)
    assert form_rows(page) == [("0号位 P0", "1号位 P1", "1"), ("", "", "")]  # the row, and one empty
    assert "依据审计 #" in page and "0号位 P0 付给 1号位 P1 1 分" in page  # the note offered
    # from the newer (correct) revision's audit nothing is owed
    other = body["records"][1]["latest_audit_id"]
    page = client.get(f"/cases/{case_id}", query_string={"audit": other}).get_data(as_text=True)
    assert form_rows(page) == [("", "", "")] and f'<option value="{other}" selected>' in page
    assert len(form_rows(client.get(f"/cases/{case_id}", query_string={"rows": 4}).get_data(as_text=True))) == 5
    # submitted as offered: stored with the seats' labels
    note = re.search(r'<textarea name="note"[^>]*>([^<]*)</textarea>', page)
    assert note is not None
    decided = client.post(f"/cases/{case_id}/decision", data={
        "outcome": "upheld", "note": "按审计结算", "audit": str(body["basis_audit"]),
        "from": ["0号位 P0", ""], "to": ["1号位 P1", ""], "amount": ["1", ""], "confirm": "yes"})
    assert decided.status_code == 303
    decision = client.get(f"/api/cases/{case_id}").get_json()["decision"]
    assert decision["payments"] == [{"from": "0号位 P0", "to": "1号位 P1", "amount": 1}]
    assert decision["audit_id"] == body["basis_audit"]
    assert newer  # both revisions attached


@pytest.mark.parametrize("rows, code", [
    ({"from": ["老王"], "to": ["1号位 P1"], "amount": ["1"]}, "case_payment_seat_unknown"),
    ({"from": ["0号位 P0"], "to": [""], "amount": ["1"]}, "case_payment_incomplete"),
    ({"from": ["0号位 P0"], "to": ["1号位 P1"], "amount": ["一"]}, "number_not_digits"),
    ({"from": ["0号位 P0"], "to": ["0号位 P0"], "amount": ["1"]}, "case_payment_to_self"),
    ({"from": [""], "to": [""], "amount": [""], "note": " "}, "case_note_missing"),
    ({"from": [""], "to": [""], "amount": [""], "audit": "999999"}, "case_audit_not_attached"),
])
def test_refused_decisions_write_nothing(app: Flask, client: FlaskClient, rows: dict[str, Any], code: str) -> None:
    disputed, _ = game(client)
    case_id = case_id_of(open_from_record(client, disputed))
    before = counts(app)
    form = {"outcome": "upheld", "note": "按审计", "audit": "", **rows}
    refused = client.post(f"/cases/{case_id}/decision", data=form)
    assert refused.status_code in (400, 409)
    html = refused.get_data(as_text=True)
    assert f'data-code="{code}"' in html or code == "case_note_missing" and refused.status_code == 400, html[-2000:]
    assert counts(app) == before
    # the case page again, the form as sent, the refusal beside its field (issue 33)
    assert 'data-field=' in html and '<form class="decide"' in html
    form_part = html[html.index('<form class="decide"'):]
    assert form_part.index('data-field=') < form_part.index("</form>")
    if form["note"].strip():
        assert f'>{form["note"]}</textarea>' in form_part
    api = client.post(f"/api/cases/{case_id}/decision", json={"outcome": "upheld", "note": "x", "audit": 999999})
    assert api.status_code == 400 and api.get_json()["code"] == "case_audit_not_attached"


def test_refusals_speak_the_requests_language(client: FlaskClient) -> None:
    client.post("/api/cases", json={"platform": "alpha", "number": "K-1", "complaint": "x"})
    zh = client.post("/api/cases?lang=zh", json={"platform": "alpha", "number": "K-1", "complaint": "x"}).get_json()
    en = client.post("/api/cases?lang=en", json={"platform": "alpha", "number": "K-1", "complaint": "x"}).get_json()
    assert zh["code"] == en["code"] == "case_number_taken" and zh["message"] != en["message"]
    assert re.search(r"[\u4e00-\u9fff]", zh["message"]) and not re.search(r"[\u4e00-\u9fff]", en["message"])


# ----- search and upload ----------------------------------------------------------------------


def test_a_new_revision_does_not_hide_the_disputed_one_in_search(client: FlaskClient) -> None:
    disputed, newer = game(client)
    found = client.get("/api/records", query_string={"q": "G-1"}).get_json()
    assert {row["id"] for row in found["records"]} == {disputed, newer}
    current = client.get("/api/records", query_string={"q": "G-1", "revisions": "current"}).get_json()
    assert [row["id"] for row in current["records"]] == [newer]
    assert [row["id"] for row in client.get("/api/records").get_json()["records"]] == [newer]  # browsing: current
    page = client.get("/records", query_string={"q": "g-1"}).get_data(as_text=True)
    assert f"#{disputed}" in page and "旧版本" in page


def test_the_upload_result_names_the_record_numbers(client: FlaskClient) -> None:
    doc = variant(load_example("hot-shot-weile"), platform="alpha", game_id="G-up")
    from io import BytesIO
    response = client.post("/upload", data={"files": (BytesIO(dumps(doc)), "one.json")},
                           content_type="multipart/form-data")
    page = response.get_data(as_text=True)
    record_id = client.get("/api/records", query_string={"q": "G-up"}).get_json()["records"][0]["id"]
    assert f'href="/records/{record_id}#cases">记录 #{record_id}</a>' in page


# ----- one sign -------------------------------------------------------------------------------

HEADING = "差额 = 记录 − 审计"


def cells_after(html: str, heading: str) -> list[str]:
    """The cells of the column under `heading` in the first table that has it."""
    start = html.index(heading)
    table = html[html.rfind("<table", 0, start):html.index("</table>", start)]
    heads = re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)
    column = next(i for i, h in enumerate(heads) if heading in h)
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table[table.index("<tbody"):], re.S)
    return [re.sub(r"<[^>]+>", "", re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[column]).strip() for row in rows]


def test_one_sign_on_the_record_page_and_the_case_page(client: FlaskClient) -> None:
    disputed, _ = game(client)  # seat 0 credited one too many: record − audit = +1, seat 1: -1
    record_page = client.get(f"/records/{disputed}").get_data(as_text=True)
    assert cells_after(record_page, HEADING)[:2] == ["+1", "-1"]
    case_id = case_id_of(open_from_record(client, disputed))
    case_page = client.get(f"/cases/{case_id}").get_data(as_text=True)
    assert cells_after(case_page, HEADING)[:2] == ["+1", "-1"]
    english = client.get(f"/cases/{case_id}", query_string={"lang": "en"}).get_data(as_text=True)
    assert cells_after(english, "difference = record − audit")[:2] == ["+1", "-1"]


@needs_poppler
def test_one_sign_in_the_pdfs(client: FlaskClient, tmp_path: Path) -> None:
    disputed, _ = game(client)
    case_id = case_id_of(open_from_record(client, disputed))
    for name, url in (("case", f"/cases/{case_id}.pdf"), ("record", f"/records/{disputed}.pdf")):
        path = tmp_path / f"{name}.pdf"
        path.write_bytes(client.get(url).data)
        text = text_of(path)
        assert HEADING in text, name
        rows = re.findall(r"^\s*0号位 P0\s+[+-]?\d+\s+[+-]?\d+\s+(\S+)\s*$", text, re.M)
        # seat 0's difference wherever it is shown: +1 on r1 (the case sheet, then its report), 0 on r2
        assert rows and rows[0] == "+1" and set(rows) <= {"+1", "0"}, (name, rows)


def test_no_template_or_page_module_subtracts_scores_itself() -> None:
    """Every difference is report.dispute.difference (templates call signed_difference); a
    subtraction of claimed and computed values anywhere else would be a second sign."""
    root = Path(__file__).resolve().parents[2]
    pattern = re.compile(r"\b(comp|computed|claim|claimed|mine|theirs)\w*\s*-\s*\(?\s*(comp|computed|claim|claimed|"
                         r"mine|theirs)\b")
    offenders = []
    for path in [*root.glob("templates/**/*.html"), *root.glob("web/**/*.py"), *root.glob("report/*.py")]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line) and path.name != "dispute.py":
                offenders.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    assert offenders == []


def _outcome_selected(page: str) -> str | None:
    select = page[page.index('<select name="outcome"'):]
    select = select[:select.index("</select>")]
    found = re.search(r'<option value="([^"]*)" selected>', select)
    return found.group(1) if found else None


@pytest.mark.parametrize("player, outcome, sign", [("P1", "upheld", "-1"), ("P0", "dismissed", "1"), ("", None, None)])
def test_the_outcome_follows_the_complainants_difference(client: FlaskClient, player: str, outcome: str | None,
                                                         sign: str | None) -> None:
    """Issue 33.1b: r1 credits P0 one too many and P1 one too few. P1's 差额 (记录 − 审计) is −1: the record
    gave them less, the complaint stands (投诉成立); P0's is +1: the record gave them more, so their
    complaint is dismissed (the form said 投诉成立 whatever the audit said); no complainant: no choice."""
    disputed, _ = game(client)
    case_id = case_id_of(open_from_record(client, disputed, player=player, revisions=""))
    page = client.get(f"/cases/{case_id}").get_data(as_text=True)
    assert _outcome_selected(page) == outcome
    assert '<option value="">' in page[page.index('<select name="outcome"'):]  # nothing chosen for the operator
    if sign is not None:
        assert f'data-difference="{sign}"' in page


def test_recording_and_closing_ask_first_restating_the_decision(app: Flask, client: FlaskClient) -> None:
    """Issue 33.1b: 记录裁定 and 结案 show the decision in words (outcome, audit, payments, note) with one
    button; nothing is written until it is pressed. An outcome against the complainant's 差额 is warned."""
    disputed, _ = game(client)
    case_id = case_id_of(open_from_record(client, disputed, player="P0", revisions=""))
    basis = client.get(f"/api/cases/{case_id}").get_json()["basis_audit"]
    form = {"outcome": "upheld", "note": "按审计", "audit": str(basis),
            "from": ["1号位 P1", ""], "to": ["0号位 P0", ""], "amount": ["1", ""]}
    before = counts(app)
    asked = client.post(f"/cases/{case_id}/decision", data=form)
    assert asked.status_code == 200 and counts(app) == before
    page = asked.get_data(as_text=True)
    restated = page[page.index('class="restated"'):page.index("</section>")]
    assert "投诉成立" in restated and "1号位 P1 付给 0号位 P0 1 分" in restated and "按审计" in restated
    assert 'data-code="outcome_against_difference"' in restated  # P0 was given one too many
    hidden = dict(re.findall(r'<input type="hidden" name="(outcome|note|audit|confirm)" value="([^"]*)"', page))
    assert hidden == {"outcome": "upheld", "note": "按审计", "audit": str(basis), "confirm": "yes"}
    done = client.post(f"/cases/{case_id}/decision", data={**form, "outcome": "dismissed", "confirm": "yes"})
    assert done.status_code == 303 and client.get(f"/api/cases/{case_id}").get_json()["status"] == "decided"
    asked = client.post(f"/cases/{case_id}/close")
    assert asked.status_code == 200 and "投诉不成立" in asked.get_data(as_text=True)
    assert client.get(f"/api/cases/{case_id}").get_json()["status"] == "decided"
    assert client.post(f"/cases/{case_id}/close", data={"confirm": "yes"}).status_code == 303
    assert client.get(f"/api/cases/{case_id}").get_json()["status"] == "closed"


def test_record_and_close_in_one_confirmation(app: Flask, client: FlaskClient) -> None:
    disputed, _ = game(client)
    case_id = case_id_of(open_from_record(client, disputed, player="P1", revisions=""))
    form = {"outcome": "upheld", "note": "按审计", "audit": "", "from": ["0号位 P0"], "to": ["1号位 P1"],
            "amount": ["1"], "confirm": "yes", "close": "yes"}
    assert 'name="close" value="yes"' in client.post(f"/cases/{case_id}/decision",
                                                     data={**form, "confirm": ""}).get_data(as_text=True)
    assert client.post(f"/cases/{case_id}/decision", data=form).status_code == 303
    case = client.get(f"/api/cases/{case_id}").get_json()
    assert case["status"] == "closed" and case["decision"]["outcome"] == "upheld"


def test_a_search_by_a_player_shows_their_difference_per_hand(client: FlaskClient) -> None:
    """Issue 33.3: searched by a player (the search box or the player filter), the list shows that
    player's 差额 (记录 − 审计) on each hand: P1 was given one too few on r1 (−1), nothing on r2 (0)."""
    disputed, newer = game(client)
    for query in ({"q": "P1"}, {"player": "P1"}):
        page = client.get("/records", query_string={**query, "revisions": "all", "lang": "zh"}).get_data(as_text=True)
        cells = dict(re.findall(r'href="/records/(\d+)">#\d+</a></td>.*?class="amount player-difference[^"]*">([^<]*)</td>',
                                page, re.S))
        assert cells == {str(disputed): "-1", str(newer): "0"}, (query, cells)
        assert "P1 · 差额" in page
    plain = client.get("/records", query_string={"lang": "zh"}).get_data(as_text=True)
    assert "player-difference" not in plain


def test_the_differing_rows_are_marked_and_every_ledger_link_lands(client: FlaskClient) -> None:
    """Issue 33.3: on a score-only dispute the ledger rows the readings name are marked (as PDF page 1
    lists them), and a reading's payment the rules do not make gets its own marked row, so every
    `账目` link of a finding lands on an element of the page."""
    disputed, _ = game(client)
    html = client.get(f"/records/{disputed}", query_string={"lang": "zh"}).get_data(as_text=True)
    links = set(re.findall(r'class="to-ledger" href="#([^"]+)"', html))
    assert links
    for anchor in links:
        assert re.search(rf'id="{re.escape(anchor)}"', html), anchor
    payment_rows = [a for a in links if a.startswith("ledger-")]
    assert payment_rows
    for anchor in payment_rows:
        row = re.search(rf'<tr id="{re.escape(anchor)}" class="([^"]*)"', html)
        assert row is not None and "differs" in row.group(1), anchor
    assert "记录的得分相当于此处付" in html


def test_a_refused_attach_answers_beside_the_attach_form(app: Flask, client: FlaskClient) -> None:
    """Issue 33: bad input in the case page's attach form is a Chinese message beside that form, the
    typed value kept, nothing stored."""
    disputed, _ = game(client)
    case_id = case_id_of(open_from_record(client, disputed, revisions=""))
    before = counts(app)
    for typed, status, code in (("x", 400, "number_not_digits"), ("999999", 404, "case_record_missing")):
        refused = client.post(f"/cases/{case_id}/records", data={"record": typed}, query_string={"lang": "zh"})
        html = refused.get_data(as_text=True)
        assert refused.status_code == status and f'data-code="{code}"' in html, (typed, refused.status_code)
        form = html[html.index('<form class="attach"'):]
        form = form[:form.index("</form>")]
        assert "data-field=" in form and f'name="record" required size="8" inputmode="numeric" placeholder="#" value="{typed}"' in form
    assert counts(app) == before


def test_a_refused_case_opening_answers_beside_the_form_on_the_record_page(app: Flask, client: FlaskClient) -> None:
    """Issue 33: the record page's 立案 and 加入案件 forms refused (no complaint, a number taken, no such
    case) answer with the record page again, the refusal beside the form, what was typed kept."""
    disputed, _ = game(client)
    before = counts(app)
    refused = open_from_record(client, disputed, complaint="  ", player="P1")
    html = refused.get_data(as_text=True)
    assert refused.status_code == 400 and 'data-code="case_complaint_missing"' in html
    form = html[html.index('<form class="new-case"'):]
    form = form[:form.index("</form>")]
    assert "data-field=" in form and '<option value="P1" selected>' in form
    again = client.post("/cases/attach", data={"number": "无此案", "record": str(disputed)})
    html = again.get_data(as_text=True)
    assert again.status_code == 404 and 'data-code="case_number_unknown"' in html
    attach = html[html.index('<form class="attach"'):]
    assert "data-field=" in attach[:attach.index("</form>")] and 'value="无此案"' in attach
    assert counts(app) == before
