"""Tamper evidence that holds (issue 12): each tampering of the issue, done to the database file
directly as someone who has it would, and `flask verify` naming it."""
from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from records.db import atomic
from records.rows import sha256
from records.store import Store
from records.trail import chain_hash
from tests.conftest import api_token, example_path, login
from web.db import trail_key

Tamper = Callable[[sqlite3.Connection, dict[str, Any]], None]


@pytest.fixture
def scene(app: Flask, client: FlaskClient) -> dict[str, Any]:
    """Two records, a re-audit, a note, an uploader with a revoked token and a live one."""
    first = client.post("/api/records", data=example_path("hot-shot-weile").read_bytes(),
                        content_type="application/json").get_json()["results"][0]["record_id"]
    second = client.post("/api/records", data=example_path("hot-shot-cuocuo").read_bytes(),
                         content_type="application/json").get_json()["results"][0]["record_id"]
    assert client.post(f"/api/records/{first}/audit", json={"profile": "cuocuo"}).status_code == 201
    assert client.post(f"/api/records/{first}/notes", json={"text": "热炮 not paid", "decision": "open"}).status_code == 201
    platform = client.get(f"/api/records/{first}").get_json()["platform"]
    opened = client.post("/api/cases", json={"number": "K-7", "platform": platform, "player": "P1",
                                             "complaint": "我少收了 3 分"})
    assert opened.status_code == 201, opened.get_json()
    case = opened.get_json()["id"]
    assert client.post(f"/api/cases/{case}/records", json={"record": first}).status_code in (200, 201)
    assert client.post(f"/api/cases/{case}/decision", json={"outcome": "upheld", "note": "付 3 分",
                                                            "payments": [{"from": "P2", "to": "P1", "amount": 3}]}
                       ).status_code in (200, 201)
    api_token(app, "feed", "uploader", "example")
    login(app, "reader", "auditor").post("/logout")
    with app.app_context():
        store = Store.open(app.config["DATABASE"], trail_key=trail_key())
        try:
            from records.security import Accounts
            accounts = Accounts(store.db, store.trail_key)
            feed = accounts.by_name("feed")
            assert feed is not None
            with atomic(store.db):
                accounts.create_token(feed.id, label="old", created_by="tests", stamp="2026-01-01T00:00:00.000Z")
            old = store.db.execute("SELECT max(id) FROM tokens").fetchone()[0]
            with atomic(store.db):
                accounts.revoke_token(old, revoked_by="tests", stamp="2026-01-02T00:00:00.000Z")
        finally:
            store.close()
    return {"first": first, "second": second, "feed": feed.id, "revoked": old, "case": case}


def _forge_document(db: sqlite3.Connection, ids: dict[str, Any]) -> None:
    raw = example_path("hot-shot-weile").read_bytes().replace(b"P1", b"PZ")
    cursor = db.execute("INSERT INTO documents (sha256, size, raw_kind, raw) VALUES (?, ?, 'file', ?)",
                        [sha256(raw), len(raw), raw])
    db.execute("DROP TRIGGER records_fixed")
    db.execute("UPDATE records SET document_id = ?, sha256 = ? WHERE id = ?", [cursor.lastrowid, sha256(raw),
                                                                                ids["first"]])


def _forge_audit(db: sqlite3.Connection, ids: dict[str, Any]) -> None:
    row = db.execute("SELECT record_id, game_id, profile, engine_version, findings_json, settlement_json, created_at "
                     "FROM audits WHERE record_id = ? ORDER BY id DESC", [ids["second"]]).fetchone()
    cursor = db.execute("INSERT INTO audits (record_id, game_id, profile, engine_version, verdict, findings_json, "
                        "settlement_json, created_at) VALUES (?, ?, ?, ?, 'clean', '[]', ?, ?)",
                        [row[0], row[1], row[2], row[3], row[5], row[6]])
    db.execute("UPDATE records SET latest_audit_id = ?, verdict = 'clean', rules = '', findings_count = 0 "
               "WHERE id = ?", [cursor.lastrowid, ids["second"]])


