"""Turn an upload (a file name and its bytes) into the hands the service stores.

An upload may be one record, a `zhuoji-match/1` document, a `.jsonl` file with
one document per line, or a `.zip` of those. Nothing here knows the game: the
schema checks come from `audit.schema`, passed in as callables so the tests
can run before that module lands and so a strict caller can plug in its own.

The result is a `Batch`: the good units (a record, or a match whose good hands
are kept) and one `Problem` per bad item, each naming the file, the zip member,
the line and the JSON path. A bad item never spoils its neighbours.

Bytes kept for each hand (the service stores them verbatim):
- a `.json` record: the whole file as received (`raw_kind="file"`);
- a `.jsonl` line: that line's bytes without its line terminator (`"line"`);
- a zip member holding a record: the member's bytes (`"member"`);
- a hand inside a match: the exact bytes of that element of `hands`, sliced
  from the document (`"slice"`); if the slice cannot be located or does not
  parse back to the same hand, the canonical re-serialisation
  (`json.dumps(..., ensure_ascii=False, separators=(",", ":"))`, `"canonical"`).
The match document itself is kept whole as well.
"""
from __future__ import annotations

import hashlib
import io
import json
import re
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from audit.api import JsonTextError, Origin, depth, json_lines, loads
from audit.vocabulary import Lang
from records import problem_words

MATCH_FORMAT = "zhuoji-match/1"
RECORD_EXTENSIONS = (".json",)
LINES_EXTENSIONS = (".jsonl", ".ndjson")
ZIP_EXTENSIONS = (".zip",)
MiB = 1024 * 1024
ZIP_ERRORS = (RuntimeError, NotImplementedError, zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, OSError,
              EOFError, ValueError, IndexError, KeyError, struct.error)
"""What zipfile may raise on a corrupt or hostile archive (the fuzzer found IndexError and more)."""


@dataclass(frozen=True)
class Limits:
    """Caps on what one upload may cost; every default is documented in docs/service.md."""

    max_file_bytes: int = 5 * MiB
    """Largest file, and largest zip member once decompressed."""
    max_members: int = 1000
    """Most entries a zip may list (directories included)."""
    max_total_bytes: int = 50 * MiB
    """Most bytes read out of one zip in total: the zip-bomb cap."""
    max_depth: int = 64
    """Deepest JSON nesting accepted (a record needs about 5)."""
    max_records: int = 5000
    """Most documents and match hands read from one request: over it, the whole upload is refused."""
    max_events: int = 2000
    """Most events in one hand (a real hand has a few hundred); checked before the schema and the engine."""
    max_string: int = 2000
    """Longest string, key or value, anywhere in a document, in characters."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one item of an upload; `code` is stable, `message` is for people."""

    origin: Origin
    code: str
    """json | encoding | format | schema | limit | junk | archive"""
    message: str
    path: str | None = None
    rule: str | None = None
    line: int | None = None
    column: int | None = None
    sha256: str | None = None
    """Hex sha256 of the bytes of the refused item (file, member or line), when they were read:
    the receipt names exactly what was refused (`records.receipts`)."""
    game_id: str | None = None
    """The item's game id when it can be read at all, even from JSON that does not parse."""
    problem: str = ""
    """What is wrong, as a stable code: one of records/problems.toml, or a schema code of the
    finding catalogue; `params` are its values. `message` is its English text."""
    params: Mapping[str, Any] = field(default_factory=dict)

    def describe(self, lang: Lang | str = Lang.EN) -> str:
        """The one-line message shown to a person: where (exactly as found), then what, in `lang`."""
        return problem_words.describe(self.origin.label(), self.problem, self.params, lang, line=self.line,
                                      column=self.column, path=self.path, fallback=self.message)


def problem(origin: Origin, kind: str, code: str, path: str | None = None, rule: str | None = None,
            line: int | None = None, column: int | None = None, **params: Any) -> Problem:
    """A problem from its code and params, its English message rendered from problems.toml."""
    return Problem(origin, kind, problem_words.message(code, params, Lang.EN), path=path, rule=rule, line=line,
                   column=column, problem=code, params=params)


def identity(doc: dict[str, Any]) -> tuple[str, str]:
    """(platform, game_id): what makes two uploads the same game. No platform is ''."""
    platform = doc.get("platform")
    return (platform if isinstance(platform, str) else "", str(doc.get("game_id")))


