"""Issue 36.3: a record of a platform with an adopted profile is judged under the version in force on
its day (its own `rules.options` on top), the audit names the version, and the platform's stored
history is re-audited under a new version with counts before and after, resumable after a kill."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from batch.reaudit import reaudit_partition
from batch.store_source import selection
from records import platform_reaudit, platforms
from records.pipeline import Pipeline, default_engine
from records.platform_reaudit import ReauditRefused
from records.rows import JUDGED_BY
from records.store import Store
from records.verify import verify
from tests.records.test_platforms import profile_text
from tests.records.test_store import put

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "clean-r17-1-baoji.json"
"""A weile record that is clean only with its own `rules.options` (chicken.exposed_payers)."""


def record(game_id: str = "g1", played_at: str = "2026-11-29T20:15:00+08:00") -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(SAMPLE.read_text(encoding="utf-8"))
    doc.update(platform="acme", game_id=game_id, played_at=played_at)
    return doc


def adopt(store: Store, effective_from: str = "2026-11-01", **values: str) -> platforms.Version:
    return platforms.adopt(store.db, "acme", profile_text("acme", **values), who="admin", why="test",
                           effective_from=effective_from, key=store.trail_key)


def latest(store: Store, record_id: int) -> dict[str, Any]:
    return store.audit_row(store.record(record_id)["latest_audit_id"])


def test_an_upload_is_judged_under_the_version_in_force_on_its_day(store: Store) -> None:
    version = adopt(store, self_draw_bonus="2")
    (inside,) = put(store, record("g1"))
    (before,) = put(store, record("g2", "2026-10-31T23:00:00+08:00"))
    judged = latest(store, inside.record_id)
    assert judged["platform_profile_id"] == version.id and judged["profile"] == "acme"
    assert judged["verdict"] == "missettled"
    assert latest(store, before.record_id)["platform_profile_id"] is None
    assert latest(store, before.record_id)["verdict"] == "clean"


def test_the_records_own_options_apply_on_top_of_the_platform_profile(store: Store) -> None:
    adopt(store)  # weile's values under another name
    (kept,) = put(store, record("g1"))
    assert latest(store, kept.record_id)["verdict"] == "clean"
    bare = record("g2")
    bare["rules"] = {"profile": "weile"}  # without its options the record is not clean
    (without,) = put(store, bare)
    assert latest(store, without.record_id)["verdict"] != "clean"
    assert latest(store, without.record_id)["platform_profile_id"] is not None


def test_a_what_if_profile_still_replaces_the_platform_profile(store: Store) -> None:
    adopt(store, self_draw_bonus="2")
    (item,) = put(store, record("g1"))
    pipeline = Pipeline(store)
    assert pipeline.what_if(item.record_id).get(JUDGED_BY) is not None
    what_if = pipeline.what_if(item.record_id, profile="weile", options={"chicken.exposed_payers": "all_unready"})
    assert what_if.get(JUDGED_BY) is None and what_if["verdict"] == "clean"


def test_a_single_reaudit_and_the_batch_reaudit_keep_the_platform_judge(store: Store, tmp_path: Path) -> None:
    (item,) = put(store, record("g1"))
    version = adopt(store, self_draw_bonus="2")
    row = Pipeline(store).reaudit(item.record_id, actor="admin")
    assert row["platform_profile_id"] == version.id and row["verdict"] == "missettled"
    (part,) = selection(str(tmp_path / "store.sqlite3"), [item.record_id], 10)
    ((record_id, audit),) = reaudit_partition(part, default_engine(), platforms.judges_of(store.db, [item.record_id]))
    assert record_id == item.record_id and isinstance(audit, dict) and audit[JUDGED_BY] == version.id


def history(store: Store, n: int) -> list[int]:
    return [put(store, record(f"g{i}"))[0].record_id for i in range(n)]


def test_reaudit_of_the_history_counts_before_and_after_and_writes_the_trail(store: Store) -> None:
    ids = history(store, 5)
    assert {latest(store, i)["verdict"] for i in ids} == {"clean"}
    version = adopt(store, self_draw_bonus="2")
    done = platform_reaudit.run(Pipeline(store), version, who="admin", key=store.trail_key)
    assert (done.status, done.total, done.done, done.failed) == ("finished", 5, 5, 0)
    assert done.before["verdicts"] == {"clean": 5} and done.before["codes"] == {}
    assert done.after is not None and done.after["verdicts"] == {"missettled": 5}
    assert done.after["codes"].get("item_amount_differs", 0) > 0
    assert all(latest(store, i)["platform_profile_id"] == version.id for i in ids)
    (entry,) = [row for row in store.db.execute("SELECT detail FROM trail WHERE action = 'platform-reaudit'")]
    detail = json.loads(entry[0])
    assert detail["before"] == done.before and detail["after"] == done.after and detail["version"] == 1
    changes = dict((name, (old, new)) for name, old, new in done.changes()["verdicts"])
    assert changes == {"clean": (5, 0), "missettled": (0, 5)}
    assert [m.code for m in verify(store.db, store.trail_key)] == []  # every audit row as its entry says


def test_a_killed_reaudit_leaves_each_record_old_or_new_and_resumes(store: Store,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    ids = history(store, 5)
    version = adopt(store, self_draw_bonus="2")
    monkeypatch.setattr(platform_reaudit, "UNITS_PER_TRANSACTION", 2)

    class Killed(Exception):
        pass

    def kill(_run: platform_reaudit.Run) -> None:
        raise Killed

    with pytest.raises(Killed):
        platform_reaudit.run(Pipeline(store), version, who="admin", key=store.trail_key, on_batch=kill)
    (halfway,) = platform_reaudit.runs(store.db, version.id)
    assert (halfway.status, halfway.done, halfway.total) == ("running", 2, 5)
    judged = [latest(store, i)["platform_profile_id"] == version.id for i in ids]
    assert sorted(judged) == [False, False, False, True, True]
    assert all(latest(store, i)["verdict"] == ("missettled" if j else "clean") for i, j in zip(ids, judged))
    with pytest.raises(ReauditRefused) as excinfo:  # still fresh: taken as at work
        platform_reaudit.run(Pipeline(store), version, who="admin", key=store.trail_key)
    assert excinfo.value.code == "platform_reaudit_running"
    monkeypatch.setattr(platform_reaudit, "STALE_SECONDS", -1)  # its process is gone: resume it
    done = platform_reaudit.run(Pipeline(store), version, who="admin", key=store.trail_key)
    assert done.id == halfway.id and (done.status, done.done, done.total) == ("finished", 5, 5)
    assert done.before["verdicts"] == {"clean": 5}
    assert done.after is not None and done.after["verdicts"] == {"missettled": 5}
    assert [len(store.audits(i)) for i in ids] == [2] * 5  # one re-audit per record, none twice
