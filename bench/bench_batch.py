"""Benchmark: `python -m batch` throughput per worker against the engine alone on the same hands,
at 1 and 2 workers, on a local cluster and on a scheduler with workers started as separate
processes, memory per worker, and what a year of a busy platform would take.

    .venv/bin/python bench/bench_batch.py                     # 20,000 hands of the long corpus
    .venv/bin/python bench/bench_batch.py --hands 2000 --partition-size 250   # a quick check
    .venv/bin/python bench/bench_batch.py --rounds 5 --skip-separate          # the per-worker ratio only

The long corpus is bench/bench_audit.py's: the 30 reference games and the worked examples
(about 91 events a hand, every rare event frequent), repeated to `--hands` hands with their
game_id, platform, client and date varied and one in seven settled a point wrong (so the
rows hold missettled hands too), written as one `.jsonl`. Each configuration audits the
whole file with the batch's own code (`batch.driver.run`: plan, partitions on the
workers, Parquet written, summary): first a warm-up task on every worker (imports), then
the timed run. hands/s is hands over the time of the run, cluster start-up excluded (it is
printed apart). Memory per worker is the peak resident size of each worker process
(ru_maxrss) after its run. The 1 -> 2 worker ratio is the scaling target (>= 1.8x); on a
2-core machine it is only meaningful when nothing else runs.

Per worker against the engine alone (issue 24: within 1.25x): `--rounds` times, in turn, the
engine alone audits every hand of the file in this process (`audit.engine.audit_hand`, what
bench/bench_audit.py times, on documents parsed beforehand a chunk at a time, the parsing not
timed), then the batch audits the same file on a new local cluster of one worker (new, so each
round pays what a real run pays once per worker: its first hands under each profile; imports
excluded by the warm-up). Each round gives a ratio, engine hands/s over batch hands/s, taken
pair by pair so that a change of load between rounds moves both; the medians are printed.
The same in CPU time (the engine's process time; the worker process's user + system time over
the run, its event loop and heartbeats included) is printed beside it: on a shared machine the
CPU figures move less than the wall-clock ones. The 1-worker row is the round of median rate.

`--interleave ROUNDS` (default 3) adds the figure least moved by a machine whose speed drifts:
on one worker, for each partition, the engine alone on its hands (parsed beforehand) and
`run_partition` on the same partition, one right after the other (the order alternating),
ROUNDS times over the file; the median of the pairs' ratios (batch over engine) is printed with
its quartiles. `bench/callgrind_batch.sh` counts the same pair in instructions, which no load
moves.

The year estimate: 5,000,000 hands a day for 365 days, at the measured per-worker rate
times the measured 2-worker efficiency (ratio / 2), on N machines of `--cores` cores each.
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from batch import driver  # noqa: E402
from batch.inputs import Sizes, plan  # noqa: E402
from batch.rows import Settings  # noqa: E402
from batch.runner import cluster  # noqa: E402
from audit.play import audit_hand  # noqa: E402
from bench.bench_audit import corpus, engine_mode  # noqa: E402

PLATFORMS = ("alpha", "beta", "gamma")
CLIENTS = ("android 5.0.1", "android 5.1.0", "ios 4.2", "web 2.3", "pc 1.0")
WARM_HANDS = 100
"""Hands the engine alone audits before its rounds (the long corpus repeats 35 hands)."""
HANDS_PER_DAY = 5_000_000
DAYS = 365


def long_corpus(path: Path, hands: int) -> int:
    """Write `hands` records of the long corpus to `path` (one a line); returns the events written."""
    docs = corpus()
    events = 0
    with path.open("w", encoding="utf-8") as stream:
        for index in range(hands):
            doc = copy.deepcopy(docs[index % len(docs)])
            if index % 7 == 3 and isinstance(doc.get("result"), dict) and len(doc["result"].get("scores", [])) > 1:
                doc["result"]["scores"][0] += 1
                doc["result"]["scores"][1] -= 1
                doc["result"].pop("items", None)
            doc["game_id"] = f"{doc.get('game_id', 'g')}-long{index:08d}"
            doc["platform"] = PLATFORMS[index % len(PLATFORMS)]
            doc["client"] = CLIENTS[index % len(CLIENTS)]
            doc["played_at"] = f"2026-{1 + index % 12:02d}-{1 + index % 28:02d}T20:15:00+08:00"
            events += len(doc.get("events", []))
            stream.write(json.dumps(doc, ensure_ascii=False) + "\n")
    return events


def _warm() -> str:
    """On a worker: import the engine and the batch (what the first task would otherwise pay)."""
    import batch.work  # noqa: F401
    import audit.play  # noqa: F401  (the engine: the replayer and everything the tools call)

    return "ready"


def _peak_mib() -> float:
    """On a worker: its peak resident memory in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu_seconds() -> float:
    """On a worker: the user + system time of its process so far (every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure(client: Any, corpus_file: Path, out: Path, partition_size: int) -> dict[str, Any]:
    """One timed batch run on `client`'s cluster."""
    client.run(_warm)
    the_plan = plan([str(corpus_file)], Sizes(hands=partition_size))
    cpu_before = client.run(_cpu_seconds)
    start = time.perf_counter()
    outcome = driver.run(the_plan, Settings(), out, client, stream=None)
    seconds = time.perf_counter() - start
    cpu_after = client.run(_cpu_seconds)
    cpu = sum(cpu_after[w] - cpu_before.get(w, 0.0) for w in cpu_after)
    peaks = sorted(client.run(_peak_mib).values())
    return {"hands": outcome.hands, "partitions": outcome.partitions, "seconds": round(seconds, 2),
            "hands_per_s": round(outcome.hands / seconds, 1), "workers": outcome.workers,
            "worker_cpu_s": round(cpu, 2), "hands_per_cpu_s": round(outcome.hands / cpu, 1) if cpu else None,
            "worker_peak_mib": [round(p, 1) for p in peaks], "failed": len(outcome.failures)}


