"""Leave out one step of adding a house rule at a time, and see whether a test fails (issue 32.4).

For one registry entry (by default R19.1, `chicken.unready_melded`), each omission below undoes one
of the things docs/where-to-add.md "A house rule" asks for, in a copy of the committed tree, then runs
the tests the guide names. A step whose omission no test catches is printed as MISSED. The copy is a
`git archive` of HEAD in a temporary folder, run with this checkout's interpreter; nothing here is
touched.

Run: `.venv/bin/python scripts/omissions.py [--only NAME]` (a few minutes per omission).
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ["tests/audit/test_house_rules.py", "tests/test_where_to_add.py", "tests/audit/test_rule_texts.py",
         "tests/audit/test_rulebook.py", "tests/audit/test_catalogue.py", "tests/audit/test_r19.py",
         "tests/audit/test_attribute.py", "tests/audit/test_samples.py", "tests/audit/test_profiles.py",
         "tests/sim/test_mutate.py"]


def cut(path: str, pattern: str, flags: int = re.S, repl: str = "") -> Callable[[Path], None]:
    """An omission: the first match of `pattern` in `path` replaced by `repl` (it must match)."""
    def apply(tree: Path) -> None:
        file = tree / path
        text = file.read_text(encoding="utf-8")
        new, n = re.subn(pattern, repl, text, count=1, flags=flags)
        if not n:
            raise SystemExit(f"{path}: nothing matches {pattern!r}")
        file.write_text(new, encoding="utf-8")
    return apply


def delete(glob: str) -> Callable[[Path], None]:
    def apply(tree: Path) -> None:
        files = list(tree.glob(glob))
        if not files:
            raise SystemExit(f"nothing matches {glob}")
        for f in files:
            f.unlink()
    return apply


OMISSIONS: dict[str, Callable[[Path], None]] = {
    "registry entry": cut("audit/house_rules.py", r'    HouseRule\("chicken\.unready_melded".*?needs=_READY_CHICKENS\),\n'),
    "registry needs": cut("audit/house_rules.py", r'(?<=\("free",\), _CHICKEN), needs=_READY_CHICKENS'),
    "profile field": cut("audit/profiles.py", r'    unready_melded: Literal\["pays", "free"\] = "pays"\n.*?"""\n'),
    "words": cut("audit/catalogue/parameters.toml", r'\["chicken\.unready_melded"\].*?\n\n(?=\[)'),
    "rulebook vendored": cut("spec/rulebook.md", r"- R19\.1 .*?(?=- R19\.2)"),
    "rulebook Chinese": cut("audit/catalogue/rulebook_zh.toml", r'"R19\.1" = """.*?"""\n'),
    "explanation code": cut("audit/catalogue/findings.toml", r"\[net_r19_1_not_played\].*?\n\n"),
    "settlement": cut("audit/house.py", r'c\.unready_melded == "free"', 0, "False"),
    "samples": delete("samples/*r19-1-*"),
    "sample builder": cut("scripts/make_samples.py", r'    \("r19-1-melded-free".*?\),\n(?=    \("r19-2)'),
    "docs table row": cut("docs/house-rules.md", r"\| R19\.1 \| `chicken\.unready_melded` \|[^\n]*\n"),
    "docs worked example": cut("docs/house-rules.md", r"- \*\*R19\.1\*\* \(`r19-1-melded-free`.*?(?=- \*\*R19\.2)"),
    "docs/findings.md": cut("docs/findings.md", r"### `net_r19_1_not_played`.*?(?=### )"),
}
"""One per step of the guide for R19.1; the tests written for the rule itself are the step no test
can check (their omission is what the other tests then miss)."""


def run(name: str, omit: Callable[[Path], None]) -> bool:
    """Whether some test fails with `name` left out."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "HEAD"], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        omit(tree)
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-n", "2", "-p", "no:cacheprovider", *TESTS],
                              cwd=tree, capture_output=True, text=True)
        failed = [ln for ln in done.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))]
        print(f"{'caught' if done.returncode else 'MISSED'}  {name}: {failed[0] if failed else ''}"[:200], flush=True)
        return done.returncode != 0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--only", action="append", default=[])
    args = p.parse_args(argv)
    names = args.only or list(OMISSIONS)
    caught = sum(run(n, OMISSIONS[n]) for n in names)
    print(f"{caught} of {len(names)} omissions fail a test")
    return 0 if caught == len(names) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
