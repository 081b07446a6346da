"""`python -m fit RECORDS... --profile BASE`: a platform's own profile from its answers.

The search is `fit.search` (docs/fit.md); this module reads the files, prints, and writes the
fitted profile. RECORDS are `zhuoji/1` records, `zhuoji-match/1` matches (one record per hand),
`.jsonl` files of records, or folders of those; every text is read strictly (`audit.jsontext`).

Exit status: 0 every record is clean under the fitted profile, 1 some are not (the platform's
mistakes, listed, and the records that fail the schema), 2 the command could not run (a file that
cannot be read or is not JSON, named with its line and JSON path; an unknown profile or language;
a bad name; no record at all). `--out` writes the profile file only when the command runs.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from audit.api import (JsonTextError, ProfileError, check_profile_name, json_lines, load_profile, loads, pretty,
                       utf8_text)
from audit.cli import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, UsageError, parse_lang
from audit.vocabulary import Lang, RulebookError, argument, render_value, value_label
from fit.periods import BY, PERIODS, CellFit, change_text, changes, fit_cells
from fit.search import MIN_GAIN, Evidence, Fit, Record, Tally, Unexplained, fit, records_of

LINES = (".jsonl", ".ndjson")
"""Files read as one JSON document a line."""
DOCUMENTS = (".json",)
"""Files read as one JSON document; a folder gives its files of both kinds, by name."""


def build_parser() -> argparse.ArgumentParser:
    """The command line (docs/fit.md)."""
    p = argparse.ArgumentParser(prog="python -m fit",
                                description="Fit a platform's own profile to its records (issue 21).")
    p.add_argument("records", nargs="+", metavar="RECORDS",
                   help="zhuoji/1 records or matches (.json), .jsonl files of records, or folders of them")
    p.add_argument("--profile", default="weile", metavar="BASE", help="the profile to start from (default weile)")
    p.add_argument("--out", metavar="FILE.toml", help="write the fitted profile there (its name is the file's stem)")
    p.add_argument("--name", help="the fitted profile's name (default: the --out file's stem, else BASE_fit)")
    p.add_argument("--json", action="store_true", help="print the fit as JSON (docs/fit.md)")
    p.add_argument("--lang", default=Lang.EN.value, metavar="en|zh", help="language of the text and messages")
    p.add_argument("--min-gain", type=argument(), default=MIN_GAIN, metavar="N",
                   help=f"records a value must make clean, net, to be taken (default {MIN_GAIN})")
    p.add_argument("--by", choices=BY, help="also fit each client build, period, or both apart, and say where a "
                                            "fitted value changes (issue 36.4)")
    p.add_argument("--period", choices=PERIODS, default="week", help="the period of --by period (default week)")
    return p


# ---------------------------------------------------------------- reading

def _files(path: Path) -> list[Path]:
    if path.is_dir():
        return sorted(p for p in path.iterdir() if p.is_file() and p.suffix in LINES + DOCUMENTS)
    return [path]


def _parse(data: bytes | str, where: str, one_line: bool = False) -> Any:
    """One JSON text, read strictly; UsageError `where: JSON path: what (line, column)` (a line of
    a .jsonl file says only its column: its line is in `where`)."""
    try:
        return loads(data, allow_bom=not one_line)  # a .jsonl's mark was dropped with its file's
    except JsonTextError as exc:
        text = f"{exc.path}: {exc.message}" if exc.path else exc.message
        if exc.line is not None:
            text += f" (column {exc.column})" if one_line else f" (line {exc.line}, column {exc.column})"
        raise UsageError(f"{where}: {text}") from None


def read_records(paths: Sequence[str]) -> list[Record]:
    """Every record of the files (and folders) named, in order; UsageError naming the file, the
    line and the JSON path of the first text that is not JSON."""
    out: list[Record] = []
    for name in paths:
        for path in _files(Path(name)):
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None
            if path.suffix in LINES:
                try:
                    text = utf8_text(data)
                except JsonTextError as exc:
                    raise UsageError(f"{path}: not UTF-8 (byte {exc.byte})") from None
                for n, line in json_lines(text):  # lines end at "\n" only, as every reader's
                    out += records_of(_parse(line, f"{path} line {n}", one_line=True), f"{path} line {n}")
            else:
                out += records_of(_parse(data, str(path)), str(path))
    return out


def _name(args: argparse.Namespace, lang: Lang = Lang.EN) -> str:
    """The fitted profile's name: the loader finds a profile by its file's stem, so the two agree;
    a name by the engine's one rule (`audit.profiles.is_profile_name`), checked before any file is
    written."""
    stem = Path(args.out).stem if args.out else None
    name = args.name or stem or f"{args.profile}_fit"
    if stem is not None and name != stem:
        raise UsageError(f"--name {name!r}: a profile file is named after its profile: use --out {name}.toml")
    try:
        return check_profile_name(name, "--name" if args.name else "--out" if stem is not None else "--profile")
    except ProfileError as exc:
        raise UsageError(exc.text(lang, with_path=True)) from None


# ---------------------------------------------------------------- printing

def _word(key: str, lang: Lang) -> str:
    return render_value("fit", key, lang)


def _param(name: str, lang: Lang) -> str:
    """A parameter by its words (parameters.toml) and its dotted name."""
    words = render_value("parameter", name, lang)
    return name if words == name else f"{name} ({words})"


def _tally(t: Tally, lang: Lang) -> str:
    parts = [f"{_word('fixes', lang)} {t.fixes}"]
    if t.whole:
        parts += [f"{_word('breaks', lang)} {t.breaks}", f"{_word('changes', lang)} {t.changes}"]
    if t.partial:
        parts.append(f"{_word('partial', lang)} {t.partial}")
    return ", ".join(parts)


def _value(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _said(name: str, value: Any, lang: Lang) -> str:
    """A value as JSON, after its words where parameters.toml has them (`倒赔 "reverse"`)."""
    raw = _value(value)
    if isinstance(value, (str, bool)):
        try:
            return f"{value_label(name, value, lang)} {raw}"
        except RulebookError:
            return raw
    return raw


def _evidence_line(e: Evidence, lang: Lang) -> str:
    """A changed parameter by what its fitted value does; another by its value that fixes the most."""
    if e.changed:
        row = e.values[0]
        return (f"  {_param(e.parameter, lang)}: {_said(e.parameter, e.base, lang)} -> "
                f"{_said(e.parameter, e.fitted, lang)}  {_tally(row.tally, lang)}")
    best = max(e.values, key=lambda t: (t.tally.fixes, t.tally.whole))
    return (f"  {_param(e.parameter, lang)} = {_said(e.parameter, e.fitted, lang)}; "
            f"{_said(e.parameter, best.value, lang)}: {_tally(best.tally, lang)}")


def _record_lines(u: Unexplained, lang: Lang) -> list[str]:
    j = u.to_json(lang)
    verdict = render_value("verdict", j["verdict"], lang)
    lines = [f"  {u.record.source}{' ' + j['game_id'] if j['game_id'] else ''}: {verdict}"]
    for f in j["findings"]:
        where = render_value("step", f["step"], lang) if f["step"] is not None else render_value("cli", "record", lang)
        lines.append(f"    - {where}：{f['message']}" if lang is Lang.ZH else
                     f"    - {where} {f['rule'] or 'schema'}: {f['message']}")
    for p, v, t in u.explained_by:
        lines.append(f"    {_word('alone', lang)} {_param(p, lang)} = {_value(v)}: {_tally(t, lang)}")
    return lines


def summary_lines(result: Fit, lang: Lang = Lang.EN) -> list[str]:
    """The fit for people: counts, the values taken, the evidence, the records left unexplained."""
    w = lambda key: _word(key, lang)  # noqa: E731 - a short local alias
    lines = [f"{w('fit')} {result.usable}/{result.records} {w('records')}, {w('base')} {result.base.name}: "
             f"{w('clean')} {result.clean_before} -> {result.clean_after} ({result.profile.name})"]
    lines.append(f"{w('taken')}:" if result.steps else f"{w('nothing_taken')}")
    for i, s in enumerate(result.steps, 1):
        taken = " + ".join(f"{_param(p, lang)} = {_said(p, v, lang)}" for p, v in ((s.parameter, s.value), *s.together))
        lines.append(f"  {i}. {taken}: {_tally(s.tally, lang)}; {w('clean')} {s.clean} ({w('how_' + s.how.value)})")
        if s.decided_by:
            lines.append(f"     {w('decided_by')} " + ", ".join(s.decided_by))
        if s.broke:
            lines.append(f"     {w('broke')} " + ", ".join(s.broke))
        if s.ties:
            lines.append(f"     {w('ties')} " + "; ".join(f"{p} = {_value(v)}" for p, v in s.ties))
    lines.append(f"{w('evidence')}:")
    lines += [_evidence_line(e, lang) for e in result.evidence if e.changed]
    fixing = [e for e in result.evidence if not e.changed and any(t.tally.fixes for t in e.values)]
    lines += [_evidence_line(e, lang) for e in fixing]
    rest = sum(1 for e in result.evidence if not e.changed and e.touches and e not in fixing)
    if rest:
        lines.append(f"  {w('others')}: {rest}")
    if result.unexplained:
        lines.append(f"{w('unexplained')} ({len(result.unexplained)}):")
        for u in result.unexplained:
            lines += _record_lines(u, lang)
    if result.invalid:
        lines.append(f"{w('invalid')} ({len(result.invalid)}):")
        for u in result.invalid:
            lines += _record_lines(u, lang)
    return lines


def by_lines(cells: list[CellFit], lang: Lang = Lang.EN) -> list[str]:
    """The fit by group for people: each group's changed values, then where a value changes."""
    w = lambda key: render_value("fit_by", key, lang)  # noqa: E731 - a short local alias
    lines = [f"{w('groups')}:"]
    for c in cells:
        taken = ", ".join(f"{p} = {_said(p, v, lang)}" for p, v in c.fit.get("options", {}).items()) or "-"
        lines.append(f"  {c.cell.label()}: {c.records} {_word('records', lang)} "
                     f"({c.first or '?'} .. {c.last or '?'}): {taken}")
    found = changes(cells)
    lines.append(f"{w('changes')}:" if found else w("no_change"))
    lines += [f"  {change_text(c, lang)}" for c in found]
    return lines


