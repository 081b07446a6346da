"""Every page of the service with sample data behind it: shared by the Chinese-everywhere test and
the phone-width browser test (issue 23, points 1 and 5).

The pages are not listed by hand: `page_urls` walks the app's URL map, every GET route that
answers with a page, and fills each of its URL parameters with every value `Site.values` holds
for that name. A page added later (a match page, a new case view) is walked too; a route with a
parameter name the site has no value for fails the walk, naming it, so it is never skipped."""
from __future__ import annotations

import copy
import io
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

from flask import Flask

from records.db import atomic
from tests.conftest import ROOT, add_account, login

SAMPLES = ("illegal-pass-locked", "missettled-burn-not-applied", "clean-weile-cha-jiao", "clean-guizhou-3p",
           "illegal-match-dealer", "invalid-tile-count")
"""One record of each verdict, a three-seat table and a match: the pages draw each differently."""

NOT_PAGES = ("/api/", "/static/", "/health", "/logout")
"""Routes that answer with JSON, files or a redirect, never a page a person reads."""
DOWNLOADS = (".pdf", ".toml", ".json", ".raw")


@dataclass
class Site:
    """The app with its data: the logged-in client and the values of the URL parameters."""

    app: Flask
    client: Any
    values: dict[str, list[Any]] = field(default_factory=dict)
    data: set[str] = field(default_factory=set)
    """Strings a page shows verbatim because a record or a person wrote them."""
    extra: list[str] = field(default_factory=list)
    """Pages reached by a query the URL map does not show (filters, a what-if, a diff)."""


def _data_words(doc: Any, into: set[str]) -> None:
    """The strings of a record that are its own words: ids, names, platform, client."""
    hands: list[Any] = doc["hands"] if isinstance(doc, dict) and isinstance(doc.get("hands"), list) else [doc]
    for hand in hands:
        if not isinstance(hand, dict):
            continue
        for key in ("game_id", "platform", "client", "table_id"):
            if isinstance(hand.get(key), str):
                into.add(hand[key])
        result: dict[str, Any] = hand["result"] if isinstance(hand.get("result"), dict) else {}
        for item in result.get("items") or []:
            if isinstance(item, dict) and isinstance(item.get("note"), str):
                into.add(item["note"])
        for seat in hand.get("seats") or []:
            for key in ("name", "player_id"):
                if isinstance(seat, dict) and isinstance(seat.get(key), str):
                    into.add(seat[key])
    for key in ("table_id", "platform"):
        if isinstance(doc, dict) and isinstance(doc.get(key), str):
            into.add(doc[key])


def build_site(app: Flask, kits: Any = None) -> Site:
    """Upload the samples (one game in two revisions), open a case on the mis-settled one, decide it,
    add a note, make an auditor with a token, and run a conformance check when `kits` is given."""
    client = login(app)
    site = Site(app, client)
    site.data |= {"admin", "auditor-zh", "club.example", "body.json", "weile_fit"}
    # body.json: the name a body sent without a file name is stored under; weile_fit: the fit
    # page's proposed profile name, an identifier the operator may edit
    ids: list[int] = []
    for name in SAMPLES:
        body = (ROOT / "samples" / f"{name}.json").read_bytes()
        _data_words(json.loads(body), site.data)
        response = client.post("/api/records", data={"files": (io.BytesIO(body), f"{name}.json")},
                               content_type="multipart/form-data")
        assert response.status_code in (200, 201, 207, 400, 422), response.get_data(as_text=True)
        ids += [r["record_id"] for r in response.get_json()["results"] if r.get("record_id")]
        site.data.add(f"{name}.json")
    doc = json.loads((ROOT / "samples" / "missettled-burn-not-applied.json").read_text(encoding="utf-8"))
    second = copy.deepcopy(doc)
    second["result"]["scores"] = list(reversed(second["result"]["scores"]))
    response = client.post("/api/records", data=json.dumps(second, ensure_ascii=False).encode("utf-8"),
                           content_type="application/json")
    revision = response.get_json()["results"][0]["record_id"]
    ids.append(revision)
    platform = doc.get("platform") or "club.example"
    opened = client.post("/api/cases", json={"number": "K-1", "platform": platform, "player": doc["seats"][0]["name"],
                                             "complaint": "我少收了分"})
    assert opened.status_code == 201, opened.get_data(as_text=True)
    case_id = opened.get_json()["id"]
    client.post(f"/api/cases/{case_id}/records", json={"record": revision})
    client.post(f"/api/cases/{case_id}/decision", json={"outcome": "upheld", "note": "按审计结果补付",
                                                        "payments": [{"from": doc["seats"][1]["name"],
                                                                      "to": doc["seats"][0]["name"], "amount": 3}]})
    site.data |= {"K-1"}
    client.post(f"/api/records/{ids[0]}/notes", json={"text": "已核对", "decision": "confirmed"})
    add_account(app, "auditor-zh", "auditor")
    with app.app_context():
        from records.security import Accounts
        from records.store import Store
        from web.db import trail_key

        store = Store.open(app.config["DATABASE"], trail_key=trail_key())
        try:
            accounts = Accounts(store.db, store.trail_key)
            account = accounts.by_name("auditor-zh")
            assert account is not None
            with atomic(store.db):
                accounts.create_token(account.id, label="手机", created_by="admin", stamp="2026-12-02T00:00:00Z")
            account_ids = [row["id"] for row in store.db["accounts"].rows]
            match_ids = [row["id"] for row in store.db["matches"].rows]
        finally:
            store.close()
    assert match_ids, "the samples hold a match (illegal-match-dealer)"
    site.values = {"record_id": ids, "case_id": [case_id], "account_id": account_ids, "match_id": match_ids,
                   "job_id": _fit_jobs(app, client, site.data)}
    if kits is not None:
        site.values["run_id"] = _conformance_runs(client, kits, site.data)
        site.values["base_id"] = site.values["run_id"][:1]
    first_bad = ids[1]
    site.extra = [*_platform_pages(client, site.data),
        f"/records/{first_bad}/whatif?profile=cuocuo",
        f"/records/{first_bad}/whatif?opt.hot_shot.burn=that_kong&opt.chicken.charge=3",
        f"/records/{revision}/diff",
        "/records?verdict=illegal", "/records?revisions=all&sort=played_at",
        "/receipts?outcome=rejected", "/cases?status=decided", "/admin/trail?action=upload",
        "/overview?focus=R8",
    ]
    return site


