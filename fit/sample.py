"""A fit of more records than it can hold (issue 36.2, docs/fit.md, docs/decisions.md 36.2c): the
search runs on a sample of them, then every record is audited under the base and the fitted profile
(`Verification`), a record at a time, keeping only counts and the first few records left unexplained.

Pure functions over iterables: where the records come from (the store, an upload) is the caller's.
The sample is deterministic (the same selection gives the same sample) and spread over every group
(a client build and period): each group gets its share of the sample by its records (largest
remainders, at least one record a group while the sample has room for every group), taken evenly
over the group's records in the order given (the store's: by record id).
"""
from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from audit.api import load_profile, validate_record
from audit.play import Verdict, audit_hand, verdict_of
from fit.search import Record

K = TypeVar("K", bound=Hashable)

LISTED: Final = 200
"""Records left unexplained by the fitted profile whose sources a verification keeps (the first ones)."""


def quotas(counts: Mapping[K, int], size: int) -> dict[K, int]:
    """How many of each group's records a sample of `size` takes: proportional to the group's
    records, the remainders to the largest fractions (ties by the groups' order); when `size` is at
    least the number of groups, every group at least one. Their sum is min(size, all records)."""
    total = sum(counts.values())
    if size >= total:
        return dict(counts)
    keys = [k for k, n in counts.items() if n > 0]
    floor = 1 if size >= len(keys) else 0
    out = {k: floor for k in keys}
    left = size - floor * len(keys)
    rest = {k: counts[k] - floor for k in keys}
    spare = total - floor * len(keys)
    if left > 0 and spare > 0:
        exact = {k: left * rest[k] / spare for k in keys}
        for k in keys:
            out[k] += min(int(exact[k]), rest[k])
        short = size - sum(out.values())
        order = sorted(keys, key=lambda k: -(exact[k] - int(exact[k])))
        while short > 0:
            moved = False
            for k in order:
                if short > 0 and out[k] < counts[k]:
                    out[k] += 1
                    short -= 1
                    moved = True
            if not moved:
                break
    return out


def spread(items: Iterable[tuple[Any, K]], counts: Mapping[K, int], quota: Mapping[K, int]) -> Iterator[Any]:
    """The items (an id and its group, in a fixed order) a sample takes: of a group of `n` records
    with quota `q`, its k-th record (from 0) when floor((k + 1) q / n) > floor(k q / n), which takes
    exactly `q`, evenly spaced. One pass; memory is a counter a group."""
    seen: dict[K, int] = {}
    for item, key in items:
        k = seen.get(key, 0)
        seen[key] = k + 1
        n, q = counts.get(key, 0), quota.get(key, 0)
        if n and (k + 1) * q // n > k * q // n:
            yield item


@dataclass
class Verification:
    """Every record of a set audited under the base profile and under the fitted one (`options`
    over the base), a record at a time: counts, and the sources of the first `LISTED` records the
    fitted profile leaves not clean. Records that fail the schema (or have a number of seats the
    base does not play) are counted apart, as the fit counts them (`invalid`)."""

    base: str
    options: Mapping[str, Any]
    listed_max: int = LISTED
    records: int = 0
    usable: int = 0
    clean_base: int = 0
    clean_fitted: int = 0
    unexplained: int = 0
    listed: list[str] = field(default_factory=list)
    invalid: int = 0

    def __post_init__(self) -> None:
        self._players = load_profile(self.base).players

    def add(self, record: Record) -> bool:
        """Audit one record; whether the fitted profile leaves it unexplained."""
        self.records += 1
        doc = record.doc
        if validate_record(doc) or len(doc["seats"]) not in self._players:
            self.invalid += 1
            return False
        self.usable += 1
        plain = {**doc, "rules": {"profile": self.base}}  # the record's own rules are not read (as the fit)
        if verdict_of(audit_hand(plain, profile=self.base, schema_checked=True).findings) is Verdict.CLEAN:
            self.clean_base += 1
        fitted = audit_hand(plain, profile=self.base, options=dict(self.options) or None, schema_checked=True)
        if verdict_of(fitted.findings) is Verdict.CLEAN:
            self.clean_fitted += 1
            return False
        self.unexplained += 1
        if len(self.listed) < self.listed_max:
            self.listed.append(record.source)
        return True

    def to_json(self) -> dict[str, Any]:
        """The counts and the sources listed."""
        return {"records": self.records, "usable": self.usable, "invalid": self.invalid,
                "clean": {"base": self.clean_base, "fitted": self.clean_fitted},
                "unexplained": self.unexplained, "listed": list(self.listed), "listed_max": self.listed_max}


__all__ = ["LISTED", "Verification", "quotas", "spread"]
