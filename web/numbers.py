"""The one number reader of the web layer: every form field, query parameter and path segment
that holds a whole number is read here (issue 22.1).

`str.isdigit()` then `int()` let through what `int()` then refused (superscript digits: a 500) and
what it silently took (Arabic-Indic or full-width digits, `+5`, ` 5`, `5_000`). Here a number is
ASCII digits only (`audit.numtext.parse_number`), inside a range the caller names; anything else is a 400
naming the field, with a stable `code` and its text in the request's language (the page dictionary
of web/i18n.py): JSON under /api/, the error page elsewhere (web/errors.py).

`read_number` is for one value the view reads itself; `Number` is the marshmallow field of the
query schemas, so a list query's `page` is read by the same rule; `RowId` is the `<int:...>` of
every URL.
"""
from __future__ import annotations

from typing import Any

import click

from marshmallow import ValidationError, fields
from werkzeug.routing import BaseConverter, ValidationError as RouteMismatch

from audit.vocabulary import NumberProblem, parse_number
from web.errors import ApiError, bad_fields, field_messages, field_name, summary
from web.i18n import message_text, request_language

ROW_ID_MAX = 2**63 - 1
"""The largest id SQLite keeps: every id in a URL, form or query is 1..ROW_ID_MAX."""


TEXTS: dict[NumberProblem, str] = {
    NumberProblem.MISSING: "%(field)s: required, a whole number from %(low)s to %(high)s",
    NumberProblem.NOT_DIGITS: "%(field)s: %(got)s is not a whole number written in the digits 0-9 "
                              "(from %(low)s to %(high)s)",
    NumberProblem.OUT_OF_RANGE: "%(field)s: %(got)s is outside %(low)s to %(high)s",
}
"""English message ids; their Chinese is in web/i18n.py's dictionary like every page text."""


def describe(problem: NumberProblem, field: str, got: str, low: int, high: int) -> str:
    """The message of a problem in the request's language."""
    shown = repr(got[:24] + ("…" if len(got) > 24 else ""))
    return message_text(TEXTS[problem], field=field_name(field, request_language()), got=shown, low=low, high=high)


def read_number(text: str | None, field: str, *, low: int = 1, high: int = ROW_ID_MAX,
                default: int | None = None) -> int | None:
    """A whole number from a form field or query parameter: `default` when absent or empty,
    else ApiError 400 naming `field` unless it is ASCII digits inside low..high."""
    if text is None or text == "":
        if default is not None:
            return default
        return None
    found = parse_number(text, low, high)
    if isinstance(found, NumberProblem):
        raise number_error(found, field, text, low, high)
    return found


def require_number(text: str | None, field: str, *, low: int = 1, high: int = ROW_ID_MAX) -> int:
    """`read_number` for a field that must be there: an absent one is a 400 too."""
    value = read_number(text, field, low=low, high=high)
    if value is None:
        raise number_error(NumberProblem.MISSING, field, "", low, high)
    return value


def number_error(problem: NumberProblem, field: str, got: str, low: int, high: int) -> ApiError:
    """The 400 of a number refused: its problem's code, the message naming `field` (`describe`)."""
    message = describe(problem, field, got, low, high)
    return ApiError(400, message, {field: [message]}, error_code=problem.value)


class CodedMessage(str):
    """A validation message that carries its error code (so a query schema's 400 has one)."""

    code: str = ""

    @classmethod
    def of(cls, text: str, code: str) -> CodedMessage:
        made = cls(text)
        made.code = code
        return made


class Number(fields.Integer):
    """A query schema's whole number, read by `parse_number` (not by int(), which takes `+5`,
    ` 5`, `5_0` and other scripts' digits): ASCII digits in [low, high]. An Integer to apispec,
    so OpenAPI says integer with those bounds."""

    def __init__(self, *, low: int = 1, high: int = ROW_ID_MAX, **kwargs: Any) -> None:
        metadata = {**kwargs.pop("metadata", {}), "minimum": low, "maximum": high}
        super().__init__(metadata=metadata, **kwargs)
        self.low, self.high = low, high

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        field = self.data_key or attr or "value"
        text = value if isinstance(value, str) else str(value)
        found = parse_number(text, self.low, self.high)
        if isinstance(found, NumberProblem):
            raise ValidationError(CodedMessage.of(describe(found, field, text, self.low, self.high), found.value))
        return found



