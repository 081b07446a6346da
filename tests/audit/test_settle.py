"""audit/settle.py's one net-score sum (`net_scores`), behind the computed settlement, the record's
own items in the comparison (R15) and the mistake models of R16.16."""
from __future__ import annotations

import json
from typing import Any

from hypothesis import given, strategies as st

from audit.compare import compare
from audit.engine import audit_hand
from audit.explain import explain
from audit.kinds import ItemKind
from audit.settle import Item, net_scores
from tests.conftest import REFERENCE, load_example

TRANSFERS = st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 50)), max_size=30)


def _items(transfers: list[tuple[int, int, int]]) -> list[Item]:
    return [Item(ItemKind.HAND, payer, payee, amount, "R6.3", "", {}) for payer, payee, amount in transfers]


def test_net_scores_of_a_small_ledger() -> None:
    assert net_scores(_items([(0, 1, 5), (2, 1, 3), (1, 3, 2)]), 4) == [-5, 6, -3, 2]
    assert net_scores([], 3) == [0, 0, 0]
    assert net_scores(_items([(1, 1, 7)]), 2) == [0, 0]  # paying oneself nets nothing


def test_a_record_item_reads_as_an_item() -> None:
    item = Item.from_json({"kind": "hot_shot", "from": 2, "to": 0, "amount": 10})
    assert (item.kind, item.payer, item.payee, item.amount) == (ItemKind.HOT_SHOT, 2, 0, 10)
    assert item.kind is ItemKind.HOT_SHOT


@given(TRANSFERS)
def test_net_scores_are_what_each_seat_received_less_what_it_paid(transfers: list[tuple[int, int, int]]) -> None:
    net = net_scores(_items(transfers), 4)
    assert sum(net) == 0
    for seat in range(4):
        assert net[seat] == sum(a for _, to, a in transfers if to == seat) - sum(a for fr, _, a in transfers if fr == seat)


def _itemised() -> list[dict[str, Any]]:
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(REFERENCE.glob("*.json"))]
    return [d for d in docs if d["result"].get("items")]


def test_the_settlement_scores_are_the_net_of_its_items() -> None:
    for doc in _itemised() + [load_example("hot-shot-weile")]:
        hand = audit_hand(doc)
        assert hand.settlement is not None
        items = hand.settlement.items
        assert hand.settlement.scores() == net_scores(items, len(doc["seats"]))


def test_scores_that_follow_wrong_items_are_named_by_the_items_alone() -> None:
    """R16.16: when the claimed scores are the net of the claimed items, only the items are findings;
    scores that are not their items' net are findings of their own (R15.1)."""
    doc = _itemised()[0]
    hand = audit_hand(doc)
    assert hand.settlement is not None
    result = json.loads(json.dumps(doc["result"]))
    item = result["items"][0]
    item["amount"] += hand.base
    result["scores"] = net_scores([Item.from_json(i) for i in result["items"]], len(doc["seats"]))
    found = compare(result, hand.settlement, hand.base)
    assert found and not any(f.rule == "R15.1" and f.seat is not None for f in found)
    result["scores"][item["from"]] -= 1  # now neither the items' net nor the rules'
    result["scores"][item["to"]] += 1
    seats = {f.seat for f in compare(result, hand.settlement, hand.base) if f.rule == "R15.1"}
    assert {item["from"], item["to"]} <= seats


def test_a_result_without_the_dou_is_explained_by_the_dou() -> None:
    """explain's models net their ledgers the same way: scores of the ledger less its dou name R4.7."""
    tried = 0
    for doc in _itemised():
        hand = audit_hand(doc)
        assert hand.settlement is not None and hand.replay is not None
        sett, st_ = hand.settlement, hand.replay.state
        kept = [i for i in sett.items if i.kind is not ItemKind.DOU]
        if len(kept) == len(sett.items):
            continue
        tried += 1
        why = explain(st_, sett, net_scores(kept, st_.n))
        assert why is not None and why.rule == "R4.7"
    assert tried
