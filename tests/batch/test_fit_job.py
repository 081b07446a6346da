"""batch.fit_job on a Dask cluster (issue 36.2): the fits of a job (the whole set and each client
build's) run as tasks and give the result the worker's own process gives; a scheduler configured
but not answering fails the job with its code, never falls back silently."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from batch.fit_job import CLUSTER, run_job, work
from records import fit_jobs
from records.db import close, connect
from records.store import Store
from sim.simulate import simulate


def _uploaded(count: int) -> list[tuple[str, Any]]:
    out = []
    for i, gen in enumerate(simulate("weile", {"chicken.charge": 4}, count, 41)):
        doc = gen.record
        doc["rules"] = {"profile": "weile"}
        doc["client"] = "ios 4.9" if i % 2 else "android 5.0"
        out.append((f"u.jsonl line {i + 1}", doc))
    return out


@pytest.fixture
def path(tmp_path: Path) -> Iterator[str]:
    p = tmp_path / "d.sqlite3"
    Store.open(p, trail_key=b"k" * 32).close()
    yield str(p)


def _job(path: str) -> int:
    db = connect(path)
    try:
        return fit_jobs.create(db, params={"profile": "weile", "lang": "en", "by": "client"}, uploaded=_uploaded(12))
    finally:
        close(db)


def _get(path: str, job_id: int) -> dict[str, Any]:
    db = connect(path)
    try:
        job = fit_jobs.get(db, job_id)
        assert job is not None
        return job
    finally:
        close(db)


def test_the_fits_run_on_the_cluster_and_agree_with_the_process(path: str) -> None:
    from distributed import Client, LocalCluster

    here, there = _job(path), _job(path)
    db = connect(path)
    try:
        first = fit_jobs.claim(db, "w")
        assert first is not None
        run_job(path, first, "w")
        second = fit_jobs.claim(db, "w")
        assert second is not None
        with LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0") as cluster, \
                Client(cluster) as client:
            run_job(path, second, "w", client=client)
    finally:
        close(db)
    a, b = _get(path, here)["result"], _get(path, there)["result"]
    assert (a["engine"], b["engine"]) == ("in-process", "dask")
    strip = lambda r: json.dumps({k: v for k, v in r.items() if k not in ("engine", "seconds")}, sort_keys=True)  # noqa: E731
    assert strip(a) == strip(b)


def test_a_scheduler_that_does_not_answer_fails_the_job(path: str) -> None:
    job_id = _job(path)
    assert work(path, once=True, scheduler="tcp://127.0.0.1:9") == 1
    job = _get(path, job_id)
    assert (job["status"], job["error_code"], job["result"]) == ("failed", CLUSTER, None)
    assert job["error_params"]["scheduler"] == "tcp://127.0.0.1:9"


def test_the_worker_thread_waits_for_a_store_not_created_yet(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A web process's first request can start the worker before `flask bootstrap` made the tables
    (gunicorn on a new database): the worker says so once and keeps polling, it does not die; the
    command (`once`) reports the error instead."""
    import sqlite3
    import threading

    from tests.deadlines import scaled, wait_until

    empty = tmp_path / "empty.sqlite3"
    with pytest.raises(sqlite3.OperationalError):
        work(empty, once=True)
    stop = threading.Event()
    thread = threading.Thread(target=work, args=(empty,), kwargs={"stop": stop, "poll_s": 0.01}, daemon=True)
    with caplog.at_level("WARNING", logger="batch.fit_job"):
        thread.start()
        wait_until(lambda: [r for r in caplog.records if "cannot give jobs yet" in r.getMessage()], 30,
                   "the worker's warning")
        Store.open(empty, trail_key=b"k" * 32).close()  # the store is made: the worker takes its jobs
        job_id = _job(str(empty))
        wait_until(lambda: _get(str(empty), job_id)["status"] == "done", 300, "the job run by the waiting worker")
        stop.set()
        thread.join(timeout=scaled(30))
    assert not thread.is_alive()
    assert len([r for r in caplog.records if "cannot give jobs yet" in r.getMessage()]) == 1
