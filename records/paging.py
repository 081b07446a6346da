"""One page of a list (records, receipts, cases, the trail): its rows, the matches in all, the counts
per kind under the other filters, and where it sits. One dataclass for every list of the store
(issue 35.5: it was written four times). No Flask."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Page:
    """One page of a list, newest first unless the list says otherwise."""

    rows: list[dict[str, Any]]
    total: int
    page: int
    per_page: int
    counts: dict[str, int] = field(default_factory=dict)
    """Matches per kind (verdict, outcome, status) under every filter but that kind's own."""
    exact: bool = True
    """False when counting stopped at a budget (the records list): `counts` and `total` are then lower
    bounds."""

    @property
    def pages(self) -> int:
        """How many pages the whole result has (at least 1)."""
        return max(1, -(-self.total // self.per_page))


def offset(page: int, per_page: int) -> int:
    """The rows before page `page` (a page below 1 is page 1)."""
    return (max(page, 1) - 1) * per_page


__all__ = ["Page", "offset"]
