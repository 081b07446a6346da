"""Hand analysis: winning shapes (R3.1), patterns (R3.2), readiness and waits (R3.3).

The replayer asks "does this tile complete that hand?" for every seat on every
discard, so the work is split by suit: a suit's 9 counts are packed into one
base-5 integer and its decomposition flags are memoised. A whole-hand test is
then three dictionary look-ups, and a wait search only re-examines the suit the
candidate tile belongs to.
"""
from __future__ import annotations

from typing import Final

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from audit.tiles import NUM_KINDS, COPIES

SETS: Final = 1
"""The suit splits into pungs and runs only."""
PAIR: Final = 2
"""The suit splits into pungs and runs plus exactly one pair."""
PUNGS: Final = 4
"""The suit splits into pungs only."""
PUNGS_PAIR: Final = 8
"""The suit splits into pungs plus exactly one pair."""
EVEN: Final = 16
"""Every count in the suit is even (a part of 七对)."""

POW5: Final = tuple(5**i for i in range(9))
_POW5: Final = POW5


class Pattern(Enum):
    """R3.2 patterns, highest first; the value of each comes from the profile."""

    QING_LONG_QI_DUI = ("qing_long_qi_dui", "清龙七对")
    """Seven pairs in one suit with a four-of-a-kind."""
    QING_QI_DUI = ("qing_qi_dui", "清七对")
    """Seven pairs in one suit."""
    QING_DA_DUI = ("qing_da_dui", "清大对")
    """All pungs/kongs in one suit."""
    LONG_QI_DUI = ("long_qi_dui", "龙七对")
    """Seven pairs with a four-of-a-kind."""
    QI_DUI = ("qi_dui", "七对")
    """Seven pairs."""
    QING_YI_SE = ("qing_yi_se", "清一色")
    """One suit, standard shape."""
    DAN_DIAO = ("dan_diao", "单吊")
    """All four sets melded, won on the single tile's pair."""
    DA_DUI_ZI = ("da_dui_zi", "大对子")
    """All four sets pungs/kongs."""
    TIAN_HU = ("tian_hu", "天胡")
    """The dealer wins on its dealt 14."""
    DI_HU = ("di_hu", "地胡")
    """A non-dealer wins at once, before anybody pongs or kongs."""
    PING_HU = ("ping_hu", "平胡")
    """Any other winning hand."""

    # `_value_`, not `value`: Enum's `value` is a Python-level descriptor, and
    # these are read for every pattern a win could score.
    @property
    def key(self) -> str:
        """The name used in profile files (`hand_values`)."""
        key: str = self._value_[0]
        return key

    @property
    def zh(self) -> str:
        """The Chinese name shown in notes and reports."""
        zh: str = self._value_[1]
        return zh


PATTERN_BY_KEY: Final = {p.key: p for p in Pattern}
_ORDER: Final = {p: i for i, p in enumerate(Pattern)}


@dataclass
class Scored:
    """The pattern a hand scores and its value in units."""

    pattern: Pattern
    value: int

    def __init__(self, pattern: Pattern, value: int) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.pattern = pattern
        self.value = value


def suit_key(cnt: list[int], suit_index: int) -> int:
    """Pack one suit's nine counts into a base-5 integer."""
    base = suit_index * 9
    return (cnt[base] + 5 * cnt[base + 1] + 25 * cnt[base + 2] + 125 * cnt[base + 3]
            + 625 * cnt[base + 4] + 3125 * cnt[base + 5] + 15625 * cnt[base + 6]
            + 78125 * cnt[base + 7] + 390625 * cnt[base + 8])


@lru_cache(maxsize=None)
def _can_sets(v: tuple[int, ...]) -> bool:
    """Whether nine counts split into pungs and runs; first non-zero rank decides."""
    i = next((k for k, c in enumerate(v) if c), -1)
    if i < 0:
        return True
    if v[i] >= 3 and _can_sets(v[:i] + (v[i] - 3,) + v[i + 1:]):
        return True
    if i <= 6 and v[i + 1] and v[i + 2]:
        w = list(v)
        w[i] -= 1
        w[i + 1] -= 1
        w[i + 2] -= 1
        return _can_sets(tuple(w))
    return False


