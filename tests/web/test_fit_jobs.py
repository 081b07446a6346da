"""Fit jobs on the service (issue 36.2, 36.4): started from the fit page, the job page from the
store (a reload, a new app on the same database, shows the same job), progress as JSON, the kept
result with where a fitted value changes; a fit of no record refused in Chinese and English with
nothing stored; the worker thread of the web process runs a job to its end."""
from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from app import create_app
from batch.fit_job import work
from records.ingest import Hand, Origin
from records.store import Store
from sim.simulate import simulate
from tests.conftest import login
from tests.deadlines import wait_until
from tests.records.test_fit_jobs import PLAYED, _docs
from tests.service import app_config
from web.fit_worker import stop_worker



@pytest.fixture(scope="module")
def docs() -> list[dict[str, Any]]:
    return _docs(12)


def _store_records(app: Flask, docs: list[dict[str, Any]]) -> None:
    store = Store.open(app.config["DATABASE"], trail_key=b"k" * 32)
    try:
        audit: dict[str, Any] = {"game_id": None, "profile": "weile", "verdict": "clean", "settlement": None,
                                 "findings": []}
        store.load_audited([(Hand(Origin("t.jsonl"), d, json.dumps(d).encode("utf-8"), "file"), audit)
                            for d in docs], engine_version="test")
    finally:
        store.close()


@pytest.fixture
def app(tmp_path: Path, docs: list[dict[str, Any]]) -> Flask:
    app = create_app(app_config(tmp_path))
    login(app)  # makes the database
    _store_records(app, docs)
    return app


def _start(http: Any, lang: str = "en", **form: str) -> Any:
    fields = {"source": "stored", "platform": "club.example", "profile": "weile", **form}
    return http.post(f"/fit/jobs?lang={lang}", data=fields, content_type="multipart/form-data")


def _job_id(response: Any) -> int:
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_a_job_starts_runs_and_keeps_its_result_across_a_reload_and_a_new_server(app: Flask, tmp_path: Path) -> None:
    client = login(app, create=False)
    job_id = _job_id(_start(client, by="client"))
    queued = client.get(f"/fit/jobs/{job_id}.json").get_json()
    assert (queued["status"], queued["records_done"], queued["records_total"], queued["final"]) == (
        "queued", 0, 12, False)
    page = client.get(f"/fit/jobs/{job_id}?lang=en").get_data(as_text=True)
    assert 'data-final="false"' in page and "fit_job.js" in page
    assert work(app.config["DATABASE"], once=True, beat_s=0.05) == 1
    done = client.get(f"/fit/jobs/{job_id}.json").get_json()
    assert (done["status"], done["records_done"], done["final"]) == ("done", 12, True) and done["values_weighed"] > 0
    again = create_app(app_config(tmp_path))  # a restarted server on the same database
    fresh = login(again, create=False)
    for lang in ("en", "zh"):
        html = fresh.get(f"/fit/jobs/{job_id}?lang={lang}").get_data(as_text=True)
        assert 'data-final="true"' in html and 'data-parameter' not in html  # both clients pay 4
        assert "chicken.charge" in html and "ios 4.9" in html
    assert fresh.get("/fit/jobs?lang=zh").status_code == 200
    assert f"/fit/jobs/{job_id}" in fresh.get("/fit/jobs?lang=en").get_data(as_text=True)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("form", [{"platform": "nobody"}, {"client": "web"}, {"date_from": "2027-01-01"}])
def test_a_job_of_no_record_is_refused_in_both_languages_nothing_stored(app: Flask, lang: str,
                                                                       form: dict[str, str]) -> None:
    client = login(app, create=False)
    response = _start(client, lang, **form)
    html = response.get_data(as_text=True)
    assert response.status_code == 400 and 'data-code="fit_no_records"' in html
    assert client.get("/fit/jobs?lang=en").get_data(as_text=True).count("/fit/jobs/") == 0


def test_an_upload_of_nothing_readable_is_refused(app: Flask) -> None:
    client = login(app, create=False)
    response = client.post("/fit/jobs?lang=en", data={"source": "upload", "profile": "weile",
                                                      "files": (io.BytesIO(b"[1, 2"), "bad.json")},
                           content_type="multipart/form-data")
    assert response.status_code == 400 and 'data-code="fit_no_records"' in response.get_data(as_text=True)


