"""R15: the claimed `result` against the computed settlement, difference by difference.

Each finding says what the platform did wrong (a catalogue code and its params), and cites the rule of
the payment concerned (R16.16): a burned seat that was paid cites R8.3/R9.3,
a wrong payer under 抢杠 cites R9.3, and so on.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Final

from audit.house_rules import is_house_rule
from audit.findings import Finding, Kind
from audit.kinds import BurnKind, ItemKind
from audit.settle import KIND_RULE, Item, Settlement, net_scores
from audit.tiles import code

_PAID_TO_BURNED: Final = frozenset({"R18.2", "R18.4"})
"""Rules under which a burned seat is still paid: an exposed kong's dou as its discarder (R18.2), a
责任鸡 as claimer under `void` (R18.4)."""

_NEXT_DEALER_CODES: Final = {"R14.1": "next_dealer_not_winner", "R14.2": "next_dealer_several_winners",
                             "R14.3": "next_dealer_after_draw"}


def _missettled(rule: str, what: str, params: dict[str, Any], seat: int | None = None, expected: Any = None,
                actual: Any = None) -> Finding:
    return Finding(Kind.MISSETTLED, rule, what, params, None, seat, expected, actual)


def compare(result: dict[str, Any], sett: Settlement, base: int) -> list[Finding]:
    """Every difference between the record's result and the rules' settlement."""
    out: list[Finding] = []
    computed = [s * base for s in sett.scores()]
    claimed = list(result["scores"])
    item_findings: list[Finding] = []
    if "items" in result:
        item_findings = compare_items(result["items"], sett, base)
        out += item_findings
    total = sum(claimed)
    if total != 0:
        # R16.18: scores that do not sum to 0 are a mis-settlement (the hand was replayed and settled).
        out.append(_missettled("R15.1", "scores_sum_not_zero", {"total": total}, None, 0, total))
    explained = bool(item_findings) and net_scores(
        [Item.from_json(it) for it in result["items"]], len(claimed)) == claimed
    if not explained:
        out += [_missettled("R15.1", "seat_net_differs", {"seat": s, "claimed": claimed[s], "computed": computed[s]},
                            s, computed[s], claimed[s])
                for s in range(len(claimed)) if claimed[s] != computed[s]]
    out += _compare_dealer(result, sett)
    out += _compare_flip(result, sett)
    return out


def agrees(result: dict[str, Any], sett: Settlement, base: int) -> bool:
    """Whether `compare` finds nothing, without building a finding: the claimed scores, next dealer,
    flip (when the record gives one) and payment sums (when it gives items) are the settlement's.
    The fit (fit.search) asks this of every settlement it tries."""
    claimed = result["scores"]
    computed = sett.scores()
    if len(claimed) != len(computed) or any(c != s * base for c, s in zip(claimed, computed)):
        return False
    if result["next_dealer"] != sett.next_dealer:
        return False
    if "flip" in result and result["flip"] != (code(sett.flip) if sett.flip is not None else None):
        return False
    if "items" not in result:
        return True
    mine = _sums([(i.kind._value_, i.payer, i.payee, i.amount * base) for i in sett.items])
    theirs = _sums([(i["kind"], i["from"], i["to"], i["amount"]) for i in result["items"]])
    return all(mine.get(key, 0) == theirs.get(key, 0) for key in set(mine) | set(theirs))


def _compare_dealer(result: dict[str, Any], sett: Settlement) -> list[Finding]:
    if result["next_dealer"] == sett.next_dealer:
        return []
    return [_missettled(sett.next_dealer_rule, _NEXT_DEALER_CODES[sett.next_dealer_rule],
                        {"seat": sett.next_dealer, "claimed": result["next_dealer"]},
                        None, sett.next_dealer, result["next_dealer"])]


def _compare_flip(result: dict[str, Any], sett: Settlement) -> list[Finding]:
    if "flip" not in result:
        return []
    claimed = result["flip"]
    want: str | None = code(sett.flip) if sett.flip is not None else None
    if claimed == want:
        return []
    if want is None:
        return [_missettled("R11.5", "flip_not_turned", {"claimed": claimed}, None, want, claimed)]
    return [_missettled("R11.5", "flip_wrong", {"tile": want, "claimed": claimed}, None, want, claimed)]


def _sums(rows: list[tuple[str, int, int, int]]) -> dict[tuple[str, int, int], int]:
    out: dict[tuple[str, int, int], int] = defaultdict(int)
    for kind, payer, payee, amount in rows:
        out[(kind, payer, payee)] += amount
    return out


def compare_items(claimed_items: list[dict[str, Any]], sett: Settlement, base: int) -> list[Finding]:
    """R16.16: one finding per (kind, from, to) whose sums differ."""
    mine = _sums([(i.kind._value_, i.payer, i.payee, i.amount * base) for i in sett.items])  # not the slow .value
    theirs = _sums([(i["kind"], i["from"], i["to"], i["amount"]) for i in claimed_items])
    out = []
    for key in sorted(set(mine) | set(theirs), key=lambda k: (list(KIND_RULE).index(k[0]), k[1], k[2])):
        want, got = mine.get(key, 0), theirs.get(key, 0)
        if want != got:
            out.append(_item_finding(key, want, got, sett, base))
    return out


def _item_finding(key: tuple[str, int, int], want: int, got: int, sett: Settlement, base: int) -> Finding:
    kind, payer, payee = key
    rule, what, extra = _explain(key, want, got, sett, base)
    params: dict[str, Any] = {"kind": kind, "payer": payer, "payee": payee, "paid": got, "due": want, **extra}
    return _missettled(rule, what, params, payee, want, got)


def _explain(key: tuple[str, int, int], want: int, got: int, sett: Settlement,
             base: int) -> tuple[str, str, dict[str, Any]]:
    """The rule to cite, the code that says why, and its params, from the computed items and the burns."""
    kind, payer, payee = key
    same = [i for i in sett.items if (i.kind.value, i.payer, i.payee) == key]
    if kind in (ItemKind.CHICKEN, ItemKind.DOU) and payee in sett.burned and (
            want == 0 or (got > want and all(i.rule in _PAID_TO_BURNED for i in same))):
        # (What a burned seat is still paid, R18.2 as a discarder, R18.4 as a claimer, is not its credit:
        # more than that is a credit the burn takes away.)
        burn = sett.burned[payee]
        return (("R9.3" if burn.by is BurnKind.ROB else "R8.3"), "burn_not_applied",
                {"burn": burn.by.value, "burn_step": burn.step})
    if kind == ItemKind.DOU and payee in sett.void_kongs and got > want:
        void = sett.void_kongs[payee]
        if void.by is BurnKind.ROB:
            return "R9.3", "robbed_kong_paid", {"burn_step": void.step}
        return "R8.3", "voided_kong_paid", {"burn_step": void.step}
    if sett.waived and got > want:
        # R17/R18: a payment a house-rule parameter cancels, paid anyway (qualifying seats paying each
        # other, a 责任鸡 not owed, a second 冲锋鸡, melded chickens under 包鸡, a dealer bonus the
        # dealer pays, an exposed kong's dou paid to the konger, a burned shooter's liabilities).
        waived = [i for i in sett.waived if (i.kind.value, i.payer, i.payee) == key]
        hit = [i for i in waived if i.amount * base == got - want] or [
            i for i in waived if sum(w.amount for w in waived if w.rule == i.rule) * base == got - want]
        if hit:
            return hit[0].rule, "item_waived", {"notes": [hit[0].note_json()]}
        if len({i.rule for i in waived}) > 1 and sum(i.amount for i in waived) * base == got - want:
            # Several parameters cancel parts of the pair (R19.4 a burned shooter's own chickens, R18.4
            # its 冲锋鸡): all of it paid anyway, named by the first.
            return waived[0].rule, "item_waived", {"notes": [i.note_json() for i in waived]}
    if same:
        # Cite the payment the difference is made of (a missing 责任鸡 extra is R11.4, not R11.6).
        # When amounts tie, the more specific rule (R11.4 over the generic R11.6) names it better;
        # with no exact payment, a house-rule payment of the pair (R17-R19) is the likelier mistake.
        exact = sorted((i for i in same if i.amount * base == abs(want - got)),
                       key=lambda i: i.rule == KIND_RULE[kind])
        notes = list({repr(n): n for n in (i.note_json() for i in same)}.values())
        if not exact:
            same = sorted(same, key=lambda i: not is_house_rule(i.rule))
        return (exact or same)[0].rule, "item_amount_differs", {"notes": notes}
    related = [i for i in sett.items if i.kind.value == kind and i.payee == payee]
    if related:
        rule = related[0].rule
        if rule == "R9.3":
            return rule, "rob_paid_by_others", {"robbed": related[0].payer}
        return rule, "item_not_owed", {}
    return KIND_RULE[kind], "item_not_due", {}
