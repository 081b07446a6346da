"""records.conformance: runs are insert-only, and only runs of one kit compare (its table comes with every
database: tests/records/test_migrations.py)."""
from __future__ import annotations

import sqlite3

import pytest

from records import conformance
from records.db import connect
from records.migrations import migrate


def _run(run_id: int, sha: str, passed: dict[str, bool]) -> dict:
    cases = [{"case": c, "passed": ok, "cited_rules": [] if ok else ["R8.3"], "difference": "" if ok else "x"}
             for c, ok in passed.items()]
    return {"id": run_id, "kit": "k", "kit_sha256": sha, "passed": sum(passed.values()), "total": len(passed),
            "report": {"cases": cases}}


def test_runs_are_insert_only(tmp_path) -> None:
    db = connect(tmp_path / "c.sqlite3")
    migrate(db)
    db.execute("INSERT INTO conformance_runs (kit, kit_sha256, platform, client_version, created_at, total, passed, "
               "report) VALUES ('k', 's', 'p', '1', 't', 1, 1, '{}')")
    for sql in ("UPDATE conformance_runs SET passed = 0", "DELETE FROM conformance_runs"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(sql)


def test_compare_names_newly_failing_and_passing_and_refuses_other_kits() -> None:
    base = _run(1, "a", {"s1": True, "s2": False, "s3": True})
    head = _run(2, "a", {"s1": False, "s2": True, "s3": True})
    diff = conformance.compare(base, head)
    assert [c["case"] for c in diff["newly_failing"]] == ["s1"] and [c["case"] for c in diff["newly_passing"]] == ["s2"]
    with pytest.raises(conformance.ConformanceError):
        conformance.compare(base, _run(3, "b", {"s1": True}))


def test_scan_kits_names_each_folder_that_is_no_kit_and_skips_the_rest(tmp_path) -> None:
    assert conformance.scan_kits(tmp_path / "absent") == ([], [])
    (tmp_path / "empty").mkdir()
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "a-file.json").write_text("{}", "utf-8")
    (tmp_path / "listed").mkdir()
    (tmp_path / "listed" / "manifest.json").write_text('{"format": "zhuoji-kit/1", "cases": [{"id": "s1"}]}', "utf-8")
    kits, broken = conformance.scan_kits(tmp_path)
    assert kits == []
    assert [(b.name, b.code, b.params) for b in broken] == [
        ("empty", "kit_no_manifest", {}), ("listed", "kit_case_bad", {"case": "s1", "field": "file"})]
    with pytest.raises(conformance.ConformanceError) as excinfo:
        conformance.open_kit(tmp_path, "listed")
    assert excinfo.value.code == "kit_broken" and excinfo.value.params["problem"] == "kit_case_bad"
    with pytest.raises(conformance.ConformanceError) as excinfo:
        conformance.open_kit(tmp_path, "a-file.json")
    assert excinfo.value.code == "kit_missing"
