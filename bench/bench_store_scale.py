"""Benchmark: the service's store at 1,000,000 records: ingest rate, size per record, the filtered
list queries (target < 200 ms), `flask verify` time.

    .venv/bin/python bench/bench_store_scale.py                       # 1,000,000 records (~10 GB)
    .venv/bin/python bench/bench_store_scale.py --records 20000       # a quick check

1. Bulk ingest: `--records` records (the reference games with game_id, platform, client and
   date varied, one in seven settled wrong, as bench/bench_service.py makes them) stored with
   `Store.load_audited` in transactions of `--chunk` records, audits computed once per distinct
   game and reused (the engine's own rate is bench_batch.py's business). The rate is printed
   per chunk of the run (first, median, last), so a slowdown as the indexes grow shows.
2. The real upload path at that size: `--pipeline-records` more records through
   `records.ingest.read_upload` + `Pipeline.upload` (schema, engine, both transactions).
3. Database size: the file (after a WAL checkpoint) divided by the records.
4. The filtered list queries of bench_service.py, and a few mixes only a row-by-row count
   answers (a player with a platform, a rule with a date range, a search text), through
   `GET /api/records` (Flask test client, the guard and the JSON included), median of
   `--repeat` runs each, wall and CPU: the target is under 200 ms. Then the `q` searches
   (`SEARCHES`, records.search_index: target under 100 ms) and `GET /overview`.
5. `flask verify`: every stored byte string re-hashed, the trail's chain walked, the tallies
   recounted, the search indexes recomputed (`--skip-verify` leaves it out).

`--db PATH --reuse` skips the ingest and measures a database an earlier run kept (opening it
applies any newer migration first, and that time is printed).
"""
from __future__ import annotations

import argparse
import json
import os
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
from bench.bench_service import CLIENTS, PLATFORMS, QUERIES, generated, references, tampered  # noqa: E402
from bench.load_test import TRAIL_KEY, admin_token  # noqa: E402
from records.ingest import Hand, Origin, read_upload  # noqa: E402
from records.pipeline import Pipeline  # noqa: E402
from records.store import Store  # noqa: E402
from records.verify import verify as verify_store  # noqa: E402


