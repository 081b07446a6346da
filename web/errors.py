"""Every error becomes a clear 4xx: JSON under /api/, a page elsewhere.

The message always says what was wrong with what (file, JSON path, record id),
so a client never has to guess; 413 names the configured limit. An error made by `fail` has a
stable `code` (web/errors.toml) and its message in the request's language (issue 23, point 1);
the JSON body carries the code, the page its Chinese or English words. Every refusal of the web
layer is made so (tests/web/test_refusal_codes.py reads web/ for words not from a catalogue);
Werkzeug's own (an unknown address) is `http_<status>`, named by its status in the page's language.
"""
from __future__ import annotations

import re
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from flask import Flask, current_app, jsonify, render_template, request
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge


from audit.vocabulary import Lang
from records.search_index import SearchIndexDamaged
from web.i18n import gettext_in, request_language

WORDS_FILE = Path(__file__).with_name("errors.toml")


class ApiError(HTTPException):
    """An HTTP error with structured details (per-field or per-path problems); `error_code` is its
    stable code (web/errors.toml) when it was made by `fail`."""

    def __init__(self, code: int, message: str, details: Any = None, *, error_code: str | None = None,
                 params: dict[str, Any] | None = None) -> None:
        super().__init__(description=message)
        self.code = code
        self.details = details
        self.error_code = error_code
        self.params: dict[str, Any] = dict(params or {})
        """The values the message is made from, so it can be worded again in another language (a
        refused upload's receipt, read later by someone else)."""


@lru_cache(maxsize=1)
def words() -> dict[str, Any]:
    """errors.toml, read once; every code has both languages."""
    data = tomllib.loads(WORDS_FILE.read_text(encoding="utf-8"))
    for code, entry in data.items():
        if code not in ("http", "field", "fields", "choices") and set(entry) != {"en", "zh"}:
            raise ValueError(f"errors.toml [{code}]: needs exactly en and zh")
    return data


PAYMENT_ROW = re.compile(r"payments\[(?P<index>\d+)\](?:\.(?P<key>\w+))?")
"""A decision's payment row, or one of its fields (`payments[0].amount`), as the case forms name it."""
OPTION_PREFIX = "options."


def field_name(field: str, lang: Lang | str) -> str:
    """A field as an error names it (issue 33.4): in English its key as typed; in Chinese its words
    (errors.toml [fields.zh]), an option by its parameter's words (`options.hot_shot.bonus` ->
    选项“热炮加分”), a payment row by its number (第 1 笔付款的金额); a key the service does not
    know is the asker's own, quoted as typed (“colour”)."""
    if Lang(lang) is not Lang.ZH:
        return field
    names: dict[str, str] = words()["fields"]["zh"]
    if field in names:
        return names[field]
    row = PAYMENT_ROW.fullmatch(field)
    if row is not None:
        key = row.group("key")
        return f"第 {int(row.group('index')) + 1} 笔付款" + (f"的{names.get(key, key)}" if key else "")
    if field.startswith(OPTION_PREFIX):
        return f"{names['options']}“{option_words(field[len(OPTION_PREFIX):])}”"
    head, dot, rest = field.partition(".")
    if dot and head in names:  # a place inside a JSON body the asker sent: its keys are theirs
        return f"{names[head]}中的“{rest}”"
    return f"“{field}”"


def option_words(path: str) -> str:
    """A profile parameter in Chinese (parameters.toml); under a known table, an unknown key is
    the table's words and the key as typed (`热炮” 中的 “nope`... see `field_name`); else as typed."""
    from audit.vocabulary import parameters

    named = parameters()
    if path in named:
        return str(named[path]["zh"])
    head, _, rest = path.rpartition(".")
    while head:
        if head in named:
            return f"{named[head]['zh']}”中的“{path[len(head) + 1:]}"
        head, _, _ = head.rpartition(".")
    return path


def choice_name(field: str, value: str, lang: Lang | str) -> str:
    """A value of a field that takes one of a few (errors.toml [choices]) in `lang`: the page's
    label in Chinese (`invalid` -> 无效), the value as typed in English or when unknown."""
    msgid = words()["choices"].get(field, {}).get(value)
    if Lang(lang) is not Lang.ZH or msgid is None:
        return value
    return gettext_in(Lang.ZH, str(msgid))


def error_text(code: str, lang: Lang | str, **params: Any) -> str:
    """The message of error `code` in `lang`; a list param (the names one may use) is joined, in
    Chinese each name quoted as it is written (`"weile"、"cuocuo"`)."""
    zh = Lang(lang) is Lang.ZH
    values = {key: ("、".join(f'"{v}"' for v in value) if zh else ", ".join(map(str, value)))
              if isinstance(value, (list, tuple)) else value for key, value in params.items()}
    return str(words()[code][Lang(lang).value]).format(**values)


