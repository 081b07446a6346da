"""R11 chickens (鸡): the flip (R11.5) and one seat's tally, as the settlement and its views show them.

The ledger that counts them and pays them, R11 with the profile's house-rule values, is
`audit.house`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from audit.profiles import Profile
from audit.tiles import BIRD, next_rank
from audit.values import Note


@dataclass
class Flip:
    """The turned tile (R11.5), the flip chickens it makes, and whether it is 金鸡."""

    turned: int
    chickens: tuple[int, ...]
    gold: bool

    def __init__(self, turned: int, chickens: tuple[int, ...], gold: bool) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.turned = turned
        self.chickens = chickens
        self.gold = gold


@dataclass
class SeatChickens:
    """One seat's chicken tally: credit if it qualifies, liability if it does not."""

    seat: int
    qualifies: bool
    credit: int = 0
    liability: int = 0
    parts: list[Note] = field(default_factory=list)
    """The working of the credit, as note parts (audit/catalogue/notes.toml)."""
    liability_parts: list[Note] = field(default_factory=list)
    tiles: list[str] = field(default_factory=list)

    def __init__(self, seat: int, qualifies: bool, credit: int = 0, liability: int = 0,
                 parts: list[Note] | None = None, liability_parts: list[Note] | None = None,
                 tiles: list[str] | None = None) -> None:
        # Written out, not generated: mypyc compiles this one (docs/performance.md).
        self.seat = seat
        self.qualifies = qualifies
        self.credit = credit
        self.liability = liability
        self.parts = [] if parts is None else parts
        self.liability_parts = [] if liability_parts is None else liability_parts
        self.tiles = [] if tiles is None else tiles


def flip_of(prof: Profile, turned: int | None) -> Flip | None:
    """R11.5: the flip chickens of a turned tile; 1s among them makes 金鸡."""
    if turned is None:
        return None
    steps = (1, -1) if prof.flip == "up_down" else (1,)
    chickens = tuple(dict.fromkeys(next_rank(turned, s) for s in steps))
    return Flip(turned, chickens, BIRD in chickens)
