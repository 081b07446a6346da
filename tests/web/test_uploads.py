"""web/uploads.py: the status an upload answers, from its result lines."""
from __future__ import annotations

from typing import Any

import pytest

from web.uploads import upload_status


def line(status: str, verdict: str | None = "clean") -> dict[str, Any]:
    """One result line as records.pipeline writes it (only what the status reads)."""
    return {"status": status, "verdict": verdict}


@pytest.mark.parametrize("statuses, expected", [
    ([line("created"), line("revision")], 201),
    ([line("duplicate"), line("created")], 201),
    ([line("duplicate"), line("duplicate")], 200),
    ([line("created"), line("rejected", None)], 207),
    ([line("rejected", None), line("skipped", None)], 422),
    ([line("created", None), line("created")], 202),  # stored, but the engine failed on one
])
def test_upload_status(statuses: list[dict[str, Any]], expected: int) -> None:
    assert upload_status(statuses) == expected
