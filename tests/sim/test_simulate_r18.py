"""The simulator plays every R17 and R18 house-rule parameter: `--option` for each (R17.6, R17.9 and
R17.10 bring 乌骨鸡 into play), its bots make the situation happen, and every hand audits clean with
the parameter acting (a payment of the settlement, paid or waived, cites its rule).

Size: `test_each_parameter_plays_and_audits_clean` runs PARAMETER_HANDS hands per parameter (40 by
default, about 15 s in all on this machine); `test_hundreds_of_hands_per_parameter` (marked
`benchmark`, left out of `make test`; `pytest -m benchmark tests/sim/test_simulate_r18.py`) runs
LONG_HANDS (400) per parameter and prints how many hands each rule acted in."""
from __future__ import annotations

import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from audit.api import audit_record
from sim.simulate import WUGU_VALUES, playable, run, simulate

HOUSE: list[tuple[str, str, Any, str]] = [
    # (rule, parameter, its non-default value, a profile that allows it)
    ("R17.1", "chicken.exposed_payers", "all_unready", "weile"),
    ("R17.2", "chicken.qualified_pay_each_other", False, "weile"),
    ("R17.3", "chicken.claimed_charge", "to_claimer", "weile"),
    ("R17.4", "chicken.responsibility_claims", "any", "weile"),
    ("R17.5", "chicken.responsibility_if_discarder_ready", False, "weile"),
    ("R17.6", "chicken.wugu_gold", True, "weile"),
    ("R17.7", "dou_unready", "reverse", "weile"),
    ("R17.8", "follow_dealer", 1, "weile"),
    ("R17.9", "chicken.wugu_responsibility", False, "weile"),
    ("R17.10", "chicken.charge_scope", "first_any", "weile"),
    ("R18.1", "dealer_bonus.on", "dealer_wins", "cuocuo"),
    ("R18.2", "dou.exposed_payer", "konger", "weile"),
    ("R18.3", "dou_ready_test", "ever", "weile"),
    ("R18.4", "hot_shot.burn_liabilities", "void", "weile"),
    ("R18.5", "chicken.exposed_kong_claim", "keeps_charge", "weile"),
]
PARAMETER_HANDS = int(os.environ.get("SIM_PARAMETER_HANDS", "40"))
LONG_HANDS = int(os.environ.get("SIM_LONG_HANDS", "400"))


def played(rule: str, name: str, value: Any, profile: str, hands: int, seed: int) -> tuple[int, int]:
    """Simulate `hands` hands under the one parameter, audit each from its JSON; (hands the rule acted
    in, hands), failing on any hand that does not audit clean or whose scores do not sum to zero."""
    acted = 0
    for gen in simulate(profile, {name: value}, hands, seed):
        rec = json.loads(json.dumps(gen.record))
        audit = audit_record(rec)
        assert audit["verdict"] == "clean", (rule, rec["game_id"], audit["findings"][:2])
        assert sum(audit["settlement"]["scores"]) == 0
        sett = gen.settlement
        acted += any(it.rule == rule for it in sett.items + sett.waived)
    return acted, hands


@pytest.mark.parametrize("rule,name,value,profile", HOUSE, ids=[h[0] for h in HOUSE])
def test_each_parameter_plays_and_audits_clean(rule: str, name: str, value: Any, profile: str) -> None:
    acted, _ = played(rule, name, value, profile, PARAMETER_HANDS, 2100)
    assert acted >= 1, f"{rule} never acted in {PARAMETER_HANDS} hands"


@pytest.mark.benchmark
@pytest.mark.parametrize("rule,name,value,profile", HOUSE, ids=[h[0] for h in HOUSE])
def test_hundreds_of_hands_per_parameter(rule: str, name: str, value: Any, profile: str) -> None:
    acted, hands = played(rule, name, value, profile, LONG_HANDS, 2200)
    print(f"{rule} {name}={value}: acted in {acted} of {hands} hands")
    assert acted >= 5


def test_options_that_need_wugu_bring_it_into_play() -> None:
    """R17.6, R17.9, R17.10 act only under 乌骨鸡: weile has no 8p values, so the rulebook's option
    values are used; cuocuo has its own (`true`); an explicit wugu_ji is left alone."""
    opts, needs = playable("weile", {"chicken.charge_scope": "first_any"})
    assert opts == {"chicken.charge_scope": "first_any", "wugu_ji": WUGU_VALUES} and needs == ["chicken.charge_scope"]
    assert playable("cuocuo", {"chicken.wugu_gold": True})[0] == {"chicken.wugu_gold": True, "wugu_ji": True}
    assert playable("weile", {"chicken.wugu_gold": True, "wugu_ji": False}) == (
        {"chicken.wugu_gold": True, "wugu_ji": False}, [])
    assert playable("weile", {"dou_unready": "reverse"}) == ({"dou_unready": "reverse"}, [])
    gen = next(simulate("weile", {"chicken.wugu_responsibility": False}, 1, 3))
    assert gen.record["rules"]["options"] == {"chicken.wugu_responsibility": False, "wugu_ji": WUGU_VALUES}
    assert gen.state.profile.wugu_on


def test_the_command_says_when_it_brings_wugu_into_play(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run(["--profile", "weile", "--option", "chicken.wugu_gold=true", "--hands", "2", "--out",
                str(tmp_path / "h.jsonl")], out=out) == 0
    first = out.getvalue().splitlines()[0]
    assert "wugu_ji" in first and "chicken.wugu_gold" in first
    rec = json.loads((tmp_path / "h.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert rec["rules"]["options"]["wugu_ji"] == WUGU_VALUES


def test_an_r18_option_the_profile_cannot_honour_is_a_usage_error(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """R18.1 needs a dealer bonus (weile has none), R18.3 dou_requires_ready (kuhu has it false)."""
    for argv in (["--profile", "weile", "--option", "dealer_bonus.on=dealer_wins"],
                 ["--profile", "kuhu", "--option", "dou_ready_test=ever"]):
        assert run([*argv, "--hands", "1", "--out", str(tmp_path / "x.jsonl")]) == 2
        assert "R18." in capsys.readouterr().err