@dataclass(frozen=True)
class Hand:
    """One `zhuoji/1` record that passed the schema, with the bytes it arrived as."""

    origin: Origin
    doc: dict[str, Any]
    raw: bytes
    raw_kind: str
    index: int = 0
    """Position in the audited document: 0 for a record, the hand index in a match."""
    sha256: str = field(init=False, repr=False, compare=False)
    """Hex sha256 of `raw`: the duplicate check, the record, its document and the receipt read it."""
    platform: str = field(init=False, repr=False, compare=False)
    game_id: str = field(init=False, repr=False, compare=False)
    """`identity(doc)`: what makes two uploads the same game."""
    source: str = field(init=False, repr=False, compare=False)
    """`origin.label()`, as the record, the trail and the result line name where the hand came from."""

    def __post_init__(self) -> None:
        """Compute once, when the hand is read, what the upload's every step reads of it (issue
        35.1: the identity was computed five times per record, the label four, on the way to the store)."""
        platform, game_id = identity(self.doc)
        for name, value in (("sha256", hashlib.sha256(self.raw).hexdigest()), ("platform", platform),
                            ("game_id", game_id), ("source", self.origin.label())):
            object.__setattr__(self, name, value)


@dataclass(frozen=True)
class Unit:
    """What the engine audits in one call: a record, or a whole match."""

    origin: Origin
    doc: dict[str, Any]
    raw: bytes
    hands: tuple[Hand, ...]
    is_match: bool = False
    schema_checked: bool = False
    """`audit.schema` itself (not an injected check) validated this very `doc`, the whole match
    for a match, and found nothing: the engine may skip its own pass over the same schema
    (`audit_document(..., schema_checked=True)`), which cost as much as the check here."""

    audit_count: int = 1
    """How many audits the engine returns for this unit: one per hand of a match (counted by the
    reader, which has the list of hands in hand)."""

    @property
    def table_id(self) -> str | None:
        """The match's table id, if it is a match that has one."""
        value = self.doc.get("table_id") if self.is_match else None
        return value if isinstance(value, str) else None


Item = Unit | Problem


@dataclass
class Batch:
    """Everything found in one upload, in the order it appeared."""

    items: list[Item] = field(default_factory=list)
    refused: Problem | None = None
    """Set when the upload crossed `max_records`: nothing of it may be stored."""
    records: int = 0
    """Documents and match hands read (what `max_records` counts)."""

    @property
    def units(self) -> list[Unit]:
        """The good units, each with at least one good hand."""
        return [item for item in self.items if isinstance(item, Unit)]

    @property
    def problems(self) -> list[Problem]:
        """Every problem found, in order."""
        return [item for item in self.items if isinstance(item, Problem)]


class SchemaErrorLike(Protocol):
    """What `audit.schema.SchemaError` looks like from here (read-only fields)."""

    @property
    def path(self) -> Any:
        """JSON path, as text (`events[3].tile`) or a sequence of keys and indexes."""

    @property
    def message(self) -> str:
        """What is wrong there."""

    @property
    def rule(self) -> Any:
        """The rulebook section, if one decides it."""


Validator = Callable[[object], Sequence[SchemaErrorLike]]


@dataclass(frozen=True)
class Validators:
    """The two schema checks ingest needs; defaults come from `audit.schema`."""

    record: Validator
    match: Validator
    engine_schema: bool = False
    """True only for `audit.schema`'s own checks, the ones the engine would run again: a
    document they pass is marked `Unit.schema_checked`. An injected check never is."""


def default_validators() -> Validators:
    """The real schema checks, imported late so ingest loads without them."""
    from audit.api import validate_match, validate_record

    return Validators(record=validate_record, match=validate_match, engine_schema=True)


def read_upload(
    filename: str,
    data: bytes,
    *,
    limits: Limits | None = None,
    validators: Validators | None = None,
    records_before: int = 0,
) -> Batch:
    """Split one uploaded file into audited units and problems; never raises on bad input.
    `records_before` counts what earlier files of the same request used of `max_records`."""
    reader = _Reader(limits or Limits(), validators or default_validators(), records_before)
    items = list(reader.file(Origin(filename), data))
    return Batch(items, refused=reader.refused, records=reader.seen - records_before)