SUIT_KEYS: Final = 5 ** 9
"""Packed suit keys run from 0 to 5**9 - 1 (nine counts of 0..4)."""

_SHAPE_RANKS: Final = tuple((r, r, r) for r in range(9)) + tuple((r, r + 1, r + 2) for r in range(7))
"""The sets a suit splits into: shapes 0-8 the pungs of ranks 1-9, shapes 9-15 the runs from 1-7."""


def _mark_sets(out: bytearray, counts: list[int], key: int, first: int, size: int, pungs: bool) -> None:
    """Mark the suit `counts` (packed `key`, `size` sets so far, all pungs or not) and it with each
    pair it can take, then every suit one more set of shape `first` or later makes (shapes in
    order, so each combination of up to four sets is met once), counts at most 4."""
    out[key] |= SETS | (PUNGS if pungs else 0)
    pair = PAIR | (PUNGS_PAIR if pungs else 0)
    for r in range(9):
        if counts[r] <= 2:
            out[key + 2 * POW5[r]] |= pair
    if size == 4:
        return
    for shape in range(first, 16):
        a, b, c = _SHAPE_RANKS[shape]
        counts[a] += 1
        counts[b] += 1
        counts[c] += 1
        if counts[a] <= 4 and counts[b] <= 4 and counts[c] <= 4:
            _mark_sets(out, counts, key + POW5[a] + POW5[b] + POW5[c], shape, size + 1, pungs and shape < 9)
        counts[a] -= 1
        counts[b] -= 1
        counts[c] -= 1


def _mark_even(out: bytearray, rank: int, key: int, tiles: int) -> None:
    """Mark every suit whose counts are all even (a part of a 七对), up to 14 tiles, rank by rank."""
    if rank == 9:
        out[key] |= EVEN
        return
    for c in (0, 2, 4):
        if tiles + c <= 14:
            _mark_even(out, rank + 1, key + c * POW5[rank], tiles + c)


def _flag_bytes() -> bytes:
    """Every suit's flags in one byte per packed key (2 MB), built by construction: up to four sets
    (9 pungs, 7 runs) plus an optional pair, and the even suits. The hot path indexes it (no
    hashing, no boxed ints, compiled or not) and never searches: a suit without SETS or PAIR has
    no decomposition. Built by walking the combinations into the bytes, ~5 ms at import where a
    table of keys first took ~17 ms, which every command-line run paid (issue 35.6)."""
    out = bytearray(SUIT_KEYS)
    _mark_sets(out, [0] * 9, 0, 0, 0, True)
    _mark_even(out, 0, 0, 0)
    return bytes(out)


_FLAGS: Final = _flag_bytes()


def suit_flags(key: int) -> int:
    """Decomposition flags (SETS, PAIR, PUNGS, PUNGS_PAIR, EVEN) of a packed suit."""
    return _FLAGS[key] if 0 <= key < SUIT_KEYS else 0


def reference_flags(v: tuple[int, ...]) -> int:
    """The same flags by search, independent of the table: what the tests check it against."""
    return _compute_flags(v)


def _compute_flags(v: tuple[int, ...]) -> int:
    total = sum(v)
    f = 0
    if total % 3 == 0 and _can_sets(v):
        f |= SETS
    if total % 3 == 2:
        for i, c in enumerate(v):
            if c >= 2 and _can_sets(v[:i] + (c - 2,) + v[i + 1:]):
                f |= PAIR
                break
    if all(c in (0, 3) for c in v):
        f |= PUNGS
    if sum(1 for c in v if c == 2) == 1 and all(c in (0, 2, 3) for c in v):
        f |= PUNGS_PAIR
    if all(c % 2 == 0 for c in v):
        f |= EVEN
    return f


