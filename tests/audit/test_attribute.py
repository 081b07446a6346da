"""R16.16: a wrong total explained by the payment behind it (audit/attribute.py, audit/attributed.py).

Each test plants one platform mistake in the rules' own ledger, claims only the scores that
mistake gives, and expects the audit to name that payment: its kind, payer, payee, the amount
the rules give and the amount that fits, the rule the item comparison cites, and its step.
"""
from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit.api import audit_record
from audit.attribute import MAX_READINGS, Change, Edit, Reading, attribute, signature
from audit.attributed import _reading_findings
from audit.engine import audit_hand
from audit.kinds import ItemKind
from audit.profiles import resolve
from audit.replay import replay
from audit.settle import Item, Settlement, net_scores, settle
from audit.state import GameState

SPEC = Path(__file__).resolve().parents[2] / "spec"
EXAMPLES = sorted((SPEC / "examples").glob("*.json"))
REFERENCE = sorted((SPEC / "reference").glob("ref-*.json"))
GAMES = [p for p in EXAMPLES + REFERENCE if not p.name.endswith(".audit.json")]


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def replayed(doc: dict[str, Any]) -> tuple[GameState, Settlement]:
    rep = replay(doc, resolve(doc["rules"]["profile"], doc["rules"].get("options")))
    assert rep.finding is None
    return rep.state, settle(rep.state)


def claiming(doc: dict[str, Any], ledger: list[Item], *, items: bool = False) -> dict[str, Any]:
    """`doc` claiming what `ledger` nets (scores only, or with the rules' own items when `items`)."""
    out = copy.deepcopy(doc)
    base = doc.get("base", 1)
    out["result"]["scores"] = [s * base for s in net_scores(ledger, len(doc["seats"]))]
    out["result"].pop("items", None)
    if items:
        out["result"]["items"] = [{k: it[k] for k in ("kind", "from", "to", "amount")}
                                  for it in audit_record(doc)["settlement"]["items"]]
    return out


def named(audit: dict[str, Any]) -> list[dict[str, Any]]:
    return [f for f in audit["findings"] if f["code"].startswith("net_item_")]


def first_item(sett: Settlement, kind: str) -> Item:
    return next(i for i in sett.items if i.kind.value == kind)


@pytest.mark.parametrize(("name", "kind"), [("hot-shot-weile", "chicken"), ("hot-shot-weile", "hand"),
                                            ("hot-shot-cuocuo", "dealer"), ("responsibility-chicken", "chicken")])
def test_a_payment_left_out_is_named_with_its_payer_payee_amounts_rule_and_step(name: str, kind: str) -> None:
    doc = load(SPEC / "examples" / f"{name}.json")
    state, sett = replayed(doc)
    it = first_item(sett, kind)
    audit = audit_record(claiming(doc, Edit(Change.MISSING, it).apply(sett.items)))
    base = doc.get("base", 1)
    want = {"kind": kind, "payer": it.payer, "payee": it.payee, "fits": 0}
    hits = [f for f in named(audit) if {k: f["params"][k] for k in want} == want]
    assert hits, audit["findings"]
    f = hits[0]
    assert f["code"] == "net_item_missing" and f["params"]["due"] >= it.amount * base
    assert f["step"] is None and 0 <= f["params"]["step"] < len(doc["events"])  # a settlement finding's step is null
    assert f["rule"] == it.rule or f["rule"].startswith("R17")


@pytest.mark.parametrize("change", [Change.DOUBLED, Change.REVERSED, Change.WRONG_PAYER, Change.WRONG_PAYEE])
def test_each_kind_of_change_has_its_code_and_is_found_unless_a_simpler_reading_fits(change: Change) -> None:
    doc = load(SPEC / "examples" / "hot-shot-weile.json")
    state, sett = replayed(doc)
    it = first_item(sett, "hand")
    seat = next(s for s in range(state.n) if s not in (it.payer, it.payee))
    edit = Edit(change, it, seat if change in (Change.WRONG_PAYER, Change.WRONG_PAYEE) else None)
    ledger = edit.apply(sett.items)
    truth = Reading((change,), tuple(ledger), (edit,))
    att = attribute(state, sett, net_scores(ledger, state.n))
    assert att.readings and (signature(ledger) in {signature(r.ledger) for r in att.readings}
                             or att.readings[0].cost < truth.cost)
    found = _reading_findings(state, sett, truth, "only", doc.get("base", 1))
    assert {f.code for f in found} == {f"net_item_{change.value}"}
    assert all(f.rule == "R6.3" and f.params["step"] == state.wins[0].step for f in found)


