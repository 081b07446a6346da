"""The payments that would make a record say what its audit says: the rows a case's decision
form starts from (issue 23), so an operator chooses and checks instead of typing.

Three bases, by what the record and the audit give:

- `items`: the record lists its payments (`result.items`) and the audit settled the hand: per
  ledger row (kind, payer, payee) the audit's amount minus the record's is still owed from payer
  to payee (negative: owed back), netted per pair of seats, so each pair is at most one row.
- `totals`: the record gives only net scores: each seat's `difference` (record − audit, the one
  sign of `report.dispute`) is what it must give back (positive) or receive (negative); the
  largest giver pays the largest receiver first, so n seats need at most n − 1 rows.
- `undo`: the audit has no settlement (an illegal move, R16): the record's payments have no
  basis, and undoing them is the same as `totals` against an audit of zeros. The operator
  decides (the summary says so); this is what "undo the record" means, as rows.

A difference the seats cannot balance (a record whose scores do not sum to zero) is left over
in `unbalanced`, never forced onto a seat. Pure functions, no Flask, no store.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from report.dispute import difference
from report.model import ledger, record_result


class Basis(StrEnum):
    """What the rows were worked out from."""

    ITEMS = "items"
    TOTALS = "totals"
    UNDO = "undo"


@dataclass(frozen=True)
class Correction:
    """`payer` (a seat) pays `payee` `amount` points (always positive)."""

    payer: int
    payee: int
    amount: int


@dataclass(frozen=True)
class Corrections:
    """The rows, their basis (None when the audit gives nothing to compare: an invalid record,
    or no claimed scores), and what no pair of seats could balance (0 normally)."""

    basis: Basis | None
    payments: tuple[Correction, ...]
    unbalanced: int = 0


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _seat(value: Any, seats: int) -> int | None:
    seat = _int(value)
    return seat if seat is not None and 0 <= seat < seats else None


def from_items(computed: Sequence[Mapping[str, Any]], claimed: Sequence[Mapping[str, Any]],
               seats: int) -> tuple[Correction, ...]:
    """Per pair of seats, the net of (audit − record) over every ledger row between them; rows
    naming no seat (or one outside the table) are left out."""
    net: dict[tuple[int, int], int] = {}
    for row in ledger([dict(i) for i in computed], [dict(i) for i in claimed]):
        payer, payee = _seat(row.payer, seats), _seat(row.payee, seats)
        if payer is None or payee is None or payer == payee or row.difference is None:
            continue
        owed = -row.difference  # record − audit on this row, turned into what payer still owes payee
        low, high = sorted((payer, payee))
        net[(low, high)] = net.get((low, high), 0) + (owed if payer == low else -owed)
    out = []
    for (low, high), amount in sorted(net.items()):
        if amount > 0:
            out.append(Correction(low, high, amount))
        elif amount < 0:
            out.append(Correction(high, low, -amount))
    return tuple(out)


def from_totals(differences: Sequence[int]) -> tuple[tuple[Correction, ...], int]:
    """Rows balancing each seat's difference (record − audit: positive gives back), largest
    first (ties: lower seat first); and what is left unbalanced."""
    gives = {seat: d for seat, d in enumerate(differences) if d > 0}
    gets = {seat: -d for seat, d in enumerate(differences) if d < 0}
    out = []
    while gives and gets:
        payer = max(gives, key=lambda s: (gives[s], -s))
        payee = max(gets, key=lambda s: (gets[s], -s))
        amount = min(gives[payer], gets[payee])
        out.append(Correction(payer, payee, amount))
        for side, seat in ((gives, payer), (gets, payee)):
            side[seat] -= amount
            if not side[seat]:
                del side[seat]
    return tuple(out), sum(gives.values()) + sum(gets.values())


def corrections(audit: Mapping[str, Any] | None, document: Any) -> Corrections:
    """The rows that turn the record's payments into the audit's (see the module's bases)."""
    audit = audit or {}
    result = record_result(document)
    claimed_scores = result.get("scores") if isinstance(result.get("scores"), list) else None
    settlement = audit.get("settlement") if isinstance(audit.get("settlement"), dict) else None
    if claimed_scores is None or not all(_int(v) is not None for v in claimed_scores):
        return Corrections(None, ())
    seats = len(claimed_scores)
    if settlement is None:
        if audit.get("verdict") != "illegal":
            return Corrections(None, ())
        rows, left = from_totals([difference(0, v) for v in claimed_scores])
        return Corrections(Basis.UNDO, rows, left)
    items = result.get("items")
    computed_items = settlement.get("items")
    if isinstance(items, list) and isinstance(computed_items, list):
        good = [i for i in items if isinstance(i, Mapping)]
        return Corrections(Basis.ITEMS, from_items([i for i in computed_items if isinstance(i, Mapping)], good, seats))
    scores = settlement.get("scores")
    if not isinstance(scores, list) or len(scores) != seats or not all(_int(v) is not None for v in scores):
        return Corrections(None, ())
    rows, left = from_totals([difference(c, v) for c, v in zip(scores, claimed_scores)])
    return Corrections(Basis.TOTALS, rows, left)


__all__ = ["Basis", "Correction", "Corrections", "corrections", "from_items", "from_totals"]
