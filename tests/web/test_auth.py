"""Accounts, roles, sessions, API tokens, the admin pages and the account commands."""
from __future__ import annotations

import io
import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from app import create_app
from records.security import Accounts, hash_token
from records.store import Store
from tests.conftest import (ROOT, TEST_PASSWORD, add_account, api_token, dumps, example_path, load_example, login,
                            variant)

PUBLIC = {"auth.login", "auth.health", "static"}


def sample_url(rule: Any) -> str:
    """A concrete URL for a rule (ids 1)."""
    return re.sub(r"<(?:\w+:)?\w+>", "1", rule.rule)


def store_of(app: Flask) -> Store:
    """A store on the app's database (close it after use)."""
    return Store.open(app.config["DATABASE"])


def raw_upload(client: FlaskClient, doc: dict[str, Any], **kwargs: Any) -> Any:
    """POST one record as a raw JSON body."""
    return client.post("/api/records", data=dumps(doc), content_type="application/json", **kwargs)


# ----- nobody ---------------------------------------------------------------------------------


def test_every_route_but_login_health_and_static_needs_an_account(app: Flask, anon_client: FlaskClient) -> None:
    for rule in app.url_map.iter_rules():
        if rule.endpoint in PUBLIC:
            continue
        for method in (rule.methods or set()) - {"HEAD", "OPTIONS"}:
            response = anon_client.open(sample_url(rule), method=method)
            if rule.rule.startswith("/api/") or method != "GET":
                assert response.status_code == 401, (method, rule.rule)
            else:
                assert response.status_code == 302 and "/login?next=" in response.headers["Location"], rule.rule


def test_api_401_is_json_with_a_bearer_challenge(anon_client: FlaskClient) -> None:
    response = anon_client.get("/api/records")
    assert response.status_code == 401 and response.headers["WWW-Authenticate"].startswith("Bearer")
    assert "Authorization: Bearer" in response.get_json()["message"]
    bad = anon_client.get("/api/records", headers={"Authorization": "Bearer zj_not-a-token"})
    assert bad.status_code == 401 and "unknown, revoked" in bad.get_json()["message"]
    basic = anon_client.get("/api/records", headers={"Authorization": "Basic YWRtaW46eA=="})
    assert basic.status_code == 401


def test_health_login_and_static_are_public(anon_client: FlaskClient) -> None:
    assert anon_client.get("/health").get_json() == {"status": "ok"}
    assert anon_client.get("/login").status_code == 200
    assert anon_client.get("/static/style.css").status_code == 200


def test_every_view_declares_its_roles(app: Flask) -> None:
    undeclared = [endpoint for endpoint, view in app.view_functions.items()
                  if endpoint not in PUBLIC and not hasattr(view, "allowed_roles")]
    assert undeclared == []  # a new route without @requires would be admin-only (fail closed)


# ----- logging in -----------------------------------------------------------------------------


def _login_form(client: FlaskClient, name: str, password: str, next_url: str = "") -> Any:
    """GET /login for the CSRF token, then POST the form."""
    client.get("/login")
    with client.session_transaction() as session:
        token = session["csrf"]
    return client.post("/login", data={"name": name, "password": password, "csrf_token": token, "next": next_url})


def test_login_and_logout(app: Flask, anon_client: FlaskClient) -> None:
    add_account(app, "阿明", "auditor")
    response = _login_form(anon_client, "阿明", TEST_PASSWORD, "/records?verdict=clean")
    assert response.status_code == 303 and response.headers["Location"] == "/records?verdict=clean"
    page = anon_client.get("/records").get_data(as_text=True)
    assert "阿明" in page and "退出" in page
    with anon_client.session_transaction() as session:
        token = session["csrf"]
    assert anon_client.post("/logout", data={"csrf_token": token}).status_code == 303
    assert anon_client.get("/records").status_code == 302


@pytest.mark.parametrize(("name", "password"), [("admin", "wrong password"), ("nobody", TEST_PASSWORD),
                                                ("admin", ""), ("x" * 500, "y" * 5000)])
def test_wrong_login_is_401_and_says_the_same_either_way(app: Flask, anon_client: FlaskClient, name: str,
                                                         password: str) -> None:
    add_account(app, "admin")
    response = _login_form(anon_client, name, password)
    assert response.status_code == 401 and "名字或密码不对" in response.get_data(as_text=True)
    assert anon_client.get("/records").status_code == 302
    store = store_of(app)
    try:
        assert store.db.execute("SELECT count(*) FROM trail WHERE action = 'login-failed'").fetchone()[0] == 1
    finally:
        store.close()


