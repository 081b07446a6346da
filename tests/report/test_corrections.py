"""report.corrections: the payments that make a record say what its audit says, per basis
(items netted per pair, totals balanced largest first, undo of an illegal hand), always in the
one sign of report.dispute.difference."""
from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from report.corrections import Basis, Correction, corrections, from_items, from_totals
from report.dispute import difference
from tests.conftest import example_path, load_example


def audit_of(name: str) -> dict[str, Any]:
    """The contract's audit of an example."""
    path = example_path(name).with_name(f"{name}.audit.json")
    return dict(json.loads(path.read_text(encoding="utf-8")))


def with_items(name: str, change: int = 0, index: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """An example whose record lists the audit's own payments, one amount off by `change`
    (the scores follow the items, as a platform's would)."""
    audit = audit_of(name)
    doc = copy.deepcopy(load_example(name))
    items = [{k: v for k, v in item.items() if k in ("kind", "from", "to", "amount")}
             for item in audit["settlement"]["items"]]
    items[index]["amount"] += change
    scores = [0] * len(doc["seats"])
    for item in items:
        scores[item["from"]] -= item["amount"]
        scores[item["to"]] += item["amount"]
    doc["result"] = {**doc["result"], "items": items, "scores": scores}
    return audit, doc


def test_a_record_that_agrees_needs_no_payment() -> None:
    audit, doc = with_items("hot-shot-weile")
    found = corrections(audit, doc)
    assert found.basis is Basis.ITEMS and found.payments == () and found.unbalanced == 0


def test_an_item_paid_short_is_owed_from_payer_to_payee() -> None:
    audit, doc = with_items("hot-shot-weile", change=-1)  # the record pays seat 1 one too little
    first = audit["settlement"]["items"][0]
    found = corrections(audit, doc)
    assert found.basis is Basis.ITEMS
    assert found.payments == (Correction(first["from"], first["to"], 1),)


def test_an_item_paid_over_is_owed_back() -> None:
    audit, doc = with_items("hot-shot-weile", change=2)
    first = audit["settlement"]["items"][0]
    assert corrections(audit, doc).payments == (Correction(first["to"], first["from"], 2),)


def test_rows_between_the_same_pair_are_netted() -> None:
    computed = [{"kind": "hand", "from": 0, "to": 1, "amount": 4}, {"kind": "chicken", "from": 1, "to": 0, "amount": 1}]
    claimed = [{"kind": "hand", "from": 0, "to": 1, "amount": 2}, {"kind": "chicken", "from": 1, "to": 0, "amount": 2}]
    # hand: 0 still owes 1 two; chicken: 0 got one too many from 1, so 0 owes 1 one more: three
    assert from_items(computed, claimed, 4) == (Correction(0, 1, 3),)


def test_a_payment_only_the_record_makes_is_returned() -> None:
    claimed = [{"kind": "dou", "from": 2, "to": 3, "amount": 5}]
    assert from_items([], claimed, 4) == (Correction(3, 2, 5),)
    assert from_items([], [{"kind": "dou", "from": 2, "to": 9, "amount": 5}], 4) == ()  # no such seat


def test_totals_only_the_record_gives_scores() -> None:
    audit = audit_of("hot-shot-weile")
    doc = copy.deepcopy(load_example("hot-shot-weile"))
    doc["result"]["scores"][0] += 1
    doc["result"]["scores"][1] -= 1
    doc["result"].pop("items", None)
    found = corrections(audit, doc)
    assert found.basis is Basis.TOTALS and found.payments == (Correction(0, 1, 1),)


def test_totals_largest_first_and_what_cannot_balance() -> None:
    assert from_totals([3, -1, -2, 0]) == ((Correction(0, 2, 2), Correction(0, 1, 1)), 0)
    assert from_totals([2, 0, 0, 0]) == ((), 2)


@given(st.lists(st.integers(-50, 50), min_size=3, max_size=4))
def test_totals_rows_give_back_every_difference(differences: list[int]) -> None:
    """Paying the rows turns every seat's difference (record − audit) into 0, but for what the
    seats cannot balance; at most n − 1 rows, every amount positive."""
    rows, left = from_totals(differences)
    after = list(differences)
    for row in rows:
        assert row.amount > 0 and row.payer != row.payee
        after[row.payer] -= row.amount
        after[row.payee] += row.amount
    assert sum(abs(d) for d in after) == left == abs(sum(differences))
    assert len(rows) <= max(len(differences) - 1, 0)


def test_an_illegal_hand_is_undone() -> None:
    doc = {"result": {"scores": [4, -1, -3, 0]}}
    found = corrections({"verdict": "illegal", "settlement": None, "findings": []}, doc)
    assert found.basis is Basis.UNDO
    assert found.payments == (Correction(0, 2, 3), Correction(0, 1, 1))


def test_nothing_to_compare() -> None:
    assert corrections({"verdict": "invalid", "settlement": None}, {"result": {"scores": [1, -1]}}).basis is None
    assert corrections(audit_of("hot-shot-weile"), {"result": {}}).basis is None
    assert corrections(None, None).payments == ()


def test_the_sign_is_record_minus_audit() -> None:
    assert difference(computed=3, claimed=5) == 2 and difference(computed=5, claimed=3) == -2
