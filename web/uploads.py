"""From an uploaded file to one result line per hand: shared by the API, the form and the CLI.

No Flask here, so `flask load-samples` and the benchmark use exactly what the
API uses. A result is a plain dict in the shape of `HandResultSchema`.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from audit.catalogue import Lang
from records import problem_words, receipts
from records.ingest import Batch, Limits, Problem, Unit, Validators, read_upload
from records.pipeline import Pipeline
from records.rows import now
from records.store import Store, Stored, origin_fields, problem_error, stored_line

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
    all files are stored together (`Pipeline.upload_isolating`: one transaction per batch of units,
    not per record), and the receipt of every line is written in the transaction of the batch
    its unit belongs to (a refused line: the transaction of the next batch, or of the last), so
    that a kill at any point leaves no stored record without the receipt of the submission that
    created it, and no receipt of a record that is not there (issue 22.5)."""
    units = [unit for batch in batches if batch.refused is None for unit in batch.units]
    slots = _slots(batches)
    results: list[dict[str, Any]] = []
    written = 0

    def receipt(start: int, done: list[list[Stored] | str]) -> None:
        """Inside a batch's transaction: its lines, and the refused lines before the next batch's."""
        nonlocal written
        end = start + len(done)
        lines: list[dict[str, Any]] = []
        while written < len(slots):
            slot = slots[written]
            if isinstance(slot, int):
                if slot >= end:
                    break
                lines += _unit_lines(units[slot], done[slot - start])
            else:
                lines.append(slot)
            written += 1
        keep_receipts(pipeline.store, lines, uploader=uploader, actor=actor)
        results.extend(lines)

    if units:
        pipeline.upload_isolating(units, uploader=uploader, actor=actor, receipt=receipt)
    else:
        receipt(0, [])
    return results


def keep_receipts(store: Store, results: list[dict[str, Any]], *, uploader: str | None,
                  actor: str | None) -> None:
    """A receipt for every result line, accepted or not (`records.receipts`), in one transaction,
    or in the caller's (`store_batches`: the transaction that stores what the lines describe)."""
    if results:
        with store.atomic():
            receipts.add(store.db, results, uploader=uploader, actor=actor or uploader, at=now(), key=store.trail_key)


Slot = dict[str, Any] | int
"""A result line in file order: finished (a refused item), or the index of the unit whose stored
hands make its lines."""


def _slots(batches: list[Batch]) -> list[Slot]:
    """Every file's lines in order, a unit standing for the lines of its hands (a list per file,
    so that the problems of two files never merge into one line)."""
    slots: list[Slot] = []
    index = 0
    for batch in batches:
        if batch.refused is not None:
            slots.append(_problem_result(batch.refused))
            continue
        first = len(slots)
        for item in batch.items:
            if isinstance(item, Problem):
                _add_problem(slots, item, first)
            else:
                slots.append(index)
                index += 1
    return slots


def _unit_lines(unit: Unit, items: list[Stored] | str) -> list[dict[str, Any]]:
    """The lines of one unit's hands: stored, or all refused by the store."""
    if isinstance(items, str):
        return [_problem_result(Problem(hand.origin, "store", items, problem="store_failed", params={"error": items}))
                for hand in unit.hands]
    return [stored_line(stored) for stored in items]


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
    return {**origin_fields(problem.origin), "status": status, "record_id": None, "game_id": problem.game_id,
            "platform": None, "revision": None, "verdict": None, "sha256": problem.sha256,
            "errors": [problem_error(problem)]}


def _add_problem(slots: list[Slot], problem: Problem, first: int) -> None:
    """Several errors of one item (every bad schema path) go on one result line (never merged
    into a line of an earlier file: `first` is where this file's lines start)."""
    last = slots[-1] if len(slots) > first else None
    if isinstance(last, dict) and last["status"] == "rejected" and last["source"] == problem.origin.label():
        last["errors"].append(problem_error(problem))
    else:
        slots.append(_problem_result(problem))
