"""Benchmark: a platform's profile adopted and its stored history re-audited under it (issue 36.3).

    .venv/bin/python bench/bench_platforms.py                    # 100,000 stored records of one platform
    .venv/bin/python bench/bench_platforms.py --records 2000     # a quick check

1. Load: `--records` records of one platform (bench_store_scale.py's varied reference games, one in
   seven settled wrong, all of platform `alpha`), stored with `Store.load_audited` (not measured here:
   bench_store_scale.py measures ingest).
2. Adoption: `records.platforms.adopt` of a profile file (weile renamed, with 自摸 worth 2: every
   self-drawn hand of the history changes), median of `--repeat` adoptions of further versions on
   a scratch platform of the same store (the loader's check, the version number read, the row
   and its trail entry in one transaction).
3. Re-audit: `records.platform_reaudit.run` of the adopted version over the whole history: the
   counts before, the engine on every record, the audits and their trail entries written back 100
   per transaction, the counts after. Wall and CPU seconds, records per second, the counts per
   verdict before and after.
"""
from __future__ import annotations

import argparse
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

from audit.api import ENGINE_VERSION, PROFILE_DIR, audit_document  # noqa: E402
from bench.bench_service import references, tampered  # noqa: E402
from bench.bench_store_scale import varied  # noqa: E402
from bench.load_test import TRAIL_KEY  # noqa: E402
from records import platform_reaudit, platforms  # noqa: E402
from records.ingest import Hand, Origin  # noqa: E402
from records.pipeline import Pipeline  # noqa: E402
from records.store import Store  # noqa: E402

PLATFORM = "alpha"


def profile_file(name: str) -> str:
    """The weile profile renamed, 自摸 worth 2 instead of 1."""
    text = (PROFILE_DIR / "weile.toml").read_text(encoding="utf-8").replace('name = "weile"', f'name = "{name}"', 1)
    return text.replace("self_draw_bonus = 1", "self_draw_bonus = 2", 1)


def load(store: Store, count: int, chunk: int = 5000) -> float:
    """Store `count` records of PLATFORM with their weile audits; seconds taken."""
    refs = references()
    audits = {}
    for doc in refs:
        audits[(doc["game_id"], False)] = audit_document(doc)[0]
        audits[(doc["game_id"], True)] = audit_document(tampered(doc))[0]
    docs = varied(refs, count, "p")

    def pairs(n: int) -> Iterator[tuple[Hand, dict[str, Any]]]:
        for _ in range(n):
            index, doc = next(docs)
            doc = {**doc, "platform": PLATFORM}
            base = refs[index % len(refs)]
            audit = dict(audits[(base["game_id"], index % 7 == 0)], game_id=doc["game_id"])
            yield Hand(Origin("bench"), doc, json.dumps(doc, ensure_ascii=False).encode("utf-8"), "file"), audit

    started = time.perf_counter()
    for offset in range(0, count, chunk):
        store.load_audited(pairs(min(chunk, count - offset)), engine_version=ENGINE_VERSION, uploader="bench")
    return time.perf_counter() - started


def adoptions(store: Store, repeat: int) -> dict[str, Any]:
    """Median milliseconds of an adoption (scratch platform, so the history's version stays the one in force)."""
    times = []
    for index in range(repeat):
        started = time.perf_counter()
        platforms.adopt(store.db, "scratch", profile_file(f"scratch{index}"), who="bench", why="bench",
                        effective_from="2026-01-01", key=TRAIL_KEY)
        times.append((time.perf_counter() - started) * 1000)
    return {"adoptions": repeat, "median_ms": round(statistics.median(times), 2), "max_ms": round(max(times), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--db", type=Path, default=None, help="database file (default: a temporary one)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        path = args.db or Path(scratch) / "platforms.sqlite3"
        store = Store.open(path, trail_key=TRAIL_KEY)
        loaded = load(store, args.records)
        adopt = adoptions(store, args.repeat)
        started = time.perf_counter()
        version = platforms.adopt(store.db, PLATFORM, profile_file("alpha"), who="bench", why="bench",
                                  effective_from="2000-01-01", key=TRAIL_KEY)
        adopted_ms = (time.perf_counter() - started) * 1000
        started, cpu = time.perf_counter(), time.process_time()
        run = platform_reaudit.run(Pipeline(store), version, who="bench", key=TRAIL_KEY)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        store.close()
    print(json.dumps({
        "records": args.records, "load_seconds": round(loaded, 1), "adoption": {**adopt, "history_ms": round(adopted_ms, 2)},
        "reaudit": {"records": run.total, "written": run.done, "failed": run.failed, "seconds": round(wall, 1),
                    "cpu_seconds": round(cpu, 1), "records_per_s": round(run.total / wall) if wall else None,
                    "before": run.before["verdicts"], "after": (run.after or {}).get("verdicts")},
    }, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
