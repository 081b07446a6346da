"""The fit-job worker (issue 36.2, docs/fit.md, docs/decisions.md 36.2a): takes queued fit jobs
(`records.fit_jobs`) and runs them, writing progress as it goes and the result when done.

A job: read its records in chunks (`fit_jobs.CHUNK` at a time from the store, or from the job's
own inputs for an upload), then the fits: the whole set (`fit.api.fit_records`, as a black box),
and, when the job asks for it (`by`), one fit per cell of client build and period
(`fit.periods`), from which the changes of a fitted value are read (issue 36.4). The fits are
independent, so with a Dask cluster configured (`scheduler`: the address `python -m batch
--scheduler` takes, `batch.runner.cluster`) they run on its workers in parallel, each a task;
without one they run here, one after the other. Progress (records read, fits done, values weighed,
an estimate of the time left, and, for a fit run here, where it is inside it: `fit.search.Progress`,
told by the fit through its `progress` callback) is written every `BEAT_S` seconds by a thread of its
own, which is also the heartbeat that tells a live job from one left by a stopped process
(`fit_jobs.recover`). A fit on the cluster tells nothing until it ends (its values weighed then).

A job of stored records past the cap (`params["sample"]`, set by `fit_jobs.create`; docs/decisions.md
36.2c) fits a sample of that size spread over every client build and period (`read_sample`, the
same each time), then audits every record of the selection, a chunk at a time, under the base and
the fitted profile (`verify_all`, phase `verifying`, always here in the worker's process, also with
a cluster): counts, and the first records left unexplained, in the result's `sample`.
"""
from __future__ import annotations

import hashlib
import logging
import os
import socket
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from audit.api import ProfileError, loads
from audit.vocabulary import Lang, NumberProblem, parse_number
from fit.api import fit_records
from fit.periods import CellFit, change_text, changes, dates, period_start, split
from fit.sample import LISTED, Verification, quotas, spread
from fit.search import Progress, Record, records_of
from records import fit_jobs
from records.db import close, connect

BEAT_S: Final = 5.0
"""Seconds between two progress writes (the heartbeat; `fit_jobs.STALE_S` is far above it)."""
POLL_S: Final = 2.0
"""Seconds an idle worker waits before looking at the queue again."""
PRIOR_RATE: Final = 25.0
"""Records a second one fit is assumed to do before the first fit of a job has finished (the plain
Python engine's rate in docs/fit.md); the estimate then follows the rate measured."""
ERROR: Final = "fit_job_error"
PROFILE: Final = "fit_job_profile"
CLUSTER: Final = "fit_job_cluster"
MIN_CELL: Final = 5
"""Records a cell needs to be fitted: fewer say too little to set a value apart."""
VERIFY_RATE: Final = 100.0
"""Records a second the verification of a sampled job is assumed to do (two audits a record) before
its first chunk is done; the estimate then follows the rate measured. Measured 2026-12-04: 600
stored hands in 2.82 s CPU (213 a CPU second, 70 MB peak for the whole process); half that assumed
for a loaded machine."""


def owner_name() -> str:
    """Who runs a job: host, process and a random part (`host:pid:abcd1234`)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def dead_here(owner: str | None) -> bool:
    """Whether `owner` was a process of this host that is no longer alive: its job was left, and is
    recovered at once rather than after `fit_jobs.STALE_S`."""
    parts = (owner or "").split(":")
    if len(parts) != 3 or parts[0] != socket.gethostname():
        return False
    pid = parse_number(parts[1], 1, 2**31 - 1)
    if isinstance(pid, NumberProblem):
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


@dataclass
class State:
    """What the heartbeat writes; the main thread updates it."""

    phase: str = "reading"
    records_done: int = 0
    values_weighed: int = 0
    seconds_left: float | None = None
    fit: dict[str, Any] | None = None
    """Where the fit running here is (`Progress.to_json` with `piece` and `pieces`), None between fits."""
    stopped: threading.Event = field(default_factory=threading.Event)
    """Set when the store says the job is no longer ours (cancelled): the worker stops there."""


@contextmanager
def heartbeat(path: str, job_id: int, owner: str, state: State, beat_s: float = BEAT_S) -> Iterator[None]:
    """Write `state` every `beat_s` seconds on a connection of its own until the block ends."""
    done = threading.Event()

    def beat() -> None:
        db = connect(path)
        try:
            while not done.wait(beat_s):
                if not fit_jobs.progress(db, job_id, owner, phase=state.phase, records_done=state.records_done,
                                         values_weighed=state.values_weighed, seconds_left=state.seconds_left,
                                         fit=state.fit):
                    state.stopped.set()
                    return
        finally:
            close(db)

    thread = threading.Thread(target=beat, name=f"fit-job-{job_id}-beat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


class Cancelled(Exception):
    """The job was cancelled (or taken from this worker) while it ran."""


def read_records(db: Any, job: dict[str, Any], state: State) -> tuple[list[Record], dict[str, int]]:
    """The job's records, a chunk at a time, and the stored record behind each source."""
    out: list[Record] = []
    ids: dict[str, int] = {}
    if job["source"] == "platform":
        selection = fit_jobs.Selection(**job["params"]["selection"])
        for chunk in fit_jobs.stored_chunks(db, selection):
            for record_id, raw in chunk:
                found = records_of(loads(raw), f"record {record_id}")
                ids.update((r.source, record_id) for r in found)
                out += found
            state.records_done = len(ids)
            if state.stopped.is_set():
                raise Cancelled
    else:
        for pairs in fit_jobs.uploaded_chunks(db, job["id"]):
            for source, doc in pairs:
                out += records_of(doc, source)
            state.records_done += len(pairs)
            if state.stopped.is_set():
                raise Cancelled
    return out, ids


