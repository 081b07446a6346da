"""R15: the claimed `result` against the computed settlement, difference by difference.

Each finding says in words what the platform did wrong, and cites the rule of
the payment concerned (R16.16): a burned seat that was paid cites R8.3/R9.3,
a wrong payer under 抢杠 cites R9.3, and so on.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any, Final

from audit.findings import Finding, Kind
from audit.kinds import ItemKind
from audit.settle import KIND_RULE, Item, Settlement, net_scores
from audit.tiles import code

_KIND_ZH: Final = {"hand": "hand payment (胡)", "dealer": "dealer bonus (庄)", "dou": "dou (豆)",
                   "chicken": "chickens (鸡)", "hot_shot": "热炮 kong transfer", "draw_settle": "查叫 payment"}


def _missettled(rule: str, message: str, seat: int | None = None, expected: Any = None,
                actual: Any = None) -> Finding:
    return Finding(Kind.MISSETTLED, rule, message, None, seat, expected, actual)


def compare(result: dict[str, Any], sett: Settlement, base: int) -> list[Finding]:
    """Every difference between the record's result and the rules' settlement."""
    out: list[Finding] = []
    computed = [s * base for s in sett.scores()]
    claimed = list(result["scores"])
    item_findings: list[Finding] = []
    if "items" in result:
        item_findings = _compare_items(result["items"], sett, base)
        out += item_findings
    total = sum(claimed)
    if total != 0:
        out.append(_missettled("R15.1", f"the record's scores sum to {total}, not 0", None, 0, total))
    explained = bool(item_findings) and net_scores(
        [Item.from_json(it) for it in result["items"]], len(claimed)) == claimed
    if not explained:
        out += [_missettled("R15.1", f"seat {s} nets {claimed[s]} in the record but {computed[s]} by the rules",
                            s, computed[s], claimed[s])
                for s in range(len(claimed)) if claimed[s] != computed[s]]
    out += _compare_dealer(result, sett)
    out += _compare_flip(result, sett)
    return out


def _compare_dealer(result: dict[str, Any], sett: Settlement) -> list[Finding]:
    if result["next_dealer"] == sett.next_dealer:
        return []
    return [_missettled(sett.next_dealer_rule, f"the next dealer is seat {sett.next_dealer} "
                        f"({_dealer_reason(sett)}), the record says seat {result['next_dealer']}",
                        None, sett.next_dealer, result["next_dealer"])]


def _dealer_reason(sett: Settlement) -> str:
    if sett.next_dealer_rule == "R14.1":
        return "the winner deals next"
    if sett.next_dealer_rule == "R14.2":
        return "several winners on one discard"
    return "exhaustive draw"


def _compare_flip(result: dict[str, Any], sett: Settlement) -> list[Finding]:
    if "flip" not in result:
        return []
    claimed = result["flip"]
    want = code(sett.flip) if sett.flip is not None else None
    if claimed == want:
        return []
    if want is None:
        why = "no tile is turned (no win, or the wall is empty)"
    else:
        why = f"the front of the wall after the win is {want}"
    return [_missettled("R11.5", f"the flip tile (翻牌) is {want}: {why}; the record says {claimed}",
                        None, want, claimed)]


def _sums(rows: list[tuple[str, int, int, int]]) -> dict[tuple[str, int, int], int]:
    out: dict[tuple[str, int, int], int] = defaultdict(int)
    for kind, payer, payee, amount in rows:
        out[(kind, payer, payee)] += amount
    return out


def _compare_items(claimed_items: list[dict[str, Any]], sett: Settlement, base: int) -> list[Finding]:
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
    rule, why = _explain(key, want, got, sett, base)
    msg = (f"{_KIND_ZH[kind]} from seat {payer} to seat {payee}: the record pays {got}, the rules give {want}"
           + (f": {why}" if why else ""))
    return _missettled(rule, msg, payee, want, got)


def _explain(key: tuple[str, int, int], want: int, got: int, sett: Settlement, base: int) -> tuple[str, str]:
    """The rule to cite and the reason in words, from the computed items and the burns."""
    kind, payer, payee = key
    if kind in (ItemKind.CHICKEN, ItemKind.DOU) and payee in sett.burned and want == 0:
        burn = sett.burned[payee]
        rule = "R9.3" if burn.startswith("抢杠") else "R8.3"
        return rule, f"seat {payee}'s {'chicken credits' if kind == 'chicken' else 'dou'} are burned ({burn})"
    if kind == ItemKind.DOU and payee in sett.void_kongs and got > want:
        why = sett.void_kongs[payee]
        return ("R9.3" if why.startswith("抢杠") else "R8.3"), why
    same = [i for i in sett.items if (i.kind.value, i.payer, i.payee) == key]
    if same:
        # Cite the payment the difference is made of (a missing 责任鸡 extra is R11.4, not R11.6).
        # When amounts tie, the more specific rule (R11.4 over the generic R11.6) names it better.
        exact = sorted((i for i in same if i.amount * base == abs(want - got)),
                       key=lambda i: i.rule == KIND_RULE[kind])
        return (exact or same)[0].rule, "; ".join(dict.fromkeys(i.note for i in same))
    related = [i for i in sett.items if i.kind.value == kind and i.payee == payee]
    if related:
        rule = related[0].rule
        if rule == "R9.3":
            return rule, f"under 抢杠 only the robbed seat {related[0].payer} pays (包三家)"
        return rule, f"seat {payer} owes seat {payee} no {_KIND_ZH[kind]}"
    return KIND_RULE[kind], "no such payment is due"