def engine_alone(corpus_file: Path, chunk: int = 500) -> dict[str, Any]:
    """The engine alone on every hand of `corpus_file`, in this process: documents parsed a chunk at
    a time (not timed, and never the whole file in memory), each chunk audited (timed)."""
    seconds = cpu = 0.0
    hands = 0
    with corpus_file.open("rb") as stream:
        while lines := [line for _, line in zip(range(chunk), stream)]:
            docs = [json.loads(line) for line in lines if line.strip()]
            start, start_cpu = time.perf_counter(), time.process_time()
            for doc in docs:
                audit_hand(doc)
            seconds += time.perf_counter() - start
            cpu += time.process_time() - start_cpu
            hands += len(docs)
    return {"hands": hands, "seconds": round(seconds, 2), "hands_per_s": round(hands / seconds, 1),
            "hands_per_cpu_s": round(hands / cpu, 1)}


def interleaved(corpus_file: str, partition_size: int, out: str, rounds: int,
                partitions: int | None = None) -> list[dict[str, float]]:
    """On a worker: for every partition of the file, `rounds` times, the engine alone on its hands
    (parsed beforehand, not timed) and `run_partition` on the same partition, one after the other
    (which goes first alternates), each timed in CPU and wall. On a machine whose speed drifts
    from one second to the next, pairs a second apart share the drift; their ratio is the batch's
    own cost per hand against the engine's. `partitions`: only the first so many (a warm-up)."""
    from batch.work import FINDINGS_DIR, HANDS_DIR, PARTS_DIR, run_partition

    for folder in (HANDS_DIR, FINDINGS_DIR, PARTS_DIR):
        (Path(out) / folder).mkdir(parents=True, exist_ok=True)
    parts = plan([corpus_file], Sizes(hands=partition_size)).partitions[:partitions]
    pairs: list[dict[str, float]] = []
    for round_index in range(rounds):
        for index, part in enumerate(parts):
            docs = [json.loads(document.raw) for document in part.read() if document.raw is not None]

            def engine(docs: list[Any] = docs) -> None:
                for doc in docs:
                    audit_hand(doc)

            def batch(index: int = index, part: Any = part) -> None:
                run_partition(index, part, Settings(), out)

            timed: dict[str, tuple[float, float]] = {}
            order: list[tuple[str, Callable[[], None]]] = [("engine", engine), ("batch", batch)]
            for name, run in order if (round_index + index) % 2 == 0 else order[::-1]:
                start, start_cpu = time.perf_counter(), time.process_time()
                run()
                timed[name] = (time.perf_counter() - start, time.process_time() - start_cpu)
            pairs.append({"hands": len(docs), "engine_s": timed["engine"][0], "engine_cpu_s": timed["engine"][1],
                          "batch_s": timed["batch"][0], "batch_cpu_s": timed["batch"][1]})
    return pairs


