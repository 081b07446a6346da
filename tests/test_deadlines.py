"""Tests wait on conditions with deadlines that scale with the machine (issue 35.4): the helpers of
tests/deadlines.py, and a scan of tests/ that names, by file and line, any wait or timeout written
some other way, so the next test cannot bring one back."""
from __future__ import annotations

import ast
import itertools
from pathlib import Path

import pytest
from hypothesis import settings

from tests import deadlines
from tests.conftest import ROOT
from tests.deadlines import MOST_SLOWNESS, SLOWNESS_VARIABLE, Deadline, scaled, slowness, wait_until

TESTS = ROOT / "tests"
HOME = TESTS / "deadlines.py"
"""The one file allowed to sleep and read the clock."""
CLOCKS = {"sleep", "monotonic", "perf_counter", "monotonic_ns", "perf_counter_ns"}
"""Calls that wait a fixed time or measure wall time."""
LAUNCHERS = {"sync_playwright", "launch", "launch_persistent_context", "connect_over_cdp"}
"""Playwright calls that start a browser: only tests/web/serving.py makes them, and the browser it
hands out gives every context and page the scaled timeouts."""
BROWSER_HOME = TESTS / "web" / "serving.py"


def _named(node: ast.expr) -> str:
    """The last name of a called thing: `time.sleep` -> sleep, `sleep` -> sleep."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _a_number(node: ast.expr | None) -> bool:
    """A literal number of seconds other than 0 (0 is "do not wait"), or arithmetic of literals."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool) and node.value != 0
    if isinstance(node, ast.UnaryOp):
        return _a_number(node.operand)
    if isinstance(node, ast.BinOp):
        return all(isinstance(side, (ast.Constant, ast.BinOp, ast.UnaryOp)) for side in (node.left, node.right)) \
            and (_a_number(node.left) or _a_number(node.right))
    return False


def _a_deadline_name(name: str | None) -> bool:
    return name is not None and ("timeout" in name.lower() or "deadline" in name.lower())


