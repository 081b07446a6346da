"""The one strict JSON reader of the service: every JSON text it reads from outside goes through here.

Python's `json` accepts things that are not JSON or that the service cannot keep: `NaN` and
`Infinity`, numbers such as `1e400` that overflow to infinity, integers of any size (SQLite keeps
64 bits; beyond that the store raised OverflowError), `\\ud800` escapes that leave a lone surrogate
(not Unicode: encoding it for SQLite raised UnicodeEncodeError), duplicate object keys (the last
silently wins, so two readers may disagree on what a record says), and nesting deep enough to
exhaust the parser (RecursionError). `loads` refuses each of them with a `JsonTextError` that names
the JSON path (and line and column where the parser knows them), so every caller can answer 4xx.

No game knowledge, so `records/` and `web/` share it. Two paths give the same answer (a property
test holds them to it): a fast one for the common text, which has no backslash and no run of 19
digits (see `_fast`: orjson parses and writes the document back, and a few byte scans prove that
nothing was refused), and the exact one (`json` with hooks, then the walk that locates a hostile
value), which decides every other text and writes every message. Profiled on the batch's long
corpus, the exact path alone cost 3.4 times a plain `json.loads`; with the fast path in front a
well-formed record costs less than a plain `json.loads` does (628 k instructions against 745 k).
"""
from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, AnyStr

import orjson

INT_MIN, INT_MAX = -(2**63), 2**63 - 1
"""The integers SQLite keeps (and every JSON reader that uses 64-bit integers agrees on)."""
DEFAULT_MAX_DEPTH = 64
"""Deepest nesting accepted unless the caller says otherwise (a record needs about 5)."""

