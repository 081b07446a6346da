"""`GET /records/<id>.pdf` and `GET /overview.pdf`: WeasyPrint output read back with poppler
(pdftotext, pdfinfo, pdffonts). Those checks skip, naming the tool, where poppler-utils is
missing (scripts/install-system.sh installs it with the CJK font).

The record's PDF is evidence for a reader who was not at the table: page 1 carries the
dispute (verdict, each seat's difference, the findings in the page's language) and what the
document is evidence of (engine, audit, export time, sha256, the case); every page names the
game and its page n/N; a typical hand takes at most 8 pages."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import zlib
from pathlib import Path
from typing import Any, Callable

import pytest
from flask import g
from flask.testing import FlaskClient

from audit import render
from audit.api import trace_record
from audit.catalogue import render_finding, seat_label
from audit.rulebook import rule_text
from report.dispute import text as dispute_text
from web import report
from web.pdf.contents import drawn_steps
from report.model import key_steps
from tests.conftest import ROOT
from tests.helpers import sample_players
from tests.web.english import ALLOWED
from records.clock import parse_zone, shown

Upload = Callable[..., Any]
needs_poppler = pytest.mark.skipif(any(shutil.which(tool) is None for tool in ("pdftotext", "pdfinfo", "pdffonts")),
                                   reason="pdftotext/pdfinfo/pdffonts not installed (Debian poppler-utils; "
                                          "run scripts/install-system.sh)")


def stored(upload: Upload, name: str) -> int:
    """Upload a sample record; its record id."""
    (result,) = upload((ROOT / "samples" / f"{name}.json").read_bytes()).get_json()["results"]
    return int(result["record_id"])


def pdf_of(client: FlaskClient, url: str, tmp_path: Path, **query: str) -> Path:
    """Fetch a PDF, check the response, and keep it in a file for poppler."""
    response = client.get(url, query_string=query)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert response.mimetype == "application/pdf" and response.data.startswith(b"%PDF-")
    assert response.headers["Content-Disposition"].startswith("inline; filename=")
    path = tmp_path / "out.pdf"
    path.write_bytes(response.data)
    return path


def text_of(path: Path) -> str:
    """The PDF's text in reading order."""
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout


def pages_of(path: Path) -> int:
    """The page count pdfinfo reports."""
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True).stdout
    match = re.search(r"^Pages:\s+(\d+)", info, re.M)
    assert match, info
    return int(match.group(1))


_STREAM = re.compile(rb"\d+ 0 obj\s*<<(.*?)>>\s*stream\r?\n", re.S)


def streams_of(pdf: bytes) -> list[tuple[bytes, bytes]]:
    """(dictionary, decoded content) of every stream object in a PDF (WeasyPrint writes each
    with a direct /Length, Flate-compressed or raw)."""
    found = []
    for match in _STREAM.finditer(pdf):
        head = match[1]
        length = re.search(rb"/Length (\d+)", head)
        assert length, head
        body = pdf[match.end():match.end() + int(length[1])]
        found.append((head, zlib.decompress(body) if b"/FlateDecode" in head else body))
    return found


def placements(pdf: bytes) -> tuple[int, int]:
    """How many times the pages place a form XObject (`/x12 Do`), and how many forms there are:
    a tile is drawn once into a form and placed by reference (web.pdf.forms)."""
    streams = streams_of(pdf)
    forms = [content for head, content in streams if b"/Subtype /Form" in head]
    pages = [content for head, content in streams if b"/Subtype" not in head and b"/Length1" not in head]
    return sum(len(re.findall(rb"/x\d+ Do\b", content)) for content in pages), len(forms)