def test_the_step_of_a_dou_is_its_kong() -> None:
    for path in GAMES:
        doc = load(path)
        state, sett = replayed(doc)
        dous = [i for i in sett.items if i.kind.value == "dou"]
        if not dous:
            continue
        it = dous[0]
        audit = audit_record(claiming(doc, Edit(Change.MISSING, it).apply(sett.items)))
        kongs = {m.step for m in state.seats[it.payee].melds if m.is_kong}
        hits = [f for f in named(audit) if f["params"]["kind"] == "dou" and f["params"]["payee"] == it.payee]
        assert hits and hits[0]["params"]["step"] in kongs, (path.name, audit["findings"])
        return
    pytest.fail("no golden game has a dou")


def test_two_readings_that_fit_equally_are_both_said() -> None:
    """Seat a missing 1 to seat b nets the same as seat b paying seat a 1 twice: both are one change."""
    doc = load(SPEC / "examples" / "hot-shot-weile.json")
    state, sett = replayed(doc)
    it = next(i for i in sett.items if i.kind.value == "chicken" and i.amount == 1)
    att = attribute(state, sett, net_scores(Edit(Change.MISSING, it).apply(sett.items), state.n))
    assert len(att.readings) >= 1
    audit = audit_record(claiming(doc, Edit(Change.MISSING, it).apply(sett.items)))
    if len(att.readings) > 1:
        lead = [f for f in audit["findings"] if f["code"] == "net_either"]
        assert lead and lead[0]["params"]["readings"] == len(att.readings)
        assert {f["params"]["reading"] for f in named(audit)} == {str(i) for i in range(1, len(att.readings) + 1)}
    else:
        assert {f["params"]["reading"] for f in named(audit)} == {"only"}


def test_a_tie_is_never_settled_silently() -> None:
    doc = load(SPEC / "examples" / "hot-shot-weile.json")
    state, sett = replayed(doc)
    hand = first_item(sett, "hand")
    # One less hand payment from the shooter to the winner, and a doubled chicken from the winner to
    # the shooter's neighbour... pick any two-change mistake and require the truth among the readings.
    chicken = next(i for i in sett.items if i.kind.value == "chicken")
    ledger = Edit(Change.DOUBLED, chicken).apply(Edit(Change.MISSING, hand).apply(sett.items))
    att = attribute(state, sett, net_scores(ledger, state.n))
    assert att.too_many or not att.readings or all(r.cost[0] <= 2 for r in att.readings)
    if att.readings and all(r.cost[0] == 2 for r in att.readings):
        assert signature(ledger) in {signature(r.ledger) for r in att.readings}


def test_nothing_within_the_bound_is_said_and_the_seat_differences_stay() -> None:
    doc = load(SPEC / "examples" / "hot-shot-weile.json")
    doc["result"]["scores"] = [-25, 3, 5, 17]
    audit = audit_record(doc)
    codes = [f["code"] for f in audit["findings"]]
    assert "net_not_explained" in codes and codes.count("seat_net_differs") == 2


def test_right_items_with_wrong_scores_get_the_same_treatment() -> None:
    doc = load(SPEC / "examples" / "hot-shot-weile.json")
    state, sett = replayed(doc)
    it = first_item(sett, "chicken")
    rec = claiming(doc, Edit(Change.MISSING, it).apply(sett.items), items=True)
    audit = audit_record(rec)
    assert any(f["code"] == "net_item_missing" and f["params"]["payee"] == it.payee for f in named(audit))


