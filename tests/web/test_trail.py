"""The append-only trail, notes, sha256 in the report, `flask verify` and `flask reaudit`."""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from app import create_app
from records import trail
from records.db import atomic
from records.migrations import APPEND_ONLY
from records.rows import sha256
from records.store import Store
from web.db import get_access_db, trail_key
from web.views import merged_entries
from tests.conftest import ROOT, dumps, example_path, failing_auditor, load_example, login, variant


def store_of(app: Flask) -> Store:
    """A store on the app's database, with its trail key (close it after use)."""
    with app.app_context():
        return Store.open(app.config["DATABASE"], trail_key=trail_key())


def actions(app: Flask, record_id: int) -> list[tuple[str, str]]:
    """(action, actor) of a record's trail and access log, oldest first."""
    with app.test_request_context():
        return [(row["action"], row["actor"]) for row in reversed(merged_entries(record_id, 1000))]


@pytest.fixture
def record_id(client: FlaskClient) -> int:
    """One stored record, uploaded by the admin."""
    response = client.post("/api/records", data=example_path("hot-shot-weile").read_bytes(),
                           content_type="application/json")
    return int(response.get_json()["results"][0]["record_id"])


# ----- what the trail records -----------------------------------------------------------------


def test_upload_view_export_reaudit_and_note_are_logged_with_their_actor(app: Flask, client: FlaskClient,
                                                                         record_id: int) -> None:
    auditor = login(app, "auditor1", "auditor")
    auditor.get(f"/records/{record_id}")
    auditor.get(f"/api/records/{record_id}/raw")
    auditor.post(f"/api/records/{record_id}/audit", json={"profile": "cuocuo"})
    auditor.post(f"/records/{record_id}/notes", data={"case_number": "A-17", "decision": "escalated",
                                                      "text": "热炮 not paid"})
    client.post("/api/records", data=example_path("hot-shot-weile").read_bytes(), content_type="application/json")
    assert actions(app, record_id) == [("upload", "admin"), ("audit", "admin"), ("receipt", "admin"),
                                       ("view", "auditor1"), ("export", "auditor1"),
                                       ("reaudit", "auditor1"), ("annotate", "auditor1"), ("upload", "admin"),
                                       ("receipt", "admin")]  # each receipt too (issue 11)
    with app.test_request_context():
        rows = {row["action"]: row["detail"] for row in reversed(merged_entries(record_id, 1000))}
    assert rows["upload"]["outcome"] == "duplicate" and rows["reaudit"]["profile"] == "cuocuo"
    assert rows["annotate"]["case_number"] == "A-17" and rows["export"]["format"] == "application/json"


def test_record_page_shows_notes_and_trail(app: Flask, client: FlaskClient, record_id: int) -> None:
    client.post(f"/records/{record_id}/notes", data={"case_number": "C-9", "decision": "confirmed",
                                                     "text": "checked with the platform"})
    page = client.get(f"/records/{record_id}").get_data(as_text=True)
    for fragment in ('id="notes"', "C-9", "已确认", "checked with the platform", 'id="trail"', "操作日志", "上传",
                     "批注", "admin"):
        assert fragment in page, fragment
    english = client.get(f"/records/{record_id}", query_string={"lang": "en"}).get_data(as_text=True)
    assert "Audit trail" in english and "confirmed" in english


def test_trail_and_notes_api(client: FlaskClient, record_id: int) -> None:
    created = client.post(f"/api/records/{record_id}/notes", json={"text": "first", "decision": "open"})
    assert created.status_code == 201 and created.get_json()["author"] == "admin"
    client.post(f"/api/records/{record_id}/notes", json={"text": "correction: dismissed", "decision": "dismissed"})
    notes = client.get(f"/api/records/{record_id}/notes").get_json()
    assert [note["text"] for note in notes] == ["first", "correction: dismissed"]
    entries = client.get(f"/api/records/{record_id}/trail", query_string={"limit": 3}).get_json()
    assert len(entries) == 3 and entries[0]["action"] == "view"  # newest first: the notes listing
    assert client.get(f"/api/records/{record_id}/trail", query_string={"limit": 0}).status_code == 400
    for body in ({"text": ""}, {"text": "x", "decision": "maybe"}, {"text": "x", "colour": 1}, [1]):
        assert client.post(f"/api/records/{record_id}/notes", json=body).status_code == 400
    assert client.get("/api/records/999/notes").status_code == 404


def test_notes_cannot_be_edited_or_deleted_over_http(app: Flask, client: FlaskClient, record_id: int) -> None:
    client.post(f"/api/records/{record_id}/notes", json={"text": "x"})
    for method in ("PUT", "PATCH", "DELETE"):
        assert client.open(f"/api/records/{record_id}/notes", method=method).status_code == 405
    methods = {method for rule in app.url_map.iter_rules() for method in rule.methods or ()}
    assert not methods & {"PUT", "PATCH", "DELETE"}


# ----- append-only ----------------------------------------------------------------------------


