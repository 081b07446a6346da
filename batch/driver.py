"""One batch from plan to summary: the output folder, the resume check, the tasks, the summary.

`DIR/plan.json` names what the folder holds (settings, engine version, the plan's digest); a
new run refuses a folder that holds another batch, and `--resume` refuses one whose plan,
settings or engine differ (rows of two engines or two corpora must not mix). Partitions whose
manifest is there are skipped; the others are run, and `summary.json`/`summary.html` are
written from every partition's counts. `run.json` keeps what is not a result (timings, worker
count), so `summary.json` and the rows are the same for the same corpus however it was run.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from audit.api import ENGINE_VERSION, loads
from batch import summary
from batch.inputs import Plan
from batch.rows import FINDINGS_SCHEMA, HANDS_SCHEMA, Settings
from batch.runner import RETRIES, Failure, Progress, Task, execute, report_failures
from batch.work import FINDINGS_DIR, HANDS_DIR, PARTS_DIR, Done, atomic_write, part_name, read_manifest, \
    run_partition, write_table

EMPTY_PART = "empty.parquet"
"""The file a dataset holds when no partition wrote one (no input, or every partition failed):
its schema and no rows, so `read_parquet('DIR/hands/*.parquet')` answers with zero rows instead
of failing on a glob that matches nothing."""

PLAN_FORMAT = "zhuoji-batch-plan/1"


class BatchError(Exception):
    """The batch cannot run as asked (the folder holds another batch, a resume does not match)."""


@dataclass
class Outcome:
    """What a run did: partitions done now and before, hands, failures, the summary."""

    partitions: int
    ran: int
    skipped: int
    hands: int
    failures: list[Failure]
    summary: dict[str, Any]
    seconds: float
    workers: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


def settings_json(settings: Settings) -> dict[str, Any]:
    return {"profile": settings.profile, "options": dict(settings.options), "lang": settings.lang}


def _plan_record(plan: Plan, settings: Settings) -> dict[str, Any]:
    digest = hashlib.sha256("\n".join(p.key for p in plan.partitions).encode("utf-8")).hexdigest()
    return {"format": PLAN_FORMAT, "engine_version": ENGINE_VERSION, "settings": settings_json(settings),
            "partitions": len(plan.partitions), "digest": digest}


def check_out(out: Path) -> None:
    """BatchError unless `out` is a folder or can be made one: the first of it and its parents
    that exists must be a folder (an existing file is never replaced, whatever its name)."""
    for place in (out, *out.parents):
        if place.exists():
            if not place.is_dir():
                which = "is a file" if place == out else f"is inside {place}, a file"
                raise BatchError(f"--out {out} {which}, not a folder: choose a new or empty folder")
            return


def prepare(out: Path, plan: Plan, settings: Settings, resume: bool) -> None:
    """Make the folder ready: new, or the same batch when resuming; stale temporary files removed."""
    check_out(out)
    try:
        _prepare(out, plan, settings, resume)
    except OSError as exc:  # a folder that cannot be read or made (permissions, a full disk)
        raise BatchError(f"--out {out}: {exc.strerror or exc}") from None


def _prepare(out: Path, plan: Plan, settings: Settings, resume: bool) -> None:
    wanted = _plan_record(plan, settings)
    path = out / "plan.json"
    if path.exists():
        try:
            held = loads(path.read_bytes())  # its own file, read as strictly as any
        except ValueError:
            held = None
        if not resume:
            raise BatchError(f"{out} already holds a batch: pass --resume to finish it, or choose another --out")
        if held != wanted:
            raise BatchError(f"{out} holds another batch (other inputs, partition size, settings or engine "
                             "version): --resume only finishes the same batch")
    elif out.exists() and any(out.iterdir()):
        raise BatchError(f"{out} is not empty and holds no batch: choose an empty or new --out folder")
    for name in (HANDS_DIR, FINDINGS_DIR, PARTS_DIR):
        (out / name).mkdir(parents=True, exist_ok=True)
    remove_temporaries(out)
    text = json.dumps(wanted, indent=1, sort_keys=True)
    atomic_write(path, lambda temp: temp.write_text(text, encoding="utf-8"))


def write_empty_parts(out: Path) -> None:
    """`EMPTY_PART` in each dataset that has no partition file; removed again once one has."""
    for name, schema in ((HANDS_DIR, HANDS_SCHEMA), (FINDINGS_DIR, FINDINGS_SCHEMA)):
        empty = out / name / EMPTY_PART
        if any((out / name).glob("part-*.parquet")):
            empty.unlink(missing_ok=True)
        elif not empty.exists():
            write_table([], schema, empty)


def remove_temporaries(out: Path) -> None:
    """Hidden temporary files of writes that never finished (`work.atomic_write`)."""
    for name in (HANDS_DIR, FINDINGS_DIR, PARTS_DIR):
        for stale in (out / name).glob(".*.tmp"):
            stale.unlink(missing_ok=True)


def run(plan: Plan, settings: Settings, out: Path, client: Any, *, resume: bool = False,
        stream: TextIO | None = sys.stderr, retries: int = RETRIES) -> Outcome:
    """Audit every partition of `plan` on the cluster of `client`, writing into `out`."""
    from batch.runner import worker_count

    started = time.monotonic()
    prepare(out, plan, settings, resume)
    done: dict[int, Done] = {}
    if resume:
        for index, partition in enumerate(plan.partitions):
            found = read_manifest(out, index, partition.key)
            if found is not None:
                done[index] = found
    tasks = [Task(run_partition, (index, partition, settings, str(out.resolve())), partition.estimate,
                  partition.inputs(), part_name(index))
             for index, partition in enumerate(plan.partitions) if index not in done]
    progress = Progress(sum(p.estimate for i, p in enumerate(plan.partitions) if i not in done), stream)
    progress.tasks = len(tasks)
    fresh: list[Done] = []

    def collect(task: Task, result: Done) -> int:
        fresh.append(result)
        return result.hands

    failures = execute(client, tasks, on_result=collect, progress=progress, retries=retries) if tasks else []
    if failures and stream is not None:
        report_failures(failures, stream)
    remove_temporaries(out)  # a worker killed mid-write leaves its hidden temporary file behind
    write_empty_parts(out)
    counts = summary.merge(d.counts for d in sorted([*done.values(), *fresh], key=lambda d: d.index))
    doc = summary.document(counts, settings=settings_json(settings), partitions=len(plan.partitions),
                           failed=[f.to_json() for f in failures], skipped=plan.skipped,
                           engine_version=ENGINE_VERSION)
    write_summary(out, doc, settings.lang)
    outcome = Outcome(len(plan.partitions), len(fresh), len(done), counts["hands"], failures, doc,
                      time.monotonic() - started, worker_count(client))
    run_info = {"seconds": round(outcome.seconds, 3), "audit_seconds": round(time.monotonic() - progress.started, 3),
                "workers": outcome.workers, "partitions_run": outcome.ran, "partitions_skipped": outcome.skipped,
                "hands_run": sum(d.hands for d in fresh), "failed": len(failures)}
    outcome.extra = run_info
    atomic_write(out / "run.json", lambda temp: temp.write_text(json.dumps(run_info, indent=1), encoding="utf-8"))
    return outcome


def write_summary(out: Path, doc: dict[str, Any], lang: str) -> None:
    """summary.json and summary.html, each written whole or not at all."""
    text = json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=False)
    atomic_write(out / "summary.json", lambda temp: temp.write_text(text + "\n", encoding="utf-8"))
    page = summary.page(doc, lang)
    atomic_write(out / "summary.html", lambda temp: temp.write_text(page, encoding="utf-8"))


def clear(out: Path, names: Sequence[str] = (HANDS_DIR, FINDINGS_DIR, PARTS_DIR)) -> None:
    """Remove a batch's outputs (tests and benchmarks reuse folders)."""
    for name in names:
        shutil.rmtree(out / name, ignore_errors=True)
    for name in ("plan.json", "summary.json", "summary.html", "run.json"):
        (out / name).unlink(missing_ok=True)


__all__ = ["BatchError", "EMPTY_PART", "Outcome", "PLAN_FORMAT", "clear", "prepare", "run", "settings_json", "write_summary"]
