"""Which modules the build compiles with mypyc, and a guard against running stale binaries.

The replayer is the cost of an audit (docs/performance.md): compiled with mypyc
the same sources run about three times as fast. The compiled modules are
extension files beside the sources (`audit/state.cpython-311-x86_64-linux-gnu.so`)
plus one library holding their code (`audit_native__mypyc...so` at the
repository root), and Python imports an extension before the `.py` of the same
name. So a source edited after the build would silently be ignored: for an
audit tool that means verdicts from old code. `check()` refuses that.

Without any compiled file (a plain checkout, or `make clean-native`) everything
runs as ordinary Python, with the same results (tests/test_native.py).
"""
from __future__ import annotations

import importlib.machinery
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

COMPILED: tuple[str, ...] = (
    "audit/kinds.py", "audit/tiles.py", "audit/hands.py", "audit/findings.py", "audit/values.py", "audit/items.py",
    "audit/state.py",
    "audit/claims.py", "audit/rules.py", "audit/replay.py", "audit/chickens.py", "audit/house.py",
    "audit/settle.py",
    "audit/compare.py", "audit/explain.py", "audit/engine.py", "audit/structure.py",
)
"""Sources compiled by `scripts/build_native.py` (`make native`), from the repository root."""

LIBRARY = "audit_native__mypyc"
"""mypyc puts the code of every compiled module in this one library at the
repository root; the per-module extension files only load it. So the library's
time is the build's time (a rebuild may leave an unchanged per-module file alone)."""


class StaleBuildError(ImportError):
    """A compiled module is older than its source."""


def binaries(source: str, root: Path = ROOT) -> list[Path]:
    """The extension files built from `source`, whatever the platform suffix."""
    src = root / source
    return [src.with_suffix(suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES
            if src.with_suffix(suffix).exists()]


def library(root: Path = ROOT) -> Path | None:
    """The shared library of the last build, if any."""
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = root / f"{LIBRARY}{suffix}"
        if path.exists():
            return path
    return None


def compiled(root: Path = ROOT, sources: tuple[str, ...] = COMPILED) -> list[str]:
    """Sources that have a compiled module (empty on a plain checkout)."""
    return [source for source in sources if binaries(source, root)]


def stale(root: Path = ROOT, sources: tuple[str, ...] = COMPILED) -> list[str]:
    """Compiled sources changed since the build (or whose build has no library)."""
    lib = library(root)
    built = lib.stat().st_mtime if lib is not None else None
    return [source for source in compiled(root, sources)
            if built is None or not (root / source).exists() or built < (root / source).stat().st_mtime]


def check(root: Path = ROOT, sources: tuple[str, ...] = COMPILED) -> None:
    """Refuse to run old compiled code for an edited source."""
    old = stale(root, sources)
    if old:
        raise StaleBuildError(
            f"{', '.join(old)} changed after the engine was compiled: run `make native` to rebuild, "
            "or `make clean-native` to run the plain Python sources")