class _Reader:
    """Walks one upload; each method yields units and problems in file order."""

    def __init__(self, limits: Limits, validators: Validators, seen: int = 0) -> None:
        self.limits = limits
        self.validators = validators
        self.seen = seen
        self.refused: Problem | None = None

    def _count(self, origin: Origin, records: int) -> bool:
        """Count documents read; False (and the upload refused) once past `max_records`."""
        self.seen += records
        if self.seen > self.limits.max_records and self.refused is None:
            self.refused = problem(origin, "limit", "too_many_records", max=self.limits.max_records)
        return self.refused is None

    def file(self, origin: Origin, data: bytes) -> Iterator[Item]:
        """Dispatch on the file name's extension."""
        name = (origin.member or origin.file).lower()
        if len(data) > self.limits.max_file_bytes:
            yield replace(_too_big(origin, len(data), self.limits.max_file_bytes), sha256=hashlib.sha256(data).hexdigest())
        elif name.endswith(ZIP_EXTENSIONS) and origin.member is None:
            yield from self.archive(origin, data)
        elif name.endswith(LINES_EXTENSIONS):
            yield from self.lines(origin, data)
        elif name.endswith(RECORD_EXTENSIONS):
            yield from self.document(origin, data, "file" if origin.member is None else "member")
        else:
            yield problem(origin, "format", "not_a_record_file")

    def lines(self, origin: Origin, data: bytes) -> Iterator[Item]:
        """One document per non-blank line; line numbers count from 1."""
        for number, line in json_lines(data):  # line 1's byte order mark dropped there
            if self.refused is not None:
                return
            yield from self.document(Origin(origin.file, origin.member, number), line, "line")

    def archive(self, origin: Origin, data: bytes) -> Iterator[Item]:
        """Each member of a zip, read with a cap so a zip bomb costs at most the cap."""
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
        except ZIP_ERRORS as exc:
            yield problem(origin, "archive", "zip_unreadable", error=str(exc))
            return
        with archive:
            members = archive.infolist()
            if len(members) > self.limits.max_members:
                yield problem(origin, "limit", "zip_too_many_members", count=len(members), max=self.limits.max_members)
                return
            budget = self.limits.max_total_bytes
            for info in members:
                if self.refused is not None:
                    return
                if not info.filename:  # ZipInfo.is_dir() would raise IndexError on it
                    yield problem(Origin(origin.file, ""), "archive", "member_without_name")
                    continue
                if info.is_dir():
                    continue
                where = Origin(origin.file, info.filename)
                junk = junk_reason(info.filename)
                if junk:
                    yield problem(where, "junk", JUNK_CODES[junk])
                    continue
                if budget <= 0:
                    yield problem(where, "limit", "zip_too_large", max=self.limits.max_total_bytes)
                    continue
                cap = min(budget, self.limits.max_file_bytes)
                data_or_problem = _read_member(archive, info, where, cap)
                if isinstance(data_or_problem, Problem):
                    budget -= cap  # what a failed read may have cost, at most
                    yield data_or_problem
                    continue
                budget -= len(data_or_problem)
                yield from self.file(where, data_or_problem)

    def document(self, origin: Origin, raw: bytes, raw_kind: str) -> Iterator[Item]:
        """One JSON document's items; each problem carries the sha256 of the document's bytes
        and, for a record, its game id when readable."""
        digest: str | None = None
        for item in self._document(origin, raw, raw_kind):
            if isinstance(item, Problem):
                digest = digest or hashlib.sha256(raw).hexdigest()
                item = replace(item, sha256=digest, game_id=item.game_id or _readable_game_id(raw))
            yield item

    def _document(self, origin: Origin, raw: bytes, raw_kind: str) -> Iterator[Item]:
        """Parse one JSON document and hand it to the record or match check."""
        if not self._count(origin, 1):
            return
        parsed = _parse(origin, raw, self.limits.max_depth)
        if isinstance(parsed, Problem):
            yield parsed
            return
        doc, text, longest = parsed
        hands = doc.get("hands") if isinstance(doc, dict) and doc.get("format") == MATCH_FORMAT else None
        if isinstance(hands, list) and not self._count(origin, max(len(hands) - 1, 0)):
            return
        oversized = _oversized(origin, doc, self.limits, longest)
        if oversized is not None:
            yield oversized
        elif not isinstance(doc, dict):
            yield problem(origin, "format", "not_an_object", found=_json_type(doc))
        elif doc.get("format") == MATCH_FORMAT:
            yield from self.match(origin, doc, raw, text)
        else:
            yield from self.record(origin, doc, raw, raw_kind)

    def record(self, origin: Origin, doc: dict[str, Any], raw: bytes, raw_kind: str) -> Iterator[Item]:
        """A single record: every schema error is reported, or the unit goes through."""
        errors = list(self.validators.record(doc))
        if errors:
            yield from (_schema_problem(origin, error) for error in errors)
            return
        yield Unit(origin, doc, raw, (Hand(origin, doc, raw, raw_kind),),
                   schema_checked=self.validators.engine_schema)

    def match(self, origin: Origin, doc: dict[str, Any], raw: bytes, text: str) -> Iterator[Item]:
        """A match: envelope errors reject it; a bad hand is reported and the others kept."""
        per_hand: dict[int, list[SchemaErrorLike]] = {}
        envelope: list[SchemaErrorLike] = []
        errors = self.validators.match(doc)
        for error in errors:
            index = _hand_index(error.path)
            (per_hand.setdefault(index, []) if index is not None else envelope).append(error)
        if envelope:
            yield from (_schema_problem(origin, error) for error in envelope)
            return
        hands = doc.get("hands")
        hand_list: list[Any] = hands if isinstance(hands, list) else []
        slices = _hand_slices(text, hand_list)
        good: list[Hand] = []
        for index, hand in enumerate(hand_list):
            where = origin.with_hand(index)
            if index in per_hand:
                yield from (_schema_problem(origin, error) for error in per_hand[index])
            else:
                raw_hand, kind = slices[index]
                good.append(Hand(where, hand, raw_hand, kind, index))
        if good:  # with a bad hand the engine must see its schema findings too: no schema_checked
            yield Unit(origin, doc, raw, tuple(good), is_match=True,
                       schema_checked=self.validators.engine_schema and not errors, audit_count=len(hand_list))


