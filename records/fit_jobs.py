"""Fit jobs (issue 36.2, docs/fit.md): a fit of a platform's stored records, or of uploaded files,
run in the background, its progress and its result kept in the store. No Flask.

A job is a row of `fit_jobs`; its state moves only by the functions here, each one transaction
(`records.db.atomic`) whose UPDATE names the state it leaves, so two workers never take the same
job and a cancelled job is never marked done:

    queued -> running -> done | failed | cancelled
    queued -> cancelled;  running -> queued (recovered: its worker stopped beating)

The worker (`batch.fit_job`) writes its progress (records read, values weighed, the phase, the time
left, and inside a fit its phase, the values weighed of an estimate and the values taken,
`progress_json`) every few seconds while it runs, which is also its heartbeat: a job found `running` whose
`updated_at` is older than `STALE_S` was left by a process that stopped (a restart, a kill), and
`recover` puts it back in the queue, from the start (a fit is one computation: there is nothing
half-done to resume), at most `MAX_ATTEMPTS` times, then marks it failed (`fit_job_abandoned`).
Nothing is ever left running for ever. Uploaded records are kept with their job
(`fit_job_inputs`), written in the same transaction as the job: a job exists with all its records
or not at all. The result is written whole in the transaction that marks the job done.
"""
from __future__ import annotations

import datetime
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from sqlite_utils import Database

from audit.api import loads
from records.db import atomic
from records.queries import RecordQuery, where_filters
from records.rows import now


class Status(str, Enum):
    """Where a job is."""

    QUEUED = "queued"
    """Waiting for a worker."""
    RUNNING = "running"
    """A worker has it and beats (`updated_at`) while it runs."""
    DONE = "done"
    """Finished; `result_json` holds the fit."""
    FAILED = "failed"
    """Stopped with `error_code` (and `error_params_json`); nothing of a result is kept."""
    CANCELLED = "cancelled"
    """Stopped at someone's request; a worker that still runs it drops what it finds."""


FINAL: Final = frozenset({Status.DONE, Status.FAILED, Status.CANCELLED})
STALE_S: Final = 120
"""Seconds without a heartbeat after which a running job is taken for abandoned. A worker beats
every `batch.fit_job.BEAT_S` seconds (a thread of its own, so a long fit still beats)."""
MAX_ATTEMPTS: Final = 3
"""Times a job is started; a job abandoned that often fails (`fit_job_abandoned`) rather than take
down every worker that tries it."""
SOURCES: Final = ("platform", "upload")
NO_RECORDS: Final = "fit_no_records"
"""Code of the refusal of a job that would fit no record (web/errors.toml words it)."""
ABANDONED: Final = "fit_job_abandoned"
TOO_MANY: Final = "fit_job_too_many"
KB_PER_RECORD: Final = 150
"""Memory one fit takes per record, in kB: the whole process's peak RSS over its records at 5,000
records of the planted benchmark (149 kB; plain Python, the records parsed first), rounded up. It
counts the process's fixed part too, and each record past 2,000 added only 102 kB, so a large job
takes less than this says (docs/decisions.md 36.2c). The store is read a chunk
at a time, but the fit weighs every record at once (its document, its replayed table, its answers
under every value tried on it), so a job's memory grows with its records."""
MEMORY_MB: Final = 4096
"""Memory one job's fit may take, by default (the service's `FIT_JOB_MEMORY_MB`)."""


def cap_for(memory_mb: int) -> int:
    """The most records a fit holds in `memory_mb` MB (KB_PER_RECORD each)."""
    return max(memory_mb, 0) * 1024 // KB_PER_RECORD


MAX_RECORDS: Final = cap_for(MEMORY_MB)
"""Records one job fits, by default: what MEMORY_MB holds. The service's `FIT_JOB_MAX_RECORDS`
sets the cap outright; else `FIT_JOB_MEMORY_MB` derives it."""
CHUNK: Final = 500
"""Records read from the store at a time (`stored_chunks`)."""


