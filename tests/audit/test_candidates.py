"""audit.candidates: the values the fit tries for each parameter (R16.16's own, and a few more)."""
from __future__ import annotations

from audit.candidates import FIXED, parameter_models, trials, value_at
from audit.option_check import known_parameters
from audit.profiles import apply_options, list_profiles, load_profile
from audit.reads import flatten


def _by(trs: list) -> dict[str, list]:
    out: dict[str, list] = {}
    for t in trs:
        out.setdefault(t.parameter, []).append(t.value)
    return out


def test_every_parameter_but_the_seat_count_is_tried_with_every_model_value() -> None:
    for name in list_profiles():
        prof = load_profile(name)
        tried = _by(trials(prof, prof))
        assert not set(tried) & FIXED
        for path, value, _ in parameter_models(prof):  # R16.16's values are all among them
            assert value in tried[path], (name, path, value)
        for trial in trials(prof, prof):  # each trial is the profile with that one parameter set so
            assert value_at(trial.profile, trial.parameter) == trial.value or trial.value is None, trial.key


def test_legality_and_list_parameters_are_tried_too() -> None:
    tried = _by(trials(load_profile("weile"), load_profile("weile")))
    assert tried["pass_lock_until"] == ["discard"] and tried["replacement_from"] == ["front"]
    assert sorted(tried["must_win"]) == sorted([("hot_shot",), ("rob_kong",), ("hot_shot", "rob_kong")])
    assert tried["draw_next_dealer"] == ["stay"]


def test_an_absent_table_or_pattern_is_tried_as_the_bundled_profiles_have_it() -> None:
    tried = _by(trials(load_profile("weile"), load_profile("weile")))
    assert {"base": 1, "per_streak": 1, "mode": "max", "on": "both"} in tried["dealer_bonus"]  # cuocuo's
    assert {"enabled": True, "normal": 1, "charge": 4} in tried["wugu_ji"]  # senyan's, turned on
    # an absent number at two values at least, a line to solve on (issue 36.1): the bundled one and one
    # more, or 1 and 2 where no bundled profile plays it (follow_dealer)
    assert tried["hand_values.tian_hu"] == [20, 21] and tried["hand_values.dan_diao"] == [30, 31]
    assert tried["follow_dealer"] == [1, 2]


def test_the_base_value_is_always_a_way_back() -> None:
    weile = load_profile("weile")
    base = apply_options(weile, {"chicken.charge": 5})  # an operator's profile: 5 is no bundled profile's
    moved = apply_options(weile, {"chicken.charge": 12})
    assert 5 in _by(trials(moved, base))["chicken.charge"]  # not 12's v-1, v+1, 2v, v/2 or 0
    with_bonus = next(t for t in trials(weile, weile) if t.parameter == "dealer_bonus").profile
    assert None in _by(trials(with_bonus, weile))["dealer_bonus"]


def test_a_value_that_needs_another_parameter_is_tried_with_it() -> None:
    """R17.1 包鸡 only where chicken_requires_ready: from kuhu (false) it is tried with it turned on."""
    kuhu = load_profile("kuhu")
    pair = next(t for t in trials(kuhu, kuhu) if t.parameter == "chicken.exposed_payers")
    assert pair.options == {"chicken.exposed_payers": "all_unready", "chicken_requires_ready": True}
    assert pair.profile.chicken_requires_ready and pair.profile.chicken.exposed_payers == "all_unready"
    flat = flatten(pair.profile)
    assert flat["chicken_requires_ready"] is True


def test_a_trial_key_is_its_options() -> None:
    weile = load_profile("weile")
    keys = [t.key for t in trials(weile, weile)]
    assert len(keys) == len(set(keys)) and '{"dou_unready": "reverse"}' in keys


def test_every_parameter_of_the_model_is_tried_without_a_list_to_keep() -> None:
    """The trials come from the profile's dataclasses (option_check.known_parameters reads the same
    types): a parameter added there (R18) is tried by the fit with nothing to add. Only the seat
    count is never tried, and a table the loader refuses alone (senyan's 杀报 needs a 报听)."""
    for name in list_profiles():
        prof = load_profile(name)
        tried = {t.parameter for t in trials(prof, prof)}
        left = {k for k in known_parameters() if k not in tried and not any(t.startswith(k + ".") for t in tried)
                and not any(k.startswith(t + ".") for t in tried)}
        refused = {"kill_declared", "kill_declared.value", "kill_declared.mode"} if prof.declared is None else set()
        assert left == {"players"} | refused, name