def test_a_parameter_read_another_way_is_named_by_its_parameter() -> None:
    """A 冲锋鸡 valued as a normal chicken: the whole group of its payments, one parameter."""
    doc = load(SPEC / "examples" / "charge-chicken-gold.json")
    prof = resolve(doc["rules"]["profile"], doc["rules"].get("options"))
    state, sett = replayed(doc)
    wrong = resolve(doc["rules"]["profile"], {**doc["rules"].get("options", {}), "chicken.charge": prof.chicken.normal})
    state.profile = wrong
    ledger = settle(state).items
    state.profile = prof
    assert net_scores(ledger, state.n) != sett.scores()
    audit = audit_record(claiming(doc, ledger))
    params = [f["params"] for f in audit["findings"] if f["code"] == "net_item_parameter"]
    others = [f for f in named(audit) if f["code"] != "net_item_parameter"]
    assert any(p["parameter"] == "chicken.charge" for p in params) or others, audit["findings"]


HOUSE_SAMPLES = sorted(p for p in (SPEC.parent / "samples").glob("missettled-r1[789]-*.json")
                       if not p.name.endswith(".audit.json"))


def test_every_house_rule_section_has_its_samples() -> None:
    """A clean and a missettled sample of every house-rule section (audit/house_rules.py)."""
    from audit.house_rules import SECTIONS
    named = {"R" + ".".join(p.stem.split("-")[1:3])[1:] for p in HOUSE_SAMPLES}
    assert named == {sec.rule for sec, _ in SECTIONS}


@pytest.mark.parametrize("path", HOUSE_SAMPLES, ids=lambda p: p.stem)
def test_a_house_rule_not_played_cites_its_section(path: Path) -> None:
    """The samples claim today's settlement where the profile plays a house rule; without their
    items, the payments named cite that section, R17.x, R18.x or R19.x (R16.16)."""
    doc = load(path)
    doc["result"].pop("items", None)
    _, top, n = path.stem.split("-")[:3]
    rule = f"{top.upper()}.{n}"
    audit = audit_hand(doc)
    rules = {f.rule for f in audit.findings if f.code.startswith("net_item_")}
    assert rule in rules, [(f.code, f.rule, f.params) for f in audit.findings]


def test_scores_that_do_not_sum_to_zero_are_not_attributed() -> None:
    doc = load(SPEC / "examples" / "hot-shot-weile.json")
    doc["result"]["scores"][0] += 1
    assert not [f for f in audit_record(doc)["findings"] if f["code"].startswith("net_")]


@settings(max_examples=60, deadline=None)
@given(game=st.sampled_from(GAMES), pick=st.integers(min_value=0, max_value=10_000),
       change=st.sampled_from([Change.MISSING, Change.DOUBLED]))
def test_one_payment_left_out_or_doubled_is_always_among_the_readings(game: Path, pick: int, change: Change) -> None:
    """The truth is among the best readings (or the audit says the scores cannot tell), never lost."""
    doc = load(game)
    state, sett = replayed(doc)
    if not sett.items:
        return
    it = sett.items[pick % len(sett.items)]
    ledger = Edit(change, it).apply(sett.items)
    att = attribute(state, sett, net_scores(ledger, state.n))
    if att.too_many:
        assert att.too_many > MAX_READINGS
        return
    assert signature(ledger) in {signature(r.ledger) for r in att.readings}
    assert all(r.cost == att.readings[0].cost for r in att.readings)


def test_every_chicken_to_one_seat_counted_one_too_many_is_one_change() -> None:
    """COUNT: a chicken miscounted is paid one more by every payer: one change, not three."""
    for path in GAMES:
        doc = load(path)
        state, sett = replayed(doc)
        to: dict[int, list[Item]] = {}
        for it in sett.items:
            if it.kind.value == "chicken":
                to.setdefault(it.payee, []).append(it)
        group = next((g for g in to.values() if len(g) >= 2 and len({i.payer for i in g}) == len(g)), None)
        if group is None:
            continue
        ledger = Edit(Change.COUNT, group[0], delta=1, group=tuple(group)).apply(sett.items)
        att = attribute(state, sett, net_scores(ledger, state.n))
        assert att.readings and att.readings[0].cost[0] == 1
        assert signature(ledger) in {signature(r.ledger) for r in att.readings}
        audit = audit_record(claiming(doc, ledger))
        assert any(f["code"] == "net_item_count" and f["rule"] == group[0].rule for f in named(audit))
        return
    pytest.fail("no golden game pays one seat chickens from two payers")


