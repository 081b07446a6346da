"""fit.search: a platform's own profile from its answers (issue 21.4, docs/fit.md).

The platforms are simulated: `sim.simulate` plays hands under a profile with `--option`s and writes
the engine's settlement as the claimed result; the records then say only the base profile, as a
platform that does not know its own conventions would. The fit must find those options, and the
records a mutant planted a real mistake in must be the ones it cannot explain.
"""
from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from audit.api import audit_document
from audit.candidates import value_at
from fit.search import Fit, Record, fit, records_of
from audit.profiles import list_profiles, load_profile
from sim.mutate import Mutant, mutants
from sim.simulate import simulate

PLAYED = {"chicken.charge": 4, "dou_unready": "reverse", "chicken.claimed_charge": "to_claimer"}
"""What the first platform plays on top of weile: a value, an R17.7 and an R17.3 house rule."""

MISTAKES = ("scores_not_zero", "wrong_next_dealer", "discard_not_held", "responsibility_missing")
"""Mutation classes planted as the platform's real mistakes: none is a convention."""


def _platform(name: str, options: dict[str, Any], count: int, seed: int) -> list[dict[str, Any]]:
    """Records of a platform playing `name` with `options`, saying only `rules.profile: name`."""
    out = []
    for gen in simulate(name, options, count, seed):
        gen.record["rules"] = {"profile": name}
        out.append(gen.record)
    return out


def _records(docs: list[dict[str, Any]]) -> list[Record]:
    return [Record(f"hand {i}", doc) for i, doc in enumerate(docs)]


@pytest.fixture(scope="module")
def played() -> tuple[list[dict[str, Any]], dict[int, Mutant]]:
    """150 hands of the first platform, four of them replaced by a one-fault mutant each."""
    docs = _platform("weile", PLAYED, 150, 21)
    planted: dict[int, Mutant] = {}
    for cls in MISTAKES:
        for i in range(3 + 31 * len(planted), len(docs)):
            source = {**docs[i], "rules": {"profile": "weile", "options": PLAYED}}  # planted under its own rules
            found = [m for m in mutants(source, seed=1) if m.mutation == cls]
            if found:
                planted[i] = found[0]
                docs[i] = {**found[0].record, "rules": {"profile": "weile"}}
                break
    assert len(planted) == len(MISTAKES)
    return docs, planted


@pytest.fixture(scope="module")
def fitted(played: tuple[list[dict[str, Any]], dict[int, Mutant]]) -> Fit:
    return fit(_records(played[0]), "weile", name="platform")


def test_the_fit_finds_the_values_the_platform_plays(fitted: Fit) -> None:
    assert fitted.options == PLAYED
    assert fitted.clean_before < fitted.usable - 40 and fitted.clean_after == fitted.usable - len(MISTAKES)
    assert all(s.tally.breaks == 0 and s.tally.fixes > 0 for s in fitted.steps)
    assert fitted.steps[-1].clean == fitted.clean_after  # what the search counted is what the audit says
    changed = {e.parameter: e for e in fitted.evidence if e.changed}
    assert set(changed) == set(PLAYED)
    for name, value in PLAYED.items():
        row = changed[name].values[0]
        assert row.fitted and row.value == value and changed[name].base == value_at(load_profile("weile"), name)
        assert row.tally.whole and row.tally.fixes > 0 and row.tally.breaks == 0 and row.tally.changes >= row.tally.fixes


def test_every_parameter_has_its_evidence_measured(fitted: Fit) -> None:
    for e in fitted.evidence:
        assert any(t.tally.whole for t in e.values), e.parameter  # changes, fixes and breaks of one value at least
    touched = {e.parameter for e in fitted.evidence if e.touches}
    assert {"chicken.normal", "hand_values.ping_hu", "dou.exposed", "chicken.exposed_payers"} <= touched
    ping = next(e for e in fitted.evidence if e.parameter == "hand_values.ping_hu")
    assert all(t.tally.fixes == 0 for t in ping.values)  # weile's 平胡 value is right: no other value fixes a hand


def test_the_platforms_mistakes_are_listed(fitted: Fit, played: tuple[list[dict[str, Any]], dict[int, Mutant]]) -> None:
    _, planted = played
    assert {u.record.source for u in fitted.unexplained} == {f"hand {i}" for i in planted}
    for u in fitted.unexplained:
        mutant = planted[int(u.record.source.split()[1])]
        assert u.verdict.value == mutant.expected.verdict
        assert mutant.expected.rule in {f.rule for f in u.audit.findings}, (mutant.mutation, u.audit.findings)


def test_the_fitted_profile_file_passes_the_loader(fitted: Fit, played: tuple[list[dict[str, Any]], dict[int, Mutant]],
                                                   tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "platform.toml").write_text(fitted.profile_text(), encoding="utf-8")
    monkeypatch.setenv("ZHUOJI_PROFILE_DIR", str(tmp_path))
    assert "platform" in list_profiles()
    loaded = load_profile("platform")
    assert loaded == fitted.profile
    docs, planted = played
    verdicts = {i: audit_document(doc, profile="platform")[0]["verdict"] for i, doc in enumerate(docs)}
    assert {i for i, v in verdicts.items() if v != "clean"} == set(planted)


