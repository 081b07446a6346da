"""Safe what-if and re-audit (not a blueprint): options checked before the engine runs, and a
stored re-audit only with a confirmation and a reason (issue 11).

`check_options` answers a 400 naming the option's JSON path, what is wrong with it (in the
asker's language) and the parameters the profile knows (`audit.option_check`), so neither a
what-if nor a re-audit ever runs on a typo. The page flow of "store this audit as the
latest" is: the form posts without `confirm` -> a confirmation page showing the audit that
would be stored beside the stored one, asking for a reason -> the post with `confirm=yes`
and the reason stores it, the reason in the trail. The JSON API takes an optional
`reason` (scripts re-audit after an engine upgrade; an API call is its own confirmation).
"""
from __future__ import annotations

from typing import Any

from audit.api import OptionProblem, check_what_if
from audit.vocabulary import Lang, render_finding
from records.pipeline import OptionsRefused
from web.db import get_store
from web.errors import ApiError, error_text, fail, field_name

REASON_LIMIT = 1000
"""Longest reason for storing a re-audit, in characters."""


def option_problem(record_id: int, profile: str | None, options: Any) -> OptionProblem | None:
    """What is wrong with these options for this record (None when the engine takes them); the
    caller has found the record (and checked the asker may see it)."""
    return check_what_if(get_store().document(record_id), profile, options)


def option_error(problem: OptionProblem, lang: Lang) -> ApiError:
    """The 400 of a refused option: its path and message, and every known parameter."""
    message = problem.message(lang)
    text = error_text("option_refused", lang, path=problem.path, field=field_name(problem.path, lang), message=message,
                      problem=problem.code, known=", ".join(problem.known), count=len(problem.known))
    return ApiError(400, text, {problem.path: [message], "known": list(problem.known)}, error_code="option_refused")


def check_options(record_id: int, profile: str | None, options: Any, lang: Lang) -> None:
    """400 (see `option_error`) unless the engine will accept the options for this record."""
    problem = option_problem(record_id, profile, options)
    if problem is not None:
        raise option_error(problem, lang)


def refused_error(exc: OptionsRefused, lang: Lang) -> ApiError:
    """The pipeline's own refusal (the options made the audit invalid): 422, nothing stored; the
    engine's finding worded in `lang` (it names the option's path first)."""
    problem = render_finding(exc.finding, lang)
    return fail(422, "options_invalidate", {exc.path: [problem]}, problem=problem)


def checked_reason(text: str | None) -> str | None:
    """The reason cleaned up; None when empty; 400 when too long."""
    reason = (text or "").strip()
    if len(reason) > REASON_LIMIT:
        raise fail(400, "too_long", field="reason", limit=REASON_LIMIT)
    return reason or None