def _combine(flags: Sequence[int], sets: int, pair: int) -> bool:
    """One suit carries the pair, the others are sets only."""
    with_pair = [i for i, f in enumerate(flags) if not f & sets]
    if len(with_pair) > 1:
        return False
    if with_pair:
        return bool(flags[with_pair[0]] & pair)
    return any(f & pair for f in flags)


def standard_shape(cnt: list[int]) -> bool:
    """Four sets (melds counted separately) plus one pair: R3.1."""
    flags = (suit_flags(suit_key(cnt, 0)), suit_flags(suit_key(cnt, 1)), suit_flags(suit_key(cnt, 2)))
    return _combine(flags, SETS, PAIR)


def all_pungs_shape(cnt: list[int]) -> bool:
    """Concealed part is pungs plus a pair (大对子 when the melds are pungs anyway)."""
    flags = (suit_flags(suit_key(cnt, 0)), suit_flags(suit_key(cnt, 1)), suit_flags(suit_key(cnt, 2)))
    return _combine(flags, PUNGS, PUNGS_PAIR)


def seven_pairs_shape(cnt: list[int], n_melds: int) -> bool:
    """七对: no melds, 14 tiles, every count even (four of a kind = two pairs)."""
    if n_melds:
        return False
    total = 0
    for c in cnt:
        if c & 1:
            return False
        total += c
    return total == 14


def _four_sets_and_pair(f0: int, f1: int, f2: int) -> bool:
    """Exactly one suit holds the pair, the other two are sets only (written out: hot path)."""
    if f0 & SETS:
        if f1 & SETS:
            return bool(f2 & PAIR)
        return bool(f2 & SETS and f1 & PAIR)
    return bool(f1 & SETS and f2 & SETS and f0 & PAIR)


def is_winning(cnt: list[int], n_melds: int) -> bool:
    """R3.1 for a concealed count array of 14 - 3 * n_melds tiles: three packed keys and look-ups (the
    replayer keeps its keys up to date and asks `is_winning_keys`; this is for a count array)."""
    return is_winning_keys(suit_key(cnt, 0), suit_key(cnt, 1), suit_key(cnt, 2), n_melds == 0)


def is_winning_keys(k0: int, k1: int, k2: int, no_melds: bool) -> bool:
    """R3.1 on packed suit keys (the replayer keeps them up to date): three look-ups.

    Seven pairs needs no melds and every suit even; the tile count (14) is the caller's."""
    f0, f1, f2 = suit_flags(k0), suit_flags(k1), suit_flags(k2)
    if _four_sets_and_pair(f0, f1, f2):
        return True
    return no_melds and bool(f0 & f1 & f2 & EVEN)


def waits(cnt: list[int], meld_tiles: Sequence[int] = ()) -> list[int]:
    """R3.3: tiles completing a 13-tile hand, excluding those the seat holds all four of.

    `meld_tiles` lists every tile in the seat's melds (a kong lists its tile 4 times).
    """
    held = list(cnt)
    for t in meld_tiles:
        held[t] += 1
    keys = [suit_key(cnt, s) for s in range(3)]
    flags = [suit_flags(k) for k in keys]
    out: list[int] = []
    for s in range(3):
        others = [flags[o] for o in range(3) if o != s]
        need = _need_for_suit(others)
        if not need:
            continue
        for r in range(9):
            t = s * 9 + r
            if held[t] >= COPIES:
                continue
            if suit_flags(keys[s] + _POW5[r]) & need:
                out.append(t)
    if not meld_tiles:
        out = sorted(set(out) | set(_seven_pairs_waits(cnt, held)))
    return out


def _need_for_suit(others: Sequence[int]) -> int:
    """What the candidate suit must become, given the other two suits' flags."""
    if all(f & SETS for f in others):
        return PAIR
    pairs = [f for f in others if not f & SETS]
    if len(pairs) == 1 and pairs[0] & PAIR:
        return SETS
    return 0


