"""audit/trace.py: the step views of a replay, and the markers it puts on them (as kinds, with the
seat or tile they name)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from audit.api import trace_record
from audit.views import Marker, MarkerKind
from tests.conftest import REFERENCE, ROOT


def markers_of(path: Path) -> list[tuple[int, Marker]]:
    """(step, marker) of every marker of a record, in step order."""
    trace = trace_record(json.loads(path.read_text(encoding="utf-8")))
    return [(step.index, marker) for step in trace.steps for marker in step.markers]


def sample(name: str) -> Path:
    """A sample record."""
    return ROOT / "samples" / f"{name}.json"


K = MarkerKind


@pytest.mark.parametrize("path, expected", [
    (sample("clean-guizhou-3p"), [(4, K.DECLARE, None, None), (8, K.PASS_LOCK, 0, None), (41, K.PASS_LOCK, 0, None),
                                  (47, K.PASS_LOCK, 0, None), (78, K.RESPONSIBILITY_CHICKEN, None, "1s"),
                                  (92, K.PASS_LOCK, 2, None)]),
    (sample("clean-weile-rob-double"), [(58, K.CHARGE_CHICKEN, None, "1s"), (98, K.PASS_LOCK, 2, None),
                                        (111, K.ROB, None, None)]),
    (sample("clean-weile-hot-shot"), [(2, K.HOT_SHOT, None, None)]),
    (REFERENCE / "ref-guizhou-90210-0001.json", [(6, K.DECLARE, None, None), (43, K.CHARGE_CHICKEN, None, "1s"),
                                                (74, K.LATE_KONG, None, None), (76, K.HOT_SHOT, None, None)]),
    (REFERENCE / "ref-senyan-90210-0004.json", [(0, K.CHARGE_CHICKEN, None, "8p"), (7, K.CHARGE_CHICKEN, None, "1s"),
                                               (77, K.PASS_LOCK, 2, None), (86, K.ROB, None, None)]),
])
def test_markers_name_their_kind_seat_and_tile(path: Path, expected: list[tuple[Any, ...]]) -> None:
    found = markers_of(path)
    assert [(step, m.kind, m.seat, m.tile) for step, m in found] == expected
    assert all(m.rule == m.kind.rule for _, m in found)


def test_the_chickens_and_the_window_are_marked_only_when_the_hand_is_won() -> None:
    assert markers_of(sample("clean-kuhu-draw")) == []  # an exhaustive draw: no 冲锋鸡, whatever was discarded
    assert markers_of(sample("illegal-must-win-hot-shot")) == []  # the shot was not won: no 热炮


def test_a_pass_lock_is_marked_on_the_step_that_closed_the_window() -> None:
    assert markers_of(sample("illegal-pass-locked")) == [(1, Marker.of(K.PASS_LOCK, seat=2))]


# ---------------------------------------------------------------- where a settlement finding points (issue 20, point 5)

def scores_only(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(sample(name).read_text(encoding="utf-8"))
    doc["result"].pop("items", None)
    return doc


def test_a_payment_finding_points_at_the_step_that_made_it_due() -> None:
    """Settlement findings have step null (record-format.md); the trace says where each points:
    an item comparison of hand payments at the win, an attribution at its `step` param."""
    doc = json.loads(sample("missettled-rob-paid-by-three").read_text(encoding="utf-8"))
    t = trace_record(doc)
    win = next(i for i, ev in enumerate(doc["events"]) if ev["type"] == "win")
    assert len(t.due_steps) == len(t.audit["findings"])
    for f, due in zip(t.audit["findings"], t.due_steps):
        assert f["step"] is None and due == win, f["code"]
    at_win = next(sv for sv in t.steps if sv.index == win)
    assert [f["code"] for f in at_win.findings] == [f["code"] for f in t.audit["findings"]]


def test_an_attribution_points_at_its_step_and_a_total_at_none() -> None:
    t = trace_record(scores_only("missettled-burn-not-applied"))
    named = [(f, d) for f, d in zip(t.audit["findings"], t.due_steps) if f["code"].startswith("net_item_")]
    assert named and all(f["step"] is None and d == f["params"]["step"] for f, d in named)
    totals = [d for f, d in zip(t.audit["findings"], t.due_steps) if f["code"] == "seat_net_differs"]
    assert totals and all(d is None for d in totals)
    flagged = {sv.index for sv in t.steps if sv.findings}
    assert {d for _, d in named} <= flagged
