"""Whole numbers written as text: ASCII digits only (issue 22.1).

`str.isdigit()` is true of superscripts (`²`, which `int()` then refuses: a 500) and of every
script's digits (`٥`, `５`, which `int()` silently reads as 5), and `int()` also takes `+5`, ` 5`
and `5_000`. Every text the project reads as a number (a form field, a query parameter, a path
segment in web/numbers.py; a trail head `ID:HASH`; a rule code's section) is read here instead,
so `5` is the only way to write five. Pure standard library, no game knowledge.
"""
from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from enum import Enum

MAX_DIGITS = 19
"""Digits of the largest 64-bit integer (2**63 - 1 = 9223372036854775807)."""
_DIGITS = re.compile(r"[0-9]+")
"""ASCII digits (a bare `\\d` would take every script's)."""


class NumberProblem(str, Enum):
    """Why a text is not a number of the range asked for; the value is the error `code`."""

    MISSING = "number_missing"
    NOT_DIGITS = "number_not_digits"
    OUT_OF_RANGE = "number_out_of_range"


def is_digits(text: str) -> bool:
    """Whether `text` is one or more ASCII digits and nothing else."""
    return _DIGITS.fullmatch(text) is not None


def parse_number(text: str, low: int, high: int) -> int | NumberProblem:
    """The number `text` writes if it is ASCII digits inside low..high (both included), else why
    not. More than MAX_DIGITS digits (leading zeros included) is out of range, unconverted."""
    if text == "":
        return NumberProblem.MISSING
    if not is_digits(text):
        return NumberProblem.NOT_DIGITS
    if len(text) > MAX_DIGITS:  # never convert thousands of digits; 20 or more are past 64 bits or padding
        return NumberProblem.OUT_OF_RANGE
    value = int(text)
    return value if low <= value <= high else NumberProblem.OUT_OF_RANGE


def argument(low: int = 0, high: int = 2**63 - 1) -> Callable[[str], int]:
    """An argparse `type=` for a whole number of a command line, read like every other number
    (`--workers ٥` was 5): argparse answers `invalid whole number value` and exits 2."""
    def whole_number(text: str) -> int:
        found = parse_number(text, low, high)
        if isinstance(found, NumberProblem):
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from {low} to {high} (digits 0-9)")
        return found

    return whole_number


__all__ = ["MAX_DIGITS", "NumberProblem", "argument", "is_digits", "parse_number"]
