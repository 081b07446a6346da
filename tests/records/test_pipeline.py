"""records.pipeline: bytes first, then the audit; engine failures keep the bytes; transactions per batch."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from audit.api import audit_document
from records import pipeline as pipeline_module
from records.ingest import Unit, read_upload
from records.pipeline import AuditFailed, Engine, Pipeline
from records.queries import RecordQuery
from records.store import Store
from records.verify import verify
from tests.conftest import EXAMPLES, ROOT, dumps, failing_auditor, load_example, reference_paths, variant

SAMPLES = ROOT / "samples"


def table_count(store: Store, table: str) -> int:
    """Rows in a table."""
    return store.db[table].count


def test_engine_failure_keeps_the_bytes_and_flags_the_record(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "f.sqlite3")
    broken = Pipeline(store, Engine(failing_auditor, "broken"))
    data = dumps(load_example("hot-shot-weile"))
    (unit,) = read_upload("a.json", data).units
    (stored,) = broken.upload_one(unit, uploader="x")
    assert stored.status == "created" and stored.verdict is None and "engine exploded" in (stored.audit_error or "")
    assert store.raw(stored.record_id) == data and table_count(store, "audits") == 0
    assert "engine exploded" in store.record(stored.record_id)["audit_error"]
    assert store.search(RecordQuery(verdict="unaudited")).total == 1
    with pytest.raises(AuditFailed):
        broken.reaudit(stored.record_id)
    assert table_count(store, "audits") == 0  # a failed re-audit stores nothing
    fixed = Pipeline(store)  # the real engine: a re-audit clears the flag
    assert fixed.reaudit(stored.record_id)["verdict"] == "clean"
    assert store.record(stored.record_id)["audit_error"] is None


def test_engine_answer_of_the_wrong_shape_is_refused(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "w.sqlite3")
    (unit,) = read_upload("a.json", dumps(load_example("hot-shot-weile"))).units
    (stored,) = Pipeline(store, Engine(lambda doc, **kw: [{"verdict": "fine"}], "0")).upload_one(unit)
    assert stored.verdict is None and "without a known verdict" in (stored.audit_error or "")
    assert table_count(store, "audits") == 0


def every_sample_unit() -> list[Unit]:
    """The units of every reference game, example and sample, a match with one bad hand (so that
    one match is not schema_checked) and a record only the engine finds invalid."""
    paths = [*reference_paths(), *sorted(EXAMPLES.glob("*.json")), *sorted(SAMPLES.glob("*.json"))]
    units = [unit for path in paths if not path.name.endswith(".audit.json") and path.name != "manifest.json"
             for unit in read_upload(path.name, path.read_bytes()).units]
    hands = [variant(load_example("hot-shot-weile"), game_id="bad-match-0"), {"game_id": "bad-match-1"}]
    units += read_upload("m.json", dumps({"format": "zhuoji-match/1", "table_id": "t", "hands": hands})).units
    unknown = variant(load_example("hot-shot-weile"), game_id="unknown-profile")
    unknown["rules"]["profile"] = "nope"  # passes audit.schema; the engine finds it invalid
    return units + read_upload("u.json", dumps(unknown)).units


def audit_rows(store: Store) -> list[tuple[Any, ...]]:
    """Every stored audit, as the service keeps it."""
    return [tuple(row) for row in store.db.execute(
        "SELECT r.platform, r.game_id, r.revision, a.profile, a.verdict, a.findings_json, a.settlement_json "
        "FROM audits a JOIN records r ON r.id = a.record_id ORDER BY a.id")]


def test_stored_audits_are_the_same_with_and_without_schema_checked(tmp_path: Path) -> None:
    units = every_sample_unit()
    assert any(unit.schema_checked and unit.is_match for unit in units)
    assert any(not unit.schema_checked for unit in units)
    told: list[bool] = []

    def spy(doc: object, *, profile: str | None = None, options: dict[str, Any] | None = None,
            schema_checked: bool = False) -> list[dict[str, Any]]:
        told.append(schema_checked)
        return audit_document(doc, profile=profile, options=options, schema_checked=schema_checked)

    def plain(doc: object, *, profile: str | None = None,
              options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        return audit_document(doc, profile=profile, options=options)

    engines = [Engine(spy, "t", takes_schema_checked=True), Engine(plain, "t"), None]
    stores = [Store.open(tmp_path / f"{name}.sqlite3") for name in ("told", "plain", "real")]
    for store, engine in zip(stores, engines):
        results = Pipeline(store, engine).upload(units, uploader="t")
        assert all(item.verdict is not None for items in results for item in items)
    assert told == [unit.schema_checked for unit in units]  # every unit is new: each audited once
    rows = [audit_rows(store) for store in stores]
    assert len(rows[0]) == sum(len(unit.hands) for unit in units) >= 60
    assert rows[0] == rows[1] == rows[2]
    assert {row[4] for row in rows[0]} == {"clean", "illegal", "missettled", "invalid"}
    Pipeline(stores[0], engines[0]).reaudit(1)
    assert told[-1] is False  # a stored document is re-read, not re-validated: the engine checks it


def test_an_injected_engine_is_told_schema_checked_only_when_it_says_it_takes_it(tmp_path: Path) -> None:
    calls: list[dict[str, Any]] = []

    def forwarding(doc: object, **kwargs: Any) -> list[dict[str, Any]]:
        calls.append(kwargs)
        return audit_document(doc, **kwargs)

    (unit,) = read_upload("a.json", dumps(load_example("hot-shot-weile"))).units
    assert unit.schema_checked
    for name, takes in (("k", False), ("t", True)):
        store = Store.open(tmp_path / f"{name}.sqlite3")
        assert Pipeline(store, Engine(forwarding, "t", takes)).upload_one(unit)[0].verdict == "clean"
    assert calls == [{"profile": None, "options": None}, {"profile": None, "options": None, "schema_checked": True}]


def test_units_of_one_upload_share_transactions_and_keep_their_order(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pipeline_module, "UNITS_PER_TRANSACTION", 2)
    audited: list[str] = []

    def picky(doc: Any, **kwargs: Any) -> list[dict[str, Any]]:
        audited.append(doc["game_id"])
        if doc["game_id"] == "b-2":
            raise RuntimeError("engine exploded")
        return audit_document(doc, **kwargs)

    store = Store.open(tmp_path / "b.sqlite3")
    docs = [variant(load_example("hot-shot-weile"), game_id=f"b-{i}") for i in range(4)]
    lines = [dumps(doc) for doc in (docs[0], docs[0], docs[1], docs[2], docs[3], docs[2])]
    units = read_upload("b.jsonl", b"\n".join(lines)).units
    results = [items[0] for items in Pipeline(store, Engine(picky, "t")).upload(units, uploader="t")]
    assert [(r.game_id, r.status) for r in results] == [("b-0", "created"), ("b-0", "duplicate"), ("b-1", "created"),
                                                        ("b-2", "created"), ("b-3", "created"), ("b-2", "duplicate")]
    assert [r.verdict for r in results] == ["clean", "clean", "clean", None, "clean", None]
    assert [bool(r.audit_error) for r in results] == [False, False, False, True, False, True]
    # b-0 twice in one transaction: audited once; b-2 still unaudited when sent again: tried again
    assert audited == ["b-0", "b-1", "b-2", "b-3", "b-2"]
    assert table_count(store, "audits") == 3 and table_count(store, "uploads") == 6
    assert "engine exploded" in store.record(results[3].record_id)["audit_error"]
    assert verify(store.db, store.trail_key) == []


def test_a_unit_the_store_cannot_keep_is_refused_alone(tmp_path: Path) -> None:
    """Defence in depth behind the strict reader: a value that slips past it (here an integer past
    64 bits put into a parsed record) costs its own unit only, with nothing of it stored."""
    store = Store.open(tmp_path / "iso.sqlite3")
    try:
        body = b"\n".join(dumps(variant(load_example("hot-shot-weile"), game_id=f"iso-{i}")) for i in range(5))
        units = read_upload("batch.jsonl", body).units
        units[2].doc["base"] = 2**64  # what the store would raise OverflowError on
        results = Pipeline(store).upload_isolating(units, uploader="t")
        assert [isinstance(items, str) for items in results] == [False, False, True, False, False]
        assert "OverflowError" in str(results[2])
        assert store.db.execute("SELECT count(*) FROM records").fetchone()[0] == 4
        assert store.db.execute("SELECT count(*) FROM documents").fetchone()[0] == 4
        assert all(items[0].verdict is not None for items in results if not isinstance(items, str))
        assert verify(store.db, store.trail_key) == []
    finally:
        store.close()


def test_an_audit_the_store_cannot_keep_leaves_its_record_flagged(tmp_path: Path) -> None:
    """The other half of the defence: an audit whose values the store refuses (here a game id past
    64 bits) rolls back the batch's writes; its record is then kept unaudited and flagged, the
    other units of the batch stored and audited, every line with its receipt."""
    def auditor(doc: Any, **_kwargs: Any) -> list[dict[str, Any]]:
        audit = audit_document(doc)[0]
        return [{**audit, "game_id": 2**64} if doc["game_id"] == "bad-1" else audit]

    store = Store.open(tmp_path / "flag.sqlite3")
    try:
        body = b"\n".join(dumps(variant(load_example("hot-shot-weile"), game_id=f"bad-{i}")) for i in range(3))
        lines = Pipeline(store, Engine(auditor, "t")).upload_batches([read_upload("b.jsonl", body)], uploader="t")
        assert [line["status"] for line in lines] == ["created"] * 3
        assert [line["verdict"] is None for line in lines] == [False, True, False]
        assert [error["problem"] for error in lines[1]["errors"]] == ["not_audited"]
        assert "OverflowError" in lines[1]["errors"][0]["params"]["error"]
        assert table_count(store, "audits") == 2 and table_count(store, "receipts") == 3
        assert verify(store.db, store.trail_key) == []
    finally:
        store.close()
