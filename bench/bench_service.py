"""Service benchmark: upload+audit throughput through the API, and list-query latency at 100,000 rows.

    .venv/bin/python bench/bench_service.py                      # 10,000 uploads, 100,000 rows
    .venv/bin/python bench/bench_service.py --records 1000 --list-rows 20000   # quick run

Part 1 posts N records (the 30 reference games with their game_id varied) to
POST /api/records as JSON-lines batches through Flask's test client, so every
record is parsed, schema-checked, audited by the real engine and stored; it
prints records/s, and records per CPU-second of this process (the test client
runs the service in-process), which other work on a shared machine disturbs
less than the wall clock. Part 2 tops the database up to --list-rows rows with
`Store.load_audited` (audits computed once per distinct game and reused, since
only game_id, platform, client and date differ), then times the list queries
(`GET /api/records` and the `/records` page) for several filter sets: the
target is under 200 ms each.
"""
from __future__ import annotations

import argparse
import copy
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from audit.api import ENGINE_VERSION, audit_document  # noqa: E402
from records.ingest import Hand, Origin  # noqa: E402
from records.store import Store  # noqa: E402

SPEC = ROOT / "spec" if (ROOT / "spec").is_dir() else ROOT.parent / "shared" / "spec"
REFERENCE = SPEC / "reference"
PLATFORMS = ("alpha", "beta", "gamma")
CLIENTS = ("android 5.0.1", "ios 4.2", "web 2.3", "pc 1.0")
QUERIES: list[tuple[str, dict[str, Any]]] = [
    ("no filter", {}),
    ("verdict", {"verdict": "missettled"}),
    ("profile+platform", {"profile": "kuhu", "platform": "beta"}),
    ("rule section", {"rule": "R15"}),
    ("player", {"player": "阿明"}),
    ("date range", {"date_from": "2026-03-01", "date_to": "2026-03-31"}),
    ("game id prefix", {"game_id": "ref-weile-90210-0003"}),
    ("client prefix, sorted", {"client": "ios", "sort": "played_at", "order": "asc"}),
    ("deep page", {"page": 500, "per_page": 50}),
    ("all filters", {"verdict": "clean", "profile": "weile", "platform": "alpha", "client": "web",
                     "date_from": "2026-01-01", "date_to": "2026-12-31", "player": "老王"}),
]


def references() -> list[dict[str, Any]]:
    """The reference games, parsed."""
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(REFERENCE.glob("ref-*.json"))]


def tampered(doc: dict[str, Any]) -> dict[str, Any]:
    """A copy that settles one point wrong, so the list has missettled rows."""
    copied = copy.deepcopy(doc)
    copied["result"]["scores"][0] += 1
    copied["result"]["scores"][1] -= 1
    copied["result"].pop("items", None)
    return copied


def generated(refs: list[dict[str, Any]], count: int, tag: str) -> Iterator[dict[str, Any]]:
    """`count` records: reference games with their game_id, platform, client and date varied."""
    for index in range(count):
        base = refs[index % len(refs)]
        doc = tampered(base) if index % 7 == 0 else copy.deepcopy(base)
        doc["game_id"] = f"{base['game_id']}-{tag}{index:07d}"
        doc["platform"] = PLATFORMS[index % len(PLATFORMS)]
        doc["client"] = CLIENTS[index % len(CLIENTS)]
        doc["played_at"] = f"2026-{1 + index % 12:02d}-{1 + index % 28:02d}T20:15:00+08:00"
        yield doc


def bench_uploads(client: Any, refs: list[dict[str, Any]], count: int, batch: int) -> dict[str, Any]:
    """POST `count` records in JSON-lines batches; returns the figures."""
    docs = list(generated(refs, count, "u"))
    bodies = [b"\n".join(json.dumps(doc, ensure_ascii=False).encode("utf-8") for doc in docs[i:i + batch])
              for i in range(0, count, batch)]
    statuses: dict[str, int] = {}
    started, cpu_started = time.perf_counter(), time.process_time()
    for body in bodies:
        response = client.post("/api/records", data=body, content_type="application/x-ndjson")
        for result in response.get_json()["results"]:
            statuses[result["status"]] = statuses.get(result["status"], 0) + 1
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    return {"records": count, "batch": batch, "seconds": round(elapsed, 2),
            "records_per_s": round(count / elapsed, 1), "cpu_seconds": round(cpu, 2),
            "records_per_cpu_s": round(count / cpu, 1), "statuses": statuses}