@pytest.mark.parametrize(("form", "code"), [({"by": "colour"}, "fit_choice_bad"), ({"period": "year"}, "fit_choice_bad"),
                                            ({"profile": "nope"}, "unknown_profile"),
                                            ({"platform": ""}, "fit_platform_missing")])
def test_bad_input_names_its_field(app: Flask, form: dict[str, str], code: str) -> None:
    client = login(app, create=False)
    for lang in ("en", "zh"):
        response = _start(client, lang, **form)
        assert response.status_code == 400 and f'data-code="{code}"' in response.get_data(as_text=True)


def test_past_the_job_cap_stored_records_are_a_sampled_job_and_files_are_413(tmp_path: Path,
                                                                            docs: list[dict[str, Any]]) -> None:
    app = create_app(app_config(tmp_path, FIT_JOB_MAX_RECORDS=5))
    login(app)
    _store_records(app, docs)
    client = login(app, create=False)
    job_id = _job_id(_start(client))  # 12 stored records past a cap of 5: not refused
    assert client.get(f"/fit/jobs/{job_id}.json").get_json()["sample"] == 5
    data = "\n".join(json.dumps(d) for d in docs).encode("utf-8")
    for lang in ("en", "zh"):
        response = client.post(f"/fit/jobs?lang={lang}", data={"source": "upload", "profile": "weile",
                                                               "files": (io.BytesIO(data), "club.jsonl")},
                               content_type="multipart/form-data")
        assert response.status_code == 413 and 'data-code="fit_job_too_many"' in response.get_data(as_text=True)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_job_cap_follows_the_memory_a_fit_may_take(tmp_path: Path, docs: list[dict[str, Any]], lang: str) -> None:
    """Without FIT_JOB_MAX_RECORDS the cap is what FIT_JOB_MEMORY_MB holds at KB_PER_RECORD a record
    (docs/decisions.md 36.2c): 1 MB holds fewer than the 12 records (a sample of them), 4 MB more (no
    sample); the form says the cap."""
    from records.fit_jobs import KB_PER_RECORD, cap_for

    assert cap_for(1) == 1024 // KB_PER_RECORD < len(docs) < cap_for(4)
    small = create_app(app_config(tmp_path, "small.sqlite3", FIT_JOB_MEMORY_MB=1))
    login(small)
    _store_records(small, docs)
    client = login(small, create=False)
    assert f"{cap_for(1)}" in client.get(f"/fit?lang={lang}").get_data(as_text=True)
    sampled = _job_id(_start(client, lang))
    assert client.get(f"/fit/jobs/{sampled}.json").get_json()["sample"] == cap_for(1)
    big = create_app(app_config(tmp_path, "big.sqlite3", FIT_JOB_MEMORY_MB=4))
    login(big)
    _store_records(big, docs)
    whole = login(big, create=False)
    assert whole.get(f"/fit/jobs/{_job_id(_start(whole, lang))}.json").get_json()["sample"] is None


def test_a_job_past_the_cap_shows_its_sample_and_every_records_counts(tmp_path: Path) -> None:
    from tests.batch.test_fit_job import SPOILT, _stored_docs

    app = create_app(app_config(tmp_path, FIT_JOB_MAX_RECORDS=40))
    login(app)
    _store_records(app, _stored_docs())
    client = login(app, create=False)
    job_id = _job_id(_start(client, "zh"))
    queued = client.get(f"/fit/jobs/{job_id}.json").get_json()
    assert (queued["sample"], queued["records_total"], queued["verified"]) == (40, 120, None)
    assert 'class="fit-job-sample"' in client.get(f"/fit/jobs/{job_id}?lang=en").get_data(as_text=True)
    assert work(app.config["DATABASE"], once=True, beat_s=0.05) == 1
    done = client.get(f"/fit/jobs/{job_id}.json").get_json()
    verified = done["verified"]
    assert done["status"] == "done" and done["records_done"] == 120
    assert verified["records"] == 120 and verified["unexplained"] == len(SPOILT) == len(verified["listed"])
    assert verified["clean"]["fitted"] == 120 - len(SPOILT)
    for lang in ("en", "zh"):
        html = client.get(f"/fit/jobs/{job_id}?lang={lang}").get_data(as_text=True)
        assert (f'data-size="40" data-records="120" data-clean-base="{verified["clean"]["base"]}" '
                f'data-clean-fitted="{verified["clean"]["fitted"]}" data-unexplained="{len(SPOILT)}"') in html
        for listed in verified["listed"]:
            assert f'href="/records/{listed["record_id"]}"' in html
    from tests.web.english import english_words

    zh_page = client.get(f"/fit/jobs/{job_id}?lang=zh").get_data(as_text=True)
    data = {d["game_id"] for d in _stored_docs()} | {"club.example", "ios", "android", "web", "weile"}
    sample_part = zh_page[zh_page.index('<section class="fit-sample"'):zh_page.index('<section class="fit-changes"')]
    assert english_words(sample_part, data) == {}


