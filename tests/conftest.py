"""Fixtures and record builders of every test. The service's fixtures (app -> client -> runner on a
temporary database, a store on a temporary file) live in tests/service.py and are loaded here only
where the web stack is installed: the engine's tests (tests/audit, sim, report, kit) run without
Flask, sqlite-utils and WeasyPrint (issue 35.3, tests/test_engine_alone.py).

Everything runs against the real engine (`audit.api`) and the real schema check
(`audit.schema`); the only fakes are auditors that fail on purpose.
"""
from __future__ import annotations

import copy
import io
import json
import os
import sys
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # `pytest tests/...` from the repository root without an install
    sys.path.insert(0, str(ROOT))


from hypothesis import HealthCheck, settings  # noqa: E402


SPEC = ROOT / "spec" if (ROOT / "spec").is_dir() else ROOT.parent / "shared" / "spec"
"""The repository's copy of the spec, else shared/spec beside the checkout."""
EXAMPLES = SPEC / "examples"
REFERENCE = SPEC / "reference"


# Generation speed is wall-clock: on a shared 2-core machine (and in CI) it fails for
# reasons that have nothing to do with the code under test. Tests that set their own
# `suppress_health_check` list include `too_slow` themselves.
# For the same reason no example has a deadline (hypothesis's default is 200 ms of wall time): a
# property test fails on what the code does, never on how busy the machine was (tests/deadlines.py).
settings.register_profile("project", suppress_health_check=[HealthCheck.too_slow], deadline=None)
settings.register_profile("ci", parent=settings.get_profile("project"), derandomize=True, database=None,
                          print_blob=True)
"""In CI (`CI` set: .ci/run sets it) every property test draws the same examples on every run, so a red
build is the code's doing, never the draw's (issue 35.4); a developer's run keeps exploring new ones."""


def hypothesis_profile(environ: Mapping[str, str]) -> str:
    """The hypothesis profile of a run: `ci` where the environment says CI, else `project`."""
    return "ci" if environ.get("CI", "").strip().lower() not in ("", "0", "false", "no") else "project"


settings.load_profile(hypothesis_profile(os.environ))


SLOW_FIRST = ("tests/web/test_fuzz_api.py", "tests/kit/test_kit.py", "tests/web/test_pdf.py", "tests/web/test_browser.py",
              "tests/fit/test_search.py", "tests/sim/test_mutate.py", "tests/web/test_browser_table.py",
              "tests/web/test_case_flow.py", "tests/sim/test_simulate.py", "tests/web/test_fit_jobs.py",
              "tests/web/test_pdf_pages.py", "tests/batch/test_batch.py", "tests/web/test_trail.py",
              "tests/fit/test_search_ways.py", "tests/web/test_evidence_columns.py", "tests/test_types.py",
              "tests/web/test_browser_platforms.py", "tests/test_engine_alone.py", "tests/fit/test_periods.py")
"""The files whose tests took longest, longest first (all their tests together, 20 s to 220 s at load 5 in one
whole run, 2026-12-04). `make test` hands out whole files (`--dist loadfile`) in the order collected
(`--no-loadscope-reorder`): these start first, so no long file starts last and leaves the other core idle
(xdist's own order, most tests first, started the fuzz file and the browser walks last; issue 35.4). The rest
follow most tests first, as xdist would order them."""


def run_order(nodeids: Sequence[str]) -> list[int]:
    """Indexes of `nodeids` in the order to run them: SLOW_FIRST's files first, then the other files by
    their number of tests, most first; each file's tests together and in their own order."""
    files = [nodeid.split("::")[0] for nodeid in nodeids]
    tests = Counter(files)
    seen = {path: index for index, path in reversed(list(enumerate(files)))}
    rank = {path: index for index, path in enumerate(SLOW_FIRST)}
    return sorted(range(len(files)), key=lambda i: (rank.get(files[i], len(rank)), -tests[files[i]], seen[files[i]], i))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the slow files first (SLOW_FIRST)."""
    order = run_order([item.nodeid for item in items])
    items[:] = [items[i] for i in order]


def pytest_report_header() -> str:
    """Say which engine the run tests: the mypyc build (`make native`) or plain Python."""
    from audit import native

    done = native.compiled()
    if not done:
        return "engine: plain Python (no compiled modules; `make native` builds them)"
    return f"engine: compiled with mypyc ({len(done)} of {len(native.COMPILED)} modules)"


def example_path(name: str) -> Path:
    """A worked example record of the spec."""
    return EXAMPLES / f"{name}.json"


def load_example(name: str) -> dict[str, Any]:
    """A fresh parsed copy of an example record."""
    return json.loads(example_path(name).read_text(encoding="utf-8"))


def reference_paths() -> list[Path]:
    """The 30 reference games, all of which audit clean."""
    return sorted(REFERENCE.glob("ref-*.json"))


def variant(doc: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """A copy of a record with top-level fields replaced."""
    copied = copy.deepcopy(doc)
    copied.update(changes)
    return copied


def missettled(doc: dict[str, Any]) -> dict[str, Any]:
    """A copy whose claimed scores are wrong (still summing to zero): audits missettled."""
    copied = copy.deepcopy(doc)
    scores = copied["result"]["scores"]
    scores[0] += 1
    scores[1] -= 1
    copied["result"].pop("items", None)
    return copied


def dumps(doc: Any, *, pretty: bool = False) -> bytes:
    """JSON bytes as a platform would send them."""
    return json.dumps(doc, ensure_ascii=False, indent=1 if pretty else None).encode("utf-8")


def make_zip(members: dict[str, bytes], *, compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """A zip archive holding the given members (names ending in / are directories)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name, data in members.items():
            if name.endswith("/"):
                archive.writestr(zipfile.ZipInfo(name), b"")
            else:
                archive.writestr(name, data)
    return buffer.getvalue()


def failing_auditor(*_args: Any, **_kwargs: Any) -> list[dict[str, Any]]:
    """An engine that breaks its promise never to raise."""
    raise RuntimeError("engine exploded")


@pytest.fixture(scope="session")
def dask_client() -> Iterator[Any]:
    """A local Dask cluster of 2 worker processes, shared by the batch tests of a session (each
    start costs seconds), torn down at the end. Started only when a test asks for it."""
    from batch.runner import cluster

    with cluster(workers=2) as client:
        yield client


try:  # the service's fixtures and helpers, where its stack is installed (issue 35.3)
    import flask  # noqa: F401
    import sqlite_utils  # noqa: F401
except ImportError:
    pass
else:
    from tests.service import *  # noqa: E402,F401,F403
