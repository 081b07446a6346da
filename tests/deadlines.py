"""Every deadline of the test suite, in one place (issue 35.4).

A test never waits a fixed number of seconds: it waits on a condition (`wait_until`), and the
deadline it gives up at scales with how busy the machine is. The seconds written in a test are
what a quiet machine needs with room to spare; `scaled` multiplies them by the machine's
slowness, read from the load average per core when the deadline is set (never below 1, at most
`MOST_SLOWNESS`), or taken from `ZHUOJI_TEST_SLOWNESS` where a CI runner knows better.

tests/test_deadlines.py fails, naming file and line, on a raw `time.sleep`, a wall-clock measure
or a hard-coded timeout anywhere else under tests/.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")

SLOWNESS_VARIABLE = "ZHUOJI_TEST_SLOWNESS"
"""The environment variable that sets the slowness factor outright (a number, 1 or more)."""
MOST_SLOWNESS = 8.0
"""The factor's ceiling from the load average: past it a deadline is a hang, not a busy machine."""
POLL_S = 0.02
"""How often `wait_until` asks its condition again."""
PLAYWRIGHT_S = 30.0
"""Playwright's own default timeout (30 s) for every action, navigation and launch, scaled."""


def slowness(environ: Mapping[str, str] | None = None, load: float | None = None, cores: int | None = None) -> float:
    """How many times slower than a quiet machine this one runs now: `ZHUOJI_TEST_SLOWNESS` if
    set, else the 1-minute load average per core, between 1 and `MOST_SLOWNESS`."""
    environ = os.environ if environ is None else environ
    given = environ.get(SLOWNESS_VARIABLE, "").strip()
    if given:
        try:
            factor = float(given)
        except ValueError:
            raise ValueError(f"{SLOWNESS_VARIABLE}={given!r}: not a number") from None
        if not factor >= 1:  # also refuses nan
            raise ValueError(f"{SLOWNESS_VARIABLE}={given!r}: the factor is at least 1")
        return factor
    load = os.getloadavg()[0] if load is None else load
    cores = (os.cpu_count() or 1) if cores is None else cores
    return min(MOST_SLOWNESS, max(1.0, load / max(1, cores)))


def scaled(seconds: float) -> float:
    """`seconds` on a quiet machine, stretched by this machine's slowness now."""
    return seconds * slowness()


def playwright_ms(seconds: float = PLAYWRIGHT_S) -> float:
    """A scaled deadline in Playwright's unit, milliseconds."""
    return scaled(seconds) * 1000


@dataclass
class Deadline:
    """A point in time `seconds` (scaled) from now, for a test that bounds how long something takes."""

    seconds: float
    what: str
    allowed: float = field(init=False)
    ends: float = field(init=False)

    def __post_init__(self) -> None:
        self.allowed = scaled(self.seconds)
        self.ends = time.monotonic() + self.allowed

    def passed(self) -> bool:
        """Whether the deadline is behind us."""
        return time.monotonic() > self.ends

    def check(self) -> None:
        """Fail, naming what was waited for and for how long, once the deadline has passed."""
        if self.passed():
            raise AssertionError(f"waited {self.allowed:.1f} s ({self.seconds:g} s x slowness "
                                 f"{self.allowed / self.seconds:.2f}) for {self.what}")


def wait_until(condition: Callable[[], T], seconds: float, what: str) -> T:
    """Ask `condition` until it answers something true, and return that answer; fail naming `what`
    once `seconds` (scaled) have passed without it."""
    deadline = Deadline(seconds, what)
    while True:
        answer = condition()
        if answer:
            return answer
        deadline.check()
        time.sleep(POLL_S)


def patient(target: Any, seconds: float = PLAYWRIGHT_S) -> Any:
    """A Playwright context or page whose actions and navigations wait up to `seconds` scaled."""
    target.set_default_timeout(playwright_ms(seconds))
    target.set_default_navigation_timeout(playwright_ms(seconds))
    return target