@pytest.mark.parametrize("target", ["//evil.example/x", "https://evil.example/", "/\\evil.example", "records"])
def test_login_never_redirects_off_site(app: Flask, anon_client: FlaskClient, target: str) -> None:
    add_account(app, "admin")
    response = _login_form(anon_client, "admin", TEST_PASSWORD, target)
    assert response.status_code == 303 and response.headers["Location"] == "/records"


def test_uploader_accounts_cannot_log_in_to_the_pages(app: Flask, anon_client: FlaskClient) -> None:
    add_account(app, "table-server", "uploader", "alpha")
    response = _login_form(anon_client, "table-server", TEST_PASSWORD)
    assert response.status_code == 401 and "接口令牌" in response.get_data(as_text=True)


def test_disabling_an_account_ends_its_session_and_tokens(app: Flask, client: FlaskClient) -> None:
    auditor = login(app, "auditor1", "auditor")
    headers = api_token(app, "auditor2", "auditor")
    assert auditor.get("/records").status_code == 200 and client.get("/api/records", headers=headers).status_code == 200
    for name in ("auditor1", "auditor2"):
        account_id = _account_id(app, name)
        assert client.post(f"/admin/accounts/{account_id}/disable", data={"disabled": "1"}).status_code == 303
    assert auditor.get("/records").status_code == 302
    assert auditor.get("/api/records").status_code == 401
    assert app.test_client().get("/api/records", headers=headers).status_code == 401
    client.post(f"/admin/accounts/{_account_id(app, 'auditor2')}/disable", data={"disabled": "0"})
    assert app.test_client().get("/api/records", headers=headers).status_code == 200


def test_a_new_password_ends_old_sessions(app: Flask, client: FlaskClient) -> None:
    auditor = login(app, "auditor1", "auditor")
    response = client.post(f"/admin/accounts/{_account_id(app, 'auditor1')}/password")
    assert response.status_code == 200
    (password,) = re.findall(r'<p class="secret">[^<]*<code>([^<]+)</code>', response.get_data(as_text=True))
    assert auditor.get("/records").status_code == 302
    assert _login_form(app.test_client(), "auditor1", password).status_code == 303


def _account_id(app: Flask, name: str) -> int:
    """The id of an account by name."""
    store = store_of(app)
    try:
        account = Accounts(store.db).by_name(name)
        assert account is not None
        return account.id
    finally:
        store.close()


# ----- roles ----------------------------------------------------------------------------------


@pytest.fixture
def record_id(client: FlaskClient) -> int:
    """One stored record of platform alpha."""
    response = raw_upload(client, variant(load_example("hot-shot-weile"), platform="alpha"))
    return int(response.get_json()["results"][0]["record_id"])


def test_auditor_reads_reaudits_and_annotates_but_cannot_administer(app: Flask, record_id: int) -> None:
    auditor = login(app, "auditor1", "auditor")
    assert auditor.get(f"/records/{record_id}").status_code == 200
    assert auditor.post(f"/api/records/{record_id}/audit", json={"profile": "cuocuo"}).status_code == 201
    assert auditor.post(f"/api/records/{record_id}/notes", json={"text": "ok"}).status_code == 201
    for url in ("/admin/accounts", "/admin/trail", "/admin/accounts/1"):
        response = auditor.get(url)
        assert response.status_code == 403 and "admin" in response.get_data(as_text=True)
    assert auditor.post("/admin/accounts", data={"name": "x", "role": "admin"}).status_code == 403


def test_uploader_token_uploads_and_reads_only_its_platform(app: Flask, client: FlaskClient, record_id: int) -> None:
    headers = api_token(app, "alpha-server", "uploader", "alpha")
    beta = raw_upload(client, variant(load_example("hot-shot-weile"), platform="beta", game_id="b-1"))
    beta_id = beta.get_json()["results"][0]["record_id"]
    uploader = app.test_client()
    own = raw_upload(uploader, variant(load_example("hot-shot-weile"), platform="alpha", game_id="a-2"),
                     headers=headers)
    assert own.status_code == 201 and own.get_json()["results"][0]["platform"] == "alpha"
    listing = uploader.get("/api/records", headers=headers).get_json()
    assert listing["total"] == 2 and {row["platform"] for row in listing["records"]} == {"alpha"}
    assert uploader.get("/api/records", query_string={"platform": "beta"}, headers=headers).status_code == 404
    assert uploader.get(f"/api/records/{record_id}", headers=headers).status_code == 200
    for url in (f"/api/records/{beta_id}", f"/api/records/{beta_id}/raw", f"/api/records/{beta_id}/audit",
                f"/api/records/{beta_id}/audits"):
        response = uploader.get(url, headers=headers)
        assert response.status_code == 404 and f"record {beta_id} does not exist" in response.get_json()["message"]


