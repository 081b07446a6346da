"""The command line at the engine's speed (issue 35.6): `python -m audit --json` over the long corpus
against the same audits in-process, as a ratio measured in one run.

    .venv/bin/python bench/bench_cli.py                 # 600 long records, 3 rounds
    .venv/bin/python bench/bench_cli.py --records 200 --rounds 5

The in-process side reads the file as the command does (`jsontext.read_file`) and audits every
record (`audit_document`); the command side is the whole command in a new process, interpreter
start and printing included, its output thrown away. Rounds alternate the two so a shared
machine's load falls on both; the figures are medians, the ratio is of the medians. The target is
at most 1.5x. It also times the printing alone, the standard library's encoder against
`jsontext.pretty`, on the same audits.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit import jsontext  # noqa: E402
from audit.api import audit_document  # noqa: E402
from bench.bench_batch import long_corpus  # noqa: E402


def in_process(path: Path) -> tuple[float, list[dict[str, Any]]]:
    start = time.perf_counter()
    audits: list[dict[str, Any]] = []
    for doc in jsontext.read_file(path):
        audits += audit_document(doc)
    return time.perf_counter() - start, audits


def command(path: Path) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "audit", "--json", str(path)], cwd=ROOT, stdout=subprocess.DEVNULL,
                   check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.jsonl"
        long_corpus(path, args.records)
        inside: list[float] = []
        outside: list[float] = []
        audits: list[dict[str, Any]] = []
        for _ in range(args.rounds):
            seconds, audits = in_process(path)
            inside.append(seconds)
            outside.append(command(path))
    encode_std: list[float] = []
    encode_fast: list[float] = []
    fast: Callable[[Any], str] | None = getattr(jsontext, "pretty", None)  # absent before 35.6: the command alone
    for _ in range(args.rounds if fast is not None else 0):
        start = time.perf_counter()
        json.dumps(audits, ensure_ascii=False, indent=1)
        encode_std.append(time.perf_counter() - start)
        start = time.perf_counter()
        assert fast is not None
        fast(audits)
        encode_fast.append(time.perf_counter() - start)
    a, b = statistics.median(inside), statistics.median(outside)
    print(f"{args.records} long records, median of {args.rounds} rounds:")
    print(f"  in-process read + audit   {a:7.2f} s")
    print(f"  python -m audit --json    {b:7.2f} s")
    print(f"  ratio command / in-process {b / a:5.2f}x (target at most 1.5x)")
    if encode_fast:
        print(f"  printing: json.dumps {statistics.median(encode_std):.2f} s, jsontext.pretty "
              f"{statistics.median(encode_fast):.2f} s")


if __name__ == "__main__":
    main()
