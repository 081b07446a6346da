"""Which modules the build compiles with mypyc, and a guard against running stale binaries.

The replayer is the cost of an audit (docs/performance.md): compiled with mypyc
the same source runs about twice as fast. The compiled modules are extension
files beside the sources (`audit/state.cpython-311-x86_64-linux-gnu.so`), and
Python imports an extension before the `.py` of the same name. So a source
edited after the build would silently be ignored: for an audit tool that means
wrong verdicts from old code. `check()` refuses to start in that case.

Without any compiled file (a plain checkout, no `make native`) everything runs
as ordinary Python, with the same results.
"""
from __future__ import annotations

import importlib.machinery
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMPILED: tuple[str, ...] = (
    "audit/tiles.py", "audit/hands.py", "audit/findings.py", "audit/values.py", "audit/state.py",
    "audit/claims.py", "audit/rules.py", "audit/replay.py", "audit/chickens.py", "audit/settle.py",
    "audit/compare.py", "audit/explain.py", "audit/engine.py", "records/structure.py",
)
"""Sources compiled by `scripts/build_native.py` (paths from the repository root)."""


class StaleBuildError(ImportError):
    """A compiled module is older than its source."""


def binaries(source: str) -> list[Path]:
    """The extension files built from `source`, whatever the platform suffix."""
    src = ROOT / source
    return [src.with_suffix(suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES
            if src.with_suffix(suffix).exists()]


def stale() -> list[str]:
    """Sources changed since their compiled module was built."""
    out = []
    for source in COMPILED:
        src = ROOT / source
        if src.exists() and any(b.stat().st_mtime < src.stat().st_mtime for b in binaries(source)):
            out.append(source)
    return out


def compiled() -> list[str]:
    """Sources that have a compiled module (empty on a plain checkout)."""
    return [source for source in COMPILED if binaries(source)]


def check() -> None:
    """Refuse to run old compiled code for an edited source."""
    old = stale()
    if old:
        raise StaleBuildError(
            f"{', '.join(old)} changed after it was compiled: run `make native` to rebuild, "
            "or `make clean-native` to run the plain Python sources")
