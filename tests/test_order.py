"""The run's order (tests/conftest.py, issue 35.4): the slow files first, each file's tests together."""
from __future__ import annotations

from tests.conftest import ROOT, SLOW_FIRST, run_order


def test_every_slow_file_named_exists() -> None:
    assert [path for path in SLOW_FIRST if not (ROOT / path).is_file()] == []
    assert len(set(SLOW_FIRST)) == len(SLOW_FIRST)


def test_the_slow_files_run_first_and_the_others_by_their_number_of_tests() -> None:
    slow, second = SLOW_FIRST[0], SLOW_FIRST[1]
    ids = ["tests/a.py::one", f"{second}::x", "tests/b.py::one", "tests/b.py::two", f"{slow}::y", f"{slow}::z",
           "tests/a.py::two", "tests/a.py::three"]
    assert [ids[i] for i in run_order(ids)] == [
        f"{slow}::y", f"{slow}::z", f"{second}::x",
        "tests/a.py::one", "tests/a.py::two", "tests/a.py::three", "tests/b.py::one", "tests/b.py::two"]
