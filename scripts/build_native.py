"""Compile the engine's hot modules with mypyc, in place (`make native`).

The list of modules is `audit.native.COMPILED`; the `.py` sources stay the
source of truth and still run as they are where nothing was built.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    from audit.native import COMPILED

    os.chdir(ROOT)
    setup(name="zhuoji-audit-native", packages=[],
          ext_modules=mypycify(list(COMPILED), opt_level="3", group_name="audit_native"),
          script_args=["build_ext", "--inplace", "--build-temp", "build/native", "--build-lib", "build/native-lib"])


if __name__ == "__main__":
    main()