def test_uploader_may_not_upload_for_another_platform(app: Flask, client: FlaskClient) -> None:
    headers = api_token(app, "alpha-server", "uploader", "alpha")
    good = dumps(variant(load_example("hot-shot-weile"), platform="alpha", game_id="a-1"))
    bad = dumps(variant(load_example("hot-shot-weile"), platform="beta", game_id="b-1"))
    response = app.test_client().post("/api/records", data=good + b"\n" + bad, headers=headers,
                                      content_type="application/x-ndjson")
    body = response.get_json()
    assert response.status_code == 403 and "platform" in body["details"]
    assert "body.jsonl:2: platform: 'beta' is not the platform of this account ('alpha')" in body["message"]
    assert client.get("/api/records").get_json()["total"] == 0  # the good line was not stored either


def test_uploader_cannot_reaudit_annotate_or_use_pages(app: Flask, record_id: int) -> None:
    headers = api_token(app, "alpha-server", "uploader", "alpha")
    uploader = app.test_client()
    assert uploader.post(f"/api/records/{record_id}/audit", json={}, headers=headers).status_code == 403
    assert uploader.post(f"/api/records/{record_id}/notes", json={"text": "x"}, headers=headers).status_code == 403
    assert uploader.get(f"/api/records/{record_id}/trail", headers=headers).status_code == 403
    assert uploader.get("/records", headers=headers).status_code == 403
    assert uploader.get("/admin/accounts", headers=headers).status_code == 403


# ----- admin pages ----------------------------------------------------------------------------


def test_admin_creates_an_account_with_a_random_password_shown_once(app: Flask, client: FlaskClient) -> None:
    response = client.post("/admin/accounts", data={"name": "新审计员", "role": "auditor", "password": ""})
    text = response.get_data(as_text=True)
    assert response.status_code == 201 and "新审计员" in text
    (password,) = re.findall(r'<p class="secret">[^<]*<code>([^<]+)</code>', text)
    assert len(password) >= 16 and password not in client.get("/admin/accounts").get_data(as_text=True)
    assert _login_form(app.test_client(), "新审计员", password).status_code == 303


@pytest.mark.parametrize(("form", "code"), [
    ({"name": "admin", "role": "auditor", "password": "long enough"}, "account_name_taken"),
    ({"name": "has space", "role": "auditor"}, "account_name_bad"),
    ({"name": "up", "role": "uploader"}, "account_platform_missing"),
    ({"name": "x", "role": "superuser"}, "account_role_unknown"),
    ({"name": "x", "role": "auditor", "password": "short"}, "account_password_length"),
])
def test_admin_account_form_errors(client: FlaskClient, form: dict[str, str], code: str) -> None:
    """Each refused with its code (issue 33.4), in the page's language."""
    for lang in ("zh", "en"):
        response = client.post(f"/admin/accounts?lang={lang}", data=form)
        assert response.status_code == 400 and f'data-code="{code}"' in response.get_data(as_text=True)


def test_the_last_admin_cannot_be_disabled_or_demoted(app: Flask, client: FlaskClient) -> None:
    admin_id = _account_id(app, "admin")
    assert client.post(f"/admin/accounts/{admin_id}/disable", data={"disabled": "1"}).status_code == 400
    demote = client.post(f"/admin/accounts/{admin_id}", data={"role": "auditor"})
    assert demote.status_code == 400 and 'data-code="account_last_admin"' in demote.get_data(as_text=True)


def test_admin_sets_role_and_platform(app: Flask, client: FlaskClient) -> None:
    add_account(app, "someone", "auditor")
    account_id = _account_id(app, "someone")
    response = client.post(f"/admin/accounts/{account_id}", data={"role": "uploader", "platform": "gamma"})
    assert response.status_code == 303
    page = client.get(f"/admin/accounts/{account_id}").get_data(as_text=True)
    assert "gamma" in page and "上传账号" in page


