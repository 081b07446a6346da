"""Build the engine's wheel (`make dist`): audit/ with its data files, and the tools the
conformance kit needs (sim/, kit/) and the batch a cluster's workers import (batch/), without the service.

The wheel is built from a staged copy of the tree, so the one file the engine
reads from outside its package, `spec/rulebook.md`, goes in as
`audit/rulebook.md` (audit/rulebook.py reads that copy when there is no
checkout around it) without a second copy in the repository. Compiled
binaries (`make native`) and caches are left out: the wheel is plain Python.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.c", "*.h")


def stage(into: Path) -> Path:
    """Copy what the wheel is made of into `into`; return the staged tree."""
    tree = into / "src"
    tree.mkdir()
    for package in ("audit", "sim", "kit", "report", "fit", "records", "batch"):
        shutil.copytree(ROOT / package, tree / package, ignore=SKIP)
    shutil.copy2(ROOT / "spec" / "rulebook.md", tree / "audit" / "rulebook.md")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, tree / name)
    return tree


def main(argv: list[str]) -> int:
    out = Path(argv[0]).resolve() if argv else ROOT / "dist"
    with tempfile.TemporaryDirectory() as tmp:
        tree = stage(Path(tmp))
        done = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(tree)],
                              check=False)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