def _drop(db: sqlite3.Connection, *triggers: str) -> None:
    for name in triggers:
        db.execute(f"DROP TRIGGER {name}")


def _recompute_plain(db: sqlite3.Connection, _ids: dict[str, Any]) -> None:
    """Edit a row, then rebuild the whole chain with plain sha256, as anyone without the key can."""
    _drop(db, "trail_no_update")
    db.execute("UPDATE trail SET actor = 'nobody' WHERE action = 'annotate'")
    prev = "0" * 64
    for row in db.execute("SELECT id, at, actor, action, record_id, detail FROM trail ORDER BY id").fetchall():
        digest = chain_hash(prev, row[1], row[2], row[3], row[4], row[5])
        db.execute("UPDATE trail SET prev = ?, hash = ? WHERE id = ?", [prev, digest, row[0]])
        prev = digest


def _raise_horizon_and_forge(db: sqlite3.Connection, ids: dict[str, Any]) -> None:
    """Claim every row predates m004 (whose rows verify checks less), then forge an audit."""
    _drop(db, "trust_horizon_no_update")
    db.execute("UPDATE trust_horizon SET max_id = 1000")
    _forge_audit(db, ids)


def _sql(*statements: str, drop: tuple[str, ...] = ()) -> Tamper:
    """A tampering made of SQL statements ({first}, {second}, ... filled in), after dropping triggers."""

    def tamper(db: sqlite3.Connection, ids: dict[str, Any]) -> None:
        _drop(db, *drop)
        for statement in statements:
            db.execute(statement.format(**ids))

    return tamper


TAMPERINGS: dict[str, tuple[Tamper, str]] = {
    "forged document, record repointed": (_forge_document, "record {first}: example-hot-shot-weile: document_id, sha256"),
    "verdict set to clean": (_sql("UPDATE records SET verdict = CASE verdict WHEN 'clean' THEN 'illegal' ELSE 'clean' "
                                  "END WHERE id = {second}"), "record {second}: example-hot-shot-cuocuo: latest audit"),
    "forged audit, latest repointed": (_forge_audit, "no trail entry: this audit was added"),
    "uploader raised to admin": (_sql("UPDATE accounts SET role = 'admin', platform = NULL WHERE id = {feed}"),
                                 "account {feed}: feed: role, platform changed"),
    "revoked token revived": (_sql("UPDATE tokens SET revoked_at = NULL, revoked_by = NULL WHERE id = {revoked}",
                                   drop=("tokens_no_revival",)), "token {revoked}: zj_"),
    "record deleted": (_sql("DELETE FROM record_players WHERE record_id = {second}",
                            "DELETE FROM uploads WHERE record_id = {second}",
                            "DELETE FROM audit_rules WHERE audit_id IN (SELECT id FROM audits WHERE record_id = {second})",
                            "DELETE FROM audits WHERE record_id = {second}", "DELETE FROM records WHERE id = {second}",
                            drop=("records_no_delete", "record_players_no_delete", "uploads_no_delete",
                                  "audits_no_delete", "audit_rules_no_delete")), "record {second}: deleted"),
    "note edited": (_sql("UPDATE notes SET text = '已付' WHERE record_id = {first}", drop=("notes_no_update",)),
                    "note 1: record {first}: text_sha256 changed"),
    "audit edited": (_sql("UPDATE audits SET settlement_json = replace(settlement_json, '1', '2') "
                          "WHERE record_id = {first}", drop=("audits_no_update",)),
                     "audit 1: record {first}: changed after it was written"),
    "upload receipts deleted": (_sql("DELETE FROM uploads WHERE record_id = {first}", drop=("uploads_no_delete",)),
                                "receipt deleted (record {first}"),
    "chain recomputed without the key": (_recompute_plain, "this row was changed after it was written"),
    "rule index edited": (_sql("INSERT INTO audit_rules (audit_id, rule, section) VALUES (1, 'R99.9', 'R99')"),
                          "audit 1: record {first}: its rule index"),
    "account's creator rewritten": (_sql("UPDATE accounts SET created_by = 'admin' WHERE id = {feed}",
                                         drop=("accounts_fixed",)), "account {feed}: feed: created_at or created_by"),
    "horizon raised to hide a forged audit": (_raise_horizon_and_forge, "no trail entry: this audit was added"),
    # issue 11's tables
    "submission receipt edited": (_sql("UPDATE receipts SET outcome = 'rejected' WHERE record_id = {first}",
                                       drop=("receipts_no_update",)), "receipt changed (outcome"),
    "submission receipts deleted": (_sql("DELETE FROM receipts", drop=("receipts_no_delete",)), "receipt deleted"),
    "case decision edited": (_sql("UPDATE case_decisions SET payments_json = '[]'", drop=("case_decisions_no_update",)),
                             "decision changed (payments"),
    "case complaint edited": (_sql("UPDATE cases SET complaint = '没问题' WHERE id = {case}"),
                              "complaint changed"),
    "case reopened behind the service's back": (_sql("UPDATE cases SET status = 'open' WHERE id = {case}"),
                                                "left it 'decided'"),
    "case record detached": (_sql("DELETE FROM case_records WHERE case_id = {case}"), "detached behind"),
}


