"""The command line at the engine's speed (issue 35.6): `python -m audit --json` over the long corpus
against the same audits in-process, as a ratio measured in one run.

    .venv/bin/python bench/bench_cli.py                 # 600 long records, 3 rounds
    .venv/bin/python bench/bench_cli.py --records 200 --rounds 5

The in-process side reads the file as the command does (`jsontext.read_file`) and audits every
record (`audit_document`); the command side is the whole command in a new process, interpreter
start and printing included, its output thrown away. Rounds alternate the two so a shared
machine's load falls on both; the figures are medians, the ratios are of the medians, in wall time
and in CPU time (the command's from the child's rusage): on a loaded machine the CPU ratio is the
one to read. The command runs with a byte-code cache (`child_env`), written by one run before the
rounds that is not counted. The target is at most 1.5x. It also times the printing alone, the
standard library's encoder against `jsontext.pretty`, on the same audits.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
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


def in_process(path: Path) -> tuple[float, float, list[dict[str, Any]]]:
    """(wall seconds, CPU seconds, the audits) of reading and auditing the file here."""
    start, cpu = time.perf_counter(), time.process_time()
    audits: list[dict[str, Any]] = []
    for doc in jsontext.read_file(path):
        audits += audit_document(doc)
    return time.perf_counter() - start, time.process_time() - cpu, audits


def child_env(folder: Path) -> dict[str, str]:
    """The command's environment: this one, with Python's byte-code cache on (in `folder`, not in the
    tree). A user's interpreter keeps one (a checkout's `__pycache__`, an installed package's `.pyc`);
    a shell that sets PYTHONDONTWRITEBYTECODE would make every run compile the sources again, about
    0.3 s the in-process side never pays."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    return env


def command(path: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of the whole command in a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "audit", "--json", str(path)], cwd=ROOT, stdout=subprocess.DEVNULL,
                   env=env, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "long.jsonl"
        long_corpus(path, args.records)
        inside: list[tuple[float, float]] = []
        outside: list[tuple[float, float]] = []
        audits: list[dict[str, Any]] = []
        env = child_env(Path(folder))
        command(path, env)  # not counted: writes the byte-code cache, as a user's first run does
        for _ in range(args.rounds):
            wall, cpu, audits = in_process(path)
            inside.append((wall, cpu))
            outside.append(command(path, env))
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
    print(f"{args.records} long records, median of {args.rounds} rounds (wall / CPU):")
    for label, runs in (("in-process read + audit", inside), ("python -m audit --json", outside)):
        print(f"  {label:26} {statistics.median(r[0] for r in runs):7.2f} s / {statistics.median(r[1] for r in runs):5.2f} s")
    for k, name in ((0, "wall"), (1, "CPU")):
        ratio = statistics.median(o[k] for o in outside) / statistics.median(i[k] for i in inside)
        print(f"  ratio command / in-process, {name}: {ratio:5.2f}x (target at most 1.5x)")
    if encode_fast:
        print(f"  printing: json.dumps {statistics.median(encode_std):.2f} s, jsontext.pretty "
              f"{statistics.median(encode_fast):.2f} s")


if __name__ == "__main__":
    main()