def fixed_waits(source: str, path: Path) -> list[str]:
    """Each raw wait of `source`: 'LINE: what', for a sleep, a clock read, a literal timeout or
    deadline (keyword, default or Playwright's wait_for_timeout), or a browser made elsewhere."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = _named(node.func)
            if name in CLOCKS and path != HOME:
                found.append(f"{node.lineno}: {name}() (wait with tests.deadlines.wait_until, measure nothing)")
            if name == "wait_for_timeout" or (name.startswith("set_default") and any(map(_a_number, node.args))):
                found.append(f"{node.lineno}: {name}() with a fixed time (tests.deadlines.wait_until / patient)")
            if name in LAUNCHERS and path != BROWSER_HOME:
                found.append(f"{node.lineno}: {name}() outside tests/web/serving.py (headless_chromium scales "
                             "the browser's timeouts)")
            found += [f"{node.lineno}: {keyword.arg}= a fixed number (tests.deadlines.scaled)"
                      for keyword in node.keywords if _a_deadline_name(keyword.arg) and _a_number(keyword.value)]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            arguments = node.args
            positional = [*arguments.posonlyargs, *arguments.args]
            pairs = [*zip(positional[len(positional) - len(arguments.defaults):], arguments.defaults),
                     *zip(arguments.kwonlyargs, arguments.kw_defaults)]
            found += [f"{node.lineno}: {argument.arg}= defaults to a fixed number (tests.deadlines.scaled)"
                      for argument, default in pairs if _a_deadline_name(argument.arg) and _a_number(default)]
    return sorted(set(found), key=lambda line: int(line.split(":")[0]))


def test_no_test_waits_a_fixed_time_or_reads_the_clock() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}" for path in sorted(TESTS.rglob("*.py"))
             for line in fixed_waits(path.read_text(encoding="utf-8"), path)]
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("source", [
    "import time\ntime.sleep(0.5)\n",
    "from time import sleep\nsleep(2)\n",
    "import time\nstarted = time.monotonic()\n",
    "import time\nx = time.perf_counter()\n",
    "subprocess.run(['x'], timeout=120)\n",
    "thread.join(timeout=60 * 2)\n",
    "run_load(1, deadline_s=240)\n",
    "page.request.get(url, timeout=180_000)\n",
    "page.wait_for_timeout(300)\n",
    "page.set_default_timeout(30000)\n",
    "def wait(condition, timeout=120):\n    pass\n",
    "def wait(condition, *, deadline: float = 9.5):\n    pass\n",
    "browser = p.chromium.launch(executable_path='chromium')\n",
    "with playwright.sync_playwright() as p:\n    pass\n",
    "@settings(deadline=500)\ndef test(): pass\n",
])
def test_the_scan_finds_each_kind_of_fixed_wait(source: str) -> None:
    assert len(fixed_waits(source, TESTS / "web" / "test_example.py")) == 1


@pytest.mark.parametrize("source", [
    "subprocess.run(['x'], timeout=scaled(120))\n",
    "sqlite3.connect(path, timeout=0)\n",  # never wait for a lock: not a deadline
    "@settings(deadline=None)\ndef test(): pass\n",
    "wait_until(lambda: done, 30, 'the file')\n",
    "clock = [time.time()]\n",  # a timestamp to hand to the code, not a wait
    "page = browser.new_page(viewport={'width': 390})\n",  # from headless_chromium: scaled timeouts
])
def test_the_scan_lets_scaled_deadlines_through(source: str) -> None:
    assert fixed_waits(source, TESTS / "web" / "test_example.py") == []


def test_the_scan_names_the_line() -> None:
    source = "import time\n\n\ndef test() -> None:\n    time.sleep(1)\n"
    assert [line.split(":")[0] for line in fixed_waits(source, TESTS / "test_x.py")] == ["5"]
    assert fixed_waits("import time\ntime.sleep(POLL_S)\n", HOME) == []  # the helpers' own polling
    assert fixed_waits("chrome = p.chromium.launch(timeout=playwright_ms())\n", BROWSER_HOME) == []


# ----- the slowness factor and the helpers ------------------------------------------------------


def test_the_factor_follows_the_load_per_core_between_one_and_the_ceiling() -> None:
    assert slowness({}, load=0.3, cores=2) == 1.0  # a quiet machine: the written seconds
    assert slowness({}, load=6.0, cores=2) == 3.0  # two busy processes per core and then some
    assert slowness({}, load=500.0, cores=2) == MOST_SLOWNESS  # past this it is a hang
    assert slowness({}, load=4.0, cores=0) == 4.0  # a platform that cannot count its cores


def test_the_environment_sets_the_factor_outright() -> None:
    assert slowness({SLOWNESS_VARIABLE: "2.5"}, load=40.0, cores=1) == 2.5
    assert slowness({SLOWNESS_VARIABLE: " "}, load=3.0, cores=1) == 3.0  # blank: read the machine
    for bad in ("fast", "0.5", "nan", "-2"):
        with pytest.raises(ValueError, match=SLOWNESS_VARIABLE):
            slowness({SLOWNESS_VARIABLE: bad})


def test_scaled_multiplies_by_the_factor_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SLOWNESS_VARIABLE, "3")
    assert scaled(10) == 30 and deadlines.playwright_ms(2) == 6000
    monkeypatch.setenv(SLOWNESS_VARIABLE, "1")
    assert scaled(10) == 10


def test_wait_until_returns_the_condition_s_answer_once_it_holds() -> None:
    calls = itertools.count()
    assert wait_until(lambda: next(calls) >= 3 and "ready", 30, "the third call") == "ready"
    assert next(calls) == 4  # asked once more than it took: it stops as soon as the condition holds


def test_wait_until_fails_naming_what_it_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SLOWNESS_VARIABLE, "2")
    asked = itertools.count()
    with pytest.raises(AssertionError, match=r"waited 0\.1 s .*slowness 2\.00.* for the moon") as failure:
        wait_until(lambda: next(asked) < 0, 0.05, "the moon")
    assert next(asked) > 1, "asked more than once before giving up"
    assert "x slowness" in str(failure.value)


def test_a_deadline_passes_only_after_its_scaled_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SLOWNESS_VARIABLE, "4")
    far = Deadline(60, "a slow thing")
    assert far.allowed == 240 and not far.passed()
    far.check()  # does not raise
    gone = Deadline(-1, "the past")
    assert gone.passed()
    with pytest.raises(AssertionError, match="the past"):
        gone.check()


def test_no_property_test_has_a_wall_time_deadline() -> None:
    assert settings.get_profile("project").deadline is None
    assert settings.get_profile("ci").deadline is None
