"""Benchmark: build a conformance kit of N cases, then check answers to it (issue 15: >= 1,000 answers/s).

Run: `.venv/bin/python bench/bench_kit.py [--cases 500] [--profile weile] [--seed 1]`.

Phases, each timed on its own (wall clock, one process):
- `build`: `build_kit` (simulate until every item is covered, mutate, confirm, write bytes);
- `answer`: the reference client of the tests (tests/kit/kit_clients.py) replays every case
  with the engine; this is the client's time, shown for scale only;
- `check right`: `zhuoji-kit check` in-process (`kit.cli.run`, answers file parsed, report written
  as JSON and JUnit) with every answer right: the plain comparison path;
- `check wrong`: the same with a client whose 责任鸡 is wrong, so each failing case is audited by
  the engine for its words.
The machine's load average is printed with the figures: on a shared machine they move with it.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kit.build import build_kit, write_kit  # noqa: E402
from kit.cli import run  # noqa: E402
from tests.kit.kit_clients import SETTLEMENT_FAULTS, answer_kit  # noqa: E402


def _check(kit: Path, lines: list[str], work: Path, repeat: int) -> tuple[float, int]:
    answers = work / "answers.jsonl"
    answers.write_text("\n".join(lines) + "\n", encoding="utf-8")
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        code = run(["check", str(kit), str(answers), "--json", str(work / "r.json"), "--junit", str(work / "j.xml"),
                    "--quiet", "--failures", str(work / "failures")], io.StringIO(), io.StringIO())
        best = min(best, time.perf_counter() - t)
    return best, code


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--cases", type=int, default=500)
    p.add_argument("--profile", default="weile")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--repeat", type=int, default=3, help="check runs; the best is reported")
    args = p.parse_args()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        kit = work / "kit"
        t = time.perf_counter()
        files = build_kit(args.profile, {}, cases=args.cases, seed=args.seed)
        write_kit(files, kit)
        build_s = time.perf_counter() - t
        t = time.perf_counter()
        right, _ = answer_kit(kit)
        answer_s = time.perf_counter() - t
        wrong, changed = answer_kit(kit, SETTLEMENT_FAULTS["no_responsibility"][0])
        right_s, right_code = _check(kit, right, work, args.repeat)
        wrong_s, wrong_code = _check(kit, wrong, work, args.repeat)
    n = args.cases
    print(f"load average at start: {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} ({os.cpu_count()} cores)")
    print(f"{'phase':<14} {'seconds':>8} {'answers/s':>10}  note")
    print(f"{'build':<14} {build_s:>8.1f} {'':>10}  {args.profile}, {n} cases, seed {args.seed}")
    print(f"{'answer':<14} {answer_s:>8.2f} {n / answer_s:>10.0f}  reference client (engine replay), for scale")
    print(f"{'check right':<14} {right_s:>8.3f} {n / right_s:>10.0f}  exit {right_code}, every case passes")
    print(f"{'check wrong':<14} {wrong_s:>8.3f} {n / wrong_s:>10.0f}  exit {wrong_code}, "
          f"{len(changed)} failing cases audited for their words")


if __name__ == "__main__":
    main()
