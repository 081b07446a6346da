"""web/pdf/contents.py: the first page's evidence block and the steps the compact hand draws
whole."""
from __future__ import annotations

import json
from typing import Any

from audit.api import trace_record
from tests.conftest import ROOT
from web.pdf.contents import drawn_steps, evidence, finding_steps
from report.model import key_steps


def detail(audits: list[dict[str, Any]]) -> dict[str, Any]:
    return {"sha256": "ab" * 32, "audits": audits}


def test_evidence_is_the_latest_audit_and_the_case_the_record_is_in() -> None:
    """Issue 33.5: the case and its decision are the case's (its standing outcome, else its status),
    never a note's old label; a record in no case names its notes' case number with no decision."""
    audits = [{"id": 3, "engine_version": "1.0.0", "created_at": "2026-01-01T00:00:00.000Z"},
              {"id": 7, "engine_version": "1.1.0", "created_at": "2026-02-01T00:00:00.000Z"}]
    notes: list[dict[str, Any]] = [{"case_number": "C-1", "decision": "open", "created_at": "t1"},
             {"case_number": None, "decision": "escalated", "created_at": "t2"}]
    decided = {"number": "2026-0001", "status": "closed", "outcome": "dismissed", "decided_at": "t3"}
    found = evidence(detail(audits), decided, notes, "2026-03-01T00:00:00.000Z")
    assert (found.engine_version, found.audit_id, found.audited_at) == ("1.1.0", 7, "2026-02-01T00:00:00.000Z")
    assert (found.case_number, found.decision, found.decided_at) == ("2026-0001", "complaint dismissed", "t3")
    assert found.sha256 == "ab" * 32 and found.exported_at == "2026-03-01T00:00:00.000Z"
    pending = evidence(detail(audits), {**decided, "status": "open", "outcome": None, "decided_at": None}, notes, "t")
    assert (pending.case_number, pending.decision, pending.decided_at) == ("2026-0001", "open", None)
    noted = evidence(detail(audits), None, notes, "t")
    assert (noted.case_number, noted.decision, noted.decided_at) == ("C-1", None, None)
    bare = evidence(detail([]), None, [], "now")
    assert (bare.engine_version, bare.audit_id, bare.case_number, bare.decision) == (None, None, None, None)


def steps_of(name: str) -> list[Any]:
    return trace_record(json.loads((ROOT / "samples" / f"{name}.json").read_text(encoding="utf-8"))).steps


def test_the_drawn_steps_are_the_key_steps_the_deal_and_the_last() -> None:
    steps = steps_of("missettled-rob-paid-by-three")
    keys = key_steps(steps)
    drawn = drawn_steps(steps, keys)
    assert drawn == keys | {steps[0].index, steps[-1].index} and steps[0].index == -1
    assert len(drawn) < len(steps) // 4  # the compact hand stays compact
    assert drawn_steps([], frozenset()) == frozenset()


def test_finding_steps_pair_each_named_step_with_the_one_before() -> None:
    steps = steps_of("illegal-pass-locked")
    findings: list[dict[str, Any]] = [{"step": 3}, {"step": 3}, {"step": None}, {"step": 99}]
    ((before, at),) = finding_steps(steps, findings)
    assert at.index == 3 and before is not None and before.index == 2

