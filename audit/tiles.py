"""Tiles as small integers, their text codes and their Chinese names: the one tile vocabulary.

A tile is an int 0..26: suit * 9 + (rank - 1), suits in the order m (万),
p (筒), s (条). Small ints let hand analysis work on a 27-slot count array,
which is what makes it fast enough to run on every discard of every hand.
Everything that reads, writes or names a tile comes here: the schema's tile
set (`audit.structure`), the SVG drawings (`audit.render`), the reports and
the record notation (`sim.notation`).
"""
from __future__ import annotations

from typing import Final

from collections.abc import Iterable, Sequence
from enum import IntEnum


class Suit(IntEnum):
    """The three suits; there are no honours in this game (R1.3)."""

    M = 0
    """万 characters."""
    P = 1
    """筒 dots."""
    S = 2
    """条 bamboo."""


SUIT_LETTERS: Final = "mps"
SUIT_NAMES_ZH: Final = ("万", "筒", "条")
NUMERALS_ZH: Final = "一二三四五六七八九"
"""Ranks as players say them: 五万, 三筒, 七条."""
NUM_KINDS: Final = 27
COPIES: Final = 4

CODES: Final[tuple[str, ...]] = tuple(f"{r}{s}" for s in SUIT_LETTERS for r in range(1, 10))
_CODE_INDEX: Final = {c: i for i, c in enumerate(CODES)}

BIRD: Final = _CODE_INDEX["1s"]
"""幺鸡: always a chicken (R11.1)."""
WUGU: Final = _CODE_INDEX["8p"]
"""乌骨鸡: a chicken only where the profile's `wugu_ji` is on (R11.1)."""


def parse(code: str) -> int:
    """Tile index of a code such as '5m'; ValueError names the bad input."""
    try:
        return _CODE_INDEX[code]
    except (KeyError, TypeError):
        raise ValueError(f"not a tile: {code!r}") from None


def code(tile: int) -> str:
    """Text code of a tile index."""
    return CODES[tile]


def split(code: str) -> tuple[int, str]:
    """(rank 1..9, suit letter) of a code such as '5m'; ValueError names the bad input."""
    tile = parse(code)
    return rank(tile), SUIT_LETTERS[suit(tile)]


def suit(tile: int) -> int:
    """Suit index (0 m, 1 p, 2 s)."""
    return tile // 9


def rank(tile: int) -> int:
    """Rank 1..9."""
    return tile % 9 + 1


def make(suit_index: int, rank_value: int) -> int:
    """Tile index from a suit index and a rank 1..9."""
    return suit_index * 9 + rank_value - 1


def next_rank(tile: int, step: int = 1) -> int:
    """The same suit, rank moved by `step`, wrapping 9 -> 1 and 1 -> 9 (翻牌鸡, R11.5)."""
    return make(suit(tile), (rank(tile) - 1 + step) % 9 + 1)


def counts(tiles: Iterable[int]) -> list[int]:
    """A 27-slot count array."""
    out = [0] * NUM_KINDS
    for t in tiles:
        out[t] += 1
    return out


def parse_all(codes: Iterable[str]) -> list[int]:
    """Parse many codes at once (a plain look-up per tile: the wall is parsed for every audit)."""
    index = _CODE_INDEX
    try:
        return [index[c] for c in codes]
    except (KeyError, TypeError):
        return [parse(c) for c in codes]


def format_counts(cnt: Sequence[int]) -> list[str]:
    """Codes of a count array, sorted by suit then rank: how reports show a hand."""
    return [CODES[t] for t in range(NUM_KINDS) for _ in range(cnt[t])]


def zh(tile: int) -> str:
    """Chinese name of a tile as players say it: 五万, 三筒, 七条; 1s is 幺鸡."""
    if tile == BIRD:
        return "幺鸡"
    return NUMERALS_ZH[rank(tile) - 1] + SUIT_NAMES_ZH[suit(tile)]


def zh_name(code: str) -> str:
    """Chinese name of a tile code ('5m' -> 五万, '1s' -> 幺鸡); ValueError names a bad code."""
    return zh(parse(code))
