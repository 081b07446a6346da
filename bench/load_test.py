"""Load test: many concurrent uploaders and readers against a real server process.

    .venv/bin/python bench/load_test.py                         # 2,000 records, 16 uploaders, 4 readers
    .venv/bin/python bench/load_test.py --records 400 --json bench/out/load.json

Starts `flask --app app run` (Werkzeug's threaded server, the one `make run`
uses; `--server gunicorn` for two worker processes, pinned in
bench/requirements.txt) on 127.0.0.1 with a fresh database, gives it an
admin API token, then:
- `--uploaders` threads POST the reference games (spec/reference/*.json) with
  their game_id varied, `--batch` records per request as JSON lines;
- `--readers` threads meanwhile read the list, records and report pages;
- at the end it checks that every upload is accounted for: every request got a
  2xx answer, every record `created` exactly once, the database holds exactly
  those records (no duplicate game, none missing, every one audited), and the
  hashes verify. Then it prints requests per second and latency percentiles.

Only loopback traffic; every loop is bounded by a count and a deadline.
tests/records/test_concurrency.py runs a small version of the same code in the suite.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from records.db import atomic
from records.rows import now  # noqa: E402
from records.security import ADMIN, Accounts, new_password  # noqa: E402
from records.store import Store  # noqa: E402
from records.verify import verify  # noqa: E402

REFERENCE = ROOT / "spec" / "reference"
PLATFORM = "load-test"
HOST = "127.0.0.1"
TRAIL_KEY = b"load-test-trail-key-not-secret"
"""The trail key the benchmark's server is given (FLASK_TRAIL_KEY), so the checks can verify its chain."""
DEADLINE_S = 600
"""No run of this module lasts longer than this, whatever its arguments."""


# ----- the server -----------------------------------------------------------------------------


def free_port() -> int:
    """A loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def admin_token(db_path: Path | str, name: str = "load-admin", role: str = ADMIN,
                platform: str | None = None) -> str:
    """Create an account in the database (migrating it first) and return a new API token."""
    store = Store.open(db_path, trail_key=TRAIL_KEY)
    try:
        accounts = Accounts(store.db, store.trail_key)
        with atomic(store.db):
            account = accounts.by_name(name) or accounts.create(name, role, new_password(), platform=platform,
                                                                stamp=now())
            return accounts.create_token(account.id, label="load test", created_by="bench", stamp=now())
    finally:
        store.close()


@dataclass
class Server:
    """A `flask run` subprocess on a loopback port."""

    db_path: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None
    """Where the server's stderr goes (its request log and tracebacks); None discards it."""
    kind: str = "flask"
    """`flask` (Werkzeug's threaded server, one process) or `gunicorn` (bench/requirements.txt:
    2 worker processes of 8 threads, so both cores audit)."""

    def command(self) -> list[str]:
        """The command line of the server."""
        if self.kind == "gunicorn":
            return [sys.executable, "-m", "gunicorn", "--bind", f"{HOST}:{self.port}", "--workers", "2",
                    "--threads", "8", "--timeout", "120", "app:create_app()"]
        return [sys.executable, "-m", "flask", "--app", "app", "run", "--host", HOST, "--port", str(self.port),
                "--no-reload", "--no-debugger", "--with-threads"]

    def start(self, timeout: float = 30.0) -> Server:
        """Start and wait until /health answers."""
        env = {**os.environ, "FLASK_DATABASE": str(self.db_path), "FLASK_SECRET_KEY": secrets.token_hex(16),
               "FLASK_TRAIL_KEY": TRAIL_KEY.decode("ascii"),
               "PYTHONUNBUFFERED": "1"}
        if self.log_path is None:
            self.process = subprocess.Popen(self.command(), cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL)
        else:
            with open(self.log_path, "ab") as log:  # the child keeps its own descriptor
                self.process = subprocess.Popen(self.command(), cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                                                stderr=log)
        self._wait_healthy(timeout)
        return self

    def _wait_healthy(self, timeout: float) -> None:
        """Poll /health until it answers 200; stop the server and raise if it never does."""
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}")
            try:
                if request(self.port, "GET", "/health", timeout=2)[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("the server did not answer /health in time")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, no chance to finish a request."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        """Terminate politely, then kill."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def request(port: int, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
            timeout: float = 60) -> tuple[int, bytes]:
    """One HTTP request on its own connection; (status, body)."""
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