_FIELD_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("one_of", re.compile(r"Must be one of: (?P<choices>.*)\.")),
    ("range", re.compile(r"Must be greater than or equal to (?P<min>\S+) and less than or equal to (?P<max>\S+)\.")),
    ("length", re.compile(r"Length must be between (?P<min>\d+) and (?P<max>\d+)\.")),
    ("longer", re.compile(r"Longer than maximum length (?P<max>\d+)\.")),
)


def field_message(message: str, lang: Lang | str, field: str = "") -> str:
    """One of marshmallow's own messages about `field` in `lang` (its fixed words matched against
    errors.toml [field.en]; the values of a `one_of` named by `choice_name`); a message not known
    stays as it is."""
    language = Lang(lang).value
    table = words()["field"]
    if language == "en":
        return message
    for key, text in table["en"].items():
        if "{" not in text and text == message:
            return str(table[language][key])
    for key, pattern in _FIELD_PATTERNS:
        found = pattern.fullmatch(message)
        if found:
            values = found.groupdict()
            if "choices" in values:
                values["choices"] = "、".join(choice_name(field, c.strip(), lang) for c in values["choices"].split(","))
            return str(table[language][key]).format(**values)
    return message


def field_messages(details: Any, lang: Lang | str, field: str = "") -> Any:
    """marshmallow's error dict with each message in `lang` (keys, the field names, unchanged); a
    message already in the asker's language (a number's, `web.numbers.CodedMessage`) is kept."""
    if isinstance(details, dict):
        return {key: field_messages(value, lang, key if isinstance(key, str) else field)
                for key, value in details.items()}
    if isinstance(details, list):
        return [field_messages(value, lang, field) for value in details]
    if isinstance(details, str) and not getattr(details, "code", ""):
        return field_message(details, lang, field)
    return details


def detail_rows(details: Any, prefix: str = "") -> list[tuple[str, list[str]]]:
    """An error dict as (field, messages) rows, nested fields by their path (`payments[0].amount`),
    for the error page to name each field in words."""
    if isinstance(details, dict):
        rows: list[tuple[str, list[str]]] = []
        for key, value in details.items():
            path = f"{prefix}[{key}]" if isinstance(key, int) else f"{prefix}.{key}" if prefix else str(key)
            rows += detail_rows(value, path)
        return rows
    if isinstance(details, list) and all(isinstance(item, str) for item in details):
        return [(prefix, [str(item) for item in details])]
    if isinstance(details, list):
        return [row for index, item in enumerate(details) for row in detail_rows(item, f"{prefix}[{index}]")]
    return [(prefix, [str(details)])]


def summary(details: Any, lang: Lang | str) -> str:
    """A one-line summary of a (translated) error dict: `page: not a whole number; ...` /
    `页码：不是整数。；...`, each field named by `field_name`; a message that names its field
    already (a number's, which carries a `code`) stands alone."""
    zh = Lang(lang) is Lang.ZH
    if isinstance(details, dict):
        parts = []
        for key, value in details.items():
            if getattr(value, "code", "") or (isinstance(value, list) and all(getattr(v, "code", "") for v in value)):
                parts.append(summary(value, lang))
            else:
                name = field_name(str(key), lang)
                parts.append(f"{name}：{summary(value, lang)}" if zh else f"{name}: {summary(value, lang)}")
        return "；".join(parts) if zh else "; ".join(parts)
    if isinstance(details, list):
        return " ".join(summary(value, lang) for value in details)
    return str(details)


def fail(status: int, code: str, details: Any = None, *, field: str | None = None, **params: Any) -> ApiError:
    """The error `code` of errors.toml, its message in the request's language; with `field` the
    details name that field with the message (and the message may name it: `{field}`)."""
    lang = request_language()
    message = error_text(code, lang, field=field_name(field, lang) if field is not None else None, **params)
    if field is not None:
        details = {field: [message]}
    return ApiError(status, message, field_messages(details, lang), error_code=code,
                    params={**params, **({"field": field} if field is not None else {})})


def reworded(code: str, params: dict[str, Any], lang: Lang | str) -> str | None:
    """The message of error `code` (web/errors.toml) from the params it was made from, in `lang`:
    a field among them named in `lang`; None for a code of no entry or params that do not fit."""
    if code not in words() or code in ("http", "field", "fields", "choices"):
        return None
    values = dict(params)
    if isinstance(values.get("field"), str):
        values["field"] = field_name(values["field"], lang)
    try:
        return error_text(code, lang, **values)
    except (KeyError, IndexError, ValueError):
        return None


