"""`flask backup PATH` (SQLite's online backup) and a restore from the copy that verifies every
record (issue 12)."""
from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from app import create_app
from records.access import path_for
from records.store import Store
from records.verify import verify
from tests.conftest import app_config, dumps, load_example, login, variant
from web.db import trail_key


def test_backup_then_restore_verifies_every_record(app: Flask, client: FlaskClient, runner: FlaskCliRunner,
                                                   tmp_path: Path) -> None:
    base = load_example("hot-shot-weile")
    body = b"\n".join(dumps(variant(base, game_id=f"b-{i}")) for i in range(12))
    assert client.post("/api/records", data=body, content_type="application/x-ndjson").status_code == 201
    client.post("/api/records/3/notes", json={"text": "kept in the copy"})
    client.get("/records/3")
    target = tmp_path / "copies" / "backup.sqlite3"
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    assert target.exists() and Path(path_for(target)).exists()

    with app.app_context():
        key = trail_key()
        original = Store.open(app.config["DATABASE"], trail_key=key)
    copy = Store.open(target, trail_key=key)
    try:
        assert verify(copy.db, key) == []
        ids = [row[0] for row in copy.db.execute("SELECT id FROM records ORDER BY id")]
        assert len(ids) == 12
        for record_id in ids:  # every record of the copy: the same bytes, hash and audit
            assert copy.raw(record_id) == original.raw(record_id)
            assert copy.record(record_id) == original.record(record_id)
            assert copy.latest_audit(record_id) == original.latest_audit(record_id)
    finally:
        copy.close()
        original.close()

    restored = create_app(app_config(tmp_path, "copies/backup.sqlite3", ACCESS_DATABASE=path_for(target)))
    check = restored.test_cli_runner().invoke(args=["verify"])
    assert check.exit_code == 0 and "every hash matches" in check.output, check.output
    reader = login(restored, "after-restore", "auditor")
    assert all(reader.get(f"/api/records/{record_id}").status_code == 200 for record_id in ids)
    assert "kept in the copy" in reader.get("/records/3").get_data(as_text=True)