_GAME_ID = re.compile(rb'"game_id"\s*:\s*"((?:[^"\\]|\\.){1,200})"')


def _readable_game_id(raw: bytes) -> str | None:
    """The game id of a single record's bytes, read even from broken JSON (so the receipt of a
    refused upload can be found by it); None for a match, whose hands each have one."""
    if b'"zhuoji-match/1"' in raw[:4096]:
        return None
    found = _GAME_ID.search(raw[:65536])
    if found is None:
        return None
    try:
        value = json.loads(b'"' + found.group(1) + b'"')
    except ValueError:
        return None
    return value if isinstance(value, str) else None


def _oversized(origin: Origin, doc: Any, limits: Limits, longest: int | None = None) -> Problem | None:
    """A limit problem for a string or an events list that is too long, before any schema check
    or audit spends time on it (a match is refused whole: such a document is hostile, not a mistake).
    `longest` bounds the length of every string when the text told (`_text_shape`); the walk that
    finds the path runs only when it does not rule a long string out."""
    path = _long_string(doc, limits.max_string) if longest is None or longest > limits.max_string else None
    if path is not None:
        return problem(origin, "limit", "string_too_long", path=path or None, max=limits.max_string)
    hands = doc.get("hands") if isinstance(doc, dict) and doc.get("format") == MATCH_FORMAT else None
    candidates = [(f"hands[{i}].", hand) for i, hand in enumerate(hands)] if isinstance(hands, list) else [("", doc)]
    for prefix, hand in candidates:
        events = hand.get("events") if isinstance(hand, dict) else None
        if isinstance(events, list) and len(events) > limits.max_events:
            return problem(origin, "limit", "too_many_events", path=f"{prefix}events", count=len(events),
                           max=limits.max_events)
    return None


def _long_string(doc: Any, cap: int) -> str | None:
    """The JSON path of the first string (or key) longer than `cap`, or None. Iterative, and the
    path is kept as a linked chain rendered only when found, so the common case costs little."""
    stack: list[tuple[Any, Any]] = [(doc, None)]
    while stack:
        value, link = stack.pop()
        if isinstance(value, str):
            if len(value) > cap:
                return _render_path(link)
        elif isinstance(value, dict):
            for key, child in value.items():
                if len(key) > cap:
                    return _render_path((link, key[:20] + "…"))
                stack.append((child, (link, key)))
        elif isinstance(value, list):
            stack.extend((child, (link, index)) for index, child in enumerate(value))
    return None


def _render_path(link: Any) -> str:
    """`(((None, "events"), 3), "tile")` -> `events[3].tile`."""
    parts: list[str | int] = []
    while link is not None:
        link, part = link
        parts.append(part)
    return _path_text(list(reversed(parts)))