@pytest.mark.parametrize("table", APPEND_ONLY)
def test_triggers_refuse_update_and_delete(app: Flask, client: FlaskClient, record_id: int, table: str) -> None:
    client.post(f"/api/records/{record_id}/notes", json={"text": "x"})
    store = store_of(app)
    try:
        column = store.db.execute(f"SELECT * FROM {table} LIMIT 1").description[1][0]
        for statement in (f"UPDATE {table} SET {column} = {column}", f"DELETE FROM {table}"):
            with pytest.raises(sqlite3.DatabaseError) as excinfo:
                store.db.execute(statement)
            assert "append-only" in str(excinfo.value)
    finally:
        store.close()


def test_no_code_updates_or_deletes_the_log_or_notes() -> None:
    sources = list((ROOT / "records").rglob("*.py")) + [ROOT / "app.py"]
    pattern = re.compile(r"(UPDATE\s+(trail|notes|documents|audits|uploads)\b|DELETE\s+FROM\s+(trail|notes|documents|"
                         r"audits|uploads)\b)", re.I)
    offenders = [f"{path.name}: {match.group(0)}" for path in sources
                 for match in pattern.finditer(path.read_text(encoding="utf-8"))
                 if "TRIGGER" not in path.read_text(encoding="utf-8")[max(0, match.start() - 80):match.start()]]
    assert offenders == []


# ----- sha256 in the report, verify -----------------------------------------------------------


def test_sha256_of_the_stored_bytes_is_in_the_html_report(client: FlaskClient, record_id: int) -> None:
    digest = sha256(example_path("hot-shot-weile").read_bytes())
    assert digest in client.get(f"/records/{record_id}").get_data(as_text=True)


def test_sha256_is_in_the_pdf_report(app: Flask, client: FlaskClient, record_id: int) -> None:
    pdf = [rule for rule in app.url_map.iter_rules() if "pdf" in rule.rule and "record_id" in rule.rule]
    if not pdf:
        pytest.skip("the PDF report route is not there yet")
    url = re.sub(r"<(?:\w+:)?record_id>", str(record_id), pdf[0].rule)
    response = client.get(url)
    assert response.status_code == 200
    digest = sha256(example_path("hot-shot-weile").read_bytes())
    source = response.get_data()
    assert digest.encode() in source or _pdf_text_has(source, digest)
    assert actions(app, record_id)[-1] == ("export", "admin")


def _pdf_text_has(pdf: bytes, text: str) -> bool:
    """Whether the PDF's text layer holds `text` (pdftotext when installed)."""
    import shutil
    import subprocess

    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed: cannot read the PDF's text")
    out = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    return text in out.decode("utf-8", "replace").replace("\n", "").replace(" ", "")


def test_verify_passes_then_finds_changed_bytes_and_trail_rows(app: Flask, client: FlaskClient,
                                                               runner: FlaskCliRunner, record_id: int) -> None:
    client.post("/api/records", data=dumps({"format": "zhuoji-match/1", "table_id": "t", "hands": [
        variant(load_example("hot-shot-weile"), game_id="mh-0")]}), content_type="application/json")
    clean = runner.invoke(args=["verify"])
    assert clean.exit_code == 0 and "every hash matches" in clean.output
    store = store_of(app)
    try:  # someone with the file drops the triggers and edits behind the service's back
        store.db.execute("DROP TRIGGER documents_no_update")
        store.db.execute("DROP TRIGGER trail_no_update")
        with atomic(store.db):
            store.db.execute("UPDATE documents SET raw = replace(raw, 'P1', 'PX') WHERE id = 1")
            store.db.execute("UPDATE trail SET actor = 'nobody' WHERE id = 2")
    finally:
        store.close()
    result = runner.invoke(args=["verify"])
    assert result.exit_code == 1
    assert f"record {record_id}: example-hot-shot-weile: sha256 of the stored bytes is" in result.output
    assert "trail 2: this row was changed after it was written" in result.output
    assert f"record {record_id}: example-hot-shot-weile: players differ from what the stored bytes say" in result.output


def test_verify_finds_a_removed_trail_row(app: Flask, client: FlaskClient, runner: FlaskCliRunner,
                                          record_id: int) -> None:
    client.get(f"/records/{record_id}")
    store = store_of(app)
    try:
        store.db.execute("DROP TRIGGER trail_no_delete")
        with atomic(store.db):
            store.db.execute("DELETE FROM trail WHERE id = 1")
    finally:
        store.close()
    result = runner.invoke(args=["verify"])
    assert result.exit_code == 1 and "chain is broken" in result.output


# ----- engine failures and reaudit ----------------------------------------------------------------


@pytest.fixture
def broken_app(tmp_path: Path) -> Flask:
    """An app whose engine raises on every audit."""
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "broken.sqlite3"), "AUDITOR": failing_auditor,
                       "ENGINE_VERSION": "0.9"})


