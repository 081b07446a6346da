"""Benchmark: how many mis-settled mutants the audit explains by the payment behind them (R16.16).

Each mis-settled mutant of the mutation harness (sim/mutate.py) is audited twice: as planted,
with its items, and stripped to scores only (`python -m sim.mutate --strip-items`). Per fault
class (the mutation) the table counts:

- planted: the mutants whose item-by-item audit cites a payment rule;
- named: the stripped audit names a payment (a `net_item_*` finding: kind, payer, payee, amounts, step);
- correct: one of the named payments cites the rule the item-by-item audit cites;
- tied: of the correct ones, those among two to four equally good readings (`net_either`);
- many: more than four readings tie (`net_many_readings`: the scores do not say which payment);
- unnamed: no reading within the bound (`net_not_explained`).

Run: `.venv/bin/python bench/bench_explained.py [--games N] [--mutation CLASS ...] [--show]` (the
reference games, the worked examples and N simulated hands per profile; `--games 13` plants 200;
`--show` lists every mutant not named correctly, with what the mutator did and what the audit said).
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from audit.api import audit_record, list_profiles  # noqa: E402
from sim.mutate import mutants, stripped  # noqa: E402
from sim.simulate import simulate  # noqa: E402

ITEM_CODES = ("burn_not_applied", "robbed_kong_paid", "voided_kong_paid", "item_waived", "item_amount_differs",
              "rob_paid_by_others", "item_not_owed", "item_not_due")
COLUMNS = ("planted", "named", "correct", "tied", "many", "unnamed")


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


def outcome(want: set[str], audit: dict[str, Any]) -> list[str]:
    """The columns one stripped mutant counts in (besides `planted`)."""
    codes = {f["code"] for f in audit["findings"]}
    rules, tie = named_rules(audit)
    out = []
    if rules:
        out.append("named")
    if want & rules:
        out += ["correct"] + (["tied"] if tie else [])
    if "net_many_readings" in codes:
        out.append("many")
    elif not rules:
        out.append("unnamed")
    return out


def _said(audit: dict[str, Any]) -> str:
    """What the scores-only audit said about the payments, in one line (for --show)."""
    parts = []
    for f in audit["findings"]:
        p = f.get("params", {})
        if f["code"].startswith("net_item_"):
            parts.append(f"{f['code'][9:]}[{p.get('reading')}] {f['rule']} {p.get('kind')} {p.get('payer')}->"
                         f"{p.get('payee')} due {p.get('due')} fits {p.get('fits')}"
                         + (f" {p['parameter']}={p['value']}" if "parameter" in p else ""))
        elif f["code"].startswith("net_") or f["code"] == "seat_net_differs":
            parts.append(f"{f['code']} {json.dumps(p, ensure_ascii=False)}")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=20, help="simulated hands per profile, besides the golden games")
    p.add_argument("--mutation", action="append", default=[], metavar="CLASS",
                   help="only this fault class (repeatable; default every class)")
    p.add_argument("--show", action="store_true", help="list every mutant not named under its rule")
    args = p.parse_args(argv)
    counts: dict[str, Counter[str]] = {}
    untestable: Counter[str] = Counter()
    times: list[float] = []
    start = time.perf_counter()
    for rec in corpus(args.games):
        if "items" not in rec["result"]:
            continue
        for m in mutants(rec):
            if m.expected.verdict != "missettled" or "items" not in m.record["result"]:
                continue
            if args.mutation and m.mutation not in args.mutation:
                continue
            want = item_rules(audit_record(m.record))
            if not want:
                untestable[m.mutation] += 1  # the fault is not in a payment (flip, next dealer, sums)
                continue
            t0 = time.process_time()
            audit = audit_record(stripped(m).record)
            times.append(time.process_time() - t0)
            row = counts.setdefault(m.mutation, Counter())
            row["planted"] += 1
            row.update(outcome(want, audit))
            if args.show and "correct" not in outcome(want, audit):
                print(f"{m.mutation} {m.record.get('game_id')} [{m.record['rules']['profile']}] want {sorted(want)}: "
                      f"{m.record['extra'].get('note')}\n    {_said(audit)}")
    print(f"{'class':<28}" + "".join(f"{c:>9}" for c in COLUMNS))
    total: Counter[str] = Counter()
    for cls in sorted(counts):
        total.update(counts[cls])
        print(f"{cls:<28}" + "".join(f"{counts[cls][c]:>9}" for c in COLUMNS))
    n = max(total["planted"], 1)
    print(f"{'all':<28}" + "".join(f"{total[c]:>9}" for c in COLUMNS)
          + f"   ({total['named'] / n:.0%} named, {total['correct'] / n:.0%} correct)")
    if untestable:
        print("not a payment (flip, next dealer, sums):", dict(untestable))
    if times:
        print(f"scores-only audit of a mutant (CPU): median {statistics.median(times) * 1000:.1f} ms, "
              f"max {max(times) * 1000:.0f} ms, all {sum(times):.2f} s")
    print(f"{time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
