"""web/report_model.py: the ledger grouped per (kind, payer, payee), the totals beside the claim,
the record's claimed result (plain functions, no app)."""
from __future__ import annotations

from audit.catalogue import render_note
from report.model import Compared, LedgerRow, ledger, record_result, seat_totals, working


def test_ledger_sums_per_kind_payer_and_payee_and_shows_differences() -> None:
    computed = [{"kind": "hand", "from": 0, "to": 1, "amount": 2, "rule": "R6.3", "note": "平胡 1 +热炮 1"},
                {"kind": "chicken", "from": 2, "to": 1, "amount": 1, "rule": "R11.6", "note": "鸡"},
                {"kind": "chicken", "from": 2, "to": 1, "amount": 2, "rule": "R11.6", "note": "翻牌鸡"}]
    claimed = [{"kind": "hand", "from": 0, "to": 1, "amount": 2},
               {"kind": "chicken", "from": 2, "to": 1, "amount": 3},
               {"kind": "chicken", "from": 2, "to": 0, "amount": 1, "note": "record's own words"}]
    rows = ledger(computed, claimed)
    short = [(r.kind, r.payer, r.payee, r.rules, r.notes, r.computed, r.claimed, r.claimed_notes) for r in rows]
    assert short == [("hand", 0, 1, ("R6.3",), ("平胡 1 +热炮 1",), 2, 2, ()),
                     ("chicken", 2, 1, ("R11.6",), ("鸡", "翻牌鸡"), 3, 3, ()),
                     ("chicken", 2, 0, (), (), None, 1, ("record's own words",))]
    assert [r.difference for r in rows] == [0, 0, 1]
    assert [r.only_claimed for r in rows] == [False, False, True]  # the record's note is kept for this one
    assert [len(r.workings) for r in rows] == [1, 2, 0]
    assert [r.anchor for r in rows] == ["ledger-hand-0-1", "ledger-chicken-2-1", "ledger-chicken-2-0"]
    assert isinstance(rows[0], LedgerRow)


def test_each_item_s_working_comes_from_its_structured_note_and_the_base() -> None:
    item = {"kind": "hand", "from": 2, "to": 3, "amount": 12, "rule": "R9.3", "code": "win_value",
            "params": {"pattern": "ping_hu", "value": 1,
                       "parts": [{"code": "self_draw_bonus", "params": {"bonus": 1}},
                                 {"code": "rob_shares", "params": {"shares": 3}}]}}
    for lang in ("zh", "en"):
        words = working(item, 2, lang)
        assert render_note(item, lang) in words and "6" in words and "12" in words
    assert "×" not in working(item, 1, "zh")  # base 1: no multiplication to show


def test_ledger_without_claimed_items_has_no_differences() -> None:
    rows = ledger([{"kind": "dou", "from": 1, "to": 0, "amount": 3, "rule": "R4.7"}], None)
    assert rows[0].claimed is None and rows[0].difference is None
    computed_missing = ledger([], [{"kind": "dou", "from": 1, "to": 0, "amount": 3}])
    assert computed_missing[0].computed is None and computed_missing[0].difference == 3


def test_seat_totals_compare_computed_and_claimed() -> None:
    totals = seat_totals([-5, 3, 5, -3], [-4, 3, 4, -3])
    assert [t.differs for t in totals] == [True, False, True, False]
    assert [t.difference for t in totals] == [1, 0, -1, 0]
    assert [t.claimed for t in seat_totals(None, [1, -1])] == [1, -1]
    assert not Compared("flip", "5s", None).differs and Compared("flip", "5s", "6s").differs


def test_record_result_is_empty_without_a_result_object() -> None:
    assert record_result({"result": {"scores": [1, -1]}}) == {"scores": [1, -1]}
    assert record_result({"result": [1]}) == {} and record_result({}) == {} and record_result(None) == {}


def test_the_report_model_is_built_from_the_record_its_audit_and_one_trace() -> None:
    """Issue 24, point 3: plain data from plain inputs (no app, no store, no request)."""
    import json

    from audit.api import audit_record, trace_record
    from report.model import build_report
    from tests.conftest import ROOT

    doc = json.loads((ROOT / "samples" / "missettled-rob-paid-by-three.json").read_text(encoding="utf-8"))
    audit = audit_record(doc, lang="zh")
    model = build_report(doc, audit, trace_record(doc, lang="zh", schema_checked=True), "zh", ["x"] * 3)
    assert model.dispute.verdict == "missettled" and model.settled and model.has_claimed_items
    assert [(d.payer, d.payee) for d in model.differing] == [(r.payer, r.payee) for r in model.ledger if r.difference]
    assert model.event_words == ["x"] * 3 and set(model.context()) >= {"ledger", "dispute", "steps", "differing"}
    bare = build_report(doc, audit, None, "zh")  # the engine could not replay: the stored audit still shows
    assert bare.steps == [] and bare.ledger == model.ledger
