"""records.fit_jobs and its worker (batch.fit_job): the states of a fit job, each move one
transaction; a job left running by a process that stopped put back in the queue (at once when the
process is known dead, after STALE_S otherwise), never left running; a job of no record refused
with nothing written; a job run to its kept result (issue 36.2)."""
from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from batch.fit_job import dead_here, owner_name, recover_left, work
from records import fit_jobs
from records.fit_jobs import NoRecords, NotAllowed, Selection, Status, TooMany
from records.ingest import Hand, Origin
from records.store import Store
from sim.simulate import simulate
from tests.deadlines import scaled

PLAYED = {"chicken.charge": 4}


def _docs(count: int, seed: int = 41) -> list[dict[str, Any]]:
    """Hands of a platform paying 4 for a 冲锋鸡 that says it plays weile, with client and day."""
    out = []
    for i, gen in enumerate(simulate("weile", PLAYED, count, seed)):
        doc = gen.record
        doc["rules"] = {"profile": "weile"}
        doc["platform"] = "club.example"
        doc["client"] = "ios 4.9" if i % 2 else "android 5.0"
        doc["played_at"] = f"2026-11-{1 + i:02d}T20:00:00+08:00"
        out.append(doc)
    return out


def _load(store: Store, docs: list[dict[str, Any]]) -> None:
    audit: dict[str, Any] = {"game_id": None, "profile": "weile", "verdict": "clean", "settlement": None,
                             "findings": []}
    store.load_audited([(Hand(Origin("t.jsonl"), d, json.dumps(d).encode("utf-8"), "file"), audit) for d in docs],
                       engine_version="test")


@pytest.fixture
def path(tmp_path: Path) -> Iterator[Path]:
    p = tmp_path / "jobs.sqlite3"
    store = Store.open(p, trail_key=b"k" * 32)
    _load(store, _docs(12))
    store.close()
    yield p


@pytest.fixture
def store(path: Path) -> Iterator[Store]:
    s = Store.open(path, trail_key=b"k" * 32)
    yield s
    s.close()


PARAMS = {"profile": "weile", "lang": "en"}
CLUB = Selection("club.example")


def _count(store: Store) -> int:
    return int(store.db.execute("SELECT count(*) FROM fit_jobs").fetchone()[0])


def test_a_job_moves_through_its_states(store: Store) -> None:
    job_id = fit_jobs.create(store.db, params=PARAMS, selection=CLUB)
    job = fit_jobs.get(store.db, job_id)
    assert job is not None and (job["status"], job["records_total"], job["source"]) == ("queued", 12, "platform")
    taken = fit_jobs.claim(store.db, "w1")
    assert taken is not None and (taken["id"], taken["status"], taken["attempts"]) == (job_id, "running", 1)
    assert fit_jobs.claim(store.db, "w2") is None  # one worker a job
    assert fit_jobs.progress(store.db, job_id, "w1", phase="fitting", records_done=12, values_weighed=7,
                             seconds_left=3.0)
    assert not fit_jobs.progress(store.db, job_id, "w2", records_done=1)  # not w2's
    assert fit_jobs.finish(store.db, job_id, "w1", {"fit": {"options": {}}}, records_done=12, values_weighed=9)
    done = fit_jobs.get(store.db, job_id)
    assert done is not None and (done["status"], done["result"], done["values_weighed"]) == (
        "done", {"fit": {"options": {}}}, 9)
    with pytest.raises(NotAllowed):
        fit_jobs.cancel(store.db, job_id)
    assert [j["id"] for j in fit_jobs.listing(store.db)] == [job_id]


def test_a_job_cancelled_while_running_keeps_no_result(store: Store) -> None:
    job_id = fit_jobs.create(store.db, params=PARAMS, selection=CLUB)
    fit_jobs.claim(store.db, "w1")
    fit_jobs.cancel(store.db, job_id)
    assert not fit_jobs.progress(store.db, job_id, "w1", records_done=3)  # the worker learns it here
    assert not fit_jobs.finish(store.db, job_id, "w1", {"fit": {}}, records_done=12, values_weighed=1)
    job = fit_jobs.get(store.db, job_id)
    assert job is not None and (job["status"], job["result"]) == ("cancelled", None)


@pytest.mark.parametrize("selection", [Selection("nobody"), Selection("club.example", client="web"),
                                       Selection("club.example", date_from="2027-01-01")])
def test_a_job_of_no_record_is_refused_and_nothing_is_written(store: Store, selection: Selection) -> None:
    with pytest.raises(NoRecords) as excinfo:
        fit_jobs.create(store.db, params=PARAMS, selection=selection)
    assert excinfo.value.code == fit_jobs.NO_RECORDS
    with pytest.raises(NoRecords):
        fit_jobs.create(store.db, params=PARAMS, uploaded=[])
    assert _count(store) == 0


