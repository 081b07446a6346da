"""Chinese everywhere the service writes (issues 23.1 and 33.4): every page of the URL map, with sample
data behind it (tests/web/site.py), every page a filter, a link or a form answers with, every bad
query one and two at a time, every what-if, re-audit, form and account refusal, every upload
problem and every API error, asked for in Chinese, shows no English word that
`tests/web/english.py` does not allow (strict since 33.4: a field's key, a parameter's dotted name
or an enum value in <code> is English too). A record's own words (ids, names, file names) and what
the asker typed are data and stay as sent; each test names what it sent."""
from __future__ import annotations

import html as html_module
import io
import itertools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask

from app import create_app
from kit.build import build_kit, write_kit
from tests.conftest import ROOT, api_token, app_config, failing_auditor, login
from tests.kit.kit_clients import answer_kit
from tests.web.english import english_words, format_words
from tests.web.site import Site, build_site, page_urls


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("zh-site")
    write_kit(build_kit("cuocuo", {}, cases=32, seed=5, min_count=1), folder / "kits" / "cuocuo-5")
    app = create_app(app_config(folder, CONFORMANCE_KITS=str(folder / "kits")))
    yield build_site(app, folder / "kits")


def zh(url: str) -> str:
    return url + ("&" if "?" in url else "?") + "lang=zh"


def test_every_page_is_chinese(site: Site) -> None:
    urls = page_urls(site)
    assert len(urls) > 30
    english: dict[str, dict[str, str]] = {}
    for url in urls:
        response = site.client.get(zh(url))
        if 300 <= response.status_code < 400:
            continue
        assert response.status_code == 200, (url, response.status_code)
        words = english_words(response.get_data(as_text=True), site.data)
        if words:
            english[url] = words
    assert english == {}, json.dumps(english, ensure_ascii=False, indent=1)


