"""The published JSON Schemas (draft 2020-12) of `zhuoji/1` and `zhuoji-match/1`, as data files.

They live in `audit/schemas/` (package data of the wheel); a kit ships a copy
under `schemas/` and the service serves them at `/api/schema/<name>`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Final

import audit

SCHEMA_DIR: Final = Path(audit.__file__).resolve().parent / "schemas"
SCHEMA_NAMES: Final = ("zhuoji-1.json", "zhuoji-match-1.json")
"""The published file names (`/api/schema/zhuoji-1.json`)."""


def schema_bytes(name: str) -> bytes:
    """One schema file's bytes; KeyError for a name that is not published."""
    if name not in SCHEMA_NAMES:
        raise KeyError(name)
    return (SCHEMA_DIR / name).read_bytes()


def schema_files() -> dict[str, bytes]:
    """The schemas as kit files (`schemas/zhuoji-1.json`, ...)."""
    return {f"schemas/{name}": schema_bytes(name) for name in SCHEMA_NAMES}