class WholeNumber(fields.Integer):
    """A JSON body's whole number: a JSON integer (not `true`, which marshmallow's strict Integer
    takes as 1, not `1.0`, not `"1"`) inside [low, high], with the same codes as a query's."""

    def __init__(self, *, low: int = 1, high: int = ROW_ID_MAX, **kwargs: Any) -> None:
        metadata = {**kwargs.pop("metadata", {}), "minimum": low, "maximum": high}
        super().__init__(strict=True, metadata=metadata, **kwargs)
        self.low, self.high = low, high

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        field = self.data_key or attr or "value"
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValidationError(CodedMessage.of(describe(NumberProblem.NOT_DIGITS, field, repr(value)[:40],
                                                           self.low, self.high), NumberProblem.NOT_DIGITS.value))
        if not self.low <= value <= self.high:
            raise ValidationError(CodedMessage.of(describe(NumberProblem.OUT_OF_RANGE, field, str(value)[:40],
                                                           self.low, self.high), NumberProblem.OUT_OF_RANGE.value))
        return value


class CommandNumber(click.ParamType):
    """A whole number of a `flask` command's option (click's IntRange reads with int(), so
    `--workers ٥` was 5)."""

    name = "whole number"

    def __init__(self, low: int = 0, high: int = ROW_ID_MAX) -> None:
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        found = parse_number(str(value), self.low, self.high)
        if isinstance(found, NumberProblem):
            self.fail(f"{value!r} is not a whole number from {self.low} to {self.high} (digits 0-9)", param, ctx)
        return found


def first_code(messages: Any) -> str | None:
    """The code of the first coded message in marshmallow's error dict, if any."""
    if isinstance(messages, CodedMessage):
        return messages.code
    items = messages.values() if isinstance(messages, dict) else messages if isinstance(messages, list) else ()
    for item in items:
        code = first_code(item)
        if code:
            return code
    return None


def query_error(exc: ValidationError, default: str = "bad_query") -> ApiError:
    """The 400 of a query string, form or body its schema refused: every message under its field,
    all in `message`, the code of a number's problem (else `default`)."""
    code = first_code(exc.messages)
    if code is None:  # no number's problem: marshmallow's own messages, told in the request's language
        return bad_fields("bad_query" if default == "bad_query" else "bad_body", exc.messages)
    lang = request_language()  # a number's message and marshmallow's own beside it, all in one language
    translated = field_messages(exc.messages, lang)
    return ApiError(400, summary(translated, lang), translated, error_code=code)


class RowId(BaseConverter):
    """`<int:...>` in every URL: ASCII digits, 1..2**63-1 (SQLite's integers). Anything else in
    the segment does not match the route: a 404, never an OverflowError or a record read from
    Arabic-Indic digits."""

    regex = r"[0-9]{1,19}"
    weight = 50
    part_isolating = True

    def to_python(self, value: str) -> int:
        found = parse_number(value, 0, ROW_ID_MAX)
        if isinstance(found, NumberProblem):
            raise RouteMismatch()
        return found

    def to_url(self, value: Any) -> str:
        return str(int(value))


__all__ = ["CommandNumber", "Number", "NumberProblem", "WholeNumber", "ROW_ID_MAX", "RowId", "first_code", "parse_number", "query_error",
           "read_number", "require_number"]


DATE_ARGS = ("date_from", "date_to")
"""Query parameters that are dates (`YYYY-MM-DD`): handed on as ISO text, as the store compares them."""


def query_values(schema: Any, args: Any) -> dict[str, Any]:
    """A list's query string checked by `schema`: empty parameters left out (a form's untouched
    field), a refusal a 400 naming every bad parameter (`query_error`), `lang` dropped (the page's,
    not a filter), dates as ISO text. The one reading of every list's query (issue 35.5)."""
    try:
        values: dict[str, Any] = schema.load({key: value for key, value in args.items() if value != ""})
    except ValidationError as exc:
        raise query_error(exc) from exc
    values.pop("lang", None)
    for key in DATE_ARGS:
        if key in values:
            values[key] = values[key].isoformat()
    return values
