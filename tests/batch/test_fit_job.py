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
