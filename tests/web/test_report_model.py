"""web/report_model.py: the ledger grouped per (kind, payer, payee), the totals beside the claim,
the record's claimed result (plain functions, no app)."""
from __future__ import annotations

from web.report_model import Compared, LedgerRow, ledger, record_result, seat_totals


def test_ledger_sums_per_kind_payer_and_payee_and_shows_differences() -> None:
    computed = [{"kind": "hand", "from": 0, "to": 1, "amount": 2, "rule": "R6.3", "note": "平胡 1 +热炮 1"},
                {"kind": "chicken", "from": 2, "to": 1, "amount": 1, "rule": "R11.6", "note": "鸡"},
                {"kind": "chicken", "from": 2, "to": 1, "amount": 2, "rule": "R11.6", "note": "翻牌鸡"}]
    claimed = [{"kind": "hand", "from": 0, "to": 1, "amount": 2},
               {"kind": "chicken", "from": 2, "to": 1, "amount": 3},
               {"kind": "chicken", "from": 2, "to": 0, "amount": 1}]
    rows = ledger(computed, claimed)
    assert rows == [LedgerRow("hand", 0, 1, ("R6.3",), ("平胡 1 +热炮 1",), 2, 2),
                    LedgerRow("chicken", 2, 1, ("R11.6",), ("鸡", "翻牌鸡"), 3, 3),
                    LedgerRow("chicken", 2, 0, (), (), None, 1)]
    assert [r.difference for r in rows] == [0, 0, 1]


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
