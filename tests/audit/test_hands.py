"""R3: winning shapes, patterns, waits and ready values, with hypothesis properties."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from audit import hands
from audit.hands import Pattern
from audit.profiles import load_profile
from audit.tiles import NUM_KINDS, counts, parse, parse_all
from sim.notation import tiles

WEILE = load_profile("weile").hand_values


def cnt(text: str) -> list[int]:
    return counts(parse_all(tiles(text)))


def brute_is_winning(c: list[int]) -> bool:
    """Reference implementation: try every pair, then peel sets greedily (exhaustive)."""
    c = list(c)
    total = sum(c)
    if total % 3 != 2:
        return False
    if total == 14 and all(x % 2 == 0 for x in c):
        return True  # seven pairs (only meaningful without melds; tests pass 14 tiles)
    for p in range(NUM_KINDS):
        if c[p] >= 2:
            c[p] -= 2
            if _peel(c):
                c[p] += 2
                return True
            c[p] += 2
    return False


def _peel(c: list[int]) -> bool:
    i = next((k for k, x in enumerate(c) if x), -1)
    if i < 0:
        return True
    ok = False
    if c[i] >= 3:
        c[i] -= 3
        ok = _peel(c)
        c[i] += 3
    if not ok and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for k in (i, i + 1, i + 2):
            c[k] -= 1
        ok = _peel(c)
        for k in (i, i + 1, i + 2):
            c[k] += 1
    return ok


@pytest.mark.parametrize("text,melds,win", [
    ("123m 456m 789m 234p 55p", 0, True),
    ("123m 456m 789m 234p 56p", 0, False),
    ("11m 22m 33m 44p 55p 66s 77s", 0, True),  # 七对
    ("1111m 22m 33m 44p 55p 66s", 0, True),  # four of a kind = two pairs
    ("111m 234m 55p", 2, True),
    ("55p", 4, True),
    ("56p", 4, False),
    ("11m 22m 33m 44p 55p 66s", 1, False),  # seven pairs needs no melds (and 14 tiles)
])
def test_winning_shapes(text: str, melds: int, win: bool) -> None:
    assert hands.is_winning(cnt(text), melds) is win


@pytest.mark.parametrize("text,melds,meld_tiles,win,pattern", [
    ("123m 456m 789m 234p 55p", 0, "", "5p", Pattern.PING_HU),
    ("111m 333m 555p 777s 99s", 0, "", "9s", Pattern.DA_DUI_ZI),
    ("123m 456m 789m 111m 99m", 0, "", "9m", Pattern.QING_YI_SE),
    ("111m 333m 555m 777m 99m", 0, "", "9m", Pattern.QING_DA_DUI),
    ("11m 22m 33m 44p 55p 66s 77s", 0, "", "7s", Pattern.QI_DUI),
    ("1111m 22m 33m 44p 55p 66s", 0, "", "6s", Pattern.LONG_QI_DUI),
    ("11m 22m 33m 44m 55m 66m 77m", 0, "", "7m", Pattern.QING_QI_DUI),
    ("1111m 22m 33m 44m 55m 66m", 0, "", "6m", Pattern.QING_LONG_QI_DUI),
    ("99s", 4, "111m 333m 555p 777s", "9s", Pattern.DA_DUI_ZI),
])
def test_patterns_weile(text: str, melds: int, meld_tiles: str, win: str, pattern: Pattern) -> None:
    s = hands.score(cnt(text), melds, parse_all(tiles(meld_tiles)), parse(win), WEILE)
    assert s is not None and s.pattern is pattern and s.value == WEILE[pattern.key]


def test_long_qi_dui_needs_winning_tile() -> None:
    """R3.2 (cuocuo): the four-of-a-kind must be completed by the winning tile."""
    c = cnt("1111m 22m 33m 44p 55p 66s")
    plain = hands.score(c, 0, [], parse("6s"), WEILE, needs_winning_tile=True)
    dragon = hands.score(c, 0, [], parse("1m"), WEILE, needs_winning_tile=True)
    assert plain is not None and plain.pattern is Pattern.QI_DUI
    assert dragon is not None and dragon.pattern is Pattern.LONG_QI_DUI


def test_dan_diao_only_where_valued() -> None:
    """R3.2: 单吊 exists in senyan (30) and scores above 大对子 (20) there; not in weile."""
    senyan = load_profile("senyan").hand_values
    args = (cnt("99s"), 4, parse_all(tiles("111m 333m 555p 777s")), parse("9s"))
    s = hands.score(*args, senyan)
    assert s is not None and s.pattern is Pattern.DAN_DIAO and s.value == 30
    w = hands.score(*args, WEILE)
    assert w is not None and w.pattern is Pattern.DA_DUI_ZI


def test_situational_patterns_only_where_valued() -> None:
    cuocuo = load_profile("cuocuo").hand_values
    c = cnt("123m 456m 789m 234p 55p")
    s = hands.score(c, 0, [], parse("5p"), cuocuo, situational=(Pattern.TIAN_HU,))
    assert s is not None and s.pattern is Pattern.TIAN_HU and s.value == 20
    w = hands.score(c, 0, [], parse("5p"), WEILE, situational=(Pattern.TIAN_HU,))
    assert w is not None and w.pattern is Pattern.PING_HU


@pytest.mark.parametrize("text,melds,expected", [
    ("123m 456m 789m 234p 5p", "", "2p 5p"),
    ("11m 22m 33m 44m 55m 66m 9m", "", "9m"),
    ("1112345678999m", "", "123456789m"),  # nine gates
    ("1m", "111p 222p 333p 444p", "1m"),
])
def test_waits(text: str, melds: str, expected: str) -> None:
    assert hands.waits(cnt(text), parse_all(tiles(melds))) == \
        sorted(parse_all(tiles(expected)))


def test_wait_on_own_fourth_tile_is_not_a_wait() -> None:
    """R3.3: a tile the seat holds four of (hand + melds) cannot complete the hand."""
    c = cnt("123m 456m 789p 1s")
    assert hands.waits(c, parse_all(tiles("111s"))) == []
    assert hands.waits(c, parse_all(tiles("222s"))) == [parse("1s")]


def test_ready_value_takes_best_wait() -> None:
    c = cnt("111m 333m 555m 77m 99m")  # waits 7m (清大对 15) and 9m (清大对 15)
    s = hands.ready_value(c, 0, [], WEILE)
    assert s is not None and s.value == 15
    c2 = cnt("123m 456m 789m 11p 99p")  # waits 1p/9p: 大对子? no: 123m456m789m + pungs? ping_hu
    s2 = hands.ready_value(c2, 0, [], WEILE)
    assert s2 is not None and s2.pattern is Pattern.PING_HU


# ------------------------------------------------------------------ properties

suited = st.lists(st.integers(0, NUM_KINDS - 1), min_size=14, max_size=14).filter(
    lambda ts: max(counts(ts)) <= 4)


@settings(max_examples=400, deadline=None)
@given(suited)
def test_is_winning_matches_brute_force(ts: list[int]) -> None:
    c = counts(ts)
    assert hands.is_winning(c, 0) == brute_is_winning(c)


KIND = st.integers(0, NUM_KINDS - 1)
"""One strategy object, drawn from again and again (building one per draw cost two thirds of the test)."""


def _set(kind: int, run: bool) -> list[int]:
    """A pung of `kind`, or the run starting at it when `run` and one fits in the suit."""
    return [kind, kind + 1, kind + 2] if run and kind % 9 <= 6 else [kind] * 3


@st.composite
def built_winning_hand(draw: st.DrawFn) -> list[int]:
    """Four sets and a pair, assembled from parts: must always be recognised (R3.1)."""
    while True:
        parts: list[int] = []
        for _ in range(4):
            parts += _set(draw(KIND), draw(st.booleans()))
        p = draw(KIND)
        parts += [p, p]
        if max(counts(parts)) <= 4:
            return parts


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
@given(built_winning_hand())
def test_every_built_winning_hand_is_recognised(ts: list[int]) -> None:
    assert hands.is_winning(counts(ts), 0)
    assert hands.score(counts(ts), 0, [], ts[-1], WEILE) is not None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example, HealthCheck.too_slow])
@given(built_winning_hand(), st.integers(0, 13))
def test_waits_are_exactly_the_completing_tiles(ts: list[int], drop: int) -> None:
    """Removing one tile from a winning hand: the waits are exactly the tiles that win again."""
    hand = counts(ts)
    hand[ts[drop]] -= 1
    w = hands.waits(hand)
    for t in range(NUM_KINDS):
        if hand[t] >= 4:
            assert t not in w
            continue
        hand[t] += 1
        assert (t in w) == brute_is_winning(hand)
        hand[t] -= 1
    assert ts[drop] in w


@settings(max_examples=300, deadline=None)
@given(suited, st.integers(0, 13))
def test_wins_with_agrees_with_waits(ts: list[int], drop: int) -> None:
    hand = counts(ts)
    hand[ts[drop]] -= 1
    keys = [hands.suit_key(hand, s) for s in range(3)]
    w = set(hands.waits(hand))
    for t in range(NUM_KINDS):
        if hand[t] < 4:
            assert hands.wins_with(hand, keys, True, t) == (t in w)


def test_table_matches_search() -> None:
    """The prebuilt suit table agrees with the search on every suit of up to 8 tiles
    (the full check over all suits of up to 14 tiles, ~1.2M, was run once by hand)."""
    import itertools
    for v in itertools.product(range(5), repeat=9):
        if sum(v) > 8:
            continue
        key = sum(c * hands.POW5[i] for i, c in enumerate(v))
        assert hands.suit_flags(key) == hands.reference_flags(v), v


@settings(max_examples=500, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9).filter(lambda v: sum(v) <= 14))
def test_table_matches_search_random(v: list[int]) -> None:
    key = sum(c * hands.POW5[i] for i, c in enumerate(v))
    assert hands.suit_flags(key) == hands.reference_flags(tuple(v))


def test_all_suit_flags_consistent() -> None:
    """Every pattern of up to 5 tiles in one suit: flags agree with the brute force."""
    for n in range(0, 6):
        for combo in itertools.combinations_with_replacement(range(9), n):
            c = [0] * NUM_KINDS
            for r in combo:
                c[r] += 1
            if max(c) > 4:
                continue
            f = hands.suit_flags(hands.suit_key(c, 0))
            assert bool(f & hands.SETS) == (_peel(list(c)))