# ----- the records ----------------------------------------------------------------------------


def references() -> list[dict[str, Any]]:
    """The reference games, parsed."""
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(REFERENCE.glob("ref-*.json"))]


def generated(count: int, tag: str) -> list[tuple[str, bytes]]:
    """`count` distinct records as (game_id, bytes): the reference games with their game_id varied."""
    refs = references()
    out = []
    for index in range(count):
        doc = dict(refs[index % len(refs)], platform=PLATFORM, game_id=f"{tag}-{index:06d}")
        out.append((doc["game_id"], json.dumps(doc, ensure_ascii=False).encode("utf-8")))
    return out


def batches(records: list[tuple[str, bytes]], size: int) -> list[list[tuple[str, bytes]]]:
    """Consecutive slices of `size` records."""
    return [records[index:index + size] for index in range(0, len(records), size)]


# ----- the load -------------------------------------------------------------------------------


@dataclass
class Tally:
    """What the clients saw; appended to from many threads (list.append is atomic)."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    results: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def timed(self, kind: str, call: Callable[[], tuple[int, bytes]]) -> tuple[int, bytes]:
        """Run one request and keep its latency under `kind`."""
        started = time.perf_counter()
        answer = call()
        with self.lock:
            self.latencies.setdefault(kind, []).append(time.perf_counter() - started)
        return answer


def upload_batch(port: int, headers: dict[str, str], batch: list[tuple[str, bytes]], tally: Tally) -> None:
    """POST one JSON-lines batch and keep every result line (or the error)."""
    body = b"\n".join(raw for _, raw in batch)
    status, answer = tally.timed("upload", lambda: request(
        port, "POST", "/api/records", body, {**headers, "Content-Type": "application/x-ndjson"}))
    if status not in (200, 201):  # 200: every record of the batch was already stored
        tally.errors.append(f"upload answered {status}: {answer[:300]!r}")
        return
    tally.results.extend(json.loads(answer)["results"])


def uploader(port: int, headers: dict[str, str], work: list[list[tuple[str, bytes]]], tally: Tally,
             deadline: float) -> None:
    """One uploading client: its batches, in order."""
    for batch in work:
        if time.monotonic() > deadline:
            tally.errors.append("deadline passed before every batch was sent")
            return
        try:
            upload_batch(port, headers, batch, tally)
        except (OSError, http.client.HTTPException) as exc:
            tally.errors.append(f"upload failed: {exc!r}")


READ_PATHS = ("/api/records?per_page=50", "/records/{id}", "/api/records/{id}", "/records?verdict=clean")


def reader(port: int, headers: dict[str, str], tally: Tally, stop: threading.Event, seed: int) -> None:
    """One reading client: list pages and report pages of records uploaded so far, until told to stop."""
    rng = random.Random(seed)
    while not stop.is_set():
        known = [result["record_id"] for result in tally.results[-200:] if result.get("record_id")]
        path = rng.choice(READ_PATHS if known else READ_PATHS[:1])
        path = path.format(id=rng.choice(known)) if known else path
        kind = "report" if path.startswith("/records/") else "read"
        try:
            status, answer = tally.timed(kind, partial(request, port, "GET", path, headers=headers))
        except (OSError, http.client.HTTPException) as exc:
            tally.errors.append(f"read failed: {exc!r}")
            continue
        if status != 200:
            tally.errors.append(f"GET {path} answered {status}: {answer[:200]!r}")


def run_load(port: int, token: str, records: list[tuple[str, bytes]], *, uploaders: int, readers: int,
             batch: int, deadline_s: float = DEADLINE_S) -> tuple[Tally, float]:
    """Upload every record from `uploaders` threads while `readers` threads read; (tally, seconds)."""
    headers = {"Authorization": f"Bearer {token}"}
    work = batches(records, batch)
    shares = [work[index::uploaders] for index in range(uploaders)]
    tally, stop = Tally(), threading.Event()
    deadline = time.monotonic() + deadline_s
    reading = [threading.Thread(target=reader, args=(port, headers, tally, stop, seed)) for seed in range(readers)]
    uploading = [threading.Thread(target=uploader, args=(port, headers, share, tally, deadline)) for share in shares]
    started = time.perf_counter()
    for thread in reading + uploading:
        thread.start()
    for thread in uploading:
        thread.join(timeout=deadline_s)
    elapsed = time.perf_counter() - started
    stop.set()
    for thread in reading:
        thread.join(timeout=60)
    return tally, elapsed


# ----- checks and figures ---------------------------------------------------------------------


def account_for(db_path: Path | str, records: list[tuple[str, bytes]], tally: Tally) -> list[str]:
    """Everything wrong with the outcome (empty when every upload is accounted for)."""
    problems = list(tally.errors)
    sent = dict(records)
    statuses = [result["status"] for result in tally.results]
    if len(tally.results) != len(records) or set(statuses) != {"created"}:
        problems.append(f"{len(tally.results)} result lines for {len(records)} records; statuses {set(statuses)}")
    ids = [result["record_id"] for result in tally.results]
    if len(set(ids)) != len(ids):
        problems.append("the same record id was reported for two uploads")
    store = Store.open(db_path, trail_key=TRAIL_KEY)
    try:
        rows = list(store.db.query("SELECT r.id, r.game_id, r.verdict, d.raw FROM records r "
                                   "JOIN documents d ON d.id = r.document_id WHERE r.platform = ?", [PLATFORM]))
        problems += _compare_rows(rows, sent, set(ids))
        problems += [mismatch.describe() for mismatch in verify(store.db, store.trail_key)]
    finally:
        store.close()
    return problems


def _compare_rows(rows: list[dict[str, Any]], sent: dict[str, bytes], reported: set[int]) -> list[str]:
    """The database against what was sent and what the server acknowledged."""
    problems = []
    games = [row["game_id"] for row in rows]
    if len(games) != len(set(games)):
        problems.append("a game is stored twice")
    if set(games) != set(sent):
        problems.append(f"{len(set(sent) - set(games))} records missing, {len(set(games) - set(sent))} unexpected")
    if {row["id"] for row in rows} != reported:
        problems.append("the stored record ids differ from the acknowledged ones")
    problems += [f"record {row['id']}: bytes differ from what was sent" for row in rows
                 if bytes(row["raw"]) != sent.get(row["game_id"])]
    problems += [f"record {row['id']}: not audited" for row in rows if row["verdict"] is None]
    return problems


def percentile(values: list[float], share: float) -> float:
    """The value below which `share` of the values fall (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(share * len(ordered))) - 1))] if ordered else 0.0