def sample(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8"))
    return loaded


def bad_files() -> dict[str, bytes]:
    """One file per kind of upload problem: not JSON, not UTF-8, not an object, a tile that is not
    one, an event type that is not one, a repeated key, a file of another kind, a broken zip."""
    doc = sample("clean-weile-cha-jiao")
    tile = json.loads(json.dumps(doc))
    tile["events"][1]["tile"] = "10p"
    kind = json.loads(json.dumps(doc))
    kind["events"][1]["type"] = "throw"
    missing = json.loads(json.dumps(doc))
    del missing["seats"]
    return {"empty.json": b"", "cut.json": b'{"format": "zhuoji/1", "seats": ', "latin1.json": b'{"a": "\xe9"}',
            "array.json": b"[1, 2]", "tile.json": json.dumps(tile).encode(), "type.json": json.dumps(kind).encode(),
            "missing.json": json.dumps(missing).encode(), "twice.json": b'{"a": 1, "a": 2}',
            "lines.jsonl": b'{"format": 1}\n\nnot json\n', "notes.txt": b"hello", "broken.zip": b"PK\x03\x04 no zip",
            "nan.json": b'{"format": "zhuoji/1", "base": NaN}'}


ERROR_PAGES = ["/records/99999", "/records?page=abc", "/records?verdict=maybe", "/cases/99999",
               "/records/1/whatif?profile=nope", "/records/1/whatif?options=%7B", "/records/1/whatif?options=%5B%5D",
               "/records/1/whatif?options=%7B%22nope%22%3A1%7D", "/records/1/diff?with=abc", "/overview?focus=zz",
               "/no-such-page", "/conformance/runs/999", "/admin/accounts/999", "/receipts?outcome=nope"]


TYPED = {"abc", "maybe", "nope", "zz"}
"""The values ERROR_PAGES and API_ERRORS send: a refusal repeats them as typed."""


@pytest.mark.parametrize("url", ERROR_PAGES)
def test_every_error_page_is_chinese(site: Site, url: str) -> None:
    response = site.client.get(zh(url))
    assert 400 <= response.status_code < 500, (url, response.status_code)
    assert english_words(response.get_data(as_text=True), site.data | TYPED) == {}


def test_every_upload_problem_is_chinese_and_keeps_where(site: Site) -> None:
    files = bad_files()
    data = {"files": [(io.BytesIO(body), name) for name, body in files.items()]}
    page = site.client.post("/upload?lang=zh", data=data, content_type="multipart/form-data")
    html = page.get_data(as_text=True)
    assert english_words(html, site.data | set(files) | format_words() | {"throw"}) == {}
    answer = site.client.post("/api/records?lang=zh", content_type="multipart/form-data",
                              data={"files": [(io.BytesIO(body), name) for name, body in files.items()]})
    english = site.client.post("/api/records?lang=en", content_type="multipart/form-data",
                               data={"files": [(io.BytesIO(body), name) for name, body in files.items()]})
    lines, en_lines = answer.get_json()["results"], english.get_json()["results"]
    assert len(lines) == len(en_lines) >= len(files)
    for line, en_line in zip(lines, en_lines):
        assert line["status"] in ("rejected", "skipped"), line
        for error, en_error in zip(line["errors"], en_line["errors"], strict=True):
            assert error["code"] == en_error["code"] and error["problem"] == en_error["problem"]
            assert (error["path"], error["line"], error["column"]) == (en_error["path"], en_error["line"],
                                                                        en_error["column"])
            assert line["source"] in error["message"] and line["source"] in en_error["message"]
            if error["path"]:
                assert error["path"] in error["message"]
            verbatim = site.data | set(files) | {line["source"]} | format_words() | {"throw"}
            assert english_words(f"<p>{error['message']}</p>", verbatim) == {}, error
            assert error["message"] != en_error["message"]


API_ERRORS = [("get", "/api/records/99999", None), ("get", "/api/records?page=abc", None),
              ("get", "/api/cases/99999", None), ("post", "/api/records/1/audit", {"profile": "nope"}),
              ("post", "/api/records/1/audit", {"options": {"nope": 1}}), ("get", "/api/nothing-here", None),
              ("get", "/api/receipts?outcome=nope", None), ("post", "/api/cases", {"number": "K-9"})]


@pytest.mark.parametrize(("method", "url", "body"), API_ERRORS)
def test_every_api_error_has_a_code_and_speaks_the_asked_language(site: Site, method: str, url: str,
                                                                  body: Any) -> None:
    call = getattr(site.client, method)
    answers = {lang: call(url + ("&" if "?" in url else "?") + f"lang={lang}", **({"json": body} if body else {}))
               for lang in ("zh", "en")}
    zh_body, en_body = (answers[lang].get_json() for lang in ("zh", "en"))
    assert answers["zh"].status_code == answers["en"].status_code >= 400
    assert zh_body["code"] == en_body["code"] and zh_body["code"]
    assert english_words(f"<p>{zh_body['message']}</p>", site.data | TYPED) == {}, zh_body
    assert zh_body["message"] != en_body["message"]


# ----- every refusal, in both languages (issue 23, point 1) -------------------------------------------

MESSAGE = re.compile(r'<p class="error-message"[^>]*data-code="([^"]*)"[^>]*>(.*?)</p>', re.S)


@dataclass(frozen=True)
class Refusal:
    """One refusal to ask for in Chinese and in English: who asks (`admin`, `auditor` by session,
    `uploader` by token, `nobody`, a `bad token`), how, and the status and code it must answer;
    `shown` are strings the message repeats as sent."""

    who: str
    method: str
    url: str
    status: int
    code: str
    send: Callable[[], dict[str, Any]] = dict
    shown: tuple[str, ...] = ()


def answer(response: Any) -> tuple[str, str, str]:
    """The code, the message and the words to check of a JSON error or an error page (or a form
    shown again with its problem)."""
    if response.is_json:
        body = response.get_json()
        return body["code"], body["message"], f"<p>{body['message']}</p>"
    html = response.get_data(as_text=True)
    found = MESSAGE.search(html)
    assert found is not None, html[:2000]
    return found.group(1), html_module.unescape(found.group(2)), html


def ask_both(client: Any, refusal: Refusal, data: set[str]) -> None:
    """The refusal in zh and in en: the same status and code, different words, no English in the
    Chinese (less what the request sent)."""
    answers = {}
    for lang in ("zh", "en"):
        url = refusal.url + ("&" if "?" in refusal.url else "?") + f"lang={lang}"
        response = client.open(url, method=refusal.method.upper(), **refusal.send())
        assert response.status_code == refusal.status, (lang, response.status_code, response.get_data()[:400])
        answers[lang] = answer(response)
    (zh_code, zh_message, zh_words), (en_code, en_message, _) = answers["zh"], answers["en"]
    assert zh_code == en_code == refusal.code, (zh_code, en_code)
    assert zh_message != en_message
    assert english_words(zh_words, data | set(refusal.shown)) == {}, zh_message


def multipart(**fields: Any) -> Callable[[], dict[str, Any]]:
    """A multipart body made afresh for each ask (a file is read once); bytes are a file."""
    def send() -> dict[str, Any]:
        data = {key: (io.BytesIO(value), f"{key}.jsonl") if isinstance(value, bytes) else value
                for key, value in fields.items()}
        return {"data": data, "content_type": "multipart/form-data"}
    return send


def body(data: bytes | str, content_type: str = "application/json", **headers: str) -> Callable[[], dict[str, Any]]:
    return lambda: {"data": data, "content_type": content_type, "headers": headers}


def form(**fields: str) -> Callable[[], dict[str, Any]]:
    return lambda: {"data": fields}


SAMPLE = (ROOT / "samples" / "clean-weile-cha-jiao.json").read_bytes()
KIT = "cuocuo-5"
TWO_LINES = b"".join(json.dumps({**json.loads(SAMPLE), "game_id": f"g-{n}"}).encode() + b"\n" for n in (1, 2))
WEILE = (ROOT / "audit" / "profiles" / "weile.toml").read_text(encoding="utf-8")

REFUSALS = [
    # who may ask
    Refusal("nobody", "get", "/api/records", 401, "login_required"),
    Refusal("nobody", "post", "/upload", 401, "login_required"),
    Refusal("bad token", "get", "/api/records", 401, "token_refused"),
    Refusal("uploader", "post", "/api/records/1/audit", 403, "role_forbidden", lambda: {"json": {}}),
    Refusal("auditor", "get", "/admin/accounts", 403, "role_forbidden"),
    Refusal("admin", "post", "/api/records/1/notes", 400, "csrf_refused",
            lambda: {"json": {"text": "x"}, "headers": {"X-CSRF-Token": "stale"}}),
    Refusal("admin", "post", "/records/1/notes", 400, "csrf_refused",
            lambda: {"data": {"text": "x"}, "headers": {"X-CSRF-Token": "stale"}}),
    Refusal("uploader", "get", "/api/records?platform=club.example", 404, "platform_hidden"),
    Refusal("uploader", "get", "/api/cases?platform=club.example", 404, "platform_hidden"),
    Refusal("uploader", "get", "/api/receipts?platform=club.example", 404, "platform_hidden"),
    Refusal("uploader", "get", "/api/conformance/runs?platform=club.example", 404, "platform_hidden"),
    Refusal("uploader", "post", "/api/records", 403, "upload_other_platform", body(SAMPLE), ("body.json",)),
    Refusal("uploader", "post", "/api/conformance/runs", 403, "run_other_platform",
            multipart(kit=KIT, platform="club.example", client_version="1", answers=b"{}")),
    # bodies and uploads
    Refusal("admin", "post", "/api/records/1/audit", 400, "body_not_object", body(b"[1]")),
    Refusal("admin", "post", "/api/records/1/notes", 400, "body_not_object", body(b"[1]")),
    Refusal("admin", "post", "/api/cases", 400, "body_not_object", body(b'"case"')),
    Refusal("admin", "post", "/api/records", 415, "content_type_refused", body(b"hello", "text/plain"),
            ("text/plain",)),
    Refusal("admin", "post", "/api/records", 400, "body_empty", body(b"")),
    Refusal("admin", "post", "/api/records", 400, "no_file_part", multipart(uploader="x")),
    Refusal("admin", "post", "/api/records?filename=blank.jsonl", 400, "upload_empty",
            body(b"\n\n", "application/x-ndjson")),
    Refusal("admin", "get", "/api/schema/nope.json", 404, "schema_missing", shown=("nope.json",)),
    Refusal("admin", "get", "/matches/99999", 404, "match_missing"),
    # notes, from the API and from the record page's form
    Refusal("admin", "post", "/api/records/1/notes", 400, "note_text_missing", lambda: {"json": {"text": "   "}}),
    Refusal("admin", "post", "/records/1/notes", 400, "note_text_missing", form(text="  ")),
    Refusal("admin", "post", "/records/1/notes", 400, "not_one_of", form(text="x", decision="maybe")),
    Refusal("admin", "post", "/records/1/notes", 400, "too_long", form(text="x", case_number="K" * 65)),
    Refusal("admin", "post", "/records/1/audit", 400, "too_long", form(confirm="yes", reason="x" * 1001)),
    # conformance, from the API and from the page's form
    Refusal("admin", "post", "/api/conformance/runs", 400, "answers_missing",
            multipart(kit=KIT, platform="club.example", client_version="1")),
    Refusal("admin", "post", "/conformance", 400, "answers_missing",
            multipart(kit=KIT, platform="club.example", client_version="1")),
    Refusal("admin", "post", "/api/conformance/runs", 400, "kit_name_bad",
            multipart(kit="../x", platform="club.example", client_version="1", answers=b"{}")),
    Refusal("admin", "post", "/api/conformance/runs", 400, "kit_missing",
            multipart(kit="nope", platform="club.example", client_version="1", answers=b"{}"), ("nope",)),
    Refusal("admin", "post", "/api/conformance/runs", 400, "required",
            multipart(kit=KIT, platform=" ", client_version="1", answers=b"{}")),
    Refusal("admin", "post", "/api/conformance/runs", 400, "too_long",
            multipart(kit=KIT, platform="club.example", client_version="9" * 101, answers=b"{}")),
    Refusal("admin", "post", "/api/conformance/runs", 400, "answers_not_utf8",
            multipart(kit=KIT, platform="club.example", client_version="1", answers=b"\xff\xfe")),
    # the fit page: its form again with the problem, or the error page of a refused download
    Refusal("admin", "post", "/fit", 400, "fit_files_missing", multipart(source="upload")),
    Refusal("admin", "post", "/fit", 400, "unknown_profile", multipart(profile="nosuch", files=SAMPLE),
            ("nosuch_fit", "nosuch")),
    Refusal("admin", "post", "/fit", 400, "profile_name_bad", multipart(name="a/b", files=SAMPLE), ("a/b",)),
    Refusal("admin", "post", "/fit", 400, "fit_nothing_read", multipart(files=b'{"seats": [NaN]}\n'),
            ("files.jsonl", "seats[0]")),  # the sent file's name and the place in it
    Refusal("admin", "post", "/fit", 400, "fit_platform_missing", multipart(source="stored")),
    Refusal("admin", "post", "/fit", 400, "date_bad",
            multipart(source="stored", platform="club.example", date_from="2026-13-01")),
    Refusal("admin", "post", "/fit/profile.toml", 400, "profile_file_refused",
            form(name="weile", profile_file=WEILE.replace("charge = 3", "charge = -1", 1))),
]


ASKERS = {"elsewhere", "uploader-elsewhere", "auditor-session"}
"""The accounts `askers` makes, and the uploader's platform: names the admin pages list."""


@pytest.fixture(scope="module")
def askers(site: Site) -> dict[str, Any]:
    """A client for each kind of asker of REFUSALS."""
    nobody = site.app.test_client()
    bad = site.app.test_client()
    bad.environ_base["HTTP_AUTHORIZATION"] = "Bearer zj_nothing"
    uploader = site.app.test_client()
    uploader.environ_base["HTTP_AUTHORIZATION"] = api_token(site.app, "uploader-elsewhere", "uploader",
                                                            "elsewhere")["Authorization"]
    auditor = login(site.app, "auditor-session", "auditor")
    site.data.add("tests")  # who made the uploader's token (tests/conftest.py api_token), in the trail
    return {"admin": site.client, "auditor": auditor, "uploader": uploader, "nobody": nobody, "bad token": bad}


@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda r: f"{r.method} {r.url} {r.code}")
def test_every_refusal_has_its_code_and_speaks_the_asked_language(site: Site, askers: dict[str, Any],
                                                                  refusal: Refusal) -> None:
    ask_both(askers[refusal.who], refusal, site.data | ASKERS)


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """An app with small limits and two kits, holding one record and a run of each kit; its engine
    fails from then on (the 502s)."""
    folder = tmp_path_factory.mktemp("zh-limits")
    for seed in (6, 7):
        write_kit(build_kit("cuocuo", {}, cases=32, seed=seed, min_count=1), folder / "kits" / f"small-{seed}")
    app = create_app(app_config(folder, CONFORMANCE_KITS=str(folder / "kits")))
    client = login(app)
    assert client.post("/api/records", data=SAMPLE, content_type="application/json").status_code == 201
    for seed in (6, 7):
        lines, _ = answer_kit(folder / "kits" / f"small-{seed}")
        sent = multipart(kit=f"small-{seed}", platform="club.example", client_version="1",
                         answers=("\n".join(lines) + "\n").encode("utf-8"))()
        assert client.post("/api/conformance/runs", **sent).status_code == 201
    app.config.update(MAX_CONTENT_LENGTH=len(SAMPLE) * 2 + 2000, MAX_FORM_PARTS=3, MAX_URL_LENGTH=300,
                      FIT_MAX_RECORDS=1, AUDITOR=failing_auditor)
    yield client