def _seven_pairs_waits(cnt: list[int], held: Sequence[int]) -> list[int]:
    if sum(cnt) != 13:
        return []
    odd = [t for t in range(NUM_KINDS) if cnt[t] & 1]
    if len(odd) != 1 or held[odd[0]] >= COPIES:
        return []
    return odd


def one_suit(cnt: list[int], meld_tiles: Iterable[int]) -> bool:
    """清一色 test over hand and melds."""
    suits = {t // 9 for t in range(NUM_KINDS) if cnt[t]}
    suits.update(t // 9 for t in meld_tiles)
    return len(suits) == 1


def candidates(cnt: list[int], n_melds: int, meld_tiles: Sequence[int], win_tile: int,
               *, needs_winning_tile: bool = False, situational: Iterable[Pattern] = ()) -> list[Pattern]:
    """Every R3.2 pattern a complete 14-tile hand fits, or [] when it does not win."""
    seven = seven_pairs_shape(cnt, n_melds)
    standard = standard_shape(cnt)
    if not (seven or standard):
        return []
    flush = one_suit(cnt, meld_tiles)
    out: list[Pattern] = [Pattern.PING_HU, *situational]
    if seven:
        four = cnt[win_tile] == 4 if needs_winning_tile else any(c == 4 for c in cnt)
        out.append(Pattern.QI_DUI)
        if four:
            out.append(Pattern.LONG_QI_DUI)
        if flush:
            out.append(Pattern.QING_LONG_QI_DUI if four else Pattern.QING_QI_DUI)
            if four:
                out.append(Pattern.QING_QI_DUI)
    if standard:
        if flush:
            out.append(Pattern.QING_YI_SE)
        if all_pungs_shape(cnt):
            out.append(Pattern.DA_DUI_ZI)
            if flush:
                out.append(Pattern.QING_DA_DUI)
        if n_melds == 4:
            out.append(Pattern.DAN_DIAO)
    return out


def best(found: Iterable[Pattern], values: Mapping[str, int]) -> Scored | None:
    """The single highest-valued pattern the profile values (ties: the rulebook's order)."""
    top: Scored | None = None
    for p in found:
        v = values.get(p.key)
        if v is None:
            continue
        if top is None or v > top.value or (v == top.value and _ORDER[p] < _ORDER[top.pattern]):
            top = Scored(p, v)
    return top


def score(cnt: list[int], n_melds: int, meld_tiles: Sequence[int], win_tile: int,
          values: Mapping[str, int], *, needs_winning_tile: bool = False,
          situational: Iterable[Pattern] = ()) -> Scored | None:
    """The R3.2 pattern of a complete hand under a profile, or None if it does not win."""
    found = candidates(cnt, n_melds, meld_tiles, win_tile,
                       needs_winning_tile=needs_winning_tile, situational=situational)
    return best(found, values)


def ready_value(cnt: list[int], n_melds: int, meld_tiles: Sequence[int],
                values: Mapping[str, int], *, needs_winning_tile: bool = False) -> Scored | None:
    """R3.3: highest pattern over the waits of a 13-tile hand (no bonuses), None if not ready."""
    top: Scored | None = None
    work = list(cnt)
    for t in waits(cnt, meld_tiles):
        work[t] += 1
        s = score(work, n_melds, meld_tiles, t, values, needs_winning_tile=needs_winning_tile)
        work[t] -= 1
        if s is not None and (top is None or s.value > top.value):
            top = s
    return top


def wins_with(cnt: list[int], keys: Sequence[int], no_melds: bool, tile: int) -> bool:
    """R3.1 for a 13-tile hand plus `tile`, from the hand's packed suit keys (see SeatState)."""
    k0, k1, k2 = keys
    s = tile // 9
    if s == 0:
        k0 += POW5[tile % 9]
    elif s == 1:
        k1 += POW5[tile % 9]
    else:
        k2 += POW5[tile % 9]
    return is_winning_keys(k0, k1, k2, no_melds)
