"""What a schema problem is, shared by `audit.schema` and the marshmallow schemas
(`audit.schema_marshmallow`, imported only when needed) without an import between them: a JSON path
(`Part`s), a `Msg` (a str that holds a catalogue code and its params), a rule; and `short`, the
bad value as a message quotes it."""
from __future__ import annotations

import reprlib
from typing import Any

MAX_REPR = 40

Part = str | int


class Msg(str):
    """A problem as marshmallow carries it (a str: the code) with its catalogue code and params.

    The words are rendered only when asked (`SchemaError.text`)."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, **params: Any) -> "Msg":
        self = super().__new__(cls, code)
        self.code, self.params = code, params
        return self


Problem = tuple[tuple[Part, ...], Msg, str | None]


def short(value: object) -> str:
    """repr of a bad value, cut to 40 chars, so a message stays one readable line.

    Never raises: documents may hold huge ints (repr fails past 4300 digits),
    deeply nested lists (repr recurses) or objects with a broken __repr__.
    """
    try:
        text = repr(value[:MAX_REPR + 1]) if isinstance(value, str) else _REPR.repr(value)
    except Exception:  # noqa: BLE001 - any failure of repr must not escape
        text = f"<{type(value).__name__}>"
    return text if len(text) <= MAX_REPR else text[: MAX_REPR - 3] + "..."


def _make_repr() -> reprlib.Repr:
    """A depth- and size-limited repr for lists and objects inside messages."""
    limited = reprlib.Repr()
    limited.maxlevel, limited.maxlist, limited.maxdict = 2, 4, 3
    limited.maxstring = limited.maxother = limited.maxlong = MAX_REPR
    return limited


_REPR = _make_repr()
