"""A refusal of the store's layer told as data (issue 23.1): the field to fix, a stable code and
its values, so the web layer words it in the asker's language (web/errors.toml, `web.errors.coded`)
while the message stays the English the logs and the command line keep."""
from __future__ import annotations

from typing import Any


class FieldRefusal(ValueError):
    """`field: message`, with `field`, `code` and `params` kept apart."""

    def __init__(self, field: str, message: str, code: str, **params: Any) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.code = code
        self.params = params


__all__ = ["FieldRefusal"]
