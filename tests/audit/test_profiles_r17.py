"""R17: the ten house-rule parameters in the profile model: defaults at today's rule, validated
like the others, usable from a profile file and from `rules.options`."""
from __future__ import annotations

from pathlib import Path

import pytest

from audit.house_rules import HOUSE_RULES
from audit.profiles import ProfileError, load_profile, resolve
from audit.api import audit_record
from tests.audit.test_compare import example

R17_CHOICES: dict[str, tuple[object, list[object]]] = {  # dotted name -> (default, the other allowed values)
    h.path: (h.default, [v for sec in h.sections for v in sec.values])
    for h in HOUSE_RULES if h.rule.startswith("R17.") and h.default is not None}
"""From the registry (audit/house_rules.py): the R17 parameters with a list of values (not R17.8's number)."""


def _get(prof: object, dotted: str) -> object:
    for part in dotted.split("."):
        prof = getattr(prof, part)
    return prof


@pytest.mark.parametrize("name", ["weile", "cuocuo", "kuhu", "senyan", "guizhou"])
def test_every_profile_plays_todays_rule(name: str) -> None:
    p = load_profile(name)
    for dotted, (default, _) in R17_CHOICES.items():
        assert _get(p, dotted) == default, dotted
    assert p.follow_dealer is None


def test_follow_dealer_is_units_or_absent() -> None:
    assert resolve("weile", {"follow_dealer": 2}).follow_dealer == 2
    for bad, code in ((-1, "parameter_negative"), ("2", "parameter_not_integer"), (True, "parameter_not_integer")):
        with pytest.raises(ProfileError) as excinfo:
            resolve("weile", {"follow_dealer": bad})
        assert excinfo.value.code == code and "follow_dealer" in excinfo.value.path


@pytest.mark.parametrize("options,path", [
    ({"chicken.exposed_payers": "all_unready"}, "chicken.exposed_payers"),
    ({"chicken.qualified_pay_each_other": False}, "chicken.qualified_pay_each_other"),
    ({"dou_unready": "reverse"}, "dou_unready"),
])
def test_only_where_values_are_refused_without_their_condition(options: dict, path: str) -> None:
    """R17.1, R17.2, R17.7 say "only where X is true": without X the profile cannot honour the value
    (R16.10), so it is refused naming the parameter and X, never silently ignored."""
    with pytest.raises(ProfileError) as excinfo:
        resolve("kuhu", options)  # kuhu: chicken_requires_ready and dou_requires_ready false
    assert excinfo.value.code == "parameter_needs" and path in excinfo.value.path
    assert excinfo.value.params["needs"] in ("chicken_requires_ready", "dou_requires_ready")
    resolve("weile", options)  # weile requires readiness for both: accepted


def test_under_wugu_values_are_accepted_without_wugu() -> None:
    """R17.6, R17.9, R17.10 act "under wugu_ji", which a record's options may switch per hand: without it
    they simply have no effect (tests/audit/test_r17.py plays that)."""
    for options in ({"chicken.wugu_gold": True}, {"chicken.charge_scope": "first_any"},
                    {"chicken.wugu_responsibility": False}):
        assert not resolve("weile", options).wugu_on


def test_charge_below_normal_is_refused() -> None:
    with pytest.raises(ProfileError) as excinfo:
        resolve("weile", {"chicken": {"normal": 4}})
    assert excinfo.value.code == "charge_below_normal" and excinfo.value.params["charge"] == 3


def test_refusal_in_a_record_is_a_p_schema_finding() -> None:
    doc = example("hot-shot-weile")
    doc["rules"]["options"] = {"chicken.exposed_payers": "everyone"}
    a = audit_record(doc)
    assert a["verdict"] == "invalid"
    assert [(f["kind"], f["rule"], f["code"]) for f in a["findings"]] == [("schema", "P", "parameter_not_one_of")]


def test_an_operator_profile_file_turns_them_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = (Path(__file__).parents[2] / "audit" / "profiles" / "weile.toml").read_text(encoding="utf-8")
    text = text.replace('name = "weile"', 'name = "baoji"').replace('dou_unready = "void"', 'dou_unready = "reverse"\nfollow_dealer = 1')
    text = text.replace('exposed_payers = "owner"', 'exposed_payers = "all_unready"')
    (tmp_path / "baoji.toml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("ZHUOJI_PROFILE_DIR", str(tmp_path))
    p = load_profile("baoji")
    assert (p.dou_unready, p.follow_dealer, p.chicken.exposed_payers) == ("reverse", 1, "all_unready")
    bad = text.replace('dou_requires_ready = true', 'dou_requires_ready = false').replace('name = "baoji"', 'name = "bad"')
    (tmp_path / "bad.toml").write_text(bad, encoding="utf-8")
    with pytest.raises(ProfileError) as excinfo:
        load_profile("bad")
    assert excinfo.value.code == "parameter_needs" and excinfo.value.path == "dou_unready"
