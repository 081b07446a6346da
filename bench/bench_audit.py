"""Benchmark: audit throughput (schema + replay + settle + compare) and the winning-hand test.

Run: `make bench` or `.venv/bin/python bench/bench_audit.py [--seconds S]`.
Figures go in the README's performance table with the command that produced them.
Single process, so "per second" is per core.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit import hands  # noqa: E402
from audit.engine import audit_hand  # noqa: E402
from audit.tiles import NUM_KINDS, counts  # noqa: E402


def corpus() -> list[dict[str, Any]]:
    """The 30 reference games and the worked examples: long hands with every rare event."""
    files = sorted((ROOT / "spec" / "reference").glob("*.json"))
    files += sorted(p for p in (ROOT / "spec" / "examples").glob("*.json") if not p.name.endswith(".audit.json"))
    return [json.loads(p.read_text(encoding="utf-8")) for p in files]


def rate(fn: Callable[[], int], seconds: float) -> float:
    """Calls of `fn` (each returning a count of work items) per second, best of 3 rounds."""
    best = 0.0
    for _ in range(3):
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds / 3:
            done += fn()
        best = max(best, done / (time.perf_counter() - start))
    return best


def bench_audit(seconds: float) -> tuple[float, float]:
    docs = corpus()
    events = sum(len(d["events"]) for d in docs) / len(docs)

    def run() -> int:
        for d in docs:
            audit_hand(d)
        return len(docs)

    run()
    return rate(run, seconds), events


def suited_hands(n: int, seed: int = 7) -> list[list[int]]:
    """Half built winning hands, half random 14-tile hands, all suited (no honours)."""
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < n:
        if len(out) % 2:
            tiles = [t for t in range(NUM_KINDS) for _ in range(4)]
            hand = rng.sample(tiles, 14)
        else:
            hand = []
            for _ in range(4):
                t = rng.randrange(NUM_KINDS)
                hand += [t, t, t] if rng.random() < 0.4 or t % 9 > 6 else [t, t + 1, t + 2]
            p = rng.randrange(NUM_KINDS)
            hand += [p, p]
        if max(counts(hand)) <= 4:
            out.append(hand)
    return out


def bench_winning(seconds: float) -> dict[str, float]:
    sample = suited_hands(2000)
    arrays = [counts(h) for h in sample]
    ours = rate(lambda: sum(1 for c in arrays if hands.is_winning(c, 0)) * 0 + len(arrays), seconds)
    keys = [(hands.suit_key(c, 0), hands.suit_key(c, 1), hands.suit_key(c, 2)) for c in arrays]
    packed = rate(lambda: sum(1 for k0, k1, k2 in keys if hands.is_winning_keys(k0, k1, k2, True)) * 0
                  + len(keys), seconds)
    out = {"ours": ours, "packed": packed}
    try:
        from mahjong.agari import Agari
    except ImportError:
        return out
    agari = Agari()
    as34 = [c + [0] * 7 for c in arrays]  # mahjong's 34-array: our 27 suited kinds, no honours
    same = all(agari.is_agari(a) == hands.is_winning(c, 0) for a, c in zip(as34, arrays))
    out["mahjong"] = rate(lambda: sum(1 for a in as34 if agari.is_agari(a)) * 0 + len(as34), seconds)
    out["agree"] = float(same)
    return out


def stages(rounds: int = 10) -> dict[str, float]:
    """Microseconds per hand spent in each stage of the audit (CPU time)."""
    from audit.compare import compare
    from audit.profiles import resolve
    from audit.replay import replay
    from audit.settle import settle
    from audit.schema import validate_record

    docs = corpus()
    profs = [resolve(d["rules"]["profile"], d["rules"].get("options")) for d in docs]
    reps = [replay(d, p) for d, p in zip(docs, profs)]
    setts = [settle(r.state) for r in reps]
    work: dict[str, Callable[[int], object]] = {
        "schema": lambda i: validate_record(docs[i]),
        "profile": lambda i: resolve(docs[i]["rules"]["profile"], docs[i]["rules"].get("options")),
        "replay": lambda i: replay(docs[i], profs[i]),
        "settle": lambda i: settle(reps[i].state),
        "compare": lambda i: compare(docs[i]["result"], setts[i], docs[i].get("base", 1)),
    }
    out = {}
    for name, fn in work.items():
        start = time.process_time()
        for _ in range(rounds):
            for i in range(len(docs)):
                fn(i)
        out[name] = (time.process_time() - start) / (rounds * len(docs)) * 1e6
    return out


def engine_mode() -> str:
    """Which engine was measured: the mypyc build (`make native`) or the plain sources."""
    from audit import native

    done = native.compiled()
    return f"compiled with mypyc ({len(done)} modules)" if done else "plain Python"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--stages", action="store_true", help="also print microseconds per hand per stage")
    args = ap.parse_args()
    hps, events = bench_audit(args.seconds)
    print(f"audit (schema+replay+settle+compare), reference corpus, {events:.0f} events/hand avg: "
          f"{hps:,.0f} hands/s ({hps * events:,.0f} events/s) on one core; engine: {engine_mode()}")
    w = bench_winning(args.seconds)
    line = (f"winning-hand test, suited 14-tile hands: ours from a count array {w['ours']:,.0f}/s, "
            f"ours from packed suit keys (the replayer's representation) {w['packed']:,.0f}/s")
    if "mahjong" in w:
        line += (f"; mahjong Agari().is_agari (34-array) {w['mahjong']:,.0f}/s; ratios "
                 f"{w['ours'] / w['mahjong']:.1f}x and {w['packed'] / w['mahjong']:.1f}x; "
                 f"answers agree: {bool(w['agree'])}")
    print(line)
    if args.stages:
        print("  ".join(f"{k}: {v:,.0f} us/hand" for k, v in stages().items()))


if __name__ == "__main__":
    main()
