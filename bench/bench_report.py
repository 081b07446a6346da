"""Report benchmark: the HTML report and the PDF of a hand, median of N requests each.

    .venv/bin/python bench/bench_report.py                 # 20 HTML and 5 PDF requests per hand
    .venv/bin/python bench/bench_report.py --html 50 --pdf 10 --json bench/out/report.json

Each hand is uploaded through the API into a temporary database, then fetched
through Flask's test client (an admin's bearer token, as bench_service.py does):
`GET /records/<id>` and `GET /records/<id>.pdf`. "first view" clears the
renderer's caches before every request (the first person to open a hand pays
that); "again" keeps them. Wall time is what a user waits for; CPU time is the
process's own share, steadier on a shared machine. Targets (docs/report.md):
HTML under 100 ms, PDF under 1.5 s (issue 10; was 3 s) for a typical hand (about 100 events: the
median of the reference games is 97).
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from audit import render  # noqa: E402

HANDS = {
    "clean-kuhu-triple": "typical: 97 events, three winners",
    "missettled-rob-paid-by-three": "long: 114 events, ledger with differences",
    "illegal-pass-locked": "short: 4 events, illegal step with rule text",
}
"""Sample records timed, with why."""


def timed(request: Callable[[], Any], runs: int, *, before: Callable[[], None] | None = None) -> dict[str, float]:
    """Median wall and CPU milliseconds of `runs` calls (each checked to answer 200)."""
    walls, cpus = [], []
    for _ in range(runs):
        if before is not None:
            before()
        wall, cpu = time.perf_counter(), time.process_time()
        response = request()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
        assert response.status_code == 200, response.status_code
    return {"wall_ms": round(statistics.median(walls) * 1000, 1), "cpu_ms": round(statistics.median(cpus) * 1000, 1)}


def clear_caches() -> None:
    """Forget every drawing, as for the first view of a hand nobody opened yet."""
    render._seat_line.cache_clear()
    render._seat_pieces.cache_clear()
    render._image.cache_clear()
    render._hand.cache_clear()
    render._outline_svg.cache_clear()


def bench_hand(client: Any, name: str, html_runs: int, pdf_runs: int) -> dict[str, Any]:
    """Upload one sample and time its report pages."""
    body = (ROOT / "samples" / f"{name}.json").read_bytes()
    (result,) = client.post("/api/records", data=body, content_type="application/json").get_json()["results"]
    record_id = result["record_id"]
    events = len(json.loads(body)["events"])
    html = lambda: client.get(f"/records/{record_id}")  # noqa: E731
    pdf = lambda: client.get(f"/records/{record_id}.pdf")  # noqa: E731
    html(), pdf()  # warm up: imports, fonts, templates
    document = pdf().data
    return {"hand": name, "events": events, "html_bytes": len(html().data), "pdf_bytes": len(document),
            "html_first_view": timed(html, html_runs, before=clear_caches), "html_again": timed(html, html_runs),
            "pdf": timed(pdf, pdf_runs, before=clear_caches), "load_average": os.getloadavg()}


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one line per hand and page."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=int, default=20, help="HTML requests per hand (median of these)")
    parser.add_argument("--pdf", type=int, default=5, help="PDF requests per hand (median of these)")
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    args = parser.parse_args(argv)

    print(f"load average before: {' '.join(f'{load:.2f}' for load in os.getloadavg())} on {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory(prefix="zhuoji-bench-report-") as workdir:
        path = Path(workdir) / "bench.sqlite3"
        app = create_app({"DATABASE": str(path)})
        from bench.load_test import admin_token  # every route needs an account (docs/trust.md)

        client = app.test_client()
        client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {admin_token(path)}"
        figures = [bench_hand(client, name, args.html, args.pdf) for name in HANDS]
    for figure in figures:
        print(f"{figure['hand']} ({HANDS[figure['hand']]}):")
        for key, label in (("html_first_view", "HTML, first view"), ("html_again", "HTML, again"), ("pdf", "PDF")):
            runs = args.pdf if key == "pdf" else args.html
            print(f"  {label:17} median of {runs:3}: {figure[key]['wall_ms']:8.1f} ms wall, "
                  f"{figure[key]['cpu_ms']:8.1f} ms CPU")
        print(f"  sizes: HTML {figure['html_bytes'] // 1024} KiB, PDF {figure['pdf_bytes'] // 1024} KiB; "
              f"load average after: {figure['load_average'][0]:.2f}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