def pieces_of(name: str) -> int:
    """What the hand of a sample places: the whole table of every key step, the deal and the last
    (`web.pdf.contents.drawn_steps`); the other events are words (issue 23.6)."""
    steps = trace_record(json.loads((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8"))).steps
    slots, keys = render.discard_slots(steps), drawn_steps(steps, key_steps(steps))
    return sum(len(render.table_picture(step, discard_slots=slots).pieces) for step in steps if step.index in keys)


def page_texts(path: Path) -> list[str]:
    """The text of each page, in order."""
    return [subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(path), "-"], check=True,
                           capture_output=True, text=True).stdout for page in range(1, pages_of(path) + 1)]


def fonts_of(path: Path) -> list[str]:
    """The names of the fonts pdffonts lists, without their subset prefix (`ABCDEF+`)."""
    lines = subprocess.run(["pdffonts", str(path)], check=True, capture_output=True, text=True).stdout.splitlines()
    return [line.split()[0].split("+", 1)[-1] for line in lines[2:] if line.strip()]


def test_pdf_is_served_for_a_record(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    record_id = stored(upload, "clean-weile-hot-shot")
    path = pdf_of(client, f"/records/{record_id}.pdf", tmp_path)
    assert path.stat().st_size > 10_000
    assert 'filename="clean-weile-hot-shot.r1.pdf"' in client.get(f"/records/{record_id}.pdf").headers[
        "Content-Disposition"]


def audit_of(client: FlaskClient, record_id: int) -> dict[str, Any]:
    """The stored audit's contract JSON."""
    audit: dict[str, Any] = client.get(f"/api/records/{record_id}/audit").get_json()
    return audit


def squeezed(text: str) -> str:
    """Text without whitespace: pdftotext breaks lines where the page does."""
    return re.sub(r"\s+", "", text)


@needs_poppler
@pytest.mark.parametrize("name, verdict", [("illegal-pass-locked", "违规"), ("missettled-rob-paid-by-three", "结算有误"),
                                           ("missettled-burn-not-applied", "结算有误")])
def test_the_dispute_is_on_page_one(client: FlaskClient, upload: Upload, tmp_path: Path, name: str,
                                    verdict: str) -> None:
    record_id = stored(upload, name)
    first = page_texts(pdf_of(client, f"/records/{record_id}.pdf", tmp_path))[0]
    flat = squeezed(first)
    assert verdict in first and "争议摘要" in first and "差额=记录−审计" in flat  # the one sign, its formula in the head (issue 23)
    audit = audit_of(client, record_id)
    assert audit["findings"]
    for finding in audit["findings"]:  # every finding as the catalogue's Chinese sentence
        assert squeezed(render_finding(finding, "zh", sample_players(name))) in flat, finding["code"]
    claimed = json.loads((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8"))["result"]["scores"]
    computed = (audit.get("settlement") or {}).get("scores")
    if computed is not None:  # each seat's row: computed, claimed, and record − audit
        for seat, (mine, theirs) in enumerate(zip(computed, claimed)):
            cells = [f"{v:+d}" if v else "0" for v in (mine, theirs, theirs - mine)]
            assert re.search(rf"{seat}号位( \S+)?\s+" + r"\s+".join(re.escape(c) for c in cells) + r"\b", first), (seat, cells)
    else:  # an illegal hand: its payments have no basis, and what undoing them means (issue 20, point 3)
        illegal = next(f for f in audit["findings"] if f["kind"] == "illegal")
        assert squeezed(dispute_text("illegal_no_basis", "zh", seat=seat_label(illegal["seat"], "zh", sample_players(name)), step=illegal["step"])) in flat
        assert "若撤销记录" in first


@needs_poppler
def test_an_illegal_move_is_drawn_before_and_after_on_page_one(client: FlaskClient, upload: Upload,
                                                              tmp_path: Path) -> None:
    record_id = stored(upload, "illegal-pass-locked")
    first = squeezed(page_texts(pdf_of(client, f"/records/{record_id}.pdf", tmp_path))[0])
    assert "这一步之前" in first and "按记录执行这一步之后" in first and "过胡与过碰R13.1" in first


@needs_poppler
@pytest.mark.parametrize("name, most", [("clean-kuhu-triple", 8), ("missettled-rob-paid-by-three", 8),
                                        ("clean-weile-rob-double", 8)])
def test_a_typical_hand_takes_at_most_eight_pages_each_headed(client: FlaskClient, upload: Upload,
                                                             tmp_path: Path, name: str, most: int) -> None:
    record_id = stored(upload, name)
    pages = page_texts(pdf_of(client, f"/records/{record_id}.pdf", tmp_path))
    assert 1 < len(pages) <= most
    for number, text in enumerate(pages, 1):  # the margin boxes: the game id, page n/N
        assert name in text and re.search(rf"\b{number}\s*/\s*{len(pages)}\b", text), number
    events = len(json.loads((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8"))["events"])
    whole = "".join(pages)
    assert all(f"第 {step} 步" in whole for step in range(events))  # one line per event, none left out


@needs_poppler
def test_the_first_page_says_what_it_is_evidence_of(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    record_id = stored(upload, "missettled-burn-not-applied")
    detail = client.get(f"/api/records/{record_id}").get_json()
    (row,) = client.get(f"/api/records/{record_id}/audits").get_json()
    before = client.get(f"/api/records/{record_id}/trail").get_json()
    path = pdf_of(client, f"/records/{record_id}.pdf", tmp_path)
    first, *rest = page_texts(path)
    east = parse_zone("+08:00")  # every time on the sheet is on the service's clock, the zone named once
    assert row["engine_version"] in first and f"第 {row['id']} 号" in first
    assert shown(row["created_at"], east) in first and first.count("UTC+08:00") == 1
    assert detail["sha256"] in first and "案件" not in first  # no note, no case
    exported = re.search(r"导出时间\s+(\S+ \S+)", first)
    after = client.get(f"/api/records/{record_id}/trail").get_json()[0]["at"]
    assert exported and shown(before[0]["at"], east)[:19] <= exported[1] <= shown(after, east)[:19]
    assert not any(detail["sha256"] in page for page in rest)

    for case, decision in (("2026-0042", "open"), (None, "confirmed")):  # a note names a case number only
        note = {"text": "玩家申诉", "decision": decision, **({"case_number": case} if case else {})}
        assert client.post(f"/api/records/{record_id}/notes", json=note).status_code == 201
    first = page_texts(pdf_of(client, f"/records/{record_id}.pdf", tmp_path))[0]
    assert re.search(r"案件\s+2026-0042 · 处理结论：–", first) and "已确认" not in first  # no note's label (33.5)
    case = client.post("/api/cases", json={"platform": detail["platform"], "number": "K-9", "complaint": "x"}).get_json()
    assert client.post(f"/api/cases/{case['id']}/records", json={"record": record_id}).status_code in (200, 201)
    first = page_texts(pdf_of(client, f"/records/{record_id}.pdf", tmp_path))[0]
    assert re.search(r"案件\s+K-9 · 处理结论：待处理", first)  # the case's status while undecided
    assert client.post(f"/api/cases/{case['id']}/decision", json={"outcome": "upheld", "note": "n"}).status_code == 201
    first = page_texts(pdf_of(client, f"/records/{record_id}.pdf", tmp_path))[0]
    assert re.search(r"案件\s+K-9 · 处理结论：投诉成立", first)  # its standing decision's outcome


@needs_poppler
@pytest.mark.parametrize("name", ["illegal-pass-locked", "missettled-rob-paid-by-three", "missettled-burn-not-applied"])
def test_the_chinese_pdf_has_no_english(client: FlaskClient, upload: Upload, tmp_path: Path, name: str) -> None:
    record_id = stored(upload, name)
    text = text_of(pdf_of(client, f"/records/{record_id}.pdf", tmp_path))
    flat = squeezed(text)
    for finding in audit_of(client, record_id)["findings"]:
        assert squeezed(render_finding(finding, "zh", sample_players(name))) in flat
        assert squeezed(render_finding(finding, "en", sample_players(name))) not in flat
    detail = client.get(f"/api/records/{record_id}").get_json()
    data = " ".join([detail["game_id"], detail["platform"] or "", detail["client"] or "", detail["sha256"],
                     *(f"{s['name']} {s['player_id']}" for s in detail["seats"])])
    words = set(re.findall(r"[A-Za-z]{2,}", text)) - set(re.findall(r"[A-Za-z]{2,}", data)) - {"SHA"} - ALLOWED
    assert words == set()  # only the record's own names and the pages' allowed words (UTC) are in Latin letters
    english = text_of(pdf_of(client, f"/records/{record_id}.pdf", tmp_path, lang="en"))
    assert "Dispute summary" in english and "The whole hand" in english
    for finding in audit_of(client, record_id)["findings"]:
        assert squeezed(render_finding(finding, "en", sample_players(name))) in squeezed(english)


@needs_poppler
def test_one_font_family(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    record_id = stored(upload, "missettled-rob-paid-by-three")
    for lang in ("zh", "en"):
        fonts = fonts_of(pdf_of(client, f"/records/{record_id}.pdf", tmp_path, lang=lang))
        assert fonts and all(font.startswith("WenQuanYi-Micro-Hei") and "Mono" not in font for font in fonts), fonts


@needs_poppler
def test_pdf_text_has_patterns_rules_and_the_ledger(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    record_id = stored(upload, "missettled-burn-not-applied")
    text = text_of(pdf_of(client, f"/records/{record_id}.pdf", tmp_path))
    for fragment in ("平胡", "热炮 R8.3", "结算", "全局回放", "下局庄家"):
        assert fragment in text, fragment


@needs_poppler
def test_pdf_of_an_illegal_hand_quotes_the_rule(client: FlaskClient, upload: Upload, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    drawings: dict[str, str] = {}
    typeset = report.pdf_response

    def keeping_drawings(html: str, filename: str) -> Any:
        drawings.update(g.get("pdf_images", {}))
        return typeset(html, filename)

    monkeypatch.setattr(report, "pdf_response", keeping_drawings)
    record_id = stored(upload, "illegal-pass-locked")
    text = squeezed(text_of(pdf_of(client, f"/records/{record_id}.pdf", tmp_path)))
    rule = rule_text("R13.1", "zh")
    assert rule is not None and rule.lang == "zh"
    assert "过胡与过碰R13.1" in text and squeezed(rule.text)[:60] in text  # the rule's Chinese text
    (locked,) = [f for f in audit_of(client, record_id)["findings"] if f["code"] == "win_pass_locked"]
    assert locked["rule"] == "R13.1" and squeezed(render_finding(locked, "zh", sample_players("illegal-pass-locked"))) in text
    assert any('class="badge"' in svg and ">过</text>" in svg for svg in drawings.values())  # seat 2 pass-locked


def test_pdf_draws_every_event_and_the_key_steps(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    record_id = stored(upload, "clean-cuocuo-long")  # 79 events, no finding: no step stands out
    pdf = pdf_of(client, f"/records/{record_id}.pdf", tmp_path).read_bytes()
    placed, forms = placements(pdf)
    expected = pieces_of("clean-cuocuo-long")
    # every key step's table: a table left out places fewer pieces; the few extra are the chickens
    assert expected <= placed <= expected + 12, (placed, expected)
    assert forms * 8 < placed  # each distinct tile or label drawn once, however often placed


@needs_poppler
def test_overview_pdf(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    for name in ("clean-weile-hot-shot", "missettled-burn-not-applied", "illegal-pass-locked"):
        stored(upload, name)
    path = pdf_of(client, "/overview.pdf", tmp_path)
    text = text_of(path)
    assert pages_of(path) >= 1
    assert "总览" in text and "各平台结论" in text and "热炮 R8" in text and "sample-platform" in text


@needs_poppler
def test_the_overview_pdf_wastes_no_page(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    """Issue 33.6: the daily chart (29 days, the last the busiest) drawn on page 1 under the title,
    not pushed to page 2 leaving a page with a title alone; the every-day table in two columns, so
    no page holds only zeros; every page but the last well filled."""
    base = json.loads((ROOT / "samples" / "clean-weile-hot-shot.json").read_text(encoding="utf-8"))
    for day, count in {"01": 1, "02": 1, "05": 1, "11": 1, "15": 1, "17": 2, "21": 1, "24": 1, "29": 6}.items():
        for n in range(count):
            doc = {**base, "game_id": f"nov-{day}-{n}", "played_at": f"2026-11-{day}T20:{10 + n}:00+08:00"}
            assert upload(json.dumps(doc, ensure_ascii=False).encode("utf-8")).status_code == 201
    pages = [re.sub(r"\s+", "", text) for text in page_texts(pdf_of(client, "/overview.pdf", tmp_path))]
    assert "每日结论" in pages[0] and "图中画出全部29天（其中9天有牌局）" in pages[0]
    assert len(pages) <= 3
    fullest = max(len(text) for text in pages)
    assert all(len(text) > fullest * 0.5 for text in pages[:-1]), [len(text) for text in pages]
    assert len(pages[-1]) > 150  # the last page holds a chart and its table, not a stray line


def test_pdf_of_an_unknown_record_is_404(client: FlaskClient) -> None:
    response = client.get("/records/4242.pdf")
    assert response.status_code == 404 and 'data-code="record_missing"' in response.get_data(as_text=True)


@needs_poppler
def test_page_one_holds_every_payment_that_differs(client: FlaskClient, upload: Upload, tmp_path: Path) -> None:
    """Issue 20, point 5: with items, every ledger row whose amounts differ; with scores only, the
    payments the attribution names (the amounts that fit the record's totals)."""
    record_id = stored(upload, "missettled-rob-paid-by-three")
    first = page_texts(pdf_of(client, f"/records/{record_id}.pdf", tmp_path))[0]
    doc = json.loads((ROOT / "samples" / "missettled-rob-paid-by-three.json").read_text(encoding="utf-8"))
    audit = audit_of(client, record_id)
    differing = [f for f in audit["findings"] if f["code"].startswith("item_")]
    assert differing and "款项" in first
    for f in differing:
        p = f["params"]
        row = (rf"{p['payer']}号位 \S+ → {p['payee']}号位 \S+\s+.*{re.escape(f['rule'])}\s+{p['due']}\s+{p['paid']}"
               rf"\s+{p['paid'] - p['due']:+d}")
        assert re.search(row, first), (row, first)
    doc["result"].pop("items")
    doc["game_id"] += "-scores"
    (result,) = upload(json.dumps(doc, ensure_ascii=False).encode()).get_json()["results"]
    first = page_texts(pdf_of(client, f"/records/{result['record_id']}.pdf", tmp_path))[0]
    named = [f for f in audit_of(client, result["record_id"])["findings"] if f["code"].startswith("net_item_")]
    assert named and "与记录合计相符" in first
    for f in named:
        p = f["params"]
        assert re.search(rf"{p['payer']}号位 \S+ → {p['payee']}号位 \S+\s+.*{re.escape(f['rule'])}\s+{p['due']}\s+"
                         rf"{p['fits']}", first), f


def test_the_pdf_replays_a_stored_hand_once_and_does_not_check_its_schema_again(
        client: FlaskClient, upload: Upload, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24, point 3: the stored document passed the schema when it was stored; the report is
    built from one trace (one audit with its replay, schema not checked) and the stored audit.
    Counted at audit.trace and audit.api, which stay plain Python in a compiled build."""
    import audit.api
    import audit.trace

    record_id = stored(upload, "missettled-rob-paid-by-three")
    traced: list[dict[str, Any]] = []
    audited: list[str] = []
    audit_hand = audit.trace.audit_hand

    def counted(doc: Any, **kwargs: Any) -> Any:
        traced.append(kwargs)
        return audit_hand(doc, **kwargs)

    monkeypatch.setattr(audit.trace, "audit_hand", counted)
    def counting(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            audited.append(name)
            return real(*args, **kwargs)
        return call

    for name in ("audit_document", "audit_record", "audit_match"):
        if hasattr(audit.api, name):
            monkeypatch.setattr(audit.api, name, counting(name, getattr(audit.api, name)))
    assert client.get(f"/records/{record_id}.pdf").status_code == 200
    assert len(traced) == 1 and traced[0]["schema_checked"] is True and audited == []


def test_the_pdf_does_not_build_the_pages_table_view(client: FlaskClient, upload: Upload,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The table view (report.table) is the page's replayer; the PDF prints its own tables of the
    key steps from the report model. Building the view for the PDF cost a fifth of its time
    (docs/report.md); the page still builds it."""
    import web.report_model

    record_id = stored(upload, "missettled-rob-paid-by-three")
    built: list[int] = []
    table_view = web.report_model.table_view

    def counted(*args: Any, **kwargs: Any) -> Any:
        built.append(1)
        return table_view(*args, **kwargs)

    monkeypatch.setattr(web.report_model, "table_view", counted)
    assert client.get(f"/records/{record_id}.pdf").status_code == 200
    assert built == []
    assert client.get(f"/records/{record_id}").status_code == 200
    assert built == [1]