LIMITS = [
    Refusal("admin", "post", "/api/records", 413, "body_too_large", body(SAMPLE * 4)),
    Refusal("admin", "post", "/upload", 413, "body_too_large", multipart(files=SAMPLE * 4)),
    Refusal("admin", "post", "/api/records", 413, "form_too_many_parts",
            lambda: {"data": {"files": [(io.BytesIO(b"{}"), f"{i}.json") for i in range(5)]}}),
    Refusal("admin", "get", "/api/records?q=" + "x" * 400, 414, "url_too_long"),
    Refusal("admin", "get", "/records?q=" + "x" * 400, 414, "url_too_long"),
    Refusal("admin", "get", "/api/records", 431, "header_too_large", lambda: {"headers": {"X-Big": "x" * 20_000}},
            ("X-Big",)),
    Refusal("admin", "get", "/records", 431, "header_too_large", lambda: {"headers": {"X-Big": "x" * 20_000}},
            ("X-Big",)),
    Refusal("admin", "get", "/api/records", 431, "too_many_headers",
            lambda: {"headers": {f"X-Extra-{n}": "1" for n in range(150)}}),
    Refusal("admin", "get", "/records", 431, "too_many_headers",
            lambda: {"headers": {f"X-Extra-{n}": "1" for n in range(150)}}),
    Refusal("admin", "post", "/api/records/1/audit", 502, "engine_failed", lambda: {"json": {}},
            ("RuntimeError('engine exploded')",)),
    Refusal("admin", "get", "/records/1/whatif?profile=kuhu", 502, "engine_failed", shown=("RuntimeError('engine exploded')",)),
    Refusal("admin", "post", "/fit", 413, "fit_too_many", multipart(files=TWO_LINES)),
    Refusal("admin", "get", "/api/conformance/runs/2/compare/1", 409, "runs_of_other_kits", shown=("small-6", "small-7")),
]


