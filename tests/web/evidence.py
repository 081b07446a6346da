"""A service database holding a row in every table (issue 22.3, 22.4), made through the service's own
paths: uploads through the API (JSON lines with a refused line, a match, a second revision), a
record the engine failed on, a re-audit, a note, a case opened, attached, decided and closed, a
conformance run, tokens made and revoked, a failed login. Shared by the tamper test generated from
the schema and the test that refused requests write nothing."""
from __future__ import annotations

import io
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask

from app import create_app
from kit.build import build_kit, write_kit
from records import cases, conformance, fit_jobs, platform_reaudit, platforms, trail
from records.db import atomic
from records.ingest import read_upload
from records.pipeline import Engine, Pipeline
from records.rows import now
from records.security import Accounts
from records.store import Store
from tests.conftest import ROOT, LoggedInClient, api_token, app_config, dumps, failing_auditor, load_example, login, \
    variant
from tests.kit.kit_clients import answer_kit
from web.db import trail_key

PLATFORM = "sample-platform"


@dataclass(frozen=True)
class Scenario:
    """The service, its database, its key and the head of its trail after the scenario."""

    app: Flask
    client: LoggedInClient
    path: str
    key: bytes
    head: trail.Head
    uploader: dict[str, str]
    other: dict[str, str]


def lines_file() -> bytes:
    """Three games of the test platform, a line that is no JSON, one game of another platform."""
    base = variant(load_example("hot-shot-weile"), platform=PLATFORM)
    lines = [dumps(variant(base, game_id=f"ev-{n}")).decode("utf-8") for n in range(3)]
    lines.append("{broken")
    lines.append(dumps(variant(base, game_id="ev-other", platform="other-platform")).decode("utf-8"))
    return ("\n".join(lines) + "\n").encode("utf-8")


def build(tmp_path: Path) -> Scenario:
    """Fill every table of a fresh database through the service."""
    kits = tmp_path / "kits"
    write_kit(build_kit("cuocuo", {}, cases=40, seed=5, min_count=1), kits / "cuocuo-5")
    app = create_app(app_config(tmp_path, CONFORMANCE_KITS=str(kits)))
    client = login(app)
    uploader = api_token(app, "feed", "uploader", PLATFORM)
    other = api_token(app, "feed-other", "uploader", "other-platform")
    files = {"files": [(io.BytesIO(lines_file()), "day.jsonl"),
                       (io.BytesIO((ROOT / "samples" / "illegal-match-dealer.json").read_bytes()), "match.json")]}
    answer = client.post("/api/records", data=files, content_type="multipart/form-data")
    assert answer.status_code == 207, answer.get_data(as_text=True)
    second = dumps(variant(load_example("hot-shot-weile"), platform=PLATFORM, game_id="ev-0", client="web 9.9"))
    answer = client.post("/api/records", data=second, content_type="application/json")
    assert answer.status_code == 201, answer.get_data(as_text=True)
    client.post("/login", data={"name": "nobody", "password": "wrong password"})
    with app.app_context():
        key = trail_key()
    store = Store.open(app.config["DATABASE"], trail_key=key)
    try:
        broken = Pipeline(store, Engine(failing_auditor, "broken"))
        doc = dumps(variant(load_example("hot-shot-weile"), platform=PLATFORM, game_id="ev-flagged"))
        broken.upload_batches([read_upload("flagged.json", doc)], uploader="feed", actor="feed")
        Pipeline(store).reaudit(1, actor="admin", reason="second look")
        stamp = now()
        with atomic(store.db):
            trail.add_note(store.db, record_id=1, author="admin", case_number="K-1", decision="open", text="looked",
                           at=stamp, key=key)
            case_id = cases.open_case(store.db, number="K-1", platform=PLATFORM, player="阿明", complaint="少了 3 分",
                                      actor="admin", at=stamp, key=key)
            cases.attach(store.db, case_id=case_id, record_id=1, revision=None, actor="admin", at=stamp, key=key)
            audit_id = int(store.db.execute("SELECT latest_audit_id FROM records WHERE id = 1").fetchone()[0])
            cases.decide(store.db, case_id=case_id, outcome="upheld", note="paid back",
                         payments=[{"from": "u101", "to": "u100", "amount": 3}], audit_id=audit_id, actor="admin",
                         at=stamp, key=key)
            cases.close(store.db, case_id=case_id, actor="admin", at=stamp, key=key)
            accounts = Accounts(store.db, key)
            account = accounts.by_name("feed")
            assert account is not None
            token = accounts.create_token(account.id, label="old", created_by="admin", stamp=stamp)
            assert token
            newest = int(store.db.execute("SELECT max(id) FROM tokens").fetchone()[0])
            accounts.revoke_token(newest, revoked_by="admin", stamp=stamp)
        answers, _ = answer_kit(kits / "cuocuo-5")
        conformance.submit(store.db, kits, kit_name="cuocuo-5", platform=PLATFORM, client_version="2.1.0",
                           answers=("\n".join(answers) + "\n").encode("utf-8"), uploader="feed", stamp=now(), key=key)
        weile = (ROOT / "audit" / "profiles" / "weile.toml").read_text(encoding="utf-8")
        for version, bonus in ((1, "1"), (2, "2")):  # issue 36.3: two versions, the history re-audited
            text = weile.replace('name = "weile"', f'name = "ev{version}"', 1).replace(
                "self_draw_bonus = 1", f"self_draw_bonus = {bonus}", 1)
            adopted = platforms.adopt(store.db, PLATFORM, text, who="admin", why=f"v{version}",
                                      effective_from="2000-01-01", fit={"base": "weile"} if version == 1 else None,
                                      key=key)
        platform_reaudit.run(Pipeline(store), adopted, who="admin", key=key)
        fit_jobs.create(store.db, params={"profile": "weile", "lang": "zh"}, requested_by="admin",  # issue 36.2:
                        uploaded=[("day.jsonl line 1", load_example("hot-shot-weile"))])  # queued, inputs kept
        head = trail.head(store.db)
        assert head is not None
    finally:
        store.close()
    return Scenario(app, client, str(app.config["DATABASE"]), key, head, uploader, other)


def copy_of(path: str, target: Path) -> Path:
    """A consistent copy of a database (its WAL's pages included)."""
    with sqlite3.connect(path) as source, sqlite3.connect(target) as copy:
        source.backup(copy)
    return target


def everything(path: str | Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of a database, sorted: what a refused request must leave as it was."""
    with sqlite3.connect(path) as db:
        names = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                                "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {name: sorted(db.execute(f"SELECT * FROM [{name}]").fetchall(), key=repr) for name in names}