def _too_big(origin: Origin, size: int, cap: int) -> Problem:
    """The problem for a file or member over the size cap."""
    return problem(origin, "limit", "file_too_large", size=size, max=cap)


JUNK_CODES = {"hidden or system file": "junk_hidden", "nested archives are not read": "junk_nested_zip",
              "not a .json or .jsonl member": "junk_not_record"}
"""Each reason of `junk_reason` as its problem code (problems.toml)."""


def junk_reason(name: str) -> str | None:
    """Why the zip member `name` is not read, or None when it should be. The one rule set for
    zips: an upload turns the reason into a `junk` problem, `python -m batch` (batch.inputs)
    lists it among the files it skipped."""
    base = name.rsplit("/", 1)[-1]
    lowered = base.lower()
    if name.startswith("__MACOSX/") or base.startswith("."):
        return "hidden or system file"
    if lowered.endswith(ZIP_EXTENSIONS):
        return "nested archives are not read"
    if not lowered.endswith(RECORD_EXTENSIONS + LINES_EXTENSIONS):
        return "not a .json or .jsonl member"
    return None


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, where: Origin, cap: int) -> bytes | Problem:
    """Read at most `cap` bytes of a member: the header's size is not trusted."""
    try:
        with archive.open(info) as stream:
            data = stream.read(cap + 1)
    except ZIP_ERRORS as exc:
        return problem(where, "archive", "member_unreadable", error=str(exc))
    if len(data) > cap:
        return problem(where, "limit", "member_too_large", max=cap)
    return data


def _strip_bom(data: bytes) -> bytes:
    """Drop a UTF-8 byte order mark, which some Windows editors add."""
    return data[3:] if data.startswith(b"\xef\xbb\xbf") else data


def _parse(origin: Origin, raw: bytes, max_depth: int) -> tuple[Any, str, int | None] | Problem:
    """Decode UTF-8 and parse strictly (`audit.jsontext`: no NaN, no infinite number, no integer past
    64 bits, no lone surrogate, no repeated key), turning every failure into a located problem.
    Returns the document, its text and a bound on the length of its strings (None when unknown,
    see `_text_shape`)."""
    try:
        text = _strip_bom(raw).decode("utf-8")
    except UnicodeDecodeError as exc:
        return problem(origin, "encoding", "not_utf8", byte=exc.start)
    try:
        doc = loads(text, max_depth=max_depth, allow_bom=False, check_depth=False, utf8=True)
    except JsonTextError as exc:
        code, params = json_refusal(exc)
        return Problem(origin, exc.code, problem_words.message(code, params, Lang.EN), path=exc.path, line=exc.line,
                       column=exc.column, problem=code, params=params)
    shape = _text_shape(text, max_depth)
    too_deep, longest = shape if shape is not None else (depth(doc) > max_depth, None)
    if too_deep:
        return problem(origin, "limit", "too_deep", max=max_depth)
    return doc, text, longest


_REFUSALS = (("outside the range of a finite number", "not_finite"), ("not a number JSON knows", "not_a_number"),
             ("64-bit range", "int_range"), ("lone surrogate", "surrogate"), ("appears twice", "duplicate_key"))
"""audit.jsontext's refusals of a value that parses (its message names them): the reason codes of
problems.toml."""


def json_refusal(exc: JsonTextError) -> tuple[str, dict[str, Any]]:
    """The problem code and params of what `jsontext.loads` refused."""
    text = exc.message
    if exc.code == "encoding":
        found = re.search(r"byte (\d+)", text)
        return "not_utf8", {"byte": int(found.group(1)) if found else 0}
    if exc.code == "limit":
        found = re.search(r"deeper than (\d+)", text)
        return "too_deep", {"max": int(found.group(1)) if found else 0}
    for words, reason in _REFUSALS:
        if words in text:
            return "not_keepable", {"reason": reason, "text": text}
    return "malformed_json", {"reason": text.removeprefix("malformed JSON: ")}


_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_CURLY_AS_SQUARE = str.maketrans("{}", "[]")