class NoRecords(ValueError):
    """A job would fit no record: refused before anything is written."""

    code = NO_RECORDS

    def __init__(self, params: dict[str, Any]) -> None:
        super().__init__(f"no record to fit: {params}")
        self.params = params


class TooMany(ValueError):
    """An upload job would fit more records than one fit holds in memory (`create`'s `max_records`);
    a job of stored records is never refused for its number: past the cap its search runs on a
    sample and every record is verified after (`batch.fit_job`, docs/decisions.md 36.2c)."""

    code = TOO_MANY

    def __init__(self, count: int, cap: int) -> None:
        super().__init__(f"{count} records: a fit job reads at most {cap} (about {KB_PER_RECORD} kB each in memory)")
        self.params = {"count": count, "cap": cap, "kb": KB_PER_RECORD}


class NotAllowed(ValueError):
    """A state change the job's state does not allow (cancel a finished job)."""


def install(db: Database) -> None:
    """The two tables (migration m013_fit_jobs)."""
    db.table("fit_jobs").create({
        "id": int, "source": str, "platform": str, "params_json": str, "status": str, "phase": str,
        "records_done": int, "records_total": int, "values_weighed": int, "seconds_left": float,
        "attempts": int, "owner": str, "requested_by": str, "created_at": str, "started_at": str,
        "updated_at": str, "finished_at": str, "result_json": str, "error_code": str, "error_params_json": str,
    }, pk="id", not_null={"source", "params_json", "status", "records_total", "created_at", "updated_at"},
        defaults={"records_done": 0, "values_weighed": 0, "attempts": 0})
    db.execute("CREATE INDEX fit_jobs_status ON fit_jobs (status, id)")
    db.table("fit_job_inputs").create({"job_id": int, "seq": int, "source": str, "doc_json": str},
                                      pk=("job_id", "seq"), foreign_keys=[("job_id", "fit_jobs", "id")])


def install_progress(db: Database) -> None:
    """The progress inside the fit a running job is at (migration m014_fit_job_progress):
    `progress_json`, `fit.search.Progress.to_json` with the fit's place among the job's fits
    (`piece`, `pieces`); NULL when no fit is running."""
    db.table("fit_jobs").add_column("progress_json", str)


@dataclass(frozen=True)
class Selection:
    """Which stored records a job fits: a platform's current revisions, by client prefix and dates."""

    platform: str
    client: str | None = None
    date_from: str | None = None
    date_to: str | None = None

    def where(self) -> tuple[str, list[Any]]:
        query = RecordQuery(platform=self.platform, client=self.client, date_from=self.date_from,
                            date_to=self.date_to)
        clauses, params = where_filters(query)
        return " AND ".join(clauses), params

    def to_json(self) -> dict[str, Any]:
        return {"platform": self.platform, "client": self.client, "date_from": self.date_from,
                "date_to": self.date_to}


def count_stored(db: Database, selection: Selection) -> int:
    """How many stored records the selection names."""
    where, params = selection.where()
    return int(db.execute(f"SELECT count(*) FROM records r WHERE {where}", params).fetchone()[0])


def stored_chunks(db: Database, selection: Selection, size: int = CHUNK) -> Iterator[list[tuple[int, bytes]]]:
    """The selection's (record id, bytes) `size` at a time, by id: a keyset walk, so each chunk is
    one short query and memory holds one chunk of bytes (the caller keeps what it parses)."""
    for rows in _by_id(db, "r.id, d.raw FROM records r JOIN documents d ON d.id = r.document_id", selection, size):
        yield [(int(i), bytes(raw)) for i, raw in rows]


def _by_id(db: Database, columns_from: str, selection: Selection, size: int) -> Iterator[list[Any]]:
    """`SELECT <columns_from>` over the selection, `size` rows at a time by record id (`r.id` first)."""
    where, params = selection.where()
    after = 0
    while True:
        rows = db.execute(f"SELECT {columns_from} WHERE {where} AND r.id > ? ORDER BY r.id LIMIT ?",
                          [*params, after, size]).fetchall()
        if not rows:
            return
        yield rows
        after = rows[-1][0]


