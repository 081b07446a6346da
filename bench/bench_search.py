"""Search benchmark: `GET /api/records?q=` and the other issue-11 filters at 100,000 records.

    .venv/bin/python bench/bench_search.py                 # 100,000 rows
    .venv/bin/python bench/bench_search.py --rows 20000    # quick run

Fills a temporary database with `bench_service.top_up` (the reference games with game
id, platform, client and date varied; audits computed once per distinct game), adds
a few hundred receipts and a case, then times each query through the JSON API
(median of --repeat runs, after one warm-up), in wall-clock and in this process's CPU time
(the test client runs the service in-process; the CPU time is what other work on a shared
machine disturbs least). Target: under 200 ms for a filtered query.

The generated store is a worst case for the search: its 100,000 records reuse the 30
reference games' few player names, so one name matches a quarter of the store and every
matching record is counted per verdict; a real player's name or a game id fragment
matches a handful ("q: one game").
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from bench.bench_service import references, top_up  # noqa: E402

QUERIES: list[tuple[str, dict[str, Any]]] = [
    ("q: one game, by a fragment", {"q": "0003-b0012"}),
    ("q: game id fragment", {"q": "90210-0003-b00"}),
    ("q: short fragment, upper case", {"q": "BO"}),
    ("q: Chinese name", {"q": "阿明"}),
    ("q: one Chinese character", {"q": "王"}),
    ("q: no match", {"q": "zzzz-nothing"}),
    ("q + verdict + platform", {"q": "ref", "verdict": "missettled", "platform": "beta"}),
    ("q, sorted by played_at", {"q": "android", "sort": "played_at", "order": "asc"}),
    ("case number", {"case": "C-1"}),
    ("decision", {"decision": "confirmed"}),
    ("receipts q", {"q": "body.jsonl", "outcome": "rejected"}),
]


def main(argv: list[str] | None = None) -> int:
    """Fill, time, print (and write JSON with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--db", type=Path, help="database file (default: a temporary one)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    workdir = tempfile.TemporaryDirectory(prefix="zhuoji-bench-search-")
    path = args.db or Path(workdir.name) / "bench.sqlite3"
    app = create_app({"DATABASE": str(path)})
    client = app.test_client()
    from bench.load_test import admin_token

    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {admin_token(path)}"
    filled = top_up(path, references(), args.rows)
    print(f"{filled['rows']} records ({filled['seconds']} s to load)")
    opened = client.post("/api/cases", json={"number": "C-1", "platform": "beta", "player": "阿明",
                                             "complaint": "bench"})
    case = opened.get_json() if opened.status_code == 201 else client.get("/api/cases?number=C-1").get_json()["cases"][0]
    for record_id in (1, 2, 3):
        client.post(f"/api/cases/{case['id']}/records", json={"record": record_id})
    client.post("/api/records/1/notes", json={"text": "bench", "decision": "confirmed"})
    client.post("/api/records", data=b"{not json\n" * 200, content_type="application/x-ndjson")
    figures = []
    for name, query in QUERIES:
        url = "/api/receipts" if name.startswith("receipts") else "/api/records"
        client.get(url, query_string=query)
        times, cpu = [], []
        for _ in range(args.repeat):
            started, cpu_started = time.perf_counter(), time.process_time()
            response = client.get(url, query_string=query)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - cpu_started) * 1000)
            assert response.status_code == 200, (query, response.status_code, response.get_data(as_text=True))
        total = response.get_json()["total"]
        figures.append({"query": name, "url": url, "matches": total,
                        "median_ms": round(statistics.median(times), 1), "max_ms": round(max(times), 1),
                        "median_cpu_ms": round(statistics.median(cpu), 1)})
    print(f"{'query':32} {'matches':>8} {'median':>8} {'max':>8} {'cpu':>8}  (ms; cpu = this process's CPU time, "
          "which other work on a shared machine disturbs less than the wall clock)")
    for row in figures:
        print(f"{row['query']:32} {row['matches']:>8} {row['median_ms']:>8} {row['max_ms']:>8} {row['median_cpu_ms']:>8}")
    print(f"slowest median: {max(row['median_ms'] for row in figures)} ms wall, "
          f"{max(row['median_cpu_ms'] for row in figures)} ms CPU (target < 200 ms)")
    if args.json:
        args.json.write_text(json.dumps({"rows": filled["rows"], "queries": figures}, indent=2, ensure_ascii=False),
                             encoding="utf-8")
    workdir.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
