"""The command line of `python -m batch` (docs/batch.md).

    python -m batch INPUT... --out DIR [--workers N | --scheduler tcp://host:8786]
        [--profile NAME] [--option K=V ...] [--lang zh|en] [--resume] [--from-db PATH]
        [--partition-size N]

Exit status: 0 every partition written (whatever the verdicts: a batch reports them, it does
not judge the run by them), 1 some partition failed after its retries (listed on stderr and
in summary.json, the others written), 2 the batch could not start (bad arguments, unknown
profile or option, an output folder holding another batch, an `--out` that is a file, a
`--from-db` that is not the service's database, a `--scheduler` that is malformed or does not
answer).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from batch import driver, preflight
from batch.inputs import Partition, Plan, Sizes, plan
from batch.rows import Settings
from batch.runner import RETRIES, SchedulerError, check_address, cluster
from audit.cli import UsageError, add_audit_arguments, audit_arguments
from audit.vocabulary import argument

EXIT_DONE, EXIT_FAILED, EXIT_ERROR = 0, 1, 2
StorePlanner = Callable[[str, Sizes], list[Partition]]
"""Partitions of the service's SQLite store (batch.store_source.plan_store), given by __main__."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m batch",
                                description="Audit many hand records on a Dask cluster into Parquet datasets.")
    p.add_argument("inputs", nargs="*", metavar="INPUT", help=".jsonl, .json (records or matches), .zip, folders")
    p.add_argument("--out", required=True, help="output folder: hands/, findings/, summary.json, summary.html")
    p.add_argument("--workers", type=argument(1), default=None, help="local worker processes (default: one per CPU)")
    p.add_argument("--scheduler", metavar="ADDRESS", help="run on an existing cluster, e.g. tcp://10.0.0.5:8786")
    add_audit_arguments(p, profile_help="audit every hand under this profile (what-if)",
                        lang_help="language of the messages in the rows and of summary.html (default en)")
    p.add_argument("--resume", action="store_true", help="finish a batch: skip the partitions already written")
    p.add_argument("--from-db", metavar="PATH", help="also audit every record of the service's SQLite store")
    p.add_argument("--partition-size", type=argument(1), default=Sizes.hands, metavar="N",
                   help=f"hands per partition at most (default {Sizes.hands})")
    p.add_argument("--retries", type=argument(), default=RETRIES, help=f"reruns of a failing partition (default {RETRIES})")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    return p


def make_plan(inputs: Sequence[str], sizes: Sizes, from_db: str | None, store_planner: StorePlanner | None) -> Plan:
    """The plan of the files, then of the store."""
    if not inputs and not from_db:
        raise UsageError("give at least one INPUT or --from-db PATH")
    if sizes.hands < 1:
        raise UsageError("--partition-size must be at least 1")
    missing = [name for name in inputs if not Path(name).exists()]
    if missing:  # a typo on the command line, not bad input: nothing is started
        raise UsageError(f"no such file or folder: {', '.join(missing)}")
    result = plan(inputs, sizes)
    if from_db:
        if store_planner is None:
            raise UsageError("--from-db needs the service's store reader: run `python -m batch`")
        if not Path(from_db).is_file():
            raise UsageError(f"--from-db {from_db}: no such file")
        result.partitions += store_planner(from_db, sizes)
    return result


def run(argv: Sequence[str], *, store_planner: StorePlanner | None = None, err: TextIO = sys.stderr,
        out: TextIO = sys.stdout) -> int:
    """Parse, plan, run on the cluster, print where the output is; the exit status."""
    args = build_parser().parse_args(argv)
    try:
        chosen = audit_arguments(args)
        lang, options = chosen.lang, chosen.options
        if args.workers is not None and args.workers < 1:
            raise UsageError("--workers must be at least 1")
        settings = Settings(args.profile, tuple(sorted(options.items())), lang.value)
        if args.scheduler:
            check_address(args.scheduler)
        target = Path(args.out)
        driver.check_out(target)
        the_plan = make_plan(args.inputs, Sizes(hands=args.partition_size), args.from_db, store_planner)
        with cluster(args.workers, args.scheduler) as client:
            preflight.check(client)
            outcome = driver.run(the_plan, settings, target, client, resume=args.resume,
                                 stream=None if args.quiet else err, retries=args.retries)
    except (UsageError, driver.BatchError, preflight.ClusterMismatch, SchedulerError) as exc:
        print(f"error: {exc}", file=err)
        return EXIT_ERROR
    verdicts = ", ".join(f"{v} {outcome.summary['verdicts'][v]['count']}" for v in outcome.summary["verdicts"])
    print(f"{outcome.hands} hands in {outcome.partitions} partitions ({outcome.skipped} already written): "
          f"{verdicts}; {target}/summary.html", file=out)
    return EXIT_FAILED if outcome.failures else EXIT_DONE


__all__ = ["EXIT_DONE", "EXIT_ERROR", "EXIT_FAILED", "StorePlanner", "build_parser", "make_plan", "run"]