def stored_keys(db: Database, selection: Selection, size: int = CHUNK) -> Iterator[list[tuple[int, str, str | None]]]:
    """The selection's (record id, client, played date) `size` at a time, by id (what a sample is
    spread over: `fit.sample`); no document is read."""
    for rows in _by_id(db, "r.id, r.client, r.played_date FROM records r", selection, size):
        yield [(int(i), (client or "").strip(), played) for i, client, played in rows]


def stored_by_id(db: Database, ids: Sequence[int], size: int = CHUNK) -> Iterator[list[tuple[int, bytes]]]:
    """The (record id, bytes) of the records `ids` names (in their order), `size` at a time."""
    for start in range(0, len(ids), size):
        part = list(ids[start:start + size])
        marks = ", ".join("?" * len(part))
        rows = dict(db.execute(f"SELECT r.id, d.raw FROM records r JOIN documents d ON d.id = r.document_id "
                               f"WHERE r.id IN ({marks})", part).fetchall())
        yield [(i, bytes(rows[i])) for i in part if i in rows]


def create(db: Database, *, params: dict[str, Any], selection: Selection | None = None,
           uploaded: Sequence[tuple[str, Any]] = (), requested_by: str | None = None,
           max_records: int = MAX_RECORDS) -> int:
    """Queue a job of the stored records `selection` names, or of the `uploaded` (source, document)
    pairs; its id. NoRecords when there is no record to fit, TooMany for an upload past
    `max_records`: nothing written either way. Stored records past `max_records` are a job whose
    search runs on a sample of `max_records` of them (`params["sample"]`), every record verified
    after (`batch.fit_job`)."""
    if selection is not None:
        total, source, platform = count_stored(db, selection), "platform", selection.platform
        params = {**params, "selection": selection.to_json()}
        if total > max_records:
            params["sample"] = max(max_records, 1)
    else:
        total, source, platform = len(uploaded), "upload", None
    if total == 0:
        raise NoRecords(selection.to_json() if selection is not None else {"source": "upload"})
    if selection is None and total > max_records:
        raise TooMany(total, max_records)
    stamp = now()
    with atomic(db):
        pk = db.table("fit_jobs").insert({
            "source": source, "platform": platform, "params_json": json.dumps(params, ensure_ascii=False),
            "status": Status.QUEUED.value, "phase": "queued", "records_done": 0, "records_total": total,
            "values_weighed": 0, "attempts": 0, "requested_by": requested_by, "created_at": stamp,
            "updated_at": stamp}).last_pk
        assert isinstance(pk, int)
        job_id = pk
        db.table("fit_job_inputs").insert_all(
            ({"job_id": job_id, "seq": i, "source": name, "doc_json": json.dumps(doc, ensure_ascii=False)}
             for i, (name, doc) in enumerate(uploaded)), batch_size=200)
    return job_id


def uploaded_chunks(db: Database, job_id: int, size: int = CHUNK) -> Iterator[list[tuple[str, Any]]]:
    """An upload job's (source, document) pairs, `size` at a time."""
    after = -1
    while True:
        rows = db.execute("SELECT seq, source, doc_json FROM fit_job_inputs WHERE job_id = ? AND seq > ? "
                          "ORDER BY seq LIMIT ?", [job_id, after, size]).fetchall()
        if not rows:
            return
        yield [(source, loads(doc)) for _, source, doc in rows]
        after = rows[-1][0]


def get(db: Database, job_id: int) -> dict[str, Any] | None:
    """A job's row with its JSON read (`params`, `result`, `error_params`), or None."""
    rows = list(db.query("SELECT * FROM fit_jobs WHERE id = ?", [job_id]))
    return _read(rows[0]) if rows else None