def test_a_hand_payment_of_another_amount_is_named_under_r6() -> None:
    doc = load(SPEC / "examples" / "hot-shot-weile.json")
    state, sett = replayed(doc)
    it = first_item(sett, "hand")
    ledger = Edit(Change.AMOUNT, it, delta=5).apply(sett.items)
    audit = audit_record(claiming(doc, ledger))
    hits = [f for f in named(audit) if f["params"]["kind"] == "hand"]
    assert hits and hits[0]["rule"] == it.rule and hits[0]["params"]["fits"] == (it.amount + 5) * doc.get("base", 1)


@pytest.mark.parametrize(("cls", "rule"), [("hot_shot_burn_ignored", "R8.3"), ("robbed_kong_paid", "R9.3"),
                                           ("wrong_pattern_value", "R6.3"), ("chicken_miscount", "R11.6")])
def test_the_harness_mutants_stripped_of_items_name_their_rule(cls: str, rule: str) -> None:
    """The mutation harness's planted settlement faults, scores only (`--strip-items`): the payment
    named cites the rule the item-by-item audit cites (bench/bench_explained.py gives the shares)."""
    hits = tried = 0
    for _, mutant, scores_only in _harness_mutants(cls):
        tried += 1
        hits += any(f["rule"] == rule for f in named(audit_record(scores_only)))
    assert tried and hits, (tried, hits)


def _harness_mutants(cls: str) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """(game file, mutant, its record stripped of items) of every planted mutant of class `cls` of the
    golden games, their results the rules' settlement (sim/mutate.py, as the mutation harness plants)."""
    from sim.mutate import mutants, stripped
    from sim.notation import with_result
    for path in GAMES:
        doc = load(path)
        rec = with_result(doc, audit_record(doc)["settlement"])
        for m in mutants(rec):
            if m.mutation == cls:
                yield path.name, m, stripped(m).record


def _one_chicken_more(doc: dict[str, Any], seat: int, payers: list[int]) -> tuple[list[Item], int]:
    """The rules' ledger of `doc` with one plain chicken more paid to `seat` by each of `payers`."""
    state, sett = replayed(doc)
    value = state.profile.chicken.normal
    return [*sett.items, *(Item(ItemKind.CHICKEN, p, seat, value, "R11.6", "", {}) for p in payers)], value


def test_a_chicken_counted_too_many_is_one_change_where_a_payer_pays_the_seat_twice() -> None:
    """Issue 33.1d: seat 0 is paid a chicken credit by 1, 2 and 3, and 2 also owes it an exposed chicken
    (two payments of one kind from one payer): one chicken too many is still one change (COUNT)."""
    doc = load(SPEC / "examples" / "charge-chicken-gold.json")
    _, sett = replayed(doc)
    assert sum(1 for i in sett.items if i.kind.value == "chicken" and (i.payer, i.payee) == (2, 0)) == 2
    ledger, value = _one_chicken_more(doc, 0, [1, 2, 3])
    hits = [f for f in named(audit_record(claiming(doc, ledger))) if f["params"]["payee"] == 0]
    assert {f["params"]["payer"] for f in hits if f["code"] == "net_item_count" and f["rule"] == "R11.6"} == {1, 2, 3}
    assert all(f["params"]["fits"] - f["params"]["due"] == value * doc.get("base", 1) for f in hits)


