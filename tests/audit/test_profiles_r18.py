"""R18: the five conventions of running engines in the profile model: defaults at today's rule,
validated like the others (a wrong value is a `P` finding naming its path), usable from a profile
file and from `rules.options`; the values R18 allows "only where" are refused without it."""
from __future__ import annotations

from pathlib import Path

import pytest

from audit.api import audit_record
from audit.house import two_parts
from audit.house_rules import HOUSE_RULES
from audit.profiles import ProfileError, load_profile, resolve
from tests.audit.test_compare import example
from tests.audit.test_profiles_r17 import _get

R18_CHOICES: dict[str, tuple[str, str, str]] = {  # dotted name -> (default, the other value, a profile that has it)
    h.path: (h.default, h.sections[0].values[0], "cuocuo" if h.group == "dealer_bonus" else "weile")
    for h in HOUSE_RULES if h.rule.startswith("R18.")}
"""From the registry (audit/house_rules.py): each R18 parameter with its R18 value."""


@pytest.mark.parametrize("name", ["weile", "cuocuo", "kuhu", "senyan", "guizhou"])
def test_every_profile_plays_todays_rule(name: str) -> None:
    p = load_profile(name)
    for dotted, (default, _, _) in R18_CHOICES.items():
        if dotted.startswith("dealer_bonus.") and p.dealer_bonus is None:
            continue
        assert _get(p, dotted) == default, dotted
    assert not two_parts(p)  # the chicken notes word a 冲锋鸡 as R11 does


@pytest.mark.parametrize("options,profile,path,needs", [
    ({"dou_ready_test": "ever"}, "kuhu", "dou_ready_test", "dou_requires_ready"),
    ({"hot_shot.burn_liabilities": "void"}, "senyan", "hot_shot.burn_liabilities", "hot_shot.burn"),
])
def test_only_where_values_are_refused_without_their_condition(options: dict, profile: str, path: str,
                                                              needs: str) -> None:
    """R18.3 "only where dou_requires_ready is true", R18.4 "only where hot_shot.burn is all": without
    it the profile cannot honour the value (R16.10), so it is refused naming the parameter and the
    condition, never silently ignored."""
    with pytest.raises(ProfileError) as excinfo:
        resolve(profile, options)  # kuhu: dou_requires_ready false; senyan: burn that_kong
    err = excinfo.value
    assert err.code == "house_rule_needs" and path in err.path and err.params["needs"] == needs
    assert err.params["rule"] in ("R18.3", "R18.4")
    resolve("weile", options)  # weile: dou_requires_ready and burn all: accepted


def test_dealer_bonus_on_is_refused_where_there_is_no_dealer_bonus() -> None:
    """R18.1 "only where dealer_bonus is set": weile has none, so the direction alone is refused;
    with a whole dealer bonus in the options it is accepted."""
    with pytest.raises(ProfileError) as excinfo:
        resolve("weile", {"dealer_bonus.on": "dealer_wins"})
    assert excinfo.value.code == "house_rule_needs_section" and "dealer_bonus.on" in excinfo.value.path
    prof = resolve("weile", {"dealer_bonus": {"base": 1, "per_streak": 1, "mode": "max", "on": "dealer_wins"}})
    assert prof.dealer_bonus is not None and prof.dealer_bonus.on == "dealer_wins"


def test_refusal_in_a_record_is_a_p_schema_finding() -> None:
    doc = example("hot-shot-weile")
    doc["rules"]["options"] = {"dou.exposed_payer": "everyone"}
    a = audit_record(doc)
    assert a["verdict"] == "invalid"
    assert [(f["kind"], f["rule"], f["code"]) for f in a["findings"]] == [("schema", "P", "parameter_not_one_of")]
    assert "dou.exposed_payer" in a["findings"][0]["params"]["path"]
    doc["rules"]["options"] = {"dou_ready_test": "ever", "dou_requires_ready": False}
    a = audit_record(doc)
    assert [(f["rule"], f["code"]) for f in a["findings"]] == [("P", "house_rule_needs")]


def test_an_operator_profile_file_turns_them_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (Path(__file__).parents[2] / "audit" / "profiles" / "cuocuo.toml").read_text(encoding="utf-8")
    text = text.replace('name = "cuocuo"', 'name = "engine"')
    for dotted, (default, other, _) in R18_CHOICES.items():
        field = dotted.rpartition(".")[2]
        assert f'{field} = "{default}"' in text, field
        text = text.replace(f'{field} = "{default}"', f'{field} = "{other}"')
    (tmp_path / "engine.toml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("ZHUOJI_PROFILE_DIR", str(tmp_path))
    p = load_profile("engine")
    assert all(_get(p, d) == other for d, (_, other, _) in R18_CHOICES.items())
    assert two_parts(p)
    bad = text.replace('burn = "all"', 'burn = "that_kong"').replace('name = "engine"', 'name = "bad"')
    (tmp_path / "bad.toml").write_text(bad, encoding="utf-8")
    with pytest.raises(ProfileError) as excinfo:
        load_profile("bad")
    assert excinfo.value.code == "house_rule_needs" and excinfo.value.path == "hot_shot.burn_liabilities"