def _platform_pages(client: Any, site_data: set[str]) -> list[str]:
    """Two versions of a platform's profile (issue 36.3) with a re-audit, and the pages showing them.
    The platform has no stored records, so the samples' verdicts stay as they are."""
    text = (ROOT / "audit" / "profiles" / "weile.toml").read_text(encoding="utf-8").replace(
        'name = "weile"', 'name = "club"', 1)
    for version, players in ((1, "[4]"), (2, "[3, 4]")):
        edited = text.replace("players = [4]", f"players = {players}", 1)
        site_data.add(edited)
        response = client.post("/admin/platforms/adopt", data={"platform": "club.example", "why": "按平台规则",
                                                               "effective_from": "2000-01-01", "profile_file": edited})
        assert response.status_code == 303, response.get_data(as_text=True)
    site_data.add("club")
    response = client.post("/admin/platforms/reaudit", data={"platform": "club.example", "version": "2"})
    assert response.status_code == 303, response.get_data(as_text=True)
    base = "/admin/platforms"
    return [f"{base}/platform?platform=club.example", f"{base}/version?platform=club.example&version=2",
            f"{base}/compare?platform=club.example&a=1&b=2", f"{base}/new?platform=club.example"]
def _fit_jobs(app: Flask, client: Any, site_data: set[str]) -> list[int]:
    """Two fit jobs (issue 36.2): one run to its result by client build, one left queued."""
    from batch.fit_job import work

    body = "".join((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8").replace("\n", " ") + "\n"
                   for name in ("clean-weile-cha-jiao", "clean-weile-hot-shot")).encode("utf-8")
    ids = []
    for _ in range(2):
        response = client.post("/fit/jobs", data={"source": "upload", "profile": "weile", "by": "client",
                                                  "files": (io.BytesIO(body), "club.jsonl")},
                               content_type="multipart/form-data")
        assert response.status_code == 303, response.get_data(as_text=True)
        ids.append(int(response.headers["Location"].rsplit("/", 1)[1]))
        if len(ids) == 1:
            assert work(app.config["DATABASE"], once=True) == 1
    site_data |= {"club.jsonl", "weile_fit"}
    return ids


def _conformance_runs(client: Any, kits: Any, site_data: set[str]) -> list[int]:
    """Two runs of the first kit: every case answered right, then with a settlement fault."""
    from tests.kit.kit_clients import SETTLEMENT_FAULTS, answer_kit

    (kit,) = [path for path in kits.iterdir() if path.is_dir()]
    site_data.add(kit.name)
    runs = []
    for fault in (None, SETTLEMENT_FAULTS["dealer_stays_on_draw"][0]):
        lines, _ = answer_kit(kit, fault) if fault else answer_kit(kit)
        form = {"kit": kit.name, "platform": "club.example", "client_version": "2.1.0",
                "answers": (io.BytesIO(("\n".join(lines) + "\n").encode("utf-8")), "answers.jsonl")}
        response = client.post("/api/conformance/runs", data=form, content_type="multipart/form-data")
        assert response.status_code == 201, response.get_data(as_text=True)
        runs.append(response.get_json()["id"])
    return runs


def page_urls(site: Site) -> list[str]:
    """Every page of the URL map with every value of its parameters, then the extra pages."""
    urls: list[str] = []
    for rule in sorted(site.app.url_map.iter_rules(), key=lambda r: r.rule):
        if "GET" not in (rule.methods or ()) or rule.rule.startswith(NOT_PAGES) or rule.rule.endswith(DOWNLOADS):
            continue
        if rule.endpoint == "static":
            continue
        names = sorted(rule.arguments)
        missing = [name for name in names if name not in site.values]
        assert not missing, f"{rule.rule}: tests/web/site.py has no value for {missing}; add them to Site.values"
        for combination in itertools.product(*(site.values[name] for name in names)):
            with site.app.test_request_context():
                from flask import url_for

                urls.append(url_for(rule.endpoint, **dict(zip(names, combination))))
    return urls + site.extra
