"""The service's test fixtures and helpers: app -> client -> runner on a temporary database, a store
on a temporary file, logged-in clients and API tokens. Loaded by tests/conftest.py where Flask and
sqlite-utils are installed (the engine's tests run without them, issue 35.3)."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from werkzeug.security import generate_password_hash

from app import create_app
from records.db import atomic
from records.rows import now
from records.security import Accounts
from records.store import Store
from web.db import trail_key


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The service on a temporary database, with the real engine (its trail key beside it)."""
    app = create_app(app_config(tmp_path))
    yield app


def app_config(tmp_path: Path, name: str = "service.sqlite3", **config: Any) -> dict[str, Any]:
    """The configuration of a test app: a temporary database and trail key, plain-http cookies."""
    return {"TESTING": True, "DATABASE": str(tmp_path / name), "TRAIL_KEY_FILE": str(tmp_path / "trail_key"),
            "SESSION_COOKIE_SECURE": False, **config}


TEST_PASSWORD = "correct horse battery"
FAST_HASH = generate_password_hash(TEST_PASSWORD, method="pbkdf2:sha256:1000")
"""Accounts made by the fixtures share one cheap hash: scrypt costs 0.15 s a login."""


class LoggedInClient(FlaskClient):
    """A test client with a login session that sends the session's CSRF token with every unsafe
    request, as the pages and upload.js do (tests/web/test_security.py checks CSRF itself)."""

    csrf: str | None = None

    def open(self, *args: Any, **kwargs: Any) -> Any:
        """Add X-CSRF-Token unless the request is safe or brings its own headers for it."""
        if self.csrf and kwargs.get("method", "GET") not in ("GET", "HEAD", "OPTIONS"):
            headers = dict(kwargs.pop("headers", None) or {})
            headers.setdefault("X-CSRF-Token", self.csrf)
            kwargs["headers"] = headers
        return super().open(*args, **kwargs)


def add_account(app: Flask, name: str, role: str = "admin", platform: str | None = None) -> None:
    """Create an account with TEST_PASSWORD."""
    with app.app_context():
        store = Store.open(app.config["DATABASE"], trail_key=trail_key())
        try:
            with atomic(store.db):
                Accounts(store.db, store.trail_key).create(name, role, TEST_PASSWORD, platform=platform, stamp=now(),
                                          password_hash=FAST_HASH)
        finally:
            store.close()


def login(app: Flask, name: str = "admin", role: str = "admin", *, create: bool = True) -> LoggedInClient:
    """A client logged in through the real /login form (the account is created first)."""
    if create:
        add_account(app, name, role)
    app.test_client_class = LoggedInClient
    client = app.test_client()
    assert isinstance(client, LoggedInClient)
    client.get("/login")
    with client.session_transaction() as session:
        token = session["csrf"]
    response = client.post("/login", data={"name": name, "password": TEST_PASSWORD, "csrf_token": token})
    assert response.status_code == 303, response.get_data(as_text=True)
    with client.session_transaction() as session:
        client.csrf = session["csrf"]
    return client


def api_token(app: Flask, name: str, role: str = "uploader", platform: str | None = None) -> dict[str, str]:
    """Headers with a fresh bearer token of a new account."""
    add_account(app, name, role, platform)
    with app.app_context():
        store = Store.open(app.config["DATABASE"], trail_key=trail_key())
        try:
            accounts = Accounts(store.db, store.trail_key)
            account = accounts.by_name(name)
            assert account is not None
            with atomic(store.db):
                token = accounts.create_token(account.id, label="test", created_by="tests", stamp=now())
        finally:
            store.close()
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client logged in as an admin (every route needs an account)."""
    return login(app)


@pytest.fixture
def anon_client(app: Flask) -> FlaskClient:
    """A test client with no account."""
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    """A CLI runner of the app's commands."""
    return app.test_cli_runner()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A store on a temporary file with the real engine."""
    store = Store.open(tmp_path / "store.sqlite3")
    yield store
    store.close()


@pytest.fixture
def upload(client: FlaskClient) -> Callable[..., Any]:
    """POST one raw body to /api/records; returns the response."""

    def post(data: bytes, content_type: str = "application/json", **kwargs: Any) -> Any:
        return client.post("/api/records", data=data, content_type=content_type, **kwargs)

    return post


__all__ = ["FAST_HASH", "LoggedInClient", "TEST_PASSWORD", "add_account", "anon_client", "api_token", "app",
           "app_config", "client", "login", "runner", "store", "upload"]