def listing(db: Database, limit: int = 50) -> list[dict[str, Any]]:
    """The newest jobs, without their results."""
    cols = ("id, source, platform, params_json, status, phase, records_done, records_total, values_weighed, "
            "seconds_left, progress_json, attempts, requested_by, created_at, started_at, updated_at, finished_at, error_code, "
            "error_params_json")
    return [_read(row) for row in db.query(f"SELECT {cols} FROM fit_jobs ORDER BY id DESC LIMIT ?", [limit])]


def _read(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    out["params"] = loads(out.pop("params_json") or "{}")
    out["result"] = loads(out.pop("result_json")) if out.get("result_json") else None
    out["error_params"] = loads(out.pop("error_params_json")) if out.get("error_params_json") else {}
    out["progress"] = loads(out.pop("progress_json")) if out.get("progress_json") else None
    return out


def _move(db: Database, job_id: int, leaving: Sequence[Status], **values: Any) -> bool:
    """Set `values` on the job if its status is one of `leaving`; whether it was."""
    values["updated_at"] = now()
    sets = ", ".join(f"{k} = ?" for k in values)
    marks = ", ".join("?" * len(leaving))
    with atomic(db):
        cursor = db.execute(f"UPDATE fit_jobs SET {sets} WHERE id = ? AND status IN ({marks})",
                            [*values.values(), job_id, *(s.value for s in leaving)])
        return cursor.rowcount == 1


def claim(db: Database, owner: str) -> dict[str, Any] | None:
    """Take the oldest queued job for `owner` (running, one more attempt), or None."""
    with atomic(db):
        row = db.execute("SELECT id FROM fit_jobs WHERE status = ? ORDER BY id LIMIT 1",
                         [Status.QUEUED.value]).fetchone()
        if row is None:
            return None
        stamp = now()
        db.execute("UPDATE fit_jobs SET status = ?, phase = 'reading', owner = ?, attempts = attempts + 1, "
                   "started_at = ?, updated_at = ?, records_done = 0, values_weighed = 0, seconds_left = NULL, "
                   "progress_json = NULL WHERE id = ?", [Status.RUNNING.value, owner, stamp, stamp, row[0]])
    return get(db, int(row[0]))


def progress(db: Database, job_id: int, owner: str, *, phase: str | None = None, records_done: int | None = None,
             values_weighed: int | None = None, seconds_left: float | None = None,
             fit: dict[str, Any] | None = None) -> bool:
    """The worker's progress and heartbeat (`fit`: where the running fit is, `progress_json`);
    False when the job is no longer this owner's running job (cancelled, or recovered and taken by
    another worker): the worker then stops."""
    values: dict[str, Any] = {k: v for k, v in {"phase": phase, "records_done": records_done,
                                                  "values_weighed": values_weighed}.items() if v is not None}
    values["seconds_left"] = seconds_left
    values["progress_json"] = json.dumps(fit, ensure_ascii=False) if fit is not None else None
    values["updated_at"] = now()
    sets = ", ".join(f"{k} = ?" for k in values)
    with atomic(db):
        cursor = db.execute(f"UPDATE fit_jobs SET {sets} WHERE id = ? AND status = ? AND owner = ?",
                            [*values.values(), job_id, Status.RUNNING.value, owner])
        return cursor.rowcount == 1


def finish(db: Database, job_id: int, owner: str, result: dict[str, Any], *, records_done: int,
           values_weighed: int) -> bool:
    """Keep the result and mark the job done, in one transaction; False (nothing written) when
    the job is no longer this owner's (cancelled meanwhile)."""
    with atomic(db):
        stamp = now()
        cursor = db.execute("UPDATE fit_jobs SET status = ?, phase = 'done', result_json = ?, records_done = ?, "
                            "values_weighed = ?, seconds_left = 0, progress_json = NULL, finished_at = ?, "
                            "updated_at = ? "
                            "WHERE id = ? AND status = ? AND owner = ?",
                            [Status.DONE.value, json.dumps(result, ensure_ascii=False), records_done, values_weighed,
                             stamp, stamp, job_id, Status.RUNNING.value, owner])
        if cursor.rowcount == 1:
            db.execute("DELETE FROM fit_job_inputs WHERE job_id = ?", [job_id])  # the result is what is kept
        return cursor.rowcount == 1


def fail(db: Database, job_id: int, owner: str | None, code: str, params: dict[str, Any] | None = None) -> bool:
    """Mark the job failed with `code` (words in web/errors.toml) and its params."""
    leaving = [Status.RUNNING] if owner is not None else [Status.RUNNING, Status.QUEUED]
    with atomic(db):
        stamp = now()
        owner_clause = " AND owner = ?" if owner is not None else ""
        marks = ", ".join("?" * len(leaving))
        cursor = db.execute(f"UPDATE fit_jobs SET status = ?, phase = 'failed', error_code = ?, error_params_json = ?, "
                            f"seconds_left = NULL, progress_json = NULL, finished_at = ?, updated_at = ? WHERE id = ? "
                            f"AND status IN ({marks}){owner_clause}",
                            [Status.FAILED.value, code, json.dumps(params or {}, ensure_ascii=False), stamp, stamp,
                             job_id, *(s.value for s in leaving), *([owner] if owner is not None else [])])
        return cursor.rowcount == 1


def cancel(db: Database, job_id: int) -> None:
    """Cancel a queued or running job; NotAllowed when it has finished already."""
    stamp = now()
    if not _move(db, job_id, [Status.QUEUED, Status.RUNNING], status=Status.CANCELLED.value, phase="cancelled",
                 seconds_left=None, progress_json=None, finished_at=stamp):
        raise NotAllowed(f"fit job {job_id} has finished: it cannot be cancelled")


def _stamp_before(seconds: float) -> str:
    moment = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=seconds)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def recover(db: Database, *, stale_s: float = STALE_S, max_attempts: int = MAX_ATTEMPTS,
            only: Sequence[int] | None = None) -> list[int]:
    """Jobs left running by a process that stopped (no heartbeat for `stale_s` seconds; or the
    running jobs `only` names, whatever their heartbeat: their process is known to be gone): back in
    the queue, or failed (`fit_job_abandoned`) after `max_attempts` starts. Their ids."""
    if only is not None and not only:
        return []
    with atomic(db):
        if only is None:
            rows = db.execute("SELECT id, attempts FROM fit_jobs WHERE status = ? AND updated_at < ?",
                              [Status.RUNNING.value, _stamp_before(stale_s)]).fetchall()
        else:
            marks = ", ".join("?" * len(only))
            rows = db.execute(f"SELECT id, attempts FROM fit_jobs WHERE status = ? AND id IN ({marks})",
                              [Status.RUNNING.value, *only]).fetchall()
        stamp = now()
        for job_id, attempts in rows:
            if attempts >= max_attempts:
                db.execute("UPDATE fit_jobs SET status = ?, phase = 'failed', error_code = ?, error_params_json = ?, "
                           "finished_at = ?, updated_at = ?, seconds_left = NULL, progress_json = NULL WHERE id = ?",
                           [Status.FAILED.value, ABANDONED, json.dumps({"attempts": attempts}), stamp, stamp, job_id])
            else:
                db.execute("UPDATE fit_jobs SET status = ?, phase = 'queued', owner = NULL, records_done = 0, "
                           "values_weighed = 0, seconds_left = NULL, progress_json = NULL, updated_at = ? WHERE id = ?",
                           [Status.QUEUED.value, stamp, job_id])
    return [int(r[0]) for r in rows]


__all__ = ["ABANDONED", "CHUNK", "FINAL", "KB_PER_RECORD", "MAX_ATTEMPTS", "MAX_RECORDS", "MEMORY_MB", "cap_for", "NO_RECORDS", "NoRecords", "NotAllowed", "SOURCES",
           "STALE_S", "Selection", "Status", "cancel", "claim", "count_stored", "create", "fail", "finish", "get",
           "install", "install_progress", "listing", "progress", "recover", "stored_by_id", "stored_chunks", "stored_keys", "TOO_MANY", "TooMany", "uploaded_chunks"]