def bench_engine_only(refs: list[dict[str, Any]], rounds: int = 5) -> float:
    """Milliseconds the engine alone takes per record, for comparison."""
    started = time.perf_counter()
    for _ in range(rounds):
        for doc in refs:
            audit_document(doc)
    return (time.perf_counter() - started) * 1000 / (rounds * len(refs))


def top_up(path: Path, refs: list[dict[str, Any]], rows: int) -> dict[str, Any]:
    """Fill the store up to `rows` records without re-running the engine on identical games."""
    store = Store.open(path)
    have = store.db["records"].count
    audits = {}
    for doc in refs:
        audits[(doc["game_id"], False)] = audit_document(doc)[0]
        audits[(doc["game_id"], True)] = audit_document(tampered(doc))[0]

    def pairs() -> Iterator[tuple[Hand, dict[str, Any]]]:
        for index, doc in enumerate(generated(refs, max(0, rows - have), "b")):
            base = refs[index % len(refs)]
            audit = dict(audits[(base["game_id"], index % 7 == 0)], game_id=doc["game_id"])
            raw = json.dumps(doc, ensure_ascii=False).encode("utf-8")
            yield Hand(Origin("bench"), doc, raw, "file"), audit

    started = time.perf_counter()
    stored = store.load_audited(pairs(), engine_version=ENGINE_VERSION, uploader="bench")
    elapsed = time.perf_counter() - started
    total = store.db["records"].count
    store.db.execute("ANALYZE")
    store.close()
    return {"added": stored, "rows": total, "seconds": round(elapsed, 1)}


def bench_queries(client: Any, repeat: int) -> list[dict[str, Any]]:
    """Time each filter set through the JSON API and the HTML page."""
    figures = []
    for name, query in QUERIES:
        for url in ("/api/records", "/records"):
            times = []
            for _ in range(repeat):
                started = time.perf_counter()
                response = client.get(url, query_string=query)
                times.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200, (url, query, response.status_code)
            total = client.get("/api/records", query_string=query).get_json()["total"]
            figures.append({"query": name, "url": url, "matches": total, "first_ms": round(times[0], 1),
                            "median_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1)})
    return figures


def main(argv: list[str] | None = None) -> int:
    """Run both parts and print the figures (and write them as JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--records", type=int, default=10_000, help="records to upload through the API")
    parser.add_argument("--batch", type=int, default=100, help="records per POST (JSON lines)")
    parser.add_argument("--list-rows", type=int, default=100_000, help="rows in the database for the list timing")
    parser.add_argument("--repeat", type=int, default=10, help="timings per query")
    parser.add_argument("--db", type=Path, help="database file (default: a temporary one)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    workdir = tempfile.TemporaryDirectory(prefix="zhuoji-bench-")
    path = args.db or Path(workdir.name) / "bench.sqlite3"
    app = create_app({"DATABASE": str(path)})
    client = app.test_client()
    from bench.load_test import admin_token  # every route needs an account (docs/trust.md)

    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {admin_token(path)}"
    refs = references()

    figures: dict[str, Any] = {"engine_ms_per_record": round(bench_engine_only(refs), 2)}
    print(f"engine alone: {figures['engine_ms_per_record']} ms per record")
    figures["upload"] = bench_uploads(client, refs, args.records, args.batch)
    up = figures["upload"]
    print(f"upload+audit through the API: {up['records']} records in {up['seconds']} s = "
          f"{up['records_per_s']} records/s (batches of {up['batch']}; {up['statuses']}); "
          f"{up['cpu_seconds']} s of CPU = {up['records_per_cpu_s']} records per CPU-second")
    figures["top_up"] = top_up(path, refs, args.list_rows)
    print(f"database topped up to {figures['top_up']['rows']} rows in {figures['top_up']['seconds']} s")
    figures["queries"] = bench_queries(client, args.repeat)
    print(f"{'query':24} {'url':13} {'matches':>8} {'first':>8} {'median':>8} {'max':>8}  (ms)")
    for row in figures["queries"]:
        print(f"{row['query']:24} {row['url']:13} {row['matches']:>8} {row['first_ms']:>8} "
              f"{row['median_ms']:>8} {row['max_ms']:>8}")
    worst = max(row["median_ms"] for row in figures["queries"] if row["url"] == "/api/records")
    print(f"slowest median API list query: {worst} ms (target < 200 ms)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=2, ensure_ascii=False), encoding="utf-8")
    workdir.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
