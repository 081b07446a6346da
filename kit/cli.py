"""The command line of the kit: `build` and `check` (`python -m kit`, console script `zhuoji-kit`).

Exit status of `check`: 0 every case passes, 1 some case fails, is missing or
malformed (or an answer names no case of the kit), 2 the check cannot run.
`build`: 0 written, 1 an item of the coverage table is under its count
(the message names it), 2 a usage error.
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from audit.cli import UsageError, parse_option
from audit.vocabulary import LANGS, Lang, argument

EXIT_OK, EXIT_FAIL, EXIT_ERROR = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of exiting, so a usage error is an exit 2 with our message."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="zhuoji-kit", description="Conformance kits for zhuoji/1 client engines.")
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    b = sub.add_parser("build", help="write a kit for a profile")
    b.add_argument("--profile", required=True)
    b.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="profile option, as rules.options (repeatable)")
    b.add_argument("--cases", type=argument(1), default=300, help="cases in the kit (default 300)")
    b.add_argument("--seed", type=argument(), default=1)
    b.add_argument("--min-count", type=argument(1), default=5, help="cases each coverage item needs (default 5)")
    b.add_argument("--max-hands", type=argument(1), help="simulated hands before giving up (default max(4000, 12 x cases))")
    b.add_argument("--out", required=True, help="the kit folder to write")
    c = sub.add_parser("check", help="check a client's answers against a kit")
    c.add_argument("kit", metavar="DIR")
    c.add_argument("answers", metavar="ANSWERS", help="one JSON answer a line")
    c.add_argument("--junit", metavar="FILE")
    c.add_argument("--html", metavar="FILE")
    c.add_argument("--pdf", metavar="FILE")
    c.add_argument("--json", metavar="FILE")
    c.add_argument("--lang", default="en", help="|".join(x.value for x in LANGS) + " (default en)")
    c.add_argument("--failures", metavar="DIR",
                   help="where failing cases are written with the client's result (default ANSWERS.failures)")
    c.add_argument("--quiet", action="store_true", help="no summary on stdout")
    return p


def _build(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from kit.build import KitError, build_kit, write_kit

    options = dict(parse_option(o) for o in args.option)
    if args.cases < 1 or args.min_count < 1:
        raise UsageError("--cases and --min-count must be at least 1")
    target = Path(args.out)
    if target.exists() and not target.is_dir():  # said before the build, not after it (issue 34.3)
        raise UsageError(f"--out {args.out} is a file, not a folder: choose a new folder or a kit's")
    try:
        files = build_kit(args.profile, options, cases=args.cases, seed=args.seed, min_count=args.min_count,
                          max_hands=args.max_hands)
    except KitError as exc:
        if exc.usage:
            raise UsageError(str(exc)) from None
        print(f"error: {exc}", file=err)
        return EXIT_FAIL
    write_kit(files, Path(args.out))
    out.write(f"kit written to {args.out}: {len(files) - 1} files\n")
    return EXIT_OK


def _check(args: argparse.Namespace, out: TextIO) -> int:
    from kit import report
    from kit.check import check, load_kit, read_answers

    try:
        lang = Lang(args.lang)
    except ValueError:
        raise UsageError(f"--lang {args.lang!r}: one of {', '.join(x.value for x in LANGS)}") from None
    kit = load_kit(Path(args.kit))
    answers = read_answers(Path(args.answers))
    failures = Path(args.failures) if args.failures else Path(f"{args.answers}.failures")
    rep = check(kit, answers, lang, failures)
    writers = ((args.json, report.to_json), (args.junit, report.junit), (args.html, report.to_html))
    for path, write in writers:
        if path:
            Path(path).write_text(write(rep), encoding="utf-8")
    if args.pdf:
        report.to_pdf(rep, Path(args.pdf))
    if not args.quiet:
        out.write(report.text(rep))
    return EXIT_OK if rep.ok else EXIT_FAIL


def run(argv: Sequence[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    """Run one command; never a traceback for bad input."""
    from kit.check import CheckError
    from audit.api import ProfileError

    out, err = out or sys.stdout, err or sys.stderr
    try:
        args = build_parser().parse_args(argv)
        return _build(args, out, err) if args.command == "build" else _check(args, out)
    except (UsageError, CheckError, ProfileError, OSError) as exc:
        print(f"error: {exc}", file=err)
        return EXIT_ERROR


def main() -> None:
    """Console entry point (`zhuoji-kit`)."""
    sys.exit(run(sys.argv[1:]))