def figures(tally: Tally, elapsed: float, records: int) -> dict[str, Any]:
    """Requests per second, records per second and latency percentiles per kind of request."""
    every = [value for values in tally.latencies.values() for value in values]
    kinds = {kind: {"requests": len(values), "p50_ms": round(statistics.median(values) * 1000, 1),
                    "p99_ms": round(percentile(values, 0.99) * 1000, 1),
                    "max_ms": round(max(values) * 1000, 1)}
             for kind, values in sorted(tally.latencies.items()) if values}
    return {"seconds": round(elapsed, 2), "records": records, "records_per_s": round(records / elapsed, 1),
            "requests": len(every), "requests_per_s": round(len(every) / elapsed, 1),
            "p99_ms": round(percentile(every, 0.99) * 1000, 1), "kinds": kinds}


def main(argv: list[str] | None = None) -> int:
    """Run the load test once and print the figures; exit 1 if anything is unaccounted for."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--uploaders", type=int, default=16)
    parser.add_argument("--readers", type=int, default=4)
    parser.add_argument("--batch", type=int, default=10, help="records per upload request (JSON lines)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    parser.add_argument("--server-log", type=Path, help="append the server's stderr to this file")
    parser.add_argument("--server", choices=("flask", "gunicorn"), default="flask",
                        help="flask run (default, what make run uses) or gunicorn with 2 workers")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="zhuoji-load-") as workdir:
        db_path = Path(workdir) / "load.sqlite3"
        token = admin_token(db_path)
        server = Server(db_path, log_path=args.server_log, kind=args.server).start()
        try:
            records = generated(args.records, f"load{secrets.token_hex(3)}")
            tally, elapsed = run_load(server.port, token, records, uploaders=args.uploaders, readers=args.readers,
                                      batch=args.batch)
        finally:
            server.stop()
        problems = account_for(db_path, records, tally)
    result = figures(tally, elapsed, len(records))
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")
    for problem in problems[:20]:
        print("PROBLEM:", problem)
    print("every upload accounted for" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
