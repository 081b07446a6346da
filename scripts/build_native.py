"""Compile the engine's hot modules with mypyc, in place (`make native`).

The list of modules is `audit.native.COMPILED`; the `.py` sources stay the
source of truth and still run as they are where nothing was built.

mypyc writes one C file per module (`multi_file`) and the C files are
compiled side by side, one compiler per core (issue 35.4: the single C file
of before kept one core busy for about 50 s while the other idled). They are
still linked into the one library `audit.native.LIBRARY`, so calls between
compiled modules stay native calls; callgrind counts the same work per
audited hand either way (docs/performance.md).
"""
from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _native() -> Any:
    """`audit.native`, read without importing the `audit` package: its guard refuses to import
    while the binaries are stale, which is why we build."""
    spec = importlib.util.spec_from_file_location("_native_list", ROOT / "audit" / "native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _compiled_list() -> list[str]:
    """`audit.native.COMPILED`."""
    return list(_native().COMPILED)


def jobs() -> int:
    """How many C files to compile at once: the cores this process may use."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))


def side_by_side(compiler: Any, workers: int) -> Callable[..., list[str]]:
    """`compiler.compile`, compiling its sources `workers` at a time, the largest first (so the
    last to finish is a small one). Same arguments, same object list, same errors as distutils'
    own: each source is still one `_compile` call, which runs the compiler in a subprocess."""

    def compile(sources: Sequence[str], output_dir: str | None = None, macros: Any = None,
                include_dirs: Any = None, debug: int = 0, extra_preargs: Any = None,
                extra_postargs: Any = None, depends: Any = None) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs)
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
        todo = sorted((obj for obj in objects if obj in build), key=lambda obj: -os.path.getsize(build[obj][0]))

        def one(obj: str) -> None:
            src, ext = build[obj]
            compiler._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(max_workers=workers) as pool:
            for _ in pool.map(one, todo):  # re-raises the first CompileError
                pass
        return list(objects)

    return compile


def main() -> None:
    from mypyc.build import mypycify
    from setuptools import setup
    from setuptools.command.build_ext import build_ext

    class BuildExt(build_ext):
        def build_extensions(self) -> None:
            self.compiler.compile = side_by_side(self.compiler, jobs())
            super().build_extensions()

    compiled = _compiled_list()
    os.chdir(ROOT)
    setup(name="zhuoji-audit-native", packages=[], cmdclass={"build_ext": BuildExt},
          ext_modules=mypycify(compiled, opt_level="3", group_name="audit_native", multi_file=True),
          script_args=["build_ext", "--inplace", "--build-temp", "build/native", "--build-lib", "build/native-lib"])
    _stamp_library()


def _stamp_library(root: Path = ROOT) -> None:
    """Give the library this build's time. A source edit mypyc turns into the same C (a docstring, a
    comment) links nothing anew, and `--inplace` copies the old library with its old time: the guard
    (`audit.native.stale`) would then refuse sources the build has just covered."""
    library = _native().library(root)
    if library is not None:
        os.utime(library)


if __name__ == "__main__":
    main()
