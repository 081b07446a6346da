"""The table view on the record's page as the server renders it (issue 23.3: the step of ?step=N
without script, seen from ?seat=K), and the match page (23.4): checked against the engine's trace
and audits. The section is read as XML (web/table_html.py writes it well-formed)."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from typing import Any

from flask.testing import FlaskClient

from audit import api
from tests.conftest import ROOT


def upload(client: FlaskClient, name: str) -> list[int]:
    body = (ROOT / "samples" / f"{name}.json").read_bytes()
    results = client.post("/api/records", data=body, content_type="application/json").get_json()["results"]
    return [int(r["record_id"]) for r in results]


def sample(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8"))


def table_of(html: str) -> ET.Element:
    start = html.index('<section class="table-view')
    depth, i = 0, start
    for match in re.finditer(r"<(/?)section\b", html[start:]):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            i = start + match.end()
            break
    text = html[start:html.index(">", i) + 1]
    return ET.fromstring(text.replace("&nbsp;", " "))


def classes(element: ET.Element) -> set[str]:
    return set((element.get("class") or "").split())


def slots(section: ET.Element) -> dict[int, ET.Element]:
    felt = next(e for e in section.iter("div") if "felt" in classes(e))
    return {int(e.get("data-seat") or -1): e for e in felt if "seat-slot" in classes(e)}


def test_the_step_of_the_address_is_drawn_by_the_server(client: FlaskClient) -> None:
    (record,) = upload(client, "clean-guizhou-3p")
    doc = sample("clean-guizhou-3p")
    trace = api.trace_record(doc)
    pong = next(i for i, ev in enumerate(doc["events"]) if ev["type"] == "pong")
    html = client.get(f"/records/{record}?step={pong}&lang=zh").get_data(as_text=True)
    section = table_of(html)
    sv = next(s for s in trace.steps if s.index == pong)
    assert section.findtext(".//output/span[@class='n']") == str(pong)
    assert section.findtext(".//strong[@class='wall-count']") == str(sv.wall_left)
    seats = slots(section)
    assert sorted(seats) == [0, 1, 2] and "acting" in classes(seats[doc["events"][pong]["seat"]])
    discarder = doc["events"][pong - 1]["seat"] if doc["events"][pong - 1]["type"] == "discard" else None
    for seat, slot in seats.items():
        pond = slot.find(".//ol[@class='pond']")
        assert pond is not None
        codes = [use.get("href", "").removeprefix("#zj-") for use in pond.findall("li/svg/use")]
        assert len(codes) == len(pond)
        discards = [ev["tile"] for ev in doc["events"][:pong + 1] if ev["type"] == "discard" and ev["seat"] == seat]
        assert codes == discards  # every discard in order, the claimed one too
        claimed = [li for li in pond if "claimed" in classes(li)]
        unclaimed = [c for c, li in zip(codes, pond) if "claimed" not in classes(li)]
        assert tuple(unclaimed) == sv.seats[seat].discards
        if seat == discarder:
            assert claimed and claimed[-1].findtext("small") == f"→{doc['events'][pong]['seat']}"
    assert "at-end" not in classes(section)
    nav = {a.get("data-go"): a.get("href") for a in section.iter("a") if a.get("data-go")}
    assert f"step={pong + 1}" in (nav["next"] or "") and f"step={pong - 1}" in (nav["prev"] or "")
    assert "step=deal" in (nav["first"] or "")


def test_the_seat_seen_from_sits_at_the_bottom(client: FlaskClient) -> None:
    (record,) = upload(client, "clean-kuhu-triple")
    for seat in range(4):
        section = table_of(client.get(f"/records/{record}?seat={seat}").get_data(as_text=True))
        positions = {s: {c for c in classes(e) if c.startswith("pos-")} for s, e in slots(section).items()}
        assert positions[seat] == {"pos-bottom"} and positions[(seat + 2) % 4] == {"pos-top"}
        assert positions[(seat + 1) % 4] == {"pos-right"} and positions[(seat + 3) % 4] == {"pos-left"}
    # a seat the hand does not have is refused as every number outside its range is (web.numbers)
    refused = client.get(f"/records/{record}?seat=9", headers={"Accept": "text/html"})
    assert refused.status_code == 400 and 'data-code="number_out_of_range"' in refused.get_data(as_text=True)


def test_the_last_step_shows_the_win_screen(client: FlaskClient) -> None:
    (record,) = upload(client, "clean-kuhu-triple")
    doc = sample("clean-kuhu-triple")
    audit = api.audit_document(doc)[0]
    last = len(doc["events"]) - 1
    section = table_of(client.get(f"/records/{record}?step={last}").get_data(as_text=True))
    assert "at-end" in classes(section)
    win = next(e for e in section.iter("section") if "win-screen" in classes(e))
    rows = win.findall(".//table[@class='win-scores']/tbody/tr")
    computed = [int(tr.findall("td")[2].text or "") for tr in rows]
    assert computed == audit["settlement"]["scores"]
    winners = [w for w in win.iter("div") if "winner" in classes(w)]
    assert len(winners) == sum(1 for ev in doc["events"] if ev["type"] == "win")
    steps = json.loads(section.get("data-steps") or "")
    assert steps["last"] == len(steps["steps"]) - 1 and [s["w"] for s in steps["steps"]] == \
        [s.wall_left for s in api.trace_record(doc).steps]
    opening = table_of(client.get(f"/records/{record}").get_data(as_text=True))
    assert "at-end" not in classes(opening) and opening.get("data-position") == "0"


def test_an_illegal_hand_opens_on_its_finding(client: FlaskClient) -> None:
    (record,) = upload(client, "illegal-pass-locked")
    section = table_of(client.get(f"/records/{record}").get_data(as_text=True))
    finding = api.audit_document(sample("illegal-pass-locked"))[0]["findings"][0]
    assert section.findtext(".//output/span[@class='n']") == str(finding["step"])
    box = next(e for e in section.iter("div") if "step-findings" in classes(e))
    assert [classes(p) for p in box] == [{"finding-illegal"}]
    ticks = section.findall(".//ol[@class='timeline']/li")
    assert [i for i, li in enumerate(ticks) if "finding-illegal" in classes(li)] == [int(section.get("data-position") or -1)]


# ----- the match page -----------------------------------------------------------------------------

def test_the_match_page_lists_the_hands_with_the_engines_totals(client: FlaskClient) -> None:
    first, second = upload(client, "illegal-match-dealer")
    doc = sample("illegal-match-dealer")
    audits = api.audit_document(doc)
    record = client.get(f"/records/{second}").get_data(as_text=True)
    link = re.search(r'class="match-page-link" href="(/matches/(\d+))"', record)
    assert link is not None
    html = client.get(link.group(1) + "?lang=zh").get_data(as_text=True)
    assert client.get(link.group(1)).status_code == 200
    totals = [int(x) for x in re.findall(r'class="amount total-rules">(-?\d+)<', html)]
    assert totals == [sum((a["settlement"] or {}).get("scores", [0] * 4)[s] for a in audits) for s in range(4)]
    rows = re.findall(r'<tr id="hand-(\d+)" class="hand-row verdict-row-(\w+)', html)
    assert rows == [(str(i), a["verdict"]) for i, a in enumerate(audits)]
    assert f'href="/records/{first}"' in html and f'href="/records/{second}"' in html
    checks = dict(re.findall(r'class="check check-(\w+)" data-check="(\w+)"', html)[::-1])
    assert re.findall(r'class="check check-(\w+)" data-check="dealer"', html) == ["broken"]
    assert "held" in checks and "not_checked" in checks


def test_an_unknown_match_is_a_404_naming_it(client: FlaskClient) -> None:
    response = client.get("/matches/4242?lang=en")
    assert response.status_code == 404 and "4242" in response.get_data(as_text=True)


def test_the_match_bar_link_of_a_clean_hand_is_light_on_its_colour() -> None:
    css = (ROOT / "static" / "report.css").read_text(encoding="utf-8")
    rule = re.search(r"\.match-hands a\.verdict-link \{([^}]*)\}", css)
    assert rule is not None and "color: #fff" in rule.group(1)
