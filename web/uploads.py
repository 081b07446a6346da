"""An upload's result lines as the service shows them: counted, totalled, worded in a language.

The lines themselves, and their receipts, are made by the pipeline (`records.pipeline`:
`Pipeline.upload_files`), which the API, the form and `flask load-samples` all call. A line is a
plain dict in the shape of `HandResultSchema`. No Flask here.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from audit.vocabulary import Lang
from records import problem_words
from records.receipts import ACCEPTED, STATUSES


def summarize(results: Iterable[dict[str, Any]]) -> dict[str, int]:
    """How many result lines ended in each status, plus the total."""
    counts = dict.fromkeys(("hands",) + STATUSES, 0)
    for result in results:
        counts["hands"] += 1
        counts[result["status"]] += 1
    return counts


def upload_status(results: list[dict[str, Any]]) -> int:
    """201 when something new is stored, 200 for only duplicates, 207 mixed, 422 when nothing is good,
    202 when everything was stored but the engine failed on some (kept, flagged, not yet audited)."""
    good = [result for result in results if result["status"] in ACCEPTED]
    if not good:
        return 422
    if len(good) < len(results):
        return 207
    if any(result["verdict"] is None for result in good):
        return 202
    return 201 if any(result["status"] != "duplicate" for result in good) else 200


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