@pytest.mark.parametrize("refusal", LIMITS, ids=lambda r: f"{r.method} {r.url[:40]} {r.code}")
def test_every_limit_has_its_code_and_speaks_the_asked_language(site: Site, limited: Any, refusal: Refusal) -> None:
    ask_both(limited, refusal, site.data)


def test_a_form_field_too_large_has_its_code_in_both_languages(site: Site, limited: Any) -> None:
    """Alone: with MAX_FORM_PARTS set as well, werkzeug's parts limit reads as this one (web/errors.py)."""
    config = limited.application.config
    kept = {key: config.get(key) for key in ("MAX_FORM_PARTS", "MAX_FORM_MEMORY_SIZE")}
    config.update(MAX_FORM_PARTS=1000, MAX_FORM_MEMORY_SIZE=100)
    try:
        ask_both(limited, Refusal("admin", "post", "/api/records", 413, "form_field_too_large",
                                  multipart(uploader="x" * 200)), site.data)
    finally:
        config.update(kept)


def test_an_answers_file_too_large_has_its_code_in_both_languages(site: Site, askers: dict[str, Any],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("web.conformance.MAX_ANSWERS", 10)
    ask_both(site.client, Refusal("admin", "post", "/api/conformance/runs", 413, "answers_too_large",
                                  multipart(kit=KIT, platform="club.example", client_version="1", answers=b"{}" * 10)),
             site.data)


# ----- the whole walk (issue 33.4): every page with its filters, every bad query one and two at a
# time, every form's refusal, every what-if and re-audit refusal, every account error -----------

def filtered_pages(site: Site) -> list[str]:
    """Pages reached by a filter, a choice or a link's parameter, with real values of the site."""
    from records import cases as case_rows, trail as trail_rows
    from records.queries import NO_CASE, SORTS
    from records.receipts import OUTCOMES
    from records.rows import UNAUDITED, VERDICTS

    records, (case,) = site.values["record_id"], site.values["case_id"]
    bad, revision, run = records[1], records[-1], site.values["run_id"][-1]
    urls = [f"/records?verdict={v}" for v in (*VERDICTS, UNAUDITED)]
    urls += [f"/records?case_status={s}" for s in (NO_CASE, *case_rows.STATUSES)]
    urls += [f"/records?sort={key}&order={order}" for key in sorted(SORTS) for order in ("asc", "desc")]
    urls += ["/records?rule=R8", "/records?rule=R8.3", "/records?platform=club.example", "/records?profile=weile",
             "/records?q=K-1", "/records?case=K-1", "/records?revisions=all", "/records?revisions=current",
             "/records?per_page=1&page=2", "/records?exact=true", "/records?date_from=2020-01-01&date_to=2030-01-01",
             "/records?q=nobody-at-all", "/records?game_id=zz-none"]
    urls += [f"/receipts?outcome={o}" for o in OUTCOMES] + ["/receipts?per_page=1&page=2", "/receipts?q=body.json"]
    urls += [f"/cases?status={s}" for s in case_rows.STATUSES] + ["/cases?q=K-1", "/cases?number=K-1"]
    urls += [f"/admin/trail?action={a}" for a in trail_rows.ACTIONS] + ["/admin/trail?actor=admin",
                                                                        f"/admin/trail?record={bad}"]
    urls += [f"/overview?focus=R{n}" for n in (1, 8, 12)] + ["/overview?verdict=illegal", "/overview?platform=club.example"]
    urls += [f"/records/{record}?seat=1&step=3" for record in records]
    urls += [f"/cases/{case}?rows=3", f"/conformance/runs/{run}?with={site.values['run_id'][0]}",
             f"/records/{revision}/diff?with={bad}"]
    urls += [f"/records/{bad}/whatif?profile={p}" for p in ("weile", "cuocuo", "kuhu", "guizhou", "senyan")]
    urls += [f"/records/{bad}/whatif?options=%7B%22hot_shot%22%3A%7B%22bonus%22%3A2%7D%7D",
             f"/records/{bad}/whatif?fields_for=weile&profile=weile&opt.flip=up_down&opt.self_draw_bonus=2"]
    return urls


def test_every_filtered_page_is_chinese(site: Site) -> None:
    """Every page a filter or a link's parameter reaches, after the refusals above have left their
    receipts and trail rows (the upload problems' files, as sent; a receipt's problem names the
    format's own words, as the file must write them: `format_words`)."""
    english: dict[str, dict[str, str]] = {}
    for url in filtered_pages(site):
        response = site.client.get(zh(url))
        assert response.status_code == 200, (url, response.status_code)
        sent = set(bad_files()) | (format_words() | {"throw"} if url.startswith("/receipts") else set())
        words = english_words(response.get_data(as_text=True), site.data | ASKERS | sent)
        if words:
            english[url] = words
    logged_out = site.app.test_client().get("/login?lang=zh")
    assert english_words(logged_out.get_data(as_text=True), site.data) == {}
    assert english == {}, json.dumps(english, ensure_ascii=False, indent=1)


UNKNOWN = "colour"
"""A query parameter no page reads: the asker's own word, named as typed."""

BAD_QUERIES: dict[str, dict[str, str]] = {
    "/records": {"verdict": "maybe", "page": "abc", "per_page": "0", "rule": "x9", "date_from": "2026-13-01",
                 "sort": "nope", "order": "up", "revisions": "some", "case_status": "maybe", "exact": "perhaps",
                 "q": "x" * 201, "case": "K" * 65, UNKNOWN: "red"},
    "/receipts": {"outcome": "nope", "page": "abc", "per_page": "999", "date_to": "2026-02-30", "platform": "p" * 201,
                  "q": "x" * 201, UNKNOWN: "red"},
    "/cases": {"status": "nope", "page": "0", "per_page": "x", "number": "K" * 65, "q": "x" * 201, UNKNOWN: "red"},
    "/admin/trail": {"action": "nope", "record": "abc", "date_from": "yesterday", "per_page": "501", "page": "-1",
                     "actor": "a" * 201, UNKNOWN: "red"},
    "/overview": {"focus": "zz", "verdict": "maybe", "date_from": "x", "rule": "r8"},
    "/records/{record}": {"seat": "9"},
    "/records/{record}/diff": {"with": "abc"},
    "/records/{revision}/diff": {"with": "1"},
    "/cases/{case}": {"audit": "abc", "rows": "x"},
    "/conformance/runs/{run}": {"with": "abc"},
    "/records/{bad}/whatif": {"profile": "nope", "options": "{"},
}
"""Per page, a bad value of each of its query parameters (and one it does not have): asked alone,
then two at a time; the values, as typed, may be repeated."""


def bad_query_urls(site: Site) -> list[tuple[str, set[str]]]:
    """Every bad parameter of BAD_QUERIES alone, then every pair of them: each URL with the values
    it sends (the refusal may repeat them, as typed)."""
    records = site.values["record_id"]
    ids = {"record": records[0], "bad": records[1], "revision": records[-1], "case": site.values["case_id"][0],
           "run": site.values["run_id"][-1]}
    urls = []
    for path, bad in BAD_QUERIES.items():
        page = path.format(**ids)
        pairs = [dict([one]) for one in bad.items()] + [dict(two) for two in itertools.combinations(bad.items(), 2)]
        urls += [(page + "?" + urlencode(asked), set(asked.values()) | ({UNKNOWN} & set(asked))) for asked in pairs]
    return urls


def test_every_bad_query_is_refused_in_chinese(site: Site) -> None:
    english: dict[str, dict[str, str]] = {}
    for url, sent in bad_query_urls(site):
        response = site.client.get(zh(url))
        assert response.status_code == 400, (url, response.status_code)
        words = english_words(response.get_data(as_text=True), site.data | sent)
        if words:
            english[url] = words
    assert english == {}, json.dumps(english, ensure_ascii=False, indent=1)


def whatif(**asked: Any) -> str:
    """A what-if's query: options as JSON, other parameters as they are."""
    return urlencode({key: json.dumps(value) if key == "options" and not isinstance(value, str) else value
                      for key, value in asked.items()})


WHATIF_REFUSALS: list[tuple[str, int, str, tuple[str, ...]]] = [
    (whatif(options={"nope": 1}), 400, "unknown_parameter", ("nope",)),
    (whatif(options={"hot_shot": {"nope": 1}}), 400, "unknown_parameter", ("nope",)),
    (whatif(options={"name": "x"}), 400, "unknown_parameter", ("name",)),
    (whatif(options={"hot_shot": {"bonus": "x"}}), 400, "parameter_not_integer", ()),
    (whatif(options={"hot_shot.bonus": 5000}), 400, "parameter_out_of_range", ()),
    (whatif(options={"chicken": {"charge": -1}}), 400, "parameter_negative", ()),
    (whatif(options={"flip": "sideways"}), 400, "flip_bad_value", ("sideways",)),
    (whatif(options={"hot_shot": {"burn": "everything"}}), 400, "parameter_not_one_of", ("everything",)),
    (whatif(options={"self_draw_bonus": True}), 400, "parameter_not_integer", ("true",)),
    (whatif(options={"hot_shot": 3}), 400, "parameter_not_table", ()),
    (whatif(options=[1]), 400, "options_not_object", ()),
    (whatif(**{"fields_for": "weile", "opt.hot_shot.bonus": "abc"}), 400, "parameter_not_integer", ("abc",)),
    (whatif(**{"fields_for": "weile", "opt.chicken.charge": "-1"}), 400, "parameter_negative", ()),
    (whatif(**{"fields_for": "weile", "opt.flip": "sideways"}), 400, "flip_bad_value", ("sideways",)),
    (whatif(profile="nope"), 400, "unknown_profile", ("nope",)),
    (whatif(options="{"), 400, "not_json", ()),
]
"""A what-if (GET) with an unknown, ill-typed or out-of-range option, options that are no table,
an unknown profile, JSON that is not: each refused with its code, nothing run."""


def refusal_code(response: Any) -> str | None:
    """The code a refusal page or JSON error carries (the error page's or the option error's)."""
    if response.is_json:
        code: str | None = response.get_json().get("code")
        return code
    found = re.search(r'data-code="([^"]*)"', response.get_data(as_text=True))
    return found.group(1) if found else None


@pytest.mark.parametrize(("query", "status", "code", "typed"), WHATIF_REFUSALS, ids=[r[0] for r in WHATIF_REFUSALS])
def test_every_whatif_refusal_is_chinese_with_its_code(site: Site, query: str, status: int, code: str,
                                                       typed: tuple[str, ...]) -> None:
    """The refusal beside the form, its code in `data-code`: the option and the parameters the
    profile knows named in words, only what the asker typed as typed."""
    bad = site.values["record_id"][1]
    response = site.client.get(zh(f"/records/{bad}/whatif?{query}"))
    assert response.status_code == status, response.status_code
    assert refusal_code(response) == code
    assert english_words(response.get_data(as_text=True), site.data | set(typed)) == {}
    english = site.client.get(f"/records/{bad}/whatif?{query}&lang=en")
    assert english.status_code == status and refusal_code(english) == code


REAUDIT_REFUSALS: list[tuple[dict[str, str], int, str, tuple[str, ...]]] = [
    ({"options": '{"nope": 1}'}, 400, "unknown_parameter", ("nope",)),
    ({"options": '{"hot_shot": {"bonus": "x"}}'}, 400, "parameter_not_integer", ()),
    ({"options": '{"hot_shot.bonus": 5000}'}, 400, "parameter_out_of_range", ()),
    ({"options": "[1]"}, 400, "options_not_object", ()),
    ({"options": "{"}, 400, "not_json", ()),
    ({"profile": "nope"}, 400, "unknown_profile", ("nope",)),
    ({"confirm": "yes", "reason": "x" * 1001}, 400, "too_long", ()),
]
"""The record page's re-audit form refused: the same words as the what-if's, nothing stored."""


@pytest.mark.parametrize(("form_data", "status", "code", "typed"), REAUDIT_REFUSALS,
                         ids=[r[2] + str(n) for n, r in enumerate(REAUDIT_REFUSALS)])
def test_every_reaudit_refusal_is_chinese_with_its_code(site: Site, form_data: dict[str, str], status: int,
                                                        code: str, typed: tuple[str, ...]) -> None:
    bad = site.values["record_id"][1]
    response = site.client.post(zh(f"/records/{bad}/audit"), data=form_data)
    assert response.status_code == status, response.status_code
    assert refusal_code(response) == code
    assert english_words(response.get_data(as_text=True), site.data | set(typed)) == {}
    if form_data.get("options") == "{":  # the API reads a JSON body: no options text to refuse
        return
    sent = {key: json.loads(value) if key == "options" else value for key, value in form_data.items() if key != "confirm"}
    api = site.client.post(f"/api/records/{bad}/audit?lang=zh", json=sent)
    assert api.status_code == status, api.get_json()
    assert english_words(f"<p>{api.get_json()['message']}</p>", site.data | set(typed)) == {}, api.get_json()


FORM_REFUSALS = [
    # accounts (admin pages): each rule of records.security, from the list's form and the account's
    Refusal("admin", "post", "/admin/accounts", 400, "account_name_bad", form(name="a b", role="auditor")),
    Refusal("admin", "post", "/admin/accounts", 400, "account_name_bad", form(name="", role="auditor")),
    Refusal("admin", "post", "/admin/accounts", 400, "account_name_taken", form(name="admin", role="auditor")),
    Refusal("admin", "post", "/admin/accounts", 400, "account_password_length",
            form(name="new-one", role="auditor", password="short")),
    Refusal("admin", "post", "/admin/accounts", 400, "account_password_common",
            form(name="new-one", role="auditor", password="password123")),
    Refusal("admin", "post", "/admin/accounts", 400, "account_role_unknown", form(name="new-one", role="boss"),
            ("boss",)),
    Refusal("admin", "post", "/admin/accounts", 400, "account_platform_missing", form(name="new-one", role="uploader")),
    Refusal("admin", "post", "/admin/accounts", 400, "too_long",
            form(name="new-one", role="uploader", platform="p" * 201)),
    Refusal("admin", "post", "/admin/accounts/2", 400, "account_role_unknown", form(role="boss"), ("boss",)),
    Refusal("admin", "post", "/admin/accounts/2", 400, "account_platform_missing", form(role="uploader")),
    Refusal("admin", "post", "/admin/accounts/1", 400, "account_last_admin", form(role="auditor")),
    Refusal("admin", "post", "/admin/accounts/1/disable", 400, "account_last_admin", form(disabled="1")),
    Refusal("admin", "post", "/admin/accounts/999/password", 404, "account_missing"),
    Refusal("admin", "post", "/admin/accounts/999/tokens", 404, "account_missing", form(label="x")),
    Refusal("admin", "post", "/admin/tokens/999/revoke", 404, "token_missing"),
    # cases, from the list's form, the record page's and the case page's
    Refusal("admin", "post", "/cases", 400, "bad_body", form(platform="club.example", complaint="")),
    Refusal("admin", "post", "/cases", 400, "bad_body", form(platform="", complaint="", number="K" * 65)),
    Refusal("admin", "post", "/cases", 400, "number_not_digits",
            form(platform="club.example", complaint="x", record="abc"), ("abc",)),
    Refusal("admin", "post", "/cases/attach", 404, "case_number_unknown", form(number="Z-404", record="1"),
            ("Z-404",)),
    Refusal("admin", "post", "/cases/attach", 400, "number_missing", form(number="K-1")),
    Refusal("admin", "post", "/cases/1/records", 400, "number_not_digits", form(record="abc"), ("abc",)),
    Refusal("admin", "post", "/cases/1/records", 404, "case_record_missing", form(record="99999")),
    Refusal("admin", "post", "/cases/999/records", 404, "case_missing", form(record="1")),
    Refusal("admin", "post", "/cases/1/decision", 400, "bad_body", form(outcome="maybe", note="")),
    Refusal("admin", "post", "/cases/1/decision", 400, "number_not_digits",
            lambda: {"data": {"outcome": "upheld", "note": "n", "from": "x", "to": "y", "amount": "abc"}}, ("abc",)),
    Refusal("admin", "post", "/cases/1/decision", 400, "case_payment_incomplete",
            lambda: {"data": {"outcome": "upheld", "note": "n", "from": "", "to": "", "amount": "3"}}),
    Refusal("admin", "post", "/cases/1/decision", 400, "case_payment_seat_unknown",
            lambda: {"data": {"outcome": "upheld", "note": "n", "from": "nobody-here", "to": "x", "amount": "3"}},
            ("nobody-here",)),
    Refusal("admin", "post", "/cases/999/close", 404, "case_missing"),
    # notes and the re-audit of a record page
    Refusal("admin", "post", "/records/1/notes", 400, "note_text_missing", form(text="")),
    Refusal("admin", "post", "/records/99999/notes", 404, "record_missing", form(text="x")),
    Refusal("admin", "post", "/records/99999/audit", 404, "record_missing", form(confirm="yes", reason="x")),
    # conformance and fit forms
    Refusal("admin", "post", "/conformance", 400, "kit_missing",
            multipart(kit="nope", platform="club.example", client_version="1", answers=b"{}"), ("nope",)),
    Refusal("admin", "post", "/conformance", 400, "required",
            multipart(kit=KIT, platform="", client_version="", answers=b"{}")),
    Refusal("admin", "post", "/fit", 400, "date_bad",
            multipart(source="stored", platform="club.example", date_to="someday"), ("someday",)),
]
"""Every form an operator posts, refused: its code and its words in Chinese."""


@pytest.mark.parametrize("refusal", FORM_REFUSALS, ids=lambda r: f"{r.method} {r.url} {r.code}")
def test_every_form_refusal_has_its_code_and_speaks_chinese(site: Site, askers: dict[str, Any],
                                                            refusal: Refusal) -> None:
    ask_both(askers[refusal.who], refusal, site.data | ASKERS | {"new-one"})


SECRET = re.compile(r'<p class="secret">.*?<code>([^<]*)</code>', re.S)
"""A password or token shown once: random letters, data."""


def test_every_page_a_form_answers_with_is_chinese(site: Site) -> None:
    """The pages a form answers with rather than a redirect: a re-audit to confirm, a decision and a
    closing to confirm, an account or a token made, a password reset, an upload's and a fit's
    results; then the pages that show what a stored re-audit with options left (the record, the
    trail)."""
    bad, case = site.values["record_id"][1], site.values["case_id"][0]
    options = json.dumps({"hot_shot": {"bonus": 2}, "flip": "up_down"})
    asked = [("/records/%d/audit" % bad, {"options": options}, 200),
             (f"/cases/{case}/decision", {"outcome": "upheld", "note": "n"}, 200),
             (f"/cases/{case}/close", {}, 200),
             ("/admin/accounts", {"name": "new-two", "role": "auditor"}, 201),
             ("/admin/accounts/2/tokens", {"label": "手机"}, 201),
             ("/admin/accounts/2/password", {}, 200)]
    english: dict[str, dict[str, str]] = {}
    for path, data, status in asked:
        response = site.client.post(zh(path), data=data)
        assert response.status_code == status, (path, response.status_code)
        html = response.get_data(as_text=True)
        words = english_words(html, site.data | ASKERS | {"new-two"} | set(SECRET.findall(html)))
        if words:
            english[path] = words
    sent = {"files": [(io.BytesIO(SAMPLE), "again.json")]}
    for path in ("/upload", "/fit"):
        response = site.client.post(zh(path), data={"files": [(io.BytesIO(SAMPLE), "again.json")]},
                                    content_type="multipart/form-data")
        assert response.status_code == 200, (path, response.status_code, sent)
        words = english_words(response.get_data(as_text=True), site.data | {"again.json"})
        if words:
            english[path] = words
    stored = site.client.post(zh(f"/records/{bad}/audit"), data={"options": options, "confirm": "yes", "reason": "复核"})
    assert stored.status_code == 303
    for url in (f"/records/{bad}", "/admin/trail?action=reaudit", f"/records/{bad}/whatif?options={options}"):
        words = english_words(site.client.get(zh(url)).get_data(as_text=True), site.data | ASKERS | {"new-two"})
        if words:
            english[url] = words
    assert english == {}, json.dumps(english, ensure_ascii=False, indent=1)


# ----- the words the refusals are made from, complete (issue 33.4) -------------------------------

ASKED_SCHEMAS = ("web.api_schemas:ListQuerySchema", "web.api_schemas:ReauditRequestSchema",
                 "web.api_schemas:NoteRequestSchema", "web.dispute_schemas:ReceiptQuerySchema",
                 "web.dispute_schemas:CaseRequestSchema", "web.dispute_schemas:AttachRequestSchema",
                 "web.dispute_schemas:PaymentSchema", "web.dispute_schemas:DecisionRequestSchema",
                 "web.dispute_schemas:CaseQuerySchema", "web.dispute_schemas:TrailQuerySchema")
"""Every schema a query, a form or a body is read with: what an asker can get wrong."""


def test_every_field_value_and_parameter_an_error_names_has_chinese_words() -> None:
    """A field of every schema an asker fills in has its Chinese name (errors.toml [fields.zh]), each
    value of a field that takes one of a few its page label ([choices], translated), and every
    parameter a what-if knows its words (parameters.toml): so no refusal falls back to a key."""
    import importlib

    from marshmallow import validate

    from audit.option_check import known_parameters
    from audit.rulebook import parameters
    from records.security import ROLES
    from web.errors import words
    from web.i18n import ZH

    names, choices = words()["fields"]["zh"], words()["choices"]
    missing: list[str] = []
    for dotted in ASKED_SCHEMAS:
        module, name = dotted.split(":")
        schema = getattr(importlib.import_module(module), name)()
        for key, field in schema.fields.items():
            asked = field.data_key or key
            if asked not in names:
                missing.append(f"{name}.{asked}: no [fields.zh] entry")
            for validator in field.validators:
                if isinstance(validator, validate.OneOf):
                    missing += [f"{name}.{asked}={value}: no [choices.{asked}] label" for value in validator.choices
                                if str(value) not in choices.get(asked, {})]
    missing += [f"role={role}" for role in ROLES if role not in choices["role"]]
    missing += [f"[choices.{field}] {value}: {msgid!r} untranslated" for field, values in choices.items()
                for value, msgid in values.items() if msgid not in ZH and field != "lang"]
    missing += [f"parameter {name}" for name in known_parameters()
                if not re.search(r"[\u4e00-\u9fff]", str(parameters().get(name, {}).get("zh", "")))]
    assert missing == []
