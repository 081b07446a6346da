"""Sessions that end (logout, password change, disable end every session of the account), login
throttling with back-off, coalesced failed-login rows, and the password policy (issue 12)."""
from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from records import throttle
from records.security import AccountError, check_password
from records.store import Store
from tests.conftest import TEST_PASSWORD, add_account, example_path, login
from web.db import trail_key


def copied(app: Flask, client: FlaskClient) -> FlaskClient:
    """A second client holding a copy of the first one's session cookie."""
    thief = app.test_client()
    cookie = client.get_cookie("session")
    assert cookie is not None
    thief.set_cookie("session", cookie.value)
    return thief


def test_a_copied_cookie_stops_working_after_logout(app: Flask, client: FlaskClient) -> None:
    record_id = client.post("/api/records", data=example_path("hot-shot-weile").read_bytes(),
                            content_type="application/json").get_json()["results"][0]["record_id"]
    thief = copied(app, client)
    assert thief.get("/records").status_code == 200
    csrf = getattr(client, "csrf", "")
    assert client.post("/logout").status_code == 303
    assert thief.get("/records").status_code == 302
    note = thief.post(f"/api/records/{record_id}/notes", json={"text": "x"}, headers={"X-CSRF-Token": csrf or ""})
    assert note.status_code == 401


def test_logout_ends_every_session_of_the_account(app: Flask) -> None:
    first = login(app, "twice", "auditor")
    second = login(app, "twice", "auditor", create=False)
    assert first.post("/logout").status_code == 303
    assert second.get("/records").status_code == 302
    assert login(app, "twice", "auditor", create=False).get("/records").status_code == 200


@pytest.mark.parametrize("change", ["password", "disable"])
def test_password_change_and_disable_end_sessions(app: Flask, client: FlaskClient, change: str) -> None:
    victim = login(app, "victim", "auditor")
    thief = copied(app, victim)
    with app.app_context():
        store = Store.open(app.config["DATABASE"], trail_key=trail_key())
        account_id = store.db.execute("SELECT id FROM accounts WHERE name = 'victim'").fetchone()[0]
        store.close()
    url = f"/admin/accounts/{account_id}/password" if change == "password" else f"/admin/accounts/{account_id}/disable"
    assert client.post(url, data={"disabled": "1"}).status_code in (200, 303)
    if change == "disable":
        client.post(url, data={"disabled": "0"})  # enabled again: the old sessions stay ended
    assert victim.get("/records").status_code == 302 and thief.get("/records").status_code == 302


def attempt(client: FlaskClient, name: str, password: str, address: str = "10.0.0.1") -> Any:
    """One login through the form from an address."""
    client.get("/login")
    with client.session_transaction() as session:
        token = session["csrf"]
    return client.post("/login", data={"name": name, "password": password, "csrf_token": token},
                       environ_base={"REMOTE_ADDR": address})


def trail_actions(app: Flask, action: str) -> int:
    with app.app_context():
        store = Store.open(app.config["DATABASE"], trail_key=trail_key())
        try:
            return int(store.db.execute("SELECT count(*) FROM trail WHERE action = ?", [action]).fetchone()[0])
        finally:
            store.close()


@pytest.fixture
def login_clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The login's clock, standing still until a test moves it: a lock of 1 s must not end while a
    loaded machine hashes the next password (it did, in a run under two busy processes per core)."""
    clock = [1_800_000_000.0]
    monkeypatch.setattr("web.login.time.time", lambda: clock[0])
    return clock


def test_guessing_is_throttled_and_the_right_password_waits(app: Flask, login_clock: list[float]) -> None:
    add_account(app, "target", "auditor")
    client = app.test_client()
    answers = [attempt(client, "target", f"wrong-{i}").status_code for i in range(60)]
    assert answers[:throttle.FREE_FAILURES] == [401] * throttle.FREE_FAILURES and 429 in answers
    response = attempt(client, "target", TEST_PASSWORD)
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) >= 1
    assert trail_actions(app, "login-failed") <= 2 and trail_actions(app, "login") == 0


def test_throttling_is_per_address_too(app: Flask, login_clock: list[float]) -> None:
    add_account(app, "someone", "auditor")
    client = app.test_client()
    for index in range(throttle.FREE_FAILURES + 1):  # a different name each time, one address
        attempt(client, f"name-{index}", "wrong-password", "10.9.9.9")
    assert attempt(client, "someone", TEST_PASSWORD, "10.9.9.9").status_code == 429
    assert attempt(client, "someone", TEST_PASSWORD, "10.1.1.1").status_code == 303


def test_the_lock_ends_and_backs_off(app: Flask, login_clock: list[float]) -> None:
    add_account(app, "patient", "auditor")
    client = app.test_client()
    clock = login_clock
    for _ in range(throttle.FREE_FAILURES + 1):
        attempt(client, "patient", "wrong-password")
    first = int(attempt(client, "patient", TEST_PASSWORD).headers["Retry-After"])
    clock[0] += first + 0.1
    assert attempt(client, "patient", "wrong-again").status_code == 401
    second = int(attempt(client, "patient", TEST_PASSWORD).headers["Retry-After"])
    assert second > first
    clock[0] += second + 0.1
    assert attempt(client, "patient", TEST_PASSWORD).status_code == 303


@pytest.mark.parametrize("password", ["password123", "Qwertyuiop", "88888888", "woaini1314", "mynameisalice1"])
def test_common_passwords_and_the_account_name_are_refused(password: str) -> None:
    with pytest.raises(AccountError):
        check_password(password, "alice")


def test_a_long_uncommon_password_passes() -> None:
    assert check_password("梅花三弄 under the bridge", "alice")


def test_the_admin_form_refuses_a_common_password(client: FlaskClient) -> None:
    response = client.post("/admin/accounts", data={"name": "weak", "role": "auditor", "password": "password1"})
    assert response.status_code == 400