_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
"""A `\\uD800`-`\\uDFFF` escape: the only way a lone surrogate gets into text decoded from UTF-8."""
_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_surrogate(text: str) -> bool:
    """Whether a str holds a raw surrogate (only possible in text not decoded strictly from UTF-8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


REASONS = ("malformed", "not_utf8", "too_deep", "integer_range", "non_finite", "surrogate", "duplicate_key")
"""Why a text is refused, as a stable word (the catalogue's `json_reason` forms say it in each language)."""


class JsonTextError(ValueError):
    """JSON the service refuses; `code` is `json` (not JSON, or not keepable), `encoding` or `limit`
    (too deep); `reason` one of REASONS."""

    def __init__(self, message: str, *, code: str = "json", path: str | None = None,
                 line: int | None = None, column: int | None = None, reason: str = "malformed",
                 where: str | None = None, byte: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.path = path
        self.line = line
        self.column = column
        self.reason = reason
        self.where = where
        self.byte = byte
        """The offset of the first byte that is not UTF-8 (`encoding` errors)."""
        """The file (and line) the text came from, when `read_file` read it."""

    def describe(self) -> str:
        """`[where: ]path: message (line L, column C)`, as much as is known."""
        text = f"{self.path}: {self.message}" if self.path else self.message
        if self.line is not None:
            text += f" (line {self.line}, column {self.column})"
        return f"{self.where}: {text}" if self.where else text


class _Duplicated(dict[str, Any]):
    """An object that repeated a key (which one is kept for the message)."""

    duplicate: str = ""


class _Bad:
    """A value the parser saw and the service refuses, left in place so the walk can name its path."""

    def __init__(self, reason: str, kind: str) -> None:
        self.reason = reason
        self.kind = kind


class _Flags:
    """What the hooks saw while parsing: whether the locating walk must run."""

    def __init__(self) -> None:
        self.seen = False


def _hooks(flags: _Flags) -> tuple[Callable[[list[tuple[str, Any]]], Any], Callable[[str], Any],
                                   Callable[[str], Any], Callable[[str], Any]]:
    """object_pairs_hook, parse_float, parse_constant and parse_int that mark what they refuse."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result = dict(items)
        if len(result) == len(items):
            return result
        flags.seen = True
        marked = _Duplicated(result)
        seen: set[str] = set()
        for key, _ in items:
            if key in seen:
                marked.duplicate = key
                break
            seen.add(key)
        return marked

    def number(text: str) -> Any:
        value = float(text)
        if math.isfinite(value):
            return value
        flags.seen = True
        return _Bad(f"{text[:40]} is outside the range of a finite number", "non_finite")

    def constant(text: str) -> Any:
        flags.seen = True
        return _Bad(f"{text} is not valid JSON (not a number JSON knows)", "non_finite")

    def integer(text: str) -> Any:
        if len(text) < 19:  # at most 18 digits (and a sign): always inside 64 bits, the common case
            return int(text)
        value = int(text) if len(text) <= 21 else None  # never convert thousands of digits
        if value is not None and INT_MIN <= value <= INT_MAX:
            return value
        flags.seen = True
        return _Bad("integer outside the 64-bit range (-2**63 to 2**63-1)", "integer_range")

    return pairs, number, constant, integer


_UNDECIDED = object()
"""What `_fast` returns when the exact path must decide."""
_DIGITS_AS_ZERO = bytes.maketrans(b"0123456789", b"0" * 10)
_LONG_RUN = b"0" * 19
"""19 digits in a row: the shortest integer that may fall outside 64 bits (2**63 has 19 digits)."""


def _fast(raw: bytes, max_depth: int | None) -> Any:
    """The document, when the text has nothing the exact path could refuse; else `_UNDECIDED`.

    Without a backslash the text has no escape: no escaped surrogate, and every string decodes to
    exactly the characters it is written with. Without 19 digits in a row every integer is inside
    64 bits (orjson would keep a larger one or turn it into a float). orjson refuses NaN, infinite
    numbers, invalid UTF-8 and bad syntax as the exact path does (any refusal: the exact path
    decides, so the message is the same). A repeated key is the one thing orjson keeps quiet about;
    outside strings the text's colons are one per key written, and strings are unchanged, so the
    text has a repeated key exactly when it has more colons than the document written back.

    Depth: the document is written back indented (`_indented_too_deep`), which says it in the same
    pass that counts the keys; about a tenth of the reader's cost on a record less than finding
    the brackets in the text (docs/batch.md, fourth pass)."""
    if b"\\" in raw or _LONG_RUN in raw.translate(_DIGITS_AS_ZERO):
        return _UNDECIDED
    try:
        doc = orjson.loads(raw)
        written = orjson.dumps(doc) if max_depth is None else orjson.dumps(doc, option=orjson.OPT_INDENT_2)
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        return _UNDECIDED
    if raw.count(b":") != written.count(b":"):
        return _UNDECIDED
    if max_depth is not None and _indented_too_deep(written, max_depth):
        return _UNDECIDED
    return doc


def _indented_too_deep(written: bytes, max_depth: int) -> bool:
    """Whether a document orjson wrote with OPT_INDENT_2 may nest deeper than `max_depth` (True:
    the exact path decides, as it does for a document of exactly `max_depth` levels).

    orjson writes each element of a container nested L levels deep on a line of its own, indented
    2 * L spaces, and escapes every newline inside a string, so a newline followed by 2 * L spaces
    is always such a line. A document deeper than `max_depth` has a container at level
    `max_depth + 1`, written as an element of one at level `max_depth`: a line indented 2 *
    `max_depth` (the top level has no line of its own, hence `max_depth` of at least 1). A document
    of at most `max_depth - 1` levels has no line indented that far."""
    return max_depth < 1 or b"\n" + b" " * (2 * max_depth) in written


def _fast_bytes(data: bytes | str, allow_bom: bool) -> bytes | None:
    """The UTF-8 bytes `_fast` reads (a byte order mark dropped if allowed), or None for a str that
    cannot be encoded (it holds a raw surrogate: the exact path says where)."""
    if isinstance(data, str):
        if allow_bom and data.startswith("\ufeff"):
            data = data[1:]
        try:
            return data.encode("utf-8")
        except UnicodeEncodeError:
            return None
    return data[3:] if allow_bom and data.startswith(b"\xef\xbb\xbf") else data


def loads(data: bytes | str, *, max_depth: int = DEFAULT_MAX_DEPTH, allow_bom: bool = True,
          check_depth: bool = True, utf8: bool = False) -> Any:
    """Parse JSON text strictly; JsonTextError with the path of the first value refused.
    `check_depth=False` leaves the depth limit to a caller that checks it its own way (ingest reads
    it from the text); nesting that exhausts the parser is refused either way. `utf8=True` says a
    text was decoded from UTF-8 strictly by the caller, so it cannot hold a raw surrogate."""
    raw = _fast_bytes(data, allow_bom)
    if raw is not None:
        doc = _fast(raw, max_depth if check_depth else None)
        if doc is not _UNDECIDED:
            return doc
    return exact(data, max_depth=max_depth, allow_bom=allow_bom, check_depth=check_depth, utf8=utf8)


def exact(data: bytes | str, *, max_depth: int = DEFAULT_MAX_DEPTH, allow_bom: bool = True,
          check_depth: bool = True, utf8: bool = False) -> Any:
    """`loads` by the exact path alone (the reference the fast path is tested against)."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig" if allow_bom else "utf-8")
        except UnicodeDecodeError as exc:
            raise JsonTextError(f"not UTF-8: byte {exc.start} cannot be decoded", code="encoding",
                                reason="not_utf8", byte=exc.start) from exc
        raw_surrogates = False  # strict UTF-8 decoding cannot produce one
    else:
        if allow_bom and data.startswith("\ufeff"):
            data = data[1:]
        raw_surrogates = not utf8 and _has_surrogate(data)
    flags = _Flags()
    pairs, number, constant, integer = _hooks(flags)
    try:
        doc = json.loads(data, object_pairs_hook=pairs, parse_float=number, parse_constant=constant,
                         parse_int=integer)
    except json.JSONDecodeError as exc:
        raise JsonTextError(f"malformed JSON: {exc.msg}", line=exc.lineno, column=exc.colno) from exc
    except RecursionError as exc:
        raise JsonTextError(f"JSON nested deeper than {max_depth} levels", code="limit", reason="too_deep") from exc
    except ValueError as exc:  # what int() or float() may still refuse
        raise JsonTextError(f"malformed JSON: {exc}") from exc
    if not (flags.seen or raw_surrogates or _ESCAPED_SURROGATE.search(data)):
        problem = None
    else:
        problem = hostile(doc)
    if problem is not None:
        path, message, reason = problem
        raise JsonTextError(message, path=path or None, reason=reason)
    if check_depth and depth(doc) > max_depth:
        raise JsonTextError(f"JSON nested deeper than {max_depth} levels", code="limit", reason="too_deep")
    return doc


def hostile(doc: Any) -> tuple[str, str, str] | None:
    """(JSON path, why, reason of REASONS) of the first value in document order the service cannot keep, or None:
    a refused number, an integer outside 64 bits, a string or key with a lone surrogate, an
    object with a repeated key. Iterative: a deep document cannot exhaust the stack."""
    stack: list[tuple[Any, Any]] = [(doc, None)]
    while stack:
        value, link = stack.pop()
        if isinstance(value, _Bad):
            return _render(link), value.reason, value.kind
        if isinstance(value, bool) or value is None or isinstance(value, float):
            continue
        if isinstance(value, int):
            if not INT_MIN <= value <= INT_MAX:
                return _render(link), "integer outside the 64-bit range (-2**63 to 2**63-1)", "integer_range"
        elif isinstance(value, str):
            if _SURROGATE.search(value):
                return _render(link), "string holds a lone surrogate (\\ud800-\\udfff): not valid Unicode", "surrogate"
        elif isinstance(value, dict):
            if isinstance(value, _Duplicated):
                return _render(link), f"key {value.duplicate[:40]!r} appears twice in this object", "duplicate_key"
            for key in value:
                if _SURROGATE.search(key):
                    return (_render((link, key.encode("utf-8", "backslashreplace").decode("ascii"))),
                            "key holds a lone surrogate (\\ud800-\\udfff): not valid Unicode", "surrogate")
            stack.extend(reversed([(child, (link, key)) for key, child in value.items()]))
        elif isinstance(value, list):
            stack.extend(reversed([(child, (link, index)) for index, child in enumerate(value)]))
    return None


def depth(doc: Any) -> int:
    """Nesting depth (a scalar is 0), iteratively so a deep document cannot exhaust the stack."""
    if not isinstance(doc, (dict, list)):
        return 0
    deepest, stack = 1, [(doc, 1)]
    while stack:
        value, level = stack.pop()
        deepest = max(deepest, level)
        children = value.values() if isinstance(value, dict) else value
        stack.extend([(child, level + 1) for child in children if isinstance(child, (dict, list))])
    return deepest


def _render(link: Any) -> str:
    """`(((None, "events"), 3), "tile")` -> `events[3].tile`."""
    parts: list[Any] = []
    while link is not None:
        link, part = link
        parts.append(part)
    text = ""
    for part in reversed(parts):
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


LINES_SUFFIXES = (".jsonl", ".ndjson")
"""Files of one JSON document per line."""
JSON_BLANKS = " \t\r\n"
"""JSON's whitespace (RFC 8259): a line of nothing else is blank and skipped."""
_BOM = "\ufeff"
_BOM_BYTES = _BOM.encode("utf-8")
_BLANK_BYTES = JSON_BLANKS.encode("ascii")


def line_text(line: AnyStr, *, first: bool = False) -> AnyStr | None:
    """The JSON text one line of a JSON-lines text holds: the line without its `\\n` and a `\\r`
    before it (a Windows line end), without a byte order mark when it is the first line; None
    when it is blank (JSON whitespace only). For a reader that splits the lines itself, on `\\n`
    only (a binary stream's `readline`); `json_lines` is the rest."""
    if isinstance(line, str):
        text = line.removesuffix("\n").removesuffix("\r")
        if first:
            text = text.removeprefix(_BOM)
        blank = not text or (text[0] in JSON_BLANKS and text[-1] in JSON_BLANKS and not text.strip(JSON_BLANKS))
        return None if blank else text
    raw = line.removesuffix(b"\n").removesuffix(b"\r")
    if first:
        raw = raw.removeprefix(_BOM_BYTES)
    # a record's line starts with `{`: only a line that starts and ends with whitespace is copied to look inside
    blank = not raw or (raw[:1] in _BLANK_BYTES and raw[-1:] in _BLANK_BYTES and not raw.strip(_BLANK_BYTES))
    return None if blank else raw


def utf8_text(data: bytes) -> str:
    """A JSON-lines file's bytes decoded as UTF-8, its byte order mark kept for `json_lines` to
    drop; JsonTextError (`encoding`, `not_utf8`) naming the first byte that is not UTF-8, counted
    after the mark as the upload counts it."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        byte = exc.start - (len(_BOM_BYTES) if data.startswith(_BOM_BYTES) else 0)
        raise JsonTextError(f"not UTF-8: byte {byte} cannot be decoded", code="encoding", reason="not_utf8",
                            byte=byte) from exc


def json_lines(data: AnyStr) -> Iterator[tuple[int, AnyStr]]:
    """(line number from 1, JSON text) of every non-blank line of a JSON-lines text, str or bytes:
    the one line reader of every `.jsonl` entry point (the upload, `python -m audit`, the batch,
    `python -m fit`, `kit check`, the mutation harness).

    Lines end at `\\n` only, a `\\r` before it dropped (JSON Lines; `\\r\\n` tolerated). Never
    `str.splitlines()`: it also ends a line at U+2028, U+2029, U+0085, `\\x0b`, `\\x0c`, `\\x1c`-`\\x1e`
    and a lone `\\r`, the first three of which JSON allows unescaped inside a string, so one record
    became two broken ones (issue 34.3). A byte order mark before line 1 is dropped."""
    if isinstance(data, str):
        for number, line in enumerate(data.split("\n"), 1):
            text = line_text(line, first=number == 1)
            if text is not None:
                yield number, text
    else:
        for number, raw in enumerate(data.split(b"\n"), 1):
            found = line_text(raw, first=number == 1)
            if found is not None:
                yield number, found


def read_file(path: str | Path, *, lines: bool | None = None, max_depth: int = DEFAULT_MAX_DEPTH) -> list[Any]:
    """The JSON documents of a file, read strictly as `loads` reads one: a `.jsonl`/`.ndjson` file
    (or `lines=True`) one per non-blank line, any other file one. A UTF-8 byte order mark at the
    start is accepted (Windows editors write one), as by the upload. A refused text raises
    JsonTextError whose `where` is `FILE` or `FILE line N`; OSError when the file cannot be read.
    The one way the command-line tools (`python -m audit`, `kit check`, the mutation harness)
    read a file, so they answer what the upload answers."""
    path = Path(path)
    data = path.read_bytes()
    if lines is None:
        lines = path.suffix.lower() in LINES_SUFFIXES
    if not lines:
        try:
            return [loads(data, max_depth=max_depth)]
        except JsonTextError as exc:
            exc.where = str(path)
            raise
    try:
        text = utf8_text(data)
    except JsonTextError as exc:
        exc.where = str(path)
        raise
    docs: list[Any] = []
    for number, line in json_lines(text):
        try:
            docs.append(loads(line, max_depth=max_depth, utf8=True, allow_bom=False))  # line 1's is gone
        except JsonTextError as exc:
            exc.where = f"{path} line {number}"
            raise
    return docs


_FLOAT_VALUES = tuple(re.compile(rb"%s-?\d+[.eE]" % start) for start in (rb":", rb",", rb"\["))
_FLOAT_START = re.compile(rb"-?\d+[.eE]")
"""In orjson's compact text, a number with a fraction or an exponent where a value starts (after `:`,
`,` or `[`; `_FLOAT_START`: at the text's start): a float, or a string that looks like one
(`"a:1.5"`, a false alarm). One pattern per start, not one with `^|` or a set of the three: a
pattern that begins with one literal byte skips ahead to it at C speed, so the three searches over
an audit of 600 records take half the time of one search for the set (issue 35.6)."""


def pretty(value: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, indent=1)`, byte for byte, written by orjson (issue
    35.6: the standard library's pure-Python indenting encoder): `_pretty` as text."""
    written = _pretty(value)
    return written if isinstance(written, str) else written.decode("utf-8")


def pretty_bytes(value: Any) -> bytes:
    """`pretty` in UTF-8, as the command line writes it to its output (a lone surrogate, which the
    strict reader never lets in, raises as printing the text would)."""
    written = _pretty(value)
    return written.encode("utf-8") if isinstance(written, str) else written


def _pretty(value: Any) -> bytes | str:
    """The text of `pretty`: orjson's UTF-8 bytes, or json.dumps's own text where it wrote it.

    orjson writes the same text but for two things: it indents two spaces a level (json.dumps with
    indent=1 one), halved here (a string's newline is escaped, so every line's leading spaces are
    indentation: in one pass over the text when no string holds two spaces in a row, else line by
    line); and it spells some floats its own way (`1e16`, `0.00006103515625`
    where Python writes `1e+16`, `6.103515625e-05`), so a value that may hold a float (none of the
    audit's own; a finding may quote a record's) is written by json.dumps itself, as is anything
    orjson refuses (an integer past 64 bits)."""
    try:
        compact = orjson.dumps(value)
        if _FLOAT_START.match(compact) or any(pattern.search(compact) for pattern in _FLOAT_VALUES):
            return json.dumps(value, ensure_ascii=False, indent=1)
        written = orjson.dumps(value, option=orjson.OPT_INDENT_2)
    except orjson.JSONEncodeError:
        return json.dumps(value, ensure_ascii=False, indent=1)
    if b"  " not in compact:
        # Outside its strings orjson's compact text has no space; inside, none here is doubled. So every
        # two spaces of the indented text are indentation (a value never starts with a space, a string
        # is closed by its quote), and one pass halves each line's: a tenth of the line-by-line cost.
        return written.replace(b"  ", b" ")
    return b"\n".join([line[(len(line) - len(line.lstrip(b" "))) >> 1:] for line in written.split(b"\n")])


def dumps(value: Any) -> str:
    """Compact JSON that refuses to write NaN or Infinity (what went in strictly comes out valid)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


__all__ = ["DEFAULT_MAX_DEPTH", "INT_MAX", "INT_MIN", "REASONS", "JsonTextError", "depth", "dumps", "exact", "hostile",
           "json_lines", "line_text", "loads", "pretty", "pretty_bytes", "read_file", "utf8_text"]
