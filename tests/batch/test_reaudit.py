"""batch.reaudit and batch.store_source: re-audits on Dask workers, written back in batches,
append-only with their trail; a match hand audited with its match; an engine failure kept to its record."""
from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app import create_app
from audit.api import audit_document
from batch import runner
from batch.inputs import Sizes
from records import trail
from records.verify import verify as verify_store
from batch.reaudit import reaudit
from batch.store_source import plan_store, selection
from records.ingest import read_upload
from records.pipeline import Engine, Pipeline
from records.store import Store
from tests.conftest import ROOT, app_config, dumps, load_example, variant

SAMPLES = ROOT / "samples"
BAD_GAME = "batch-fails-here"


def picky_auditor(doc: Any, **kwargs: Any) -> list[dict[str, Any]]:
    """The real engine, except that it raises on one game (a worker imports this by name)."""
    if isinstance(doc, dict) and doc.get("game_id") == BAD_GAME:
        raise RuntimeError("engine exploded on this one")
    return audit_document(doc, **kwargs)


def filled_store(path: Path) -> Store:
    store = Store.open(path)
    old = Pipeline(store, Engine(audit_document, "0.9.0"))
    for name in ("illegal-match-dealer.json", "missettled-flip.json", "clean-weile-hot-shot.json"):
        old.upload(read_upload(name, (SAMPLES / name).read_bytes()).units, uploader="test")
    for index in range(4):
        doc = variant(load_example("hot-shot-weile"), game_id=BAD_GAME if index == 2 else f"batch-{index}")
        old.upload(read_upload(f"{index}.json", dumps(doc)).units, uploader="test")
    return store


def test_reaudit_on_workers_appends_audits_with_their_trail(tmp_path: Path, dask_client: Any) -> None:
    store = filled_store(tmp_path / "s.sqlite")
    ids = [row[0] for row in store.db.execute("SELECT id FROM records ORDER BY id")]
    expected = {i: Pipeline(store).what_if(i) for i in ids}
    trail_before = store.db["trail"].count
    seen: list[int] = []
    outcome = reaudit(store, str(tmp_path / "s.sqlite"), ids, Engine(picky_auditor, "2.0.0"), dask_client,
                      actor="cli:test", on_record=lambda record_id, _audit: seen.append(record_id),
                      partition_records=3)
    bad = next(row[0] for row in store.db.execute("SELECT id FROM records WHERE game_id = ?", [BAD_GAME]))
    assert sorted(seen) == ids and outcome.failures == [] and outcome.lost == []
    assert [record_id for record_id, _ in outcome.failed] == [bad] and "exploded" in outcome.failed[0][1]
    assert sorted(record_id for record_id, _, _ in outcome.written) == [i for i in ids if i != bad]
    for record_id in ids:
        audits = store.audits(record_id)
        if record_id == bad:
            assert [a["engine_version"] for a in audits] == ["0.9.0"]  # nothing stored for it
            continue
        assert [a["engine_version"] for a in audits] == ["0.9.0", "2.0.0"]  # the old audit stays
        assert audits[-1]["audit"] == expected[record_id] and store.record(record_id)["verdict"] == \
            expected[record_id]["verdict"]
    entries = trail.entries(store.db, actions=("reaudit",))
    assert len(entries) == len(ids) - 1 == store.db["trail"].count - trail_before
    assert {e["actor"] for e in entries} == {"cli:test"} and verify_store(store.db, store.trail_key) == []
    store.close()


def test_store_partitions_cover_the_current_records_once(tmp_path: Path) -> None:
    store = filled_store(tmp_path / "s.sqlite")
    doc = variant(load_example("hot-shot-weile"), game_id="batch-0")
    doc["result"]["scores"] = list(reversed(doc["result"]["scores"]))  # a new revision of batch-0
    Pipeline(store).upload(read_upload("again.json", dumps(doc)).units, uploader="test")
    current = [row[0] for row in store.db.execute("SELECT id FROM records WHERE is_current = 1 ORDER BY id")]
    store.close()
    parts = plan_store(str(tmp_path / "s.sqlite"), Sizes(hands=2))
    read = [d.origin.record_id for p in parts for d in p.read()]
    assert read == current and all(len(list(p.read())) <= 2 for p in parts)
    chosen = selection(str(tmp_path / "s.sqlite"), [current[-1], current[0]], 1)
    assert [d.origin.record_id for p in chosen for d in p.read()] == [current[-1], current[0]]
    match_hands = [d for p in parts for d in p.read() if d.pick is not None]
    assert [d.pick for d in match_hands] == [0, 1] and len({d.cache_key for d in match_hands}) == 1


@pytest.mark.parametrize("address", ["nonsense", "tcp://", "tcp://127.0.0.1:1"])
def test_reaudit_with_a_scheduler_it_cannot_use_exits_2_and_writes_nothing(tmp_path: Path, address: str,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "CONNECT_TIMEOUT_S", 3)
    filled_store(tmp_path / "s.sqlite").close()
    app = create_app(app_config(tmp_path, "s.sqlite"))
    with sqlite3.connect(tmp_path / "s.sqlite") as db:
        before = db.execute("SELECT count(*) FROM audits").fetchone()[0]
    result = app.test_cli_runner().invoke(args=["reaudit", "--all", "--scheduler", address])
    assert result.exit_code == 2, (result.output, result.exception)
    assert address in result.output and "Traceback" not in result.output
    with sqlite3.connect(tmp_path / "s.sqlite") as db:
        assert db.execute("SELECT count(*) FROM audits").fetchone()[0] == before
