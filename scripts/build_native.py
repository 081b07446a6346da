"""Compile the engine's hot modules with mypyc, in place (`make native`).

The list of modules is `audit.native.COMPILED`; the `.py` sources stay the
source of truth and still run as they are where nothing was built.
"""
from __future__ import annotations

import importlib.util
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _compiled_list() -> list[str]:
    """`audit.native.COMPILED`, read without importing the `audit` package: its
    guard refuses to import while the binaries are stale, which is why we build."""
    spec = importlib.util.spec_from_file_location("_native_list", ROOT / "audit" / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.COMPILED)


def main() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    compiled = _compiled_list()
    os.chdir(ROOT)
    setup(name="zhuoji-audit-native", packages=[],
          ext_modules=mypycify(compiled, opt_level="3", group_name="audit_native"),
          script_args=["build_ext", "--inplace", "--build-temp", "build/native", "--build-lib", "build/native-lib"])


if __name__ == "__main__":
    main()