@pytest.mark.parametrize("name", list(TAMPERINGS))
def test_verify_names_each_tampering(app: Flask, runner: FlaskCliRunner, scene: dict[str, Any], name: str) -> None:
    assert runner.invoke(args=["verify"]).exit_code == 0, runner.invoke(args=["verify"]).output
    tamper, expected = TAMPERINGS[name]
    db = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    try:
        tamper(db, scene)
    finally:
        db.close()
    result = runner.invoke(args=["verify"])
    assert result.exit_code == 1
    assert expected.format(**scene) in result.output, result.output


def test_rows_cut_off_the_end_are_named_against_the_kept_head(app: Flask, runner: FlaskCliRunner,
                                                              client: FlaskClient, scene: dict[str, Any]) -> None:
    for index in range(3):  # later work, whose rows are then cut off
        client.post(f"/api/records/{scene['first']}/notes", json={"text": f"note {index}"})
    head = runner.invoke(args=["trail-head"]).output.split()[1]
    assert runner.invoke(args=["verify", "--head", head]).exit_code == 0
    db = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    try:
        _drop(db, "trail_no_delete", "notes_no_delete")
        top = db.execute("SELECT max(id) FROM trail").fetchone()[0]
        db.execute("DELETE FROM trail WHERE id > ?", [top - 3])
        db.execute("DELETE FROM notes WHERE text LIKE 'note %'")
    finally:
        db.close()
    result = runner.invoke(args=["verify", "--head", head])
    assert result.exit_code == 1 and f"trail {head.split(':')[0]}: the head kept outside" in result.output


def test_a_head_from_another_chain_is_refused(runner: FlaskCliRunner, scene: dict[str, Any]) -> None:
    head = runner.invoke(args=["trail-head"]).output.split()[1]
    ident, digest = head.split(":")
    result = runner.invoke(args=["verify", "--head", f"{ident}:{'0' * 64}"])
    assert result.exit_code == 1 and "chain was rebuilt" in result.output
    assert runner.invoke(args=["verify", "--head", "nonsense"]).exit_code == 2


def test_triggers_forbid_identity_and_byte_changes_and_deletions(app: Flask, scene: dict[str, Any]) -> None:
    db = sqlite3.connect(app.config["DATABASE"])
    try:
        for statement in ("UPDATE records SET sha256 = 'x'", "UPDATE records SET document_id = 1",
                          "UPDATE records SET game_id = 'x'", "UPDATE records SET players = 'x'",
                          "DELETE FROM records", "DELETE FROM record_players", "DELETE FROM accounts",
                          "DELETE FROM tokens", "UPDATE accounts SET name = 'x'",
                          "UPDATE tokens SET token_hash = 'x'", "UPDATE tokens SET revoked_at = NULL",
                          "DELETE FROM trust_horizon"):
            with pytest.raises(sqlite3.DatabaseError):
                db.execute(statement)
        db.execute("UPDATE records SET is_current = is_current")  # what the service itself changes stays allowed
    finally:
        db.close()
