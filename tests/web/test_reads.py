"""Reads do not take the main database's write lock (issue 12): views and exports are logged in
the access log, so a reader neither waits for an upload's transaction nor makes one wait."""
from __future__ import annotations

import sqlite3
import threading

from flask import Flask
from flask.testing import FlaskClient

from records import access
from tests.conftest import dumps, example_path, load_example, variant


def test_reading_a_record_while_a_writer_holds_the_lock(app: Flask, client: FlaskClient) -> None:
    record_id = client.post("/api/records", data=example_path("hot-shot-weile").read_bytes(),
                            content_type="application/json").get_json()["results"][0]["record_id"]
    client.get(f"/records/{record_id}")  # warm: the access log exists
    writer = sqlite3.connect(app.config["DATABASE"], isolation_level=None, timeout=0)
    writer.execute("BEGIN IMMEDIATE")  # an upload holding the main write lock
    try:
        for url in (f"/records/{record_id}", f"/api/records/{record_id}", f"/api/records/{record_id}/raw",
                    "/records", f"/api/records/{record_id}/trail"):
            # a read that needed the write lock would wait out the busy timeout and fail: the writer
            # keeps it until after the reads, so an answer at all says nothing waited for it
            assert client.get(url).status_code == 200, url
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    log = access.connect(access.path_for(app.config["DATABASE"]))
    try:
        views = log.execute("SELECT count(*) FROM trail WHERE action IN ('view', 'export') AND record_id = ?",
                            [record_id]).fetchone()[0]
    finally:
        log.close()
    assert views >= 4


def test_a_long_read_does_not_delay_an_upload(app: Flask, client: FlaskClient) -> None:
    client.post("/api/records", data=example_path("hot-shot-weile").read_bytes(), content_type="application/json")
    reader = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM records").fetchone()  # a read transaction left open, as a slow page does
    log_writer_done = threading.Event()

    def slow_views() -> None:  # readers logging views the whole time
        viewer = app.test_client()
        with client.session_transaction() as session:
            values = dict(session)
        with viewer.session_transaction() as session:
            session.update(values)
        for _ in range(20):
            viewer.get("/api/records/1")
        log_writer_done.set()

    thread = threading.Thread(target=slow_views)
    try:
        thread.start()
        doc = variant(load_example("hot-shot-weile"), game_id="during-a-read")
        response = client.post("/api/records", data=dumps(doc), content_type="application/json")
        # the read stays open until after the upload: had it held the upload back, the upload would
        # have waited out the busy timeout and failed, so a 201 is the proof (no clock needed)
        assert response.status_code == 201
    finally:
        thread.join()
        reader.execute("ROLLBACK")
        reader.close()
    assert log_writer_done.is_set()