def test_failed_audit_keeps_the_record_flagged_until_reaudit(broken_app: Flask) -> None:
    client = login(broken_app)
    data = example_path("hot-shot-weile").read_bytes()
    response = client.post("/api/records", data=data, content_type="application/json")
    record_id = response.get_json()["results"][0]["record_id"]
    assert response.status_code == 202
    assert client.get(f"/api/records/{record_id}/raw").data == data
    page = client.get(f"/records/{record_id}").get_data(as_text=True)
    assert "未审计" in page and "engine exploded" in page
    assert client.get("/records", query_string={"verdict": "unaudited"}).status_code == 200
    assert client.get("/api/records", query_string={"verdict": "unaudited"}).get_json()["total"] == 1
    runner = broken_app.test_cli_runner()
    failed = runner.invoke(args=["reaudit", "--verdict", "unaudited"])
    assert failed.exit_code == 1 and "1 failed" in failed.output
    broken_app.config.update(AUDITOR=None, ENGINE_VERSION=None)  # the engine is fixed
    fixed = runner.invoke(args=["reaudit", "--verdict", "unaudited"])
    assert fixed.exit_code == 0 and "-> clean" in fixed.output and "1 re-audited" in fixed.output
    body = client.get(f"/api/records/{record_id}").get_json()
    assert body["verdict"] == "clean" and len(body["audits"]) == 1
    action, actor = actions(broken_app, record_id)[-2]  # the last one is the view just above
    assert action == "reaudit" and actor.startswith("cli")


def test_retrying_the_upload_audits_a_flagged_record(broken_app: Flask) -> None:
    client = login(broken_app)
    data = example_path("hot-shot-weile").read_bytes()
    client.post("/api/records", data=data, content_type="application/json")
    broken_app.config.update(AUDITOR=None, ENGINE_VERSION=None)
    again = client.post("/api/records", data=data, content_type="application/json")
    (result,) = again.get_json()["results"]
    assert again.status_code == 200 and result["status"] == "duplicate" and result["verdict"] == "clean"


def _stored_ids(client: FlaskClient, count: int, tag: str = "re") -> list[int]:
    """Upload `count` variants of two examples (cuocuo first, then weile); their record ids."""
    ids = []
    for index in range(count):
        doc = variant(load_example("hot-shot-weile" if index % 2 else "hot-shot-cuocuo"), game_id=f"{tag}-{index}")
        response = client.post("/api/records", data=dumps(doc), content_type="application/json")
        ids.append(response.get_json()["results"][0]["record_id"])
    return ids


def test_reaudit_selects_by_engine_version_profile_and_verdict(app: Flask, client: FlaskClient,
                                                               runner: FlaskCliRunner) -> None:
    app.config["ENGINE_VERSION"] = "0.9.0"
    old = _stored_ids(client, 2)
    app.config["ENGINE_VERSION"] = "1.10.0"
    _stored_ids(client, 1, "new")
    dry = runner.invoke(args=["reaudit", "--engine-version-below", "1.2", "--dry-run"])
    assert dry.exit_code == 0 and dry.output.count("engine 0.9.0") == 2 and "0 re-audited" in dry.output
    run = runner.invoke(args=["reaudit", "--engine-version-below", "1.2"])
    assert run.exit_code == 0 and "2 selected, 2 re-audited" in run.output
    assert all(len(client.get(f"/api/records/{i}/audits").get_json()) == 2 for i in old)
    assert "0 selected" in runner.invoke(args=["reaudit", "--engine-version-below", "1.2"]).output
    by_profile = runner.invoke(args=["reaudit", "--profile", "cuocuo", "--dry-run"])
    assert "2 selected" in by_profile.output
    assert "1 selected" in runner.invoke(args=["reaudit", "--profile", "weile", "--verdict", "clean",
                                               "--dry-run"]).output
    assert "3 selected" in runner.invoke(args=["reaudit", "--all", "--dry-run"]).output
    assert runner.invoke(args=["reaudit"]).exit_code == 2  # a selector is required


def test_every_stored_record_audits_the_same_after_reaudit(app: Flask, client: FlaskClient,
                                                           runner: FlaskCliRunner) -> None:
    ids = _stored_ids(client, 3)
    before = [client.get(f"/api/records/{i}/audit").get_json() for i in ids]
    assert runner.invoke(args=["reaudit", "--all"]).exit_code == 0
    assert [client.get(f"/api/records/{i}/audit").get_json() for i in ids] == before


def test_downloads_without_a_record_are_logged_as_exports(app: Flask, client: FlaskClient) -> None:
    if not any(rule.rule == "/overview.pdf" for rule in app.url_map.iter_rules()):
        pytest.skip("no overview PDF route")
    assert client.get("/overview.pdf").status_code == 200
    with app.test_request_context():
        (entry,) = trail.entries(get_access_db(), actions=("export",))
    assert entry["record_id"] is None and entry["detail"]["path"] == "/overview.pdf"
    assert entry["detail"]["format"] == "application/pdf" and entry["actor"] == "admin"
