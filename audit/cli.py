"""`python -m audit`: audit record files from the command line.

Exit status (record-format.md): 0 every hand clean, 1 any hand not clean,
2 the command could not run (unreadable file, not JSON, unknown profile,
option or language, an option a record's own profile cannot honour: that record is left out,
the others are audited). Output is the contract's audit JSON with `--json`,
otherwise one verdict line per hand followed by its findings; `--lang zh`
renders messages, notes and the text lines in Chinese.

One of the engine's public modules (tests/imports.py): the other commands (`python -m sim`, `kit`,
`fit`, `batch`) take their exit codes, usage errors, `--option`/`--lang` readers and the shared
audit arguments from `__all__` here, so every command reads them alike.
"""
from __future__ import annotations

import argparse
import codecs
import gc
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from audit import jsontext
from audit.api import audit_document, is_match
from audit.catalogue import LANGS, Lang, render_value
from audit.engine import resolve_profile
from audit.profiles import (DEFAULT_PROFILE, ProfileError, apply_options, check_profile_name, list_profiles, load_profile,
                            resolve)

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class UsageError(Exception):
    """A problem with the command line or a file: exit 2."""


def parse_option(text: str) -> tuple[str, Any]:
    """KEY=VALUE; VALUE is JSON when it parses (numbers, true, objects), else a string."""
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise UsageError(f"--option needs KEY=VALUE, got {text!r}")
    try:
        return key, jsontext.loads(raw)
    except jsontext.JsonTextError as exc:
        if exc.reason == "malformed":  # not JSON at all: the value is the text itself
            return key, raw
        where = f"{key}.{exc.path}" if exc.path else key
        raise UsageError(f"--option {where}: {exc.message}") from None


def add_audit_arguments(p: argparse.ArgumentParser, *, profile_help: str, lang_help: str) -> None:
    """`--profile`, `--option` and `--lang`, as every command that audits takes them (`python -m audit`,
    `python -m batch`): one spelling, one help (issue 35.5). `audit_arguments` reads them back."""
    p.add_argument("--profile", help=profile_help)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="override a profile parameter, e.g. chicken.charge=3 or jian_dou_san=true (repeatable)")
    p.add_argument("--lang", default=Lang.EN.value, metavar="|".join(lang.value for lang in LANGS), help=lang_help)


@dataclass(frozen=True)
class AuditArguments:
    """What `add_audit_arguments` read, checked: the language, the options, the profile."""

    profile: str | None
    options: dict[str, Any]
    lang: Lang


def audit_arguments(args: argparse.Namespace, *, per_record: bool = False) -> AuditArguments:
    """`--profile`, `--option`, `--lang` checked before anything is audited (UsageError: exit 2);
    `per_record`: see `check_options`."""
    lang = parse_lang(args.lang)
    options = dict(parse_option(o) for o in args.option)
    check_options(args.profile, options, lang, per_record=per_record)
    return AuditArguments(args.profile, options, lang)


def build_parser() -> argparse.ArgumentParser:
    """The command line of the contract."""
    p = argparse.ArgumentParser(prog="python -m audit", description="Audit zhuoji/1 hand records.")
    p.add_argument("--json", action="store_true", help="print the audit JSON (record-format.md)")
    add_audit_arguments(p, profile_help="re-audit under this profile (what-if); the record's own options are dropped",
                        lang_help="language of messages and notes (default en)")
    p.add_argument("files", nargs="+", metavar="FILE", help="a .json record or match, or a .jsonl of records")
    return p


def load_documents(path: str) -> list[Any]:
    """The JSON documents of one file, read strictly (`audit.jsontext.read_file`, as the upload
    reads them: a byte order mark accepted; NaN, integers past 64 bits, lone surrogates, repeated
    keys and deep nesting refused); UsageError naming the file, line and JSON path (R16.9)."""
    try:
        return jsontext.read_file(path)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except jsontext.JsonTextError as exc:
        raise UsageError(f"not JSON the audit reads: {exc.describe()}") from None


def parse_lang(text: str) -> Lang:
    """The `--lang` value; UsageError for a language the catalogue does not have."""
    try:
        return Lang(text)
    except ValueError:
        raise UsageError(f"--lang must be one of {', '.join(lang.value for lang in LANGS)}, got {text!r}") from None


def check_options(profile: str | None, options: dict[str, Any], lang: Lang = Lang.EN, *,
                  per_record: bool = False) -> None:
    """Refuse an unknown profile or option before auditing anything (exit 2). With `per_record` and no
    `--profile`, each record keeps its own profile, which decides what an option needs (R18.1's
    `dealer_bonus.on` only where the profile has a dealer bonus): then an option is refused here only
    where no profile honours it (a name that does not exist, a wrong value), and `option_refusal`
    checks it against each record's own profile."""
    try:
        if profile is not None:
            check_profile_name(profile, "--profile")  # a name before any file is looked for (issue 34.2)
            load_profile(profile)
        if options and (profile is not None or not per_record):
            resolve(profile, options)
        elif options:
            _honoured_somewhere(options)
    except ProfileError as exc:
        raise UsageError(exc.text(lang, with_path=True)) from None