def problem_label(code: str, lang: Lang | str) -> str:
    """An error code of a result line or a receipt (`schema`, `archive`, `http-403`) in words of
    `lang`: the page's label of the code, a refusal of the whole request by its status's name."""
    if code.startswith("http-") and Lang(lang) is Lang.ZH:
        return str(words()["http"]["names"]["zh"].get(code[len("http-"):], code))
    return gettext_in(lang, code)


def unknown_profile(profile: str, known: list[str]) -> ApiError:
    """400 `unknown_profile`: the profiles one may use named as a reader knows them (`微乐` in
    Chinese, `weile` in English: the name a program sends)."""
    from web.labels import profile_title

    lang = request_language()
    shown = [profile_title(name, lang.value) for name in known] if lang is Lang.ZH else known
    refused = fail(400, "unknown_profile", field="profile", profile=profile, known=shown)
    if wants_json():  # the names a program sends
        refused.details = {**refused.details, "known": list(known)}
    return refused


class Coded(Protocol):
    """A lower layer's refusal that says what is wrong as data: the field, a code, its values."""

    field: str
    code: str
    params: dict[str, Any]


def coded(status: int, exc: Coded) -> ApiError:
    """The HTTP error of a lower layer's refusal that carries its `field`, `code` and `params`
    (records' NoteError, ConformanceError): worded here, in the request's language."""
    params = dict(exc.params)
    if isinstance(params.get("choices"), (list, tuple)):
        params["choices"] = [choice_name(exc.field, str(choice), request_language()) for choice in params["choices"]]
    return fail(status, exc.code, field=exc.field, **params)


class Refused(Protocol):
    """An upload refused whole by the reader (records.ingest.Problem: too many records)."""

    @property
    def problem(self) -> str: ...

    def describe(self, lang: Lang | str = ...) -> str: ...


def refused_upload(refused: Refused) -> ApiError:
    """The 413 of an upload the reader refused whole: its problem's code (records/problems.toml)
    and words, in the request's language."""
    return ApiError(413, refused.describe(request_language()), error_code=refused.problem,
                    params=dict(getattr(refused, "params", None) or {}))


def bad_fields(code: str, messages: Any) -> ApiError:
    """A 400 for a query or body marshmallow refused (`bad_query` or `bad_body`), every field named."""
    lang = request_language()
    translated = field_messages(messages, lang)
    return ApiError(400, error_text(code, lang, problems=summary(translated, lang)), translated, error_code=code)


def wants_json() -> bool:
    """API paths answer in JSON; everything else with a page."""
    return request.path.startswith("/api/")


def error_response(code: int, name: str, message: str, details: Any = None,
                   error_code: str | None = None) -> ResponseReturnValue:
    """The one place error responses are built."""
    key = error_code or f"http_{code}"
    if wants_json():
        body = {"status": code, "error": name, "code": key, "message": message, "details": details}
        return jsonify(body), code
    shown = words()["http"]["names"]["zh"].get(str(code), name) if request_language() is Lang.ZH else name
    return render_template("error.html", code=code, name=shown, message=message, details=details,
                           error_code=key), code


def handle_http(exc: HTTPException) -> ResponseReturnValue:
    """Any HTTP error raised with abort() or by Werkzeug (routing redirects pass through); Werkzeug's
    own words (`The requested URL was not found ...`) are its status's in the page's language."""
    if exc.code is not None and exc.code < 400:
        return exc
    code = exc.code or 500
    message = exc.description or exc.name
    if exc.description == type(exc).description and request_language() is Lang.ZH:
        message = words()["http"]["descriptions"]["zh"].get(str(code), message)
    return error_response(code, exc.name, message, getattr(exc, "details", None), getattr(exc, "error_code", None))


TOO_LARGE: dict[str | None, tuple[str, str]] = {
    "parts": ("form_too_many_parts", "MAX_FORM_PARTS"),
    "memory": ("form_field_too_large", "MAX_FORM_MEMORY_SIZE"),
    None: ("body_too_large", "MAX_CONTENT_LENGTH"),
}
"""Which of werkzeug's limits refused a request (`_form_limit`): its code and its setting."""


def handle_too_large(exc: RequestEntityTooLarge) -> ResponseReturnValue:
    """413 naming the limit, so the client knows how to split its upload."""
    code, setting = TOO_LARGE[_form_limit(exc)]
    message = error_text(code, request_language(), limit=current_app.config.get(setting))
    return error_response(413, exc.name, message, None, code)


