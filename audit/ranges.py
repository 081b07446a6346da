"""The range of every integer field of `zhuoji/1` (issue 22.2): one table that the marshmallow
schema, its compiled twin (`structure.py`), the published JSON Schema (`audit/schemas/`,
checked against this table by tests/audit/test_ranges.py) and so the store, the API and the batch
all read, so a value is accepted by all of them or refused by all of them, at the door.

Why these bounds: SQLite and Parquet keep 64 bits, and an amount is units × `base`, so `base`
near 2**63 made the computed scores overflow after the record was stored (the API returned
numbers past 64 bits, `python -m batch --from-db` failed every partition holding one). A claimed
score or item amount is at most 2**53 - 1 in size, the largest integer every JSON reader
(JavaScript's included) reads exactly; `base` at most 1,000,000 and `dealer_streak` at most 1,000
keep every computed amount (a hand is worth at most a few thousand units) far inside that, and
any difference of two amounts inside 64 bits. Seat indices are 0..n-1 (checked against the
profile's seat count, code `seat_out_of_range`), dice 1..6.

A rule profile's integers (its file, a record's `rules.options`, a what-if, `--option`) are ranged
here too (issue 34.1): every integer parameter of `audit.profiles.Profile` is declared `Units`,
`Multiple` or `Seats`, and the loader refuses a value outside its range (`parameter_out_of_range`),
so every door that builds a profile refuses the same values.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class IntRange:
    """The integers a field accepts, both ends included."""

    low: int
    high: int

    def holds(self, value: int) -> bool:
        return self.low <= value <= self.high


MAX_POINTS: Final = 2**53 - 1
"""Largest claimed score or item amount, in size (JSON's exact integers)."""

BASE: Final = IntRange(1, 1_000_000)
DEALER_STREAK: Final = IntRange(0, 1_000)
DIE: Final = IntRange(1, 6)
POINTS: Final = IntRange(-MAX_POINTS, MAX_POINTS)
"""`result.scores[]` and `result.items[].amount`."""

UNITS: Final = IntRange(0, 1_000)
"""A rule profile's payment value in units (hand values, bonuses, chicken and dou values, 跟庄):
today's profiles use at most 90; with `base` at most 1,000,000 a hand stays far inside `MAX_POINTS`
(tests/audit/test_ranges.py settles hands with every parameter at its largest)."""
MULTIPLE: Final = IntRange(1, 100)
"""A rule profile's multiplier (金鸡, R19.3, R19.5): 1 leaves a value as it is; 0 would erase a
payment the rule says is made, which is what leaving the parameter out (where it may be) says."""
SEATS: Final = IntRange(3, 4)
"""A profile's seat counts (table P: three- and four-player tables)."""

FIELDS: Final[dict[str, IntRange]] = {
    "base": BASE,
    "dealer_streak": DEALER_STREAK,
    "dice[]": DIE,
    "result.scores[]": POINTS,
    "result.items[].amount": POINTS,
}
"""The ranged fields by their path in a record (`[]`: every element); seats are ranged by the
seat count instead (0..n-1)."""

__all__ = ["BASE", "DEALER_STREAK", "DIE", "FIELDS", "IntRange", "MAX_POINTS", "MULTIPLE", "POINTS", "SEATS", "UNITS"]