def _honoured_somewhere(options: dict[str, Any]) -> None:
    """Return if some profile honours `options`; else raise the default profile's refusal."""
    refused: ProfileError | None = None
    for name in [DEFAULT_PROFILE, *(n for n in list_profiles() if n != DEFAULT_PROFILE)]:
        try:
            resolve(name, options)
            return
        except ProfileError as exc:
            refused = refused or exc
    if refused is not None:
        raise refused


def option_refusal(doc: Any, options: dict[str, Any]) -> tuple[str, ProfileError] | None:
    """(game id, refusal) of the first hand of a record or match whose own profile, with its own
    options, cannot honour the command line's `options`; None when every hand's can (a record too
    malformed to tell is left to its audit, which names what is wrong with it)."""
    hands = doc.get("hands") if isinstance(doc, dict) and is_match(doc) else [doc]
    for hand in hands if isinstance(hands, list) else []:
        try:
            own = resolve_profile(hand, None, None)
        except (ProfileError, KeyError, TypeError, AttributeError):
            continue
        try:
            apply_options(own, options)
        except ProfileError as exc:
            return str(hand.get("game_id")), exc
    return None


def summary_lines(audit: dict[str, Any], lang: Lang = Lang.EN) -> list[str]:
    """One verdict line, then one line per finding (the findings' messages are already in `lang`)."""
    def word(key: str) -> str:
        return render_value("cli", key, lang)

    verdict = render_value("verdict", audit["verdict"], lang)
    head = f"{audit['game_id'] or word('no_game_id')} [{audit['profile']}]: {verdict}"
    sett = audit.get("settlement")
    if sett is not None:
        head += f"  {word('scores')} {sett['scores']}  {word('next_dealer')} {sett['next_dealer']}"
    lines = [head]
    for f in audit["findings"]:
        where = render_value("step", f["step"], lang) if f["step"] is not None else word("record")
        if lang is Lang.ZH:
            lines.append(f"  - {where}：{f['message']}")  # the Chinese message leads with its rule
        else:
            lines.append(f"  - {where} {f['rule'] or 'schema'}: {f['message']}")
    return lines


def run(argv: Sequence[str], out: TextIO = sys.stdout, err: TextIO = sys.stderr, *, freeze: bool = False) -> int:
    """Parse arguments, audit every file, print, and return the exit status. `freeze` where the process
    is the command's own (`main`): what lives till the end (the engine, once imported, and each file's
    documents, plain JSON trees that reference counting frees) is frozen for the garbage collector,
    which then stops walking it again and again while the records are audited (issue 35.6)."""
    if freeze:
        gc.freeze()
    args = build_parser().parse_args(argv)
    try:
        chosen = audit_arguments(args, per_record=True)
    except UsageError as exc:
        print(f"error: {exc}", file=err)
        return EXIT_ERROR
    lang, options = chosen.lang, chosen.options
    audits: list[dict[str, Any]] = []
    failed = False
    for path in args.files:
        try:
            docs = load_documents(path)
        except UsageError as exc:
            print(f"error: {exc}", file=err)
            failed = True
            continue
        if freeze:
            gc.freeze()
        for doc in docs:
            refused = option_refusal(doc, options) if options and args.profile is None else None
            if refused is not None:
                game_id, refusal = refused
                print(f"error: {path} [{game_id}]: --option: {refusal.text(lang, with_path=True)}", file=err)
                failed = True
                continue
            try:
                audits += audit_document(doc, profile=args.profile, options=options or None, lang=lang)
            except Exception as exc:  # an engine bug must not hide the other hands' verdicts
                print(f"error: {path}: internal error while auditing: {exc!r}", file=err)
                failed = True
    _print(audits, args.json, out, lang)
    if failed:
        return EXIT_ERROR
    return EXIT_CLEAN if all(a["verdict"] == "clean" for a in audits) else EXIT_FINDINGS


def _print(audits: list[dict[str, Any]], as_json: bool, out: TextIO, lang: Lang) -> None:
    if as_json:
        payload: Any = audits[0] if len(audits) == 1 else audits
        buffer = getattr(out, "buffer", None)
        if buffer is None or not _is_utf8(out.encoding):
            out.write(jsontext.pretty(payload) + "\n")
            return
        out.flush()  # a UTF-8 stream takes orjson's bytes as they are: no text made of them (issue 35.6)
        buffer.write(jsontext.pretty_bytes(payload) + b"\n")
        buffer.flush()
        return
    for a in audits:
        out.write("\n".join(summary_lines(a, lang)) + "\n")


def _is_utf8(encoding: str | None) -> bool:
    try:
        return encoding is not None and codecs.lookup(encoding).name == "utf-8"
    except LookupError:
        return False


def main() -> None:
    """Console entry point."""
    sys.exit(run(sys.argv[1:], freeze=True))


__all__ = ["EXIT_CLEAN", "EXIT_ERROR", "EXIT_FINDINGS", "AuditArguments", "UsageError", "add_audit_arguments",
           "audit_arguments", "main", "parse_lang", "parse_option", "run"]
