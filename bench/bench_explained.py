"""Benchmark: how many mis-settled mutants the audit explains by the payment behind them (R16.16).

Each mis-settled mutant of the mutation harness (sim/mutate.py) is audited twice: as planted,
with its items, and stripped to scores only (`python -m sim.mutate --strip-items`). A stripped
mutant counts as explained when a finding names a payment (kind, payer, payee, amounts, step:
the `net_item_*` codes) under the rule the item-by-item audit of the same mutant cites; as
ambiguous when that rule is among two or more equally good readings (`net_either`).

Run: `.venv/bin/python bench/bench_explained.py [--games N]` (the reference games, the worked
examples and N simulated hands per profile).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.api import audit_record  # noqa: E402
from audit.profiles import list_profiles  # noqa: E402
from sim.mutate import mutants, stripped  # noqa: E402
from sim.simulate import result_json, simulate  # noqa: E402

ITEM_CODES = ("burn_not_applied", "robbed_kong_paid", "voided_kong_paid", "item_waived", "item_amount_differs",
              "rob_paid_by_others", "item_not_owed", "item_not_due")


def corpus(games: int) -> list[dict[str, Any]]:
    files = sorted((ROOT / "spec" / "reference").glob("ref-*.json"))
    files += sorted(p for p in (ROOT / "spec" / "examples").glob("*.json") if not p.name.endswith(".audit.json"))
    out = [json.loads(p.read_text(encoding="utf-8")) for p in files]
    for name in list_profiles():
        out += [g.record for g in simulate(name, {}, games, 7)]
    return [itemised(r) for r in out if "hands" not in r]


def itemised(rec: dict[str, Any]) -> dict[str, Any]:
    """A clean record with the rules' own items (the mutators plant their fault in the items)."""
    audit = audit_record(rec)
    if audit["verdict"] == "clean" and audit["settlement"] is not None:
        rec["result"]["items"] = [{k: it[k] for k in ("kind", "from", "to", "amount", "note")}
                                  for it in audit["settlement"]["items"]]
    return rec


def item_rules(audit: dict[str, Any]) -> set[str]:
    """The rules the item-by-item audit cites for its payment differences."""
    return {f["rule"] for f in audit["findings"] if f["code"] in ITEM_CODES}


def named_rules(audit: dict[str, Any]) -> tuple[set[str], bool]:
    """The rules of the payments the scores-only audit names, and whether readings tie."""
    rules = {f["rule"] for f in audit["findings"] if f["code"].startswith("net_item_")}
    return rules, any(f["code"] == "net_either" for f in audit["findings"])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--games", type=int, default=20, help="simulated hands per profile, besides the golden games")
    args = p.parse_args(argv)
    totals: Counter[str] = Counter()
    explained: Counter[str] = Counter()
    ambiguous: Counter[str] = Counter()
    untestable: Counter[str] = Counter()
    start = time.perf_counter()
    for rec in corpus(args.games):
        if "items" not in rec["result"]:
            continue
        for m in mutants(rec):
            if m.expected.verdict != "missettled" or "items" not in m.record["result"]:
                continue
            want = item_rules(audit_record(m.record))
            if not want:
                untestable[m.mutation] += 1  # the fault is not in a payment (flip, next dealer, sums)
                continue
            totals[m.mutation] += 1
            rules, tie = named_rules(audit_record(stripped(m).record))
            if want & rules:
                explained[m.mutation] += 1
                ambiguous[m.mutation] += tie
    print(f"{'class':<32} {'mutants':>7} {'explained':>9} {'share':>6} {'of which tied':>13}")
    for cls in sorted(totals):
        n = totals[cls]
        print(f"{cls:<32} {n:>7} {explained[cls]:>9} {explained[cls] / n:>6.0%} {ambiguous[cls]:>13}")
    n, e = sum(totals.values()), sum(explained.values())
    print(f"{'all':<32} {n:>7} {e:>9} {e / max(n, 1):>6.0%} {sum(ambiguous.values()):>13}")
    if untestable:
        print("not a payment (flip, next dealer, sums):", dict(untestable))
    print(f"{time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
