"""The simulator under a profile with every R17 parameter on: its bots make the situations happen
(claimed 1s and 8p, unready kongers, four equal first discards) and every hand audits clean."""
from __future__ import annotations

from collections import Counter

from audit.api import audit_record
from sim.simulate import simulate

ALL_ON = {"wugu_ji": True, "chicken.exposed_payers": "all_unready", "chicken.qualified_pay_each_other": False,
          "chicken.claimed_charge": "to_claimer", "chicken.responsibility_claims": "any",
          "chicken.responsibility_if_discarder_ready": False, "chicken.wugu_gold": True, "dou_unready": "reverse",
          "follow_dealer": 2, "chicken.wugu_responsibility": False, "chicken.charge_scope": "first_any"}
"""cuocuo (chicken_requires_ready, dou_requires_ready, 8p at 2 / 4) with all ten on."""


def _first_discards(events: list[dict]) -> dict[int, str]:
    out: dict[int, str] = {}
    for e in events:
        if e["type"] == "discard":
            out.setdefault(e["seat"], e["tile"])
    return out


def test_all_r17_parameters_on_over_a_few_hundred_seeds() -> None:
    tags: Counter[str] = Counter()
    for seed in range(240):
        gen = next(simulate("cuocuo", ALL_ON, 1, seed))
        rec = gen.record
        a = audit_record(rec)
        assert a["verdict"] == "clean", (seed, a["findings"][:2])
        assert sum(a["settlement"]["scores"]) == 0
        tags.update(gen.tags)
        items = rec["result"]["items"]
        # 跟庄 read from the events alone: every seat's first discard the dealer's, the hand won
        firsts = _first_discards(rec["events"])
        followed = len(firsts) == 4 and len(set(firsts.values())) == 1 and gen.state.wins
        follow = [i for i in items if i["kind"] == "follow_dealer"]
        assert bool(follow) == bool(followed), seed
        assert all(i["from"] == rec["dealer"] and i["amount"] == 2 * rec["base"] for i in follow)
        # 倒赔: only from a seat that neither won nor is ready, only to seats that did or are
        good = {w.seat for w in gen.state.wins} | {s for s, v in gen.settlement.ready.items() if v is not None}
        for it in gen.settlement.items:
            if it.rule == "R17.7":
                assert it.payer not in good and it.payee in good
    for tag in ("跟庄", "倒赔", "责任鸡", "冲锋鸡", "乌骨鸡"):
        assert tags[tag] >= 3, (tag, tags)
