"""The mypyc build: the stale-binary guard, and compiled and plain Python agreeing."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from audit import native
from tests.conftest import EXAMPLES, REFERENCE, ROOT

def fake_build(root: Path, sources: tuple[str, ...], *, library_time: float, source_time: float) -> None:
    """Sources and empty 'binaries' with chosen times: enough for the guard, which only looks at files."""
    for source in sources:
        src = root / source
        src.parent.mkdir(parents=True, exist_ok=True)
        src.write_text("x = 1\n")
        binary = src.with_suffix(native.importlib.machinery.EXTENSION_SUFFIXES[0])
        binary.write_bytes(b"")
        os.utime(src, (source_time, source_time))
        os.utime(binary, (library_time, library_time))
    lib = root / f"{native.LIBRARY}{native.importlib.machinery.EXTENSION_SUFFIXES[0]}"
    lib.write_bytes(b"")
    os.utime(lib, (library_time, library_time))


def test_guard_refuses_a_source_edited_after_the_build(tmp_path: Path) -> None:
    sources = ("audit/a.py", "records/b.py")
    fake_build(tmp_path, sources, library_time=1_000_000, source_time=2_000_000)
    assert native.stale(tmp_path, sources) == list(sources)
    with pytest.raises(native.StaleBuildError, match="make native"):
        native.check(tmp_path, sources)


def test_guard_accepts_a_fresh_build_and_a_plain_checkout(tmp_path: Path) -> None:
    sources = ("audit/a.py",)
    fake_build(tmp_path, sources, library_time=2_000_000, source_time=1_000_000)
    native.check(tmp_path, sources)
    plain = tmp_path / "plain"
    (plain / "audit").mkdir(parents=True)
    (plain / "audit" / "a.py").write_text("x = 1\n")
    assert native.compiled(plain, sources) == []
    native.check(plain, sources)


def test_a_build_that_links_nothing_anew_still_stamps_the_library(tmp_path: Path) -> None:
    """A docstring edit gives mypyc the same C: nothing is linked and the old library is copied with
    its old time. The build then stamps it, or the guard would refuse the source it just covered."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("build_native", ROOT / "scripts" / "build_native.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    sources = ("audit/a.py",)
    fake_build(tmp_path, sources, library_time=1_000_000, source_time=2_000_000)
    assert native.stale(tmp_path, sources) == list(sources)
    build._stamp_library(tmp_path)
    assert native.stale(tmp_path, sources) == []


def test_guard_refuses_module_files_without_their_library(tmp_path: Path) -> None:
    sources = ("audit/a.py",)
    fake_build(tmp_path, sources, library_time=2_000_000, source_time=1_000_000)
    next(tmp_path.glob(f"{native.LIBRARY}*")).unlink()
    assert native.stale(tmp_path, sources) == ["audit/a.py"]


def test_a_build_is_whole() -> None:
    """Either every listed module is compiled and imported as such, or none is."""
    done = native.compiled()
    assert done in ([], list(native.COMPILED))
    import importlib

    for source in native.COMPILED:
        module = importlib.import_module(source[:-3].replace("/", "."))
        assert module.__file__ is not None
        assert module.__file__.endswith(".py") == (not done), module.__file__


AUDIT_ALL = """
import json, sys
from pathlib import Path
from audit import native
from audit.api import audit_record
assert native.compiled() == [], "this copy must run the plain sources"
print(json.dumps({p: audit_record(json.loads(Path(p).read_text(encoding="utf-8"))) for p in sys.argv[1:]}))
"""


def corpus() -> list[str]:
    files = sorted(REFERENCE.glob("*.json")) + sorted(EXAMPLES.glob("*.json")) + sorted((ROOT / "samples").glob("*.json"))
    return [str(p) for p in files if not p.name.endswith(".audit.json") and p.name != "manifest.json"]


def generated(tmp_path: Path) -> list[str]:
    """Simulated hands of every profile and one-fault mutants of some of them (illegal moves,
    mis-settlements, schema faults): the error paths, not only clean reference games."""
    from sim.mutate import mutants
    from audit.profiles import list_profiles
    from sim.simulate import simulate

    docs = []
    for name in list_profiles():
        records = [g.record for g in simulate(name, {}, 8, seed=11)]
        docs += records
        docs += [m.record for m in mutants(records[0], seed=3)][:40]
    folder = tmp_path / "generated"
    folder.mkdir()
    paths = []
    for i, doc in enumerate(docs):
        path = folder / f"{i:04d}.json"
        path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
        paths.append(str(path))
    return paths


@pytest.mark.skipif(not native.compiled(), reason="engine not compiled here (`make native`); nothing to compare")
def test_compiled_and_plain_python_give_the_same_audits(tmp_path: Path) -> None:
    """The binaries are a faster way to run the same sources, never a second engine."""
    from audit.api import audit_record

    for package in ("audit", "records"):
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    files = corpus() + generated(tmp_path)
    out = subprocess.run([sys.executable, "-c", AUDIT_ALL, *files], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(tmp_path)}, check=True)
    plain = json.loads(out.stdout)
    verdicts = set()
    for path in files:
        doc = json.loads(Path(path).read_text(encoding="utf-8"))
        got = audit_record(doc)
        assert got == plain[path], path
        verdicts.add(got["verdict"])
    assert verdicts == {"clean", "illegal", "missettled", "invalid"}