# ---------------------------------------------------------------- the profile file

def write_atomically(path: Path, text: str) -> None:
    """Write a file whole or not at all: a temporary file beside it, then a rename."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent or Path("."))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# ---------------------------------------------------------------- running

def run(argv: Sequence[str], out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> int:
    """Parse arguments, fit, print, write the profile; the exit status."""
    args = build_parser().parse_args(argv)
    try:
        lang = parse_lang(args.lang)
        if args.min_gain < 1:
            raise UsageError(f"--min-gain must be 1 or more, got {args.min_gain}")
        try:
            load_profile(check_profile_name(args.profile, "--profile"))
        except ProfileError as exc:
            raise UsageError(exc.text(lang, with_path=True)) from None
        name = _name(args, lang)
        records = read_records(args.records)
        if not records:
            raise UsageError("no record in " + ", ".join(args.records))
        result = fit(records, args.profile, name=name, min_gain=args.min_gain)
        cells = fit_cells(records, lambda rs: fit(list(rs), args.profile, name=name, min_gain=args.min_gain).to_json(lang),
                          by_client="client" in args.by, period=args.period if "period" in args.by else None) \
            if args.by else []
        if args.out:
            try:
                write_atomically(Path(args.out), result.profile_text())
            except OSError as exc:
                raise UsageError(f"{args.out}: cannot write: {exc.strerror or exc}") from None
    except UsageError as exc:
        print(f"error: {exc}", file=err)
        return EXIT_ERROR
    if args.json:
        found = result.to_json(lang)
        if args.by:
            found["by"] = {"split": args.by, "period": args.period if "period" in args.by else None,
                           "cells": [c.to_json() for c in cells], "changes": [c.to_json(lang) for c in changes(cells)]}
        out.write(pretty(found) + "\n")
    else:
        out.write("\n".join(summary_lines(result, lang) + (by_lines(cells, lang) if args.by else [])) + "\n")
        if args.out:
            out.write(f"{_word('written', lang)} {args.out}\n")
    return EXIT_CLEAN if not result.unexplained and not result.invalid else EXIT_FINDINGS


def main() -> None:
    """Console entry point."""
    sys.exit(run(sys.argv[1:]))


if __name__ == "__main__":
    main()
