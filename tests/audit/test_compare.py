"""R15 settlement check and R16.16: which finding a wrong result gets."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from audit.api import audit_record
from sim.notation import record, with_result
from tests.audit.test_hot_rob import ROB_HANDS, ROB_PLAY

EXAMPLES = Path(__file__).resolve().parents[2] / "spec" / "examples"


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def itemised(name: str) -> dict[str, Any]:
    doc = example(name)
    return with_result(doc, audit_record(doc)["settlement"])


PER_SEAT = {"seat", "claimed", "computed"}


def rules_of(doc: dict[str, Any]) -> list[tuple[str | None, int | None]]:
    """(rule, seat) of the per-seat findings (the payments R16.16 names follow them: test_attribute.py)."""
    a = audit_record(doc)
    assert a["verdict"] == "missettled", a
    return [(f["rule"], f["seat"]) for f in a["findings"] if not attributed(f)]


def attributed(f: dict[str, Any]) -> bool:
    """A finding of R16.16's attribution (audit/attributed.py), not of the comparison itself."""
    return f["code"].startswith("net_item_") or f["code"] in {"net_either", "net_many_readings", "net_not_explained"}


def test_itemised_result_is_clean() -> None:
    assert audit_record(itemised("hot-shot-weile"))["verdict"] == "clean"


def test_wrong_net_without_items_one_finding_per_seat() -> None:
    doc = example("hot-shot-weile")
    doc["result"]["scores"] = [-4, 2, 5, -3]
    assert rules_of(doc) == [("R15.1", 0), ("R15.1", 1)]
    f = audit_record(doc)["findings"][0]
    assert (f["expected"], f["actual"], f["step"], f["kind"]) == (-5, -4, None, "missettled")


def test_burn_not_applied_cites_r8_3() -> None:
    """The shooter (seat 0) is paid a chicken credit although 热炮 burns it."""
    doc = itemised("hot-shot-weile")
    doc["result"]["items"].append({"kind": "chicken", "from": 3, "to": 0, "amount": 1})
    doc["result"]["scores"][3] -= 1
    doc["result"]["scores"][0] += 1
    a = audit_record(doc)
    assert [(f["rule"], f["seat"], f["expected"], f["actual"]) for f in a["findings"]] == [("R8.3", 0, 0, 1)]
    assert a["findings"][0]["code"] == "burn_not_applied"
    assert a["findings"][0]["params"] == {"kind": "chicken", "payer": 3, "payee": 0, "paid": 1, "due": 0,
                                          "burn": "hot_shot", "burn_step": a["findings"][0]["params"]["burn_step"]}


def test_rob_paid_by_three_cites_r9_3() -> None:
    rec = record(ROB_HANDS, ROB_PLAY + "2 win 5s", flip="8s")
    good = with_result(rec, audit_record(rec)["settlement"])
    bad = copy.deepcopy(good)
    bad["result"]["items"] = [{"kind": "hand", "from": s, "to": 2, "amount": 2} for s in (0, 1, 3)]
    bad["result"]["scores"] = [-2, -2, 6, -2]
    found = audit_record(bad)["findings"]
    assert {f["rule"] for f in found} == {"R9.3"}
    assert len(found) == 3  # (hand 0->2), (hand 1->2), (hand 3->2)


def test_wrong_next_dealer_and_flip() -> None:
    doc = itemised("hot-shot-weile")
    doc["result"]["next_dealer"] = 0
    doc["result"]["flip"] = "6s"
    found = audit_record(doc)["findings"]
    assert [(f["rule"], f["expected"], f["actual"]) for f in found] == [("R14.1", 1, 0), ("R11.5", "5s", "6s")]


def test_flip_null_when_nothing_is_turned() -> None:
    doc = example("cha-jiao-declared")
    doc["result"]["flip"] = "3m"
    assert rules_of(doc) == [("R11.5", None)]


def test_scores_not_summing_to_zero() -> None:
    doc = example("hot-shot-weile")
    doc["result"]["scores"] = [-5, 3, 5, -2]
    assert ("R15.1", None) in rules_of(doc)


def test_base_multiplies_points() -> None:
    doc = example("hot-shot-weile")
    doc["base"] = 5
    a = audit_record(doc)
    assert a["settlement"]["scores"] == [-25, 15, 25, -15]
    assert a["verdict"] == "missettled"
    doc["result"]["scores"] = [-25, 15, 25, -15]
    assert audit_record(doc)["verdict"] == "clean"


def test_wrong_item_kind_is_named() -> None:
    """Items are compared per (kind, from, to): a dou booked as chicken is two findings."""
    doc = itemised("hot-shot-cuocuo")
    for it in doc["result"]["items"]:
        if it["kind"] == "hot_shot":
            it["kind"] = "dou"
    found = audit_record(doc)["findings"]
    assert sorted(f["rule"] for f in found) == ["R4.7", "R8.3"]


def test_wrong_scores_without_items_name_the_burn() -> None:
    """R16.16: without items, the audit names the payment when one mistake explains the scores."""
    doc = example("hot-shot-weile")
    doc["rules"]["profile"] = "kuhu"  # no readiness needed: the burn is what stops seat 0's dou and 1s
    right = audit_record(doc)["settlement"]["scores"]
    # A client that forgot the burn pays seat 0 its 闷豆 (2 from each) and its 1s (1 from each).
    doc["result"]["scores"] = [right[0] + 9, right[1] - 3, right[2] - 3, right[3] - 3]
    found = audit_record(doc)["findings"]
    assert {(f["rule"], f["code"]) for f in found if set(f["params"]) == PER_SEAT} == {
        ("R8.3", "net_hot_shot_burn_not_applied")}
    # ... and each payment it changes is named, under the burn's rule (R16.16).
    named = [f for f in found if f["code"] == "net_item_model"]
    assert named and {f["rule"] for f in named} == {"R8.3"}


def test_wrong_scores_without_items_name_the_rob_payer() -> None:
    rec = record(ROB_HANDS, ROB_PLAY + "2 win 5s", flip="8s")
    rec["result"] = {"scores": [-2, -2, 6, -2], "next_dealer": 2, "flip": "8s"}
    found = audit_record(rec)["findings"]
    assert {f["rule"] for f in found} == {"R9.3"}


def test_unexplained_difference_stays_r15_1() -> None:
    doc = example("hot-shot-weile")
    doc["result"]["scores"] = [-25, 3, 5, 17]
    found = audit_record(doc)["findings"]
    assert {f["rule"] for f in found} == {"R15.1"}
    assert [f["code"] for f in found if set(f["params"]) != PER_SEAT] == ["net_not_explained"]