def _group(client: str, played: str | None, period: str) -> tuple[str, str]:
    """What a sample is spread over: the client build and the period a record was played in."""
    if not played:
        return client, ""
    try:
        return client, period_start(played, period)
    except ValueError:
        return client, played


def read_sample(db: Any, job: dict[str, Any], state: State, size: int) -> tuple[list[Record], dict[str, int],
                                                                                  dict[str, Any]]:
    """A sample of `size` of the job's stored records, spread over every client build and period
    (`fit.sample`: the same selection gives the same sample), the stored record behind each source,
    and what the sample is (its size, a digest of its record ids, each group's records and share).
    Two walks over the selection's ids (groups counted, then taken), then the records taken."""
    selection = fit_jobs.Selection(**job["params"]["selection"])
    period = job["params"].get("period") or "week"
    counts: dict[tuple[str, str], int] = {}
    for chunk in fit_jobs.stored_keys(db, selection):
        for _, client, played in chunk:
            key = _group(client, played, period)
            counts[key] = counts.get(key, 0) + 1
    keyed = ((i, _group(client, played, period)) for chunk in fit_jobs.stored_keys(db, selection)
             for i, client, played in chunk)
    quota = quotas(counts, size)
    chosen = list(spread(keyed, counts, quota))
    summary = {"size": len(chosen), "period": period,
               "digest": hashlib.sha256(",".join(map(str, chosen)).encode("ascii")).hexdigest(),
               "groups": [{"client": c, "period": p, "records": n, "sampled": quota.get((c, p), 0)}
                          for (c, p), n in sorted(counts.items())]}
    out: list[Record] = []
    ids: dict[str, int] = {}
    for part in fit_jobs.stored_by_id(db, chosen):
        for record_id, raw in part:
            found = records_of(loads(raw), f"record {record_id}")
            ids.update((r.source, record_id) for r in found)
            out += found
        state.records_done += len(part)
        if state.stopped.is_set():
            raise Cancelled
    return out, ids, summary


def verify_all(db: Any, job: dict[str, Any], state: State, base: str, options: dict[str, Any],
               steps: int, listed_max: int = LISTED) -> dict[str, Any]:
    """Every record of the job's selection audited under `base` and under the fitted `options`, a
    chunk (`fit_jobs.CHUNK`) at a time: the counts, and the first `listed_max` records left
    unexplained with their stored ids. Runs here, in the worker, also with a Dask cluster."""
    selection = fit_jobs.Selection(**job["params"]["selection"])
    total = int(job["records_total"])
    check = Verification(base, options, listed_max)
    listed: dict[str, int] = {}
    started, done = time.monotonic(), 0
    state.phase, state.records_done = "verifying", 0
    for chunk in fit_jobs.stored_chunks(db, selection):
        for record_id, raw in chunk:
            for record in records_of(loads(raw), f"record {record_id}"):
                if check.add(record) and record.source in check.listed:
                    listed[record.source] = record_id
        done += len(chunk)
        elapsed = time.monotonic() - started
        rate = done / elapsed if elapsed > 0 else VERIFY_RATE
        state.records_done, state.seconds_left = done, max(total - done, 0) / rate
        state.fit = {"phase": "verifying", "records": total, "records_done": done,
                     "fraction": round(min(done / total, 1.0), 4) if total else 1.0, "taken": steps,
                     "values_weighed": 0, "values_estimate": 0, "piece": 1, "pieces": 1,
                     "clean": {"base": check.clean_base, "fitted": check.clean_fitted},
                     "unexplained": check.unexplained}
        if state.stopped.is_set():
            raise Cancelled
    state.fit = None
    return {**check.to_json(), "stored": done,
            "listed": [{"source": s, "record_id": listed[s]} for s in check.listed]}


