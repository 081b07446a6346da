"""What the PDF adds to the report's data (`web.report_model`): the evidence block of its first
page, the steps the hand draws as whole tables, and the events written beside each.

The PDF is handed to someone who was not at the table (a player who disputes a
payment, an arbiter), so its first page says what it is evidence of: which
bytes (the record's sha256), judged by which engine, in which audit, exported
when, and the case it is in with that case's decision.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from audit.vocabulary import StepView

@dataclass(frozen=True)
class Evidence:
    """The first page's facts about the document itself."""

    engine_version: str | None
    audit_id: int | None
    audited_at: str | None
    exported_at: str
    sha256: str
    case_number: str | None
    decision: str | None
    decided_at: str | None


OUTCOME_WORDS = {"upheld": "complaint upheld", "partly_upheld": "complaint partly upheld",
                 "dismissed": "complaint dismissed", "withdrawn": "complaint withdrawn"}
"""A case decision's outcome as the message id the case pages word it with (templates/cases/_macros.html)."""


def evidence(detail: dict[str, Any], case: dict[str, Any] | None, notes: Sequence[dict[str, Any]],
             exported_at: str) -> Evidence:
    """The evidence block of a record's PDF: its latest audit, its sha256, the export time; the
    newest case the record is attached to, with the outcome of its standing decision (or its status
    while undecided) and when it was decided: one status, the case's (issue 33.5). A record in no
    case names the case number its latest note gives, if any, with no decision (a note's old label
    is not one)."""
    latest = detail["audits"][-1] if detail.get("audits") else None
    if case is not None:
        decision = OUTCOME_WORDS.get(case["outcome"], case["status"]) if case["outcome"] else case["status"]
        case_number, decided_at = case["number"], case["decided_at"]
    else:
        case_number = next((note["case_number"] for note in reversed(notes) if note.get("case_number")), None)
        decision, decided_at = None, None
    return Evidence(engine_version=latest["engine_version"] if latest else None,
                    audit_id=latest["id"] if latest else None,
                    audited_at=latest["created_at"] if latest else None,
                    exported_at=exported_at, sha256=detail["sha256"], case_number=case_number,
                    decision=decision, decided_at=decided_at)


def drawn_steps(steps: Sequence[StepView], keys: frozenset[int]) -> frozenset[int]:
    """Indexes of the steps the compact hand draws as whole tables: the report's key steps
    (`web.report_model.key_steps`: claims, kongs, declarations, wins, locks, findings ...), the
    deal and the last step (how the hand began and how it ended)."""
    ends = {steps[0].index, steps[-1].index} if steps else set()
    return frozenset(keys | ends)


def segments(steps: Sequence[StepView], drawn: frozenset[int]) -> list[tuple[list[StepView], StepView]]:
    """The hand as the PDF prints it: for each step drawn as a whole table (`drawn_steps`, which
    always holds the last step), the steps since the previous drawn one, written as text beside
    it, and the drawn step itself. Every step is in exactly one segment, in order."""
    found: list[tuple[list[StepView], StepView]] = []
    since: list[StepView] = []
    for step in steps:
        if step.index in drawn:
            found.append((since, step))
            since = []
        else:
            since.append(step)
    if since:  # not reached while the last step is drawn; kept so no step is ever dropped
        found.append((since[:-1], since[-1]))
    return found


def finding_steps(steps: Sequence[StepView], findings: Sequence[dict[str, Any]]) -> list[tuple[StepView | None, StepView]]:
    """For each step a finding names, in order and once: (the table before it, the step's
    table). The step's own view is what the trace shows at the flagged step."""
    by_index = {step.index: position for position, step in enumerate(steps)}
    wanted: list[int] = []
    for finding in findings:
        step = finding.get("step")
        if isinstance(step, int) and step in by_index and step not in wanted:
            wanted.append(step)
    return [(steps[by_index[index] - 1] if by_index[index] > 0 else None, steps[by_index[index]])
            for index in wanted]