def test_tokens_are_shown_once_stored_hashed_and_revocable(app: Flask, client: FlaskClient) -> None:
    add_account(app, "alpha-server", "uploader", "alpha")
    account_id = _account_id(app, "alpha-server")
    response = client.post(f"/admin/accounts/{account_id}/tokens", data={"label": "table 7"})
    (token,) = re.findall(r"<code>(zj_[A-Za-z0-9_-]{40,})</code>", response.get_data(as_text=True))
    assert response.status_code == 201 and response.headers["Cache-Control"] == "no-store"
    assert token not in client.get(f"/admin/accounts/{account_id}").get_data(as_text=True)
    store = store_of(app)
    try:
        (row,) = list(store.db.query("SELECT id, token_hash FROM tokens"))
        dump = "\n".join(store.db.iterdump())
    finally:
        store.close()
    assert row["token_hash"] == hash_token(token) and token not in dump
    headers = {"Authorization": f"Bearer {token}"}
    assert app.test_client().get("/api/records", headers=headers).status_code == 200
    assert client.post(f"/admin/tokens/{row['id']}/revoke").status_code == 303
    assert app.test_client().get("/api/records", headers=headers).status_code == 401


def test_admin_trail_page_lists_account_changes(client: FlaskClient) -> None:
    client.post("/admin/accounts", data={"name": "trailed", "role": "auditor"})
    text = client.get("/admin/trail").get_data(as_text=True)
    assert "创建账号" in text and "trailed" in text and "登录" in text


# ----- commands -------------------------------------------------------------------------------


def test_create_user_and_create_token_commands(app: Flask, runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["create-user", "ops", "--role", "admin", "--password-stdin"],
                           input="a long password\n")
    assert result.exit_code == 0 and "Created admin account ops" in result.output
    prompted = runner.invoke(args=["create-user", "feed", "--role", "uploader", "--platform", "alpha"],
                             input="another password\nanother password\n")
    assert prompted.exit_code == 0 and "for platform alpha" in prompted.output
    assert runner.invoke(args=["create-user", "ops", "--role", "auditor", "--password-stdin"],
                         input="a long password\n").exit_code == 1
    assert runner.invoke(args=["create-user", "x", "--role", "uploader", "--password-stdin"],
                         input="a long password\n").exit_code == 1  # no platform
    token = runner.invoke(args=["create-token", "feed", "--label", "server"])
    assert token.exit_code == 0 and token.output.startswith("zj_")
    headers = {"Authorization": f"Bearer {token.output.strip()}"}
    assert app.test_client().get("/api/records", headers=headers).status_code == 200
    assert runner.invoke(args=["create-token", "nobody"]).exit_code == 1
    assert _login_form(app.test_client(), "ops", "a long password").status_code == 303


def test_bootstrap_creates_one_admin_with_a_random_password(app: Flask, runner: FlaskCliRunner,
                                                            tmp_path: Path) -> None:
    first = runner.invoke(args=["bootstrap"])
    assert first.exit_code == 0 and "/login" in first.output
    (password,) = re.findall(r"password:\s+(\S+)", first.output)
    assert _login_form(app.test_client(), "admin", password).status_code == 303
    again = runner.invoke(args=["bootstrap"])
    assert again.exit_code == 0 and "password:" not in again.output and "exists already" in again.output
    other = create_app({"TESTING": True, "DATABASE": str(tmp_path / "other.sqlite3")}).test_cli_runner()
    assert re.findall(r"password:\s+(\S+)", other.invoke(args=["bootstrap"]).output) != [password]


def test_make_run_bootstraps() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    run = makefile.split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "flask --app app bootstrap" in run


def test_no_secret_is_baked_into_the_code(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.sqlite3")})
    assert app.config["SECRET_KEY"] not in (None, "", "dev")
    key_file = Path(app.instance_path) / "secret_key"
    assert key_file.read_text(encoding="ascii").strip() == app.config["SECRET_KEY"]
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    assert create_app({"TESTING": True, "SECRET_KEY": "given"}).config["SECRET_KEY"] == "given"


def test_trust_docs_name_every_command() -> None:
    docs = (ROOT / "docs" / "trust.md").read_text(encoding="utf-8")
    for command in ("create-user", "create-token", "bootstrap", "reaudit", "verify"):
        assert f"flask --app app {command}" in docs, command


def test_upload_form_carries_the_uploader_and_the_account(client: FlaskClient) -> None:
    data = {"files": [(io.BytesIO(example_path("hot-shot-weile").read_bytes()), "a.json")], "uploader": "桌7"}
    assert client.post("/upload", data=data).status_code == 200
    assert client.get("/api/records").get_json()["records"][0]["uploader"] == "admin / 桌7"