@dataclass(frozen=True)
class Piece:
    """One fit of a job: the whole set (`cell` None) or one cell's records."""

    cell: Any
    records: list[Record]


def fit_piece(records: Sequence[Record], profile: str, name: str | None, min_gain: int, lang: str,
              progress: Callable[[Progress], None] | None = None) -> dict[str, Any]:
    """One fit, as a task (module-level, so Dask can ship it to a worker); `progress` is told how far
    it has come (only here: a task on the cluster gets none)."""
    return fit_records([(r.source, r.doc) for r in records], profile=profile, name=name, min_gain=min_gain, lang=lang,
                       progress=progress)


def run_pieces(pieces: Sequence[Piece], fit_one: Callable[[Piece], dict[str, Any]], client: Any,
               args: tuple[Any, ...], on_done: Callable[[Piece, dict[str, Any]], None], state: State) -> None:
    """Every piece's fit: on the cluster of `client` in parallel, else here one after the other."""
    if client is None:
        for piece in pieces:
            if state.stopped.is_set():
                raise Cancelled
            on_done(piece, fit_one(piece))
        return
    from distributed import as_completed

    futures = {client.submit(fit_piece, piece.records, *args, pure=False): piece for piece in pieces}
    try:
        for future in as_completed(list(futures)):
            on_done(futures[future], future.result())
            if state.stopped.is_set():
                raise Cancelled
    finally:
        for future in futures:
            future.cancel()


@dataclass
class Estimate:
    """The time left: records still to fit over the rate measured, the fit running here counted done
    by the share its progress says (`Progress.fraction`); PRIOR_RATE until anything is done."""

    to_fit: int
    started: float = field(default_factory=time.monotonic)
    fitted: int = 0
    """Records of the fits finished."""
    after: float = 0.0
    """Seconds of work after the fits (a sampled job's verification of every record)."""

    def left(self, running: int = 0, fraction: float = 0.0) -> float:
        """Seconds left, with a fit of `running` records `fraction` done."""
        elapsed = time.monotonic() - self.started
        done = self.fitted + running * fraction
        rate = done / elapsed if done > 0 and elapsed > 0 else PRIOR_RATE
        return max(self.to_fit - done, 0) / rate + self.after


def run_job(path: str, job: dict[str, Any], owner: str, *, client: Any = None, beat_s: float = BEAT_S) -> None:
    """Run one claimed job to its end: done with its result, failed with a code, or dropped when it
    was cancelled meanwhile (nothing written then)."""
    state = State()
    db = connect(path)
    try:
        with heartbeat(path, job["id"], owner, state, beat_s):
            try:
                result, weighed = _run(db, job, state, client)
            except Cancelled:
                return
            except ProfileError as exc:
                fit_jobs.fail(db, job["id"], owner, PROFILE, {"profile": job["params"].get("profile"),
                                                              "problem": str(exc)})
                return
            except Exception as exc:  # noqa: BLE001  (whatever stopped the fit is the job's error)
                fit_jobs.fail(db, job["id"], owner, ERROR, {"error": f"{type(exc).__name__}: {exc}"})
                return
        fit_jobs.finish(db, job["id"], owner, result, records_done=state.records_done, values_weighed=weighed)
    finally:
        close(db)