def test_past_the_cap_stored_records_are_sampled_and_uploads_refused(store: Store) -> None:
    job_id = fit_jobs.create(store.db, params=PARAMS, selection=CLUB, max_records=10)
    job = fit_jobs.get(store.db, job_id)
    assert job is not None and job["params"]["sample"] == 10 and job["records_total"] == 12
    within = fit_jobs.get(store.db, fit_jobs.create(store.db, params=PARAMS, selection=CLUB, max_records=12))
    assert within is not None and "sample" not in within["params"]
    with pytest.raises(TooMany) as excinfo:
        fit_jobs.create(store.db, params=PARAMS, uploaded=[(f"u {i}", d) for i, d in enumerate(_docs(12))],
                        max_records=10)
    assert excinfo.value.params == {"count": 12, "cap": 10, "kb": fit_jobs.KB_PER_RECORD} and _count(store) == 2


def test_the_selections_keys_and_records_by_id(store: Store) -> None:
    keys = [k for c in fit_jobs.stored_keys(store.db, CLUB, size=5) for k in c]
    assert [(c, p) for _, c, p in keys][:2] == [("android 5.0", "2026-11-01"), ("ios 4.9", "2026-11-02")]
    ids = [i for i, _, _ in keys]
    picked = [ids[5], ids[1]]
    assert [i for c in fit_jobs.stored_by_id(store.db, picked, size=1) for i, _ in c] == picked


def test_the_selection_reads_in_chunks(store: Store) -> None:
    chunks = list(fit_jobs.stored_chunks(store.db, Selection("club.example", client="ios"), size=4))
    assert [len(c) for c in chunks] == [4, 2]
    assert len({i for c in chunks for i, _ in c}) == 6


def test_a_stale_running_job_is_queued_again_then_failed(store: Store) -> None:
    job_id = fit_jobs.create(store.db, params=PARAMS, selection=CLUB)
    fit_jobs.claim(store.db, "gone")
    assert fit_jobs.recover(store.db) == []  # it beat just now
    for attempt in range(1, fit_jobs.MAX_ATTEMPTS):
        assert fit_jobs.recover(store.db, stale_s=-1) == [job_id]
        job = fit_jobs.get(store.db, job_id)
        assert job is not None and job["status"] == Status.QUEUED.value
        fit_jobs.claim(store.db, "gone")
    assert fit_jobs.recover(store.db, stale_s=-1) == [job_id]
    job = fit_jobs.get(store.db, job_id)
    assert job is not None and (job["status"], job["error_code"]) == ("failed", fit_jobs.ABANDONED)


def test_a_job_left_by_a_killed_process_is_taken_again_and_finished(path: Path, store: Store) -> None:
    """A process claims the job and dies without a word (a server killed mid-fit); the next worker
    of this host sees its process is gone, queues the job again and runs it to its result."""
    job_id = fit_jobs.create(store.db, params=PARAMS, selection=CLUB)
    code = ("import sys, os; from records.db import connect; from records import fit_jobs; "
            "from batch.fit_job import owner_name; "
            "db = connect(sys.argv[1]); fit_jobs.claim(db, owner_name()); os._exit(9)")
    subprocess.run([sys.executable, "-c", code, str(path)], check=False, cwd=Path(__file__).parents[2],
                   timeout=scaled(120))
    left = fit_jobs.get(store.db, job_id)
    assert left is not None and left["status"] == "running" and dead_here(left["owner"])
    assert not dead_here(owner_name()) and not dead_here("elsewhere:1:x")
    assert recover_left(store.db) == [job_id]
    assert work(path, once=True, beat_s=0.05) == 1
    job = fit_jobs.get(store.db, job_id)
    assert job is not None and job["status"] == "done" and job["attempts"] == 2
    assert job["result"]["fit"]["options"] == PLAYED
    assert job["records_done"] == 12 and job["values_weighed"] > 0


def test_an_upload_job_keeps_its_records_until_done_and_splits_by_client(store: Store) -> None:
    docs = _docs(12, seed=7)
    job_id = fit_jobs.create(store.db, params={**PARAMS, "by": "client"},
                             uploaded=[(f"u.jsonl line {i + 1}", d) for i, d in enumerate(docs)])
    assert [len(c) for c in fit_jobs.uploaded_chunks(store.db, job_id, size=5)] == [5, 5, 2]
    path = store.db.execute("PRAGMA database_list").fetchone()[2]
    assert work(path, once=True, beat_s=0.05) == 1
    job = fit_jobs.get(store.db, job_id)
    assert job is not None and job["status"] == "done"
    assert [c["client"] for c in job["result"]["cells"]] == ["android 5.0", "ios 4.9"]
    assert list(fit_jobs.uploaded_chunks(store.db, job_id)) == []  # the result is what is kept


def test_an_unknown_profile_fails_the_job_with_its_code(store: Store) -> None:
    job_id = fit_jobs.create(store.db, params={**PARAMS, "profile": "no_such"}, selection=CLUB)
    path = store.db.execute("PRAGMA database_list").fetchone()[2]
    work(path, once=True, beat_s=0.05)
    job = fit_jobs.get(store.db, job_id)
    assert job is not None and (job["status"], job["error_code"], job["result"]) == ("failed", "fit_job_profile", None)
