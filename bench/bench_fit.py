"""Benchmark: the fit of a platform's own profile (issue 21.4, docs/fit.md) on 10,000 hands.

The platform is simulated: weile with six conventions of its own (`PLAYED`: a number no
enumeration names, two R17 house rules, and a 热炮 paid without its bonus but with the kong
transfer, which only a pair of values explains), its records saying only `rules.profile: weile`;
one hand in `MISTAKE_EVERY` is replaced by a one-fault mutant (`sim.mutate`), the platform's real
mistakes. The fit runs once, from weile; the benchmark prints its time, what it found against
what was played and planted, and how much work the search did (docs/fit.md, "How it searches").

Run: `.venv/bin/python bench/bench_fit.py [--hands 10000] [--records FILE.jsonl]`. The records are
simulated into FILE the first time (a few minutes for 10,000) and read from it after, so the timing
is the fit's alone; `farm-bench -n 1 --timeout 3600 -- .venv/bin/python bench/bench_fit.py ...`
times the whole process from outside.
"""
from __future__ import annotations

import argparse
import itertools
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit import jsontext, native  # noqa: E402
from fit.search import Record, fit  # noqa: E402
from sim.mutate import mutants  # noqa: E402
from sim.simulate import simulate  # noqa: E402

PLAYED: dict[str, Any] = {"chicken.charge": 4, "dou_unready": "reverse", "chicken.claimed_charge": "to_claimer",
                          "hot_shot.bonus": 0, "hot_shot.transfer_kong": True, "kong_flower_bonus": 5}
MISTAKE_EVERY = 200
MISTAKES = ("scores_not_zero", "wrong_next_dealer", "chicken_miscount", "responsibility_missing", "wrong_flip",
            "discard_not_held", "dou_not_ready")


def as_platform(k: int, doc: dict[str, Any]) -> dict[str, Any]:
    """Hand `k` as the platform records it: its rules say weile only; one hand in MISTAKE_EVERY is
    a one-fault mutant (planted under the platform's own rules), marked `planted`."""
    if k % MISTAKE_EVERY == MISTAKE_EVERY // 2:
        cls = MISTAKES[(k // MISTAKE_EVERY) % len(MISTAKES)]
        found = [m for m in mutants(doc, seed=k) if m.mutation == cls]
        if found:
            doc = {**found[0].record, "planted": cls}  # not a zhuoji/1 field: removed before the fit
    return {**doc, "rules": {"profile": "weile"}}


def make_records(path: Path, hands: int, seed: int) -> None:
    """Simulate the platform's hands into `path`."""
    with path.open("w", encoding="utf-8") as out:
        for k, gen in enumerate(simulate("weile", PLAYED, hands, seed)):
            out.write(json.dumps(as_platform(k, gen.record), ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--records", type=Path, default=ROOT / "build" / "bench-fit-10000.jsonl",
                   help="the platform's records (.jsonl); simulated there when the file is missing")
    args = p.parse_args(argv)
    if not args.records.exists():
        args.records.parent.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        make_records(args.records, args.hands, args.seed)
        print(f"simulated {args.hands} hands into {args.records} in {time.perf_counter() - start:.0f} s")
    records, planted = [], set()
    lines = jsontext.json_lines(args.records.read_text(encoding="utf-8"))  # "\n" only, as every .jsonl reader
    for n, line in itertools.islice(lines, args.hands):
        doc = json.loads(line)
        if doc.pop("planted", None):
            planted.add(f"line {n}")
        records.append(Record(f"line {n}", doc))
    engine = f"compiled ({len(native.compiled())} modules)" if native.compiled() else "plain Python"
    start, cpu = time.perf_counter(), time.process_time()
    result = fit(records, "weile")
    seconds, cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    c = result.counts
    listed = {u.record.source for u in result.unexplained}
    print(f"engine: {engine}")
    print(f"records: {result.records}, clean under weile {result.clean_before}, under the fit {result.clean_after}")
    print(f"fit: {seconds:.1f} s wall, {cpu_seconds:.1f} s cpu, {result.records / seconds:.0f} records/s, "
          f"peak {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    print(f"options found {result.options}")
    print(f"options played {PLAYED}: {'found exactly' if result.options == PLAYED else 'NOT found exactly'}")
    print(f"mistakes planted {len(planted)}, listed {len(listed)}, planted and listed {len(planted & listed)}, "
          f"listed but not planted {sorted(listed - planted)[:5]}")
    print(f"steps: " + "; ".join(f"{s.parameter}={json.dumps(s.value)}" + "".join(f"+{q}={json.dumps(v)}" for q, v in s.together)
                                 + f" (+{s.tally.gain})" for s in result.steps))
    print(f"search: {c.passes} passes, {c.pairs} (record, value) pairs, {c.skipped} skipped "
          f"({100 * c.skipped / max(c.pairs, 1):.0f}%: the record never read the parameter), {c.reused} reused, "
          f"{c.replays} replays ({c.replays / result.records:.1f} a record), "
          f"{c.settlements} settlements ({c.settlements / result.records:.1f} a record)")
    return 0 if result.options == PLAYED else 1


if __name__ == "__main__":
    sys.exit(main())
