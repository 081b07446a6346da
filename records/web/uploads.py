"""From an uploaded file to one result line per hand: shared by the API, the form and the CLI.

No Flask here, so `flask load-samples` and the benchmark use exactly what the
API uses. A result is a plain dict in the shape of `HandResultSchema`.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from records.ingest import Batch, Limits, Origin, Problem, Unit, Validators, read_upload
from records.storage import AuditFailed, Store, Stored

OK_STATUSES = ("created", "revision", "duplicate")
"""Statuses of a hand that is stored (now or before)."""
STATUSES = OK_STATUSES + ("rejected", "skipped")
"""Every status a result line can have."""


def process_upload(store: Store, filename: str, data: bytes, *, uploader: str | None,
                   limits: Limits | None = None, validators: Validators | None = None,
                   actor: str | None = None) -> list[dict[str, Any]]:
    """Read, audit and store one file; one result per hand or bad item, in file order."""
    batch = read_upload(filename, data, limits=limits, validators=validators)
    return store_batch(store, batch, uploader=uploader, actor=actor)


def store_batch(store: Store, batch: Batch, *, uploader: str | None, actor: str | None = None) -> list[dict[str, Any]]:
    """Store what was read; a batch over the record cap stores nothing and says why."""
    if batch.refused is not None:
        return [_problem_result(batch.refused)]
    results: list[dict[str, Any]] = []
    for item in batch.items:
        if isinstance(item, Problem):
            _add_problem(results, item)
        else:
            results.extend(_store(store, item, uploader, actor))
    return results


def summarize(results: Iterable[dict[str, Any]]) -> dict[str, int]:
    """How many result lines ended in each status, plus the total."""
    counts = dict.fromkeys(("hands",) + STATUSES, 0)
    for result in results:
        counts["hands"] += 1
        counts[result["status"]] += 1
    return counts


def _store(store: Store, unit: Unit, uploader: str | None, actor: str | None) -> list[dict[str, Any]]:
    """Store a unit; if the engine fails, its hands are kept with an `engine` error and no verdict."""
    try:
        return [_stored_result(stored) for stored in store.store_unit(unit, uploader=uploader, actor=actor)]
    except AuditFailed as exc:
        problems = [Problem(hand.origin, "engine", str(exc)) for hand in unit.hands]
        return [_problem_result(problem) for problem in problems]


def _base(origin: Origin) -> dict[str, Any]:
    """The fields that say where a result line comes from."""
    return {"source": origin.label(), "file": origin.file, "member": origin.member, "line": origin.line,
            "hand": origin.hand}


def _stored_result(stored: Stored) -> dict[str, Any]:
    """A hand that is in the store."""
    errors = [] if stored.audit_error is None else [_error(Problem(
        stored.hand.origin, "engine", f"stored, but not audited: {stored.audit_error}"))]
    return {**_base(stored.hand.origin), "status": stored.status, "record_id": stored.record_id,
            "game_id": stored.game_id, "platform": stored.platform, "revision": stored.revision,
            "verdict": stored.verdict, "errors": errors}


def _error(problem: Problem) -> dict[str, Any]:
    """One problem as the API shows it; `message` already names the place."""
    return {"code": problem.code, "message": problem.describe(), "path": problem.path, "rule": problem.rule,
            "line": problem.line, "column": problem.column}


def _problem_result(problem: Problem) -> dict[str, Any]:
    """A bad item: rejected, or skipped when it was never meant to be a record."""
    status = "skipped" if problem.code == "junk" else "rejected"
    return {**_base(problem.origin), "status": status, "record_id": None, "game_id": None, "platform": None,
            "revision": None, "verdict": None, "errors": [_error(problem)]}


def _add_problem(results: list[dict[str, Any]], problem: Problem) -> None:
    """Several errors of one item (every bad schema path) go on one result line."""
    last = results[-1] if results else None
    if last is not None and last["status"] == "rejected" and last["source"] == problem.origin.label():
        last["errors"].append(_error(problem))
    else:
        results.append(_problem_result(problem))