def _form_limit(exc: BaseException) -> str | None:
    """Which of werkzeug's form limits raised (it says none in the exception): `parts` when its
    multipart parser counted too many parts, `memory` when a field outgrew the form memory, else
    None (the body size). Read from the innermost frame that raised."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return None
    code = tb.tb_frame.f_code
    if "werkzeug" not in code.co_filename:
        return None
    if code.co_name == "next_event":  # MultipartDecoder counting parts against max_form_parts
        return "parts"
    if code.co_name in ("receive_data", "parse"):  # a field's bytes against max_form_memory_size
        return "memory"
    return None


def handle_search_index_damaged(exc: SearchIndexDamaged) -> ResponseReturnValue:
    """A search the index could not answer (`records.search_index.reading`): 503 with code
    `search_index_damaged`, saying that an operator should run `verify` and `reindex`; SQLite's own
    words go to the log, not to the reader."""
    current_app.logger.error("a search could not read the search index: %s (run flask verify, then flask reindex)",
                             exc.error)
    code = "search_index_damaged"
    return error_response(503, "Service Unavailable", error_text(code, request_language()), None, code)


DEFAULT_MAX_URL_LENGTH = 8000
"""Bytes of path and query string accepted (`MAX_URL_LENGTH`), below gunicorn's 8,190 for the
whole request line, so Flask answers most over-long URLs itself, in the path's format."""


def refuse_long_url() -> ResponseReturnValue | None:
    """414 with code `url_too_long` for a URL past `MAX_URL_LENGTH`, before anything reads it:
    JSON under /api/, the error page elsewhere (the server's own page only past its own limit,
    and then JSON too: web/server.py)."""
    limit = int(current_app.config.get("MAX_URL_LENGTH") or DEFAULT_MAX_URL_LENGTH)
    size = len(request.full_path.encode("utf-8", "surrogateescape"))
    if size <= limit:
        return None
    message = error_text("url_too_long", request_language(), size=size, limit=limit)
    return error_response(414, "URI Too Long", message, None, "url_too_long")


DEFAULT_MAX_HEADER_FIELDS = 100
"""Header fields a request may have (`MAX_HEADER_FIELDS`; a browser sends about 15). Below the 200
gunicorn lets through (web/gunicorn_conf.py), so Flask answers, in the format of the path; the
same as the development server's own limit (Python's http.server), so both refuse alike."""
DEFAULT_MAX_HEADER_FIELD_SIZE = 8190
"""Bytes of one header field, `Name: value` (`MAX_HEADER_FIELD_SIZE`): gunicorn's own default,
so nothing it took before is refused; below the 32,768 bytes gunicorn now lets through."""
HEADERS_TOO_LARGE = "Request Header Fields Too Large"


def refuse_large_headers() -> ResponseReturnValue | None:
    """431 for a request with more header fields than `MAX_HEADER_FIELDS` (code `too_many_headers`)
    or a field, name and value, over `MAX_HEADER_FIELD_SIZE` bytes (`header_too_large`: a 20 KB
    cookie), before anything reads them: JSON under /api/, the error page elsewhere (issue 34.5).
    Past gunicorn's own limits the server answers, in JSON (web/server.py)."""
    fields = list(request.headers.items())
    most = int(current_app.config.get("MAX_HEADER_FIELDS") or DEFAULT_MAX_HEADER_FIELDS)
    if len(fields) > most:
        message = error_text("too_many_headers", request_language(), count=len(fields), limit=most)
        return error_response(431, HEADERS_TOO_LARGE, message, None, "too_many_headers")
    largest = int(current_app.config.get("MAX_HEADER_FIELD_SIZE") or DEFAULT_MAX_HEADER_FIELD_SIZE)
    for name, value in fields:
        size = len(name) + 2 + len(value)  # WSGI gives each byte of a header as one character
        if size > largest:
            shown = name if len(name) <= 64 else name[:63] + "…"  # a 20 KB name is not echoed back
            message = error_text("header_too_large", request_language(), name=shown, size=size, limit=largest)
            return error_response(431, HEADERS_TOO_LARGE, message, None, "header_too_large")
    return None


def init_app(app: Flask) -> None:
    """Register the handlers (the header limits first of the checks: only the page language is
    chosen before them, so a refusal speaks it) and the error page's helpers: `field_name(field)`
    in the page's language and `detail_rows(details)`."""
    app.jinja_env.globals.update(field_name=lambda field: field_name(str(field), request_language()),
                                 detail_rows=detail_rows,
                                 problem_label=lambda code: problem_label(str(code), request_language()))
    app.before_request(refuse_large_headers)
    app.before_request(refuse_long_url)
    app.register_error_handler(RequestEntityTooLarge, handle_too_large)
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(SearchIndexDamaged, handle_search_index_damaged)
