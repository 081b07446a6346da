"""audit.reads and fit.answers: what the engine read decides where the fit may skip a value.

The fit's speed rests on one claim: a profile that differs from another only in parameters a
hand's replay and settlement never read gives that hand the same answer. These tests check the
claim against the engine itself (compiled, under `make test`, as in use): simulated hands of
several profiles, every value the fit tries, the answer worked out the short way (skipped, or
settled again on the replayed table) equal to a fresh replay and settlement under that profile.
"""
from __future__ import annotations

import copy
from typing import Any

import pytest

from fit.answers import Case, Counts, Option, Settings
from audit.candidates import trials
from audit.compare import agrees, compare
from audit.profiles import load_profile, resolve
from audit.reads import Watch, bit, differing, flatten, names
from audit.replay import replay
from audit.settle import settle
from sim.mutate import mutants
from sim.simulate import simulate

PLATFORMS: list[tuple[str, dict[str, Any], int, int]] = [("weile", {}, 10, 3), ("cuocuo", {"wugu_ji": True}, 8, 5), ("kuhu", {}, 6, 2),
             ("senyan", {}, 5, 9), ("weile", {"chicken.claimed_charge": "to_claimer", "follow_dealer": 2}, 6, 4)]
"""(profile, options, hands, seed): the bases the claim is checked from."""


def _hands(name: str, options: dict[str, Any], count: int, seed: int) -> list[dict[str, Any]]:
    return [gen.record for gen in simulate(name, options, count, seed)]


def _fresh(doc: dict[str, Any], prof: Any) -> tuple[bool, Any]:
    """The answer of a plain replay and settlement: (clean by `compare`, the digest of what was computed)."""
    rep = replay(doc, prof)
    if rep.finding is not None:
        return False, (rep.finding.rule, rep.finding.code, rep.finding.step)
    sett = settle(rep.state)
    return not compare(doc["result"], sett, doc.get("base", 1)), Case(doc).answer(sett).computed


@pytest.mark.parametrize(("name", "options", "count", "seed"), PLATFORMS)
def test_a_value_the_hand_never_read_leaves_its_answer(name: str, options: dict[str, Any], count: int,
                                                       seed: int) -> None:
    base = resolve(name, options)
    settings, counts = Settings(), Counts()
    current = settings.of(base)
    opts = [Option(t, settings.of(t.profile), 0) for t in trials(base, load_profile(name))]
    opts = [Option(o.trial, o.setting, settings.diff(current, o.setting)) for o in opts]
    skipped = tried = 0
    for doc in _hands(name, options, count, seed):
        case = Case(doc)
        case.start(current, counts)
        assert case.current is not None
        assert case.clean == _fresh(doc, base)[0]
        case.fill(current, opts, settings, counts)
        for opt in opts:
            want_clean, want = _fresh(doc, opt.trial.profile)
            got = case.under(opt)
            if not opt.diff & case.current.reads:
                skipped += 1
                assert _fresh(doc, base)[1] == want, (opt.trial.key, names(opt.diff))
            else:
                tried += 1
                if not isinstance(want, tuple):  # a legal hand: the digest of the settlement found the short way
                    assert got.computed == want, (doc["game_id"], opt.trial.key)
            assert got.clean == want_clean, (doc["game_id"], opt.trial.key)
    assert skipped > tried > 0  # most values are never tried on most hands, and some are


def test_the_settlement_is_the_same_under_a_watched_copy() -> None:
    for name, options, count, seed in PLATFORMS:
        prof = resolve(name, options)
        watch = Watch(prof)
        for doc in _hands(name, options, 3, seed + 1):
            plain, watched = replay(doc, prof), replay(doc, watch.start())
            assert watched.finding is None and plain.finding is None
            assert settle(watched.state).to_json(1) == settle(plain.state).to_json(1)
            assert watch.reads.mask  # something was read, and the answer is the same


def test_a_words_only_property_answers_without_a_read() -> None:
    """Profile.chicken_house_rules decides only the chicken notes' words: the watched copy answers the
    profile's own value and records no read (else every hand with a 冲锋鸡 would read every chicken
    house rule)."""
    for options, expected in (({}, False), ({"chicken.won_tile": "both"}, True)):
        watch = Watch(resolve("weile", options))
        for _ in range(2):
            prof = watch.start()
            assert prof.chicken_house_rules is expected
            assert not watch.reads.mask & bit("chicken.exposed_payers") and not watch.reads.mask & bit("chicken.won_tile")


def test_pattern_values_are_watched_one_by_one() -> None:
    watch = Watch(load_profile("weile"))
    prof = watch.start()
    assert prof.hand_values.get("qi_dui") == 10 and "dan_diao" not in prof.hand_values
    assert set(names(watch.reads.mask)) == {"hand_values.qi_dui", "hand_values.dan_diao"}
    watch.start()
    list(prof.hand_values.items())
    assert watch.reads.mask & bit("hand_values") and watch.reads.mask & bit("hand_values.ping_hu")


def test_differing_names_what_two_profiles_set_otherwise() -> None:
    weile, kuhu = flatten(load_profile("weile")), flatten(load_profile("kuhu"))
    mask = differing(weile, kuhu)
    assert {"self_draw_bonus", "dou.concealed", "dealer_bonus", "dealer_bonus.base", "hand_values.qi_dui"} <= set(names(mask))
    assert not mask & bit("chicken.normal") and differing(weile, weile) == 0
    assert differing({"x": 1}, {"x": True}) == bit("x")  # 1 is not True


def test_agrees_is_exactly_compare_finding_nothing() -> None:
    docs = _hands("weile", {}, 12, 21) + _hands("cuocuo", {"wugu_ji": True}, 6, 22)
    cases = docs + [m.record for doc in docs[:6] for m in mutants(doc) if m.expected.verdict == "missettled"]
    seen = set()
    for doc in cases:
        prof = resolve(doc["rules"]["profile"], doc["rules"].get("options"))
        rep = replay(doc, prof)
        for result in (doc["result"], {k: v for k, v in doc["result"].items() if k not in ("items", "flip")}):
            sett = settle(rep.state)
            got = agrees(result, sett, doc.get("base", 1))
            assert got == (not compare(result, sett, doc.get("base", 1))), doc["game_id"]
            seen.add(got)
    assert seen == {True, False}


def test_an_answer_holds_only_where_its_profile_agrees_on_what_it_read() -> None:
    settings, counts = Settings(), Counts()
    weile = load_profile("weile")
    doc = copy.deepcopy(_hands("weile", {}, 1, 3)[0])
    case = Case(doc)
    case.start(settings.of(weile), counts)
    assert case.current is not None
    read = case.current.reads
    for trial in trials(weile, weile):
        other = settings.of(trial.profile)
        assert case.current.holds(other, settings) == (not settings.diff(settings.of(weile), other) & read)
