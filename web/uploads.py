"""From an uploaded file to one result line per hand: shared by the API, the form and the CLI.

No Flask here, so `flask load-samples` and the benchmark use exactly what the
API uses. A result is a plain dict in the shape of `HandResultSchema`.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from audit.catalogue import Lang
from records import problem_words, receipts
from records.ingest import Batch, Limits, Origin, Problem, Unit, Validators, read_upload
from records.pipeline import AuditFailed, Pipeline
from records.rows import now
from records.store import Store, Stored

OK_STATUSES = ("created", "revision", "duplicate")
"""Statuses of a hand that is stored (now or before)."""
STATUSES = OK_STATUSES + ("rejected", "skipped")
"""Every status a result line can have."""


def process_upload(pipeline: Pipeline, filename: str, data: bytes, *, uploader: str | None,
                   limits: Limits | None = None, validators: Validators | None = None,
                   actor: str | None = None) -> list[dict[str, Any]]:
    """Read, audit and store one file; one result per hand or bad item, in file order."""
    batch = read_upload(filename, data, limits=limits, validators=validators)
    return store_batch(pipeline, batch, uploader=uploader, actor=actor)


def store_batch(pipeline: Pipeline, batch: Batch, *, uploader: str | None, actor: str | None = None) -> list[dict[str, Any]]:
    """Store what was read; a batch over the record cap stores nothing and says why."""
    return store_batches(pipeline, [batch], uploader=uploader, actor=actor)


def store_batches(pipeline: Pipeline, batches: list[Batch], *, uploader: str | None,
                  actor: str | None = None) -> list[dict[str, Any]]:
    """Store what was read from every file of a request; result lines in file order. The units of
    all files are stored together (`Pipeline.upload`: a few transactions per request, not two
    per record, which cost about 1 ms per record)."""
    units = [unit for batch in batches if batch.refused is None for unit in batch.units]
    stored = iter(_store(pipeline, units, uploader, actor))
    results: list[dict[str, Any]] = []
    for batch in batches:
        results += [_problem_result(batch.refused)] if batch.refused is not None else _lines(batch, stored)
    keep_receipts(pipeline.store, results, uploader=uploader, actor=actor)
    return results


def keep_receipts(store: Store, results: list[dict[str, Any]], *, uploader: str | None,
                  actor: str | None) -> None:
    """A receipt for every result line, accepted or not, in one transaction after the upload
    (`records.receipts`): the store already holds what was accepted, this says what was sent."""
    if results:
        with store.atomic():
            receipts.add(store.db, results, uploader=uploader, actor=actor or uploader, at=now(), key=store.trail_key)


def _lines(batch: Batch, stored: Iterator[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """One file's result lines, its units' taken in order from `stored` (a list per file, so that
    the problems of two files never merge into one line)."""
    lines: list[dict[str, Any]] = []
    for item in batch.items:
        if isinstance(item, Problem):
            _add_problem(lines, item)
        else:
            lines.extend(next(stored))
    return lines


def summarize(results: Iterable[dict[str, Any]]) -> dict[str, int]:
    """How many result lines ended in each status, plus the total."""
    counts = dict.fromkeys(("hands",) + STATUSES, 0)
    for result in results:
        counts["hands"] += 1
        counts[result["status"]] += 1
    return counts


TOTALS = ("created", "revision", "duplicate", "rejected", "skipped", "failed")
"""The upload page's totals line, in order (static/upload.js counts the same way)."""


def totals(results: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Result lines per outcome as the upload page counts them: a hand stored but not audited
    (the engine failed on it) is `failed`, not created; a duplicate is never counted as saved."""
    counts = dict.fromkeys(TOTALS, 0)
    for result in results:
        status = result["status"]
        if status in ("created", "revision") and result.get("verdict") is None:
            status = "failed"
        counts[status if status in counts else "rejected"] += 1
    return counts


def _store(pipeline: Pipeline, units: list[Unit], uploader: str | None, actor: str | None) -> list[list[dict[str, Any]]]:
    """Store the units, one list of result lines per unit. A failing engine does not raise (its hands
    are kept, flagged, with an `engine` error); should the store still raise AuditFailed, every hand
    gets that error."""
    if not units:
        return []
    try:
        outcomes = pipeline.upload_isolating(units, uploader=uploader, actor=actor)
        return [[_problem_result(Problem(hand.origin, "store", items, problem="store_failed", params={"error": items}))
                 for hand in unit.hands]
                if isinstance(items, str) else [_stored_result(stored) for stored in items]
                for unit, items in zip(units, outcomes)]
    except AuditFailed as exc:
        return [[_problem_result(Problem(hand.origin, "engine", str(exc), problem="store_failed",
                                         params={"error": str(exc)})) for hand in unit.hands] for unit in units]


def _base(origin: Origin) -> dict[str, Any]:
    """The fields that say where a result line comes from."""
    return {"source": origin.label(), "file": origin.file, "member": origin.member, "line": origin.line,
            "hand": origin.hand}


def _stored_result(stored: Stored) -> dict[str, Any]:
    """A hand that is in the store."""
    errors = [] if stored.audit_error is None else [_error(Problem(
        stored.hand.origin, "engine", f"stored, but not audited: {stored.audit_error}", problem="not_audited",
        params={"error": stored.audit_error}))]
    return {**_base(stored.hand.origin), "status": stored.status, "record_id": stored.record_id,
            "game_id": stored.game_id, "platform": stored.platform, "revision": stored.revision,
            "verdict": stored.verdict, "sha256": stored.hand.sha256, "errors": errors}


def _error(problem: Problem) -> dict[str, Any]:
    """One problem as the API shows it; `message` already names the place (in English until
    `localized` renders it in the request's language from `problem` and `params`)."""
    return {"code": problem.code, "message": problem.describe(), "path": problem.path, "rule": problem.rule,
            "line": problem.line, "column": problem.column, "problem": problem.problem or None,
            "params": dict(problem.params)}


def localized(results: list[dict[str, Any]], lang: Lang | str) -> list[dict[str, Any]]:
    """Result lines whose error messages speak `lang`, the place kept exactly (`records.problem_words`)."""
    return [{**result, "errors": [localized_error(result["source"], error, lang) for error in result["errors"]]}
            for result in results]


def localized_error(source: str, error: dict[str, Any], lang: Lang | str) -> dict[str, Any]:
    """One error of a result line (or a receipt) in `lang`; one without a problem code keeps its message.
    `text` is what is wrong without the place, for a page that shows the place beside it."""
    if not error.get("problem"):
        return error
    params = error.get("params") or {}
    message = problem_words.describe(source, error["problem"], params, lang, line=error.get("line"),
                                     column=error.get("column"), path=error.get("path"), fallback=error["message"])
    return {**error, "message": message, "text": problem_words.message(error["problem"], params, lang, error["message"])}


def _problem_result(problem: Problem) -> dict[str, Any]:
    """A bad item: rejected, or skipped when it was never meant to be a record."""
    status = "skipped" if problem.code == "junk" else "rejected"
    return {**_base(problem.origin), "status": status, "record_id": None, "game_id": problem.game_id,
            "platform": None, "revision": None, "verdict": None, "sha256": problem.sha256,
            "errors": [_error(problem)]}


def _add_problem(results: list[dict[str, Any]], problem: Problem) -> None:
    """Several errors of one item (every bad schema path) go on one result line."""
    last = results[-1] if results else None
    if last is not None and last["status"] == "rejected" and last["source"] == problem.origin.label():
        last["errors"].append(_error(problem))
    else:
        results.append(_problem_result(problem))