def _text_shape(text: str, max_depth: int) -> tuple[bool, int] | None:
    """(nested deeper than `max_depth`?, a bound on the length of every string and key), read from
    the text of a document `json.loads` accepted. Profiled, the two walks over the parsed objects
    for these limits cost more than parsing; this costs less than half of them.

    Unless the text holds an escaped quote (backslash, quote), quotes alternate between opening
    and closing a string, so splitting on them gives the pieces outside strings (even) and inside
    (odd). A string decodes to at most as many characters as it is written with, so the longest
    odd piece bounds it. The brackets outside strings are the containers; each `replace` pass
    removes every innermost one (`{}` counted as `[]`: valid JSON pairs them properly), so the
    depth is the number of passes that empty them. With an escaped quote: None, the walks decide."""
    if '\\"' in text:
        return None
    pieces = text.split('"')
    longest = max(map(len, pieces[1::2]), default=0)
    skeleton = _NOT_BRACKET.sub("", "".join(pieces[0::2])).translate(_CURLY_AS_SQUARE)
    for _ in range(max_depth):
        if not skeleton:
            break
        skeleton = skeleton.replace("[]", "")
    return bool(skeleton), longest


def _json_type(value: Any) -> str:
    """JSON's name for a parsed value's type, for messages."""
    names = {list: "an array", str: "a string", bool: "a boolean", int: "a number", float: "a number"}
    return names.get(type(value), "null")


_HAND_PATH = re.compile(r"^\$?\.?hands\[(\d+)\]")


def _path_text(path: Any) -> str:
    """A SchemaError path as text, whether it came as a string or a sequence."""
    if isinstance(path, str):
        return path
    if isinstance(path, (list, tuple)):
        text = ""
        for part in path:
            text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
        return text
    return "" if path is None else str(path)


def _hand_index(path: Any) -> int | None:
    """Which hand of a match a schema error is about, or None for the envelope."""
    found = _HAND_PATH.match(_path_text(path))
    return int(found.group(1)) if found else None


def _schema_problem(origin: Origin, error: SchemaErrorLike) -> Problem:
    """A schema error as a problem; a match's hand errors point at that hand."""
    path = _path_text(error.path)
    index = _hand_index(path)
    where = origin.with_hand(index) if index is not None else origin
    rule = error.rule if isinstance(error.rule, str) else None
    code = getattr(error, "code", "")
    params = getattr(error, "params", {})
    return Problem(where, "schema", str(error.message), path=path or None, rule=rule,
                   problem=code if isinstance(code, str) else "", params=params if isinstance(params, dict) else {})


_WS = re.compile(r"[ \t\n\r]*")


def _skip(text: str, index: int) -> int:
    """Index of the next non-whitespace character."""
    found = _WS.match(text, index)
    return found.end() if found else index


def _array_spans(text: str, start: int, decoder: json.JSONDecoder) -> tuple[list[tuple[int, int]], int]:
    """Spans of the elements of the array opening at `start`, and the index after it."""
    spans: list[tuple[int, int]] = []
    index = _skip(text, start + 1)
    if text[index] == "]":
        return spans, index + 1
    while True:
        _, end = decoder.raw_decode(text, index)
        spans.append((index, end))
        index = _skip(text, end)
        if text[index] == "]":
            return spans, index + 1
        index = _skip(text, index + 1)


def _top_level_spans(text: str, key: str) -> list[tuple[int, int]] | None:
    """Spans of the elements of top-level array `key` (the last one wins, as in json.loads)."""
    decoder = json.JSONDecoder()
    found: list[tuple[int, int]] | None = None
    index = _skip(text, 0)
    index = _skip(text, index + 1)
    while text[index] == '"':
        name, index = decoder.raw_decode(text, index)
        index = _skip(text, _skip(text, index) + 1)
        if name == key and text[index] == "[":
            found, index = _array_spans(text, index, decoder)
        else:
            _, index = decoder.raw_decode(text, index)
        index = _skip(text, index)
        if text[index] == ",":
            index = _skip(text, index + 1)
    return found


def _canonical(doc: Any) -> bytes:
    """The fallback bytes of a hand that could not be sliced."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _hand_slices(text: str, hands: list[Any]) -> list[tuple[bytes, str]]:
    """Each hand's bytes as it appeared in the match, checked by parsing them back."""
    try:
        spans = _top_level_spans(text, "hands")
    except (ValueError, IndexError):
        spans = None
    if spans is None or len(spans) != len(hands):
        return [(_canonical(hand), "canonical") for hand in hands]
    result: list[tuple[bytes, str]] = []
    for (start, end), hand in zip(spans, hands):
        piece = text[start:end]
        same = json.loads(piece) == hand
        result.append((piece.encode("utf-8"), "slice") if same else (_canonical(hand), "canonical"))
    return result
