"""Fixtures for the service tests: app -> client -> runner on a temporary database,
a store on a temporary file, and record builders from the shared spec samples.

Everything runs against the real engine (`audit.api`) and the real schema check
(`audit.schema`); the only fakes are auditors that fail on purpose.
"""
from __future__ import annotations

import copy
import io
import json
import os
import sys
import zipfile
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `pytest tests/...` from the repository root without an install
    sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402
from flask.testing import FlaskClient, FlaskCliRunner  # noqa: E402
from werkzeug.security import generate_password_hash  # noqa: E402

from hypothesis import HealthCheck, settings  # noqa: E402

from app import create_app  # noqa: E402
from records.rows import now  # noqa: E402
from records.security import Accounts  # noqa: E402
from records.store import Store  # noqa: E402
from web.db import trail_key  # noqa: E402

SPEC = ROOT / "spec" if (ROOT / "spec").is_dir() else ROOT.parent / "shared" / "spec"
"""The repository's copy of the spec, else shared/spec beside the checkout."""
EXAMPLES = SPEC / "examples"
REFERENCE = SPEC / "reference"


# Generation speed is wall-clock: on a shared 2-core machine (and in CI) it fails for
# reasons that have nothing to do with the code under test. Tests that set their own
# `suppress_health_check` list include `too_slow` themselves.
settings.register_profile("project", suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("project"), derandomize=True, database=None,
                          deadline=None, print_blob=True)
"""In CI (`CI` set: .ci/run sets it) every property test draws the same examples on every run, so a red
build is the code's doing, never the draw's (issue 35.4); a developer's run keeps exploring new ones."""


def hypothesis_profile(environ: Mapping[str, str]) -> str:
    """The hypothesis profile of a run: `ci` where the environment says CI, else `project`."""
    return "ci" if environ.get("CI", "").strip().lower() not in ("", "0", "false", "no") else "project"


settings.load_profile(hypothesis_profile(os.environ))


def pytest_report_header() -> str:
    """Say which engine the run tests: the mypyc build (`make native`) or plain Python."""
    from audit import native

    done = native.compiled()
    if not done:
        return "engine: plain Python (no compiled modules; `make native` builds them)"
    return f"engine: compiled with mypyc ({len(done)} of {len(native.COMPILED)} modules)"


def example_path(name: str) -> Path:
    """A worked example record of the spec."""
    return EXAMPLES / f"{name}.json"


def load_example(name: str) -> dict[str, Any]:
    """A fresh parsed copy of an example record."""
    return json.loads(example_path(name).read_text(encoding="utf-8"))


def reference_paths() -> list[Path]:
    """The 30 reference games, all of which audit clean."""
    return sorted(REFERENCE.glob("ref-*.json"))


def variant(doc: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A copy of a record with top-level fields replaced."""
    copied = copy.deepcopy(doc)
    copied.update(changes)
    return copied


def missettled(doc: dict[str, Any]) -> dict[str, Any]:
    """A copy whose claimed scores are wrong (still summing to zero): audits missettled."""
    copied = copy.deepcopy(doc)
    scores = copied["result"]["scores"]
    scores[0] += 1
    scores[1] -= 1
    copied["result"].pop("items", None)
    return copied


def dumps(doc: Any, *, pretty: bool = False) -> bytes:
    """JSON bytes as a platform would send them."""
    return json.dumps(doc, ensure_ascii=False, indent=1 if pretty else None).encode("utf-8")


def make_zip(members: dict[str, bytes], *, compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip archive holding the given members (names ending in / are directories)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name, data in members.items():
            if name.endswith("/"):
                archive.writestr(zipfile.ZipInfo(name), b"")
            else:
                archive.writestr(name, data)
    return buffer.getvalue()


def failing_auditor(*_args: Any, **_kwargs: Any) -> list[dict[str, Any]]:
    """An engine that breaks its promise never to raise."""
    raise RuntimeError("engine exploded")


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
            with store.atomic():
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
            with store.atomic():
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


@pytest.fixture(scope="session")
def dask_client() -> Iterator[Any]:
    """A local Dask cluster of 2 worker processes, shared by the batch tests of a session (each
    start costs seconds), torn down at the end. Started only when a test asks for it."""
    from batch.runner import cluster

    with cluster(workers=2) as client:
        yield client