def test_cancel_and_missing_jobs(app: Flask) -> None:
    client = login(app, create=False)
    job_id = _job_id(_start(client))
    assert client.post(f"/fit/jobs/{job_id}/cancel").status_code == 303
    assert client.get(f"/fit/jobs/{job_id}.json").get_json()["status"] == "cancelled"
    assert client.post(f"/fit/jobs/{job_id}/cancel?lang=en").status_code == 409
    assert client.get("/fit/jobs/999.json").status_code == 404
    assert work(app.config["DATABASE"], once=True) == 0  # nothing queued: the cancelled job is not run


def test_an_uploaded_set_is_fitted_by_the_thread_of_the_web_process(tmp_path: Path, docs: list[dict[str, Any]]) -> None:
    """FIT_WORKER on: the first request starts the thread; the job ends without anyone running
    a worker by hand (the poll's JSON says so, waited on with a deadline)."""
    app = create_app(app_config(tmp_path, FIT_WORKER=True))
    try:
        client = login(app)
        data = "".join(json.dumps(d) + "\n" for d in docs).encode("utf-8")
        job_id = _job_id(client.post("/fit/jobs?lang=zh", data={"source": "upload", "profile": "weile",
                                                                 "files": (io.BytesIO(data), "club.jsonl")},
                                     content_type="multipart/form-data"))

        def ended() -> dict[str, Any]:
            polled: dict[str, Any] = client.get(f"/fit/jobs/{job_id}.json").get_json()
            return polled if polled["final"] else {}

        state = wait_until(ended, 300, f"fit job {job_id} to end")
        assert state["status"] == "done", state
        html = client.get(f"/fit/jobs/{job_id}?lang=zh").get_data(as_text=True)
        assert "冲锋鸡" in html and "chicken.charge" in html
    finally:
        stop_worker(app)



def test_the_fit_worker_command_runs_the_queue(app: Flask) -> None:
    client = login(app, create=False)
    job_id = _job_id(_start(client, client="ios"))
    result = app.test_cli_runner().invoke(args=["fit-worker", "--once"])
    assert result.exit_code == 0, result.output
    assert "1" in result.output
    assert client.get(f"/fit/jobs/{job_id}.json").get_json()["status"] == "done"


def test_the_job_page_says_where_a_value_changes_in_both_languages(app: Flask) -> None:
    """Client ios 4.9 pays 4 for a 冲锋鸡, android 5.0 plays plain weile: a job by client build."""
    docs = []
    for build, options, seed in (("android 5.0", {}, 3), ("ios 4.9", PLAYED, 4)):
        for i, gen in enumerate(simulate("weile", options, 10, seed)):
            doc = gen.record
            doc["rules"] = {"profile": "weile"}
            doc["client"] = build
            doc["played_at"] = f"2026-11-{1 + i:02d}T20:00:00+08:00"
            docs.append(doc)
    client = login(app, create=False)
    data = "".join(json.dumps(d) + "\n" for d in docs).encode("utf-8")
    job_id = _job_id(client.post("/fit/jobs?lang=en", data={"source": "upload", "profile": "weile", "by": "client",
                                                            "files": (io.BytesIO(data), "two.jsonl")},
                                 content_type="multipart/form-data"))
    assert work(app.config["DATABASE"], once=True) == 1
    en = client.get(f"/fit/jobs/{job_id}?lang=en").get_data(as_text=True)
    zh = client.get(f"/fit/jobs/{job_id}?lang=zh").get_data(as_text=True)
    for html in (en, zh):
        assert 'data-parameter="chicken.charge"' in html and "ios 4.9" in html
    assert "client ios 4.9 only" in en and "仅客户端 ios 4.9" in zh