def test_a_chicken_counted_too_many_is_paid_also_by_a_seat_that_owed_the_seat_none() -> None:
    """Issue 33.1d: seat 1 of ref-cuocuo-90210-0002 qualifies and is paid chickens by seat 2 alone; a
    chicken counted too many in its hand is paid by every seat (R11.6), 0 and 3 included: one change,
    naming payments the rules do not make (due 0). (Its kong's dou one more from each seat pays the
    same: the audit says both.)"""
    doc = load(SPEC / "reference" / "ref-cuocuo-90210-0002.json")
    _, sett = replayed(doc)
    assert {i.payer for i in sett.items if i.kind.value == "chicken" and i.payee == 1} == {2}
    ledger, value = _one_chicken_more(doc, 1, [0, 2, 3])
    audit = audit_record(claiming(doc, ledger))
    hits = [f for f in named(audit) if f["code"] == "net_item_count" and f["params"]["kind"] == "chicken"]
    assert {f["params"]["payer"]: f["params"]["due"] for f in hits if f["params"]["payer"] != 2} == {0: 0, 3: 0}
    assert all(f["rule"] == "R11.6" and f["params"]["fits"] - f["params"]["due"] == value * doc.get("base", 1)
               for f in hits)


@pytest.mark.parametrize("cls", ["hot_shot_burn_ignored", "chicken_miscount"])
def test_every_harness_mutant_of_the_golden_games_names_its_rule(cls: str) -> None:
    """Issue 33.1d: not some, every mutant of these classes (a 热炮 shooter paid its kong's dou and its 1s
    at the plain value, ref-cuocuo-90210-0001 and ref-weile-90210-0004; a chicken too many where a payer
    pays the seat twice or not at all, ref-cuocuo-90210-0002/0003, charge-chicken-gold) names the rule
    the item-by-item audit cites."""
    missed, tried = [], 0
    for name, m, scores_only in _harness_mutants(cls):
        tried += 1
        want = {f["rule"] for f in audit_record(m.record)["findings"] if f["kind"] == "missettled"}
        if not want & {f["rule"] for f in named(audit_record(scores_only))}:
            missed.append(name)
    assert tried >= 5 and not missed, (tried, missed)


def test_a_burned_exposed_kong_and_the_shooters_chickens_paid_are_two_changes() -> None:
    """Issue 33.1d: a 热炮 shooter's exposed kong (one dou, from its discarder) and its chickens paid
    anyway, at the plain value of its 1s: the kong's one payment and the chicken credits, two changes
    under R8.3 (sim-cuocuo-7-0006, the mutant the harness plants there)."""
    from sim.mutate import mutants, stripped
    from sim.simulate import simulate
    from sim.notation import with_result
    game = list(simulate("cuocuo", {}, 7, 7))[6].record
    rec = with_result(game, audit_record(game)["settlement"])
    m = next(m for m in mutants(rec) if m.mutation == "hot_shot_burn_ignored")
    hits = named(audit_record(stripped(m).record))
    assert {(f["params"]["kind"], f["params"]["payer"]) for f in hits if f["rule"] == "R8.3"} == {
        ("dou", 0), ("chicken", 0), ("chicken", 2), ("chicken", 3)}, hits
    assert all(f["params"]["payee"] == 1 and f["params"]["due"] == 0 and f["code"] == "net_item_not_owed"
               for f in hits)


def test_one_unready_seats_kong_paid_is_one_payment_not_owed_under_r4_7() -> None:
    """Issue 33.1d: seats 1 and 3 of sim-cuocuo-7-0013 are both unready and each holds an exposed kong
    fed by the other; the platform pays seat 1's alone (the harness's dou_not_ready mutant). Paying
    both (`net_dou_to_unready`) changes no total, so the model cannot see it: the one payment R4.7
    withholds, paid anyway, is the reading (before, a chicken paid by the wrong seat, R11.6)."""
    from sim.mutate import mutants, stripped
    from sim.simulate import simulate
    from sim.notation import with_result
    game = list(simulate("cuocuo", {}, 14, 7))[13].record
    rec = with_result(game, audit_record(game)["settlement"])
    m = next(m for m in mutants(rec) if m.mutation == "dou_not_ready")
    hits = named(audit_record(stripped(m).record))
    assert [(f["code"], f["rule"], f["params"]["kind"], f["params"]["payer"], f["params"]["payee"],
             f["params"]["due"], f["params"]["reading"]) for f in hits] == [
        ("net_item_not_owed", "R4.7", "dou", 3, 1, 0, "only")], hits