def test_a_value_another_parameter_must_allow_is_found_with_it() -> None:
    """R17.2 only where chicken_requires_ready is true; kuhu has it false: the two come together."""
    played = {"chicken_requires_ready": True, "chicken.qualified_pay_each_other": False}
    result = fit(_records(_platform("kuhu", played, 100, 22)), "kuhu")
    assert result.options == played and not result.unexplained
    assert result.steps[0].options == {"chicken.qualified_pay_each_other": False, "chicken_requires_ready": True}


def test_a_number_no_enumeration_names_and_a_pair_are_found() -> None:
    """kong_flower_bonus 5 (weile: 3) is solved from the scores; no 热炮 bonus with the kong transfer is
    a pair: either alone still settles a hot shot wrong."""
    played = {"hot_shot.bonus": 0, "hot_shot.transfer_kong": True, "kong_flower_bonus": 5}
    result = fit(_records(_platform("weile", played, 150, 23)), "weile")
    assert result.options == played and result.clean_after == result.usable
    pair = next(s for s in result.steps if s.together)
    assert {pair.parameter, *(p for p, _ in pair.together)} == {"hot_shot.bonus", "hot_shot.transfer_kong"}


@pytest.mark.parametrize(("name", "played", "count", "seed"), [
    ("weile", {"dou.exposed_payer": "konger", "dou_ready_test": "ever", "chicken.exposed_kong_claim": "keeps_charge"},
     120, 41),
    ("kuhu", {"dealer_bonus.on": "dealer_wins", "hot_shot.burn_liabilities": "void"}, 100, 42),
    ("senyan", {"hot_shot.burn": "all", "hot_shot.burn_liabilities": "void"}, 100, 43),
])
def test_the_conventions_of_running_engines_are_found(name: str, played: dict[str, Any], count: int, seed: int) -> None:
    """R18's parameters, with nothing added for them; senyan burns only that kong, and R18.4 needs
    burn all: the two are one step."""
    result = fit(_records(_platform(name, played, count, seed)), name)
    assert result.options == played and result.clean_after == result.usable and not result.unexplained


def test_nothing_is_taken_without_evidence() -> None:
    result = fit(_records(_platform("weile", {}, 30, 24)), "weile")
    assert result.options == {} and result.steps == () and result.clean_after == result.clean_before == 30
    weile = load_profile("weile")
    assert result.profile.name == "weile_fit"
    assert replace(result.profile, name="weile", title=weile.title, source=weile.source) == weile


def test_min_gain_keeps_a_value_out(played: tuple[list[dict[str, Any]], dict[int, Mutant]]) -> None:
    result = fit(_records(played[0][:40]), "weile", min_gain=1000)
    assert result.options == {} and not result.steps and len(result.unexplained) == 40 - result.clean_after


def test_records_the_schema_refuses_are_listed_apart() -> None:
    docs = _platform("weile", {}, 3, 25)
    broken = json.loads(json.dumps(docs[1]))
    at = next(i for i, ev in enumerate(broken["events"]) if "tile" in ev)
    broken["events"][at]["tile"] = "0x"
    three = next(simulate("guizhou", {}, 1, 25, players=3)).record  # weile seats four
    result = fit([Record("a", docs[0]), Record("b", broken), Record("c", three)], "weile")
    assert result.records == 3 and result.usable == 1
    assert [u.record.source for u in result.invalid] == ["b", "c"]
    codes = [[(f.code, f.params.get("path")) for f in u.audit.findings] for u in result.invalid]
    assert codes[0] == [("not_a_tile", f"events[{at}].tile")]
    assert codes[1] == [("profile_seat_count", "seats")]


def test_a_match_gives_one_record_per_hand() -> None:
    docs = _platform("weile", {}, 2, 26)
    match = {"format": "zhuoji-match/1", "table_id": "t", "hands": docs}
    assert [r.source for r in records_of(match, "m.json")] == ["m.json hands[0]", "m.json hands[1]"]
    assert records_of(docs[0], "x.json") == [Record("x.json", docs[0])]


def test_the_json_says_it_all(fitted: Fit) -> None:
    doc = json.loads(json.dumps(fitted.to_json("zh"), ensure_ascii=False))
    assert doc["base"] == "weile" and doc["profile"] == "platform" and doc["options"] == PLAYED
    assert doc["clean"] == {"base": fitted.clean_before, "fitted": fitted.clean_after}
    assert doc["fitted"]["chicken"]["charge"] == 4 and doc["fitted"]["name"] == "platform"
    assert [s["parameter"] for s in doc["steps"]] == [s.parameter for s in fitted.steps]
    row = next(e for e in doc["evidence"] if e["parameter"] == "chicken.charge")
    assert row["changed"] and row["values"][0] == {"value": 4, "fitted": True, **fitted.evidence[
        [e.parameter for e in fitted.evidence].index("chicken.charge")].values[0].tally.to_json()}
    assert all({"source", "game_id", "verdict", "findings", "explained_by"} <= set(u) for u in doc["unexplained"])
    assert all(re.search("[\u4e00-\u9fff]", f["message"]) for u in doc["unexplained"] for f in u["findings"])
    search = doc["search"]
    assert search["skipped"] > search["replays"] and search["pairs"] > search["skipped"]
