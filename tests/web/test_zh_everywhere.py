"""Chinese everywhere the service writes (issue 23, point 1): every page of the URL map, with sample
data behind it (tests/web/site.py), every error page, every upload problem and every API error,
asked for in Chinese, shows no English word that `tests/web/english.py` does not allow. A record's
own words (ids, names, file names) are data and stay as sent."""
from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from app import create_app
from kit.build import build_kit, write_kit
from tests.conftest import ROOT, app_config
from tests.web.english import english_words
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
    assert english == {}


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


@pytest.mark.parametrize("url", ERROR_PAGES)
def test_every_error_page_is_chinese(site: Site, url: str) -> None:
    response = site.client.get(zh(url))
    assert 400 <= response.status_code < 500, (url, response.status_code)
    assert english_words(response.get_data(as_text=True), site.data) == {}


def test_every_upload_problem_is_chinese_and_keeps_where(site: Site) -> None:
    files = bad_files()
    data = {"files": [(io.BytesIO(body), name) for name, body in files.items()]}
    page = site.client.post("/upload?lang=zh", data=data, content_type="multipart/form-data")
    html = page.get_data(as_text=True)
    assert english_words(html, site.data | set(files)) == {}
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
            verbatim = site.data | set(files) | {line["source"]} | ({error["path"]} if error["path"] else set())
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
    assert english_words(f"<p>{zh_body['message']}</p>", site.data) == {}, zh_body
    assert zh_body["message"] != en_body["message"]
