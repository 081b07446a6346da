"""What the PDF adds to the report's data (`web.report_model`): the evidence block of its first
page, the steps the hand draws as whole tables, and the events written beside each.

The PDF is handed to someone who was not at the table (a player who disputes a
payment, an arbiter), so its first page says what it is evidence of: which
bytes (the record's sha256), judged by which engine, in which audit, exported
when, and, when an auditor's notes give them, the case and its decision.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from audit.views import StepView

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


def evidence(detail: dict[str, Any], notes: Sequence[dict[str, Any]], exported_at: str) -> Evidence:
    """The evidence block of a record's PDF: its latest audit, its sha256, the export time; the
    latest case number a note gives, and the decision of the latest note (notes are never
    edited: a later note is the later word)."""
    latest = detail["audits"][-1] if detail.get("audits") else None
    case_number = next((note["case_number"] for note in reversed(notes) if note.get("case_number")), None)
    last = notes[-1] if notes else None
    decision, decided_at = (last.get("decision"), last.get("created_at")) if last else (None, None)
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

