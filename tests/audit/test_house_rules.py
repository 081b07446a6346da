"""audit/house_rules.py: one registry entry per house-rule parameter of R17, R18 and R19, and every list
that names house rules derived from it (or checked against it).

`check_complete(rule)` is what a parameter added by docs/where-to-add.md must satisfy: its model field,
words, refusals, explanation code, coverage row, simulator row, mutation class and docs row. Each check
names what is missing, so a forgotten step fails here with its name.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest

from audit import house_rules, rulebook
from audit.catalogue import CATALOGUE, finding_message
from audit.explain import MODELS, not_played_code
from audit.house_rules import BY_PATH, HOUSE_RULES, PRESENT, SECTIONS, Fault, HouseRule
from audit.lang import Lang
from audit.profiles import Profile, ProfileError, list_profiles, load_profile, resolve
from kit import coverage
from sim import bots, mutate, simulate
from tests.audit.test_rule_texts import house_rule_codes, profile_parameters, r17_parameters

ROOT = Path(__file__).parents[2]
HOUSE_SECTIONS = ("R17", "R18", "R19")


def _named_in_rulebook() -> dict[str, list[str]]:
    """Parameter -> the rules that name it first in R17, R18, R19 (R19.2 and R19.4 add values to R17.3
    and R18.4's parameters)."""
    out: dict[str, list[str]] = {}
    for top in HOUSE_SECTIONS:
        for code, name in house_rule_codes(top):
            out.setdefault(name, []).append(code)
    return out


def test_exactly_one_entry_per_parameter_the_rulebook_names() -> None:
    named = _named_in_rulebook()
    assert sorted(named) == sorted(BY_PATH), "one registry entry per parameter of R17, R18, R19"
    assert len(HOUSE_RULES) == len(BY_PATH)
    for path, codes in named.items():
        assert [sec.rule for sec in BY_PATH[path].sections] == codes, path
    assert set(r17_parameters("R19")) <= set(BY_PATH)


def _field(path: str) -> dataclasses.Field[Any]:
    """The dataclass field of a dotted profile parameter (through optional tables)."""
    cls: Any = Profile
    *groups, name = path.split(".")
    for group in groups:
        tp = get_type_hints(cls)[group]
        cls = next(a for a in get_args(tp) if a is not type(None)) if get_args(tp) else tp
    return {f.name: f for f in dataclasses.fields(cls)}[name]


# ---------------------------------------------------------------- one parameter, complete

def check_model(rule: HouseRule) -> None:
    """The profile model has the parameter, its default is the registry's, and its values are the
    sections' values (a number for a section that defines none)."""
    field = _field(rule.path)
    assert field.default == rule.default, f"{rule.path}: the dataclass default is not today's rule"
    choices = profile_parameters()[rule.path]
    defined = [v for sec in rule.sections for v in sec.values]
    if isinstance(rule.default, bool):
        assert defined == [not rule.default], rule.path
    elif choices:
        assert sorted(map(repr, choices)) == sorted(map(repr, [rule.default, *defined])), rule.path
    else:
        assert all(not sec.values for sec in rule.sections), rule.path
    for value in rule.tries:
        assert rule.section_of(value) is not None, f"{rule.path}: tries today's rule"


def check_words(rule: HouseRule) -> None:
    """Its words, and each value's, in both languages (catalogue/parameters.toml)."""
    for lang in Lang:
        assert rulebook.parameter_label(rule.path, lang), rule.path
        for sec in rule.sections:
            for value in (rule.default, *sec.values) if sec.values and rule.default is not None else ():
                assert rulebook.value_label(rule.path, value, lang), (rule.path, value)


def check_explained(rule: HouseRule) -> None:
    """Each section has its explanation model (R16.16) and that model's finding code, citing it."""
    codes = {(r, c) for r, c, _ in MODELS}
    for sec in rule.sections:
        code = not_played_code(sec.rule)
        assert (sec.rule, code) in codes, f"{sec.rule}: no explanation model"
        entry = CATALOGUE.findings.get(code)
        assert entry is not None and entry.rules == (sec.rule,), f"{code}: no finding in findings.toml"


def check_catalogue_lists(rule: HouseRule) -> None:
    """The findings that cite payments list its sections (derived: `house_rules = ...`)."""
    for sec in rule.sections:
        assert sec.rule in CATALOGUE.findings["net_item_missing"].rules
        assert (sec.rule in CATALOGUE.findings["item_waived"].rules) == sec.waives
        assert (sec.rule in CATALOGUE.findings["item_amount_differs"].rules) == sec.pays


def check_simulated(rule: HouseRule) -> None:
    """The simulator counts it (a summary row per section), its knob is a knob, and the mutator plants
    one class per section."""
    knobs = {f.name for f in dataclasses.fields(bots.Knobs)}
    assert rule.knob is None or rule.knob in knobs, f"{rule.path}: knob {rule.knob} is no Knobs field"
    for sec in rule.sections:
        assert simulate.HOUSE_TAGS[sec.rule] == sec.tag and sec.tag in simulate.TAGS
        assert sec.mutation in mutate.CLASSES and sec.mutation in mutate.MUTATORS, sec.mutation
        assert (sec.fault is Fault.OWN) == (sec.mutation in mutate.OWN_FAULTS), sec.mutation


def check_covered(rule: HouseRule) -> None:
    """The kit requires a case of it where a profile plays it, and of its section."""
    reqs = {r.item: r for r in coverage.requirements(load_profile("weile"), ())}
    assert f"p:{rule.path}" in reqs
    for sec in rule.sections:
        assert rulebook.section_of(sec.rule) in reqs


def check_documented(rule: HouseRule) -> None:
    """docs/house-rules.md has the generated table (and so its rows), and each section's worked
    example names its sample (`r19-1-melded-free`)."""
    text = (ROOT / "docs" / "house-rules.md").read_text(encoding="utf-8")
    for sec in rule.sections:
        assert f"| {sec.rule} | `{rule.path}` |" in text, f"{sec.rule}: no row in docs/house-rules.md"
        slug = sec.rule.lower().replace(".", "-")
        names = [p.stem[len("clean-"):] for p in ROOT.glob(f"samples/clean-{slug}-*.json") if ".audit" not in p.name]
        assert names and f"`{names[0]}`" in text, f"{sec.rule}: no worked example naming its sample"


def check_needs(rule: HouseRule) -> None:
    """What the rulebook's text says a value needs ("only where `X` ...", "under `wugu_ji`") is in the
    entry's `needs` or `acts_under`."""
    declared = {n.path.split(".")[0] for n in rule.needs + rule.acts_under}
    for sec in rule.sections:
        text = rulebook.rule_text(sec.rule, Lang.EN)
        assert text is not None and text.code == sec.rule, f"{sec.rule}: not in the rulebook"
        words = " ".join(b.text for b in text.blocks)
        named = set(re.findall(r"[Oo]nly where `([a-z_.]+)`", words)) | set(re.findall(r"[Uu]nder `(wugu_ji)`,", words))
        assert {n.split(".")[0] for n in named} <= declared, f"{sec.rule}: needs {named - declared}"


CHECKS = (check_model, check_needs, check_words, check_explained, check_catalogue_lists, check_simulated,
          check_covered, check_documented)
"""One check per step of docs/where-to-add.md "A house rule" beyond the registry entry itself."""


def check_complete(rule: HouseRule) -> None:
    """Everything a house-rule parameter needs beyond its registry entry (docs/where-to-add.md)."""
    for check in CHECKS:
        check(rule)


@pytest.mark.parametrize("path", sorted(BY_PATH))
def test_each_house_rule_is_complete(path: str) -> None:
    check_complete(BY_PATH[path])


def test_the_docs_table_is_generated() -> None:
    text = (ROOT / "docs" / "house-rules.md").read_text(encoding="utf-8")
    assert house_rules.table() in text, "regenerate: .venv/bin/python -m audit.house_rules"


def test_sections_in_rulebook_order_and_each_once() -> None:
    rules = [sec.rule for sec, _ in SECTIONS]
    assert len(rules) == len(set(rules)) and rules[0] == "R17.1" and rules[-1] == "R19.6"
    assert [r for r in rules if r.startswith("R17.")] == [f"R17.{i}" for i in range(1, 11)]


# ---------------------------------------------------------------- defaults, options, refusals

@pytest.mark.parametrize("name", ["weile", "cuocuo", "kuhu", "senyan", "guizhou"])
def test_every_bundled_profile_plays_todays_rule(name: str) -> None:
    prof = load_profile(name)
    assert house_rules.played(prof) == []
    for rule in HOUSE_RULES:
        assert rule.value(prof) in (rule.default, None), rule.path


def _accepting(rule: HouseRule, value: Any) -> tuple[str, dict[str, Any]]:
    """A bundled profile and options that play `value` (with what it needs, and a table it lives in)."""
    options: dict[str, Any] = {rule.path: value}
    for need in rule.needs:
        if need.value == PRESENT:
            options = {need.path: {"base": 1, "per_streak": 1, "mode": "sum", rule.path.rpartition(".")[2]: value}}
        else:
            options[need.path] = need.value
    return "weile", options


@pytest.mark.parametrize("path,value", [(h.path, v) for h in HOUSE_RULES for v in h.tries])
def test_each_value_from_options_dotted_and_nested(path: str, value: Any) -> None:
    rule = BY_PATH[path]
    profile, options = _accepting(rule, value)
    a = resolve(profile, options)
    assert rule.value(a) == value
    head, _, tail = path.partition(".")
    if tail and rule.needs == ():
        assert resolve(profile, {head: {tail: value}}) == a


@pytest.mark.parametrize("path", sorted(BY_PATH))
def test_a_wrong_value_names_the_parameter(path: str) -> None:
    rule = BY_PATH[path]
    profile, options = _accepting(rule, rule.tries[0])
    bad = {**options, path: "sometimes"} if rule.needs == () or rule.needs[0].value != PRESENT else {
        "dealer_bonus": {"base": 1, "per_streak": 1, "mode": "sum", "on": "sometimes"}}
    with pytest.raises(ProfileError) as excinfo:
        resolve(profile, bad)
    assert path.rpartition(".")[2] in excinfo.value.path
    assert excinfo.value.code in ("parameter_not_one_of", "parameter_not_integer", "parameter_not_bool")


@pytest.mark.parametrize("path,value", [(h.path, v) for h in HOUSE_RULES if h.needs for v in h.tries])
def test_a_value_without_what_it_needs_is_refused_naming_path_and_need(path: str, value: Any) -> None:
    """R16.10: an option the profile cannot honour is a `P` finding naming its path and what it needs,
    in Chinese and English; with the need met it is accepted."""
    rule = BY_PATH[path]
    need = rule.needs[0]
    base = next(n for n in list_profiles() if not need.holds(load_profile(n)))
    with pytest.raises(ProfileError) as excinfo:
        resolve(base, {path: value})
    err = excinfo.value
    assert path in err.path
    assert err.code in ("parameter_needs", "house_rule_needs", "house_rule_needs_section")
    assert err.params["needs"] == need.path
    section = rule.section_of(value)
    assert section is not None
    if err.code != "parameter_needs":
        assert err.params["rule"] in (section.rule, rule.rule)
    for lang in Lang:
        text = finding_message(err.code, err.params, "P", lang)
        assert need.path in text or rulebook.parameter_label(need.path, lang) in text or lang is Lang.ZH
    assert "rules.options" in err.path


def test_r19_refusals_cite_their_section() -> None:
    with pytest.raises(ProfileError) as excinfo:
        resolve("kuhu", {"chicken.unready_melded": "free"})
    assert excinfo.value.code == "house_rule_needs" and excinfo.value.params["rule"] == "R19.1"
    with pytest.raises(ProfileError) as excinfo:
        resolve("senyan", {"hot_shot.burn_liabilities": "void_all"})
    assert excinfo.value.code == "house_rule_needs" and excinfo.value.params["rule"] == "R19.4"
    assert excinfo.value.params["needs"] == "hot_shot.burn"


def test_acts_under_is_not_a_refusal() -> None:
    """R17.6, R17.9, R17.10 act "under wugu_ji", which a record's options switch per hand."""
    for rule in HOUSE_RULES:
        if rule.acts_under:
            prof = resolve("weile", {rule.path: rule.tries[0]})
            assert not prof.wugu_on and rule.played(prof) is None


def test_played_names_the_section_of_the_value() -> None:
    prof = resolve("weile", {"chicken.claimed_charge": "to_ready_claimer"})
    assert [sec.rule for sec, _ in house_rules.played(prof)] == ["R19.2"]
    prof = resolve("weile", {"chicken.claimed_charge": "to_claimer", "rob_kong_multiple": 3})
    assert [sec.rule for sec, _ in house_rules.played(prof)] == ["R17.3", "R19.3"]


# ---------------------------------------------------------------- the lists derived from it

def test_the_candidates_try_the_registry_values() -> None:
    from audit.candidates import parameter_models
    tried = {(path, value) for path, value, _ in parameter_models(load_profile("weile"))}
    for rule in HOUSE_RULES:
        for value in rule.tries:
            accepted = not rule.needs or all(n.holds(load_profile("weile")) for n in rule.needs)
            assert ((rule.path, value) in tried) == accepted, (rule.path, value)


def test_bots_ask_the_strategies_only_where_the_rule_is_played() -> None:
    assert bots._house_ways(load_profile("weile")) == []
    ways = bots._house_ways(resolve("weile", {"hot_shot.burn_liabilities": "void_all"}))
    assert [knob for _, knob in ways] == ["liable_shot"]
    assert set(bots.STRATEGIES) <= {h.knob for h in HOUSE_RULES}


def test_the_mutation_classes_are_the_sections_in_order() -> None:
    house = [c for c in mutate.CLASSES if c.startswith(("r17_", "r18_", "r19_"))]
    assert house == [sec.mutation for sec, _ in SECTIONS]


@pytest.mark.parametrize("options,profile", [({"chicken.unready_melded": "free"}, "kuhu"),
                                            ({"hot_shot.burn_liabilities": "void_all"}, "senyan")])
def test_an_r19_value_the_profile_cannot_honour_is_a_p_finding_in_both_languages(options: dict[str, Any],
                                                                                 profile: str) -> None:
    """A record asking for it is `invalid`, one `P` schema finding naming the option's path and what it
    needs, in each language (the Chinese still names the needed parameter by its identifier: issue 33.4)."""
    from audit.api import audit_record
    from tests.audit.test_compare import example

    doc = example("hot-shot-weile")
    doc["rules"] = {"profile": profile, "options": options}
    [path] = options
    for lang in Lang:
        audit = audit_record(doc, lang=lang)
        assert audit["verdict"] == "invalid"
        [f] = audit["findings"]
        assert (f["kind"], f["rule"], f["code"]) == ("schema", "P", "house_rule_needs")
        assert path in f["params"]["path"] and f["params"]["rule"].startswith("R19.")
        assert f["params"]["needs"] in f["message"] and f["params"]["rule"] in f["message"]
        assert ("只在" in f["message"]) is (lang is Lang.ZH)