def test_the_progress_inside_a_fit_advances_and_a_reload_shows_it(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker's fit is held twice while it searches (a value taken, then the evidence): each time
    the stored job, its JSON poll and a reload of its page show the search phase and the values
    weighed so far, and the second time more of them than the first; then the job ends."""
    import threading

    import batch.fit_job
    from fit.api import fit_records
    from fit.search import Phase, Progress
    from tests.deadlines import scaled

    held, go = threading.Event(), threading.Event()
    holds: list[int] = []

    def holding(records: Any, *, progress: Any = None, **kw: Any) -> dict[str, Any]:
        def told(prog: Progress) -> None:
            progress(prog)
            if prog.phase is Phase.SEARCHING and len(holds) < 2 and prog.values_weighed > max(holds, default=0):
                holds.append(prog.values_weighed)
                held.set()
                go.wait(scaled(120))
                go.clear()
        return fit_records(records, progress=told, **kw)

    monkeypatch.setattr(batch.fit_job, "fit_records", holding)
    client = login(app, create=False)
    job_id = _job_id(_start(client))
    thread = threading.Thread(target=work, args=(app.config["DATABASE"],), kwargs={"once": True, "beat_s": 0.05},
                              daemon=True)
    thread.start()
    seen = []
    for _ in range(2):
        wait_until(held.is_set, 120, "the fit held in its search")
        held.clear()
        weighed = holds[-1]
        wait_until(lambda: (client.get(f"/fit/jobs/{job_id}.json").get_json()["fit"] or {}).get("values_weighed")
                   == weighed, 60, "the progress stored by the heartbeat")
        state = client.get(f"/fit/jobs/{job_id}.json").get_json()
        assert state["fit"]["phase"] == "searching" and state["values_weighed"] == weighed
        assert state["fit"]["values_estimate"] >= weighed and state["seconds_left"] is not None
        for lang in ("en", "zh"):
            page = client.get(f"/fit/jobs/{job_id}?lang={lang}").get_data(as_text=True)  # a reload
            assert 'data-fit-phase="searching"' in page and f'data-field="values_weighed">{weighed}<' in page
        seen.append(weighed)
        go.set()
    assert seen[1] > seen[0]  # it advanced during the search
    thread.join(timeout=scaled(300))
    done = client.get(f"/fit/jobs/{job_id}.json").get_json()
    assert done["status"] == "done" and done["fit"] is None and done["values_weighed"] >= seen[1]


def test_a_sampled_job_verifying_shows_its_records_verified(tmp_path: Path, docs: list[dict[str, Any]]) -> None:
    from records import fit_jobs
    from records.db import close, connect

    app = create_app(app_config(tmp_path, FIT_JOB_MAX_RECORDS=5))
    login(app)
    _store_records(app, docs)
    client = login(app, create=False)
    job_id = _job_id(_start(client))
    db = connect(app.config["DATABASE"])
    try:
        assert fit_jobs.claim(db, "w") is not None
        assert fit_jobs.progress(db, job_id, "w", phase="verifying", records_done=7, seconds_left=3.0,
                                 fit={"phase": "verifying", "records": 12, "records_done": 7, "fraction": 0.5833,
                                      "taken": 1, "values_weighed": 0, "values_estimate": 0, "piece": 1, "pieces": 1,
                                      "clean": {"base": 3, "fitted": 7}, "unexplained": 0})
    finally:
        close(db)
    polled = client.get(f"/fit/jobs/{job_id}.json").get_json()
    assert (polled["phase"], polled["fit"]["phase"], polled["records_done"], polled["sample"]) == ("verifying", "verifying", 7, 5)
    for lang in ("en", "zh"):
        html = client.get(f"/fit/jobs/{job_id}?lang={lang}").get_data(as_text=True)
        assert 'data-phase="verifying"' in html and 'data-fit-phase="verifying"' in html
        assert 'data-field="verified">7 ' in html and 'data-sample="5"' in html