def varied(refs: list[dict[str, Any]], count: int, tag: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """bench_service.generated's records, made by shallow copies of prepared bases (a deep copy of
    each record cost more than storing it): (index, document)."""
    bases = [(doc, tampered(doc)) for doc in refs]
    for index in range(count):
        plain, wrong = bases[index % len(bases)]
        base = wrong if index % 7 == 0 else plain
        yield index, {**base, "game_id": f"{plain['game_id']}-{tag}{index:07d}",
                      "platform": PLATFORMS[index % len(PLATFORMS)], "client": CLIENTS[index % len(CLIENTS)],
                      "played_at": f"2026-{1 + index % 12:02d}-{1 + index % 28:02d}T20:15:00+08:00"}


def ingest(path: Path, refs: list[dict[str, Any]], count: int, chunk: int) -> dict[str, Any]:
    """Bulk-load `count` records, `chunk` per transaction; records/s per chunk."""
    store = Store.open(path, trail_key=TRAIL_KEY)
    audits = {}
    for doc in refs:
        audits[(doc["game_id"], False)] = audit_document(doc)[0]
        audits[(doc["game_id"], True)] = audit_document(tampered(doc))[0]
    docs = varied(refs, count, "s")

    def pairs(n: int) -> Iterator[tuple[Hand, dict[str, Any]]]:
        for _ in range(n):
            index, doc = next(docs)
            base = refs[index % len(refs)]
            audit = dict(audits[(base["game_id"], index % 7 == 0)], game_id=doc["game_id"])
            yield Hand(Origin("bench"), doc, json.dumps(doc, ensure_ascii=False).encode("utf-8"), "file"), audit

    rates: list[float] = []
    started, cpu = time.perf_counter(), time.process_time()
    for offset in range(0, count, chunk):
        n = min(chunk, count - offset)
        begun = time.perf_counter()
        store.load_audited(pairs(n), engine_version=ENGINE_VERSION, uploader="bench")
        rates.append(n / (time.perf_counter() - begun))
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    store.db.execute("ANALYZE")
    store.close()
    return {"records": count, "seconds": round(elapsed, 1), "records_per_s": round(count / elapsed),
            "records_per_cpu_s": round(count / cpu),
            "chunk_rates": {"first": round(rates[0]), "median": round(statistics.median(rates)),
                            "last": round(rates[-1])}}


def pipeline_uploads(path: Path, refs: list[dict[str, Any]], count: int) -> dict[str, Any]:
    """`count` records through the service's own upload path, into the full store."""
    store = Store.open(path, trail_key=TRAIL_KEY)
    pipeline = Pipeline(store)
    lines = [json.dumps(doc, ensure_ascii=False).encode("utf-8") for doc in generated(refs, count, "p")]
    started = time.perf_counter()
    done = 0
    for start in range(0, count, 100):
        batch = read_upload("bench.jsonl", b"\n".join(lines[start:start + 100]))
        done += sum(len(items) for items in pipeline.upload(batch.units, uploader="bench"))
    elapsed = time.perf_counter() - started
    store.close()
    return {"records": done, "seconds": round(elapsed, 1), "records_per_s": round(done / elapsed)}


def size(path: Path, records: int) -> dict[str, Any]:
    """Bytes on disk after a checkpoint, and per record."""
    store = Store.open(path, trail_key=TRAIL_KEY)
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    total = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    return {"bytes": total, "mib": round(total / 2**20, 1), "bytes_per_record": round(total / records)}


SEARCH_TEXT = "search text (q)"
SEARCHES: list[tuple[str, dict[str, Any]]] = [
    (SEARCH_TEXT, {"q": "阿明"}),
    ("q: one Chinese character", {"q": "王"}),
    ("q: short fragment, upper case", {"q": "BO"}),
    ("q: game id fragment", {"q": "0003-s012"}),
    ("q: one game, by a fragment", {"q": "s0012345"}),
    ("q: no match", {"q": "zzzz-nothing"}),
    ("q + verdict + platform", {"q": "ref", "verdict": "missettled", "platform": "beta"}),
]
"""The `q` search (records.search_index, issue 23.7; target < 100 ms): a two-character name (a
quarter of the store), one character, two letters, fragments of game ids, nothing, and with filters."""
MIXES: list[tuple[str, dict[str, Any]]] = [
    ("player+platform", {"player": "阿明", "platform": "alpha"}),
    ("rule section+date range", {"rule": "R15", "date_from": "2026-03-01", "date_to": "2026-03-31"}),
    ("player, played_at sort", {"player": "老王", "sort": "played_at"}),
    ("verdict, deep page", {"verdict": "missettled", "page": 200}),
    *SEARCHES,
]
"""Filter sets beyond bench_service's: mixes no tally answers, and the substring searches."""


def queries(path: Path, repeat: int) -> list[dict[str, Any]]:
    """Median wall and CPU time of each filter set through GET /api/records, then /overview."""
    app = create_app({"DATABASE": str(path), "TRAIL_KEY": TRAIL_KEY})
    client = app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {admin_token(path)}"
    rows = []
    for name, url, query in ([(name, "/api/records", q) for name, q in QUERIES + MIXES]
                             + [("overview page", "/overview", {})]):
        times, cpus = [], []
        for _ in range(repeat):
            begun, cpu = time.perf_counter(), time.process_time()
            response = client.get(url, query_string=query)
            times.append((time.perf_counter() - begun) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
            assert response.status_code == 200, (query, response.status_code)
        matches = response.get_json()["total"] if url == "/api/records" else None
        rows.append({"query": name, "matches": matches, "first_ms": round(times[0], 1),
                     "median_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1),
                     "median_cpu_ms": round(statistics.median(cpus), 1)})
    return rows


def _records(path: Path) -> int:
    """Records in a kept database."""
    store = Store.open(path, trail_key=TRAIL_KEY)
    count = int(store.db.execute("SELECT count(*) FROM records").fetchone()[0])
    store.close()
    return count


def verify(path: Path) -> dict[str, Any]:
    """What `flask verify` does, timed."""
    store = Store.open(path, trail_key=TRAIL_KEY)
    begun = time.perf_counter()
    mismatches = verify_store(store.db, store.trail_key)
    elapsed = time.perf_counter() - begun
    store.close()
    return {"seconds": round(elapsed, 1), "mismatches": len(mismatches),
            "first": [m.describe() for m in mismatches[:10]]}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--chunk", type=int, default=10_000, help="records per bulk transaction")
    ap.add_argument("--pipeline-records", type=int, default=2_000, help="records then sent through Pipeline.upload")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--db", type=Path, help="database file (default: a temporary one, removed after)")
    ap.add_argument("--json", type=Path, help="also write the figures to this file")
    ap.add_argument("--reuse", action="store_true", help="with --db: measure that database, no ingest")
    ap.add_argument("--skip-verify", action="store_true", help="leave out `flask verify` (minutes at this size)")
    args = ap.parse_args(argv)
    if args.reuse and not (args.db and args.db.exists()):
        ap.error("--reuse needs --db naming a database an earlier run kept")
    workdir = tempfile.TemporaryDirectory(prefix="zhuoji-scale-")
    path = args.db or Path(workdir.name) / "scale.sqlite3"
    refs = references()
    print(f"store at {args.records:,} records ({path}); load {os.getloadavg()[0]:.1f}")
    figures: dict[str, Any] = {}
    if args.reuse:
        begun = time.perf_counter()
        Store.open(path, trail_key=TRAIL_KEY).close()
        figures["open"] = {"seconds": round(time.perf_counter() - begun, 1)}
        print(f"opened (migrations applied) in {figures['open']['seconds']} s")
    else:
        figures["ingest"] = ingest(path, refs, args.records, args.chunk)
        bulk = figures["ingest"]
        print(f"bulk ingest: {bulk['records']:,} records in {bulk['seconds']} s = {bulk['records_per_s']:,} "
              f"records/s, {bulk['records_per_cpu_s']:,} per CPU-second (per chunk of {args.chunk:,}: first "
              f"{bulk['chunk_rates']['first']:,}, median {bulk['chunk_rates']['median']:,}, last "
              f"{bulk['chunk_rates']['last']:,})")
    if args.pipeline_records and not args.reuse:
        figures["pipeline"] = pipeline_uploads(path, refs, args.pipeline_records)
        up = figures["pipeline"]
        print(f"upload path into the full store (ingest, schema, engine, store): {up['records']:,} records "
              f"in {up['seconds']} s = {up['records_per_s']:,} records/s")
    total = _records(path) if args.reuse else args.records + (figures.get("pipeline", {}).get("records", 0))
    figures["size"] = size(path, total)
    print(f"database: {figures['size']['mib']:,} MiB = {figures['size']['bytes_per_record']:,} bytes per record")
    figures["queries"] = queries(path, args.repeat)
    print(f"{'query':26} {'matches':>9} {'first':>8} {'median':>8} {'max':>8} {'cpu':>8}  (ms, GET /api/records)")
    for row in figures["queries"]:
        matches = "" if row["matches"] is None else f"{row['matches']:,}"
        print(f"{row['query']:26} {matches:>9} {row['first_ms']:>8} {row['median_ms']:>8} {row['max_ms']:>8} "
              f"{row['median_cpu_ms']:>8}")
    searches = {name for name, _ in SEARCHES}
    listed = [row for row in figures["queries"] if row["matches"] is not None and row["query"] not in searches]
    worst = max(listed, key=lambda row: row["median_ms"])
    slowest = max((row for row in figures["queries"] if row["query"] in searches), key=lambda row: row["median_ms"])
    print(f"slowest median filtered list query: {worst['median_ms']} ms, {worst['query']} (target < 200 ms); "
          f"slowest median search: {slowest['median_ms']} ms ({slowest['median_cpu_ms']} ms CPU), "
          f"{slowest['query']} (target < 100 ms)")
    if args.skip_verify:
        if args.json:
            args.json.write_text(json.dumps(figures, indent=1, ensure_ascii=False), encoding="utf-8")
        workdir.cleanup()
        return 0
    figures["verify"] = verify(path)
    print(f"verify: {figures['verify']['seconds']} s for {total:,} records ({figures['verify']['mismatches']} "
          "mismatches)")
    for line in figures["verify"]["first"]:
        print(f"    {line}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1, ensure_ascii=False), encoding="utf-8")
    workdir.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
