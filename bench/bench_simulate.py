"""Benchmark: simulate N hands per profile, then audit them, on one core.

Run: `.venv/bin/python bench/bench_simulate.py [--hands 10000] [--profiles weile,cuocuo]`.

Each phase runs in a fresh subprocess so that its peak memory (ru_maxrss) is
its own: `simulate` streams records into a temporary `.jsonl` (as
`python -m sim.simulate` does), `audit` reads that file line by line and
audits every hand (`audit_hand(doc).to_json()`, schema + replay + settle +
compare). The `baseline` row is an interpreter that only imported the
engine, for scale. Prints one table; `--json` prints the
rows as JSON too.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

PROFILES = ("weile", "cuocuo", "kuhu", "senyan", "guizhou")


def peak_mib() -> float:
    """Peak resident memory of this process in MiB (Linux reports KiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def phase_simulate(profile: str, hands: int, out: Path, seed: int) -> dict[str, Any]:
    """Generate `hands` records into `out`, one a line, timing only the play and the writing."""
    from sim.simulate import dumps, simulate

    start = time.perf_counter()
    with out.open("w", encoding="utf-8") as fh:
        for g in simulate(profile, {}, hands, seed):
            fh.write(dumps(g.record) + "\n")
    return {"seconds": time.perf_counter() - start}


def phase_audit(path: Path) -> dict[str, Any]:
    """Audit every record of a .jsonl, reading one line at a time."""
    from audit.play import audit_hand

    verdicts: dict[str, int] = {}
    events = 0
    start = time.perf_counter()
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            doc = json.loads(line)
            events += len(doc["events"])
            v = audit_hand(doc).to_json()["verdict"]
            verdicts[v] = verdicts.get(v, 0) + 1
    return {"seconds": time.perf_counter() - start, "verdicts": verdicts, "events": events}


def child(args: argparse.Namespace) -> None:
    """One phase in this process; prints its figures as JSON."""
    if args.phase == "baseline":
        import audit.play  # noqa: F401
        import sim.simulate  # noqa: F401
        row: dict[str, Any] = {"seconds": 0.0}
    elif args.phase == "simulate":
        row = phase_simulate(args.profiles, args.hands, Path(args.file), args.seed)
    else:
        row = phase_audit(Path(args.file))
    row["peak_mib"] = peak_mib()
    print(json.dumps(row))


def spawn(phase: str, profile: str, hands: int, file: Path, seed: int) -> dict[str, Any]:
    """Run one phase in a fresh interpreter and read its JSON line."""
    cmd = [sys.executable, __file__, "--phase", phase, "--profiles", profile, "--hands", str(hands),
           "--file", str(file), "--seed", str(seed)]
    done = subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=ROOT)
    return json.loads(done.stdout.strip().splitlines()[-1])


def table(rows: list[dict[str, Any]], baseline: float) -> str:
    """The printed table: hands/s on one core and the peak memory of each phase's process."""
    head = (f"{'profile':<9} {'phase':<9} {'hands':>6} {'seconds':>8} {'hands/s':>8} {'events/s':>9} "
            f"{'peak MiB':>9}  verdicts")
    lines = [head, "-" * len(head)]
    for r in rows:
        rate = r["hands"] / r["seconds"] if r["seconds"] else 0.0
        ev = f"{r['events'] / r['seconds']:,.0f}" if r.get("events") else "-"
        lines.append(f"{r['profile']:<9} {r['phase']:<9} {r['hands']:>6} {r['seconds']:>8.1f} {rate:>8.0f} {ev:>9} "
                     f"{r['peak_mib']:>9.1f}  {r.get('verdicts', '')}")
    lines.append(f"(peak MiB: RSS of the phase's whole process; an idle interpreter that imported the engine, "
                 f"the schema and the simulator: {baseline:.1f} MiB)")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000, help="hands per profile (default 10000)")
    ap.add_argument("--profiles", default=",".join(PROFILES), help="comma-separated profiles")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", action="store_true", help="also print the rows as JSON")
    ap.add_argument("--phase", choices=("baseline", "simulate", "audit"), help=argparse.SUPPRESS)
    ap.add_argument("--file", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.phase:
        child(args)
        return
    baseline = spawn("baseline", "weile", 0, Path("-"), 0)["peak_mib"]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for profile in args.profiles.split(","):
            path = Path(tmp) / f"{profile}.jsonl"
            for phase in ("simulate", "audit"):
                row = spawn(phase, profile, args.hands, path, args.seed)
                rows.append({"profile": profile, "phase": phase, "hands": args.hands, **row})
                print(table(rows[-1:], baseline).splitlines()[2], file=sys.stderr, flush=True)
    print(table(rows, baseline))
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))


if __name__ == "__main__":
    main()
