"""A refused request writes nothing (issue 22.3): every POST, PUT, PATCH and DELETE rule of the URL map,
walked, not listed, is sent invalid bodies (JSON that does not parse, objects of wrong or missing
fields, forms naming records that do not exist or belong to another platform, ids past every row)
on existing and missing ids, and every answer of 4xx must leave the whole database (every table,
every row) as it was. A new route that writes before it validates fails here.

The refusals that are evidence themselves are the only writes allowed, and only in their tables:
the receipt of a refused upload (issue 11: "did my game reach you, and why was it refused?") and a
failed login's throttle counter and `login-failed` entry (docs/trust.md)."""
from __future__ import annotations

import io
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from werkzeug.routing import PathConverter, UnicodeConverter

from tests.conftest import login
from tests.web.evidence import PLATFORM, Scenario, build, everything

REFUSAL_EVIDENCE = {"api.upload": ({"receipts"}, {"receipt"}), "pages.upload_submit": ({"receipts"}, {"receipt"}),
                    "auth.login": ({"login_throttle"}, {"login-failed"})}
"""Endpoint -> (tables a refusal may add rows to, trail actions it may append)."""
LAST = ("auth.login", "auth.logout")
"""Sent last: refused logins lock the client's address for a while (no more logging in again after
a success that ended the session), and a logout ends it."""


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    return build(tmp_path_factory.mktemp("refusals"))


class Rows:
    """Every row of the database (`everything`), read again only when another connection has committed
    since the last read: SQLite's `PRAGMA data_version` on a connection of our own changes exactly then
    (issue 35.4: reading every table twice per request was a third of the walk). A request that commits
    nothing leaves the rows as they were read; one that commits anything is compared in full."""

    def __init__(self, path: str, db: sqlite3.Connection) -> None:
        self.path = path
        self.db = db
        self.version: int | None = None
        self.rows: dict[str, list[tuple[Any, ...]]] = {}

    def now(self) -> dict[str, list[tuple[Any, ...]]]:
        version = int(self.db.execute("PRAGMA data_version").fetchone()[0])
        if version != self.version:
            self.rows, self.version = everything(self.path), version
        return self.rows


@pytest.fixture
def rows(scenario: Scenario) -> Iterator[Rows]:
    with closing(sqlite3.connect(scenario.path)) as db:
        yield Rows(scenario.path, db)


def test_rows_are_read_again_after_any_commit(scenario: Scenario, rows: Rows) -> None:
    """The shortcut sees a write of another connection: what the walk below relies on."""
    first = rows.now()
    assert rows.now() is first
    with closing(sqlite3.connect(scenario.path)) as other:
        with other:
            other.execute("INSERT INTO login_throttle (key, failures, refused, last_at, blocked_until, logged_at)"
                          " VALUES ('rows-test', 0, 0, 0, 0, 0)")
        changed = rows.now()
        with other:
            other.execute("DELETE FROM login_throttle WHERE key = 'rows-test'")
    assert changed is not first and changed["login_throttle"] != first["login_throttle"]
    assert rows.now() is not changed and rows.now() == first


def bodies(other_record: int) -> list[dict[str, Any]]:
    """Invalid bodies, as JSON and as forms: each is sent to every unsafe route."""
    case = {"number": "K-refused", "platform": PLATFORM, "player": "p", "complaint": "some complaint"}
    return [
        {"data": b"", "content_type": "application/json"},
        {"data": b"{broken", "content_type": "application/json"},
        {"data": b"[1, 2]", "content_type": "application/json"},
        {"data": b'{"record": 999999, "revision": 999999, "audit": 999999, "outcome": "nope", "note": "",'
                 b' "number": "", "complaint": "", "decision": "nope", "text": ""}', "content_type": "application/json"},
        {"data": b'{"record": 999999, "number": "K-api-missing", "platform": "%s", "complaint": "c"}' %
                 PLATFORM.encode(), "content_type": "application/json"},
        {"data": {**case, "record": "999999"}},
        {"data": {**case, "number": "K-refused-other", "record": str(other_record)}},
        {"data": {"record": str(other_record), "revision": "999999", "outcome": "nope", "audit": "999999",
                  "from": "a", "to": "a", "amount": "x", "role": "emperor", "platform": "", "name": "",
                  "password": "short", "disabled": "2", "label": "x" * 5000, "kit": "../x", "decision": "nope",
                  "text": "", "case_number": "x" * 100, "number": "NO-SUCH-CASE"}},
        {"data": {"files": (io.BytesIO(b"{broken"), "bad.json")}, "content_type": "multipart/form-data"},
        {"data": {}},
    ]


def urls(rule: Any, ids: tuple[int, ...]) -> list[str]:
    """The rule's URL with every numeric argument set to each of `ids` (words: a word)."""
    found = []
    for ident in ids:
        values = {name: "nothing" if isinstance(converter, (UnicodeConverter, PathConverter)) else ident
                  for name, converter in rule._converters.items()}
        found.append(rule.build(values, append_unknown=False)[1])
    return found


def test_every_refused_unsafe_request_leaves_the_database_as_it_was(scenario: Scenario, rows: Rows) -> None:
    app = scenario.app
    client = login(app, create=False)
    with app.app_context():
        rules = sorted((rule for rule in app.url_map.iter_rules()
                        if rule.methods and rule.methods & {"POST", "PUT", "PATCH", "DELETE"}),
                       key=lambda rule: (rule.endpoint in LAST, rule.rule))
    with sqlite3.connect(scenario.path) as db:  # a record of another platform than the cases'
        other_record = int(db.execute("SELECT id FROM records WHERE platform != ? LIMIT 1", [PLATFORM]).fetchone()[0])
    refused = wrote = 0
    failures: list[str] = []
    for rule in rules:
        allowed_tables, allowed_actions = REFUSAL_EVIDENCE.get(rule.endpoint, (set(), set()))
        ids = (2, 999999) if rule.rule.startswith("/admin/") else (1, 999999)  # 2: not the admin walking
        for url in urls(rule, ids):
            for method in sorted((rule.methods or set()) & {"POST", "PUT", "PATCH", "DELETE"}):
                for body in bodies(other_record):
                    before = rows.now()
                    kwargs = dict(body)
                    if isinstance(kwargs.get("data"), dict):
                        kwargs["data"] = {k: (io.BytesIO(v[0].getvalue()), v[1]) if isinstance(v, tuple) else v
                                          for k, v in kwargs["data"].items()}
                    response = client.open(url, method=method, **kwargs)
                    if not 400 <= response.status_code < 500:
                        if rule.endpoint not in LAST:  # a success may have ended the session (a password)
                            client = login(app, create=False)
                        continue
                    refused += 1
                    after = rows.now()
                    if after is before:  # nothing committed
                        continue
                    changed = [name for name in after if after[name] != before.get(name)]
                    extra = [name for name in changed if name not in allowed_tables | {"trail"}]
                    new_trail = [row for row in after.get("trail", []) if row not in before.get("trail", [])]
                    bad_trail = [row[3] for row in new_trail if row[3] not in allowed_actions]
                    gone = [name for name in changed if name not in allowed_tables
                            and not set(before.get(name, [])) <= set(after[name])]
                    if extra or bad_trail or gone:
                        wrote += 1
                        failures.append(f"{method} {url} {body.get('content_type', 'form')} "
                                        f"{str(body['data'])[:60]} -> {response.status_code}: wrote "
                                        f"{extra or ''}{bad_trail or ''}{gone or ''}")
    assert refused > 200
    assert failures == [], "\n".join(failures)
    assert wrote == 0