def interleaved_on_worker(corpus_file: Path, out: Path, partition_size: int, rounds: int) -> list[dict[str, float]]:
    """`interleaved` as one task on a new 1-worker local cluster, warmed on the file's first partition."""
    with cluster(workers=1) as client:
        client.wait_for_workers(1)
        client.submit(interleaved, str(corpus_file), partition_size, str(out / "warm"), 1, 1, pure=False).result()
        pairs: list[dict[str, float]] = client.submit(interleaved, str(corpus_file), partition_size, str(out),
                                                      rounds, pure=False).result()
    return pairs


def against_engine(corpus_file: Path, work: Path, partition_size: int, rounds: int) -> dict[str, Any]:
    """`rounds` pairs of (the engine alone, the batch on a new 1-worker local cluster) on the same file."""
    with corpus_file.open("rb") as stream:  # the engine warm, as bench_audit.py times it: imports, profiles
        for _, line in zip(range(WARM_HANDS), stream):
            audit_hand(json.loads(line))
    engines: list[dict[str, Any]] = []
    batches: list[dict[str, Any]] = []
    for index in range(rounds):
        engines.append(engine_alone(corpus_file))
        batches.append(local(1, corpus_file, work / f"per-worker-{index}", partition_size))
    ratios = [e["hands_per_s"] / b["hands_per_s"] for e, b in zip(engines, batches)]
    cpu_ratios = [e["hands_per_cpu_s"] / b["hands_per_cpu_s"] for e, b in zip(engines, batches)]
    by_rate = sorted(batches, key=lambda b: b["hands_per_s"])
    return {"engine_hands_per_s": statistics.median(e["hands_per_s"] for e in engines),
            "engine_hands_per_cpu_s": statistics.median(e["hands_per_cpu_s"] for e in engines),
            "batch_hands_per_s": statistics.median(b["hands_per_s"] for b in batches),
            "batch_hands_per_cpu_s": statistics.median(b["hands_per_cpu_s"] for b in batches),
            "ratio": round(statistics.median(ratios), 3), "cpu_ratio": round(statistics.median(cpu_ratios), 3),
            "ratios": [round(r, 3) for r in ratios], "cpu_ratios": [round(r, 3) for r in cpu_ratios],
            "engine_rounds": engines, "median_batch": by_rate[len(by_rate) // 2]}


def local(workers: int, corpus_file: Path, out: Path, partition_size: int) -> dict[str, Any]:
    """A local cluster of `workers` processes (`--workers N`)."""
    start = time.perf_counter()
    with cluster(workers=workers) as client:
        client.wait_for_workers(workers)
        startup = time.perf_counter() - start
        row = measure(client, corpus_file, out, partition_size)
    return {"setup": f"local cluster, {workers} worker(s)", "startup_s": round(startup, 1), **row}


def _spawn(args: list[str], cwd: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "dask", *args], cwd=cwd, env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def separate(corpus_file: Path, out: Path, partition_size: int, work: Path) -> dict[str, Any]:
    """`dask scheduler` and two `dask worker` processes on 127.0.0.1 (`--scheduler ADDRESS`)."""
    from distributed import Client

    address_file = work / "scheduler.json"
    start = time.perf_counter()
    processes = [_spawn(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                         "--scheduler-file", str(address_file)], work)]
    try:
        while not (address_file.exists() and "address" in address_file.read_text(encoding="utf-8")):
            time.sleep(0.05)
        address = json.loads(address_file.read_text(encoding="utf-8"))["address"]
        processes += [_spawn(["worker", address, "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard",
                              "--local-directory", str(work / f"w{i}")], work) for i in range(2)]
        with Client(address) as client:
            client.wait_for_workers(2)
            startup = time.perf_counter() - start
            row = measure(client, corpus_file, out, partition_size)
    finally:
        for process in processes:
            try:
                os.killpg(process.pid, 15)
            except ProcessLookupError:
                pass
            process.wait(timeout=30)
    return {"setup": f"dask scheduler + 2 dask worker processes ({address})", "startup_s": round(startup, 1),
            **row}


def estimate(per_worker: float, efficiency: float, cores: int, machines: Iterator[int]) -> list[dict[str, Any]]:
    """Hours for a year of one platform (HANDS_PER_DAY x DAYS) on N machines of `cores` workers."""
    total = HANDS_PER_DAY * DAYS
    rows = []
    for n in machines:
        rate = per_worker * efficiency * cores * n
        rows.append({"machines": n, "cores_each": cores, "hands_per_s": round(rate), "hours": round(total / rate / 3600, 1)})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--partition-size", type=int, default=1000)
    ap.add_argument("--cores", type=int, default=16, help="cores per machine for the year estimate")
    ap.add_argument("--rounds", type=int, default=3, help="pairs of (engine alone, 1-worker batch) runs")
    ap.add_argument("--skip-separate", action="store_true", help="no scheduler + workers run")
    ap.add_argument("--interleave", type=int, default=3, metavar="ROUNDS",
                    help="rounds of interleaved (engine, run_partition) pairs per partition on one worker (0: none)")
    ap.add_argument("--json", action="store_true", help="also print the rows as JSON")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as tmp:
        work = Path(tmp)
        corpus_file = work / "long.jsonl"
        events = long_corpus(corpus_file, args.hands)
        size_mib = corpus_file.stat().st_size / 2**20
        print(f"long corpus: {args.hands:,} hands, {events / args.hands:.0f} events/hand, {size_mib:.1f} MiB; "
              f"partitions of {args.partition_size}; engine: {engine_mode()}; load {os.getloadavg()[0]:.1f}")
        pair = against_engine(corpus_file, work, args.partition_size, max(args.rounds, 1))
        print(f"engine alone (audit.engine.audit_hand, parsed hands, this process): "
              f"{pair['engine_hands_per_s']:,.0f} hands/s, {pair['engine_hands_per_cpu_s']:,.0f} per CPU-second")
        print(f"batch, 1 local worker: {pair['batch_hands_per_s']:,.0f} hands/s, "
              f"{pair['batch_hands_per_cpu_s']:,.0f} per worker CPU-second")
        print(f"engine alone / batch per worker: {pair['ratio']:.2f}x wall, {pair['cpu_ratio']:.2f}x CPU "
              f"(target <= 1.25x; medians of {len(pair['ratios'])} pairs: wall {pair['ratios']}, "
              f"CPU {pair['cpu_ratios']})")
        if args.interleave:
            pairs = interleaved_on_worker(corpus_file, work / "interleaved", args.partition_size, args.interleave)
            wall = [p["batch_s"] / p["engine_s"] for p in pairs]
            cpu = [p["batch_cpu_s"] / p["engine_cpu_s"] for p in pairs]
            quartiles = statistics.quantiles(cpu, n=4)
            print(f"interleaved on one worker, {len(pairs)} pairs of {args.partition_size} hands (the engine and "
                  f"run_partition on the same partition, a second apart): batch / engine {statistics.median(wall):.3f}x "
                  f"wall, {statistics.median(cpu):.3f}x CPU (medians; CPU quartiles {quartiles[0]:.3f} - "
                  f"{quartiles[2]:.3f}; target <= 1.25x)")
        rows = [pair["median_batch"], local(2, corpus_file, work / "out2", args.partition_size)]
        if not args.skip_separate:
            rows.append(separate(corpus_file, work / "out3", args.partition_size, work))
        for row in rows:
            print(f"{row['setup']}: {row['hands_per_s']:,.0f} hands/s ({row['hands']:,} hands in {row['seconds']} s, "
                  f"{row['partitions']} partitions; start-up {row['startup_s']} s); peak MiB per worker "
                  f"{row['worker_peak_mib']}")
        ratio = rows[1]["hands_per_s"] / rows[0]["hands_per_s"]
        print(f"1 -> 2 local workers: {ratio:.2f}x (target >= 1.8x)")
        if len(rows) > 2:
            print(f"1 local -> 2 separate workers: {rows[2]['hands_per_s'] / rows[0]['hands_per_s']:.2f}x")
        efficiency = min(ratio / 2, 1.0)
        print(f"a year of one platform ({HANDS_PER_DAY:,} hands/day x {DAYS} = {HANDS_PER_DAY * DAYS:,} hands) "
              f"at {rows[0]['hands_per_s']:,.0f} hands/s per worker, efficiency {efficiency:.2f}:")
        for line in estimate(rows[0]["hands_per_s"], efficiency, args.cores, iter((1, 4, 16, 64))):
            print(f"  {line['machines']:>3} machine(s) x {line['cores_each']} cores: {line['hands_per_s']:>9,} "
                  f"hands/s, {line['hours']:>8,} h")
        if args.json:
            print(json.dumps({"rows": rows, "ratio": ratio, "per_worker": pair}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