def _run(db: Any, job: dict[str, Any], state: State, client: Any) -> tuple[dict[str, Any], int]:
    params = job["params"]
    started = time.monotonic()
    sample = int(params.get("sample") or 0) if job["source"] == "platform" else 0
    sampled: dict[str, Any] = {}
    if sample:
        records, ids, sampled = read_sample(db, job, state, sample)
    else:
        records, ids = read_records(db, job, state)
    by, period = params.get("by"), params.get("period") or "week"
    cells = split(records, by_client="client" in (by or ""), period=period if "period" in (by or "") else None) \
        if by else {}
    pieces = [Piece(None, records)] + [Piece(cell, members) for cell, members in cells.items()
                                       if len(members) >= MIN_CELL]
    args = (params.get("profile") or "weile", params.get("name"), int(params.get("min_gain") or 1),
            params.get("lang") or "zh")
    estimate = Estimate(sum(len(p.records) for p in pieces), after=int(job["records_total"]) / VERIFY_RATE
                        if sample else 0.0)
    state.phase, state.seconds_left = "fitting", estimate.left()
    found: dict[Any, dict[str, Any]] = {}

    weighed_before = 0  # values weighed by the fits finished

    def done(piece: Piece, result: dict[str, Any]) -> None:
        nonlocal weighed_before
        found[piece.cell] = result
        estimate.fitted += len(piece.records)
        weighed_before += int(result.get("search", {}).get("pairs", 0))
        state.values_weighed, state.fit = weighed_before, None
        state.seconds_left = estimate.left()

    def fit_here(piece: Piece) -> dict[str, Any]:
        number = next(i for i, p in enumerate(pieces, 1) if p is piece)

        def told(prog: Progress) -> None:  # the fit's own thread: the heartbeat writes what it sets
            state.fit = {**prog.to_json(), "piece": number, "pieces": len(pieces)}
            state.values_weighed = weighed_before + prog.values_weighed
            state.seconds_left = estimate.left(len(piece.records), prog.fraction)

        return fit_piece(piece.records, *args, progress=told)

    run_pieces(pieces, fit_here, client, args, done, state)
    whole = found[None]
    cell_fits = [CellFit(p.cell, len(p.records), *dates(p.records), found[p.cell]) for p in pieces[1:]]
    listed = {u["source"] for u in whole["unexplained"] + whole["invalid"]}
    result = {"fit": whole, "by": by, "period": period if by and "period" in by else None,
              "cells": [c.to_json() for c in cell_fits],
              "changes": [{**c.to_json(args[3]), "texts": {lang.value: change_text(c, lang) for lang in Lang}}
                          for c in changes(cell_fits)],
              "record_ids": {s: i for s, i in ids.items() if s in listed},
              "engine": "dask" if client is not None else "in-process",
              "seconds": round(time.monotonic() - started, 1)}
    if sample:  # the search saw a sample: every record of the selection is audited under both profiles
        result["sample"] = {**sampled, "records": int(job["records_total"]),
                            "verified": verify_all(db, job, state, args[0], whole["options"], len(whole["steps"]))}
        result["seconds"] = round(time.monotonic() - started, 1)
    return result, state.values_weighed


def work(path: str | Path, *, owner: str | None = None, once: bool = False, stop: threading.Event | None = None,
         client: Any = None, scheduler: str | None = None, poll_s: float = POLL_S, stale_s: float = fit_jobs.STALE_S,
         beat_s: float = BEAT_S) -> int:
    """Take and run queued jobs until `stop` is set (or, with `once`, until none is queued); first,
    and between jobs, jobs left by a stopped process are recovered. The fits run on the cluster of
    `client`, or of the scheduler at `scheduler` (connected for each job, checked by
    `batch.preflight`), else in this process. The number of jobs run."""
    owner = owner or owner_name()
    stop = stop or threading.Event()
    ran = 0
    waiting_for_store = False
    db = connect(str(path))
    try:
        while not stop.is_set():
            try:
                recover_left(db, stale_s)
                job = fit_jobs.claim(db, owner)
            except sqlite3.OperationalError as exc:  # a store not created yet, or busy past its timeout
                if once:
                    raise
                if not waiting_for_store:  # said once, not every poll: the thread waits for the store
                    logging.getLogger(__name__).warning("fit worker: the store cannot give jobs yet (%s); "
                                                        "waiting for it", exc)
                waiting_for_store = True
                stop.wait(poll_s)
                continue
            waiting_for_store = False
            if job is None:
                if once:
                    break
                stop.wait(poll_s)
                continue
            if client is None and scheduler:
                _on_cluster(str(path), job, owner, scheduler, beat_s)
            else:
                run_job(str(path), job, owner, client=client, beat_s=beat_s)
            ran += 1
    finally:
        close(db)
    return ran


def _on_cluster(path: str, job: dict[str, Any], owner: str, scheduler: str, beat_s: float) -> None:
    """One job on the cluster at `scheduler`; a cluster that cannot be reached or runs another
    engine fails the job (`fit_job_cluster`): the operator configured it, so it is not bypassed."""
    from batch import preflight
    from batch.runner import SchedulerError, check_address, cluster

    try:
        check_address(scheduler)
        with cluster(None, scheduler) as client:
            preflight.check(client)
            run_job(path, job, owner, client=client, beat_s=beat_s)
    except (SchedulerError, preflight.ClusterMismatch, OSError) as exc:
        db = connect(path)
        try:
            fit_jobs.fail(db, job["id"], owner, CLUSTER, {"scheduler": scheduler, "error": str(exc)})
        finally:
            close(db)


def recover_left(db: Any, stale_s: float = fit_jobs.STALE_S) -> list[int]:
    """Jobs whose worker stopped: those of a dead process of this host at once, others when stale."""
    running = db.execute("SELECT id, owner FROM fit_jobs WHERE status = ?", [fit_jobs.Status.RUNNING.value]).fetchall()
    dead = [int(job_id) for job_id, owner in running if dead_here(owner)]
    return fit_jobs.recover(db, stale_s=stale_s, only=dead) + fit_jobs.recover(db, stale_s=stale_s)


__all__ = ["BEAT_S", "CLUSTER", "ERROR", "MIN_CELL", "POLL_S", "PROFILE", "dead_here", "owner_name", "recover_left",
           "run_job", "work"]
